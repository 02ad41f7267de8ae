"""What a player can do now: candidate cells, targets, odds, and whether he has a real choice.

Shared by the rules (who is asked), legal_actions, the bots and the chat quotes.
"""

from __future__ import annotations

from typing import Any

from engine.iec.model import (
    State,
    available_techs,
    has_tech,
    linked,
    mine_limit,
    own,
    owns_tech,
    param,
    power_candidates,
    power_slots,
    powered,
    public_tech,
    scen,
    stock,
    tech_cost,
    undamaged,
)
from engine.iec.scenario import KINDS
from engine.iec.state_types import AnyBuilding, plain

Building = AnyBuilding  # a typed building or a plain one (state_types.py)


def dev_range(state: State) -> int:
    return int(scen(state).buildings["developer"]["range"])


def prep_cells(state: State, dev: Building) -> list[str]:
    """IEC-S-18.1: empty buildable cells within the developer's range, holding no site."""
    s = scen(state)
    return [
        c
        for c in s.near(dev["cell"], dev_range(state))
        if c in s.buildable and c not in state["buildings"] and c not in state["sites"]
    ]


def prepare_first(state: State, player: str, wanted: list[str]) -> dict[str, Any] | None:
    """IEC-S-18.1: a prepare order on the first of `wanted` that a powered developer with its
    attempt left reaches (developers in board order), None when none does."""
    for d in own(state, player, "developer"):
        if not d["powered"] or {"prepare", "recycle"} & set(d["used"]):
            continue
        open_cells = set(prep_cells(state, d))
        for cell in wanted:
            if cell in open_cells:
                return {"type": "prepare", "developer": d["cell"], "cell": cell}
    return None


def kinds_for(state: State, cell: str) -> list[str]:
    """Building types that may go on cell (terrain, deposits, intervals), in one pass."""
    s = scen(state)
    if cell not in s.buildable or cell in state["buildings"]:
        return []
    blds = state["buildings"]
    interval = s.interval
    widest = s.widest_interval
    # A kind k fits when every building within the widest interval is at least
    # max(k's interval, its own) away: no building closer than its own interval, and the
    # nearest at least k's (the rollouts' hottest test, so in one pass over the buildings
    # or over the cells in reach, whichever is shorter).
    nearest = widest * widest + 1
    xy, cm2 = s.xy, s.cell_cm * s.cell_cm
    x, y = xy[cell]
    if len(blds) < len(s.near(cell, widest)):
        pairs = [(xy[c], b["kind"]) for c, b in blds.items()]
    else:
        pairs = [(xy[c], blds[c]["kind"]) for c in s.near(cell, widest) if c in blds]
    for (bx, by), kind in pairs:
        d2 = cm2 * ((x - bx) ** 2 + (y - by) ** 2)  # Scenario.d2, inlined
        if d2 <= widest * widest:
            if d2 < interval[kind] * interval[kind]:
                return []
            nearest = min(nearest, d2)
    return [
        k
        for k in KINDS
        if not (k == "mine" and cell not in s.area_of) and nearest >= interval[k] * interval[k]
    ]


def can_build_attempt(dev: Building) -> bool:
    """IEC-S-18.2: one attempt per turn (Construction Recovery's re-attempt follows at once,
    inside the same action, so no flag of it ever shows)."""
    return not ({"build", "recycle"} & set(dev["used"]))


def developer_free(dev: Building) -> bool:
    """IEC-S-18.5: recycling replaces the developer's phase 6 and 7 actions for the turn."""
    return not ({"prepare", "build", "recycle"} & set(dev["used"]))


def can_recycle(state: State, dev: Building, public: bool = False) -> bool:
    """IEC-TECH-14: `public` asks whether everyone can see that he may (Recycling revealed);
    the owner himself may recycle with an unrevealed Recycling, which reveals it."""
    tech = public_tech if public else owns_tech
    return tech(state, dev["owner"], 14) and developer_free(dev)


def build_targets(
    state: State, dev: Building, first_only: bool = False
) -> list[tuple[str, list[str]]]:
    """(cell, kinds): prepared sites with the kinds that fit, and own damaged buildings ([])."""
    s = scen(state)
    out: list[tuple[str, list[str]]] = []
    for c in s.near(dev["cell"], dev_range(state)):
        b = state["buildings"].get(c)
        if b is not None:
            if b["owner"] == dev["owner"] and not undamaged(state, b):
                out.append((c, []))
        elif c in state["sites"]:
            kinds = kinds_for(state, c)
            if kinds:
                out.append((c, kinds))
        if first_only and out:
            break
    return out


