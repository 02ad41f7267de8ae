"""The variant's Phase 3 purchase is the base game's (engine/powergrid/purchase.py) through its
named extension point (issue 26): the shared checks (PG-3, PG-31, PG-32) and the money check
come from the base, with the variant's rule id (ALT-12) and its storage on one built plant
(ALT-10), checked before the market's stock as before."""

from __future__ import annotations

from engine.powergrid.purchase import PURCHASE as BASE_PURCHASE
from engine.powergrid.purchase import ResourcePurchase
from engine.powergrid_alt.purchase import PURCHASE, PlantPurchase

from .helpers import act, give_hand, give_plant, illegal, money, new_game, set_phase


def test_the_variant_overrides_only_the_named_hooks_and_switches() -> None:
    assert isinstance(PURCHASE, PlantPurchase) and isinstance(PURCHASE, ResourcePurchase)
    overridden = {name for name in vars(PlantPurchase) if not name.startswith("__")}
    assert overridden == {"money_rule", "storage_first", "storage", "store", "placed"}
    assert (BASE_PURCHASE.money_rule, PURCHASE.money_rule) == ("PG-9a", "ALT-12")


def test_alt12_the_base_money_check_cites_the_variant_rule() -> None:
    state = new_game(2)
    set_phase(state, "resources", order=["b", "a"])
    give_plant(state, "a", 4, "Kiel")
    money(state, "a", 1)
    illegal(state, "a", {"type": "buy", "resource": "coal", "count": 2, "plant": 4}, "ALT-12")


def test_shared_checks_pg3_pg31_pg32_hold_in_the_variant() -> None:
    state = new_game(2)
    set_phase(state, "resources", order=["b", "a"])
    give_plant(state, "a", 4, "Kiel")
    illegal(state, "a", {"type": "buy", "resource": "wood", "count": 1}, "PG-3")
    illegal(state, "a", {"type": "buy", "resource": "coal", "count": 0}, "PG-31")
    state["rm"]["coal"] = 1
    illegal(state, "a", {"type": "buy", "resource": "coal", "count": 2, "plant": 4}, "PG-32")


def test_alt10_storage_is_checked_before_the_market_stock() -> None:
    state = new_game(2)
    set_phase(state, "resources", order=["b", "a"])
    give_hand(state, "a", 4)
    state["rm"]["coal"] = 0  # both fail: no built plant, and no coal in the market
    illegal(state, "a", {"type": "buy", "resource": "coal", "count": 1}, "ALT-10")


def test_the_bought_tokens_land_on_the_plant_and_the_event_names_it() -> None:
    state = new_game(2)
    set_phase(state, "resources", order=["b", "a"])
    give_plant(state, "a", 4, "Kiel")
    before = state["players"]["a"]["money"]
    (event,) = act(state, "a", {"type": "buy", "resource": "coal", "count": 2})
    assert state["built"]["4"]["res"]["coal"] == 2
    assert event["plant"] == 4 and event["count"] == 2
    assert state["players"]["a"]["money"] == before - event["price"]
    assert "res" not in state["players"]["a"]  # nothing pooled (ALT-10)
