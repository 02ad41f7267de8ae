"""Small builders for IEC test states."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engine.core import Rng
from engine.iec import actions, production, rules
from engine.iec.rules import GOODS

State = dict[str, Any]


def new(n: int = 2, seed: int = 1, **opts: str) -> State:
    return rules.setup([f"p{i}" for i in range(1, n + 1)], dict(opts), seed)


def by_seat(state: State, seat: str) -> str:
    return next(p for p, pl in state["players"].items() if pl["seat"] == seat)


def empty(n: int = 2, seed: int = 1, **opts: str) -> tuple[State, list[str]]:
    """A state with no buildings at all; players P1.. in seat order, in phase 9 of turn 1."""
    st = new(n, seed, **opts)
    st["buildings"] = {}
    names = [by_seat(st, f"P{i}") for i in range(1, n + 1)]
    st["order"] = names
    st["phase_order"] = {str(ph): list(names) for ph in range(3, 15)}
    return st, names


def two() -> tuple[State, str, str]:
    """Two companies P1, P2 with one complete reactor each, nothing else."""
    st, (p1, p2) = empty()
    add(st, p1, "reactor", "B7")
    add(st, p2, "reactor", "W10")
    return st, p1, p2


def add(
    st: State,
    owner: str,
    kind: str,
    cell: str,
    modules: int | None = None,
    powered: bool = True,
    goods: dict[str, int] | None = None,
    complete: bool | None = None,
) -> dict[str, Any]:
    full = rules.scen(st).buildings[kind]["modules"]
    m = full if modules is None else modules
    b: dict[str, Any] = {
        "cell": cell,
        "owner": owner,
        "kind": kind,
        "modules": m,
        "complete": (m >= full) if complete is None else complete,
        "since": 0,
        "powered": powered,
        "used": [],
    }
    if kind == "storage":
        b["goods"] = dict.fromkeys(GOODS, 0)
        b["goods"].update(goods or {})
    st["buildings"][cell] = b
    return b


def at(st: State, phase: int, actor: str | None) -> State:
    st["phase"] = phase
    st["phase_open"] = True
    st["actor"] = actor
    st["done"] = []
    return st


def do(st: State, player: str, action: dict[str, Any]) -> list[dict[str, Any]]:
    """Run one phase action's handler (validation included) without advancing the game."""
    events: list[dict[str, Any]] = []
    actions.check_turn(st, player, action["type"])
    actions.HANDLERS[action["type"]](st, player, action, events)
    return events


@contextmanager
def dice(*values: int) -> Iterator[list[int]]:
    """Force the next d6 results of the rules (then fall back to the state's RNG)."""
    queue = list(values)
    orig_r, orig_a, orig_p = rules._roll, actions._roll, production._roll

    def fake(state: State) -> int:
        if queue:
            return queue.pop(0)
        return Rng(state["rng"]).die()

    rules._roll = fake  # type: ignore[assignment]
    actions._roll = fake  # type: ignore[assignment]
    production._roll = fake  # type: ignore[assignment]
    try:
        yield queue
    finally:
        rules._roll = orig_r
        actions._roll = orig_a
        production._roll = orig_p


def count_successes(make: Any, check: Any) -> int:
    """Exact enumeration: run the scenario once per die face 1..6, count successes."""
    n = 0
    for face in range(1, 7):
        st = make()
        with dice(face):
            check_result = check(st)
        n += bool(check_result)
    return n
