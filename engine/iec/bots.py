"""Bots: `random` (uniform among legal phase actions) and `economic` (plays the economy).

The economic bot keeps its standing orders (recipes, extraction, transfers, deliveries) in step
with its network, grows the chain mine -> storage -> mixer -> transmitter where a new building
adds the most estimated throughput (`network_value`), powers what matters, transmits and
researches every turn, builds a laboratory and buys technologies, and uses launchers and Mine
War tokens against rivals when it has AC to spare. It is a pure function of (state, rng): it
keeps no memory between calls, and every phase action it returns is checked by the same
helpers `apply` uses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import Action, BotFn, Rng, State
from engine.core.search import lazy_bot
from engine.iec import choices as ch
from engine.iec import together
from engine.iec.actions import legal_actions
from engine.iec.planning import (
    LAYOUT_MAX,
    _plan,
    _reach_cells,
    _room,
    _safe,
    any_project,
    best_projects,
    mine_yield,
    network_value,
    turns_left,
)
from engine.iec.rules import (
    DELIVERING,
    deposit_at,
    own,
    owns_tech,
    power_candidates,
    power_slots,
    scen,
    stock,
    tech_cost,
)
from engine.iec.scenario import RECIPES, SIMPLE

Building = dict[str, Any]
Plan = list[tuple[str, str]]

# Energy Recovery first: the start set leaves 2 free power places, and every extra place is one
# more mine or mixer. Then production, transmission and cheaper research.
TECH_PREFERENCE = (13, 5, 6, 8, 7, 2, 15, 9, 12, 11, 10, 14, 16, 4, 1, 3, 17, 18, 19)
# Value of a target for a launcher (per module destroyed); a last module counts double.
TARGET_VALUE = {
    "transmitter": 5.0,
    "mixer": 4.0,
    "laboratory": 3.0,
    "storage": 3.0,
    "launcher": 3.0,
    "mine": 2.0,
    "developer": 2.0,
    "reactor": 1.0,
}
EFFECTORS = ("transmitter", "developer", "laboratory", "launcher")
FIRE_MIN = 3.0


def random_bot(state: State, player: str, rng: Rng) -> Action:
    return rng.choice(legal_actions(state, player))


# ---------------------------------------------------------------- estimates (and planning.py)


def _rebuild_score(state: State, player: str, b: Building) -> float:
    left = turns_left(state)
    if left < 2:
        return 0.0
    kind = b["kind"]
    if kind == "storage":
        if left < 3:
            return 0.0
        return 2.5 if sum(b["goods"].values()) >= 2 else 1.2
    if kind in ("transmitter", "mixer"):
        return 1.5 if b["modules"] < 1 else 1.2
    if kind == "developer":
        return 1.1 if left >= 5 else 0.0
    return 0.0


# ---------------------------------------------------------------- standing orders


def _totals(state: State, player: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for st in own(state, player, "storage"):
        for g, n in st["goods"].items():
            out[g] = out.get(g, 0) + n
    return out


def _building_mode(state: State, player: str) -> bool:
    return turns_left(state) >= 4 and any(d["powered"] for d in own(state, player, "developer"))


def _wants_ab(state: State, player: str) -> bool:
    """AB only while it will be spent: a site, a free power place, a damaged building."""
    if not _building_mode(state, player):
        return False
    if _room(state, player) > 0 or any(w == player for w in state["sites"].values()):
        return True
    return any(_rebuild_score(state, player, b) > 0 for b in _damaged(state, player))


def _damaged(state: State, player: str) -> list[Building]:
    return [b for b in own(state, player) if b["modules"] < ch_nominal(state, b)]


def product_wants(state: State, player: str) -> list[str]:
    """Recipes the mixers should make, most wanted first (unwanted ones are left out)."""
    totals = _totals(state, player)
    kinds = {b["kind"] for b in own(state, player)}
    research = "laboratory" in kinds and _research_worth(state, player)
    target = {"BC": 1 + research, "AB": 0, "AC": 0}
    if _wants_ab(state, player):
        early = _room(state, player) > 0 and turns_left(state) >= 10
        target["AB"] = 3 if early else 2
    if research:
        target["AC"] += 1
    if "launcher" in kinds and turns_left(state) >= 1:
        target["AC"] += 1
    wanted = [g for g in ("BC", "AB", "AC") if g == "BC" or target[g] > totals.get(g, 0)]
    return sorted(wanted, key=lambda g: (-(target[g] - totals.get(g, 0)), g != "BC"))


def extraction_orders(state: State, player: str, wants: list[str] | None = None) -> dict[str, str]:
    """Each mine extracts what completes the most wanted recipe (`wants`, by default
    `product_wants`): the scarcer of its two inputs (counting what the other mines are
    expected to add), else the next recipe."""
    wants = (product_wants(state, player) if wants is None else wants) or ["BC"]
    have = {g: float(_totals(state, player).get(g, 0)) for g in SIMPLE}
    out: dict[str, str] = {}
    mines = sorted(
        own(state, player, "mine"), key=lambda m: (len(deposit_at(state, m["cell"])), m["cell"])
    )
    for mine in mines:
        dep = deposit_at(state, mine["cell"])
        if not dep:
            continue
        best: tuple[float, str] | None = None
        for rank, recipe in enumerate(wants):
            for g in RECIPES[recipe]:
                if g not in dep:
                    continue
                other = next(x for x in RECIPES[recipe] if x != g)
                lack = have[other] - have[g]
                score = -3.0 * rank + lack + (7 - dep[g]) / 6
                if best is None or score > best[0]:
                    best = (score, g)
        res = best[1] if best else min(dep, key=lambda g: (dep[g], g))
        out[mine["cell"]] = res
        have[res] += (7 - dep[res]) / 6
    return out


def _links_to(state: State, st: Building, kinds: tuple[str, ...]) -> int:
    s = scen(state)
    return sum(
        1
        for b in own(state, st["owner"])
        if b["kind"] in kinds
        and s.within(b["cell"], st["cell"], int(s.buildings[b["kind"]]["link"]))
    )


# Transfer and delivery orders per (scenario, the player's buildings: cell and kind): they read
# nothing else, and the bots ask for them on every move (`standing_update`). Bounded (LAYOUT_MAX).
_LAYOUT_ORDERS: dict[tuple[Any, ...], Any] = {}


def _layout_key(state: State, player: str, what: str) -> tuple[Any, ...]:
    blds = state["buildings"]
    mine = tuple((c, b["kind"]) for c, b in blds.items() if b["owner"] == player)
    return (what, state["scenario"], player, mine)


def _by_layout(state: State, player: str, what: str, work: Callable[[State, str], Any]) -> Any:
    """`work(state, player)` remembered per layout of the player's buildings (never handed
    out: the callers copy it); the memo is emptied when full (LAYOUT_MAX)."""
    key = _layout_key(state, player, what)
    found = _LAYOUT_ORDERS.get(key)
    if found is None:
        if len(_LAYOUT_ORDERS) >= LAYOUT_MAX:
            _LAYOUT_ORDERS.clear()
        found = _LAYOUT_ORDERS[key] = work(state, player)
    return found


def transfer_orders(state: State, player: str) -> list[dict[str, Any]]:
    """Simple goods toward storages a mixer links; compound goods toward a transmitter's."""
    found = _by_layout(state, player, "transfers", _transfer_orders)
    return [dict(move) for move in found]


