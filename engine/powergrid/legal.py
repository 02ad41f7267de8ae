"""Legal moves, lean (issue 24): compact descriptors, expanded only when needed.

`legal_descriptors(state, player)` lists move *families*, each a dict with a "type":
- a plain action (`{"type": "done"}`, `{"type": "pass"}`): itself;
- `{"type": "choose_region", "regions": [...]}`, `{"type": "open", "plants": [...]}` (opening
  bid = the plant's number), `{"type": "raise", "bids": [...]}` (sampled: minimum raise, +5,
  +10, all-in), `{"type": "discard", "plants": [...]}`: one action per listed value;
- `{"type": "buy", "resource": r, "most": k}`: a buy range, every count 1..k (affordable and
  storable, PG-31..33);
- `{"type": "build", "money": m}`: every reachable city whose full price is at most m
  (PG-36..38); listed only when at least one is affordable;
- `{"type": "power", "plants": [...]}`: a choice set, every subset of the plants that the
  tokens held can fuel (PG-42).
`expand(state, player, descriptor)` lists a family's actions, `sample(...)` draws one
uniformly without listing them, and `legal_actions(state, player)` is every family expanded
in order (the same list as before descriptors). `apply` validates every action itself.
Each list always holds a way to make progress (pass, done, a power action, or a purchase in
round 1).
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate
from typing import Any

from engine.core import Rng
from engine.powergrid import market as mk
from engine.powergrid.data import CAPACITY, HOUSES, PLANTS, RESOURCES, SLOT_PRICES, STEP3, game_map
from engine.powergrid.rules import Action, State, build_options, cheapest_city, net, turn_of

Descriptor = dict[str, Any]
_LISTS = {"choose_region": "regions", "open": "plants", "raise": "bids", "discard": "plants"}
_FIELD = {"choose_region": "region", "open": "plant", "raise": "bid", "discard": "plant"}


# Per resource (in RESOURCES order), per tokens in the market: running totals of buying 1,
# 2, ... of them, cheapest first (PG-32).
_TOTALS_BY_STOCK: tuple[list[list[int]], ...] = tuple(
    [list(accumulate(mk.resource_prices(stock, r, stock))) for stock in range(CAPACITY[r] + 1)]
    for r in RESOURCES
)
# Per plant tuple: storage capacities (PG-33) as (coal, oil, hybrid, garbage, uranium).
_CAPS: dict[tuple[int, ...], tuple[int, int, int, int, int]] = {}


def _caps(plants: tuple[int, ...]) -> tuple[int, int, int, int, int]:
    """`market.capacities` of a plant tuple, memoised (bounded)."""
    hit = _CAPS.get(plants)
    if hit is None:
        if len(_CAPS) >= 4096:
            _CAPS.clear()
        cap = mk.capacities(list(plants))
        hit = _CAPS[plants] = (
            cap["coal"],
            cap["oil"],
            cap["hybrid"],
            cap["garbage"],
            cap["uranium"],
        )
    return hit


def legal_descriptors(state: State, player: str) -> list[Descriptor]:
    want = turn_of(state, player)  # expected(state) if the player is to act, else None
    if want is None:
        return []
    p = state["players"][player]
    money = p["money"]
    out: list[Descriptor] = []
    if want == "choose_region":
        gm = game_map(state["map"])
        chosen = state["regions"]
        regions = [
            r
            for r in gm.regions
            if r not in chosen and (not chosen or any(gm.regions_adjacent(r, c) for c in chosen))
        ]
        if regions:
            out.append({"type": "choose_region", "regions": regions})
    elif want == "choose_plant":
        if state["round"] != 1:
            out.append({"type": "pass"})
        plants = _affordable_plants(state, money)
        if plants:
            out.append({"type": "open", "plants": plants})
    elif want == "bid":
        high = state["auction"]["bid"]
        out.append({"type": "pass"})
        bids = _bids(high, money)
        if bids:
            out.append({"type": "raise", "bids": bids})
    elif want == "discard":
        new = state["pending_discard"]["plant"]
        plants = [n for n in p["plants"] if n != new]
        if plants:
            out.append({"type": "discard", "plants": plants})
    elif want == "buy":
        out.append({"type": "done"})
        for r, most in _buy_ranges(tuple(p["plants"]), p["res"], state["rm"], money):
            out.append({"type": "buy", "resource": r, "most": most})
    elif want == "build":
        out.append({"type": "done"})
        best = cheapest_city(state, player)
        if best is not None and best[1] <= money:
            out.append({"type": "build", "money": money})
    elif want == "power":
        out.append({"type": "power", "plants": list(p["plants"])})
    return out


def _buys(
    plants: tuple[int, ...], held: tuple[int, ...], in_market: tuple[int, ...], money: int
) -> tuple[tuple[str, int], ...]:
    """`_buy_ranges` with the tokens held and the market's stock as tuples in RESOURCES order."""
    res = dict(zip(RESOURCES, held, strict=True))
    rm = dict(zip(RESOURCES, in_market, strict=True))
    return tuple(_buy_ranges(plants, res, rm, money))


