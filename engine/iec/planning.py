"""The economic bot's estimates of a network and its growth projects (engine/iec/bots.py),
shared by the rush and the strong bot's policy (engine/iec/defence.py).

They run on every move of every rollout of the strong bot's search, so they are built for
speed without changing a single value: `Network` works out the storages' pools and links of a
plan once for all the candidate buildings tried on it, `Planner` what `project_score` reads of
the state once per `best_projects` call, and `_projects` remembers the scores per cell under a
key of everything they read (`_planning_key`). Every float is computed by the same operations
in the same order as before (tests/engine/iec/test_strong_policy_unchanged.py and
test_opponents_unchanged.py pin whole games of moves).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core import State
from engine.iec import choices as ch
from engine.iec.rules import deposit_at, has_tech, own, param, power_candidates, power_slots, scen

Building = dict[str, Any]
Plan = list[tuple[str, str]]

GROWTH = ("mine", "storage", "mixer", "transmitter")
LAB_SCORE = 2.6
LAUNCHER_SCORE = 1.2
MIN_PROJECT = 1.0
# How many entries a memo below holds before it is emptied (a process keeps no game's data
# beyond that).
SCORES_MAX = 50_000
# The same for the memos keyed by a whole layout of buildings (bots.py's orders, rush.py's
# launcher cells): a rollout asks again about the layouts of its last few moves only.
LAYOUT_MAX = 4_096


def turns_left(state: State) -> int:
    return int(param(state, "turns")) - int(state["turn"])


def mine_yield(state: State, player: str, cell: str) -> float:
    """Expected units per turn of a mine on cell (its best resource; an unknown area's
    deposit is averaged over its class list, or over the pair the player has peeked at)."""
    s = scen(state)
    dep = deposit_at(state, cell)
    if dep:
        return max((7 - n) / 6 for n in dep.values())
    area_id = s.area_of.get(cell)
    if area_id is None:
        return 0.0
    pool = state["players"][player]["peeks"].get(area_id) or s.classes[s.areas[area_id]["class"]]
    return sum(max((7 - n) / 6 for n in s.deposits[d].values()) for d in pool) / len(pool)


def network_value(state: State, player: str, plan: Plan) -> float:
    """Estimated compound goods per turn that reach a transmitter (plus a little for goods
    that reach only a developer or laboratory) for a set of (kind, cell) buildings.

    Storages within storage range of each other form one pool (standing transfers), and a
    mixer joins the storages it links; mines feed the pool they link to, each mixer turns 2
    units into 1 product per turn, each transmitter launches 1 per turn.
    """
    return Network(state, player).value(plan)


class Network:
    """`network_value` for many plans of one player in one state (the bots' planning tries
    a plan per candidate building): mine yields, the storages' pools and each building's
    linked storages are worked out once. The arithmetic is `network_value`'s own, in the
    same order, so every value is the same float."""

    def __init__(self, state: State, player: str) -> None:
        self.state = state
        self.player = player
        self.s = scen(state)
        self.yields: dict[str, float] = {}
        self.pools: dict[tuple[str, ...], list[int]] = {}
        self.near: dict[tuple[str, str, tuple[str, ...]], list[int]] = {}
        self.bases: dict[tuple[int, tuple[str, ...]], tuple[Plan, Any, list[int]]] = {}

    def _yield(self, cell: str) -> float:
        y = self.yields.get(cell)
        if y is None:
            y = self.yields[cell] = mine_yield(self.state, self.player, cell)
        return y

    def _pool(self, stores: tuple[str, ...]) -> list[int]:
        """The union-find parents after joining storages within storage range (a copy)."""
        parent = self.pools.get(stores)
        if parent is None:
            s = self.s
            r_st = int(s.buildings["storage"]["range"])
            parent = list(range(len(stores)))
            for i in range(len(stores)):
                for j in range(i + 1, len(stores)):
                    if s.within(stores[i], stores[j], r_st):
                        parent[_find(parent, i)] = _find(parent, j)
            self.pools[stores] = parent
        return list(parent)

    def _near(self, kind: str, cell: str, stores: tuple[str, ...]) -> list[int]:
        key = (kind, cell, stores)
        near = self.near.get(key)
        if near is None:
            s = self.s
            r = int(s.buildings[kind]["link"])
            near = self.near[key] = [i for i, sc in enumerate(stores) if s.within(cell, sc, r)]
        return near

    def value(self, plan: Plan, extra: Plan | None = None) -> float:
        """`network_value` of `plan` + `extra` (the links of `plan` are kept for the next
        call with the same plan: the candidates of one `best_projects` share it)."""
        extra = extra or []
        stores = tuple(c for k, c in (*plan, *extra) if k == "storage")
        key = (id(plan), stores)
        cached = self.bases.get(key)
        if cached is None or cached[0] is not plan:
            base_links, base_parent = self._links(plan, stores, self._pool(stores))
            self.bases[key] = (plan, base_links, base_parent)
        else:
            _plan, base_links, base_parent = cached
        extra_links, parent = self._links(extra, stores, list(base_parent))
        supply: dict[int, float] = {}
        count: dict[tuple[int, str], int] = {}
        for links in (base_links, extra_links):
            for k, c, near in links:
                root = _find(parent, near[0])
                if k == "mine":
                    supply[root] = supply.get(root, 0.0) + self._yield(c)
                else:
                    count[root, k] = count.get((root, k), 0) + 1
        value = 0.0
        for root in {_find(parent, i) for i in range(len(stores))}:
            made = min(supply.get(root, 0.0) / 2, float(count.get((root, "mixer"), 0)))
            sent = min(made, float(count.get((root, "transmitter"), 0)))
            used = count.get((root, "developer"), 0) + count.get((root, "laboratory"), 0)
            value += sent + (0.35 * (made - sent) if used else 0.0)
        return value + 0.01 * len(stores)

    def _links(
        self, plan: Plan, stores: tuple[str, ...], parent: list[int]
    ) -> tuple[list[tuple[str, str, list[int]]], list[int]]:
        """The buildings of `plan` that link a storage, with those storages; a mixer joins
        the pools of the storages it links (`parent`, changed in place and returned)."""
        links: list[tuple[str, str, list[int]]] = []
        for k, c in plan:
            if k == "storage":
                continue
            near = self._near(k, c, stores)
            if near:
                links.append((k, c, near))
                if k == "mixer":
                    for i in near[1:]:
                        parent[_find(parent, i)] = _find(parent, near[0])
        return links, parent


def _find(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def _plan(state: State, player: str) -> Plan:
    return [(b["kind"], b["cell"]) for b in own(state, player) if b["modules"] >= 1]


def _room(state: State, player: str) -> int:
    return power_slots(state, player) - len(power_candidates(state, player))


def _safe(state: State, player: str, cell: str) -> bool:
    """No token on the cell except the player's own fakes (IEC-D-9: own mines hit too)."""
    return all(t["owner"] == player and not t["real"] for t in state["tokens"] if t["cell"] == cell)


