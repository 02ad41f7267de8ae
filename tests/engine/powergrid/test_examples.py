"""Every worked example of the rules (EX-PG-1..EX-PG-16) as a test."""

from __future__ import annotations

from engine.powergrid import GAME
from engine.powergrid.data import STEP3, game_map
from engine.powergrid.market import current_market, future_market
from tests.engine.powergrid.helpers import (
    act,
    all_regions,
    give,
    illegal,
    new_game,
    set_market,
    set_phase,
    tokens_conserved,
    types,
)
from tests.engine.powergrid.test_steps import CITIES, end_phase


def test_ex_pg1_auction_from_the_chinese_rules() -> None:
    s = new_game(3, 1)
    set_phase(s, "auction", round_=2, order=["a", "b", "c"])
    set_market(s, [12, 13, 14, 15, 16, 17, 18, 19], [20, 21, 22, 23])
    act(s, "a", type="open", plant=12, bid=15)
    act(s, "b", type="raise", bid=17)
    act(s, "c", type="pass")
    act(s, "a", type="raise", bid=18)
    act(s, "b", type="raise", bid=19)
    act(s, "a", type="pass")
    assert s["players"]["b"]["plants"] == [12] and s["players"]["b"]["money"] == 31
    assert GAME.current_players(s) == ["a"]  # PG-24: A chooses again
    act(s, "a", type="pass")
    events = act(s, "c", type="open", plant=14, bid=14)
    won = next(e for e in events if e["type"] == "auction_won")
    assert (won["player"], won["plant"], won["price"]) == ("c", 14, 14)
    assert s["players"]["c"]["money"] == 36 and s["players"]["a"]["plants"] == []
    assert s["phase"] == "resources"


def test_ex_pg2_storage() -> None:
    s = set_phase(new_game(3, 1), "resources", order=["a", "b", "c"])
    give(s, "c", plants=[5])
    act(s, "c", type="buy", resource="coal", count=3)
    act(s, "c", type="buy", resource="oil", count=1)
    illegal(s, "c", "PG-33", type="buy", resource="oil", count=1)
    give(s, "b", plants=[13, 50])
    act(s, "c", type="done")
    illegal(s, "b", "PG-33", type="buy", resource="coal", count=1)


def test_ex_pg3_prices_at_game_start() -> None:
    s = set_phase(new_game(3, 1), "resources", order=["a", "b", "c"])
    give(s, "c", plants=[31, 11])
    assert act(s, "c", type="buy", resource="coal", count=4)[0]["price"] == 5
    assert act(s, "c", type="buy", resource="uranium", count=1)[0]["price"] == 14


def test_ex_pg4_too_low_plants_including_replacements() -> None:
    s = all_regions(new_game(3, 1))
    set_phase(s, "build", order=["a", "b", "c"])
    set_market(s, [3, 4, 5, 7, 8, 9, 10, 11], [6, 20, 21, 22, 23])
    give(s, "c", cities=["Kiel", "Flensburg", "Hamburg", "Lübeck", "Schwerin"], money=200)
    act(s, "c", type="build", city="Rostock")
    assert s["market"] == [7, 8, 9, 10, 11, 20, 21, 22]


def test_ex_pg5_bureaucracy() -> None:
    s = set_phase(new_game(3, 1), "bureaucracy", order=["a", "b", "c"])
    give(s, "a", plants=[4, 7], res={"coal": 2, "oil": 2}, cities=["Kiel", "Hamburg"])
    illegal(s, "a", "PG-42", type="power", plants=[4, 7])
    supply = s["supply"]["coal"] + s["rm"]["coal"]  # the restock follows at once
    act(s, "a", type="power", plants=[4])
    act(s, "b", type="power", plants=[])  # Phase 5 is declared at once (PG-15)
    events = act(s, "c", type="power", plants=[])
    mine = next(e for e in events if e["type"] == "powered" and e["player"] == "a")
    assert mine["cities"] == 1 and mine["income"] == 22
    assert s["players"]["a"]["res"]["coal"] == 0
    assert s["supply"]["coal"] + s["rm"]["coal"] == supply + 2


