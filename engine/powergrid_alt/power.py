"""Phase 5 of the alternative rules (ALT-29..ALT-39): networks, which cities a choice of
running plants powers, fuel, income and penalties. Pure queries and checks; the handler that
declares and resolves power is in rules.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core import N_, IllegalAction
from engine.powergrid.basics import is_int
from engine.powergrid.data import PLANTS, RESOURCES
from engine.powergrid_alt.graph import alt_map, mse2
from engine.powergrid_alt.queries import (
    built_plants,
    is_hanging,
    is_hanging_at,
    line_cost,
    node_of,
)
from engine.powergrid_alt.state_types import AltLine, AltState

State = AltState  # the TypedDict, or the plain dict (state_types.py)
Action = dict[str, Any]
Event = dict[str, Any]

PENALTY = 5  # ALT-36
PLANT_CITY_INCOME2 = 10  # ALT-33: 5 E, in half-Elektro


# ===================================================================== Phase 5: networks


def _adjacency(state: State, player: str) -> dict[str, list[tuple[str, AltLine]]]:
    """The player's network graph: his nodes and his non-hanging lines (ALT-29)."""
    adj: dict[str, list[tuple[str, AltLine]]] = {n: [] for n in state["players"][player]["cities"]}
    for line in state["lines"]:
        if line["owner"] != player:
            continue
        a, b = line["nodes"][0], line["nodes"][-1]
        if a not in adj or b not in adj:
            continue  # hanging: an end where its owner holds nothing (ALT-28)
        adj[a].append((b, line))
        adj[b].append((a, line))
    return adj


# Each owner's network graph and plant cities, as `qualifying_lines` reads them; one of these
# may serve several calls on one unchanged state (a whole income sum).
Graphs = dict[str, tuple[dict[str, list[tuple[str, AltLine]]], set[str]]]


def networks(state: State, player: str) -> list[list[str]]:
    """ALT-29: the player's networks as lists of nodes (in his city order)."""
    adj = _adjacency(state, player)
    seen: set[str] = set()
    out: list[list[str]] = []
    for start in state["players"][player]["cities"]:
        if start in seen:
            continue
        comp = [start]
        seen.add(start)
        i = 0
        while i < len(comp):
            for other, _line in adj[comp[i]]:
                if other not in seen:
                    seen.add(other)
                    comp.append(other)
            i += 1
        out.append(comp)
    return out


def plant_nodes(state: State, player: str) -> set[str]:
    return {b["city"] for b in state["built"].values() if b["owner"] == player}


def qualifying_lines(state: State, node: str, cache: Graphs | None = None) -> list[AltLine]:
    """ALT-34 / ALT-D-26: non-hanging lines of any player ending at `node` whose other end
    reaches a built plant of the line's owner without passing through `node`. `cache` may
    carry the owners' graphs over from calls on the same state."""
    out = []
    if cache is None:
        cache = {}
    for line in state["lines"]:
        ends = (line["nodes"][0], line["nodes"][-1])
        if node not in ends or is_hanging(state, line):
            continue
        owner = line["owner"]
        if owner not in cache:
            cache[owner] = (_adjacency(state, owner), plant_nodes(state, owner))
        adj, plants = cache[owner]
        other = ends[1] if ends[0] == node else ends[0]
        seen = {node, other}
        stack = [other]
        found = False
        while stack:
            cur = stack.pop()
            if cur in plants:
                found = True
                break
            for nxt, _ln in adj[cur]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        if found:
            out.append(line)
    return out


def city_income2(state: State, player: str, node: str, known: Incomes | None = None) -> int:
    """ALT-33/34/35/37: the income of powering `node`, in half-Elektro (`known`: the
    incomes of this very position, when the caller has them)."""
    return (known or Incomes(state)).city(player, node)


def _work_income2(state: State, player: str, node: str, graphs: Graphs, mine: set[str]) -> int:
    if node in mine:
        return PLANT_CITY_INCOME2
    lines = qualifying_lines(state, node, graphs)
    if not lines:
        return 0
    cheapest = min(line_cost(state, line) for line in lines)
    return min(cheapest, mse2(state["map"], state["regions"], node))


# Incomes of recent positions: (position key, see `_position_key`) -> (player, node) -> the
# income in half-Elektro. A strong bot's rollouts and the heuristic's fuel and power sums ask
# the same unchanged network again and again (every purchase, every auction step).
_INCOMES: dict[tuple[object, ...], dict[tuple[str, str], int]] = {}
INCOMES_MEMO = 1024  # positions remembered; the memo is emptied when full


