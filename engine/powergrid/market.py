"""Markets and plant storage: the resource market (PG-3, PG-32, PG-43), storage capacity
(PG-33, PG-34, PG-27) and the pure parts of the plant market (PG-13, PG-48, PG-50).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any

from engine.powergrid.data import CAPACITY, PLANTS, RESOURCES, SLOT_PRICE_LISTS, STEP3
from engine.powergrid.state_types import PGState

State = dict[str, Any]

# ---------------------------------------------------------------- resource market (PG-3)


def resource_prices(in_market: int, resource: str, n: int) -> list[int]:
    """PG-32: prices of the next `n` tokens bought from a market holding `in_market`.

    The market's tokens always fill its most expensive slots, so the cheapest token sits
    at slot `capacity - in_market` of the price list.
    """
    start = CAPACITY[resource] - in_market
    return SLOT_PRICE_LISTS[resource][start : start + min(n, in_market)]


def resource_cost(in_market: int, resource: str, n: int) -> int:
    """The sum of `resource_prices` (its slice inline: every purchase asks it)."""
    start = CAPACITY[resource] - in_market
    return sum(SLOT_PRICE_LISTS[resource][start : start + (n if n < in_market else in_market)])


def market_spaces(in_market: int, resource: str) -> list[dict[str, int]]:
    """The view's per-space breakdown: price, tokens on it, slots it has (fresh dicts; the
    breakdown of each market level is worked out once, every view asks it four times, and
    copying a built dict is cheaper than building it again)."""
    return [space.copy() for space in _spaces(in_market, resource)]


@cache
def _spaces(in_market: int, resource: str) -> tuple[dict[str, int], ...]:
    """Never handed out: `market_spaces` copies them."""
    prices = SLOT_PRICE_LISTS[resource]
    first_filled = CAPACITY[resource] - in_market
    spaces: list[list[int]] = []
    for i, price in enumerate(prices):
        if not spaces or spaces[-1][0] != price:
            spaces.append([price, 0, 0])
        spaces[-1][2] += 1
        if i >= first_filled:
            spaces[-1][1] += 1
    return tuple({"price": price, "count": count, "slots": slots} for price, count, slots in spaces)


# ---------------------------------------------------------------- storage (PG-33)


def capacities(plants: list[int]) -> dict[str, int]:
    """Total storage by plant kind: coal, oil, hybrid, garbage, uranium (2 x R each)."""
    cap = {"coal": 0, "oil": 0, "hybrid": 0, "garbage": 0, "uranium": 0}
    for number in plants:
        plant = PLANTS[number]
        if plant.type in cap:
            cap[plant.type] += 2 * plant.cost
    return cap


def holdings_fit(cap: dict[str, int], res: dict[str, int]) -> bool:
    """PG-33 whole-player check: c <= C+H, o <= O+H, c+o <= C+O+H, g <= G, u <= U."""
    c, o, h = cap["coal"], cap["oil"], cap["hybrid"]
    return (
        res["coal"] <= c + h
        and res["oil"] <= o + h
        and res["coal"] + res["oil"] <= c + o + h
        and res["garbage"] <= cap["garbage"]
        and res["uranium"] <= cap["uranium"]
    )


def room_for(cap: dict[str, int], res: dict[str, int], resource: str) -> int:
    """How many more tokens of `resource` the player could store (PG-33)."""
    if resource in ("coal", "oil"):
        total = cap["coal"] + cap["oil"] + cap["hybrid"]
        own = cap[resource] + cap["hybrid"]
        return max(0, min(own - res[resource], total - res["coal"] - res["oil"]))
    return max(0, cap[resource] - res[resource]) if resource in RESOURCES else 0


def kept_after_discard(cap: dict[str, int], res: dict[str, int]) -> dict[str, int]:
    """PG-27: after a discard, keep as many tokens as the remaining plants store.

    Coal fills coal plants then hybrids; oil fills oil plants then what hybrid room is
    left (CONTRACT.md: "coal before oil kept on hybrids").
    """
    coal = min(res["coal"], cap["coal"] + cap["hybrid"])
    hybrid_left = cap["hybrid"] - max(0, coal - cap["coal"])
    oil = min(res["oil"], cap["oil"] + hybrid_left)
    return {
        "coal": coal,
        "oil": oil,
        "garbage": min(res["garbage"], cap["garbage"]),
        "uranium": min(res["uranium"], cap["uranium"]),
    }


def keep_options(cap: dict[str, int], res: dict[str, int]) -> list[dict[str, int]]:
    """PG-27: the ways to keep as many tokens as the remaining plants store.

    Only coal and oil compete (for hybrid room), so the options differ in their coal/oil
    split; the first is the default (`kept_after_discard`, coal first). One option: no choice.
    """
    first = kept_after_discard(cap, res)
    best = first["coal"] + first["oil"]
    out = [first]
    for coal in range(first["coal"] - 1, -1, -1):
        oil = min(res["oil"], cap["oil"] + cap["hybrid"] - max(0, coal - cap["coal"]))
        if coal + oil < best:
            break
        out.append({**first, "coal": coal, "oil": oil})
    return out


def kept_as_chosen(
    cap: dict[str, int], res: dict[str, int], chosen: dict[str, int]
) -> dict[str, int] | None:
    """PG-27: the tokens kept when the player names some counts (`chosen`); each resource he
    does not name keeps as many as still fit (coal, oil, garbage, uranium in turn). None when
    a named count exceeds what he holds or the named counts do not fit together (PG-33)."""
    kept = {r: 0 for r in res}
    for r, n in chosen.items():
        if r not in res or not 0 <= n <= res[r]:
            return None
        kept[r] = n
    if not holdings_fit(cap, kept):
        return None
    for r in res:
        if r in chosen:
            continue
        while kept[r] < res[r] and holdings_fit(cap, {**kept, r: kept[r] + 1}):
            kept[r] += 1
    return kept


def display_assignment(plants: list[int], res: dict[str, int]) -> dict[int, dict[str, int]]:
    """PG-34: one way to place the pooled tokens on plants, for pictures and texts.

    Single-fuel plants fill first (ascending), hybrids take the remaining coal, then oil.
    Depends only on the arguments, so it is worked out once per holding (bounded memo; every
    view asks it for each player); callers get fresh dicts.
    """
    return {
        number: {"coal": c, "oil": o, "garbage": g, "uranium": u}
        for number, (c, o, g, u) in placed(plants, res)
    }


def placed(plants: list[int], res: dict[str, int]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """`display_assignment` as immutable pairs (plant, its coal, oil, garbage and uranium), in
    the order of `plants`: for callers that build their own dicts from it (the view)."""
    held = (res["coal"], res["oil"], res["garbage"], res["uranium"])  # RESOURCES' order
    return _placed(tuple(plants), held)


@lru_cache(maxsize=4096)
def _placed(
    plants: tuple[int, ...], held: tuple[int, ...]
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    left = dict(zip(RESOURCES, held, strict=True))
    out: dict[int, dict[str, int]] = {}
    for number in plants:
        out[number] = {r: 0 for r in RESOURCES}
        plant = PLANTS[number]
        if plant.type in RESOURCES:
            take = min(2 * plant.cost, left[plant.type])
            out[number][plant.type] = take
            left[plant.type] -= take
    for number in plants:
        plant = PLANTS[number]
        if plant.type == "hybrid":
            room = 2 * plant.cost
            for r in ("coal", "oil"):
                take = min(room, left[r])
                out[number][r] += take
                left[r] -= take
                room -= take
    return tuple((n, tuple(out[n][r] for r in RESOURCES)) for n in out)


# ---------------------------------------------------------------- running plants (PG-42)


def fuel_plan(
    plants: list[int], res: dict[str, int], hybrid_coal: int | None = None
) -> dict[str, int] | None:
    """Tokens burned to run `plants`, or None if the stored fuel does not suffice.

    Hybrids burn `hybrid_coal` coal and the rest oil; by default as much coal as is left
    after the coal plants (CONTRACT.md: "engine picks coal first").
    """
    key = tuple(plants)
    row = _RUN_NEEDS.get(key)
    if row is None:
        need, hybrid = run_needs(key)
        if len(_RUN_NEEDS) >= RUN_NEEDS_MEMO:
            _RUN_NEEDS.clear()
        row = _RUN_NEEDS[key] = (
            need["coal"],
            need["oil"],
            need["garbage"],
            need["uranium"],
            hybrid,
        )
    coal, oil, garbage, uranium, hybrid = row
    if hybrid_coal is None:
        hybrid_coal = min(hybrid, max(0, res["coal"] - coal))
    if not 0 <= hybrid_coal <= hybrid:
        return None
    coal += hybrid_coal
    oil += hybrid - hybrid_coal
    if (
        coal > res["coal"]
        or oil > res["oil"]
        or garbage > res["garbage"]
        or uranium > res["uranium"]
    ):
        return None
    return {"coal": coal, "oil": oil, "garbage": garbage, "uranium": uranium}


# Per plant tuple: `run_needs` as (coal, oil, garbage, uranium, hybrid), asked by every power
# declaration (bounded; a few players' plant sets a game).
RUN_NEEDS_MEMO = 4096
_RUN_NEEDS: dict[tuple[int, ...], tuple[int, int, int, int, int]] = {}


def run_needs(plants: Iterable[int]) -> tuple[dict[str, int], int]:
    """PG-42: the tokens one run of every plant burns, by resource (a fresh dict), and the
    hybrids' need, coal and oil in any mix (eco and fusion burn none)."""
    need = {"coal": 0, "oil": 0, "garbage": 0, "uranium": 0}
    hybrid = 0
    for number in plants:
        plant = PLANTS[number]
        if plant.type == "hybrid":
            hybrid += plant.cost
        elif plant.type in need:
            need[plant.type] += plant.cost
    return need, hybrid