def recycle_targets(state: State, dev: Building) -> list[str]:
    s = scen(state)
    out = []
    for c in s.near(dev["cell"], dev_range(state)):
        b = state["buildings"].get(c)
        if b is None:
            continue
        if b is dev and not undamaged(state, dev):
            continue
        out.append(c)
    return out


def module_cost(state: State) -> int:
    return int(param(state, "module_cost_AB"))


def build_threshold(state: State, dev: Building) -> int:
    table = param(state, "build_threshold_by_missing")
    return int(table[min(len(table) - 1, int(_missing(state, dev)))])


def recycle_threshold(state: State, dev: Building) -> int:
    table = param(state, "recycle_threshold_by_missing")
    return int(table[min(len(table) - 1, int(_missing(state, dev)))])


def _missing(state: State, b: Building) -> int:
    return int(scen(state).buildings[b["kind"]]["modules"]) - int(b["modules"])


def lay_cells(state: State, player: str) -> list[str]:
    """IEC-S-21 / IEC-D-4: ≤ 2×range of a powered developer and of a powered storage with AC."""
    s = scen(state)
    f = int(param(state, "mine_lay_range_factor"))
    dev_r = f * int(s.buildings["developer"]["range"])
    st_r = f * int(s.buildings["storage"]["range"])
    near_dev: set[str] = set()
    for d in powered(state, player, "developer"):
        near_dev.update(s.near(d["cell"], dev_r))
    near_st: set[str] = set()
    for st in powered(state, player, "storage"):
        if st["goods"]["AC"] > 0:
            near_st.update(s.near(st["cell"], st_r))
    mine_cells = {t["cell"] for t in state["tokens"] if t["owner"] == player}
    return sorted(
        (c for c in near_dev & near_st if c not in state["buildings"] and c not in mine_cells),
        key=s.index.__getitem__,
    )


def can_lay(state: State, player: str) -> bool:
    pl = state["players"][player]
    return pl["mines_used"] < mine_limit(state, player) and bool(lay_cells(state, player))


def own_tokens(state: State, player: str, face_down: bool | None = None) -> list[dict[str, Any]]:
    return [
        t
        for t in plain(state)["tokens"]  # handed to the bots as plain dicts
        if t["owner"] == player and (face_down is None or t["up"] != face_down)
    ]


def first_ready(state: State, player: str, kind: str, tag: str) -> AnyBuilding | None:
    """The building a move naming none acts with: his first powered `kind` that has not done
    `tag` this turn (`/transmit`, `/research` without a cell)."""
    for b in own(state, player, kind):
        if b["powered"] and tag not in b["used"]:
            return b
    return None


def activatable_tokens(state: State, player: str) -> list[dict[str, Any]]:
    """His tokens he may still activate in this turn's phase 8: a real mine that did not
    detonate stays face up and may be activated again only in a later turn (IEC-S-22,
    IEC-22 "until a later activation phase")."""
    return [t for t in own_tokens(state, player) if t.get("tested") != state["turn"]]


def sweep_range(state: State) -> int:
    """IEC-S-22: Minesweepers clears a cell at most this far (cm) from one of the developers."""
    return int(param(state, "mine_lay_range_factor")) * dev_range(state)


def in_sweep_reach(state: State, player: str, cell: str) -> bool:
    s, r = scen(state), sweep_range(state)
    return any(s.within(cell, d["cell"], r) for d in own(state, player, "developer"))


def sweep_cells(state: State, player: str) -> list[str]:
    s = scen(state)
    cells = sorted({t["cell"] for t in state["tokens"]}, key=s.index.__getitem__)
    return [c for c in cells if in_sweep_reach(state, player, c)]


def launcher_shots(state: State, la: Building) -> int:
    """IEC-16.2 / IEC-16.4 / IEC-S-19.2 (corrections 1.1): 2 missiles from the first module;
    "undamaged" gates only Missile Salvo's third."""
    base = int(param(state, "launcher_shots"))
    return base + 1 if has_tech(state, la["owner"], 9) and undamaged(state, la) else base