def _position_key(state: State) -> tuple[object, ...]:
    """Everything an income reads: the play area, every line's owner, ends and segments,
    every player's cities and every built plant's city and owner."""
    return (
        state["map"],
        tuple(state["regions"]),
        tuple(
            (ln["owner"], ln["nodes"][0], ln["nodes"][-1], tuple(ln["segs"]))
            for ln in state["lines"]
        ),
        tuple((name, tuple(p["cities"])) for name, p in state["players"].items()),
        tuple((b["city"], b["owner"]) for b in state["built"].values()),
    )


class Incomes:
    """The city incomes of one position (ALT-33..37), each worked out once (and remembered
    for positions with the same network, `_INCOMES`). Valid while the state is unchanged."""

    __slots__ = ("_graphs", "_mine", "_state", "_values")

    def __init__(self, state: State) -> None:
        self._state = state
        key = _position_key(state)
        values = _INCOMES.get(key)
        if values is None:
            if len(_INCOMES) >= INCOMES_MEMO:
                _INCOMES.clear()
            values = _INCOMES[key] = {}
        self._values = values
        self._graphs: Graphs = {}
        self._mine: dict[str, set[str]] = {}

    def city(self, player: str, node: str) -> int:
        value = self._values.get((player, node))
        if value is None:
            mine = self._mine.get(player)
            if mine is None:
                mine = self._mine[player] = plant_nodes(self._state, player)
            value = _work_income2(self._state, player, node, self._graphs, mine)
            self._values[(player, node)] = value
        return value


def income2(state: State, player: str, cities: Iterable[str], known: Incomes | None = None) -> int:
    """The income of powering `cities`, in half-Elektro (ALT-33..37)."""
    known = known or Incomes(state)
    return sum(known.city(player, c) for c in cities)


def fuel_burn(
    state: State, plants: Iterable[int], mix: dict[int, int] | None = None
) -> dict[int, dict[str, int]] | None:
    """ALT-31 / ALT-D-14: what each running plant burns from its own tokens (hybrids coal
    first, or the coal given by `mix`), or None if some plant lacks fuel."""
    out: dict[int, dict[str, int]] = {}
    for n in plants:
        plant = PLANTS[n]
        res = state["built"][str(n)]["res"]
        burn = {r: 0 for r in RESOURCES}
        if plant.type == "hybrid":
            burn["coal"] = min(res["coal"], plant.cost) if mix is None else mix[n]
            burn["oil"] = plant.cost - burn["coal"]
        elif plant.type in RESOURCES:
            burn[plant.type] = plant.cost
        if any(burn[r] > res[r] for r in RESOURCES):
            return None
        out[n] = burn
    return out


def hybrid_mix(state: State, plants: list[int], coal: Any, oil: Any) -> dict[int, int]:
    """PG-2 / PG-42 / ALT-31 / ALT-D-14: split a chosen hybrid mix (`coal` + `oil` = the R of the
    running hybrids) over the hybrid plants, each burning from its own tokens; return the
    coal each hybrid burns (the rest is oil). Lower-numbered hybrids take coal first.
    One of `coal` and `oil` may be None: it is the rest of the need."""
    hybrids = sorted(n for n in plants if PLANTS[n].type == "hybrid")
    need = sum(PLANTS[n].cost for n in hybrids)
    given = [v for v in (coal, oil) if is_int(v) and v >= 0]
    if given and sum(given) > need:  # "coal=3" for hybrids that burn 2: say so, not "say how"
        raise IllegalAction(
            "ALT-31",
            N_("Your running hybrid plants burn {need} tokens, not {total}."),
            need=need,
            total=sum(given),
        )
    coal = need - oil if coal is None and is_int(oil) else coal
    oil = need - coal if oil is None and is_int(coal) else oil
    # ALT-31 (the variant's running plants), not the base game's PG-42: in this game /rules
    # PG-42 answers with the variant's income rule that replaces it (ALT-33)
    if not (is_int(coal) and is_int(oil)) or coal < 0 or oil < 0:
        raise IllegalAction(
            "ALT-31", N_("Say how much coal and oil the hybrids burn: coal=n oil=n.")
        )
    if coal + oil != need:
        raise IllegalAction(
            "ALT-31",
            N_("Your running hybrid plants burn {need} tokens, not {total}."),
            need=need,
            total=coal + oil,
        )
    low: dict[int, int] = {}
    high: dict[int, int] = {}
    for n in hybrids:
        res = state["built"][str(n)]["res"]
        low[n] = max(0, PLANTS[n].cost - res["oil"])
        high[n] = min(PLANTS[n].cost, res["coal"])
    if not sum(low.values()) <= coal <= sum(high.values()) or any(
        low[n] > high[n] for n in hybrids
    ):
        raise IllegalAction(
            "ALT-D-14",
            N_("Your hybrid plants do not hold {coal} coal and {oil} oil between them."),
            coal=coal,
            oil=oil,
        )
    split = dict(low)
    left = coal - sum(low.values())
    for n in hybrids:
        more = min(left, high[n] - low[n])
        split[n] += more
        left -= more
    return split


