"""The marks of an IEC picture, drawn alike on the map and in the panel's legend: a cell's
ground, a building (its box in its owner's colour, module bar and letter), a prepared site, a
token (its owner's ring, its face) and the change marks; the colours and sizes they are drawn
with."""

from __future__ import annotations

from typing import Any

from engine.core.errors import N_
from engine.core.picture import (
    CHANGE,
    INK,
    NUMBER,
    PLAYER_COLORS,
    RGB,
    SEAT_SHAPES,
    WHITE,
    Pen,
    Words,
    draw_shape,
    text_on,
)
from engine.iec.scenario import Scenario

PAPER: RGB = (245, 242, 235)
GRID: RGB = (170, 160, 140)
TERRAIN_RGB: dict[str, RGB] = {
    ".": (214, 200, 170),
    "~": (96, 140, 190),
    "^": (120, 110, 100),
    "x": (150, 170, 80),
}
AREA_RGB: dict[str, RGB] = {
    "H": (232, 214, 120),
    "I": (206, 176, 132),
    "II": (190, 160, 120),
    "III": (200, 150, 130),
}
SEISMIC: RGB = (170, 90, 70)
UNPOWERED: RGB = (240, 240, 240)
# the shared palette's first four (Okabe-Ito, engine/core/picture.py): the red and green
# companies this had were one colour under deuteranopia, blue and purple under protanopia
SEAT_RGB: dict[str, RGB] = {f"P{i + 1}": PLAYER_COLORS[i] for i in range(4)}
# and each seat's shape (engine/core/picture.py SEAT_SHAPES): a building's box, a site's frame
# and a token are drawn in it, the panel's swatch beside the owner's name too. Found reviewing
# pictures: the owner of a building was told by colour only, and a colour-blind player or a
# greyscale phone could not tell the green and pink companies' buildings apart.
SEAT_SHAPE: dict[str, str] = {f"P{i + 1}": SEAT_SHAPES[i] for i in range(4)}
# How deep a shape's points and cut corners are, on a building's box (24 by 19 px at 720 px
# width: even W, Ш and a CJK sign keep their strokes inside) and a site's frame (22 px)
BOX_CUT = {"pointed": 5, "slanted": 7}
SITE_CUT = {"pointed": 6, "slanted": 7}
# "letter|name" per building kind: the letter on the map, the name in the legend
KIND = {
    "reactor": N_("R|reactor"),
    "mine": N_("M|mine"),
    "storage": N_("S|storage"),
    "mixer": N_("X|mixer"),
    "laboratory": N_("L|laboratory"),
    "transmitter": N_("T|transmitter"),
    "developer": N_("D|developer"),
    "launcher": N_("W|launcher"),
}
LONE_TOKEN = 16  # the one token of a cell without a building, px across at 720 px width
TOKEN = 11  # one of two to four on a cell without a building
SMALL_TOKEN = 9  # a token on a building's cell
TINY_TOKEN = 7  # one of three or four on a building's cell
TOKEN_GAP = 2  # between two tokens of a free cell


def letter_name(w: Words, kind: str) -> tuple[str, str]:
    text = w(KIND[kind]) if kind in KIND else kind
    letter, _, name = text.partition("|")
    if not name:  # a translation without the "|": fall back to English
        letter, _, name = KIND.get(kind, kind + "|" + kind).partition("|")
    return letter, name


def seat_rgb(view: dict[str, Any], player: str) -> RGB:
    return SEAT_RGB.get(view["players"].get(player, {}).get("seat", ""), (0, 0, 0))


def seat_shape(view: dict[str, Any], player: str) -> str:
    return SEAT_SHAPE.get(view["players"].get(player, {}).get("seat", ""), "square")


def token_cut(shape: str, size: float) -> float:
    """A token's points reach its middle (a diamond); its cut corners take two fifths."""
    return size / 2 if shape == "pointed" else round(size * 0.4)


def cell_fill(s: Scenario, cell: str) -> RGB:
    area = s.area_of.get(cell)
    if area:
        return AREA_RGB.get(s.areas[area].get("class") or "H", (200, 180, 140))
    x, y = s.xy[cell]
    return TERRAIN_RGB.get(s.map[y][x], (214, 200, 170))


def draw_ground(pen: Pen, x0: float, y0: float, c: int, fill: RGB, seismic: bool = False) -> None:
    pen.d.rectangle((x0, y0, x0 + c, y0 + c), fill=fill, outline=GRID)
    if seismic:
        pen.d.line((x0 + 2, y0 + c - 4, x0 + c - 2, y0 + 4), fill=SEISMIC, width=2)


