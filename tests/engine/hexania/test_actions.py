"""The actions HEX-3..22 and the source's worked examples EX-HEX-1 and EX-HEX-5..19."""

import copy

import pytest

from engine.core import IllegalAction
from engine.hexania import GAME, rules
from tests.engine.hexania.helpers import events_of, frozen, pieces, position


def act(state, action, player="blue"):  # type: ignore[no-untyped-def]
    return GAME.apply(state, player, action)


def refused(state, action, rule, player="blue"):  # type: ignore[no-untyped-def]
    before = frozen(state)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, player, action)
    assert err.value.rule_id == rule, err.value
    assert frozen(state) == before
    return err.value


def cost(state, action, player="blue") -> int:  # type: ignore[no-untyped-def]
    return rules.price(state, player, action).cost


def move(fig: str, d: str, k: int, **extra: str) -> dict:
    return {"type": "move", "figure": fig, "dir": d, "steps": k, **extra}


# ---------------------------------------------------------------- birth, growth


def test_hex3_birth_on_own_empty_homeland_costs_1() -> None:
    state = position({"red": ["L12"]}, points=5)
    _, events = act(state, {"type": "birth", "cell": "A6"})
    assert state["board"]["A6"] == "blue" and state["turn"]["points"] == 4
    assert events[0]["type"] == "birth" and events[0]["cost"] == 1
    refused(state, {"type": "birth", "cell": "W6"}, "HEX-3")  # red's homeland
    refused(state, {"type": "birth", "cell": "L13"}, "HEX-3")  # ordinary cell
    refused(state, {"type": "birth", "cell": "A6"}, "HEX-3")  # taken


def test_hex4_growth_costs_the_mass_and_must_touch_the_figure() -> None:
    state = position({"blue": ["L10", "L11", "L12"]}, points=10)
    assert cost(state, {"type": "grow", "figure": "L10", "cell": "L13"}) == 3
    refused(state, {"type": "grow", "figure": "L10", "cell": "L15"}, "HEX-4")
    refused(state, {"type": "grow", "figure": "L10", "cell": "L11"}, "HEX-4")
    refused(state, {"type": "grow", "figure": "L20", "cell": "L21"}, "HEX-4")
    act(state, {"type": "grow", "figure": "L11", "cell": "K12"})
    assert state["turn"]["points"] == 7 and len(pieces(state, "blue")) == 4


def test_ex_hex5_growth_chain_then_points_lost() -> None:
    state = position({"blue": ["L12"], "red": ["A5"]}, points=8)
    act(state, {"type": "grow", "figure": "L12", "cell": "L13"})
    act(state, {"type": "grow", "figure": "L12", "cell": "L14"})
    _, events = act(state, {"type": "grow", "figure": "L12", "cell": "L15"})
    ended = events_of(events, "turn_ended")
    assert ended == [
        {
            "type": "turn_ended",
            "round": 3,
            "player": "blue",
            "reason": "no_points",
            "lost": 2,
            "actions": 3,
        }
    ]
    assert "blue" not in state["eliminated"] and pieces(state, "blue") == [
        "L12",
        "L13",
        "L14",
        "L15",
    ]
    assert GAME.current_players(state) == ["red"]


def test_hex5_enemy_piece_on_homeland_blocks_all_births() -> None:
    state = position({"red": ["A9"]}, points=6)
    refused(state, {"type": "birth", "cell": "A5"}, "HEX-5")
    # own pieces on the homeland do not block births elsewhere
    state = position({"blue": ["A4"]}, points=6)
    act(state, {"type": "birth", "cell": "A7"})
    assert state["board"]["A7"] == "blue"


def test_ex_hex9_hex10_hex11_merge_trick_and_no_merging_birth() -> None:
    state = position({}, points=5)
    for cell in ("A4", "A6", "A8"):
        act(state, {"type": "birth", "cell": cell})
    _, events = act(state, {"type": "grow", "figure": "A4", "cell": "A5"})
    assert events[0]["mass"] == 3 and events[0]["cost"] == 1
    # HEX-D-22: A7 touches {A4,A5,A6} too, but the designated figure {A8} has mass 1
    _, events = act(state, {"type": "grow", "figure": "A8", "cell": "A7"})
    assert events[0]["cost"] == 1 and events[0]["mass"] == 5
    figures = [f for f in GAME.view(state, None)["players"]["blue"]["figures"]]
    assert figures == [{"cells": ["A4", "A5", "A6", "A7", "A8"], "mass": 5}]
    # illegal alternative: births in a row
    state = position({}, points=5)
    act(state, {"type": "birth", "cell": "A4"})
    refused(state, {"type": "birth", "cell": "A5"}, "HEX-11")


