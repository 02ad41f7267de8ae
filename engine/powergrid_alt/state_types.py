"""The shape of the variant's state as TypedDicts (issue 26), as engine/powergrid/state_types.py
does for the base game: the same plain JSON dict rules.py's docstring describes key by key,
named so that mypy catches a misspelt key or a wrong value type in the rules.

The variant's state is the base state with its own player records (no pooled "res": tokens
live on built plants, ALT-10) and its own keys (plants in cities, TPs, lines, the end vote).
`AltState` is what the rule functions take: the TypedDict, or the plain `dict[str, Any]` the
game protocol passes around (and the base rules take); on the TypedDict side every key is
checked. (No `from __future__ import annotations` here: tests read `__required_keys__`.)
"""

from typing import Any, NotRequired, TypedDict, cast

from engine.powergrid.state_types import CommonPlayer, CommonState


class AltPlayerState(CommonPlayer):
    """The base player's keys (engine/powergrid/state_types.py), read the variant's way:
    "plants" holds every owned plant, hand and built (ALT-8, ALT-D-3), ascending; "cities" the
    nodes holding his built plant or TP (ALT-2). No pooled "res" (ALT-10)."""


class BuiltPlant(TypedDict):
    owner: str
    city: str  # the node
    res: dict[str, int]  # the tokens stored on it (ALT-10)


class Line(TypedDict):
    id: int
    owner: str
    nodes: list[str]
    segs: list[str]  # segs[i] joins nodes[i] and nodes[i + 1] (graph.py's "A|B" keys)


class EndVote(TypedDict):
    by: str
    yes: list[str]


class Purchase(TypedDict):
    resource: str
    count: int
    plant: int


class PowerGridAltState(CommonState[AltPlayerState]):
    # the base game's keys are CommonState's (engine/powergrid/state_types.py); the variant's
    # own keys (rules.py's docstring):
    built: dict[str, BuiltPlant]  # str(plant) -> the plant in a city
    tps: dict[str, list[str]]  # node -> owners of its TPs, in placement order (ALT-24)
    lines: list[Line]
    next_line: int
    displacer: dict[str, str]  # node -> the player who displaced TPs there (ALT-15)
    activity: bool
    idle: int
    final: bool
    end_vote: EndVote | None
    # games stored before the option replay as version 1 (rules.rules_version)
    rules_version: NotRequired[int]
    # version 2, only while Phase 3 / Phase 5 is declared (purchase.py, rules.py)
    declared_buys: NotRequired[dict[str, list[Purchase]]]
    power_declared: NotRequired[dict[str, dict[str, Any]]]


AltState = PowerGridAltState | dict[str, Any]
AltLine = Line | dict[str, Any]  # a line of either side of the union


def plain(state: AltState) -> dict[str, Any]:
    """The state as the plain JSON dict the game protocol and the base rules pass around."""
    return cast(dict[str, Any], state)
