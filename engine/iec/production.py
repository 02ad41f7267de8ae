"""Phases 12 and 13 (IEC-S-13..S-15): mixing, standing transfers, extraction (automatic)."""

from __future__ import annotations

from typing import Any

from engine.iec.model import (
    Event,
    State,
    _ev,
    _put,
    _put_back,
    _reveal,
    _roll,
    _take,
    deposit_at,
    free,
    has_tech,
    linked,
    load_of,
    own,
    param,
    powered,
    scen,
    stock,
    undamaged,
)
from engine.iec.scenario import RECIPES


def mix_and_move(state: State, events: list[Event]) -> None:
    """Phase 12: 12a mixing (IEC-S-15), then 12b standing transfers (IEC-S-14)."""
    s = scen(state)
    for p in state["phase_order"]["12"]:
        recipes = state["players"][p]["orders"]["mix"]
        for mx in powered(state, p, "mixer"):
            made = mix_once(state, mx, recipes, events)
            if made and has_tech(state, p, 6) and undamaged(state, mx):
                roll = _roll(state)
                _reveal(state, p, 6, events)
                _ev(state, events, "bonus_roll", player=p, cell=mx["cell"], roll=roll, rolled=True)
                if roll >= int(param(state, "bonus_roll_min")):
                    mix_once(state, mx, recipes, events)
        arrived: dict[str, dict[str, int]] = {}
        for mv in state["players"][p]["orders"]["transfers"]:
            src = state["buildings"].get(mv["from"])
            dst = state["buildings"].get(mv["to"])
            if (
                src is None
                or dst is None
                or src["owner"] != p
                or dst["owner"] != p
                or src["kind"] != "storage"
                or dst["kind"] != "storage"
                or not src["powered"]
                or not dst["powered"]
                or not s.within(src["cell"], dst["cell"], int(s.buildings["storage"]["range"]))
            ):
                continue
            g = mv["good"]
            movable = src["goods"][g] - arrived.get(src["cell"], {}).get(g, 0)
            n = max(0, min(int(mv["n"]), movable, free(state, dst)))
            if n:
                src["goods"][g] -= n
                dst["goods"][g] += n
                arrived.setdefault(dst["cell"], {})
                arrived[dst["cell"]][g] = arrived[dst["cell"]].get(g, 0) + n
                if load_of(dst) > int(param(state, "storage_capacity")):
                    _reveal(state, p, 7, events)
                _ev(state, events, "moved", player=p, src=src["cell"], dst=dst["cell"], good=g, n=n)


def mix_once(state: State, mx: dict[str, Any], recipes: list[str], events: list[Event]) -> bool:
    for product in recipes:
        x, y = RECIPES[product]
        if stock(state, mx, x) < 1 or stock(state, mx, y) < 1:
            continue
        sx = _take(state, mx, x, 1)
        sy = _take(state, mx, y, 1)
        dest = _put(state, mx, product, events)
        if dest is None:
            _put_back(state, sx[0], x)
            _put_back(state, sy[0], y)
            continue
        _ev(state, events, "mixed", player=mx["owner"], cell=mx["cell"], product=product, to=dest)
        return True
    return False


def default_resource(state: State, mine: dict[str, Any]) -> str | None:
    dep = deposit_at(state, mine["cell"])
    if not dep:
        return None
    totals = {g: sum(st["goods"][g] for st in own(state, mine["owner"], "storage")) for g in dep}
    return min(dep, key=lambda g: (totals[g], dep[g], g))


def extract(state: State, events: list[Event]) -> None:
    """Phase 13 (IEC-S-13): one d6 per powered mine; Advanced Mining rolls for a second unit."""
    for p in state["phase_order"]["13"]:
        for mine in powered(state, p, "mine"):
            dep = deposit_at(state, mine["cell"])
            res = state["players"][p]["orders"]["extract"].get(mine["cell"])
            if res not in dep:
                res = default_resource(state, mine)
            if res is None:
                continue
            roll = _roll(state)
            ok = roll >= dep[res]
            to = _put(state, mine, res, events) if ok else None
            # A unit lost for want of any linked storage, not of room (IEC-S-10.5).
            nowhere = {"no_storage": True} if ok and to is None and not linked(state, mine) else {}
            _ev(
                state,
                events,
                "extracted",
                player=p,
                cell=mine["cell"],
                resource=res,
                roll=roll,
                need=dep[res],
                success=ok,
                to=to,
                rolled=True,
                **nowhere,
            )
            if ok and has_tech(state, p, 5):
                _reveal(state, p, 5, events)
                roll2 = _roll(state)
                ok2 = roll2 >= int(param(state, "bonus_roll_min"))
                to2 = _put(state, mine, res, events) if ok2 else None
                nowhere = (
                    {"no_storage": True} if ok2 and to2 is None and not linked(state, mine) else {}
                )
                _ev(
                    state,
                    events,
                    "extracted",
                    player=p,
                    cell=mine["cell"],
                    resource=res,
                    roll=roll2,
                    need=int(param(state, "bonus_roll_min")),
                    success=ok2,
                    to=to2,
                    bonus=True,
                    rolled=True,
                    **nowhere,
                )