def _transfer_orders(state: State, player: str) -> list[dict[str, Any]]:
    s = scen(state)
    r = int(s.buildings["storage"]["range"])
    stores = own(state, player, "storage")
    mixing = {st["cell"]: _links_to(state, st, ("mixer",)) for st in stores}
    sending = {st["cell"]: _links_to(state, st, ("transmitter",)) for st in stores}
    using = {st["cell"]: _links_to(state, st, EFFECTORS) for st in stores}
    moves: list[dict[str, Any]] = []
    for a in stores:
        near = [b for b in stores if b is not a and s.within(a["cell"], b["cell"], r)]
        if not mixing[a["cell"]]:
            dst = [b for b in near if mixing[b["cell"]]]
            if dst:
                moves += [
                    {"from": a["cell"], "to": dst[0]["cell"], "good": g, "n": 4} for g in SIMPLE
                ]
        if not sending[a["cell"]]:
            dst = sorted(
                (b for b in near if sending[b["cell"]] or using[b["cell"]] > using[a["cell"]]),
                key=lambda b: (-sending[b["cell"]], -using[b["cell"]], b["cell"]),
            )
            if dst:
                moves += [
                    {"from": a["cell"], "to": dst[0]["cell"], "good": g, "n": 4}
                    for g in ("BC", "AB", "AC")
                ]
    return moves


