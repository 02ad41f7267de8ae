"""IEC-S-1..S-8 and IEC-12: map, geometry, deposits, start layout, parameters."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import IllegalAction, canonical_json
from engine.iec import rules
from engine.iec.scenario import load
from tests.engine.iec.helpers import add, by_seat, empty, new

S = load("chat_standard")


def _rule(st: dict[str, Any], cell: str, kind: str) -> str:
    """The rule a new building of `kind` on `cell` breaks."""
    err = rules.placement_error(st, cell, kind)
    assert err is not None, (cell, kind)
    return err.rule_id


def test_iec_s1_s2_grid_24_by_16_cells_named_a1_to_x16() -> None:
    assert (S.width, S.height, S.cell_cm) == (24, 16, 2)
    assert len(S.cells) == 384 and S.cells[0] == "A1" and S.cells[-1] == "X16"


def test_iec_s3_distance_is_twice_the_euclidean_cell_distance() -> None:
    assert S.distance("A1", "B1") == 2
    assert round(S.distance("A1", "B2"), 2) == 2.83
    assert round(S.distance("A1", "C2"), 2) == 4.47
    assert S.within("E5", "E8", 6) and not S.within("E5", "E9", 6)


def test_iec_s4_terrain_and_areas() -> None:
    assert "K5" not in S.buildable  # liquid
    assert "J1" not in S.buildable  # steep
    assert "J8" not in S.buildable  # toxic
    assert S.area_of["G6"] == "I-NW" and S.area_of["I8"] == "I-NW"
    assert S.area_of["P6"] == "I-NE" and S.area_of["R11"] == "I-SE"
    assert S.area_of["K1"] == "II-N" and S.area_of["N16"] == "II-S"
    assert S.area_of["K7"] == "III-C" and "N10" in S.seismic and "G6" not in S.seismic
    assert {S.area_of[c] for c in ("A1", "B2", "W1", "X16", "A15")} == {"H"}
    assert sum(1 for c in S.cells if S.area_of.get(c) == "III-C") == 16


def test_iec_s5_deposit_lists() -> None:
    assert S.deposits["HOME"] == {"A": 3, "B": 3, "C": 4}
    assert S.deposits["I-6"] == {"B": 4, "C": 5}
    assert S.deposits["II-1"] == {"A": 1}
    assert len(S.classes["I"]) == 6 and len(S.classes["II"]) == 4 and len(S.classes["III"]) == 4


def test_iec_12_iec_s6_two_distinct_hidden_deposits_per_area() -> None:
    st = new(2, seed=5)
    for area_id, area in st["areas"].items():
        if area_id == "H":
            assert area["deposit"] == "HOME"
            continue
        assert area["deposit"] is None
        assert len(set(area["candidates"])) == 2
        assert all(c in S.classes[S.areas[area_id]["class"]] for c in area["candidates"])
    v = rules.view(st, by_seat(st, "P1"))
    assert all(v["areas"][a]["candidates"] == [] for a in v["areas"] if a != "H")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_iec_s7_start_buildings_per_corner(n: int) -> None:
    st = new(n, seed=n)
    assert sorted(pl["seat"] for pl in st["players"].values()) == [f"P{i}" for i in range(1, n + 1)]
    p2 = by_seat(st, "P2")
    cells = {b["cell"]: b["kind"] for b in rules.own(st, p2)}
    assert cells == {
        "W10": "reactor",
        "X16": "mine",
        "W15": "mine",
        "V16": "storage",
        "V14": "mixer",
        "T14": "storage",
        "T12": "developer",
        "R14": "transmitter",
    }
    p1 = by_seat(st, "P1")
    s1, s2 = st["buildings"]["C1"], st["buildings"]["E3"]
    assert s1["owner"] == p1 and s1["goods"] == {"A": 1, "B": 1, "C": 1, "AB": 0, "BC": 0, "AC": 0}
    assert s2["goods"] == {"A": 0, "B": 0, "C": 0, "AB": 2, "BC": 1, "AC": 1}
    for b in st["buildings"].values():
        assert b["modules"] == rules.nominal(st, b) and b["complete"]
    assert all(
        pl["vp"] == 0 and pl["science"] == 0 and pl["techs"] == [] for pl in st["players"].values()
    )


def test_iec_s7_start_layout_respects_intervals() -> None:
    st = new(4, seed=3)
    blds = list(st["buildings"].values())
    for i, a in enumerate(blds):
        for b in blds[i + 1 :]:
            m = max(S.buildings[a["kind"]]["interval"], S.buildings[b["kind"]]["interval"])
            assert S.d2(a["cell"], b["cell"]) >= m * m


def test_iec_s8_parameters() -> None:
    p = S.params
    assert (p["X"], p["T"], p["Q"], p["M"], p["turns"]) == (10, 3, 2, 4, 20)


def test_iec_s25_two_to_four_players_and_unknown_scenario() -> None:
    with pytest.raises(IllegalAction):
        rules.setup(["a"], {}, 1)
    with pytest.raises(IllegalAction):
        rules.setup(["a", "b", "c", "d", "e"], {}, 1)
    with pytest.raises(IllegalAction):
        rules.setup(["a", "b"], {"scenario": "nowhere"}, 1)


def test_iec_s3_ex10_intervals() -> None:
    st, (p1, _p2) = empty()
    add(st, p1, "storage", "F5")
    assert rules.placement_error(st, "F6", "storage") is None  # orthogonal, 2 >= 2
    err = rules.placement_error(st, "G6", "transmitter")  # diagonal 2.83 < 3
    assert err is not None and err.rule_id == "IEC-S-3"
    st["buildings"] = {}
    add(st, p1, "reactor", "D4")
    assert _rule(st, "F5", "storage") == "IEC-S-3"  # (2,1): 4.47 < 5
    assert rules.placement_error(st, "F6", "storage") is None  # (2,2): 5.66


def test_iec_10_unbuildable_terrain_and_mines_only_on_deposits() -> None:
    st, _ = empty()
    assert _rule(st, "K5", "storage") == "IEC-10"
    assert _rule(st, "D4", "mine") == "IEC-S-4"
    assert rules.placement_error(st, "G6", "mine") is None


def test_setup_round_trips_json_byte_exact() -> None:
    import json

    st = new(3, seed=9)
    text = canonical_json(st)
    assert canonical_json(json.loads(text)) == text


def test_iec_26_turn_one_s_order_roll_and_radiation_are_told_when_the_game_begins() -> None:
    """Setup plays turn 1's automatic phases (IEC-26's 2d6 tie-break on 0 VP, IEC-27 phase 1's
    radiation) before any move, so no move's post names them: the "begins" post does. The
    view never carries them, and turn 2 drops them."""
    from engine.core import EnglishTranslator
    from engine.iec import GAME

    state = GAME.setup(["ann", "bob", "cyd"], {}, 5)
    assert GAME.describe_start(state, EnglishTranslator()) == (
        "Tie for the turn order, 2d6: bob (10), ann (7), cyd (3); the higher roll goes first. "
        "Turn 1 begins. Order: bob, ann, cyd. Radiation this turn: 7."
    )
    assert state["order"] == ["bob", "ann", "cyd"] and state["radiation"] == 7
    assert "opening" not in GAME.view(state, None)
    played = 0
    while state["turn"] == 1 and not state["over"]:
        player = GAME.current_players(state)[0]
        state, _ = GAME.apply(state, player, {"type": "done"})
        played += 1
    assert state["turn"] == 2 and "opening" not in state, played
    assert GAME.describe_start(state, EnglishTranslator()) is None