def _reach_cells(state: State, player: str) -> list[str]:
    cells: dict[str, None] = {}
    for d in own(state, player, "developer"):
        if d["powered"]:
            for c in ch.prep_cells(state, d):
                cells[c] = None
    return [c for c in cells if _safe(state, player, c)]


def _compound_storages(state: State, player: str) -> list[Building]:
    """Storages a mixer delivers to (linked to a mixer)."""
    s = scen(state)
    r = int(s.buildings["mixer"]["link"])
    mixers = own(state, player, "mixer")
    return [
        st
        for st in own(state, player, "storage")
        if any(s.within(st["cell"], m["cell"], r) for m in mixers)
    ]


def _rival_cells(state: State, player: str) -> list[str]:
    return [c for c, b in state["buildings"].items() if b["owner"] != player]


class Planner:
    """What `project_score` reads of a state, worked out once for all the candidate
    buildings of one `best_projects` call (the rollouts' hottest loop)."""

    def __init__(self, state: State, player: str) -> None:
        self.state = state
        self.player = player
        self.s = scen(state)
        self.left = turns_left(state)
        self.room = _room(state, player)
        self.plan = _plan(state, player)
        self.net = Network(state, player)
        self._goods: list[Building] | None = None

    def goods(self) -> list[Building]:
        if self._goods is None:
            self._goods = _compound_storages(self.state, self.player)
        return self._goods

    def gain(self, kind: str, cell: str, mine_cells: list[str], base: float) -> float | None:
        """A growth building's gain in goods per turn (`score` times the turns left but one);
        None without a free power place (score 0). Reads no turn and no VP."""
        s, room, plan = self.s, self.room, self.plan
        if room < 1:
            return None
        gain = self.net.value(plan, [(kind, cell)]) - base
        if kind == "storage" and room >= 2:
            r_mine = int(s.buildings["mine"]["link"])
            fed = [m for m in mine_cells if m != cell and s.within(m, cell, r_mine)]
            for m in fed:
                both = self.net.value(plan, [(kind, cell), ("mine", m)])
                gain = max(gain, (both - base) / 2 + 0.005 * len(fed))
        return gain

    def score(self, kind: str, cell: str, mine_cells: list[str], base: float) -> float:
        """`project_score` (see there)."""
        state, player, s = self.state, self.player, self.s
        left, room, plan = self.left, self.room, self.plan
        if kind in GROWTH:
            return _growth_score(self.gain(kind, cell, mine_cells, base), left)
        have = {k for k, _c in plan}
        r_lab = int(s.buildings[kind]["link"])
        near_goods = any(s.within(st["cell"], cell, r_lab) for st in self.goods())
        if kind == "laboratory":
            if "laboratory" in have or left < 9 or room < 0 or not near_goods or state["turn"] < 3:
                return 0.0
            return LAB_SCORE + 0.01 * left
        if kind == "launcher":
            limit = -1
            if (
                "launcher" in have
                or left < 5
                or state["turn"] < 8
                or room < limit
                or not near_goods
            ):
                return 0.0
            top = max(state["players"][p]["vp"] for p in state["players"])
            if top < state["players"][player]["vp"] + 2:
                return 0.0
            ext = int(s.buildings["launcher"]["range"]) * int(
                param(state, "launcher_extended_factor")
            )
            rivals = [c for c in _rival_cells(state, player) if s.within(c, cell, ext)]
            return LAUNCHER_SCORE + 0.1 * len(rivals) if rivals else 0.0
        return 0.0


