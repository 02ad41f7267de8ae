"""Geometry: HEX-G-1..9."""

from engine.hexania import GAME
from engine.hexania.board import (
    CELLS,
    COORD,
    HOMELANDS,
    NEIGHBOURS,
    SIDES_BY_PLAYERS,
    STEP,
    distance,
    parse_cell,
)
from tests.engine.hexania.helpers import position


def test_hexg1_board_is_a_hexagon_of_397_cells() -> None:
    assert len(CELLS) == 397 == 3 * 12 * 11 + 1
    assert all(max(abs(q), abs(r), abs(q + r)) <= 11 for q, r in COORD.values())
    assert max(distance("L12", c) for c in CELLS) == 11


def test_hexg4_cell_names_and_corners() -> None:
    expected = {
        "L12": (0, 0),
        "A1": (0, -11),
        "A12": (11, -11),
        "L23": (11, 0),
        "W12": (0, 11),
        "W1": (-11, 11),
        "L1": (-11, 0),
    }
    for name, qr in expected.items():
        assert COORD[name] == qr
    assert [sum(1 for c in CELLS if c[0] == row) for row in "ALW"] == [12, 23, 12]
    assert parse_cell("l12") == "L12" and parse_cell("A13") is None and parse_cell("x1") is None


def test_hexg3_hexg5_neighbours_by_name() -> None:
    assert STEP["L12"] == {
        "E": "L13",
        "NE": "K12",
        "NW": "K11",
        "W": "L11",
        "SW": "M11",
        "SE": "M12",
    }
    assert (STEP["K5"]["NE"], STEP["K5"]["NW"], STEP["K5"]["SE"], STEP["K5"]["SW"]) == (
        "J5",
        "J4",
        "L6",
        "L5",
    )
    assert (STEP["M5"]["NE"], STEP["M5"]["NW"], STEP["M5"]["SE"], STEP["M5"]["SW"]) == (
        "L6",
        "L5",
        "N5",
        "N4",
    )
    assert STEP["A1"]["NW"] is None and len(NEIGHBOURS["A1"]) == 3
    assert all(distance(c, n) == 1 for c in CELLS for n in NEIGHBOURS[c])


def _side(cells_filter) -> list[str]:  # type: ignore[no-untyped-def]
    return [c for c in CELLS if cells_filter(*COORD[c])]


def test_hexg7_hexg8_homeland_is_cells_4_to_9_of_each_side() -> None:
    # sides in clockwise order, each listed from its first corner (HEX-G-7)
    sides = {
        "N": sorted(_side(lambda q, r: r == -11), key=lambda c: COORD[c][0]),
        "NE": sorted(_side(lambda q, r: q == 11), key=lambda c: COORD[c][1]),
        "SE": sorted(_side(lambda q, r: q + r == 11), key=lambda c: COORD[c][1]),
        "S": sorted(_side(lambda q, r: r == 11), key=lambda c: -COORD[c][0]),
        "SW": sorted(_side(lambda q, r: q == -11), key=lambda c: -COORD[c][1]),
        "NW": sorted(_side(lambda q, r: q + r == -11), key=lambda c: -COORD[c][1]),
    }
    for side, cells in sides.items():
        assert len(cells) == 12
        assert set(cells[3:9]) == set(HOMELANDS[side]), side
    assert HOMELANDS["NE"] == ("D15", "E16", "F17", "G18", "H19", "I20")
    assert sides["NE"][0] == "A12" and sides["NE"][-1] == "L23"


def test_hexg9_sides_in_use_by_player_count() -> None:
    for n in range(2, 7):
        players = [f"p{i}" for i in range(n)]
        state = GAME.setup(players, {}, 100 + n)
        assert sorted(state["sides"].values()) == sorted(SIDES_BY_PLAYERS[n])
    assert SIDES_BY_PLAYERS[3] == ("N", "SE", "SW")


def test_hexg6_text_board_rows_indented_by_distance() -> None:
    state = position({"blue": ["L12"], "red": ["A1"]})
    lines = GAME.text(state).splitlines()
    assert lines[0].startswith(" " * 11 + "A 2 . . + + + + + + . . .")
    assert lines[11].startswith("L ") and lines[11].split()[12] == "1"
    assert lines[22].startswith(" " * 11 + "W . . . + + + + + + . . .")
