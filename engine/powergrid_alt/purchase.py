"""Phase 3 of the alternative rules (ALT-10 on PG-31..PG-33): buying tokens onto built plants.

Two timings, chosen at setup and recorded in `state["rules_version"]` (options.py):
- version 1 (games started before issue 17): the base order, one player after another in
  reverse player order (PG-15, PG-31), each buying at the prices the earlier buyers left;
- version 2: everybody declares at once, like the base game's bureaucracy (PG-42). Each `buy`
  is checked against the market as it stands (nobody else's declaration is known) after the
  player's own earlier declarations, and kept secret (a private `buy_declared` event; `view`
  shows it to its owner only). When the last player says /done, the declarations are carried
  out in the rules' order, reverse player order (PG-15, PG-31), each at the prices the earlier
  buyers left (PG-32): exactly what the sequential rules charge. A declaration the market or
  the money no longer covers at that moment is filled as far as it goes (tokens still in the
  market, at most what the player can pay), and the event says how many were wanted.
"""

from __future__ import annotations

from typing import Any, Final

from engine.core import N_, IllegalAction
from engine.powergrid import market as mk
from engine.powergrid import rules as base
from engine.powergrid.basics import is_int
from engine.powergrid.data import RESOURCES
from engine.powergrid_alt.queries import accepts, built_plants, room_on
from engine.powergrid_alt.state_types import AltState, Purchase, plain

State = AltState  # the TypedDict, or the plain dict (state_types.py)
Action = dict[str, Any]
Event = dict[str, Any]

emit = base.emit
# state["declared_buys"]: player -> his declared purchases [{resource, count, plant}], kept
# only while a version 2 purchase is open.
DECLARED: Final = "declared_buys"


def simultaneous(state: State) -> bool:
    """Version 2 rules: Phase 3 and Phase 5 are declared by everybody at once."""
    return int(state.get("rules_version", 1)) >= 2


def buy_check(state: State, player: str, action: Action) -> tuple[str, int, int, int]:
    """Validate a purchase onto one built plant; return (resource, count, plant, price)."""
    resource, count, plant = action.get("resource"), action.get("count", 1), action.get("plant")
    if resource not in RESOURCES:
        raise IllegalAction(
            "PG-3",
            N_("Unknown resource {resource}; choose coal, oil, garbage or uranium."),
            resource=str(resource),
        )
    if not is_int(count) or count < 1:
        raise IllegalAction("PG-31", N_("Buy at least 1 token."), count=str(count))
    mine = built_plants(state, player)
    if not mine:
        raise IllegalAction(
            "ALT-10", N_("You have no built plant to store resources on; build one first.")
        )
    if plant is None:
        fitting = [n for n in mine if room_on(state, n, resource) >= count]
        if not fitting:
            raise IllegalAction(
                "ALT-10",
                N_("None of your built plants can store {count} more {resource}."),
                count=count,
                resource=resource,
            )
        plant = fitting[0]
    if not is_int(plant) or plant not in mine:
        raise IllegalAction(
            "ALT-10", N_("Plant {plant} is not one of your built plants."), plant=str(plant)
        )
    if not accepts(plant, resource):
        raise IllegalAction(
            "ALT-10", N_("Plant {plant} cannot store {resource}."), plant=plant, resource=resource
        )
    room = room_on(state, plant, resource)
    if count > room:
        raise IllegalAction(
            "ALT-10",
            N_("Plant {plant} can store only {room} more {resource}."),
            plant=plant,
            room=room,
            resource=resource,
        )
    available = state["rm"][resource]
    if count > available:
        raise IllegalAction(
            "PG-32",
            N_("The market has only {available} {resource}."),
            available=available,
            resource=resource,
        )
    price = mk.resource_cost(available, resource, count)
    money = state["players"][player]["money"]
    if price > money:
        raise IllegalAction(
            "ALT-12",
            N_("{count} {resource} cost {price} E; you have {money} E."),
            count=count,
            resource=resource,
            price=price,
            money=money,
        )
    return resource, count, plant, price