def _growth_score(gain: float | None, left: int) -> float:
    return 0.0 if gain is None else gain * max(0, left - 1)


def project_score(
    state: State, player: str, kind: str, cell: str, mine_cells: list[str], base: float
) -> float:
    """Expected compound goods gained over the rest of the game by a first module of kind."""
    return Planner(state, player).score(kind, cell, mine_cells, base)


def _mine_cells(state: State, player: str, reach: list[str]) -> list[str]:
    s = scen(state)
    return [c for c in reach if c in s.area_of and "mine" in ch.kinds_for(state, c)]


# `_projects`' growth gains per (planning key, cell): a rollout asks about the same cells in
# the same network many times (every move re-plans it, and from turn to turn little changes),
# and a gain reads only what `_planning_key` holds, so a hit is the very value a fresh
# computation gives (the turns left multiply it afterwards, as `Planner.score` does).
_GAINS: dict[tuple[Any, str], list[tuple[str, float | None]]] = {}


def _planning_key(state: State, player: str) -> tuple[Any, ...]:
    """Everything `Planner.gain`, `_mine_cells` and `_reach_cells` read of the state: the
    buildings (kind; the player's own also modules, completion, power), sites, tokens,
    deposits, the player's peeks and power places (IEC-15: reactors, Energy Recovery, power
    given and received)."""
    pl = state["players"][player]
    return (
        state["scenario"],
        player,
        tuple(
            (c, b["kind"], b["modules"], b["complete"], b["powered"])
            if b["owner"] == player
            else (c, b["kind"])  # a rival's building counts by its place and kind alone
            for c, b in state["buildings"].items()
        ),
        tuple(state["sites"].items()),
        tuple((t["cell"], t["owner"], t["real"]) for t in state["tokens"]),
        tuple((a, area["deposit"]) for a, area in state["areas"].items()),
        tuple((a, tuple(p)) for a, p in pl["peeks"].items()),
        has_tech(state, player, 13),
        pl["received"],
        pl["given"],
    )


def _projects(
    state: State, player: str, cells: list[str], exclude: frozenset[str]
) -> Iterator[tuple[float, str, str]]:
    """(score, kind, cell) of the new buildings worth a project, in `cells` order."""
    key = _planning_key(state, player)
    left = turns_left(state)
    planner: Planner | None = None
    base: float | None = None
    mines: list[str] = []
    for cell in cells:
        gains = _GAINS.get((key, cell))
        if gains is None:
            if planner is None:
                planner = Planner(state, player)
            if base is None:
                base = planner.net.value(planner.plan)
                mines = _mine_cells(state, player, _reach_cells(state, player))
            gains = [
                (kind, planner.gain(kind, cell, mines, base) if kind in GROWTH else None)
                for kind in ch.kinds_for(state, cell)
                if kind not in ("reactor", "developer")
            ]
            if len(_GAINS) >= SCORES_MAX:
                _GAINS.clear()
            _GAINS[key, cell] = gains
        for kind, gain in gains:
            if kind in exclude:
                continue
            if kind in GROWTH:
                sc = _growth_score(gain, left)
            else:
                if planner is None:
                    planner = Planner(state, player)
                sc = planner.score(kind, cell, mines, 0.0)  # a laboratory or launcher
            if sc >= MIN_PROJECT:
                yield (sc, kind, cell)


def best_projects(
    state: State, player: str, cells: list[str], exclude: frozenset[str] = frozenset()
) -> list[tuple[float, str, str]]:
    """(score, kind, cell) for new buildings on the given cells, best first (`exclude`: kinds
    not considered)."""
    out = list(_projects(state, player, cells, exclude))
    out.sort(key=lambda x: (-x[0], x[1], scen(state).index[x[2]]))
    return out


def any_project(
    state: State, player: str, cells: list[str], exclude: frozenset[str] = frozenset()
) -> bool:
    """Whether `best_projects` would list any (it stops at the first)."""
    return next(_projects(state, player, cells, exclude), None) is not None