# ---------------------------------------------------------------- movement


def test_ex_hex1_several_actions_in_one_turn() -> None:
    start = position({"blue": ["L12", "L13"]}, points=5)
    a = copy.deepcopy(start)
    _, events = act(a, move("L12", "E", 3))
    assert events[0]["cost"] == 5 and pieces(a, "blue") == ["L15", "L16"]
    b = copy.deepcopy(start)
    act(b, move("L12", "E", 1))
    act(b, {"type": "birth", "cell": "A6"})
    _, events = act(b, {"type": "grow", "figure": "A6", "cell": "B7"})
    assert events[0]["cost"] == 1 and events_of(events, "turn_ended")[0]["lost"] == 0
    assert pieces(b, "blue") == ["A6", "B7", "L13", "L14"]


def test_ex_hex6_hex7_movement_costs_inertia_plus_steps() -> None:
    state = position({"blue": ["L12", "L13", "K12", "M12"]}, points=6)
    for d in ("E", "NE", "NW", "W", "SW", "SE"):
        assert cost(state, move("L12", d, 2)) == 6
    act(state, move("L12", "E", 2))
    assert pieces(state, "blue") == ["K14", "L14", "L15", "M14"]


def test_ex_hex7_change_of_direction_pays_inertia_again() -> None:
    state = position({"blue": ["L10", "L11", "L12"]}, points=11)
    act(state, move("L10", "E", 3))
    assert pieces(state, "blue") == ["L13", "L14", "L15"] and state["turn"]["points"] == 5
    _, events = act(state, move("L13", "SE", 2))
    assert events[0]["cost"] == 5 and pieces(state, "blue") == ["N13", "N14", "N15"]


def test_ex_hex17_hexd11_figure_never_leaves_the_board() -> None:
    state = position({"blue": ["A5", "A6"], "red": ["A12"]}, points=12)
    refused(state, move("A5", "NW", 1), "HEX-D-11")
    refused(state, move("A5", "NE", 1), "HEX-D-11")
    state = position({"blue": ["A10", "A11"], "red": ["A12"]}, points=12)
    refused(state, move("A10", "E", 2), "HEX-D-11")
    _, events = act(state, move("A10", "E", 1))
    assert events_of(events, "destroyed")[0]["cells"] == ["A12"]


def test_ex_hex18_hex8_no_passing_through_own_pieces() -> None:
    state = position({"blue": ["L10", "L12"]}, points=12)
    refused(state, move("L10", "E", 4), "HEX-8")
    refused(state, move("L10", "E", 2), "HEX-8")
    _, events = act(state, move("L10", "E", 1))
    assert events[0]["mass"] == 2 and pieces(state, "blue") == ["L11", "L12"]


def test_hexd13_passing_next_to_own_figure_does_not_merge() -> None:
    state = position({"blue": ["L10", "K13"]}, points=12)
    _, events = act(state, move("L10", "E", 6))
    assert events[0]["cost"] == 7 and events[0]["mass"] == 1
    assert pieces(state, "blue") == ["K13", "L16"]


# ---------------------------------------------------------------- regroup


def test_ex_hex8_hex9_regroup_costs_mass() -> None:
    state = position({"blue": ["L10", "L11", "L12", "L13"]}, points=4)
    assert cost(state, move("L10", "E", 1)) == 5
    _, events = act(state, {"type": "regroup", "from": "L10", "to": "L14"})
    assert events[0]["cost"] == 4 and pieces(state, "blue") == ["L11", "L12", "L13", "L14"]