def _take(state: State, player: str, resource: str, count: int, plant: int) -> int:
    """Move `count` tokens from the market onto `plant`, paying for them; return the price."""
    price = mk.resource_cost(state["rm"][resource], resource, count)
    state["players"][player]["money"] -= price
    state["rm"][resource] -= count
    state["built"][str(plant)]["res"][resource] += count
    return price


def buy(state: State, player: str, action: Action, events: list[Event]) -> None:
    """Version 1: buy now, at the prices the earlier buyers left."""
    resource, count, plant, price = buy_check(state, player, action)
    _take(state, player, resource, count, plant)
    emit(
        plain(state),
        events,
        "resources_bought",
        player=player,
        resource=resource,
        count=count,
        price=price,
        plant=plant,
    )


def planned(state: State, player: str) -> dict[str, Any]:
    """The state as `player` plans it: the market as it stands, his money and his plants after
    his own declared purchases (a copy of the parts they touch; nobody else's are known)."""
    mine = state.get(DECLARED, {}).get(player, [])
    if not mine:
        return plain(state)
    trial = {
        **state,
        "rm": dict(state["rm"]),
        "players": {**state["players"], player: dict(state["players"][player])},
        "built": {
            k: ({**b, "res": dict(b["res"])} if b["owner"] == player else b)
            for k, b in state["built"].items()
        },
    }
    for item in mine:
        _take(trial, player, item["resource"], item["count"], item["plant"])
    return trial


def declare(state: State, player: str, action: Action, events: list[Event]) -> None:
    """Version 2: record one purchase (checked as if the player bought first), secretly."""
    resource, count, plant, price = buy_check(planned(state, player), player, action)
    item: Purchase = {"resource": resource, "count": count, "plant": plant}
    state.setdefault(DECLARED, {}).setdefault(player, []).append(item)
    emit(plain(state), events, "buy_declared", player=player, private=True, price=price, **item)


def declared(state: State, player: str) -> list[dict[str, Any]]:
    """The purchases `player` has declared in this Phase 3 (version 2), in order."""
    return [dict(item) for item in state.get(DECLARED, {}).get(player, [])]


def resolve(state: State, events: list[Event]) -> None:
    """Version 2, everybody done: the declared purchases in reverse player order (PG-15,
    PG-31), each at the prices the earlier buyers left (PG-32), as far as market and money
    go; the declarations are then forgotten."""
    book = state.pop(DECLARED, {})
    for name in base.phase_order(plain(state)):
        money = state["players"][name]["money"]
        for item in book.get(name, []):
            resource, plant, wanted = item["resource"], item["plant"], item["count"]
            count = min(wanted, state["rm"][resource], room_on(state, plant, resource))
            while count and mk.resource_cost(state["rm"][resource], resource, count) > money:
                count -= 1  # PG-9a / ALT-12: never more than he can pay
            short = {"wanted": wanted} if count < wanted else {}
            if not count:
                emit(
                    plain(state),
                    events,
                    "purchase_short",
                    player=name,
                    resource=resource,
                    wanted=wanted,
                    plant=plant,
                )
                continue
            price = _take(state, name, resource, count, plant)
            money -= price
            emit(
                plain(state),
                events,
                "resources_bought",
                player=name,
                resource=resource,
                count=count,
                price=price,
                plant=plant,
                **short,
            )


def can_declare_more(state: State, player: str) -> bool:
    """Whether any purchase is still open to `player` (after his own declarations in version
    2): some built plant with room for a token the market holds and he can pay."""
    trial = planned(state, player) if simultaneous(state) else state
    money = trial["players"][player]["money"]
    for plant in built_plants(trial, player):
        for resource in RESOURCES:
            in_market = trial["rm"][resource]
            if (
                in_market
                and room_on(trial, plant, resource) > 0
                and mk.resource_cost(in_market, resource, 1) <= money
            ):
                return True
    return False