def test_ex_pg6_restock_five_players_step2() -> None:
    s = set_phase(new_game(5, 1), "bureaucracy", order=["a", "b", "c", "d", "e"])
    s["step"] = 2
    s["rm"] = {"coal": 0, "oil": 0, "garbage": 0, "uranium": 10}
    s["supply"] = {"coal": 24, "oil": 24, "garbage": 24, "uranium": 2}
    end_phase(s)
    # uranium: 3 due, only 2 in the supply ("less if the supply lacks tokens")
    assert s["rm"] == {"coal": 7, "oil": 5, "garbage": 3, "uranium": 12}
    spaces = GAME.view(s, None)["resource_market"]["coal"]
    assert [sp["count"] for sp in spaces][-3:] == [1, 3, 3]  # dearest slots first
    assert tokens_conserved(s)


def test_ex_pg7_round1_order() -> None:
    s = new_game(3, 3)
    s["order"] = ["a", "b", "c"]
    set_market(s, [4, 6, 10, 11, 12, 13, 14, 15], [20, 21, 22])
    act(s, "a", type="open", plant=4, bid=4)
    act(s, "b", type="pass")
    act(s, "c", type="pass")
    act(s, "b", type="open", plant=10, bid=10)
    act(s, "c", type="pass")
    act(s, "c", type="open", plant=6, bid=6)
    assert s["order"] == ["b", "c", "a"]
    assert GAME.current_players(s) == ["a"]  # Phase 3 in reverse new order


def test_ex_pg8_city_tie_broken_by_highest_plant() -> None:
    s = set_phase(new_game(3, 1), "bureaucracy", order=["a", "b", "c"])
    five = ["Kiel", "Hamburg", "Bremen", "Hannover", "Cuxhaven"]
    give(s, "a", plants=[20], cities=five)
    give(s, "b", plants=[25], cities=["Berlin", "Halle", "Leipzig", "Dresden", "Erfurt"])
    end_phase(s)
    assert s["order"][:2] == ["b", "a"]


def test_ex_pg9_building_through_a_full_city_in_step2() -> None:
    s = all_regions(new_game(3, 1))
    set_phase(s, "build", order=["a", "c", "b"])  # b builds first
    s["step"] = 2
    give(s, "b", cities=["Cuxhaven"])
    give(s, "a", cities=["Hannover", "Bremen"])
    give(s, "c", cities=["Bremen"])
    illegal(s, "b", "PG-38", type="build", city="Bremen")
    events = act(s, "b", type="build", city="Hannover")
    assert events[0]["cost"] == 8 + 10 + 15


def test_ex_pg10_zero_cities_pays_ten() -> None:
    s = set_phase(new_game(3, 1), "bureaucracy", order=["a", "b", "c"])
    act(s, "a", type="power", plants=[])
    act(s, "b", type="power", plants=[])  # Phase 5 is declared at once (PG-15)
    events = act(s, "c", type="power", plants=[])
    assert events[1]["type"] == "powered" and events[1]["player"] == "a"
    assert events[1]["income"] == 10
    assert s["players"]["a"]["money"] == 60


def test_ex_pg11_fourth_plant_with_three_players() -> None:
    s = set_phase(new_game(3, 1), "auction", order=["a", "b", "c"])
    give(s, "a", plants=[4, 8, 10], res={"coal": 6}, money=100)
    set_market(s, [20, 21, 22, 23, 24, 25, 26, 27], [30, 31])
    act(s, "a", type="open", plant=20, bid=20)
    act(s, "b", type="pass")
    act(s, "c", type="pass")
    assert s["pending_discard"]["player"] == "a"
    act(s, "a", type="discard", plant=8)
    assert s["players"]["a"]["plants"] == [4, 10, 20]
    assert s["players"]["a"]["res"]["coal"] == 6 and tokens_conserved(s)


def test_ex_pg12_market_update_step1_and_step3() -> None:
    s = set_phase(new_game(3, 1), "bureaucracy", order=["a", "b", "c"])
    set_market(s, [3, 4, 5, 6, 7, 8, 9, 10], [40, STEP3])
    end_phase(s)
    assert s["deck"] == [STEP3, 10] and 40 in s["market"]
    s = set_phase(new_game(3, 1), "bureaucracy", order=["a", "b", "c"])
    s["step"] = 3
    set_market(s, [13, 15, 18, 20, 22, 25], [40])
    end_phase(s)
    assert s["market"] == [15, 18, 20, 22, 25, 40]