def launcher_max_targets(state: State, la: Building) -> int:
    return 2 if has_tech(state, la["owner"], 10) and undamaged(state, la) else 1


def hit_threshold(state: State, la: Building, target_cell: str) -> int | None:
    """IEC-S-19.3: 3+ within base range, 4+ up to twice it (3+ with Satellite Positioning)."""
    s = scen(state)
    base = int(s.buildings["launcher"]["range"])
    ext = base * int(param(state, "launcher_extended_factor"))
    if s.within(la["cell"], target_cell, base):
        return int(param(state, "launcher_base_hit"))
    if s.within(la["cell"], target_cell, ext):
        if satellite_applies(state, la):
            return int(param(state, "launcher_base_hit"))
        return int(param(state, "launcher_extended_hit"))
    return None


def satellite_applies(state: State, la: Building) -> bool:
    return (
        has_tech(state, la["owner"], 12)
        and undamaged(state, la)
        and state["radiation"] <= int(param(state, "satellite_radiation_max"))
    )


def fire_targets(state: State, la: Building) -> list[tuple[str, int]]:
    """IEC-S-19.6: other players' buildings in reach, with the hit threshold."""
    out = []
    for c, b in sorted(state["buildings"].items()):
        if b["owner"] == la["owner"] or b["modules"] < 1:
            continue
        thr = hit_threshold(state, la, c)
        if thr is not None:
            out.append((c, thr))
    return out


def can_fire(state: State, la: Building) -> bool:
    return "fire" not in la["used"] and stock(state, la, "AC") > 0


def transmit_threshold(state: State) -> int:
    for upto, thr in param(state, "transmit_threshold_by_radiation"):
        if state["radiation"] <= upto:
            return int(thr)
    return 7


def open_areas(state: State) -> list[str]:
    return sorted(a for a, area in state["areas"].items() if area["deposit"] is None)


def subsidy_possible(state: State, player: str) -> bool:
    pl = state["players"][player]
    return (
        owns_tech(state, player, 16)
        and not pl["subsidy_used"]
        and state["turn"] >= int(param(state, "subsidy_from_turn"))
    )


def must_choose_tech(state: State, player: str) -> bool:
    pl = state["players"][player]
    return pl["science"] >= tech_cost(state, player) and bool(available_techs(state, player))


def has_choice(state: State, player: str, ph: int) -> bool:
    """Whether `player` has a real decision in phase `ph` (else he is not asked)."""
    pl = state["players"][player]
    if ph == 3:  # no place at all (no working reactor, no gift): nothing to choose
        slots = power_slots(state, player)
        return slots > 0 and len(power_candidates(state, player)) > slots
    if ph == 5:
        if pl["laid"]:
            return False
        # IEC-S-21 b (corrections 1.1): any own token may be relocated.
        return can_lay(state, player) or (
            bool(own_tokens(state, player)) and bool(lay_cells(state, player))
        )
    if ph == 6:
        return any(
            not ({"prepare", "recycle"} & set(d["used"])) and prep_cells(state, d)
            for d in powered(state, player, "developer")
        )
    if ph == 7:
        for d in powered(state, player, "developer"):
            if can_recycle(state, d, public=True) and recycle_targets(state, d):
                return True
            if (
                can_build_attempt(d)
                and stock(state, d, "AB") >= module_cost(state)
                and build_targets(state, d, first_only=True)
            ):
                return True
        return False
    if ph == 8:
        # IEC-S-22: "each player may activate any of his tokens", one after another, a
        # token on an empty cell too (a fake is removed, a real one turns face up): his
        # part ends at /done or when none is left, never while one is offered to him.
        return bool(activatable_tokens(state, player))
    if ph == 9:
        return any(
            can_fire(state, la) and fire_targets(state, la)
            for la in powered(state, player, "launcher")
        )
    if ph == 10:
        return any(
            "transmit" not in t["used"] and stock(state, t, "BC") > 0
            for t in powered(state, player, "transmitter")
        )
    if ph == 11:
        return any(
            "research" not in lab["used"]
            and stock(state, lab, "BC") > 0
            and stock(state, lab, "AC") > 0
            for lab in powered(state, player, "laboratory")
        )
    if ph == 14:
        # Peeks and the subsidy are private standing orders (engine/iec/secret.py).
        return must_choose_tech(state, player)
    return False


__all__ = ["has_choice", "linked"]
