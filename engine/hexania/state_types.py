"""The shape of the Hexania state as TypedDicts (issue 26): the same plain JSON dict the rules
have always kept (rules.py), now named key by key so mypy catches a misspelt key or a wrong
value type in the rules. Hexania keeps no record per player: what belongs to a player is a
map from the player's name (`bonus`, `turns`, ...) and the `Turn` of the player rolling.

`HexState` is what the rule functions take: the TypedDict, or the plain `dict[str, Any]` the
game protocol passes around; on the TypedDict side of the union every key is checked.
(No `from __future__ import annotations` here: tests read `__required_keys__` at run time.)
"""

from typing import Any, TypedDict, cast


class Turn(TypedDict):
    """The turn of the player who rolled (HEX-T-3)."""

    player: str
    dice: list[int]
    bonus: int  # bonus points brought into the turn (HEX-2.3)
    points: int  # points left to spend
    actions: int  # actions taken so far (0: /end eliminates, HEX-2.4)


class HexaniaState(TypedDict):
    game: str
    players: list[str]  # join order
    options: dict[str, Any]  # options.normalize: the variants' bools and "rounds" (0 = off)
    rng: dict[str, int]
    board: dict[str, str]  # cell -> owner
    eliminated: list[str]
    lost_piece: dict[str, bool]  # player -> lost a piece since his last turn
    bonus: dict[str, int]  # player -> bonus points for his next turn
    round_bonus: dict[str, int]  # player -> bonus points earned this round (HEX-OPT-LIMIT)
    turns: dict[str, int]  # player -> turns begun
    round: int
    pending: list[str]  # who has not yet played this round
    turn: Turn | None
    last: str | None  # who rolled last
    over: bool
    result: list[list[str]] | None  # the ranking, ties share a rank
    end_reason: str | None
    sides: dict[str, str]  # player -> side of the board (HEX-G-9)
    order: list[str]  # clockwise from the starter (HEX-T-2)
    rolloff: list[dict[str, int]]  # the starting roll-off, round by round (HEX-D-5)


HexState = HexaniaState | dict[str, Any]


def plain(state: HexState) -> dict[str, Any]:
    """The state as the plain JSON dict the game protocol passes around."""
    return cast(dict[str, Any], state)
