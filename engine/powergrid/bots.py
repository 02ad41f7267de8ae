"""Bots: `fn(state, player, rng) -> action`, always legal, always making progress.

- random: a uniformly random legal action, except that in the resources and build phases
  it says "done" with probability 1/3, so its turns end and games finish; and one time in
  six it places or cancels a random standing order (orders.py) instead.
- heuristic: buys plants that add power within its means, the fuel its plants need, the
  cheapest cities it can power, and runs the plants that power the most.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate

from engine.core import Rng
from engine.core.protocol import Action, BotFn
from engine.core.search import lazy_bot
from engine.powergrid import market as mk
from engine.powergrid.data import HOUSES, PLANTS, RESOURCES
from engine.powergrid.legal import legal_actions
from engine.powergrid.rules import State, build_options, cheapest_city, expected, limits


def random_order(state: State, player: str, rng: Rng) -> Action | None:
    """A standing order this player may place now (any time, on turn or not), or None."""
    p = state["players"][player]
    choices: list[Action] = [
        {"type": "order", "kind": "buy_auto", "limit": rng.below(40) if rng.below(2) else None},
        {"type": "order", "kind": "power_auto"},
    ]
    auction = state["auction"]
    if state["phase"] == "auction" and auction is not None and player in auction["bidders"]:
        plant = auction["plant"]
        if p["money"] > auction["bid"]:
            limit = auction["bid"] + 1 + rng.below(p["money"] - auction["bid"])
            choices.append({"type": "order", "kind": "maxbid", "plant": plant, "limit": limit})
        choices.append({"type": "order", "kind": "pass_plant", "plant": plant})
    if (
        state["phase"] == "auction"
        and state["round"] > 1
        and not p["bought"]
        and not p["passed"]
        and state["pending_discard"] is None
    ):
        choices.append({"type": "order", "kind": "pass_round"})
    if state["phase"] in ("resources", "build"):
        # PG-38: a plan never names more cities than the player has houses left (issue 27).
        houses_left = HOUSES - len(p["cities"])
        options = [c for c, _ in build_options(state, player)[: min(4, houses_left)]]
        if options:
            plan = [options[i] for i in range(len(options)) if rng.below(2)] or options[:1]
            choices.append({"type": "order", "kind": "build_plan", "cities": plan})
    if "orders" in state and player in state["orders"]:
        choices.append({"type": "cancel", "kinds": []})
    return rng.choice(choices)


def random_bot(state: State, player: str, rng: Rng) -> Action:
    """Random moves; one time in six it places (or cancels) a standing order instead, which
    then acts at once if it covers the current turn."""
    if state["phase"] not in ("regions", "over") and rng.below(6) == 0:
        order = random_order(state, player, rng)
        if order is not None:
            return order
    actions = legal_actions(state, player)
    if state["phase"] in ("resources", "build") and rng.below(3) == 0:
        return {"type": "done"}
    if state["phase"] == "bureaucracy":
        p = state["players"][player]
        plants, _ = mk.best_run(p["plants"], p["res"], len(p["cities"]))
        return {"type": "power", "plants": plants}
    return rng.choice(actions)


# Per plant number: cities powered (the heuristic reads it on every decision).
_OUTPUT: dict[int, int] = {n: plant.output for n, plant in PLANTS.items()}


def _capacity(plants: list[int]) -> int:
    return sum(map(_OUTPUT.__getitem__, plants))


def _plant_gain(p: dict, number: int, max_plants: int) -> int:
    """Cities of capacity a plant adds (replacing the weakest plant when at the limit)."""
    plants = p["plants"]
    out = _OUTPUT[number]
    if len(plants) < max_plants:
        return out
    return out - min(map(_OUTPUT.__getitem__, plants))


def _bid_limit(state: State, p: dict, number: int) -> int:
    """What the heuristic would pay: the number plus a premium for output, within money."""
    gain = _plant_gain(p, number, limits(state)["max_plants"])
    reserve = 0 if state["round"] == 1 else 10 + 5 * len(p["cities"]) // 2
    return min(p["money"] - reserve, number + 3 * max(0, gain))


def heuristic_bot(state: State, player: str, rng: Rng) -> Action:
    want = expected(state)
    p = state["players"][player]
    if want == "bid":
        auction = state["auction"]
        if auction["bid"] < _bid_limit(state, p, auction["plant"]):
            return {"type": "raise", "bid": auction["bid"] + 1}
        return {"type": "pass"}
    if want == "buy":
        return _buy(state, p)
    if want == "build":
        return _build(state, player, p)
    if want == "choose_plant":
        return _choose_plant(state, p)
    if want == "choose_region":
        return rng.choice(legal_actions(state, player))
    if want == "discard":
        new = state["pending_discard"]["plant"]
        old = [n for n in p["plants"] if n != new]
        return {"type": "discard", "plant": min(old, key=lambda n: (_OUTPUT[n], n))}
    plants, _ = mk.best_run(p["plants"], p["res"], len(p["cities"]))
    return {"type": "power", "plants": plants}


def _choose_plant(state: State, p: dict) -> Action:
    money = p["money"]
    current = [n for n in mk.current_market(state) if n <= money]
    if state["round"] == 1:
        # PG-25: must buy; take the plant with the best output per price.
        best = max(current, key=lambda n: (_OUTPUT[n] / n, -n))
        return {"type": "open", "plant": best, "bid": best}
    plants = p["plants"]
    if _capacity(plants) > len(p["cities"]) + 2 and len(plants) >= 2:
        return {"type": "pass"}  # enough power for now
    # Plants that add capacity and that it would pay at least their number for: with a
    # positive gain `_bid_limit` is min(money - reserve, number + 3 * gain), so the test
    # `number <= _bid_limit` is `number <= money - reserve`.
    weakest = 0
    if len(plants) >= limits(state)["max_plants"]:
        weakest = min(map(_OUTPUT.__getitem__, plants))
    room = money - 10 - 5 * len(p["cities"]) // 2  # round >= 2: see `_bid_limit`
    best, best_gain = 0, 0
    for n in current:
        gain = _OUTPUT[n] - weakest
        if n <= room and (gain > best_gain or (gain == best_gain and n < best)):
            best, best_gain = n, gain  # most gain, then the lowest number
    if best_gain > 0:
        return {"type": "open", "plant": best, "bid": best}
    return {"type": "pass"}


# Per plant list: (tokens one run needs by resource, hybrids' need, storage capacities).
_NEEDS: dict[tuple[int, ...], tuple[dict[str, int], int, dict[str, int]]] = {}


def _needs(plants: list[int]) -> tuple[dict[str, int], int, dict[str, int]]:
    key = tuple(plants)
    hit = _NEEDS.get(key)
    if hit is None:
        need, hybrid = mk.run_needs(plants)
        if len(_NEEDS) >= 4096:
            _NEEDS.clear()
        hit = _NEEDS[key] = (need, hybrid, mk.capacities(plants))
    return hit


def _buy(state: State, p: dict) -> Action:
    """Buy fuel for one run of every plant, cheapest need first, if affordable."""
    base, hybrid, cap = _needs(p["plants"])
    rm = state["rm"]
    res = p["res"]
    need = base
    # Hybrids take whichever of coal and oil is cheaper now.
    if hybrid:
        coal_p = mk.resource_prices(rm["coal"], "coal", 1)
        oil_p = mk.resource_prices(rm["oil"], "oil", 1)
        cheaper = "coal" if (coal_p or [99])[0] <= (oil_p or [99])[0] else "oil"
        need = dict(base)
        need[cheaper] += hybrid
    money = p["money"]
    for r in RESOURCES:
        missing = need[r] - res[r]
        if missing <= 0 or rm[r] <= 0:
            continue
        count = min(missing, rm[r], mk.room_for(cap, res, r))
        if count <= 0:
            continue
        # The most of the `count` cheapest tokens that money covers (prices only rise).
        count = bisect_right(list(accumulate(mk.resource_prices(rm[r], r, count))), money)
        if count > 0:
            return {"type": "buy", "resource": r, "count": count}
    return {"type": "done"}


def _build(state: State, player: str, p: dict) -> Action:
    """Build the cheapest city while the network is smaller than what the plants power."""
    end = limits(state)["end"]
    target = max(_capacity(p["plants"]) + 1, 3)
    if len(p["cities"]) >= target and not _can_finish(state, player, p, end):
        return {"type": "done"}
    best = cheapest_city(state, player)
    if best is not None and best[1] <= p["money"]:
        return {"type": "build", "city": best[0]}
    return {"type": "done"}


def _can_finish(state: State, player: str, p: dict, end: int) -> bool:
    """Late game: keep building towards the end threshold when it is close, and only while
    the bot would win the ending it brings on (PG-53: the most cities powered wins): a bot
    that can power fewer cities than a rival ended games it then lost (found play-testing
    through Telegram, 2026-12-05: 21 cities built, last with 0 powered)."""
    if len(p["cities"]) < end - 3:
        return False
    mine = min(_capacity(p["plants"]), len(p["cities"]) + 1)
    rivals = [
        min(_capacity(q["plants"]), len(q["cities"]))
        for name, q in state["players"].items()
        if name != player
    ]
    return mine > max(rivals, default=0)


BOTS: dict[str, BotFn] = {
    "random": random_bot,
    "heuristic": heuristic_bot,
    "strong": lazy_bot("engine.powergrid.strong"),
}
