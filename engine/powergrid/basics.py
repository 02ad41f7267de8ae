"""What every phase of the Power Grid rules uses: the event log, the limits of the player
count, the network, the standing-order book (registered by orders.py), the order of play and
the start of a turn phase. The phase modules (auction.py, plant_market.py, build.py,
bureaucracy.py) build on this one; rules.py drives the round through them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core import N_, IllegalAction
from engine.powergrid.data import player_count
from engine.powergrid.network import network
from engine.powergrid.state_types import PGState

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

LOG_SIZE = 12

# ===================================================================== helpers


def emit(state: PGState, events: list[Event], kind: str, **fields: Any) -> None:
    log_event(state, events, {"type": kind, "round": state["round"], **fields})


# The last log seen to hold public entries only (`log_event`), or `_NO_LOG`, a list that is
# no state's log. Entries come into a log only through `log_event` (the contract
# `_drop_overflow` relies on too), so the list stays all public until a private event is
# logged into it; a new list (a loaded or copied state) is scanned once. Held strongly, so
# its identity is never reused by another list.
_NO_LOG: list[Event] = []
_PUBLIC_LOG: list[Event] = _NO_LOG


def log_event(state: PGState, events: list[Event], ev: Event) -> None:
    """`emit` of an event its caller built as `emit` builds it ("type", "round", then its
    fields): the rules' own events are dict displays (events come on nearly every move, and
    keyword arguments merged into a dict cost as much again as the rest of logging one)."""
    global _PUBLIC_LOG
    events.append(ev)
    log = state["log"]
    log.append(ev)
    if "private" in ev:
        if log is _PUBLIC_LOG:
            _PUBLIC_LOG = _NO_LOG
        if len(log) > LOG_SIZE:
            _drop_overflow(log, ev.get("player") if ev["private"] else None)
        return
    if len(log) > LOG_SIZE:
        if log is _PUBLIC_LOG:
            del log[0]  # trimmed when it was scanned, one entry added since: the oldest goes
            return
        # `_drop_overflow(log, None)`'s scan, once per list instead of on every event (issue
        # 24: the scan was a tenth of random play's time)
        for entry in log:
            if "private" in entry:
                _drop_overflow(log, None)
                return
        _PUBLIC_LOG = log
        del log[: len(log) - LOG_SIZE]  # all public: the oldest go


def log_plant_removed(
    state: PGState, events: list[Event], plant: int, rule: str, *, under_deck: bool
) -> None:
    """A plant leaves the market (PG-29, PG-40, PG-44, PG-46): the one event, wherever."""
    log_event(
        state,
        events,
        {
            "type": "plant_removed",
            "round": state["round"],
            "plant": plant,
            "rule": rule,
            "under_deck": under_deck,
        },
    )


def _drop_overflow(log: list[Event], owner: str | None) -> None:
    """`trim_log` after one append, for a log that was trimmed before it (entries are added
    only by `emit`, which keeps it trimmed): only the new entry's viewer can now see one
    entry too many, his oldest, so at most that one goes. Saves scanning and rebuilding the
    log on every event (most events are public: `owner` None)."""
    if owner is None:
        for entry in log:
            if "private" in entry:
                break
        else:
            del log[: len(log) - LOG_SIZE]  # all public (the common case): the oldest goes
            return
    mine = [
        i
        for i, entry in enumerate(log)
        if (entry.get("player") if entry.get("private") else None) == owner
    ]
    if len(mine) > LOG_SIZE:
        del log[mine[0]]


def trim_log(log: list[Event]) -> None:
    """Keep every entry that is among the last LOG_SIZE some viewer sees (issue 20): the last
    LOG_SIZE public entries and each player's last LOG_SIZE of his own private ones, so a
    rival's private event never pushes a public entry out of anyone's view."""
    seen: dict[str | None, int] = {}
    keep: list[Event] = []
    for entry in reversed(log):
        owner = entry.get("player") if entry.get("private") else None
        seen[owner] = seen.get(owner, 0) + 1
        if seen[owner] <= LOG_SIZE:
            keep.append(entry)
    log[:] = reversed(keep)


def limits(state: PGState) -> dict[str, int]:
    return player_count(len(state["seats"]))


def max_cities(state: PGState) -> int:
    # A loop, not max() over a generator: asked after every house built and plant drawn.
    top = 0
    for p in state["players"].values():
        n = len(p["cities"])
        if n > top:
            top = n
    return top


def is_int(value: Any) -> bool:
    return type(value) is int


def net(state: PGState) -> Any:
    return network(state["map"], tuple(state["regions"]))


def connection_cost(state: PGState, player: str, city: str) -> int:
    """PG-36/37: cheapest route cost from the player's current houses to `city`."""
    nw = net(state)
    index = nw.index
    # From the distance rows of the player's houses (as many as he has), not from `reach`'s
    # costs of every city: `Network.walk`, which the build phase reads, does without those.
    owned = [index[c] for c in state["players"][player]["cities"]]
    return int(nw.connection_cost(owned, index[city]))


# Standing orders and their cancellation may be sent by any player at any time (orders.py).
ANYTIME = ("order", "cancel")


@dataclass(frozen=True)
class OrderBook:
    """Standing orders as the rules use them. orders.py builds on this module and registers
    its functions here (`register_orders`, called by the package), so this module never
    imports it: no import cycle."""

    apply: Callable[[State, str, Action], tuple[State, list[Event]]]
    run: Callable[[State, list[Event]], None]
    set_proxy: Callable[[State, str, int, int], None]


_ORDER_BOOKS: list[OrderBook] = []


def register_orders(book: OrderBook) -> None:
    _ORDER_BOOKS[:] = [book]


def order_book() -> OrderBook:
    if not _ORDER_BOOKS:
        raise IllegalAction("PG-14", N_("Standing orders are not available."))
    return _ORDER_BOOKS[0]


def chooser(state: PGState) -> str | None:
    """PG-20: the first player in player order who has neither bought nor passed."""
    players = state["players"]
    for name in state["order"]:
        p = players[name]
        if not p["bought"] and not p["passed"]:
            return name
    return None


def reorder(state: PGState) -> None:
    """PG-16: most cities first, ties by highest plant; PG-D-7: else keep relative order.

    `sorted` is stable, so the previous order breaks unbreakable ties.
    """
    players = state["players"]
    keys = {}
    for name in state["order"]:
        p = players[name]
        plants = p["plants"]
        keys[name] = (-len(p["cities"]), -max(plants) if plants else 0)
    state["order"] = sorted(state["order"], key=keys.__getitem__)


def start_turn_phase(state: PGState, phase: str, events: list[Event]) -> None:
    state["phase"] = phase
    state["turn"] = 0
    for p in state["players"].values():
        p["done"] = False
    log_event(state, events, {"type": "phase_started", "round": state["round"], "phase": phase})


def forget_orders(state: PGState, kinds: tuple[str, ...]) -> None:
    """Drop the given kinds of standing orders of every player (empty entries go too)."""
    book = state["orders"]
    for name in list(book):
        mine = book[name]
        for kind in kinds:
            mine.pop(kind, None)
        if not mine:
            del book[name]
    if not book:
        del state["orders"]
