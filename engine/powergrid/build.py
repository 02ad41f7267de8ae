"""Phase 4, building (PG-35..41): the check of one house, building it, and the queries of
what a player may build now (bots, legal actions, quotes)."""

from __future__ import annotations

from typing import Any

from engine.core import N_, IllegalAction
from engine.powergrid.basics import Action, Event, connection_cost, log_event, net
from engine.powergrid.data import HOUSES, SLOT_PRICES, game_map
from engine.powergrid.network import INF
from engine.powergrid.plant_market import remove_too_low
from engine.powergrid.state_types import PGState

# PG-38: a city holds as many houses as the step's number. One message per step, so that
# each language words its count properly (a refusal has no plural forms: "house(s)" read so).
FULL_CITY = {
    1: N_("{city} is full: in Step 1 a city holds only one house."),
    2: N_("{city} is full: in Step 2 a city holds two houses."),
    3: N_("{city} is full: in Step 3 a city holds three houses."),
}


def full_city(step: int) -> str:
    """The PG-38 refusal for a full city in `step` (filled with `city`)."""
    return FULL_CITY[min(max(step, 1), 3)]


def build_check(state: PGState, player: str, city: Any) -> tuple[int, int]:
    """Validate building in `city` now; return (connection cost, slot price) or raise."""
    gm = game_map(state["map"])
    if city not in gm.index:
        raise IllegalAction("PG-1", N_("There is no city called {city}."), city=str(city))
    if gm.city_region[gm.index[city]] not in state["regions"]:
        raise IllegalAction("PG-8", N_("{city} is outside the regions in play."), city=city)
    p = state["players"][player]
    owners = state["cities"].get(city, [])
    if player in owners:
        raise IllegalAction("PG-38", N_("You already have a house in {city}."), city=city)
    if len(owners) >= state["step"]:
        raise IllegalAction("PG-38", full_city(state["step"]), city=city, step=state["step"])
    if len(p["cities"]) >= HOUSES:
        raise IllegalAction("PG-38", N_("You have no houses left."))
    conn = connection_cost(state, player, city)
    if conn >= INF:
        raise IllegalAction("PG-37", N_("{city} cannot be reached from your network."), city=city)
    return conn, SLOT_PRICES[len(owners)]


def build_city(state: PGState, player: str, action: Action, events: list[Event]) -> None:
    city = action.get("city")
    conn, slot = build_check(state, player, city)
    p = state["players"][player]
    cost = conn + slot
    if cost > p["money"]:
        raise IllegalAction(
            "PG-37",
            N_(
                "{city} costs {cost} E ({connection} connection + {slot} house); "
                "you have {money} E."
            ),
            city=city,
            cost=cost,
            connection=conn,
            slot=slot,
            secret=state["hidden_money"],
            money=p["money"],
        )
    assert isinstance(city, str)  # a city of the map (build_check)
    p["money"] -= cost
    p["cities"].append(city)  # PG-39
    state["cities"].setdefault(city, []).append(player)
    log_event(
        state,
        events,
        {
            "type": "city_built",
            "round": state["round"],
            "player": player,
            "city": city,
            "cost": cost,
            "connection": conn,
        },
    )
    remove_too_low(state, events)  # PG-40 applies at any time


def build_options(state: PGState, player: str) -> list[tuple[str, int]]:
    """Every city the player may build in now with its full price (PG-36..38), cheapest first.

    Money is not checked here; callers compare with the player's money.
    """
    p = state["players"][player]
    if len(p["cities"]) >= HOUSES:
        return []
    nw = net(state)
    costs = nw.reach(tuple(p["cities"]))[0]
    taken = state["cities"]
    slots = state["step"]
    names = nw.cities
    out: list[tuple[str, int]] = []
    for i in nw.play:
        name = names[i]
        owners = taken.get(name)
        if owners:
            if len(owners) >= slots or player in owners:
                continue
            slot = SLOT_PRICES[len(owners)]
        else:
            slot = SLOT_PRICES[0]
        conn = costs[i]
        if conn < INF:
            out.append((name, conn + slot))
    out.sort(key=lambda item: item[1])
    return out


def cheapest_city(state: PGState, player: str) -> tuple[str, int] | None:
    """The cheapest city to build in now and its price (the first of `build_options`:
    lowest price, then lowest city index).

    Walks the cities in play by connection cost and stops once no later city can match
    the best price found (a house costs at least the first slot's price).
    """
    p = state["players"][player]
    cities = p["cities"]
    if len(cities) >= HOUSES:
        return None
    nw = net(state)
    taken = state["cities"]
    slots = state["step"]
    first = SLOT_PRICES[0]
    best = -1
    best_name = ""
    best_cost = INF
    for conn, i, name in nw.walk(tuple(cities)):
        if conn + first > best_cost:
            break
        owners = taken.get(name)
        if owners:
            if len(owners) >= slots or player in owners:
                continue
            cost = conn + SLOT_PRICES[len(owners)]
        else:
            cost = conn + first
        if cost < best_cost or (cost == best_cost and i < best):
            best, best_name, best_cost = i, name, cost
    return None if best < 0 else (best_name, best_cost)
