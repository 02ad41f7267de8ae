"""The phases of a turn, continued: missile fire, the effectors and the economy, the
technologies (IEC-16, IEC-S-13..S-20, IEC-23..25, IEC-TECH-n) and the end (IEC-S-9)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import IllegalAction
from engine.iec import actions, choices, production, rules
from tests.engine.iec.helpers import add, at, count_successes, dice, do, empty, new, two

AC1 = {"AC": 2}

# ---------------------------------------------------------------- launchers


def fire_state(
    target: str, techs: list[int] | None = None, radiation: int = 8, launcher_modules: int = 3
) -> dict[str, Any]:
    st, p1, p2 = two()
    add(st, p1, "launcher", "I5", modules=launcher_modules)
    add(st, p1, "storage", "I7", goods={"AC": 3})
    add(st, p2, "storage", target)
    st["players"][p1]["techs"] = list(techs or [])
    st["radiation"] = radiation
    return at(st, 9, p1)


def _hit(st: dict[str, Any], target: str, n: int = 1) -> bool:
    do(st, st["actor"], {"type": "fire", "launcher": "I5", "targets": {target: n}})
    return st["buildings"][target]["modules"] == 1


def test_iec_16_2_ex3_base_range_hits_two_in_three() -> None:
    assert round(rules.scen(new()).distance("I5", "R3"), 1) == 18.4
    assert count_successes(lambda: fire_state("R3"), lambda st: _hit(st, "R3")) == 4


def test_iec_16_2_ex3_extended_range_hits_one_in_two() -> None:
    assert round(rules.scen(new()).distance("I5", "T12"), 1) == 26.1
    assert count_successes(lambda: fire_state("T12"), lambda st: _hit(st, "T12")) == 3


def test_iec_16_1_ex3_beyond_twice_range_cannot_be_targeted() -> None:
    st = fire_state("X16")  # 2*sqrt(15²+11²) = 37.2 -> in reach; use a farther one
    assert choices.hit_threshold(st, st["buildings"]["I5"], "X16") == 4
    st, p1, _p2 = two()
    add(st, p1, "launcher", "A1")
    assert rules.scen(st).distance("A1", "X13") > 40
    assert choices.hit_threshold(st, st["buildings"]["A1"], "X13") is None


def test_iec_tech12_ex6_satellite_positioning_needs_low_radiation() -> None:
    st = fire_state("T12", techs=[12], radiation=5)
    assert choices.hit_threshold(st, st["buildings"]["I5"], "T12") == 3
    st["radiation"] = 7
    assert choices.hit_threshold(st, st["buildings"]["I5"], "T12") == 4


def test_iec_16_5_d7_ex4_two_hits_on_one_target_destroy_one_module() -> None:
    st = fire_state("R3")
    st["buildings"]["R3"]["kind"] = "developer"
    st["buildings"]["R3"]["modules"] = 3
    with dice(6, 6):
        do(st, st["actor"], {"type": "fire", "launcher": "I5", "targets": {"R3": 2}})
    assert st["buildings"]["R3"]["modules"] == 2
    assert st["buildings"]["I7"]["goods"]["AC"] == 1  # 1 AC per missile


def test_iec_tech10_ex4_multiple_targets_each_lose_a_module() -> None:
    st = fire_state("R3", techs=[10])
    add(st, next(p for p in st["players"] if p != st["actor"]), "storage", "M3")
    with dice(6, 6):
        do(st, st["actor"], {"type": "fire", "launcher": "I5", "targets": {"R3": 1, "M3": 1}})
    assert st["buildings"]["R3"]["modules"] == 1 and st["buildings"]["M3"]["modules"] == 1


def test_iec_s19_2_launcher_fires_two_from_first_module_salvo_needs_undamaged() -> None:
    # Corrections 1.1 (IEC-16.2, IEC-16.4, IEC-S-19.2): 2 missiles in the base configuration,
    # from the first module; "undamaged" gates only the Missile Salvo bonus.
    st = fire_state("R3")
    la = st["buildings"]["I5"]
    assert choices.launcher_shots(st, la) == 2
    st["players"][st["actor"]]["techs"] = [9]
    assert choices.launcher_shots(st, la) == 3
    la["modules"] = 1
    assert choices.launcher_shots(st, la) == 2
    with pytest.raises(IllegalAction):
        do(st, st["actor"], {"type": "fire", "launcher": "I5", "targets": {"R3": 3}})
    with dice(1, 1):
        do(st, st["actor"], {"type": "fire", "launcher": "I5", "targets": {"R3": 2}})


def test_iec_16_4_launcher_operates_with_its_first_module() -> None:
    st = fire_state("R3", launcher_modules=1)
    with dice(6):
        assert _hit(st, "R3")


def test_iec_s19_6_own_buildings_cannot_be_targeted() -> None:
    st = fire_state("R3")
    st["buildings"]["R3"]["owner"] = st["actor"]
    with pytest.raises(IllegalAction) as e:
        do(st, st["actor"], {"type": "fire", "launcher": "I5", "targets": {"R3": 1}})
    assert e.value.rule_id == "IEC-S-19.6"


def anti_state(radiation: int, dist_cell: str = "R6") -> dict[str, Any]:
    st = fire_state("R3", radiation=radiation)
    p2 = next(p for p in st["players"] if p != st["actor"])
    st["players"][p2]["techs"] = [11]
    add(st, p2, "launcher", dist_cell)
    add(st, p2, "storage", "R8", goods={"AC": 1})
    return st


@pytest.mark.parametrize(("radiation", "saves"), [(8, 2), (5, 3)])
def test_iec_tech11_ex5_anti_missile_cancels_on_5_plus_when_radiation_high(
    radiation: int, saves: int
) -> None:
    def check(st: dict[str, Any]) -> bool:
        import engine.iec.actions as A

        orig = A._roll
        seq = [6]  # the missile hits; then the forced face is the interception roll

        def roll(state: dict[str, Any]) -> int:
            return seq.pop(0) if seq else orig(state)

        A._roll = roll  # type: ignore[assignment]
        try:
            do(st, st["actor"], {"type": "fire", "launcher": "I5", "targets": {"R3": 1}})
        finally:
            A._roll = orig
        assert st["buildings"]["R8"]["goods"]["AC"] == 0
        return st["buildings"]["R3"]["modules"] == 2

    assert count_successes(lambda: anti_state(radiation), check) == saves


def test_iec_d8_anti_missile_only_within_base_range() -> None:
    st = anti_state(5, dist_cell="X14")  # 2*sqrt(6²+11²) = 25 cm from R3
    assert actions._interceptors(st, "R3") == []


# ---------------------------------------------------------------- effectors and economy


@pytest.mark.parametrize(("radiation", "wins"), [(3, 5), (6, 4), (10, 3)])
def test_iec_s17_ex14_transmission_odds_by_radiation(radiation: int, wins: int) -> None:
    def make() -> dict[str, Any]:
        st, p1, _ = two()
        add(st, p1, "transmitter", "G3")
        add(st, p1, "storage", "E3", goods={"BC": 2})
        st["radiation"] = radiation
        return at(st, 10, p1)

    def check(st: dict[str, Any]) -> bool:
        do(st, st["actor"], {"type": "transmit", "building": "G3"})
        assert st["buildings"]["E3"]["goods"]["BC"] == 1  # lost on failure too
        return st["players"][st["actor"]]["vp"] == 1

    assert count_successes(make, check) == wins


def test_iec_tech8_fast_transmission_second_launch_on_4_plus() -> None:
    st, p1, _ = two()
    add(st, p1, "transmitter", "G3")
    add(st, p1, "storage", "E3", goods={"BC": 2})
    st["players"][p1]["techs"] = [8]
    st["radiation"] = 3
    at(st, 10, p1)
    with dice(6, 4, 6):
        do(st, p1, {"type": "transmit", "building": "G3"})
    assert st["players"][p1]["vp"] == 2 and 8 in st["players"][p1]["revealed"]


def test_iec_s16_laboratory_five_in_six() -> None:
    def make() -> dict[str, Any]:
        st, p1, _ = two()
        add(st, p1, "laboratory", "G3")
        add(st, p1, "storage", "E3", goods={"BC": 1, "AC": 1})
        return at(st, 11, p1)

    def check(st: dict[str, Any]) -> bool:
        do(st, st["actor"], {"type": "research", "building": "G3"})
        assert st["buildings"]["E3"]["goods"]["BC"] == 0
        return st["players"][st["actor"]]["science"] == 1

    assert count_successes(make, check) == 5


def test_iec_s13_mine_extracts_with_deposit_threshold_into_linked_storage() -> None:
    def make() -> dict[str, Any]:
        st, p1, _ = two()
        add(st, p1, "mine", "A1")
        add(st, p1, "storage", "C1")
        add(st, p1, "storage", "E3", goods={})  # 8.9 cm: not linked to the mine
        st["players"][p1]["orders"]["extract"]["A1"] = "C"
        return st

    def check(st: dict[str, Any]) -> bool:
        production.extract(st, [])
        assert st["buildings"]["E3"]["goods"]["C"] == 0
        return st["buildings"]["C1"]["goods"]["C"] == 1

    assert count_successes(make, check) == 3  # home deposit C 4+


def test_iec_tech5_advanced_mining_extra_unit_on_4_plus() -> None:
    st, p1, _ = two()
    add(st, p1, "mine", "A1")
    add(st, p1, "storage", "C1")
    st["players"][p1]["techs"] = [5]
    st["players"][p1]["orders"]["extract"]["A1"] = "A"
    with dice(3, 4):
        production.extract(st, [])
    assert st["buildings"]["C1"]["goods"]["A"] == 2


def test_iec_s14_capacity_4_compression_5_damaged_2_per_module() -> None:
    st, p1, _ = two()
    s = add(st, p1, "storage", "C1")
    assert rules.capacity(st, s) == 4
    st["players"][p1]["techs"] = [7]
    assert rules.capacity(st, s) == 5
    s["goods"].update({"A": 3, "AB": 2})
    events: list[dict[str, Any]] = []
    rules.lose_module(st, "C1", events, "missile")
    assert rules.load_of(s) == 2 and any(e["type"] == "goods_discarded" for e in events)


def test_iec_s15_mixer_recipe_inputs_freed_before_output() -> None:
    st, p1, _ = two()
    add(st, p1, "mixer", "C3")
    s1 = add(st, p1, "storage", "C1", goods={"A": 2, "B": 2})  # full
    st["players"][p1]["orders"]["mix"] = ["AB"]
    st["phase_order"]["12"] = [p1]
    production.mix_and_move(st, [])
    assert s1["goods"] == {"A": 1, "B": 1, "C": 0, "AB": 1, "BC": 0, "AC": 0}


def test_iec_s14_unpowered_storage_is_not_linked_and_keeps_goods() -> None:
    st, p1, _ = two()
    add(st, p1, "mixer", "C3")
    s1 = add(st, p1, "storage", "C1", goods={"A": 1, "B": 1}, powered=False)
    st["phase_order"]["12"] = [p1]
    production.mix_and_move(st, [])
    assert s1["goods"]["A"] == 1 and s1["goods"]["AB"] == 0


def test_iec_s14_standing_transfers_move_each_unit_once() -> None:
    st, p1, _ = two()
    a = add(st, p1, "storage", "C1", goods={"AB": 2})
    b = add(st, p1, "storage", "E3")
    c = add(st, p1, "storage", "G3")
    actions.apply(
        st,
        p1,
        {
            "type": "transfers",
            "moves": [
                {"from": "C1", "to": "E3", "good": "AB", "n": 2},
                {"from": "E3", "to": "G3", "good": "AB", "n": 2},
            ],
        },
    )
    st["phase_order"]["12"] = [p1]
    st["players"][p1]["orders"]["mix"] = []
    production.mix_and_move(st, [])
    assert (a["goods"]["AB"], b["goods"]["AB"], c["goods"]["AB"]) == (0, 2, 0)


def test_iec_d13_chain_mine_storage_mixer_storage_effector() -> None:
    st, p1, _ = two()
    add(st, p1, "storage", "E3", goods={"B": 1, "C": 1})
    add(st, p1, "mixer", "C3")
    add(st, p1, "transmitter", "G3")
    st["players"][p1]["orders"]["mix"] = ["BC"]
    st["phase_order"]["12"] = [p1]
    production.mix_and_move(st, [])
    assert st["buildings"]["E3"]["goods"]["BC"] == 1
    assert choices.has_choice(st, p1, 10)


def test_iec_s10_5_link_distances_four_for_mines_six_for_others() -> None:
    st, p1, _ = two()
    m = add(st, p1, "mine", "A1")
    t = add(st, p1, "transmitter", "A7")
    add(st, p1, "storage", "A4")  # 6 cm from both
    assert rules.linked(st, m) == [] and len(rules.linked(st, t)) == 1


# ---------------------------------------------------------------- technologies


def test_iec_23_ex1_tech_costs_and_super_computer() -> None:
    st, p1, _ = two()
    pl = st["players"][p1]
    costs = []
    for k in range(4):
        pl["techs"] = list(range(5, 5 + k))
        costs.append(rules.tech_cost(st, p1))
    assert costs == [3, 5, 7, 9]
    pl["techs"] = [2, 5, 6]
    assert rules.tech_cost(st, p1) == 5
    pl["techs"] = [2]
    assert rules.tech_cost(st, p1) == 3


def test_iec_24_must_choose_when_enough_points_and_it_stays_secret() -> None:
    st, p1, p2 = two()
    st["players"][p1]["science"] = 4
    at(st, 14, p1)
    with pytest.raises(IllegalAction) as e:
        do(st, p1, {"type": "done"})
    assert e.value.rule_id == "IEC-24"
    do(st, p1, {"type": "tech", "tech": 8})
    assert st["players"][p1]["science"] == 1
    assert rules.view(st, p2)["players"][p1]["techs"] == []
    assert rules.view(st, p1)["players"][p1]["techs"] == [8]


def test_iec_tech2_super_computer_is_revealed_when_used() -> None:
    # Corrections 1.1: IEC-TECH-2 is revealed when used like every other technology.
    st, p1, p2 = two()
    st["players"][p1]["techs"] = [2, 5, 6]
    st["players"][p1]["science"] = 5  # 5 with Super Computer, 9 without
    st["players"][p2]["science"] = 0
    st["phase"], st["phase_open"], st["actor"] = 13, True, None
    events: list[dict[str, Any]] = []
    st["phase_order"]["14"] = [p1, p2]
    rules._end_phase(st, events)
    rules.advance(st, events)
    assert st["actor"] == p1 and st["phase"] == 14
    assert [e["tech"] for e in events if e["type"] == "tech_revealed"] == [2]
    assert 2 in rules.view(st, p2)["players"][p1]["techs"]


def test_iec_tech2_super_computer_switched_off_has_no_effect() -> None:
    st, p1, _ = two()
    st["players"][p1]["techs"] = [2, 5, 6]
    actions.apply(st, p1, {"type": "use", "tech": 2, "mode": "off"})
    assert rules.tech_cost(st, p1) == 9
    assert st["players"][p1]["revealed"] == []


def test_iec_tech16_d10_subsidy_once_from_turn_5() -> None:
    st, p1, _ = two()
    st["players"][p1]["techs"] = [16]
    actions.apply(st, p1, {"type": "subsidy", "kind": "reactor", "cell": "M13"})
    st["phase"] = 14
    st["turn"] = 4
    rules._start_phase(st, [])
    assert "M13" not in st["buildings"]  # not before turn 5: the order waits
    st["turn"] = 5
    rules._start_phase(st, [])
    r = st["buildings"]["M13"]
    assert r["modules"] == 2 and not r["complete"]
    assert 16 in st["players"][p1]["revealed"]
    with pytest.raises(IllegalAction):
        actions.apply(st, p1, {"type": "subsidy", "kind": "storage", "cell": "D13"})


def test_iec_tech3_s10_3_flexible_order_collisions_lowest_roller_first() -> None:
    st, names = empty(3)
    a, b, c = names
    for p in (b, c):
        st["players"][p]["techs"] = [3]
    st["players"][b]["orders"]["flex"]["9"] = "first"
    st["players"][c]["orders"]["flex"]["9"] = "first"
    import engine.core.rng as rngmod

    seq = [5, 2]  # b rolls 5, c rolls 2: c applies first, b (highest) last -> b first
    orig = rngmod.Rng.die
    rngmod.Rng.die = lambda self, sides=6: seq.pop(0)  # type: ignore[method-assign]
    events: list[dict[str, Any]] = []
    try:
        rules._declare_flex(st)
        rules._phase_order(st, 9, events)
        rules._phase_order(st, 10, events)
    finally:
        rngmod.Rng.die = orig  # type: ignore[method-assign]
    assert st["phase_order"]["9"] == [b, c, a]
    assert st["phase_order"]["10"] == [a, b, c]


def test_iec_s10_3_flexible_order_declarations_public_phase_by_phase() -> None:
    # Corrections 1.1: declared privately at phase 0, each public when its phase begins.
    st, names = empty(2)
    a, b = names
    st["players"][b]["techs"] = [3]
    st["players"][b]["orders"]["flex"] = {"9": "first", "12": "last"}
    rules._declare_flex(st)
    st["players"][b]["orders"]["flex"] = {}  # changing the order later changes nothing now
    assert st["phase_order"] == {}
    assert "declared" not in rules.view(st, a)["players"][b]
    events: list[dict[str, Any]] = []
    rules._phase_order(st, 3, events)
    assert events == [] and rules.view(st, a)["players"][b]["techs"] == []
    rules._phase_order(st, 9, events)
    assert st["phase_order"]["9"] == [b, a]
    assert [(e["type"], e.get("position")) for e in events] == [
        ("tech_revealed", None),
        ("flex_declared", "first"),
    ]
    assert "12" not in rules.view(st, a)["phase_order"]


def test_iec_d11_incomplete_counts_as_damaged() -> None:
    st, p1, _ = two()
    s = add(st, p1, "mixer", "C3", modules=1)
    assert not rules.undamaged(st, s)


def test_iec_s20_zero_modules_removes_building_and_goods() -> None:
    st, p1, _ = two()
    add(st, p1, "storage", "C1", modules=1, goods={"A": 2})
    rules.lose_module(st, "C1", [], "missile")
    assert "C1" not in st["buildings"]


def test_iec_s10_4_players_act_in_turn_one_after_another() -> None:
    st = new(2, seed=3)
    actor = st["actor"]
    other = next(p for p in st["players"] if p != actor)
    with pytest.raises(IllegalAction) as e:
        actions.apply(st, other, {"type": "done"})
    assert e.value.rule_id == "IEC-S-10.4"


def test_iec_s9_victory_by_vp_then_modules_then_science() -> None:
    st, p1, p2 = two()
    st["players"][p1]["vp"] = 3
    st["players"][p2]["vp"] = 3
    add(st, p2, "storage", "T14")
    assert rules.result(st) == [[p2], [p1]]
    st["players"][p1]["science"] = 5
    add(st, p1, "storage", "C1")
    assert rules.result(st) == [[p1], [p2]]
