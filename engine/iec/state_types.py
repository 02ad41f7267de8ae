"""The shape of the IEC state as TypedDicts (issue 26): the same plain JSON dict the rules have
always kept (rules.setup builds it), now named key by key so mypy catches a misspelt key or a
wrong value type in the rules.

`State` is what the rule functions take (model.State): the TypedDict, or the plain
`dict[str, Any]` the game protocol, the bots and the tests pass around; on the TypedDict side
of the union every key is checked, down to the buildings, tokens and areas. The building
helpers take `AnyBuilding` (a typed building or a plain one); `model.own` and
`choices.own_tokens` hand the bots plain dicts, as before. A rule function that returns a
state (setup, apply, a trial copy) returns the plain dict (`PlainState`).
(No `from __future__ import annotations` here: tests read `__required_keys__` at run time.)
"""

from typing import Any, NotRequired, TypedDict, cast

# A standing transfer between two storages of one company (IEC-S-14); "from" is a Python
# keyword, hence the functional form.
Transfer = TypedDict("Transfer", {"from": str, "to": str, "good": str, "n": int})


class Subsidy(TypedDict):
    kind: str
    cell: str


class Orders(TypedDict):
    """Standing orders (used until changed) and the private orders of secret technologies
    (corrections 1.1, "No side channel")."""

    power: list[str]  # buildings to power besides the reactors (IEC-15.2)
    give: dict[str, int]  # player -> Intergrid power given every turn (IEC-15.5)
    extract: dict[str, str]  # mine cell -> resource (IEC-S-13)
    mix: list[str]  # recipe priority (IEC-S-15)
    transfers: list[Transfer]
    deliver: dict[str, list[str]]  # mine/mixer/developer cell -> storages, best first
    destroy: list[str]  # own buildings blown up at the next phase 0
    flex: dict[str, str]  # phase -> "first" | "last" (Flexible Order, IEC-TECH-3)
    antimissile: bool
    use: dict[str, str]  # technology -> "auto" | "off" (IEC-S-23)
    sweep: str | None  # Minesweepers: the cell cleared in the next phase 4
    peek: str | None  # Remote Drilling: the area looked at in the next phase 14
    subsidy: Subsidy | None  # Government Subsidy in the next phase 14


class PlayerState(TypedDict):
    seat: str  # P1..P4: the start buildings and the colour
    vp: int
    science: int
    techs: list[int]  # owned, secret until revealed
    revealed: list[int]
    eliminated: bool
    final_vp: int | None  # the VP kept when eliminated (IEC-S-25)
    mines_used: int  # real mines laid (IEC-S-8)
    received: int  # Intergrid power received this turn
    given: int  # Intergrid power given this turn
    peeks: dict[str, list[str]]  # area -> its candidate deposits seen (Remote Drilling)
    subsidy_used: bool
    laid: bool  # laid or relocated this turn
    declared: dict[str, str]  # this turn's Flexible Order declarations (IEC-S-10.3)
    orders: Orders


class Building(TypedDict):
    cell: str
    owner: str
    kind: str
    modules: int
    complete: bool
    since: int  # the turn it was founded
    powered: bool
    used: list[str]  # what it did this turn ("prepare", "build", "fire", ...)
    goods: NotRequired[dict[str, int]]  # storages only: AB, BC, AC, A, B, C


# What the building helpers take (model.py): a typed building or a plain one (the bots' and the
# tests' dicts).
AnyBuilding = Building | dict[str, Any]


class Token(TypedDict):
    """A mine token (IEC-S-8): face down until activated."""

    id: int
    owner: str
    cell: str
    real: bool
    up: bool
    # The turn of its last activation (IEC-S-22: one detonation test per token per phase 8;
    # a mine that did not detonate may be activated again in a later turn).
    tested: NotRequired[int]


class Area(TypedDict):
    candidates: list[str]  # the deposits it may hold
    deposit: str | None  # the one found, once discovered


class IECState(TypedDict):
    game: str
    rules_version: int  # 2: the SIMULTANEOUS_PHASES declared at once (together.py)
    scenario: str
    mine_war: bool
    rng: dict[str, int]
    turn: int
    phase: int  # 0..14 (IEC-27)
    phase_open: bool
    actor: str | None  # who acts now in a phase played in turn
    done: list[str]  # who has finished this phase
    radiation: int
    over: bool
    buildings: dict[str, Building]  # cell -> its building
    sites: dict[str, str]  # prepared building site -> its owner
    tokens: list[Token]
    next_token: int
    areas: dict[str, Area]  # area id -> its deposits
    players: dict[str, PlayerState]
    seats: list[str]  # seat order
    order: list[str]  # this turn's order (IEC-26)
    phase_order: dict[str, list[str]]  # phase -> its order after Flexible Order
    used_mines: dict[str, int]
    # rules version 2, in a phase declared at once: who is asked, and their declarations
    actors: NotRequired[list[str]]
    pending: NotRequired[dict[str, list[dict[str, Any]]]]
    # turn 1's events before any move (the order roll, radiation), until turn 2 (rules.setup)
    opening: NotRequired[list[dict[str, Any]]]


# What a rule function hands back (a new state from setup, apply or a trial copy): the plain
# JSON dict of the game protocol.
PlainState = dict[str, Any]
State = IECState | PlainState


def plain(state: State) -> PlainState:
    """The state as the plain JSON dict the game protocol passes around."""
    return cast(PlainState, state)
