"""ALT-2..ALT-10: setup, player order, auction and resources under the variant."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.powergrid.data import game_map
from engine.powergrid_alt import GAME
from engine.powergrid_alt import rules as r

from .helpers import act, give_hand, give_plant, give_tp, illegal, new_game, set_phase


@pytest.mark.parametrize("n", [1, 5, 6])
def test_alt3_only_two_to_four_players(n: int) -> None:
    with pytest.raises(IllegalAction) as info:
        GAME.setup([f"p{i}" for i in range(n)], {}, 1)
    assert info.value.rule_id == "ALT-3"
    assert (GAME.min_players, GAME.max_players) == (2, 4)


@pytest.mark.parametrize("n,count", [(2, 5), (3, 6), (4, 6)])
def test_alt4_regions_in_play(n: int, count: int) -> None:
    for seed in range(5):
        state = GAME.setup([f"p{i}" for i in range(n)], {"regions": "random"}, seed)
        assert len(state["regions"]) == count
        gm = game_map("germany")
        assert all(
            any(gm.regions_adjacent(a, b) for b in state["regions"] if b != a)
            for a in state["regions"]
        )


@pytest.mark.parametrize("n", [2, 3, 4])
def test_alt4_a_table_without_options_follows_pg8_default(n: int) -> None:
    """ALT-4: region choice for 2 players follows PG-8, whose default is the players' choice
    (DECISION PG-D-3); with 3-4 players all six regions are in play and nobody chooses."""
    state = GAME.setup([f"p{i}" for i in range(n)], {}, 3)
    if n == 2:
        assert state["options"]["regions"] == "choose"
        assert state["phase"] == "regions" and state["regions"] == []
        assert state["region_pickers"] == [state["order"][i % 2] for i in range(5)]
    else:
        assert state["phase"] == "auction" and len(state["regions"]) == 6
        assert state["region_pickers"] == []


def test_alt4_two_players_choose_five_regions() -> None:
    state = GAME.setup(["a", "b"], {"regions": "choose"}, 3)
    assert state["phase"] == "regions" and len(state["region_pickers"]) == 5


def test_alt5_start_money_75() -> None:
    state = new_game(4)
    assert all(p["money"] == 75 for p in state["players"].values())


def test_alt8_bought_plants_go_to_hand_without_limit() -> None:
    state = new_game(2)
    set_phase(state, "auction", order=["a", "b"])
    give_hand(state, "a", 20, 21, 22)
    state["players"]["b"]["passed"] = True
    state["players"]["a"]["money"] = 200
    plant = state["market"][0]
    act(state, "a", {"type": "open", "plant": plant, "bid": plant})
    assert plant in state["players"]["a"]["plants"]
    assert len(r.hand(state, "a")) == 4  # no discard (PG-26 does not apply)
    assert state["pending_discard"] is None
    assert state["phase"] == "resources"


def test_alt9_round_one_purchase_is_obligatory() -> None:
    state = new_game(2)
    chooser = GAME.current_players(state)[0]
    illegal(state, chooser, {"type": "pass"}, "PG-25")


def test_alt10_no_built_plant_no_purchase() -> None:
    state = new_game(2)
    set_phase(state, "resources", order=["b", "a"])
    give_hand(state, "a", 4)
    illegal(state, "a", {"type": "buy", "resource": "coal", "count": 1}, "ALT-10")


def test_alt10_tokens_go_on_the_chosen_plant_within_its_storage() -> None:
    state = new_game(2)
    set_phase(state, "resources", order=["b", "a"])
    give_plant(state, "a", 4, "Kiel")
    give_plant(state, "a", 10, "Hamburg", coal=3)
    act(state, "a", {"type": "buy", "resource": "coal", "count": 2, "plant": 4})
    assert state["built"]["4"]["res"]["coal"] == 2
    illegal(state, "a", {"type": "buy", "resource": "coal", "count": 2, "plant": 10}, "ALT-10")
    illegal(state, "a", {"type": "buy", "resource": "oil", "count": 1, "plant": 4}, "ALT-10")
    act(state, "a", {"type": "buy", "resource": "coal", "count": 1, "plant": 10})
    assert state["built"]["10"]["res"]["coal"] == 4


def test_alt10_hybrid_storage_is_shared_by_coal_and_oil() -> None:
    state = new_game(2)
    set_phase(state, "resources", order=["b", "a"])
    give_plant(state, "a", 5, "Kiel", coal=3)
    illegal(state, "a", {"type": "buy", "resource": "oil", "count": 2, "plant": 5}, "ALT-10")
    act(state, "a", {"type": "buy", "resource": "oil", "count": 1, "plant": 5})


def test_alt2_alt6_order_counts_plants_and_tps_and_hand_plants_break_ties() -> None:
    state = new_game(3)
    give_plant(state, "a", 4, "Kiel")
    give_plant(state, "b", 5, "Berlin")
    give_tp(state, "b", "Potsdam" if "Potsdam" in state["tps"] else "Magdeburg")
    give_plant(state, "c", 3, "München")
    give_hand(state, "c", 40)  # ALT-D-3: the hand counts for the tie-break
    state["order"] = ["a", "b", "c"]
    from engine.powergrid import rules as base

    base._reorder(state)
    assert state["order"] == ["b", "c", "a"]


def test_alt_d4_hands_are_public() -> None:
    state = new_game(2)
    give_hand(state, "a", 13)
    view = GAME.view(state, "b")
    assert [p["number"] for p in view["players"]["a"]["hand"]] == [13]
