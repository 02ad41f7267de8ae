"""Setup (PG-7..PG-13)."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.powergrid import GAME
from engine.powergrid.data import STEP3, game_map
from engine.powergrid.market import current_market, future_market
from engine.powergrid.rules import _connected
from tests.engine.powergrid.helpers import act, illegal, new_game


@pytest.mark.parametrize("n", [1, 7])
def test_pg7_two_to_six_players(n: int) -> None:
    with pytest.raises(IllegalAction) as err:
        GAME.setup([f"p{i}" for i in range(n)], {}, 1)
    assert err.value.rule_id == "PG-7"


def test_pg7_seat_order_is_join_order() -> None:
    s = GAME.setup(["zoe", "adam", "mia"], {}, 3)
    assert GAME.view(s, None)["seat_order"] == ["zoe", "adam", "mia"]


def test_pg7_unknown_option_value_is_refused() -> None:
    with pytest.raises(IllegalAction):
        GAME.setup(["a", "b"], {"map": "mars"}, 1)


@pytest.mark.parametrize("map_id", ["germany", "usa"])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_pg8_random_regions_form_a_connected_set_of_the_right_size(map_id: str, n: int) -> None:
    for seed in range(5):
        s = new_game(n, seed, map=map_id)
        want = {2: 3, 3: 3, 4: 4, 5: 5, 6: 5}[n]
        assert len(s["regions"]) == want
        assert _connected(s["regions"], game_map(map_id))
        assert s["phase"] == "auction"


@pytest.mark.parametrize("n", [2, 3, 6])
def test_pg8_pg_d3_a_table_without_options_starts_with_the_region_choice(n: int) -> None:
    """DECISION PG-D-3: "players choose" is the default (as ZH); `regions=random` skips it."""
    players = [f"p{i}" for i in range(n)]
    s = GAME.setup(players, {}, 4)
    assert s["options"]["regions"] == "choose"
    assert s["phase"] == "regions" and s["regions"] == []
    want = {2: 3, 3: 3, 6: 5}[n]
    # PG-8: one region each, in a random order (the random player order), cycling
    assert s["region_pickers"] == [s["order"][i % n] for i in range(want)]
    first, second = s["region_pickers"][:2]
    assert GAME.current_players(s) == [first]
    assert GAME.view(s, first)["expected"] == "choose_region"
    assert {a["type"] for a in GAME.legal_actions(s, first)} == {"choose_region"}
    illegal(s, second, "PG-15", type="choose_region", region="NW")
    act(s, first, type="choose_region", region="NW")
    illegal(s, second, "PG-8", type="choose_region", region="SE")  # does not border NW
    for player, region in zip(s["region_pickers"][1:], ["NE", "E", "W", "SW"], strict=False):
        act(s, player, type="choose_region", region=region)
    assert len(s["regions"]) == want and _connected(s["regions"], game_map("germany"))
    assert s["phase"] == "auction"

    drawn = GAME.setup(players, {"regions": "random"}, 4)
    assert drawn["phase"] == "auction" and len(drawn["regions"]) == want
    assert drawn["region_pickers"] == [] and drawn["options"]["regions"] == "random"
    # the choice draws nothing else: the same seed deals the same deck and player order
    chosen = GAME.setup(players, {}, 4)
    assert (chosen["deck"], chosen["order"]) == (drawn["deck"], drawn["order"])


def test_pg8_players_choose_adjacent_regions_in_turn() -> None:
    s = new_game(3, 4, regions="choose")
    assert s["phase"] == "regions"
    first, second, third = s["region_pickers"]
    assert s["region_pickers"] == s["order"]  # the random initial order
    illegal(s, second, "PG-15", type="choose_region", region="NW")
    illegal(s, first, "PG-8", type="choose_region", region="XX")
    act(s, first, type="choose_region", region="NW")
    illegal(s, second, "PG-8", type="choose_region", region="NW")  # taken
    illegal(s, second, "PG-8", type="choose_region", region="SE")  # not adjacent to NW
    act(s, second, type="choose_region", region="NE")
    events = act(s, third, type="choose_region", region="E")
    assert s["regions"] == ["E", "NE", "NW"] and s["phase"] == "auction"
    assert "regions_chosen" in [e["type"] for e in events]


def test_pg8_two_players_cycle_until_three_regions() -> None:
    s = new_game(2, 4, regions="choose")
    assert len(s["region_pickers"]) == 3
    assert s["region_pickers"][2] == s["region_pickers"][0]


def test_pg9_fifty_elektro_and_hidden_money_view() -> None:
    s = new_game(3, 1)
    assert all(p["money"] == 50 for p in s["players"].values())
    h = new_game(3, 1, hidden_money="yes")
    v = GAME.view(h, "a")
    assert v["players"]["a"]["money"] == 50
    assert (
        v["players"]["b"]["money"] is None and GAME.view(h, None)["players"]["a"]["money"] is None
    )
    assert GAME.view(s, "a")["players"]["b"]["money"] == 50  # PG-D-5: public by default


def test_pg10_zero_cities_and_random_initial_order() -> None:
    orders = {tuple(new_game(4, seed)["order"]) for seed in range(20)}
    assert len(orders) > 5
    for order in orders:
        assert sorted(order) == ["a", "b", "c", "d"]
    assert all(p["cities"] == [] for p in new_game(4, 1)["players"].values())


def test_pg11_initial_resource_market_and_supply() -> None:
    s = new_game(3)
    assert s["rm"] == {"coal": 24, "oil": 18, "garbage": 6, "uranium": 2}
    assert s["supply"] == {"coal": 0, "oil": 6, "garbage": 18, "uranium": 10}
    v = GAME.view(s, None)["resource_market"]
    assert [sp["count"] for sp in v["oil"]] == [0, 0, 3, 3, 3, 3, 3, 3]
    assert [sp["count"] for sp in v["uranium"]] == [0] * 10 + [1, 1]


@pytest.mark.parametrize("n,removed", [(2, 8), (3, 8), (4, 4), (5, 0), (6, 0)])
def test_pg12_market_deck_and_setup_removals(n: int, removed: int) -> None:
    for seed in range(10):
        s = new_game(n, seed)
        assert s["market"] == [3, 4, 5, 6, 7, 8, 9, 10]
        assert s["deck"][0] == 13 and s["deck"][-1] == STEP3  # PG-12.4
        assert len(s["deck"]) == 33 - removed + 2  # + plant 13 + the Step 3 card
        # PG-D-6: removals are drawn from the 32 plants 11, 12, 14..50 only
        assert set(range(3, 11)).isdisjoint(s["deck"])
        assert s["deck"].count(13) == 1


def test_pg12_deck_order_is_hidden_from_the_view() -> None:
    v = GAME.view(new_game(4), "a")
    assert "deck" not in v and v["deck_size"] == 31


def test_pg13_market_sorted_four_current_four_future() -> None:
    s = new_game(4)
    assert current_market(s) == [3, 4, 5, 6] and future_market(s) == [7, 8, 9, 10]
    v = GAME.view(s, None)["plant_market"]
    assert [p["number"] for p in v["current"]] == [3, 4, 5, 6]
    assert v["step3_card"] is False