_COAL_TOTALS, _OIL_TOTALS, _GARBAGE_TOTALS, _URANIUM_TOTALS = _TOTALS_BY_STOCK


def _buy_ranges(
    plants: tuple[int, ...], res: dict[str, int], rm: dict[str, int], money: int
) -> list[tuple[str, int]]:
    """The buy ranges (resource, most tokens) open to a player, in RESOURCES order: per
    resource the storage room of `market.room_for` from the plants' capacities (PG-33),
    capped by the market's stock (PG-32), then by the tokens whose running total the money
    covers (prices only rise, so a bisection finds it).

    Asked on nearly every decision of Phase 3 with a key that changes with every purchase
    (so not memoised), and written out resource by resource: the loop over the four with
    its tuples cost three times as much."""
    c_cap, o_cap, h_cap, g_cap, u_cap = _caps(plants)
    coal = res["coal"]
    oil = res["oil"]
    free = c_cap + o_cap + h_cap - coal - oil  # coal and oil share the hybrids' room
    out: list[tuple[str, int]] = []
    most = c_cap + h_cap - coal
    stock = rm["coal"]
    if free < most:
        most = free
    if stock < most:
        most = stock
    if most > 0:
        afford = bisect_right(_COAL_TOTALS[stock], money)
        if afford < most:
            most = afford
        if most > 0:
            out.append(("coal", most))
    most = o_cap + h_cap - oil
    stock = rm["oil"]
    if free < most:
        most = free
    if stock < most:
        most = stock
    if most > 0:
        afford = bisect_right(_OIL_TOTALS[stock], money)
        if afford < most:
            most = afford
        if most > 0:
            out.append(("oil", most))
    most = g_cap - res["garbage"]
    stock = rm["garbage"]
    if stock < most:
        most = stock
    if most > 0:
        afford = bisect_right(_GARBAGE_TOTALS[stock], money)
        if afford < most:
            most = afford
        if most > 0:
            out.append(("garbage", most))
    most = u_cap - res["uranium"]
    stock = rm["uranium"]
    if stock < most:
        most = stock
    if most > 0:
        afford = bisect_right(_URANIUM_TOTALS[stock], money)
        if afford < most:
            most = afford
        if most > 0:
            out.append(("uranium", most))
    return out


def expand(state: State, player: str, d: Descriptor) -> list[Action]:
    """Every action of one family, in the order `legal_actions` lists them."""
    kind = d["type"]
    if kind in _LISTS:
        key = _FIELD[kind]
        if kind == "open":
            return [{"type": "open", "plant": n, "bid": n} for n in d["plants"]]
        return [{"type": kind, key: v} for v in d[_LISTS[kind]]]
    if kind == "buy":
        r = d["resource"]
        return [{"type": "buy", "resource": r, "count": c} for c in range(1, d["most"] + 1)]
    if kind == "build":
        out: list[Action] = []
        for city, cost in build_options(state, player):
            if cost > d["money"]:
                break
            out.append({"type": "build", "city": city})
        return out
    if kind == "power":
        res = state["players"][player]["res"]
        held = (res["coal"], res["oil"], res["garbage"], res["uranium"])
        return [
            {"type": "power", "plants": list(chosen)}
            for chosen in _runnable(tuple(d["plants"]), held)
        ]
    return [dict(d)]