def test_hex9_regroup_may_not_break_the_figure_nor_teleport() -> None:
    state = position({"blue": ["L10", "L11", "L12", "A1"]}, points=12)
    refused(state, {"type": "regroup", "from": "L11", "to": "K11"}, "HEX-9")  # breaks
    refused(state, {"type": "regroup", "from": "L10", "to": "L20"}, "HEX-9")  # far away
    refused(state, {"type": "regroup", "from": "A1", "to": "A2"}, "HEX-9")  # mass 1
    refused(state, {"type": "regroup", "from": "L10", "to": "L12"}, "HEX-9")  # own cell
    act(state, {"type": "regroup", "from": "L10", "to": "K12"})
    assert pieces(state, "blue") == ["A1", "K12", "L11", "L12"]


# ---------------------------------------------------------------- attack


def test_ex_hex10_hex15_armour_is_mass_difference() -> None:
    state = position(
        {"blue": ["L8", "L9", "L10", "L11", "L12"], "red": ["L13", "L14", "L15"]}, points=12
    )
    assert cost(state, {"type": "grow", "figure": "L12", "cell": "L13"}) == 5 + 0
    state = position({"blue": ["L5", "L6"], "red": [f"L{i}" for i in range(7, 14)]}, points=12)
    plan = rules.price(state, "blue", {"type": "grow", "figure": "L6", "cell": "L7"})
    assert plan.armour_cost == 7 - 2 and plan.cost == 2 + 5


def test_ex_hex11_hex14_hex16_hex19_attack_by_movement_splits_the_defender() -> None:
    state = position(
        {"blue": ["L12", "L13", "L14"], "red": ["N11", "N12", "N13", "N14", "N15"]}, points=8
    )
    _, events = act(state, move("L12", "SE", 3))
    assert events[0]["cost"] == 8 and events[0]["armour"] == 2
    assert pieces(state, "blue") == ["O12", "O13", "O14"]
    assert pieces(state, "red") == ["N11", "N15"]
    destroyed = events_of(events, "destroyed")[0]
    assert destroyed["count"] == 3 and destroyed["remains"] == [[1, 1]]
    assert state["bonus"]["blue"] == 3
    red = GAME.view(state, None)["players"]["red"]["figures"]
    assert sorted(f["mass"] for f in red) == [1, 1]


def test_hex18_unaffordable_action_is_illegal_and_nothing_is_paid() -> None:
    state = position(
        {"blue": ["L12", "L13", "L14"], "red": ["N11", "N12", "N13", "N14", "N15"]}, points=7
    )
    err = refused(state, move("L12", "SE", 3), "HEX-18")
    assert err.params == {"cost": 8, "points": 7}


def test_ex_hex12_hex20_movement_sweeps_every_figure_on_its_path() -> None:
    state = position(
        {
            "blue": ["L12", "L13", "L14"],
            "red": ["M12", "M13", "M14", "N14", "P12", "P13", "P14"],
        },
        points=9,
    )
    plan = rules.price(state, "blue", move("L12", "SE", 5))
    assert sorted(a["cost"] for a in plan.armour) == [0, 1] and plan.cost == 9
    act(state, move("L12", "SE", 5))
    assert pieces(state, "red") == [] and pieces(state, "blue") == ["Q12", "Q13", "Q14"]
    assert state["bonus"]["blue"] == 7


def test_ex_hex13_hex21_attack_by_regroup() -> None:
    state = position({"blue": ["L11", "L12"], "red": ["L13"]}, points=12)
    _, events = act(state, {"type": "regroup", "from": "L11", "to": "L13"})
    assert events[0]["cost"] == 2 and pieces(state, "blue") == ["L12", "L13"]
    assert state["bonus"]["blue"] == 1 and pieces(state, "red") == []
    state = position({"blue": ["L11", "L12"], "red": ["L13", "L14", "L15", "L16"]}, points=12)
    assert cost(state, {"type": "regroup", "from": "L11", "to": "L13"}) == 4
    # a single piece cannot attack by regroup
    state = position({"blue": ["L12"], "red": ["L13"]}, points=12)
    refused(state, {"type": "regroup", "from": "L12", "to": "L13"}, "HEX-9")
    assert cost(state, move("L12", "E", 1)) == 2
    assert cost(state, {"type": "grow", "figure": "L12", "cell": "L13"}) == 1


