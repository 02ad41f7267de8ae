"""Phase 3 of the alternative rules (ALT-10 on PG-31..PG-33): buying tokens onto built plants.

One purchase is the base game's (engine/powergrid/purchase.py `ResourcePurchase`: resource,
count, market stock and money checked there once); `PlantPurchase` overrides its storage hooks
(one built plant, ALT-10) and its money rule (ALT-12).

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
  market, at most what the player can pay), and the event says how many were wanted: to
  the buyer alone (`private_to`; the group line says only what was bought).

A player's /done in version 2 is public (`purchase_declared`, "has chosen what to buy"); when
he had nothing to buy whatever money he holds, the event says why (`nothing_to_buy`).
"""

from __future__ import annotations

from typing import Any, Final

from engine.core import N_, IllegalAction, Term
from engine.powergrid import market as mk
from engine.powergrid import rules as base
from engine.powergrid import state_types as base_types
from engine.powergrid.basics import is_int
from engine.powergrid.data import RESOURCES
from engine.powergrid.purchase import ResourcePurchase
from engine.powergrid.state_types import PGState
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


class PlantPurchase(ResourcePurchase):
    """ALT-10 on the base purchase (engine/powergrid/purchase.py): the same checks of resource,
    count, market and money, with the tokens placed on one built plant of the buyer's."""

    money_rule = "ALT-12"
    storage_first = True  # a player with no built plant hears that first (ALT-10)

    def storage(
        self, state: PGState, player: str, resource: str, count: int, action: Action
    ) -> int:
        """ALT-10: the tokens go on one built plant (the one named, else the first with room),
        which must use `resource` and hold them with its own tokens."""
        alt = base_types.plain(state)  # the base's state type; the variant's plain dict here
        plant = action.get("plant")
        mine = built_plants(alt, player)
        if not mine:
            raise IllegalAction(
                "ALT-10", N_("You have no built plant to store resources on; build one first.")
            )
        if plant is None:
            fitting = [n for n in mine if room_on(alt, n, resource) >= count]
            if not fitting:
                raise IllegalAction(
                    "ALT-10",
                    N_("None of your built plants can store {count} more {resource}."),
                    count=count,
                    resource=Term(resource),
                )
            plant = fitting[0]
        if not is_int(plant) or plant not in mine:
            raise IllegalAction(
                "ALT-10", N_("Plant {plant} is not one of your built plants."), plant=str(plant)
            )
        if not accepts(plant, resource):
            raise IllegalAction(
                "ALT-10",
                N_("Plant {plant} cannot store {resource}."),
                plant=plant,
                resource=Term(resource),
            )
        room = room_on(alt, plant, resource)
        if count > room:
            raise IllegalAction(
                "ALT-10",
                N_("Plant {plant} can store only {room} more {resource}."),
                plant=plant,
                room=room,
                resource=Term(resource),
            )
        return int(plant)

    def store(
        self, state: PGState, player: str, resource: str, count: int, plant: int | None
    ) -> None:
        base_types.plain(state)["built"][str(plant)]["res"][resource] += count

    def placed(self, plant: int | None) -> dict[str, Any]:
        return {"plant": plant}


PURCHASE = PlantPurchase()


def buy(state: State, player: str, action: Action, events: list[Event]) -> None:
    """Version 1: buy now, at the prices the earlier buyers left."""
    PURCHASE.buy(plain(state), player, action, events)


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
        PURCHASE.take(trial, player, item["resource"], item["count"], item["plant"])
    return trial


def declare(state: State, player: str, action: Action, events: list[Event]) -> None:
    """Version 2: record one purchase (checked as if the player bought first), secretly.

    Checked first without his earlier declarations (the market and his plants as the table
    sees them), then with them: a refusal only the declarations cause ("Plant 4 can store
    only 0 more coal" after his secret 3) is `secret`, told to him alone, so it never shows
    the group what he declared (found by `make fuzz`, 2026-12-04)."""
    bought = PURCHASE.check(plain(state), player, action)
    if state.get(DECLARED, {}).get(player):
        try:
            bought = PURCHASE.check(planned(state, player), player, action)
        except IllegalAction as err:
            err.secret = True
            raise
    assert bought.plant is not None  # PlantPurchase.storage always names the plant
    item: Purchase = {"resource": bought.resource, "count": bought.count, "plant": bought.plant}
    state.setdefault(DECLARED, {}).setdefault(player, []).append(item)
    emit(
        plain(state),
        events,
        "buy_declared",
        player=player,
        private=True,
        price=bought.price,
        **item,
    )


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
            # A shortfall tells what he declared and, under hidden money, bounds his money
            # (PG-9 option, PG-22): its explanation is his alone (`private_to`, the owner's
            # line); the table reads only what was bought (texts.py).
            short = {"wanted": wanted, "private_to": name} if count < wanted else {}
            if not count:
                emit(
                    plain(state),
                    events,
                    "purchase_short",
                    player=name,
                    resource=resource,
                    wanted=wanted,
                    plant=plant,
                    private_to=name,
                )
                continue
            price = PURCHASE.take(plain(state), name, resource, count, plant)
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


def nothing_to_buy(state: State, player: str) -> str | None:
    """Why `player` has nothing to buy whatever money he holds, for the public line of his
    /done (version 2): "no_plant" with no built plant (ALT-10; every player in round 1,
    EX-ALT-14), "no_room" when none of his built plants has room for a token the market holds;
    else None, and the line stays "has chosen what to buy".

    Read from public parts alone (his built plants, their tokens, the market): never his money
    (hidden under the PG-9 option) nor his declarations (secret), so the line tells nothing the
    table does not see. Such a /done is the forced one (forced.py: forced with any amount of
    money), and he cannot have declared anything: every declaration needs room and market stock."""
    mine = built_plants(state, player)
    if not mine:
        return "no_plant"
    rm = state["rm"]
    if any(rm[res] and room_on(state, plant, res) > 0 for plant in mine for res in RESOURCES):
        return None
    return "no_room"


def can_declare_more(state: State, player: str, own: bool = True) -> bool:
    """Whether any purchase is still open to `player`: some built plant with room for a token
    the market holds and he can pay; in version 2 after his own declarations, unless `own` is
    False (the board as the table sees it: forced.py)."""
    trial = planned(state, player) if own and simultaneous(state) else state
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
