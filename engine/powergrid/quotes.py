"""Price quotes a chat player needs before acting (CONTRACT.md). Pure; never mutate state."""

from __future__ import annotations

from itertools import permutations
from typing import Any

from engine.core import N_
from engine.powergrid import market as mk
from engine.powergrid.build import full_city
from engine.powergrid.data import HOUSES, RESOURCES, SLOT_PRICES, game_map, income_for
from engine.powergrid.network import INF
from engine.powergrid.rules import State, net

# Up to this many cities the cheapest order is found exactly (5! = 120 orders); beyond it
# a greedy "cheapest next city" order is suggested.
EXACT_ORDER_LIMIT = 5


def connection_quote(state: State, player: str, cities: list[str]) -> dict[str, Any]:
    """Cost of building `cities` in the given order (PG-36..38, PG-37 one at a time).

    `items` follow the given order; `cheapest_order` suggests another order only when it is
    strictly cheaper (`cheapest_total`), else it is empty (EX-PG-16: the charge follows the
    order actually built, never a joint tree).
    """
    items, total, why = _simulate(state, player, cities)
    money = state["players"][player]["money"]
    if why is None and total > money:
        why = (N_("This costs {total} E; you have {money} E."), {"total": total, "money": money})
    order: list[str] = []
    order_total = total
    if why is None:
        order = _cheapest_order(state, player, cities)
        order_total = _order_cost(state, player, order)
        if order_total >= total:  # only a strictly cheaper order is worth a suggestion
            order, order_total = [], total
    return {
        "total": total,
        "ok": why is None,
        # English text, plus its N_ template and parameters for translation
        "reason": None if why is None else why[0].format(**why[1]),
        "reason_key": None if why is None else why[0],
        "reason_params": None if why is None else why[1],
        "cheapest_order": order,
        "cheapest_total": order_total,
        "items": items,
    }


Why = tuple[str, dict[str, Any]]


def _simulate(
    state: State, player: str, cities: list[str]
) -> tuple[list[dict[str, Any]], int, Why | None]:
    gm = game_map(state["map"])
    nw = net(state)
    p = state["players"][player]
    owned = [nw.index[c] for c in p["cities"]]
    items: list[dict[str, Any]] = []
    total = 0
    houses = HOUSES - len(p["cities"])
    for city in cities:
        if city not in gm.index:
            return items, total, (N_("There is no city called {city}."), {"city": city})
        target = gm.index[city]
        if not nw.in_play[target]:
            return items, total, (N_("{city} is outside the regions in play."), {"city": city})
        if target in owned:
            return items, total, (N_("You already have a house in {city}."), {"city": city})
        others = state["cities"].get(city, [])
        if len(others) >= state["step"]:
            return items, total, (full_city(state["step"]), {"city": city, "step": state["step"]})
        if houses <= 0:
            return items, total, (N_("You have no houses left."), {})
        if owned:
            source = min(owned, key=lambda o: nw.dist[o][target])
            conn = nw.dist[source][target]
            if conn >= INF:
                unreachable = N_("{city} cannot be reached from your network.")
                return items, total, (unreachable, {"city": city})
            path = [nw.cities[i] for i in nw.path(source, target)]
        else:
            conn, path = 0, [city]
        slot = SLOT_PRICES[len(others)]
        items.append(
            {"city": city, "path": path, "connection": conn, "slot": slot, "cost": conn + slot}
        )
        total += conn + slot
        owned.append(target)
        houses -= 1
    return items, total, None


def _order_cost(state: State, player: str, order: list[str]) -> int:
    nw = net(state)
    owned = [nw.index[c] for c in state["players"][player]["cities"]]
    total = 0
    for city in order:
        t = nw.index[city]
        total += nw.connection_cost(owned, t) + SLOT_PRICES[len(state["cities"].get(city, []))]
        owned.append(t)
    return total


def _cheapest_order(state: State, player: str, cities: list[str]) -> list[str]:
    if len(cities) <= EXACT_ORDER_LIMIT:
        best = min(permutations(cities), key=lambda o: _order_cost(state, player, list(o)))
        return list(best)
    nw = net(state)
    owned = [nw.index[c] for c in state["players"][player]["cities"]]
    left = list(cities)
    order: list[str] = []
    while left:
        city = min(left, key=lambda c: nw.connection_cost(owned, nw.index[c]))
        order.append(city)
        owned.append(nw.index[city])
        left.remove(city)
    return order


def resource_quote(state: State, resource: str, n: int) -> dict[str, Any]:
    """PG-32: what the next `n` tokens of `resource` cost now (as many as are on sale)."""
    if resource not in RESOURCES:
        return {"total": 0, "available": 0, "prices": []}
    available = state["rm"][resource]
    prices = mk.resource_prices(available, resource, max(0, n))
    return {"total": sum(prices), "available": available, "prices": prices}


def income_quote(state: State, player: str) -> dict[str, Any]:
    """PG-42: the best run with the fuel held now, and the income it would pay."""
    p = state["players"][player]
    plants, powered = mk.best_run(p["plants"], p["res"], len(p["cities"]))
    return {
        "powered": powered,
        "income": income_for(powered),
        "plants": plants,
        "fuel": dict(p["res"]),
    }
