"""Phase 3: buying resources (PG-31..PG-34, PG-9a) and the restock (PG-43)."""

from __future__ import annotations

from engine.powergrid import GAME
from engine.powergrid.market import capacities, room_for
from tests.engine.powergrid.helpers import (
    act,
    give,
    illegal,
    new_game,
    set_phase,
    tokens_conserved,
)


def phase3(n: int = 3) -> dict:
    s = new_game(n, 1)
    return set_phase(s, "resources", order=["a", "b", "c", "d"][:n])


def test_pg31_reverse_player_order_and_several_buys_per_turn() -> None:
    s = phase3()
    give(s, "c", plants=[4, 7])
    give(s, "b", plants=[8])
    assert GAME.current_players(s) == ["c"]
    act(s, "c", type="buy", resource="coal", count=2)
    act(s, "c", type="buy", resource="oil", count=3)
    assert GAME.current_players(s) == ["c"]
    act(s, "c", type="done")
    assert GAME.current_players(s) == ["b"]
    illegal(s, "c", "PG-15", type="buy", resource="coal", count=1)
    act(s, "b", type="done")
    act(s, "a", type="done")
    assert s["phase"] == "build"


def test_pg32_tokens_cost_their_space_cheapest_first() -> None:
    s = phase3()
    give(s, "c", plants=[31])  # coal, stores 6
    events = act(s, "c", type="buy", resource="coal", count=2)
    assert events[0]["price"] == 2
    events = act(s, "c", type="buy", resource="coal", count=2)
    assert events[0]["price"] == 1 + 2  # last token on space 1, first on space 2
    assert s["players"]["c"]["money"] == 50 - 5
    illegal(s, "c", "PG-32", type="buy", resource="uranium", count=3)


def test_pg32_cannot_buy_more_than_the_market_holds() -> None:
    s = phase3()
    give(s, "c", plants=[11, 17, 23])  # uranium storage 6, market holds 2
    illegal(s, "c", "PG-32", type="buy", resource="uranium", count=3)
    act(s, "c", type="buy", resource="uranium", count=2)
    assert s["rm"]["uranium"] == 0


def test_pg33_storage_is_twice_the_requirement_and_eco_stores_nothing() -> None:
    s = phase3()
    give(s, "c", plants=[13, 50])
    illegal(s, "c", "PG-33", type="buy", resource="coal", count=1)
    give(s, "c", plants=[10])  # coal 2 -> stores 4
    illegal(s, "c", "PG-33", type="buy", resource="coal", count=5)
    illegal(s, "c", "PG-33", type="buy", resource="oil", count=1)
    act(s, "c", type="buy", resource="coal", count=4)


def test_pg33_hybrid_capacity_is_a_whole_player_check() -> None:
    s = phase3()
    give(s, "c", plants=[4, 5, 7], money=200)  # coal 4, hybrid 4, oil 6
    cap = capacities([4, 5, 7])
    assert room_for(cap, {"coal": 0, "oil": 0, "garbage": 0, "uranium": 0}, "coal") == 8
    act(s, "c", type="buy", resource="oil", count=8)  # 6 on 7, 2 on the hybrid
    illegal(s, "c", "PG-33", type="buy", resource="coal", count=7)  # only 4 + 2 left
    act(s, "c", type="buy", resource="coal", count=6)
    illegal(s, "c", "PG-33", type="buy", resource="oil", count=1)


def test_pg34_view_shows_one_assignment_of_pooled_tokens() -> None:
    s = phase3()
    give(s, "c", plants=[4, 5, 7], res={"coal": 6, "oil": 7})
    plants = {p["number"]: p["stored"] for p in GAME.view(s, None)["players"]["c"]["plants"]}
    assert plants[4]["coal"] == 4 and plants[7]["oil"] == 6
    assert plants[5]["coal"] == 2 and plants[5]["oil"] == 1


def test_pg9a_a_purchase_must_be_paid_in_full() -> None:
    s = phase3()
    give(s, "c", plants=[31], money=3)
    err = illegal(s, "c", "PG-9a", type="buy", resource="coal", count=4)
    assert "5 E" in err.english()
    illegal(s, "c", "PG-3", type="buy", resource="gold", count=1)
    illegal(s, "c", "PG-31", type="buy", resource="coal", count=0)
    act(s, "c", type="done")  # buying nothing is always possible


def test_pg43_restock_fills_dearest_empty_slots_limited_by_supply_and_room() -> None:
    s = new_game(5, 1)
    set_phase(s, "bureaucracy", order=["a", "b", "c", "d", "e"])
    s["step"] = 2
    s["rm"] = {"coal": 24, "oil": 20, "garbage": 6, "uranium": 11}
    s["supply"] = {"coal": 0, "oil": 4, "garbage": 18, "uranium": 1}
    for p in ("a", "b", "c", "d", "e"):
        act(s, p, type="power", plants=[])
    # PG-5 5 players step 2 = 7/5/3/3; limited by room (coal 0) and supply (oil 4, uranium 1)
    assert s["rm"] == {"coal": 24, "oil": 24, "garbage": 9, "uranium": 12}
    assert s["supply"] == {"coal": 0, "oil": 0, "garbage": 15, "uranium": 0}
    assert tokens_conserved(s)