def test_ex_pg13_step3_card_in_phase2() -> None:
    s = set_phase(new_game(3, 1), "auction", order=["a", "b", "c"])
    s["step"] = 2
    set_market(s, [11, 12, 14, 15, 16, 17, 18, 19], [STEP3, 30, 31, 32, 33])
    act(s, "a", type="open", plant=11, bid=11)
    act(s, "b", type="pass")
    act(s, "c", type="pass")
    assert s["market"][-1] == STEP3 and GAME.view(s, None)["plant_market"]["step3_card"]
    assert current_market(s) == [12, 14, 15, 16] and future_market(s) == [17, 18, 19]
    act(s, "b", type="open", plant=12, bid=12)
    act(s, "c", type="pass")
    assert 30 in s["market"] and s["deck"][0] == 31  # PG-D-22: unshuffled order
    events = act(s, "c", type="pass")
    assert s["market"] == [15, 16, 17, 18, 19, 30]
    assert sorted(s["deck"]) == [31, 32, 33] and s["step"] == 3 and s["phase"] == "resources"
    assert "step_started" in types(events)
    s["rm"]["coal"], s["supply"]["coal"] = 0, 24
    set_phase(s, "bureaucracy", order=["a", "b", "c"])
    end_phase(s)
    assert s["rm"]["coal"] == 3  # Step 3 row, 3 players


def test_ex_pg14_end_with_four_players() -> None:
    s = all_regions(new_game(4, 1))
    set_phase(s, "build", order=["a", "b", "c", "d"])
    s["step"] = 3
    names = list(game_map("germany").cities)
    give(s, "a", plants=[44, 50, 37], cities=names[:17], money=12)
    give(s, "b", plants=[46, 38, 13], res={"coal": 3, "garbage": 3}, cities=names[:15], money=30)
    give(s, "c", plants=[39, 40, 18], res={"uranium": 1, "oil": 2}, cities=names[:14])
    end_phase(s)
    powered = {n: p["powered"] for n, p in s["players"].items()}
    assert powered == {"a": 15, "b": 15, "c": 14, "d": 0}
    assert GAME.result(s)[0] == ["b"]
    assert s["players"]["b"]["money"] == 30  # PG-D-19: no income


def test_ex_pg15_step3_before_step2_phase2_case() -> None:
    s = set_phase(new_game(3, 1), "auction", order=["a", "b", "c"])
    set_market(s, [11, 12, 14, 15, 16, 17, 18, 19], [STEP3, 30, 31])
    act(s, "a", type="open", plant=11, bid=11)
    act(s, "b", type="pass")
    act(s, "c", type="pass")
    act(s, "b", type="pass")
    act(s, "c", type="pass")
    assert s["step"] == 3
    all_regions(s)
    set_phase(s, "build", order=["a", "b", "c"])
    give(s, "a", cities=CITIES)
    market = list(s["market"])
    events = end_phase(s)
    assert s["step"] == 3 and s["market"] == market
    assert "step_started" not in types(events)


def test_ex_pg15_step3_before_step2_phase4_case() -> None:
    s = all_regions(new_game(3, 1))
    set_phase(s, "build", order=["a", "b", "c"])
    set_market(s, [3, 4, 5, 6, 7, 8, 9, 10], [STEP3, 30, 31, 32, 33, 34, 35])
    give(s, "c", cities=CITIES[:6], money=100)
    act(s, "c", type="build", city="Lübeck")
    assert s["market"] == [8, 9, 10, 30, 31, 32, 33, STEP3]
    s["rm"]["coal"], s["supply"]["coal"] = 0, 24
    events = end_phase(s)
    assert "PG-46" not in [e.get("rule") for e in events]
    assert s["step"] == 3 and s["market"] == [9, 10, 30, 31, 32, 33]
    end_phase(s)
    assert s["rm"]["coal"] == 3  # Phase 5 restock used the Step 3 row


def test_ex_pg16_several_cities_in_one_turn_no_joint_tree() -> None:
    s = all_regions(new_game(4, 1))
    set_phase(s, "build", order=["a", "b", "c", "d"])
    give(s, "d", cities=["Magdeburg"], money=100)
    first = act(s, "d", type="build", city="Lübeck")[0]["cost"]
    second = act(s, "d", type="build", city="Rostock")[0]["cost"]
    assert (first, second) == (16 + 6 + 10, 6 + 6 + 10)
    assert first + second > (16 + 6 + 6) + 20  # a joint tree would be cheaper; not used
