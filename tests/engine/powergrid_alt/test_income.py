"""ALT-30..ALT-39: running plants, networks, per-city income, MSE, rounding, penalties."""

from __future__ import annotations

from typing import Any

from bot import rulebook
from engine.powergrid_alt import rules as r
from engine.powergrid_alt.graph import mse2

from .helpers import (
    act,
    give_line,
    give_plant,
    give_tp,
    illegal,
    money,
    new_game,
    power_turn,
    set_phase,
)


def _red_chain(**opts: int) -> dict[str, Any]:
    """EX-ALT-1: red plant in Freiburg, TPs in Stuttgart and Würzburg, two lines."""
    state = new_game(3)
    power_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 10, "Freiburg", coal=2)  # capacity 2
    give_tp(state, "a", "Stuttgart")
    give_tp(state, "a", "Würzburg")
    give_line(state, "a", "Freiburg", "Stuttgart")
    give_line(state, "a", "Stuttgart", "Würzburg")
    money(state, "a", 0)
    return state


def test_alt37_mse_is_half_the_dearest_incident_connection() -> None:
    state = new_game(3)
    assert mse2("germany", state["regions"], "Würzburg") == 19  # MSE 9.5
    assert mse2("germany", state["regions"], "Stuttgart") == 17  # MSE 8.5


def test_alt_d13_mse_counts_only_connections_inside_the_play_area() -> None:
    regions = ["E", "NE", "NW", "SW", "W"]  # SE out: Augsburg (19) no longer counts
    assert mse2("germany", regions, "Würzburg") == 13


def test_alt34_ex_alt1_income_per_city_from_the_cheapest_incoming_line() -> None:
    state = _red_chain()
    assert r.city_income2(state, "a", "Freiburg") == 10
    assert r.city_income2(state, "a", "Stuttgart") == 16  # not 12: that line leads away
    assert r.city_income2(state, "a", "Würzburg") == 12
    act(state, "a", {"type": "power", "plants": [10]})
    assert state["players"]["a"]["money"] == 19
    assert state["players"]["a"]["powered"] == 3


def test_alt34_ex_alt1_variation_a_cheaper_foreign_line_sets_the_price_for_all() -> None:
    state = _red_chain()
    give_plant(state, "b", 13, "Nürnberg")
    give_tp(state, "b", "Würzburg")
    give_line(state, "b", "Nürnberg", "Würzburg")
    assert r.city_income2(state, "a", "Würzburg") == 8
    assert r.city_income2(state, "b", "Würzburg") == 8
    act(state, "a", {"type": "power", "plants": [10]})
    assert state["players"]["a"]["money"] == 17  # 5 + 8 + 4


def test_alt35_ex_alt2_pass_through_line_counts_in_full_capped_at_mse() -> None:
    state = new_game(3)
    power_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 13, "Freiburg")
    give_tp(state, "a", "Würzburg")
    give_line(state, "a", "Freiburg", "Stuttgart", "Würzburg")
    assert r.city_income2(state, "a", "Würzburg") == 19  # (16+12) capped at 19/2
    give_plant(state, "c", 18, "Nürnberg")
    give_tp(state, "c", "Würzburg")
    give_line(state, "c", "Nürnberg", "Würzburg")
    assert r.city_income2(state, "a", "Würzburg") == 8


def test_alt38_ex_alt3_only_the_total_is_rounded_up() -> None:
    state = new_game(3)
    power_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 13, "Freiburg")
    give_tp(state, "a", "Würzburg")
    give_line(state, "a", "Freiburg", "Stuttgart", "Würzburg")
    money(state, "a", 0)
    act(state, "a", {"type": "power", "plants": [13]})
    assert state["players"]["a"]["money"] == 15  # 5 + 9.5 = 14.5 -> 15


def test_alt34_ex_alt11_several_lines_cheapest_qualifying_one_counts() -> None:
    state = new_game(3)
    give_plant(state, "a", 13, "Konstanz")
    give_tp(state, "a", "Freiburg")
    give_line(state, "a", "Konstanz", "Freiburg")  # 14
    assert mse2("germany", state["regions"], "Freiburg") == 16  # MSE 8
    give_plant(state, "b", 18, "Augsburg")
    give_tp(state, "b", "Freiburg")
    give_line(state, "b", "Augsburg", "Stuttgart", "Freiburg")  # 31, passes through
    assert r.city_income2(state, "a", "Freiburg") == 14
    assert r.city_income2(state, "b", "Freiburg") == 14
    state["lines"] = [ln for ln in state["lines"] if ln["owner"] == "b"]
    assert r.city_income2(state, "b", "Freiburg") == 16  # min(31/2, 8)


