"""Bots for the variant: `fn(state, player, rng) -> action`, always legal, always progressing.

- random: a uniformly random legal action; in Phases 3 and 4 it says "done" with
  probability 1/3; in Phase 5 it runs every plant it can (the engine picks the cities).
  From round 30 on it proposes to end by agreement (random play seldom covers the map).
- both accept a vote to end by agreement as soon as they are asked (ending.py).
- heuristic: plays the variant's economy (see `Plan`):
  * Phase 2: wants a plant when its networks have little spare capacity, when an uncovered
    city can only be reached by a plant, or in round 1 (PG-25); it picks the market plant
    with the best yearly value per price among those that have a legal site under the
    pollution limits (ALT-17..19), and bids up to a value-based limit that leaves money
    for the build (ALT-13) and the fuel its plants burn;
  * Phase 3: buys for each built plant exactly one run of fuel (the cheaper of coal and
    oil for hybrids) when running it pays (own city 5 E + no 5 E penalty + powered cities);
  * Phase 4: upgrades to bigger plants of the same type, builds hand plants where they
    open the most uncovered cities close to its network (or cover a city no line reaches;
    in Step 2 also displacing rivals' TPs), joins networks to pool capacity, lays the
    line/TP with the best income per Elektro while it has capacity to power it, and then
    covers uncovered cities with its spare money so that the game ends by ALT-43/44 (idle
    rounds no longer end it, ALT-45 as corrected). A table stuck for 6 Phase 4s without
    building (every player too poor to build) is asked to end by agreement.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from engine.core import IllegalAction, Rng
from engine.core.protocol import Action, BotFn
from engine.core.search import lazy_bot
from engine.powergrid import market as mk
from engine.powergrid.data import PLANTS
from engine.powergrid_alt import ending, purchase, quotes
from engine.powergrid_alt import rules as r
from engine.powergrid_alt.building import Sites
from engine.powergrid_alt.graph import alt_map, mse2
from engine.powergrid_alt.legal import legal_actions
from engine.powergrid_alt.power import Graphs, Incomes

State = r.State
HORIZON = 4  # rounds over which a line's income is weighed against its price
CITY_VALUE = 6  # Elektro a round an extra powered city is worth, for plant choice
COVER_RESERVE = 12  # Elektro kept back when laying lines that only cover cities
LINE_MONEY = 15  # Elektro a new plant should leave for a first line to use its capacity
UNREACHED = 1 << 30
RANDOM_END_ROUND = 30  # from this round on the random bot proposes to end by agreement
STALLED_ROUNDS = 6  # Phase 4s without building after which the heuristic bot proposes it


def random_bot(state: State, player: str, rng: Rng) -> Action:
    if ending.vote_actions(state, player):
        return {"type": "accept_end"}  # bots agree when the table wants to stop
    if state["round"] >= RANDOM_END_ROUND and state.get("end_vote") is None and not state["final"]:
        # random play seldom covers the map (ALT-44); a long game ends by agreement
        return {"type": "propose_end"}
    if state["phase"] == "bureaucracy":
        return {"type": "power", "plants": r.runnable(state, player)}
    actions = legal_actions(state, player)
    if state["phase"] in ("resources", "build") and rng.below(3) == 0:
        return {"type": "done"}
    return rng.choice(actions)


def heuristic_bot(state: State, player: str, rng: Rng) -> Action:
    if ending.vote_actions(state, player):
        return {"type": "accept_end"}  # bots agree when the table wants to stop
    if state["idle"] >= STALLED_ROUNDS and state.get("end_vote") is None and not state["final"]:
        # nobody has built for rounds (a table gone broke): ask to end by agreement
        return {"type": "propose_end"}
    want = r.expected(state)
    if want == "choose_plant":
        return _choose_plant(state, player)
    if want == "bid":
        return _bid(state, player)
    if want == "buy":  # version 2: after its own declared purchases (purchase.py)
        return _buy(purchase.planned(state, player), player)
    if want == "build":
        return _build(state, player)
    if want == "power":
        return {"type": "power", "plants": r.runnable(state, player)}
    return rng.choice(legal_actions(state, player))


# ===================================================================== the player's position


@dataclass
class Route:
    cost: int  # printed segment cost of the cheapest free chain
    path: list[str]


@dataclass
class Plan:
    """What the bot knows about its position: networks, their spare running capacity, the
    cheapest free route from each of its cities (or hanging ends) to every other city."""

    state: State
    player: str
    net_of: dict[str, int] = field(default_factory=dict)  # own node -> network index
    spare: list[int] = field(default_factory=list)  # running capacity not yet used
    short: list[int] = field(default_factory=list)  # cities the network cannot power
    has_plant: list[bool] = field(default_factory=list)
    routes: dict[str, dict[str, Route]] = field(default_factory=dict)  # source -> target
    kept: int | None = None  # `_reserve` of this position, once asked
    found: Sites | None = None  # where plants may stand, once asked

    def sites(self, plant: int) -> list[str]:
        """`legal_sites` of `plant` in the position (several plants are weighed a move)."""
        if self.found is None:
            self.found = Sites(self.state, self.player)
        return self.found.of(plant)

    def reserve(self) -> int:
        """`_reserve` of the position (asked by every Phase 4 choice of one move)."""
        if self.kept is None:
            self.kept = _reserve(self.state, self.player)
        return self.kept

    @classmethod
    def of(cls, state: State, player: str) -> Plan:
        plan = cls(state, player)
        # every built plant counts as running: the bot fuels them all (Phase 3)
        running = set(r.built_plants(state, player))
        sites = {state["built"][str(n)]["city"]: n for n in r.built_plants(state, player)}
        for i, comp in enumerate(r.networks(state, player)):
            cap = sum(PLANTS[sites[c]].output for c in comp if c in sites and sites[c] in running)
            need = sum(1 for c in comp if not (c in sites and sites[c] in running))
            plan.spare.append(max(0, cap - need))
            plan.short.append(max(0, need - cap))
            plan.has_plant.append(any(c in sites for c in comp))
            for c in comp:
                plan.net_of[c] = i
        plan.routes = _routes(state, player)
        return plan

    def reach(self, target: str) -> tuple[str, Route] | None:
        """The cheapest (source, route) to `target` from the player's cities."""
        best: tuple[str, Route] | None = None
        for source, routes in self.routes.items():
            found = routes.get(target)
            if found is not None and (best is None or found.cost < best[1].cost):
                best = (source, found)
        return best