def best_run(plants: list[int], res: dict[str, int], cities: int) -> tuple[list[int], int]:
    """The plants to run that power the most cities (fewest tokens on ties): PG-42, PG-52.

    At most 4 plants, so 16 subsets: exhaustive search is exact and cheap. The answer
    depends only on the arguments, so it is memoised (bounded); callers get a fresh list.
    """
    key = (
        tuple(plants),
        res["coal"],
        res["oil"],
        res["garbage"],
        res["uranium"],
        cities,
    )
    hit = _BEST_RUN.get(key)
    if hit is None:
        hit = _best_run(plants, res, cities)
        if len(_BEST_RUN) >= BEST_RUN_MEMO:
            _BEST_RUN.clear()
        _BEST_RUN[key] = hit
    return list(hit[0]), hit[1]


# Entries kept by the memos below before they are cleared (each well under 10 MB).
BEST_RUN_MEMO = 8192
SUBSETS_MEMO = 2048
_BEST_RUN: dict[tuple[Any, ...], tuple[tuple[int, ...], int]] = {}


# One row per subset of a plant list: cities it powers, tokens it burns, its mask, its
# plants, its coal / oil / garbage / uranium needs and its hybrids' need. Rows are sorted
# the way `best_run` prefers them when the network is large enough: by output (most
# first), then tokens burned, then mask (the order the exhaustive search meets them).
_Subset = tuple[int, int, int, tuple[int, ...], int, int, int, int, int]
_SUBSETS: dict[tuple[int, ...], list[_Subset]] = {}