def test_alt_d26_a_line_from_a_dead_end_does_not_qualify() -> None:
    state = new_game(3)
    give_tp(state, "b", "Stuttgart")
    give_tp(state, "b", "Würzburg")
    give_line(state, "b", "Stuttgart", "Würzburg")  # b has no plant behind it
    assert r.qualifying_lines(state, "Würzburg") == []


def test_alt32_ex_alt5_capacity_one_powers_its_city_and_one_more() -> None:
    state = _red_chain()
    state["built"]["10"]["res"]["coal"] = 0
    give_plant(state, "a", 4, "Konstanz", coal=2)
    del state["built"]["10"]
    state["players"]["a"]["plants"].remove(10)
    state["players"]["a"]["cities"].remove("Freiburg")
    give_plant(state, "a", 3, "Freiburg", oil=0)
    give_line(state, "a", "Konstanz", "Freiburg")
    illegal(
        state,
        "a",
        {"type": "power", "plants": [4], "cities": ["Stuttgart", "Würzburg"]},
        "ALT-D-15",
    )
    act(state, "a", {"type": "power", "plants": [4], "cities": ["Stuttgart"]})
    assert state["players"]["a"]["powered"] == 2


def test_alt32_ex_alt12_pooled_capacity_and_non_running_plant_city() -> None:
    state = new_game(3)
    power_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 13, "Freiburg")  # F, capacity 1, runs
    give_plant(state, "a", 4, "Stuttgart")  # G, no coal
    give_tp(state, "a", "Würzburg")  # H
    give_tp(state, "a", "Konstanz")  # I
    give_line(state, "a", "Freiburg", "Stuttgart")
    give_line(state, "a", "Stuttgart", "Würzburg")
    give_line(state, "a", "Freiburg", "Konstanz")
    money(state, "a", 50)
    illegal(
        state,
        "a",
        {"type": "power", "plants": [13], "cities": ["Würzburg", "Stuttgart"]},
        "ALT-D-15",
    )
    # default choice powers G: +5 and no penalty (ALT-D-16)
    events = act(state, "a", {"type": "power", "plants": [13]})
    powered = next(e for e in events if e["type"] == "powered")
    assert powered["powered"] == ["Freiburg", "Stuttgart"] and powered["penalty_bank"] == 0
    assert state["players"]["a"]["money"] == 60


def test_alt36_ex_alt12_unpowered_plant_city_pays_5_to_the_bank() -> None:
    state = new_game(3)
    power_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 13, "Freiburg")
    give_plant(state, "a", 4, "Stuttgart")
    give_tp(state, "a", "Würzburg")
    give_line(state, "a", "Freiburg", "Stuttgart")
    give_line(state, "a", "Stuttgart", "Würzburg")
    money(state, "a", 50)
    events = act(state, "a", {"type": "power", "plants": [13], "cities": ["Würzburg"]})
    powered = next(e for e in events if e["type"] == "powered")
    assert powered["income"] == 11  # 5 + 12/2
    assert powered["penalty_bank"] == 5
    assert state["players"]["a"]["money"] == 56


def test_alt36_ex_alt7_displacer_compensates_hanging_line_owners() -> None:
    state = new_game(3)
    set_phase(state, "build", order=["c", "a", "b"], step=2)
    give_plant(state, "a", 13, "Freiburg")
    give_line(state, "a", "Freiburg", "Stuttgart")
    give_tp(state, "a", "Stuttgart")
    from .helpers import give_hand

    give_hand(state, "b", 4)
    act(state, "b", {"type": "build_plant", "plant": 4, "city": "Stuttgart"})
    power_turn(state, "b", ["a", "c"])
    money(state, "b", 20)
    money(state, "a", 0)
    events = act(state, "b", {"type": "power", "plants": []})
    powered = next(e for e in events if e["type"] == "powered")
    assert powered["penalty_bank"] == 5 and powered["penalty_players"] == {"a": 5}
    assert state["players"]["b"]["money"] == 10 and state["players"]["a"]["money"] == 5


def test_alt36_ex_alt7_extended_line_earns_nothing() -> None:
    state = new_game(3)
    set_phase(state, "build", order=["c", "b", "a"], step=2)
    give_plant(state, "a", 13, "Freiburg")
    give_line(state, "a", "Freiburg", "Stuttgart")
    give_plant(state, "b", 4, "Stuttgart")
    state["displacer"]["Stuttgart"] = "b"
    act(state, "a", {"type": "line", "cities": ["Stuttgart", "Würzburg"]})
    assert r.penalties(state, "b", []) == (5, {})