def draw_frame(pen: Pen, x0: float, y0: float, c: int) -> None:
    pen.d.rectangle((x0 - 2, y0 - 2, x0 + c + 2, y0 + c + 2), outline=CHANGE, width=3)


def draw_site(pen: Pen, x0: float, y0: float, c: int, col: RGB, shape: str) -> None:
    """A prepared site: a frame of its owner's colour and shape."""
    box = (x0 + 3, y0 + 3, x0 + c - 3, y0 + c - 3)
    draw_shape(pen.d, shape, box, SITE_CUT.get(shape, 0), None, col, 3)


def draw_building(
    pen: Pen,
    x0: float,
    y0: float,
    c: int,
    col: RGB,
    shape: str,
    letter: str,
    powered: bool,
    modules: int,
    full: int,
) -> None:
    """A building whole, as the legend shows it; the map draws the letters after the tokens."""
    draw_box(pen, x0, y0, c, col, shape, powered, modules, full)
    draw_letter(pen, x0, y0, c, col, letter, powered)


def draw_letter(
    pen: Pen, x0: float, y0: float, c: int, col: RGB, letter: str, powered: bool
) -> None:
    """The building's letter, centred in its box above the module bar."""
    pen.text(
        (x0 + c / 2, y0 + (c - 5) / 2),
        letter,
        NUMBER,
        "number",
        bold=True,
        fill=text_on(col) if powered else col,
        anchor="mm",
    )


def draw_box(
    pen: Pen,
    x0: float,
    y0: float,
    c: int,
    col: RGB,
    shape: str,
    powered: bool,
    modules: int,
    full: int,
) -> None:
    """The building's box in its owner's colour and shape (hollow when not powered) and its
    module bar under it."""
    d = pen.d
    box = (x0 + 2, y0 + 2, x0 + c - 2, y0 + c - 7)
    draw_shape(d, shape, box, BOX_CUT.get(shape, 0), col if powered else UNPOWERED, col, 2)
    bar = (c - 4) / full
    for k in range(full):
        d.rectangle(
            (x0 + 2 + k * bar, y0 + c - 6, x0 + 1 + (k + 1) * bar, y0 + c - 2),
            fill=col if k < modules else WHITE,
        )


def _ring_width(size: int, shape: str) -> int:
    """The owner's ring round a token: a quarter of it across (4 px on a lone token), at
    least 2 px (found reviewing pictures: a 2 px ring round a dark disc was hard to see); a
    fifth round a diamond, whose face is smaller (face up or down is told by the face)."""
    return max(2, size // (5 if shape == "pointed" else 4))


def draw_token(
    pen: Pen,
    bx: float,
    by: float,
    size: int,
    col: RGB,
    shape: str,
    up: bool,
    dot: RGB | None,
) -> None:
    """A token in the box (bx, by, size), in its owner's shape: a ring of his colour round a
    dark face (face up) or a white one (face down), the viewer's own face-down real mine
    dotted in its middle (`dot`). Nothing else tells a face-down token: a real one and a fake
    look alike to all but their owner (IEC-S-21, IEC-S-26); colour and shape are the
    owner's, public (IEC-S-26)."""
    ring = _ring_width(size, shape)
    box = (bx, by, bx + size, by + size)
    draw_shape(pen.d, shape, box, token_cut(shape, size), INK if up else WHITE, col, ring)
    if dot is not None and not up:
        inset = ring + 1
        pen.d.ellipse((bx + inset, by + inset, bx + size - inset, by + size - inset), fill=dot)


def draw_edge(pen: Pen, bx: float, by: float, size: int, shape: str) -> None:
    """A white edge round a small token: it stands apart from a building of its owner's
    colour and from the tokens beside it."""
    _around(pen, bx, by, size, shape, 1, WHITE)


def draw_ring(pen: Pen, bx: float, by: float, size: int, shape: str) -> None:
    """The change mark round the token in the box (bx, by, size)."""
    _around(pen, bx, by, size, shape, 2 if size <= SMALL_TOKEN else 3, CHANGE)


def _around(pen: Pen, bx: float, by: float, size: int, shape: str, by_: int, col: RGB) -> None:
    """The token's shape grown by `by_` px on every side, filled with `col`."""
    box = (bx - by_, by - by_, bx + size + by_, by + size + by_)
    draw_shape(pen.d, shape, box, token_cut(shape, size + 2 * by_), col)


def token_dot(tok: dict[str, Any], viewer: str | None, col: RGB) -> RGB | None:
    """The viewer's own face-down real mine is dotted; everything else face down is a ring
    (another's hidden token, IEC-S-26, and the viewer's own fake alike)."""
    if not tok["up"] and tok["owner"] == viewer and tok.get("real"):
        return col
    return None
