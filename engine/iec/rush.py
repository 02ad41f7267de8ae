"""The `rush` bot (issue 24): the launcher rush, a scripted opening the strong bot must beat.

On turn 1 its developer prepares the site nearest to one of its storages within a launcher's
link range (IEC-S-18.1) and builds a launcher there (IEC-S-18); it keeps the launcher powered
right after its storages (IEC-15.2) and every turn fires all the shots its AC allows at the
rival's transmitter, or else a mixer (IEC-S-19), the easiest to hit first. Everything else
(standing orders, economy, research) is the economic bot's.
"""

from __future__ import annotations

from typing import Any

from engine.core import Action, Rng, State
from engine.iec import choices as ch
from engine.iec import together
from engine.iec.bots import economic_bot, power_ranking
from engine.iec.planning import LAYOUT_MAX
from engine.iec.rules import own, power_slots, scen, stock

TARGETS = ("transmitter", "mixer")


# `_launcher_cells` per (scenario, player, every building's cell and kind, and whether it is
# his): all it reads; asked on every move of phase 6 (bounded as planning.LAYOUT_MAX).
_CELLS: dict[tuple[Any, ...], list[str]] = {}


def _launcher_cells(state: State, player: str) -> list[str]:
    """Free buildable cells within a launcher's link range of one of the player's storages,
    nearest to a storage first (a launcher needs a linked storage for its AC)."""
    key = (
        state["scenario"],
        player,
        tuple((c, b["kind"], b["owner"] == player) for c, b in state["buildings"].items()),
    )
    found = _CELLS.get(key)
    if found is None:
        if len(_CELLS) >= LAYOUT_MAX:
            _CELLS.clear()
        found = _CELLS[key] = _find_launcher_cells(state, player)
    return list(found)


def _find_launcher_cells(state: State, player: str) -> list[str]:
    s = scen(state)
    link = int(s.buildings["launcher"]["link"])
    cells: list[tuple[int, str]] = []
    for st in own(state, player, "storage"):
        for c in s.near(st["cell"], link):
            if "launcher" in ch.kinds_for(state, c):
                cells.append((s.d2(c, st["cell"]), c))
    return [c for _, c in sorted(set(cells))]


def prepare_site(state: State, player: str, wanted: list[str]) -> Action | None:
    """Prepare a launcher site on the first of `wanted` a powered developer reaches (none while
    the player has a launcher or a prepared site)."""
    if own(state, player, "launcher") or any(w == player for w in state["sites"].values()):
        return None
    return ch.prepare_first(state, player, wanted)


def _build(state: State, player: str) -> Action | None:
    if own(state, player, "launcher"):
        return None
    s = scen(state)
    r = ch.dev_range(state)
    wanted = set(_launcher_cells(state, player))
    for d in own(state, player, "developer"):
        if not d["powered"] or not ch.can_build_attempt(d):
            continue
        if stock(state, d, "AB") < ch.module_cost(state):
            continue
        for cell, owner in sorted(state["sites"].items()):
            if owner == player and cell in wanted and s.within(cell, d["cell"], r):
                return {"type": "build", "developer": d["cell"], "cell": cell, "kind": "launcher"}
    return None


def _power(state: State, player: str) -> Action:
    ranked = power_ranking(state, player)
    kinds = {b["cell"]: b["kind"] for b in own(state, player)}
    storages = [c for c in ranked if kinds[c] == "storage"]
    launchers = [c for c in ranked if kinds[c] == "launcher"]
    rest = [c for c in ranked if c not in storages and c not in launchers]
    return {
        "type": "power",
        "buildings": (storages + launchers + rest)[: power_slots(state, player)],
    }


def _fire(state: State, player: str) -> Action | None:
    for la in own(state, player, "launcher"):
        if not la["powered"] or not ch.can_fire(state, la):
            continue
        shots = min(ch.launcher_shots(state, la), stock(state, la, "AC"))
        if shots < 1:
            continue
        targets = [
            (TARGETS.index(b["kind"]), thr, b["modules"], cell)
            for cell, thr in ch.fire_targets(state, la)
            for b in (state["buildings"][cell],)
            if b["kind"] in TARGETS
        ]
        if targets:
            cell = min(targets)[3]
            return {"type": "fire", "launcher": la["cell"], "targets": {cell: shots}}
    return None


def rush_bot(state: State, player: str, rng: Rng) -> Action:
    state = together.planned(state, player)  # rules version 2: after its own declarations
    ph = state["phase"]
    act: Action | None = None
    if ph == 3:
        act = _power(state, player)
    elif ph == 6:
        act = prepare_site(state, player, _launcher_cells(state, player))
    elif ph == 7:
        act = _build(state, player)
    elif ph == 9:
        act = _fire(state, player)
    return act if act is not None else economic_bot(state, player, rng)
