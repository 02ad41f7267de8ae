"""Hexania board geometry (HEX-G-1..9): cube coordinates, the digest's cell names, neighbours.

The board is a hexagon of 397 cells, radius 11 around the centre L12 (HEX-G-1, HEX-G-2).
Rows are lettered A..W top to bottom, cells numbered 1..n west to east (HEX-G-4). Everything
here is a constant computed once from `data/board.json`; the rules work on cell names.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.core.errors import N_
from engine.core.protocol import Translator

_DATA: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "board.json").read_text(encoding="utf-8")
)

RADIUS: int = _DATA["radius"]
ROWS: str = _DATA["rows"]
DIRECTIONS: dict[str, tuple[int, int]] = {k: (v[0], v[1]) for k, v in _DATA["directions"].items()}
DIRECTION_NAMES: tuple[str, ...] = tuple(DIRECTIONS)
SIDE_ORDER: tuple[str, ...] = tuple(_DATA["side_order"])
HOMELANDS: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in _DATA["homelands"].items()}
SIDES_BY_PLAYERS: dict[int, tuple[str, ...]] = {
    int(k): tuple(v) for k, v in _DATA["sides_by_players"].items()
}
DICE: int = _DATA["dice"]
DIE_SIDES: int = _DATA["die_sides"]
BIRTH_COST: int = _DATA["birth_cost"]
COLLAPSE_MASS: int = _DATA["collapse_mass"]
DEFAULT_ROUNDS: int = _DATA["default_rounds"]
# The sides' names, for the picture's panel and the chat's opening line (HEX-G-9).
SIDE_NAMES: dict[str, str] = {
    "N": N_("north"),
    "NE": N_("north-east"),
    "SE": N_("south-east"),
    "S": N_("south"),
    "SW": N_("south-west"),
    "NW": N_("north-west"),
}
# The directions' names in words (HEX-G-3), said after the token the player types:
# "NE (north-east)" (found playing, 2026-12-03: «в направлении NE» in Russian).
DIRECTION_WORDS: dict[str, str] = {
    "E": N_("east"),
    "NE": SIDE_NAMES["NE"],
    "NW": SIDE_NAMES["NW"],
    "W": N_("west"),
    "SW": SIDE_NAMES["SW"],
    "SE": SIDE_NAMES["SE"],
}


def direction_text(t: Translator, direction: str) -> str:
    """A direction as the chat says it: the token /move reads, then its name in the reader's
    words, "NE (north-east)"; an unknown token as it stands."""
    name = DIRECTION_WORDS.get(direction)
    if name is None:
        return direction
    return t.gettext(N_("{token} ({direction})")).format(token=direction, direction=t.gettext(name))


def qmin(r: int) -> int:
    """The q of the first (westmost) cell of row r (HEX-G-4)."""
    return max(-RADIUS, -RADIUS - r)


def row_length(r: int) -> int:
    return 2 * RADIUS + 1 - abs(r)


def on_board(q: int, r: int) -> bool:
    return max(abs(q), abs(r), abs(q + r)) <= RADIUS


def name_of(q: int, r: int) -> str:
    return f"{ROWS[r + RADIUS]}{q - qmin(r) + 1}"


# Every cell, row by row, west to east: the canonical cell order.
CELLS: tuple[str, ...] = tuple(
    name_of(q, r)
    for r in range(-RADIUS, RADIUS + 1)
    for q in range(qmin(r), qmin(r) + row_length(r))
)
CELL_SET: frozenset[str] = frozenset(CELLS)
INDEX: dict[str, int] = {c: i for i, c in enumerate(CELLS)}
COORD: dict[str, tuple[int, int]] = {}
for _r in range(-RADIUS, RADIUS + 1):
    for _q in range(qmin(_r), qmin(_r) + row_length(_r)):
        COORD[name_of(_q, _r)] = (_q, _r)

# STEP[cell][direction] -> the neighbouring cell in that direction, or None off the board.
STEP: dict[str, dict[str, str | None]] = {}
for _c, (_q, _r) in COORD.items():
    STEP[_c] = {}
    for _d, (_dq, _dr) in DIRECTIONS.items():
        _nq, _nr = _q + _dq, _r + _dr
        STEP[_c][_d] = name_of(_nq, _nr) if on_board(_nq, _nr) else None
# STEP_TO[direction][cell] -> the same, one table per direction (movement walks one direction).
STEP_TO: dict[str, dict[str, str | None]] = {d: {c: STEP[c][d] for c in CELLS} for d in DIRECTIONS}
NEIGHBOURS: dict[str, tuple[str, ...]] = {
    c: tuple(n for n in STEP[c].values() if n is not None) for c in CELLS
}


def parse_cell(text: str) -> str | None:
    """'l12' -> 'L12' when that cell exists (HEX-G-4: names are case-insensitive)."""
    name = text.strip().upper()
    return name if name in CELL_SET else None


def shift(cell: str, direction: str, steps: int) -> str | None:
    """The cell `steps` steps from `cell` in `direction`, or None off the board."""
    q, r = COORD[cell]
    dq, dr = DIRECTIONS[direction]
    nq, nr = q + dq * steps, r + dr * steps
    return name_of(nq, nr) if on_board(nq, nr) else None


def distance(a: str, b: str) -> int:
    (aq, ar), (bq, br) = COORD[a], COORD[b]
    dq, dr = aq - bq, ar - br
    return max(abs(dq), abs(dr), abs(dq + dr))


def lines_along(cells: set[str] | frozenset[str] | list[str], direction: str) -> int:
    """Distinct cell lines parallel to `direction` holding `cells` (HEX-OPT-D viscosity)."""
    if direction in ("E", "W"):
        return len({COORD[c][1] for c in cells})
    if direction in ("NW", "SE"):
        return len({COORD[c][0] for c in cells})
    return len({-COORD[c][0] - COORD[c][1] for c in cells})


def sort_cells(cells: Any) -> list[str]:
    return sorted(cells, key=INDEX.__getitem__)
