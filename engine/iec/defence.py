"""The strong bot's own policy in IEC (issue 24): the economic bot, guarded against a
launcher rush.

While a rival's launcher can reach one of the player's buildings (IEC-16.1, IEC-S-19.3) the
player answers in kind: his developer prepares and builds a launcher next to a storage
(IEC-S-18, the same placement as the rush's), he powers storages and launchers first
(IEC-15.2), and in phase 9 his launchers fire at the rival launchers first (a launcher the
rush builds has one module, so one hit removes it, IEC-S-20) before anything else. Without
such a threat it plays exactly as the economic bot. Everything it reads is public (the
buildings, their modules and owners), so the policy peeks at nothing.
"""

from __future__ import annotations

from typing import Any

from engine.core import Action, Rng, State
from engine.iec import choices as ch
from engine.iec import rush, together
from engine.iec.bots import (
    _secret_orders,
    economic_bot,
    phase_action,
    product_wants,
    standing_update,
)
from engine.iec.rules import own, scen, stock

Building = dict[str, Any]


def rival_launchers(state: State, player: str) -> list[Building]:
    """Rival launchers (with a module left) that can reach one of the player's buildings."""
    out = []
    for la in state["buildings"].values():
        if la["kind"] != "launcher" or la["owner"] == player or la["modules"] < 1:
            continue
        if any(state["buildings"][c]["owner"] == player for c, _thr in ch.fire_targets(state, la)):
            out.append(la)
    return out


def _launcher_cells(state: State, player: str) -> list[str]:
    """Free cells for a launcher within link range of one of the player's storages, those of
    the storage holding the most AC first (the launcher fires the AC of a linked storage,
    IEC-S-19.1), then nearest to it."""
    s = scen(state)
    link = int(s.buildings["launcher"]["link"])
    cells: dict[str, tuple[int, int]] = {}
    for st in own(state, player, "storage"):
        for c in s.near(st["cell"], link):
            if "launcher" in ch.kinds_for(state, c):
                key = (-int(st["goods"].get("AC", 0)), s.d2(c, st["cell"]))
                cells[c] = min(cells.get(c, key), key)
    return sorted(cells, key=lambda c: (cells[c], c))


def _build(state: State, player: str) -> Action | None:
    if own(state, player, "launcher"):
        return None
    s = scen(state)
    r = ch.dev_range(state)
    for d in own(state, player, "developer"):
        if not d["powered"] or not ch.can_build_attempt(d):
            continue
        if stock(state, d, "AB") < ch.module_cost(state):
            continue
        for cell, owner in sorted(state["sites"].items()):
            if owner != player or not s.within(cell, d["cell"], r):
                continue
            if "launcher" in ch.kinds_for(state, cell):
                return {"type": "build", "developer": d["cell"], "cell": cell, "kind": "launcher"}
    return None


def _counter_fire(state: State, player: str) -> Action | None:
    """IEC-S-19: every shot a launcher has at the most hittable rival launcher in reach
    (fewest modules, then the best threshold)."""
    for la in own(state, player, "launcher"):
        if not la["powered"] or not ch.can_fire(state, la):
            continue
        shots = min(ch.launcher_shots(state, la), stock(state, la, "AC"))
        if shots < 1:
            continue
        targets = [
            (b["modules"], thr, cell)
            for cell, thr in ch.fire_targets(state, la)
            for b in (state["buildings"][cell],)
            if b["kind"] == "launcher"
        ]
        if targets:
            cell = min(targets)[2]
            return {"type": "fire", "launcher": la["cell"], "targets": {cell: shots}}
    return None


def _orders(state: State, player: str) -> Action | None:
    """The economic bot's standing orders, except that while a rival launcher stands and the
    player has one, the mixers make AC first (its missiles, IEC-16.3)."""
    mix = product_wants(state, player)
    if own(state, player, "launcher") and any(
        b["kind"] == "launcher" and b["owner"] != player for b in state["buildings"].values()
    ):
        mix = ["AC"] + [g for g in mix if g != "AC"]
    return standing_update(state, player, mix)


def duel(state: State) -> bool:
    """Two companies left: the launcher war decides the game (the rush's idea is the answer
    to itself, with the rival's launcher as the first target)."""
    return sum(1 for p in state["players"].values() if not p.get("eliminated")) == 2


def guarded_bot(state: State, player: str, rng: Rng) -> Action:
    planned = together.planned(state, player)  # rules version 2: after his own declarations
    if not duel(planned) and not rival_launchers(planned, player):
        return economic_bot(state, player, rng)
    order = _orders(planned, player) or _secret_orders(planned, player)
    if order is not None:
        return order
    ph = planned["phase"]
    act: Action | None = None
    if ph == 3 and own(planned, player, "launcher"):
        act = rush._power(planned, player)
    elif ph == 6:
        act = rush.prepare_site(planned, player, _launcher_cells(planned, player))
    elif ph == 7:
        act = _build(planned, player)
    elif ph == 9:
        act = _counter_fire(planned, player) or (
            rush._fire(planned, player) if duel(planned) else None
        )
    return act if act is not None else phase_action(planned, player, rng)