def test_alt_d17_compensation_is_per_owner_not_per_line() -> None:
    state = new_game(3)
    give_plant(state, "a", 13, "Freiburg")
    give_plant(state, "a", 18, "Mannheim")
    give_line(state, "a", "Freiburg", "Stuttgart")
    give_line(state, "a", "Mannheim", "Stuttgart")
    give_plant(state, "b", 4, "Stuttgart")
    state["displacer"]["Stuttgart"] = "b"
    assert r.penalties(state, "b", []) == (5, {"a": 5})


def test_alt_d29_plant_owner_of_a_double_city_pays_hanging_lines_he_did_not_displace() -> None:
    # Duisburg/Essen is one node with two plant slots (ALT-46); c's line hangs there since a
    # displaced c's TP; b built the second plant later. b's city unpowered: b pays c.
    state = new_game(3)
    give_plant(state, "c", 13, "Dortmund")
    give_line(state, "c", "Dortmund", "Duisburg")
    give_plant(state, "a", 18, "Duisburg")
    state["displacer"]["Duisburg"] = "a"
    give_plant(state, "b", 4, "Duisburg")
    assert r.is_hanging_at(state, state["lines"][0], "Duisburg")
    assert r.penalties(state, "b", []) == (5, {"c": 5})
    assert r.penalties(state, "a", []) == (5, {"c": 5})
    assert r.penalties(state, "b", ["Duisburg"]) == (0, {})
    # /rules ALT-36 says so: it read "if you pushed other players' TPs out of that city"
    alt36 = next(x for x in rulebook.load("powergrid_alt").rules if x.id == "ALT-36")
    assert "even when another player's plant pushed his TP out" in alt36.text
    assert "If you pushed" not in alt36.text


def test_alt_d18_penalties_to_players_first_never_below_zero() -> None:
    state = new_game(3)
    power_turn(state, "b", ["a", "c"])
    give_plant(state, "a", 13, "Freiburg")
    give_line(state, "a", "Freiburg", "Stuttgart")
    give_plant(state, "b", 4, "Stuttgart")
    state["displacer"]["Stuttgart"] = "b"
    money(state, "b", 7)
    money(state, "a", 0)
    events = act(state, "b", {"type": "power", "plants": []})
    powered = next(e for e in events if e["type"] == "powered")
    assert powered["penalty_players"] == {"a": 5} and powered["penalty_bank"] == 2
    assert state["players"]["b"]["money"] == 0


def test_alt31_alt_d14_a_plant_burns_only_its_own_tokens() -> None:
    state = new_game(3)
    power_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 4, "Freiburg")
    give_plant(state, "a", 10, "Stuttgart", coal=4)
    illegal(state, "a", {"type": "power", "plants": [4]}, "ALT-D-14")
    act(state, "a", {"type": "power", "plants": [10]})
    assert state["built"]["10"]["res"]["coal"] == 2 and r.conserved(state)


def test_alt8_hand_plants_do_not_run() -> None:
    state = new_game(3)
    power_turn(state, "a", ["b", "c"])
    from .helpers import give_hand

    give_hand(state, "a", 13)
    illegal(state, "a", {"type": "power", "plants": [13]}, "ALT-8")


def test_alt39_ex_alt14_round_one_no_income_and_penalty() -> None:
    state = new_game(2)
    set_phase(state, "build", round_=1, order=["b", "a"])
    from .helpers import give_hand

    give_hand(state, "a", 4)
    act(state, "a", {"type": "build_plant", "plant": 4, "city": "Kiel"})
    act(state, "a", {"type": "done"})
    act(state, "b", {"type": "done"})
    assert state["phase"] == "bureaucracy"
    before = state["players"]["a"]["money"]
    act(state, "b", {"type": "power", "plants": []})
    events = act(state, "a", {"type": "power", "plants": []})
    powered = next(e for e in events if e["type"] == "powered")
    assert powered["income"] == 0 and powered["penalty_bank"] == 5
    assert state["players"]["a"]["money"] == before - 5
    assert state["players"]["b"]["money"] == 75  # no 10 E minimum income


def test_alt30_restock_and_market_update_follow_phase_5() -> None:
    state = new_game(2)
    power_turn(state, "a", ["b"])
    rm = dict(state["rm"])
    act(state, "a", {"type": "power", "plants": []})
    events = act(state, "b", {"type": "power", "plants": []})
    kinds = [e["type"] for e in events]
    assert "market_restocked" in kinds and state["phase"] == "auction"
    assert state["rm"] != rm
