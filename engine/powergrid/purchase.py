"""Phase 3's purchase (PG-31..PG-33, PG-9a): the checks of one `buy` and the purchase itself,
written once for the base game and the variant.

`ResourcePurchase` is the declared extension point (issue 26; model: python-chess variants —
class-level switches and hooks a subclass overrides): the base game pools the tokens (PG-33,
PG-34); engine/powergrid_alt/purchase.py's subclass puts them on one built plant (ALT-10)
through the `storage` / `store` / `placed` hooks and cites its own money rule (ALT-12). The
checks every purchase shares — a known resource (PG-3), at least one token (PG-31), the
market's stock (PG-32), the player's money (PG-9a) — live only here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import N_, IllegalAction, Term
from engine.powergrid import market as mk
from engine.powergrid.basics import Action, Event, log_event
from engine.powergrid.data import RESOURCE_TERMS, RESOURCES
from engine.powergrid.state_types import PGState


@dataclass(slots=True)
class Bought:
    """A checked purchase: what, how many, where the tokens go, and what they cost (built on
    every purchase: not frozen, as a frozen dataclass sets each field the slow way)."""

    resource: str
    count: int
    plant: int | None  # the plant that stores them; None where tokens are pooled (PG-34)
    price: int


class ResourcePurchase:
    """One Phase 3 purchase of the base game; a variant overrides the switches and hooks."""

    # The rule cited when the tokens cost more than the player has.
    money_rule: ClassVar[str] = "PG-9a"
    # Whether the storage check (`storage`) comes before the market's stock (PG-32) or after.
    storage_first: ClassVar[bool] = False

    def check(self, state: PGState, player: str, action: Action) -> Bought:
        """Validate a `buy` action without touching the state; raise `IllegalAction`."""
        resource, count = action.get("resource"), action.get("count", 1)
        if resource not in RESOURCES:
            raise IllegalAction(
                "PG-3",
                N_("Unknown resource {resource}; choose {coal}, {oil}, {garbage} or {uranium}."),
                resource=str(resource),
                **RESOURCE_TERMS,
            )
        if type(count) is not int or count < 1:  # `is_int`, inline
            raise IllegalAction("PG-31", N_("Buy at least 1 token."), count=str(count))
        plant = self.storage(state, player, resource, count, action) if self.storage_first else None
        available = state["rm"][resource]
        if count > available:
            raise IllegalAction(
                "PG-32",
                N_("The market has only {available} {resource}."),
                available=available,
                resource=Term(resource),
            )
        if not self.storage_first:
            plant = self.storage(state, player, resource, count, action)
        price = mk.resource_cost(available, resource, count)
        money = state["players"][player]["money"]
        if price > money:
            raise IllegalAction(
                self.money_rule,
                N_("{count} {resource} cost {price} E; you have {money} E."),
                count=count,
                resource=Term(resource),
                price=price,
                money=money,
                secret=state["hidden_money"],
            )
        return Bought(resource, count, plant, price)

    def storage(
        self, state: PGState, player: str, resource: str, count: int, action: Action
    ) -> int | None:
        """Hook: may the player store `count` more `resource`? Returns the plant they go on.

        The base game: PG-33's whole-player check on the pooled tokens (None: the pool)."""
        p = state["players"][player]
        room = mk.room_for(_capacities(tuple(p["plants"])), p["res"], resource)
        if count > room:
            raise IllegalAction(
                "PG-33",
                N_("Your plants can store only {room} more {resource}."),
                room=room,
                resource=Term(resource),
            )
        return None

    def store(
        self, state: PGState, player: str, resource: str, count: int, plant: int | None
    ) -> None:
        """Hook: put bought tokens away. The base game pools them (PG-34)."""
        state["players"][player]["res"][resource] += count

    def placed(self, plant: int | None) -> dict[str, Any]:
        """Hook: what the `resources_bought` event says of where the tokens went (the base
        game: nothing, they are pooled)."""
        return {}

    def take(
        self, state: PGState, player: str, resource: str, count: int, plant: int | None
    ) -> int:
        """Move `count` tokens from the market to the player, paying for them (PG-32, the
        cheapest first); return the price."""
        price = mk.resource_cost(state["rm"][resource], resource, count)
        state["players"][player]["money"] -= price
        state["rm"][resource] -= count
        self.store(state, player, resource, count, plant)
        return price

    def buy(self, state: PGState, player: str, action: Action, events: list[Event]) -> None:
        """Check and carry out one purchase now, at the prices the earlier buyers left."""
        bought = self.check(state, player, action)
        # `take` with the price `check` just worked out from the same market (nothing
        # changed in between), instead of working it out again.
        p = state["players"][player]
        p["money"] -= bought.price
        state["rm"][bought.resource] -= bought.count
        self.store(state, player, bought.resource, bought.count, bought.plant)
        ev = {
            "type": "resources_bought",
            "round": state["round"],
            "player": player,
            "resource": bought.resource,
            "count": bought.count,
            "price": bought.price,
        }
        placed = self.placed(bought.plant)
        if placed:
            ev.update(placed)
        log_event(state, events, ev)


PURCHASE = ResourcePurchase()  # the base game's

# Per plant tuple: `market.capacities` (read only here), bounded.
_CAPACITIES: dict[tuple[int, ...], dict[str, int]] = {}


def _capacities(plants: tuple[int, ...]) -> dict[str, int]:
    hit = _CAPACITIES.get(plants)
    if hit is None:
        if len(_CAPACITIES) >= 4096:
            _CAPACITIES.clear()
        hit = _CAPACITIES[plants] = mk.capacities(list(plants))
    return hit