class _Ground:
    """What every route search of one Plan reads, worked out once (a position's Dijkstra
    from each of the player's cities asked the same questions of every node again)."""

    def __init__(self, state: State, player: str) -> None:
        self._map = alt_map(state["map"])
        self._owned = r.owned_segments(state)
        self._in_play = set(r.play_nodes(state))
        own = set(state["players"][player]["cities"])
        tps = state["tps"]
        planted = {b["city"] for b in state["built"].values()}
        # node -> a line may end here: his city or one taking his TP (ALT-23/24)
        self.ends: dict[str, bool] = {}
        # node -> a route may pass on through it: not the player's own city (ALT-D-12) and
        # covered (an uncovered city should rather take a TP)
        self.through: dict[str, bool] = {}
        for node in self._in_play:
            here = tps.get(node, [])
            self.ends[node] = node in own or (node not in planted and len(here) < r.MAX_TPS)
            self.through[node] = node not in own and (bool(here) or node in planted)
        self._steps: dict[str, list[tuple[int, str]]] = {}

    def steps(self, node: str) -> list[tuple[int, str]]:
        """(cost, neighbour in play) over the free segments from `node`, in map order."""
        found = self._steps.get(node)
        if found is None:
            owned, in_play = self._owned, self._in_play
            found = self._steps[node] = [
                (seg.cost, nxt)
                for seg in self._map.incident[node]
                if seg.key not in owned and (nxt := seg.other(node)) in in_play
            ]
        return found


# Routes of recent positions: (position key, see `_routes_key`) -> source -> target -> route.
# Shared by every Plan of that position, read only. Within an auction or a purchase round
# nothing the routes read changes, and the rollouts of one search start from one position.
_ROUTES: dict[tuple[object, ...], dict[str, dict[str, Route]]] = {}
ROUTES_MEMO = 256  # positions remembered (a few hundred routes each); emptied when full