def runnable(state: State, player: str) -> list[int]:
    return [n for n in built_plants(state, player) if fuel_burn(state, [n]) is not None]


def best_selection(
    state: State, player: str, plants: list[int], known: Incomes | None = None
) -> list[str]:
    """ALT-32 (ALT-D-15): the most valuable legal set of cities for these running plants:
    per network, own cities of running plants free, then the best others up to capacity
    (a plant city first: it earns 5 and saves the penalty)."""
    run_nodes = {state["built"][str(n)]["city"] for n in plants}
    mine = plant_nodes(state, player)
    known = known or Incomes(state)
    chosen: list[str] = []
    for comp in networks(state, player):
        cap = sum(PLANTS[n].output for n in plants if state["built"][str(n)]["city"] in comp)
        free = [c for c in comp if c in run_nodes]
        chosen.extend(free)
        others = [c for c in comp if c not in run_nodes]
        others.sort(key=lambda c: (-(1000 if c in mine else known.city(player, c)), c))
        chosen.extend(others[:cap])
    return chosen


def power_check(state: State, player: str, action: Action) -> tuple[list[int], list[str]]:
    """Validate a power action; return (plants run, cities powered). An optional hybrid mix
    ("coal", "oil") is checked by `hybrid_mix`."""
    plants = action.get("plants", [])
    if not isinstance(plants, list) or not all(is_int(n) for n in plants):
        raise IllegalAction("ALT-31", N_("List the numbers of the plants to run."))
    mine = built_plants(state, player)
    for n in plants:
        if n not in mine:
            raise IllegalAction(
                "ALT-8", N_("Plant {plant} is not one of your built plants."), plant=n
            )
    if len(set(plants)) != len(plants):
        raise IllegalAction("ALT-31", N_("Each plant runs at most once per round."))
    for n in plants:
        if fuel_burn(state, [n]) is None:
            raise IllegalAction(
                "ALT-D-14",
                N_("Plant {plant} does not hold the resources it needs."),
                plant=n,
            )
    plants = sorted(plants)
    if "coal" in action or "oil" in action:
        hybrid_mix(state, plants, action.get("coal"), action.get("oil"))
    cities = action.get("cities")
    if cities is None:
        return plants, best_selection(state, player, plants)
    if not isinstance(cities, list):
        raise IllegalAction("ALT-32", N_("List the cities to power."))
    nodes = [node_of(state, c) for c in cities]
    own = state["players"][player]["cities"]
    for node in nodes:
        if node not in own:
            raise IllegalAction(
                "ALT-32",
                N_("You have no plant or TP in {city}."),
                city=alt_map(state["map"]).label(node),
            )
    run_nodes = [state["built"][str(n)]["city"] for n in plants]
    selected = set(nodes) | set(run_nodes)  # ALT-32.1: a running plant powers its city
    for comp in networks(state, player):
        cap = sum(PLANTS[n].output for n in plants if state["built"][str(n)]["city"] in comp)
        need = sum(1 for c in comp if c in selected and c not in run_nodes)
        if need > cap:
            # A label, not "can power 1 more cities": a refusal has no plural forms, and a
            # number after a colon needs no agreement in English, Russian, Polish or Chinese.
            raise IllegalAction(
                "ALT-D-15",
                N_("Cities this network can still power: {cap} (your choice needs {need})."),
                cap=cap,
                need=need,
            )
    return plants, [c for c in own if c in selected]


def penalties(state: State, player: str, powered: list[str]) -> tuple[int, dict[str, int]]:
    """ALT-36: (to the bank, to each other player) for the player's unpowered plant cities."""
    bank = 0
    others: dict[str, int] = {}
    for node in sorted(plant_nodes(state, player)):
        if node in powered:
            continue
        bank += PENALTY
        # ALT-36 / DECISION ALT-D-29: the owner of the unpowered plant pays the owners of the
        # lines hanging there, even when another player displaced them (a double city).
        hangers = {
            ln["owner"]
            for ln in state["lines"]
            if ln["owner"] != player and is_hanging_at(state, ln, node)
        }
        for owner in hangers:  # ALT-D-17: per owner, not per line
            others[owner] = others.get(owner, 0) + PENALTY
    return bank, others
