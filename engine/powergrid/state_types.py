"""The shape of the Power Grid state as TypedDicts (issue 26): the same plain JSON dict the
rules have always kept (rules.py's docstring tells what each key means), now named key by key
so mypy catches a misspelt key or a wrong value type in the rules.

`PGState` is what the rule functions take: the TypedDict, or a plain `dict[str, Any]` — the
variant (engine/powergrid_alt) calls the base rules with its own state, typed as a plain dict.
On the TypedDict side of the union every key is checked.

The keys both games keep are declared once, here: `CommonPlayer` and `CommonState` (generic in
its player record), which this game's `PlayerState` / `PowerGridState` and the variant's
(engine/powergrid_alt/state_types.py) extend.
(No `from __future__ import annotations` here: `NotRequired` must be seen at run time,
where tests read `__required_keys__`.)
"""

from typing import Any, Generic, NotRequired, TypedDict, TypeVar, cast


class CommonPlayer(TypedDict):
    """A player's keys in both games (the variant's players add none, this game's add "res")."""

    money: int
    plants: list[int]  # ascending
    cities: list[str]  # in build order
    bought: bool
    passed: bool
    done: bool
    powered: int | None


class PlayerState(CommonPlayer):
    res: dict[str, int]  # pooled tokens by resource (PG-34)


class Auction(TypedDict):
    plant: int
    bid: int
    leader: str
    bidders: list[str]  # seat order
    turn: str


class PendingDiscard(TypedDict):
    player: str
    plant: int  # the plant just bought


class Declared(TypedDict):
    plants: list[int]
    burned: dict[str, int]


Player = TypeVar("Player", bound=CommonPlayer)


class CommonState(TypedDict, Generic[Player]):
    """The keys both games keep; `Player` is the game's player record."""

    game: str
    map: str
    options: dict[str, str]
    hidden_money: bool
    seats: list[str]  # join order, fixed (PG-7)
    rng: dict[str, int]
    round: int
    step: int
    step3_pending: bool
    step3_drawn: bool
    phase: str
    regions: list[str]
    region_pickers: list[str]
    turn: int
    order: list[str]  # player order (PG-16)
    players: dict[str, Player]
    cities: dict[str, list[str]]  # city -> owners in slot order
    market: list[int]
    deck: list[int]
    rm: dict[str, int]
    supply: dict[str, int]
    auction: Auction | None
    pending_discard: PendingDiscard | None
    log: list[dict[str, Any]]
    ranking: list[list[str]] | None


class PowerGridState(CommonState[PlayerState]):
    # only while someone holds a standing order: player -> kind -> its data (orders.py)
    orders: NotRequired[dict[str, dict[str, dict[str, Any]]]]
    # only during the bureaucracy: the validated /power declarations (PG-42)
    power_declared: NotRequired[dict[str, Declared]]


PGState = PowerGridState | dict[str, Any]


def plain(state: PGState) -> dict[str, Any]:
    """The state as the plain JSON dict the game protocol (and orders.py) passes around."""
    return cast(dict[str, Any], state)
