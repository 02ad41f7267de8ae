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
from engine.powergrid.data import HOUSES, RESOURCES, SLOT_PRICES, game_map
from engine.powergrid.rules import Action, State, build_options, cheapest_city, net, turn_of

Descriptor = dict[str, Any]
_LISTS = {"choose_region": "regions", "open": "plants", "raise": "bids", "discard": "plants"}
_FIELD = {"choose_region": "region", "open": "plant", "raise": "bid", "discard": "plant"}


# Per (resource, tokens in the market): running totals of buying 1, 2, ... of them (PG-32).
_TOTALS: dict[tuple[str, int], list[int]] = {}
# Per plant list: storage capacities (PG-33).
_CAPS: dict[tuple[int, ...], dict[str, int]] = {}


def _running_totals(resource: str, in_market: int) -> list[int]:
    key = (resource, in_market)
    hit = _TOTALS.get(key)
    if hit is None:
        hit = _TOTALS[key] = list(accumulate(mk.resource_prices(in_market, resource, in_market)))
    return hit


def _capacities(plants: list[int]) -> dict[str, int]:
    key = tuple(plants)
    hit = _CAPS.get(key)
    if hit is None:
        if len(_CAPS) >= 4096:
            _CAPS.clear()
        hit = _CAPS[key] = mk.capacities(plants)
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
        plants = [n for n in mk.current_market(state) if n <= money]
        if plants:
            out.append({"type": "open", "plants": plants})
    elif want == "bid":
        high = state["auction"]["bid"]
        out.append({"type": "pass"})
        bids = [b for b in sorted({high + 1, high + 5, high + 10, money}) if high < b <= money]
        if bids:
            out.append({"type": "raise", "bids": bids})
    elif want == "discard":
        new = state["pending_discard"]["plant"]
        plants = [n for n in p["plants"] if n != new]
        if plants:
            out.append({"type": "discard", "plants": plants})
    elif want == "buy":
        out.append({"type": "done"})
        rm = state["rm"]
        res = p["res"]
        for r, most in _buys(
            tuple(p["plants"]),
            (res["coal"], res["oil"], res["garbage"], res["uranium"]),
            (rm["coal"], rm["oil"], rm["garbage"], rm["uranium"]),
            money,
        ):
            out.append({"type": "buy", "resource": r, "most": most})
    elif want == "build":
        out.append({"type": "done"})
        best = cheapest_city(state, player)
        if best is not None and best[1] <= money:
            out.append({"type": "build", "money": money})
    elif want == "power":
        out.append({"type": "power", "plants": list(p["plants"])})
    return out


@lru_cache(maxsize=4096)
def _buys(
    plants: tuple[int, ...], held: tuple[int, ...], in_market: tuple[int, ...], money: int
) -> tuple[tuple[str, int], ...]:
    """The buy ranges (resource, most tokens) open to a player: a pure function of small
    values that the forced-move check, the legal moves and the bots all ask of one state."""
    cap = _capacities(list(plants))
    res = dict(zip(RESOURCES, held, strict=True))
    out: list[tuple[str, int]] = []
    for r, stock in zip(RESOURCES, in_market, strict=True):
        most = min(mk.room_for(cap, res, r), stock)
        if most > 0:
            # Prices only rise: the most tokens whose running total money covers.
            most = min(most, bisect_right(_running_totals(r, stock), money))
            if most > 0:
                out.append((r, most))
    return tuple(out)


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
    p = state["players"][player]
    if len(p["cities"]) >= HOUSES:
        return []
    taken = state["cities"]
    slots = state["step"]
    first = SLOT_PRICES[0]
    out: list[str] = []
    for conn, _, name in net(state).reach(tuple(p["cities"]))[1]:
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
    """Random legal play: a family uniformly, then one of its actions uniformly."""
    ds = legal_descriptors(state, player)
    return sample(state, player, ds[rng.below(len(ds))], rng)


def legal_actions(state: State, player: str) -> list[Action]:
    """Every legal move (bids sampled), each family expanded in order."""
    out: list[Action] = []
    for d in legal_descriptors(state, player):
        out.extend(expand(state, player, d))
    return out
