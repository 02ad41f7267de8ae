"""Optional variants HEX-OPT-A..E (HEX-23, the source's (а)–(е)) and the round limit."""

import pytest

from engine.core import IllegalAction
from engine.hexania import GAME, rules
from tests.engine.hexania.helpers import events_of, frozen, pieces, position


def refused(state, action, rule, player="blue"):  # type: ignore[no-untyped-def]
    before = frozen(state)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, player, action)
    assert err.value.rule_id == rule, err.value
    assert frozen(state) == before


def test_hex23_every_variant_is_a_table_option() -> None:
    keys = {o.key: o for o in GAME.options}
    assert set(keys) == {
        "split",
        "guard",
        "bastions",
        "birthattack",
        "viscous",
        "mergebirth",
        "rounds",
    }
    assert keys["rounds"].default == "30"
    with pytest.raises(IllegalAction):
        GAME.setup(["a", "b"], {"teleport": "yes"}, 1)
    with pytest.raises(IllegalAction):
        GAME.setup(["a", "b"], {"split": "maybe"}, 1)
    assert GAME.setup(["a", "b"], {"split": "yes"}, 1)["options"]["split"] is True


def test_hex_opt_a_regroup_may_split_but_stays_adjacent() -> None:
    pieces_ = {"blue": ["L10", "L11", "L12"]}
    regroup = {"type": "regroup", "from": "L11", "to": "K12"}
    refused(position(pieces_), regroup, "HEX-9")
    state = position(pieces_, options={"split": "yes"})
    GAME.apply(state, "blue", regroup)
    figs = GAME.view(state, None)["players"]["blue"]["figures"]
    assert sorted(f["mass"] for f in figs) == [1, 2]
    refused(position(pieces_, options={"split": "yes"}), {**regroup, "to": "L20"}, "HEX-9")


def test_hex_opt_b_homeland_closed_until_its_owner_lost_a_piece() -> None:
    opts = {"guard": "yes"}
    state = position({"blue": ["V6"], "red": ["L2"]}, options=opts)  # not blue's first turn
    refused(state, {"type": "move", "figure": "V6", "dir": "SE", "steps": 1}, "HEX-OPT-B")
    state["lost_piece"]["red"] = True
    GAME.apply(state, "blue", {"type": "move", "figure": "V6", "dir": "SE", "steps": 1})
    assert pieces(state, "blue") == ["W6"]
    # an attack sets the flag; the flag lifts the restriction for good
    state = position({"blue": ["L11", "L12"], "red": ["L13"]}, options=opts)
    GAME.apply(state, "blue", {"type": "grow", "figure": "L12", "cell": "L13"})
    assert state["lost_piece"] == {"blue": False, "red": True}
    # with the option, HEX-12 is replaced: a first turn may enter a homeland that lost a piece
    state = position({"blue": ["V6"], "red": ["L2"]}, options=opts, first=True)
    state["lost_piece"]["red"] = True
    GAME.apply(state, "blue", {"type": "move", "figure": "V6", "dir": "SE", "steps": 1})
    assert pieces(state, "blue") == ["W6"]


def test_hex_opt_b_collapse_is_not_a_destruction() -> None:
    row = [f"L{i}" for i in range(2, 13)]
    state = position({"red": row}, turn="red", points=11, options={"guard": "yes"})
    GAME.apply(state, "red", {"type": "grow", "figure": "L2", "cell": "L13", "keep": "L2"})
    assert state["lost_piece"]["red"] is False


def test_hex_opt_v_no_collapse() -> None:
    row = [f"L{i}" for i in range(2, 13)]
    state = position({"blue": row}, points=12, options={"bastions": "yes"})
    _, events = GAME.apply(state, "blue", {"type": "grow", "figure": "L2", "cell": "L13"})
    assert events[0]["mass"] == 12 and not events_of(events, "collapsed")
    assert len(pieces(state, "blue")) == 12


def test_hex_opt_g_attack_by_birth_on_an_occupied_homeland_cell() -> None:
    opts = {"birthattack": "yes"}
    state = position({"red": ["A5", "B5"]}, points=5, options=opts)
    refused(state, {"type": "birth", "cell": "A8"}, "HEX-OPT-G")
    plan = rules.price(state, "blue", {"type": "birth", "cell": "A5"})
    assert plan.cost == 2 + 1
    _, events = GAME.apply(state, "blue", {"type": "birth", "cell": "A5"})
    assert state["board"]["A5"] == "blue" and pieces(state, "red") == ["B5"]
    assert state["bonus"]["blue"] == 1 and events_of(events, "destroyed")[0]["count"] == 1
    # HEX-D-21: rule 11 still applies to the new piece
    state = position({"blue": ["A6"], "red": ["A5"]}, points=5, options=opts)
    refused(state, {"type": "birth", "cell": "A5"}, "HEX-11")
    state = position(
        {"blue": ["A6"], "red": ["A5"]}, points=5, options={**opts, "mergebirth": "yes"}
    )
    GAME.apply(state, "blue", {"type": "birth", "cell": "A5"})
    assert pieces(state, "blue") == ["A5", "A6"]
    # without the option an occupied homeland simply blocks births (HEX-5)
    refused(position({"red": ["A5"]}), {"type": "birth", "cell": "A5"}, "HEX-5")


def test_ex_hex19_hex_opt_d_viscous_movement_costs_lines() -> None:
    fig = {"blue": ["L12", "L13", "K12", "M12"]}
    state = position(fig, points=6, options={"viscous": "yes"})
    east = {"type": "move", "figure": "L12", "dir": "E", "steps": 3}
    south_east = {"type": "move", "figure": "L12", "dir": "SE", "steps": 4}
    assert rules.price(state, "blue", east).cost == 3 + 3
    assert rules.price(state, "blue", south_east).cost == 2 + 4
    plain = position(fig, points=6)
    assert rules.price(plain, "blue", east).cost == 4 + 3
    GAME.apply(state, "blue", south_east)
    assert pieces(state, "blue") == ["O13", "P12", "P13", "Q12"]


def test_hex_opt_e_birth_may_merge() -> None:
    state = position({"blue": ["A5"]}, points=4, options={"mergebirth": "yes"})
    _, events = GAME.apply(state, "blue", {"type": "birth", "cell": "A6"})
    assert events[0]["mass"] == 2
    refused(position({"blue": ["A5"]}, points=4), {"type": "birth", "cell": "A6"}, "HEX-11")