@lru_cache(maxsize=4096)
def _runnable(plants: tuple[int, ...], held: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The subsets of `plants` (in mask order) that the tokens `held` (coal, oil, garbage,
    uranium) can fuel: a pure function of a small key, asked for every player at every power
    declaration (legal moves, forced moves), so worked out once per holding."""
    res = dict(zip(RESOURCES, held, strict=True))
    found: list[tuple[int, ...]] = []
    for mask in range(1 << len(plants)):
        chosen = [plants[i] for i in range(len(plants)) if mask >> i & 1]
        if mk.fuel_plan(chosen, res) is not None:
            found.append(tuple(chosen))
    return tuple(found)


def sample(state: State, player: str, d: Descriptor, rng: Rng) -> Action:
    """One action of the family, uniformly, listing only what it must."""
    kind = d["type"]
    if kind == "buy":
        return {"type": "buy", "resource": d["resource"], "count": 1 + rng.below(d["most"])}
    if kind == "power":
        # Rejection sampling over subsets: running nothing is always possible, so it ends.
        plants = d["plants"]
        res = state["players"][player]["res"]
        while True:
            mask = rng.below(1 << len(plants))
            chosen = [plants[i] for i in range(len(plants)) if mask >> i & 1]
            if mk.fuel_plan(chosen, res) is not None:
                return {"type": "power", "plants": chosen}
    if kind in _LISTS:
        values = d[_LISTS[kind]]
        v = values[rng.below(len(values))]
        if kind == "open":
            return {"type": "open", "plant": v, "bid": v}
        return {"type": kind, _FIELD[kind]: v}
    if kind == "build":
        return {"type": "build", "city": rng.choice(_affordable(state, player, d["money"]))}
    return dict(d)


def _affordable(state: State, player: str, money: int) -> list[str]:
    """The cities of `build_options` whose price is at most `money`, in no particular order:
    walks the cities by connection cost and stops where even an empty city costs too much."""
    return _affordable_in(state, player, money, _walk(state, state["players"][player]))


def _affordable_in(
    state: State, player: str, money: int, walk: list[tuple[int, int, str]]
) -> list[str]:
    taken = state["cities"]
    slots = state["step"]
    first = SLOT_PRICES[0]
    out: list[str] = []
    for conn, _, name in walk:
        if conn + first > money:
            break
        owners = taken.get(name)
        if owners and (
            len(owners) >= slots or player in owners or conn + SLOT_PRICES[len(owners)] > money
        ):
            continue
        out.append(name)
    return out


def random_legal(state: State, player: str, rng: Rng) -> Action:
    """Random legal play: a family uniformly, then one of its actions uniformly.

    Exactly `sample(state, player, ds[rng.below(len(ds))], rng)` over `ds =
    legal_descriptors(state, player)`: the same draws from `rng`, the same action (the test
    of the descriptors plays both side by side). The phase steps a game spends most moves
    in count the families and draw without building them (issue 24's random-legal
    benchmark: listing them cost as much as `apply`); the rare ones use the families.
    """
    phase = state["phase"]
    if phase == "resources" or phase == "build":
        # `turn_of`'s test for these two steps, inline (most moves are made in them)
        if state["order"][-1 - state["turn"]] == player:
            if phase == "resources":
                return _random_buy(state, player, rng)
            return _random_build(state, player, rng)
        want = None
    else:
        want = turn_of(state, player)
    if want == "power":
        rng.below(1)  # the one family
        return _random_power(state["players"][player], rng)
    if want == "choose_plant":
        return _random_open(state, player, rng)
    if want == "bid":
        return _random_raise(state, player, rng)
    ds = legal_descriptors(state, player)
    return sample(state, player, ds[rng.below(len(ds))], rng)


def _random_buy(state: State, player: str, rng: Rng) -> Action:
    """Families: done, then one buy range per resource (`_buys`)."""
    p = state["players"][player]
    buys = _buy_ranges(tuple(p["plants"]), p["res"], state["rm"], p["money"])
    i = rng.below(1 + len(buys))
    if i == 0:
        return {"type": "done"}
    resource, most = buys[i - 1]
    return {"type": "buy", "resource": resource, "count": 1 + rng.below(most)}


def _random_build(state: State, player: str, rng: Rng) -> Action:
    """Families: done, then build when some city is affordable (the cheapest city costs at
    most the player's money exactly when `_affordable` lists one). The walk by cost is
    looked up once for both questions."""
    p = state["players"][player]
    money = p["money"]
    walk = _walk(state, p)
    if rng.below(2 if _any_affordable(state, player, money, walk) else 1) == 0:
        return {"type": "done"}
    return {"type": "build", "city": rng.choice(_affordable_in(state, player, money, walk))}


_NO_WALK: list[tuple[int, int, str]] = []


def _walk(state: State, p: dict[str, Any]) -> list[tuple[int, int, str]]:
    """The cities the player could reach, cheapest connection first (`Network.walk`);
    none once every house is built (PG-38)."""
    if len(p["cities"]) >= HOUSES:
        return _NO_WALK
    return net(state).walk(tuple(p["cities"]))


def _random_power(p: dict[str, Any], rng: Rng) -> Action:
    """`sample`'s rejection sampling over subsets of the plants, each subset's fuel checked
    from a table of its needs instead of `fuel_plan` (the same test: hybrids take the coal
    left after the coal plants, the rest oil)."""
    res = p["res"]
    coal, oil, garbage, uranium = res["coal"], res["oil"], res["garbage"], res["uranium"]
    rows = _subset_needs(tuple(p["plants"]))
    n = len(rows)
    while True:
        chosen, nc, no, ng, nu, hybrid = rows[rng.below(n)]
        if nc > coal or ng > garbage or nu > uranium:
            continue
        if no + hybrid - min(hybrid, coal - nc) <= oil:
            return {"type": "power", "plants": list(chosen)}


def _random_open(state: State, player: str, rng: Rng) -> Action:
    """Families: pass (after round 1), then open when some current plant is affordable."""
    money = state["players"][player]["money"]
    plants = _affordable_plants(state, money)
    can_pass = state["round"] != 1
    i = rng.below(can_pass + (1 if plants else 0))
    if can_pass and i == 0:
        return {"type": "pass"}
    v = plants[rng.below(len(plants))]
    return {"type": "open", "plant": v, "bid": v}


def _affordable_plants(state: State, money: int) -> list[int]:
    """`[n for n in market.current_market(state) if n <= money]` in one pass: the plants
    other than the Step 3 card, the first four of them unless the market is of six (PG-13,
    PG-48, PG-50), those that `money` covers."""
    six = state["step"] == 3 or state["step3_pending"]
    out: list[int] = []
    seen = 0
    for number in state["market"]:
        if number == STEP3:
            continue
        if seen == 4 and not six:
            break
        seen += 1
        if number <= money:
            out.append(number)
    return out


def _random_raise(state: State, player: str, rng: Rng) -> Action:
    """Families: pass, then raise to one of the sampled bids."""
    money = state["players"][player]["money"]
    high = state["auction"]["bid"]
    bids = _bids(high, money)
    if rng.below(2 if bids else 1) == 0:
        return {"type": "pass"}
    return {"type": "raise", "bid": bids[rng.below(len(bids))]}


def _bids(high: int, money: int) -> list[int]:
    """The sampled raises over `high` (minimum raise, +5, +10, all-in) that `money` covers,
    ascending and distinct: `legal_descriptors`' list, built without a set and a sort (the
    first three ascend, and the all-in is the largest when it is not one of them)."""
    bids = []
    for bid in (high + 1, high + 5, high + 10):
        if bid <= money:
            bids.append(bid)
    if money > high and (not bids or bids[-1] != money):
        bids.append(money)
    return bids


def _any_affordable(
    state: State, player: str, money: int, walk: list[tuple[int, int, str]]
) -> bool:
    """Whether `_affordable` would list a city: its walk, stopped at the first one."""
    taken = state["cities"]
    slots = state["step"]
    first = SLOT_PRICES[0]
    for conn, _, name in walk:
        if conn + first > money:
            return False
        owners = taken.get(name)
        if not owners:
            return True
        if (
            len(owners) < slots
            and player not in owners
            and conn + SLOT_PRICES[len(owners)] <= money
        ):
            return True
    return False


# Per plant tuple, one row per subset in mask order: (plants, coal, oil, garbage, uranium,
# hybrid tokens one run burns), as `market.run_needs` counts them.
_SUBSET_NEEDS: dict[tuple[int, ...], list[tuple[tuple[int, ...], int, int, int, int, int]]] = {}


def _subset_needs(plants: tuple[int, ...]) -> list[tuple[tuple[int, ...], int, int, int, int, int]]:
    rows = _SUBSET_NEEDS.get(plants)
    if rows is None:
        # Mask order by doubling: the rows with plant k are the rows before it plus plant k.
        rows = [((), 0, 0, 0, 0, 0)]
        for number in plants:
            plant = PLANTS[number]
            slot = _NEED_SLOT.get(plant.type, 0)  # eco and fusion burn nothing
            add = [0] * 6
            add[slot] = plant.cost
            rows += [
                ((*chosen, number), c + add[1], o + add[2], g + add[3], u + add[4], h + add[5])
                for chosen, c, o, g, u, h in rows
            ]
        if len(_SUBSET_NEEDS) >= 4096:
            _SUBSET_NEEDS.clear()
        _SUBSET_NEEDS[plants] = rows
    return rows


# Where a plant's fuel goes in a `_subset_needs` row (slot 0: burns none).
_NEED_SLOT = {"coal": 1, "oil": 2, "garbage": 3, "uranium": 4, "hybrid": 5}


def legal_actions(state: State, player: str) -> list[Action]:
    """Every legal move (bids sampled), each family expanded in order."""
    out: list[Action] = []
    for d in legal_descriptors(state, player):
        out.extend(expand(state, player, d))
    return out