def _routes(state: State, player: str) -> dict[str, dict[str, Route]]:
    """The cheapest free route from each of the player's line starts to every city where
    his line may end (`_free_routes`), remembered per position."""
    key = _routes_key(state, player)
    found = _ROUTES.get(key)
    if found is None:
        if len(_ROUTES) >= ROUTES_MEMO:
            _ROUTES.clear()
        ground = _Ground(state, player)
        found = {source: _free_routes(source, ground) for source in r.line_starts(state, player)}
        _ROUTES[key] = found
    return found


def _routes_key(state: State, player: str) -> tuple[object, ...]:
    """Everything `_routes` reads: the play area, the owned segments, the player's cities and
    his lines' ends (hanging ends start lines, ALT-28), the cities holding TPs (how many) or
    plants."""
    lines = state["lines"]
    return (
        state["map"],
        tuple(state["regions"]),
        player,
        tuple(state["players"][player]["cities"]),
        frozenset(seg for line in lines for seg in line["segs"]),
        tuple((ln["nodes"][0], ln["nodes"][-1]) for ln in lines if ln["owner"] == player),
        frozenset((node, len(tps)) for node, tps in state["tps"].items() if tps),
        frozenset(b["city"] for b in state["built"].values()),
    )


def _free_routes(source: str, ground: _Ground) -> dict[str, Route]:
    """Dijkstra over unowned segments (ALT-22) from `source`, never passing through the
    player's own cities (ALT-D-12) nor through an uncovered city (that city should rather
    take a TP); only targets where the line may end are kept."""
    ends, through, steps = ground.ends, ground.through, ground.steps
    best = {source: 0}
    prev: dict[str, str] = {}
    heap = [(0, source)]
    out: dict[str, Route] = {}
    while heap:
        d, node = heapq.heappop(heap)
        if d > best.get(node, UNREACHED):
            continue
        if node != source:
            if ends[node]:
                path = [node]
                while path[-1] != source:
                    path.append(prev[path[-1]])
                out[node] = Route(d, path[::-1])
            if not through[node]:
                continue
        for cost, nxt in steps(node):
            nd = d + cost
            if nd < best.get(nxt, UNREACHED):
                best[nxt] = nd
                prev[nxt] = node
                heapq.heappush(heap, (nd, nxt))
    return out


def _fuel_cost(state: State, number: int, held: dict[str, int] | None = None) -> int | None:
    """What one run of plant `number` costs at today's prices beyond the tokens it holds
    (None when the market cannot supply it)."""
    plant = PLANTS[number]
    if plant.type in ("eco", "fusion"):
        return 0
    res = held or {"coal": 0, "oil": 0, "garbage": 0, "uranium": 0}
    rm = state["rm"]
    if plant.type == "hybrid":
        need = max(0, plant.cost - res["coal"] - res["oil"])
        options = [_mix_cost(state, need, coal) for coal in range(need + 1)]
        valid = [o for o in options if o is not None]
        return min(valid) if valid else None
    need = max(0, plant.cost - res[plant.type])
    if need > rm[plant.type]:
        return None
    return mk.resource_cost(rm[plant.type], plant.type, need)


def _mix_cost(state: State, need: int, coal: int) -> int | None:
    rm = state["rm"]
    oil = need - coal
    if coal > rm["coal"] or oil > rm["oil"]:
        return None
    return mk.resource_cost(rm["coal"], "coal", coal) + mk.resource_cost(rm["oil"], "oil", oil)


def _fuel_bill(state: State, player: str, *, after_run: bool = False) -> int:
    """Fuel for one run of every built plant at today's prices, beyond the tokens held
    (after this round's run when `after_run`)."""
    total = 0
    for n in r.built_plants(state, player):
        held = dict(state["built"][str(n)]["res"])
        burn = r.fuel_burn(state, [n]) if after_run else None
        if burn is not None:
            for res, count in burn[n].items():
                held[res] -= count
        total += _fuel_cost(state, n, held) or 0
    return total