def _subsets(plants: tuple[int, ...]) -> list[_Subset]:
    rows = _SUBSETS.get(plants)
    if rows is None:
        # Subsets in mask order, built by doubling: the rows with plant k are the rows
        # before it plus plant k (mask bit k).
        acc: list[tuple[int, int, int, tuple[int, ...], list[int]]] = [(0, 0, 0, (), [0] * 5)]
        for k, number in enumerate(plants):
            plant = PLANTS[number]
            slot = _NEED_SLOT.get(plant.type)
            cost = plant.cost if slot is not None else 0
            for output, burned, mask, chosen, need in acc[:]:
                more = list(need)
                if slot is not None:
                    more[slot] += cost
                acc.append(
                    (output + plant.output, burned + cost, mask | 1 << k, (*chosen, number), more)
                )
        rows = [
            (output, burned, mask, chosen, need[0], need[1], need[2], need[3], need[4])
            for output, burned, mask, chosen, need in acc
        ]
        rows.sort(key=lambda row: (-row[0], row[1], row[2]))
        if len(_SUBSETS) >= SUBSETS_MEMO:
            _SUBSETS.clear()
        _SUBSETS[plants] = rows
    return rows


# Fuel kinds a plant may need, in the order of a `_Subset` row (eco and fusion burn none).
_NEED_SLOT = {"coal": 0, "oil": 1, "garbage": 2, "uranium": 3, "hybrid": 4}


def _best_run(plants: list[int], res: dict[str, int], cities: int) -> tuple[tuple[int, ...], int]:
    """`best_run` without the memo. The exhaustive search keeps the first subset (in mask
    order) with the most cities powered, then the fewest tokens burned; each subset's fuel
    is checked as `fuel_plan` does (hybrids take the coal left after the coal plants).

    Walking the rows by output, powered = min(cities, output) never rises, so the scan
    stops at the first row that powers fewer cities than the best found.
    """
    if cities <= 0:
        return (), 0  # nothing to power: the empty run burns least
    coal, oil, garbage, uranium = res["coal"], res["oil"], res["garbage"], res["uranium"]
    best: _Subset | None = None
    best_powered = -1
    for row in _subsets(tuple(plants)):
        output, burned, mask, _chosen, nc, no, ng, nu, hybrid = row
        powered = cities if output > cities else output
        if powered < best_powered:
            break
        if ng > garbage or nu > uranium or nc > coal:
            continue
        if hybrid:
            if no + hybrid - min(hybrid, coal - nc) > oil:
                continue
        elif no > oil:
            continue
        if best is None or (powered, -burned, -mask) > (best_powered, -best[1], -best[2]):
            best, best_powered = row, powered
    assert best is not None  # the empty run is always possible
    return best[3], best_powered


# ---------------------------------------------------------------- plant market (PG-13)


def six_plant_market(state: PGState) -> bool:
    """PG-48 and PG-D-23: 6 plants, all current, in Step 3 or once the card is resolved."""
    return bool(state["step"] == 3 or state["step3_pending"])


def current_market(state: PGState) -> list[int]:
    """PG-13/PG-50: the plants that may be chosen. The Step 3 card is never current."""
    plants = [p for p in state["market"] if p != STEP3]
    # six_plant_market(state), inline (every choice of a plant asks it)
    return plants if state["step"] == 3 or state["step3_pending"] else plants[:4]


def future_market(state: PGState) -> list[int]:
    if six_plant_market(state):
        return []
    return [p for p in state["market"] if p != STEP3][4:]