def test_ex_hex14_hex22_attack_by_growth() -> None:
    state = position(
        {"blue": ["L10", "L11", "L12"], "red": ["L13", "L14", "L15", "L16", "L17"]}, points=12
    )
    _, events = act(state, {"type": "grow", "figure": "L10", "cell": "L13"})
    assert events[0]["cost"] == 5 and events[0]["mass"] == 4
    assert pieces(state, "red") == ["L14", "L15", "L16", "L17"]
    assert state["bonus"]["blue"] == 1


# ---------------------------------------------------------------- collapse, first turn


def test_ex_hex16_hex13_collapse_keeps_the_chosen_cell() -> None:
    row = [f"L{i}" for i in range(2, 13)]
    state = position({"blue": row}, points=11)
    err = refused(state, {"type": "grow", "figure": "L2", "cell": "L13"}, "HEX-13")
    assert err.params["mass"] == 12
    refused(state, {"type": "grow", "figure": "L2", "cell": "L13", "keep": "A1"}, "HEX-13")
    _, events = act(state, {"type": "grow", "figure": "L2", "cell": "L13", "keep": "L7"})
    assert pieces(state, "blue") == ["L7"]
    assert events_of(events, "collapsed")[0]["removed"] == 11
    assert state["bonus"]["blue"] == 0 and state["bonus"]["red"] == 0
    # a mass-7 figure moving next to a mass-5 one merges to 12 and collapses
    state = position({"blue": [f"L{i}" for i in range(2, 9)] + [f"N{i}" for i in range(2, 7)]})
    _, events = act(state, move("L2", "SE", 1, keep="N6"))
    assert events[0]["cost"] == 8 and pieces(state, "blue") == ["N6"]
    # HEX-OPT-V: nothing collapses
    state = position({"blue": row}, points=11, options={"bastions": "yes"})
    act(state, {"type": "grow", "figure": "L2", "cell": "L13"})
    assert len(pieces(state, "blue")) == 12


def test_hext5_collapse_after_destruction_attack_still_earns_bonus() -> None:
    row = [f"L{i}" for i in range(2, 13)]
    state = position({"blue": row, "red": ["L13", "L14"]}, points=12)
    _, events = act(state, {"type": "grow", "figure": "L2", "cell": "L13", "keep": "L13"})
    assert pieces(state, "blue") == ["L13"] and pieces(state, "red") == ["L14"]
    assert state["bonus"]["blue"] == 1
    assert [e["type"] for e in events[:3]] == ["grow", "destroyed", "collapsed"]


def _six() -> dict:
    return dict(
        players=("blue", "ne", "se", "s", "sw", "nw"),
        sides=("N", "NE", "SE", "S", "SW", "NW"),
    )


def test_ex_hex15_hex12_first_turn_may_not_occupy_another_homeland() -> None:
    state = position({}, points=9, first=True, **_six())
    act(state, {"type": "birth", "cell": "A9"})
    act(state, move("A9", "SE", 3))
    assert pieces(state, "blue") == ["D12"]
    err = refused(state, move("D12", "E", 3), "HEX-12")
    assert err.params == {"cell": "D15", "owner": "ne"}
    later = position({"blue": ["D12"]}, points=9, **_six())
    act(later, move("D12", "E", 3))
    assert pieces(later, "blue") == ["D15"]


def test_hexd14_first_turn_may_pass_through_another_homeland() -> None:
    state = position({"blue": ["J1"]}, points=12, first=True, **_six())
    refused(state, move("J1", "NE", 6), "HEX-12")  # ends on D1 (NW homeland)
    act(state, move("J1", "NE", 7))
    assert pieces(state, "blue") == ["C1"]


def test_hex12_collapse_keep_cell_on_a_foreign_homeland_is_refused() -> None:
    # D4..D14 (mass 11) grows onto D15, a homeland cell of NE, and collapses
    state = position({"blue": [f"D{i}" for i in range(4, 15)]}, points=11, first=True, **_six())
    refused(state, {"type": "grow", "figure": "D4", "cell": "D15", "keep": "D15"}, "HEX-12")
    act(state, {"type": "grow", "figure": "D4", "cell": "D15", "keep": "D9"})
    assert pieces(state, "blue") == ["D9"]