def _reserve(state: State, player: str) -> int:
    """Phase 4 money kept for next round's fuel, as far as this round's income (with the
    fuel already on the plants) does not pay for it."""
    quote = quotes.power_quote(state, player)
    fines = quote["penalty_bank"] + sum(quote["penalty_players"].values())
    bill = _fuel_bill(state, player, after_run=True)
    return max(0, bill + bill // 2 + 3 + fines - quote["income"])


def _stranded(state: State, plan: Plan) -> list[str]:
    """Uncovered cities the player's lines cannot reach: only a plant can cover them."""
    return [n for n in r.uncovered(state) if plan.reach(n) is None]


# ===================================================================== Phase 2


def _fuel_or_guess(state: State, number: int) -> int:
    fuel = _fuel_cost(state, number)
    return 4 * PLANTS[number].cost if fuel is None else fuel


def _offer(state: State, player: str, plan: Plan, number: int) -> tuple[int, int] | None:
    """(value a round, cost beyond the price) of owning market plant `number`: as an
    upgrade of a smaller built plant of its type (ALT-20, no build, no new line), or built
    in a new city (ALT-13, plus money for a first line unless cities wait for capacity)."""
    spec = PLANTS[number]
    fuel = _fuel_or_guess(state, number)
    best: tuple[int, int] | None = None
    for old in r.built_plants(state, player):
        kind = PLANTS[old].type
        if PLANTS[old].output >= spec.output or spec.type not in (kind, "fusion"):
            continue
        try:
            r.upgrade_site_check(state, old, number)
        except IllegalAction:
            continue
        gain = CITY_VALUE * (spec.output - PLANTS[old].output) - fuel + _fuel_or_guess(state, old)
        if best is None or gain > best[0]:
            best = (gain, 0)
    if plan.sites(number):
        extra = r.PLANT_COST + LINE_MONEY
        gain = 10 + CITY_VALUE * spec.output - fuel
        if best is None or gain / (number + extra) > best[0] / (number + best[1]):
            best = (gain, extra)
    return best


def _wants_plant(state: State, player: str, plan: Plan) -> bool:
    if state["round"] == 1:
        return True
    if r.hand(state, player):
        return False
    if sum(plan.spare) == 0:
        return True
    return bool(_stranded(state, plan))


def _budget(state: State, player: str) -> int:
    """What the bot may spend on a plant and its build: money less the fuel bill."""
    return state["players"][player]["money"] - _fuel_bill(state, player)


def _choose_plant(state: State, player: str) -> Action:
    money = state["players"][player]["money"]
    market = [n for n in mk.current_market(state) if n <= money]
    if state["round"] == 1:  # PG-25: everyone buys; leave money for the build and a line
        fits = [n for n in market if n + r.PLANT_COST + 20 <= money] or market
        pick = max(fits, key=lambda n: (_plant_score(state, n), -n))
        return {"type": "open", "plant": pick, "bid": pick}
    plan = Plan.of(state, player)
    if not _wants_plant(state, player, plan):
        return {"type": "pass"}
    budget = _budget(state, player)
    best: tuple[float, int] | None = None
    for n in market:
        offer = _offer(state, player, plan, n)
        if offer is None or offer[0] <= 0 or n + offer[1] > budget:
            continue
        score = offer[0] / (n + offer[1])
        if best is None or score > best[0]:
            best = (score, n)
    if best is None:
        return {"type": "pass"}
    return {"type": "open", "plant": best[1], "bid": best[1]}


def _plant_score(state: State, number: int) -> float:
    fuel = _fuel_or_guess(state, number)
    return (10 + CITY_VALUE * PLANTS[number].output - fuel) / (number + r.PLANT_COST)


def _bid(state: State, player: str) -> Action:
    auction = state["auction"]
    number = auction["plant"]
    money = state["players"][player]["money"]
    if state["round"] == 1:
        limit = min(money - r.PLANT_COST - 20, number + 5)
    else:
        plan = Plan.of(state, player)
        offer = _offer(state, player, plan, number)
        if not _wants_plant(state, player, plan) or offer is None or offer[0] <= 0:
            return {"type": "pass"}
        limit = min(_budget(state, player) - offer[1], number + offer[0] // 3)
    if auction["bid"] < limit:
        return {"type": "raise", "bid": auction["bid"] + 1}
    return {"type": "pass"}


# ===================================================================== Phase 3


def _buy(state: State, player: str) -> Action:
    money = state["players"][player]["money"]
    mine = sorted(r.built_plants(state, player), key=lambda n: (-PLANTS[n].output, n))
    for plant in mine:
        spec = PLANTS[plant]
        if spec.type in ("eco", "fusion"):
            continue
        res = state["built"][str(plant)]["res"]
        if spec.type == "hybrid":
            need = spec.cost - res["coal"] - res["oil"]
            if need <= 0:
                continue
            choices = [
                (mk.resource_cost(state["rm"][f], f, 1), f)
                for f in ("coal", "oil")
                if state["rm"][f]
            ]
            if not choices:
                continue
            price, fuel = min(choices)
            count = 1
        else:
            fuel = spec.type
            count = min(spec.cost - res[fuel], state["rm"][fuel])
            if count <= 0 or spec.cost - res[fuel] > state["rm"][fuel]:
                continue
            price = mk.resource_cost(state["rm"][fuel], fuel, count)
        if price <= money and price <= _run_worth(state, player, plant):
            return {"type": "buy", "resource": fuel, "count": count, "plant": plant}
    return {"type": "done"}


def _yield2(state: State, player: str, plants: list[int]) -> int:
    """Income less penalties, in half-Elektro, if exactly `plants` ran (ALT-32..36)."""
    known = Incomes(state)
    cities = r.best_selection(state, player, plants, known)
    bank, others = r.penalties(state, player, cities)
    return r.income2(state, player, cities, known) - 2 * (bank + sum(others.values()))


def _run_worth(state: State, player: str, plant: int) -> int:
    """What running `plant` adds this round, next to his plants that can already run.

    (Measured against every other plant running, each plant looked worthless once the others
    covered the network, so none got fuel and a whole table could go broke.)"""
    others = [n for n in r.runnable(state, player) if n != plant]
    gain2 = _yield2(state, player, [*others, plant]) - _yield2(state, player, others)
    return gain2 // 2


# ===================================================================== Phase 4


def _build(state: State, player: str) -> Action:
    plan = Plan.of(state, player)
    for choice in (_upgrade, _place_plant, _best_line, _cover):
        action = choice(state, player, plan)
        if action is not None:
            return action
    return {"type": "done"}


def _upgrade(state: State, player: str, plan: Plan) -> Action | None:
    for old in r.built_plants(state, player):
        for new in r.hand(state, player):
            if PLANTS[new].output <= PLANTS[old].output:
                continue
            try:
                r.upgrade_check(state, player, old, new)
            except IllegalAction:
                continue
            return {"type": "upgrade", "old": old, "new": new}
    return None


def _place_plant(state: State, player: str, plan: Plan) -> Action | None:
    hand = sorted(r.hand(state, player), key=lambda n: (-PLANTS[n].output, n))
    if not hand or state["players"][player]["money"] < r.PLANT_COST:
        return None
    stalled = bool(state["idle"]) and not state["activity"]
    if state["players"][player]["money"] - r.PLANT_COST < plan.reserve() and not stalled:
        return None
    stranded = set(_stranded(state, plan))
    am = alt_map(state["map"])
    owned = r.owned_segments(state)
    in_play = set(r.play_nodes(state))
    own = set(state["players"][player]["cities"])
    open_nodes = set(r.uncovered(state))
    best: tuple[float, str, int] | None = None
    for plant in hand:
        for node in plan.sites(plant):
            # room to grow: free segments to uncovered neighbours
            grow = sum(
                1
                for s in am.incident[node]
                if s.key not in owned and s.other(node) in in_play and s.other(node) in open_nodes
            )
            score = 3.0 * grow
            if node in stranded:
                score += 30
            elif node in open_nodes:
                score += 4
            rivals = [p for p in state["tps"].get(node, []) if p != player]
            score += 8 * len(rivals)  # ALT-15 (Step 2+): displace rivals' TPs
            link = plan.reach(node)
            if own and sum(plan.short):
                # next to the network that lacks capacity: a line will join them
                score -= 2 * link[1].cost if link else 80
            elif own:
                score -= link[1].cost if link else 40
            else:
                score += mse2(state["map"], state["regions"], node) / 4
            key = (score, node, plant)
            if best is None or key > best:
                best = key
    if best is None:
        return None
    return {"type": "build_plant", "plant": best[2], "city": best[1]}


def _existing_feed(state: State, node: str, cache: Graphs) -> int | None:
    """The cheapest qualifying line into `node` today (ALT-34), if any (`cache`: the owners'
    graphs, shared by the calls of one move)."""
    if not state["tps"].get(node) and not r.plants_in(state, node):
        return None
    lines = r.qualifying_lines(state, node, cache)
    return min((r.line_cost(state, ln) for ln in lines), default=None)


def _legal_line(state: State, player: str, path: list[str]) -> dict[str, object] | None:
    try:
        return r.line_check(state, player, path)
    except IllegalAction:
        return None


def _best_line(state: State, player: str, plan: Plan) -> Action | None:
    """The line with the best income per Elektro that the player can power, or a line that
    joins two of his networks so that spare capacity meets unpowered cities."""
    money = state["players"][player]["money"] - plan.reserve()
    best: tuple[float, list[str]] | None = None
    graphs: Graphs = {}
    for source, routes in plan.routes.items():
        net = plan.net_of.get(source)
        for target, route in routes.items():
            gain: float
            if r.holds(state, player, target):
                other = plan.net_of[target]
                if net is None or other == net:
                    continue
                gain = CITY_VALUE * (
                    min(plan.spare[net], plan.short[other])
                    + min(plan.spare[other], plan.short[net])
                )
                price = route.cost
            else:
                if net is None or not plan.has_plant[net] or plan.spare[net] <= 0:
                    continue
                cheapest = route.cost
                feed = _existing_feed(state, target, graphs)
                if feed is not None:
                    cheapest = min(cheapest, feed)
                gain = min(cheapest, mse2(state["map"], state["regions"], target)) / 2
                price = route.cost + r.TP_COST
            if gain <= 0 or price > money or gain * HORIZON < price:
                continue
            score = gain / price
            better = best is None or score > best[0]
            if better and _legal_line(state, player, route.path) is not None:
                best = (score, list(route.path))
    if best is None:
        return None
    return {"type": "line", "cities": best[1]}


def _cover(state: State, player: str, plan: Plan) -> Action | None:
    """Cover an uncovered city as cheaply as possible with money to spare (ALT-43): a TP in
    a city one of the player's lines passes through, or a line ending in a new TP. After a
    Phase 4 without building, any money will do, so that the game does not stall (ALT-45).
    """
    money = state["players"][player]["money"]
    uncovered = r.uncovered(state)
    if not uncovered or state["round"] == 1:
        return None
    stalled = bool(state["idle"]) and not state["activity"]
    if sum(plan.short) and state["step"] == 1 and not stalled:
        return None  # capacity first: new TPs would not be powered
    reserve = plan.reserve()
    if len(uncovered) > 4:
        reserve += COVER_RESERVE
    if stalled:
        reserve = 0
    best: tuple[int, Action] | None = None
    passed = {n for ln in state["lines"] if ln["owner"] == player for n in ln["nodes"][1:-1]}
    for node in uncovered:
        if node in passed and money - r.TP_COST >= reserve:
            try:
                r.tp_check(state, player, node)
            except IllegalAction:
                pass
            else:
                candidate: tuple[int, Action] = (r.TP_COST, {"type": "tp", "city": node})
                if best is None or candidate[0] < best[0]:
                    best = candidate
        link = plan.reach(node)
        if link is None:
            continue
        price = link[1].cost + r.TP_COST
        if money - price < reserve or (best is not None and price >= best[0]):
            continue
        if _legal_line(state, player, link[1].path) is not None:
            best = (price, {"type": "line", "cities": list(link[1].path)})
    return None if best is None else best[1]


BOTS: dict[str, BotFn] = {
    "random": random_bot,
    "heuristic": heuristic_bot,
    "strong": lazy_bot("engine.powergrid_alt.strong"),
}