def delivery_orders(state: State, player: str) -> dict[str, list[str]]:
    """Mines deliver to storages a mixer links; mixers to storages effectors link."""
    found = _by_layout(state, player, "deliver", _delivery_orders)
    return {cell: list(stores) for cell, stores in found.items()}


def _delivery_orders(state: State, player: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for b in own(state, player):
        if b["kind"] not in DELIVERING or b["kind"] == "developer":
            continue
        cands = [st for st in own(state, player, "storage") if _in_link(state, b, st)]
        if len(cands) < 2:
            continue
        if b["kind"] == "mine":
            cands.sort(key=lambda st: (-_links_to(state, st, ("mixer",)), st["cell"]))
        else:
            cands.sort(
                key=lambda st: (
                    -_links_to(state, st, ("transmitter",)),
                    -_links_to(state, st, EFFECTORS),
                    st["cell"],
                )
            )
        out[b["cell"]] = [st["cell"] for st in cands]
    return out


def _in_link(state: State, b: Building, st: Building) -> bool:
    s = scen(state)
    return s.within(b["cell"], st["cell"], int(s.buildings[b["kind"]]["link"]))


def standing_update(state: State, player: str, mix: list[str] | None = None) -> Action | None:
    """The first standing order that differs from what the economic bot wants (`mix`: the
    mixers' recipes, by default `product_wants`)."""
    orders = state["players"][player]["orders"]
    mix = product_wants(state, player) if mix is None else mix
    if orders["mix"] != mix:
        return {"type": "mix", "recipes": mix}
    for cell, res in extraction_orders(state, player, mix).items():
        if orders["extract"].get(cell) != res:
            return {"type": "extract", "mine": cell, "resource": res}
    moves = transfer_orders(state, player)
    if orders["transfers"] != moves:
        return {"type": "transfers", "moves": moves}
    current = orders.get("deliver", {})
    for cell, stores in delivery_orders(state, player).items():
        if current.get(cell) != stores:
            return {"type": "deliver", "building": cell, "storages": stores}
    return None


# ---------------------------------------------------------------- phase decisions


def power_ranking(state: State, player: str) -> list[str]:
    """Buildings to power, most useful first (IEC-15.2: the owner chooses)."""
    left = turns_left(state)
    ab = _totals(state, player).get("AB", 0)
    sites = any(w == player for w in state["sites"].values())
    damaged = any(_rebuild_score(state, player, b) > 0 for b in _damaged(state, player))

    def value(b: Building) -> float:
        k = b["kind"]
        if k == "storage":
            return 100.0
        if k == "mixer":
            return 90.0
        if k == "transmitter":
            return 88.0
        if k == "mine":
            return 80.0 + mine_yield(state, player, b["cell"])
        if k == "developer":
            busy = left >= 3 and ab >= 2 and (sites or damaged or _room(state, player) > 0)
            return 85.0 if busy else 20.0
        if k == "laboratory":
            return 70.0 if left >= 1 else 5.0
        if k == "launcher":
            return 60.0 if _totals(state, player).get("AC", 0) else 10.0
        return 1.0

    cands = sorted(power_candidates(state, player), key=lambda b: (-value(b), b["cell"]))
    return [b["cell"] for b in cands]


def ch_nominal(state: State, b: Building) -> int:
    return int(scen(state).buildings[b["kind"]]["modules"])


def _phase_power(state: State, player: str) -> Action:
    ranked = power_ranking(state, player)
    return {"type": "power", "buildings": ranked[: power_slots(state, player)]}


def _phase_prepare(
    state: State, player: str, exclude: frozenset[str] = frozenset()
) -> Action | None:
    s = scen(state)
    mine_sites = [c for c, w in state["sites"].items() if w == player]
    devs = [
        d
        for d in own(state, player, "developer")
        if d["powered"] and not ({"prepare", "recycle"} & set(d["used"]))
    ]
    if not devs:
        return None
    r = ch.dev_range(state)
    pending = [c for c in mine_sites if any(s.within(c, d["cell"], r) for d in devs)]
    if pending and best_projects(state, player, pending, exclude):
        return None
    for _sc, kind, cell in best_projects(state, player, _reach_cells(state, player), exclude):
        del kind
        for d in devs:
            if cell in ch.prep_cells(state, d):
                return {"type": "prepare", "developer": d["cell"], "cell": cell}
    return None


def _phase_build(state: State, player: str, exclude: frozenset[str] = frozenset()) -> Action | None:
    s = scen(state)
    r = ch.dev_range(state)
    options: list[tuple[float, Action]] = []
    for d in own(state, player, "developer"):
        if not d["powered"] or not ch.can_build_attempt(d):
            continue
        if stock(state, d, "AB") < ch.module_cost(state):
            continue
        sites = [
            c
            for c, w in state["sites"].items()
            if s.within(c, d["cell"], r) and _safe(state, player, c) and c not in state["buildings"]
        ]
        for sc, kind, cell in best_projects(state, player, sites, exclude):
            options.append(
                (sc, {"type": "build", "developer": d["cell"], "cell": cell, "kind": kind})
            )
        for cell, kinds in ch.build_targets(state, d):
            if kinds:
                continue
            sc = _rebuild_score(state, player, state["buildings"][cell])
            if sc > 0:
                options.append((sc, {"type": "build", "developer": d["cell"], "cell": cell}))
    if not options:
        return None
    options.sort(key=lambda x: -x[0])
    return options[0][1]


def _lay_score(state: State, player: str, cell: str) -> float:
    s = scen(state)
    owner = state["sites"].get(cell)
    if owner is not None and owner != player:
        return 10.0
    if not ch.kinds_for(state, cell):
        return 0.0
    r = ch.dev_range(state)
    rival_devs = [
        b["cell"]
        for b in state["buildings"].values()
        if b["owner"] != player and b["kind"] == "developer"
    ]
    if not any(s.within(cell, d, r) for d in rival_devs):
        return 0.0
    return 3.0 if cell in s.area_of else 1.0


def _ac_reserve(state: State, player: str) -> int:
    """AC kept for the laboratory while research can still buy a technology."""
    return 1 if own(state, player, "laboratory") and turns_left(state) >= 2 else 0


def _phase_lay(state: State, player: str, rng: Rng) -> Action | None:
    if not ch.can_lay(state, player) or turns_left(state) < 2:
        return None
    ac = _totals(state, player).get("AC", 0)
    if ac < 1 + _ac_reserve(state, player):
        return None
    cells = ch.lay_cells(state, player)
    scored = sorted(((_lay_score(state, player, c), c) for c in cells), key=lambda x: -x[0])
    if not scored or scored[0][0] < 1.0:
        return None
    real = scored[0][1]
    others = [c for c in cells if c != real]
    rng.shuffle(others)
    return {"type": "lay", "real": [real], "fake": sorted(others[:2])}


def _phase_activate(state: State, player: str) -> Action | None:
    for t in ch.activatable_tokens(state, player):
        b = state["buildings"].get(t["cell"])
        if t["real"] and b is not None and b["owner"] != player:
            return {"type": "activate", "cell": t["cell"]}
    return None


def _hit_chance(thr: int, n: int) -> float:
    miss = (thr - 1) / 6
    return 1.0 - miss**n


def _phase_fire(state: State, player: str) -> Action | None:
    top = max((state["players"][p]["vp"] for p in state["players"]), default=0)
    best: tuple[float, Action] | None = None
    for la in own(state, player, "launcher"):
        if not la["powered"] or not ch.can_fire(state, la):
            continue
        n = min(ch.launcher_shots(state, la), stock(state, la, "AC") - _ac_reserve(state, player))
        if n < 1:
            continue
        for cell, thr in ch.fire_targets(state, la):
            b = state["buildings"][cell]
            val = TARGET_VALUE.get(b["kind"], 1.0)
            if b["modules"] == 1:
                val *= 2 if b["kind"] != "reactor" else 20
            val *= 1.0 + state["players"][b["owner"]]["vp"] / (1.0 + top)
            sc = val * _hit_chance(thr, n)
            if sc >= FIRE_MIN and (best is None or sc > best[0]):
                best = (sc, {"type": "fire", "launcher": la["cell"], "targets": {cell: n}})
    return best[1] if best else None


def _research_worth(state: State, player: str) -> bool:
    """Research while the next technology can still be bought before the game ends."""
    pl = state["players"][player]
    need = tech_cost(state, player) - pl["science"]
    return need <= (turns_left(state) + 1) * 5 / 6 + 0.5


def _phase_research(state: State, player: str) -> Action | None:
    if not _research_worth(state, player):
        return None
    for lab in own(state, player, "laboratory"):
        if (
            lab["powered"]
            and "research" not in lab["used"]
            and stock(state, lab, "BC") > 0
            and stock(state, lab, "AC") > 0
        ):
            return {"type": "research", "building": lab["cell"]}
    return None


def _phase_transmit(state: State, player: str) -> Action | None:
    for tm in own(state, player, "transmitter"):
        if tm["powered"] and "transmit" not in tm["used"] and stock(state, tm, "BC") > 0:
            return {"type": "transmit", "building": tm["cell"]}
    return None


def _phase_techs(state: State, player: str, acts: list[Action]) -> Action | None:
    techs = [a for a in acts if a["type"] == "tech"]
    if techs:
        return min(techs, key=lambda a: TECH_PREFERENCE.index(a["tech"]))
    return None


def _secret_orders(state: State, player: str) -> Action | None:
    """Private standing choices of Remote Drilling and Government Subsidy (engine/iec/secret.py):
    peek at an area not seen yet; land a mine next to an own storage."""
    pl = state["players"][player]
    orders = pl["orders"]
    if owns_tech(state, player, 1) and not orders.get("peek"):
        fresh = [a for a in ch.open_areas(state) if a not in pl["peeks"]]
        if fresh:
            return {"type": "peek", "area": fresh[0]}
    if owns_tech(state, player, 16) and not pl["subsidy_used"] and not orders.get("subsidy"):
        s = scen(state)
        r = int(s.buildings["mine"]["link"])
        for st in own(state, player, "storage"):
            for c in s.near(st["cell"], r):
                if "mine" in ch.kinds_for(state, c) and _safe(state, player, c):
                    return {"type": "subsidy", "kind": "mine", "cell": c}
    return None


def economic_bot(state: State, player: str, rng: Rng) -> Action:
    # Rules version 2: a phase declared at once is judged after its own declarations.
    state = together.planned(state, player)
    order = standing_update(state, player) or _secret_orders(state, player)
    if order is not None:
        return order
    return phase_action(state, player, rng)


def phase_action(state: State, player: str, rng: Rng) -> Action:
    """The economic bot's move in the current phase, its standing orders left as they are
    (`state` after the player's own declarations, `together.planned`)."""
    ph = state["phase"]
    act: Action | None = None
    if ph == 3:
        act = _phase_power(state, player)
    elif ph == 5:
        act = _phase_lay(state, player, rng)
    elif ph == 6:
        act = _phase_prepare(state, player)
    elif ph == 7:
        act = _phase_build(state, player)
    elif ph == 8:
        act = _phase_activate(state, player)
    elif ph == 9:
        act = _phase_fire(state, player)
    elif ph == 10:
        act = _phase_transmit(state, player)
    elif ph == 11:
        act = _phase_research(state, player)
    elif ph == 14:
        act = _phase_techs(state, player, legal_actions(state, player))
    if act is None:
        act = {"type": "done"}
    return act


BOTS: dict[str, BotFn] = {
    "random": random_bot,
    "economic": economic_bot,
    "rush": lazy_bot("engine.iec.rush", "rush_bot"),
    "strong": lazy_bot("engine.iec.strong"),
}

__all__: list[Any] = [
    "BOTS",
    "_plan",
    "_reach_cells",
    "_room",
    "any_project",
    "best_projects",
    "economic_bot",
    "network_value",
    "random_bot",
    "turns_left",
]
