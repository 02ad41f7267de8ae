"""Bots for the variant: `fn(state, player, rng) -> action`, always legal, always progressing.

- random: a uniformly random legal action; in Phases 3 and 4 it says "done" with
  probability 1/3; in Phase 5 it runs every plant it can (the engine picks the cities).
- heuristic: buys one affordable plant a round while its hand is empty, builds it near its
  network under the pollution limits, upgrades to bigger plants of the same type, buys one
  run of fuel per plant, then extends its network with the line whose TP city pays best
  for its price while it has capacity to power it.
"""

from __future__ import annotations

from engine.core import IllegalAction, Rng
from engine.core.protocol import Action, BotFn
from engine.powergrid import market as mk
from engine.powergrid.data import PLANTS
from engine.powergrid_alt import rules as r
from engine.powergrid_alt.graph import INF, distance, mse2
from engine.powergrid_alt.legal import legal_actions, line_candidates

State = r.State
RESERVE = 10  # Elektro a heuristic bot keeps for fuel


def random_bot(state: State, player: str, rng: Rng) -> Action:
    if state["phase"] == "bureaucracy":
        return {"type": "power", "plants": r.runnable(state, player)}
    actions = legal_actions(state, player)
    if state["phase"] in ("resources", "build") and rng.below(3) == 0:
        return {"type": "done"}
    return rng.choice(actions)


def heuristic_bot(state: State, player: str, rng: Rng) -> Action:
    want = r.expected(state)
    p = state["players"][player]
    if want == "choose_region":
        return rng.choice(legal_actions(state, player))
    if want == "choose_plant":
        return _choose_plant(state, player)
    if want == "bid":
        auction = state["auction"]
        limit = min(p["money"] - 15, auction["plant"] + 4)
        if auction["bid"] < limit:
            return {"type": "raise", "bid": auction["bid"] + 1}
        return {"type": "pass"}
    if want == "buy":
        return _buy(state, player)
    if want == "build":
        return _build(state, player)
    if want == "power":
        return {"type": "power", "plants": r.runnable(state, player)}
    return rng.choice(legal_actions(state, player))


def _choose_plant(state: State, player: str) -> Action:
    p = state["players"][player]
    market = [n for n in mk.current_market(state) if n <= p["money"]]
    if state["round"] == 1:
        return {"type": "open", "plant": min(market), "bid": min(market)}
    mine = r.built_plants(state, player)
    capacity = sum(PLANTS[n].output for n in mine)
    if r.hand(state, player) or len(p["cities"]) - len(mine) < capacity - 1:
        return {"type": "pass"}
    best = [n for n in market if n + r.PLANT_COST + 2 * RESERVE <= p["money"]]
    if not best:
        return {"type": "pass"}
    pick = max(best, key=lambda n: (PLANTS[n].output, PLANTS[n].cost == 0, -n))
    return {"type": "open", "plant": pick, "bid": pick}


def _buy(state: State, player: str) -> Action:
    money = state["players"][player]["money"]
    for plant in r.built_plants(state, player):
        kind = PLANTS[plant].type
        res = state["built"][str(plant)]["res"]
        if kind == "hybrid":
            need, fuel = PLANTS[plant].cost - res["coal"] - res["oil"], "coal"
            if state["rm"]["coal"] < need:
                fuel = "oil"
        elif kind in ("coal", "oil", "garbage", "uranium"):
            need, fuel = PLANTS[plant].cost - res[kind], kind
        else:
            continue
        need = min(need, state["rm"][fuel])
        if need > 0 and mk.resource_cost(state["rm"][fuel], fuel, need) <= money:
            return {"type": "buy", "resource": fuel, "count": need, "plant": plant}
    return {"type": "done"}


def _build(state: State, player: str) -> Action:
    p = state["players"][player]
    money = p["money"]
    hand = r.hand(state, player)
    mine = r.built_plants(state, player)
    # upgrade: a bigger plant of the same type (or fusion) from the hand
    for old in mine:
        for new in hand:
            if PLANTS[new].output > PLANTS[old].output:
                try:
                    r.upgrade_check(state, player, old, new)
                except IllegalAction:
                    continue
                return {"type": "upgrade", "old": old, "new": new}
    if hand and money >= r.PLANT_COST:
        spot = _plant_spot(state, player, hand)
        if spot is not None:
            return spot
    capacity = sum(PLANTS[n].output for n in mine)
    tps = sum(1 for c in p["cities"] if c not in {state["built"][str(n)]["city"] for n in mine})
    if mine and tps < capacity:
        line = _best_line(state, player, money - RESERVE)
        if line is not None:
            return line
    return {"type": "done"}


def _plant_spot(state: State, player: str, hand: list[int]) -> Action | None:
    own = state["players"][player]["cities"]
    best: tuple[int, int, str, int] | None = None
    for plant in hand:
        for node in r.play_nodes(state):
            try:
                r.build_plant_check(state, player, plant, node)
            except IllegalAction:
                continue
            if own:
                d = min(distance(state["map"], state["regions"], node, o) for o in own)
            else:
                d = -mse2(state["map"], state["regions"], node)
            if d >= INF:
                continue
            key = (d, -PLANTS[plant].output, node, plant)
            if best is None or key < best:
                best = key
    if best is None:
        return None
    return {"type": "build_plant", "plant": best[3], "city": best[2]}


def _best_line(state: State, player: str, budget: int) -> Action | None:
    best: tuple[float, list[str]] | None = None
    for route in line_candidates(state, player):
        try:
            plan = r.line_check(state, player, route)
        except r.IllegalAction:
            continue
        if not plan["tp"] or plan["cost"] > budget:
            continue
        seg_cost = plan["cost"] - r.TP_COST
        gain = min(seg_cost, mse2(state["map"], state["regions"], route[-1])) / 2
        score = gain / plan["cost"]
        if best is None or score > best[0]:
            best = (score, route)
    if best is None:
        return None
    return {"type": "line", "cities": best[1]}


BOTS: dict[str, BotFn] = {"random": random_bot, "heuristic": heuristic_bot}
