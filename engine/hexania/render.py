"""Hexania board picture: view -> palette PNG (the only module that imports Pillow).

Pointy-top hexes (HEX-G-2), row letters on both ends of each row, the cell numbers along the
rim where each diagonal of a number begins and ends, the cell name in every empty cell,
homelands tinted in their owner's colour, figures in the Okabe–Ito colours with their mass,
and a header with the dice and the points left.
"""

from __future__ import annotations

import io
import math
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine.hexania.board import CELLS, COORD, RADIUS, ROWS, name_of, qmin

WIDTH = 1200
SIZE = 27  # hex circumradius in pixels
HEADER = 112
SQRT3 = math.sqrt(3)

# Okabe–Ito colour-blind-safe palette, one colour per seat.
PLAYER_COLOURS = [
    (0, 114, 178),  # blue
    (213, 94, 0),  # vermillion
    (0, 158, 115),  # bluish green
    (204, 121, 167),  # reddish purple
    (230, 159, 0),  # orange
    (86, 180, 233),  # sky blue
]
BACKGROUND = (250, 248, 243)
CELL = (238, 234, 224)
CELL_LINE = (184, 176, 160)
INK = (34, 34, 34)
FAINT = (150, 144, 132)
WHITE = (255, 255, 255)

DIR_ANGLE = {"E": 0, "NE": -60, "NW": -120, "W": 180, "SW": 120, "SE": 60}

_FONT_DIRS = [
    Path(__file__).resolve().parents[2] / "assets" / "fonts",
]


@cache
def _font(size: int, bold: bool = False) -> Any:
    names = ["DejaVuSans-Bold.ttf", "DejaVuSans.ttf"] if bold else ["DejaVuSans.ttf"]
    for folder in _FONT_DIRS:
        for name in names:
            path = folder / name
            if path.exists():
                return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size)


def _tint(rgb: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    return tuple(round(c * amount + 255 * (1 - amount)) for c in rgb)  # type: ignore[return-value]


def _dark(rgb: tuple[int, int, int], amount: float = 0.55) -> tuple[int, int, int]:
    return tuple(round(c * amount) for c in rgb)  # type: ignore[return-value]


def _text_on(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    lum = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
    return INK if lum > 140 else WHITE


@cache
def _palette_image() -> Image.Image:
    colours: list[tuple[int, int, int]] = [BACKGROUND, CELL, CELL_LINE, INK, FAINT, WHITE]
    for c in PLAYER_COLOURS:
        colours += [c, _tint(c, 0.3), _tint(c, 0.6), _dark(c), _dark(c, 0.8)]
    for i in range(12):  # grey ramp for antialiased text
        v = round(34 + i * (250 - 34) / 11)
        colours.append((v, v, v))
    for a in (0.25, 0.5, 0.75):  # text edges on cells
        colours.append(tuple(round(x * a + y * (1 - a)) for x, y in zip(INK, CELL)))  # type: ignore[arg-type]
    flat: list[int] = []
    for c in colours:
        flat.extend(c)
    flat.extend([0] * (768 - len(flat)))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def _centre(q: int, r: int) -> tuple[float, float]:
    x = WIDTH / 2 + SIZE * SQRT3 * (q + r / 2)
    y = HEADER + 34 + SIZE + SIZE * 1.5 * (r + RADIUS)
    return x, y


def _corners(x: float, y: float, size: float = SIZE) -> list[tuple[float, float]]:
    return [
        (
            x + size * math.cos(math.radians(60 * i - 30)),
            y + size * math.sin(math.radians(60 * i - 30)),
        )
        for i in range(6)
    ]


def _edge(x: float, y: float, direction: str, size: float = SIZE) -> list[tuple[float, float]]:
    a = DIR_ANGLE[direction]
    return [
        (x + size * math.cos(math.radians(a + d)), y + size * math.sin(math.radians(a + d)))
        for d in (-30, 30)
    ]


def _text(draw: Any, xy: tuple[float, float], text: str, font: Any, fill: Any) -> None:
    draw.text(xy, text, font=font, fill=fill, anchor="mm")


def _anchor_cell(cells: list[str]) -> str:
    """The figure's cell nearest its centroid: where its mass is written."""
    pts = [_centre(*COORD[c]) for c in cells]
    cx = sum(p[0] for p in pts) / len(pts)
    cy = sum(p[1] for p in pts) / len(pts)
    return min(cells, key=lambda c: (_dist2(_centre(*COORD[c]), (cx, cy)), c))


def _dist2(a: tuple[float, float], b: tuple[float, float]) -> float:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def _dice(draw: Any, x: int, y: int, value: int, size: int = 34) -> None:
    draw.rounded_rectangle([x, y, x + size, y + size], radius=6, fill=WHITE, outline=INK, width=2)
    pips = {
        1: [(1, 1)],
        2: [(0, 0), (2, 2)],
        3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (2, 0), (0, 2), (2, 2)],
        5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
        6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
    }[value]
    step = size / 4
    for px, py in pips:
        cx, cy = x + step * (px + 1), y + step * (py + 1)
        draw.ellipse([cx - 3.5, cy - 3.5, cx + 3.5, cy + 3.5], fill=INK)


def _header(draw: Any, view: dict[str, Any], colour: dict[str, tuple[int, int, int]]) -> None:
    big, mid, small = _font(26, True), _font(20), _font(16)
    rounds = view["rounds"]
    title = f"Hexania · round {view['round']}" + (f" of {rounds}" if rounds else "")
    draw.text((20, 14), title, font=big, fill=INK)
    turn = view["turn"]
    if view["over"]:
        ranking = view["result"] or [[]]
        draw.text((20, 52), "Game over · winner: " + ", ".join(ranking[0]), font=mid, fill=INK)
    elif turn is not None:
        who = turn["player"]
        x = 20
        draw.rectangle([x, 54, x + 22, 76], fill=colour[who], outline=INK)
        x += 32
        draw.text((x, 53), f"{who} to play", font=mid, fill=INK)
        x += int(draw.textlength(f"{who} to play", font=mid)) + 20
        for d in turn["dice"]:
            _dice(draw, x, 48, d)
            x += 42
        tail = f"+ {turn['bonus']} bonus = {turn['dice'][0] + turn['dice'][1] + turn['bonus']}"
        draw.text((x + 4, 53), tail, font=mid, fill=INK)
        x += int(draw.textlength(tail, font=mid)) + 24
        draw.text((x, 53), f"points left: {turn['points']}", font=_font(20, True), fill=INK)
    # legend: one entry per seat
    x = 20
    for name, info in sorted(view["players"].items(), key=lambda kv: kv[1]["seat"]):
        label = f"{name} ({info['side']}) {info['pieces']}"
        if not info["active"]:
            label = f"{name} out"
        draw.rectangle([x, 88, x + 16, 104], fill=colour[name], outline=INK)
        draw.text((x + 22, 86), label, font=small, fill=INK if info["active"] else FAINT)
        x += 22 + int(draw.textlength(label, font=small)) + 22


def render(view: dict[str, Any], viewer: str | None = None) -> bytes:
    height = int(_centre(0, RADIUS)[1] + SIZE + 44)
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    colour = {
        name: PLAYER_COLOURS[info["seat"] % len(PLAYER_COLOURS)]
        for name, info in view["players"].items()
    }
    _header(draw, view, colour)
    board: dict[str, str] = view["board"]
    home_owner: dict[str, str] = {}
    for name, info in view["players"].items():
        for c in info["homeland"]:
            home_owner[c] = name
    name_font, letter_font, mass_font = _font(11), _font(17, True), _font(22, True)
    number_font = _font(12)
    # cells
    for cell in CELLS:
        q, r = COORD[cell]
        x, y = _centre(q, r)
        owner = board.get(cell)
        if owner is not None:
            fill = colour[owner]
        elif cell in home_owner:
            fill = _tint(colour[home_owner[cell]], 0.3)
        else:
            fill = CELL
        draw.polygon(_corners(x, y), fill=fill, outline=CELL_LINE)
        if owner is None:
            _text(draw, (x, y), cell, name_font, FAINT if cell not in home_owner else INK)
    # homeland rims in the owner's colour
    for cell, owner in home_owner.items():
        x, y = _centre(*COORD[cell])
        draw.polygon(_corners(x, y, SIZE - 3), outline=_dark(colour[owner], 0.8), width=3)
    # figure outlines and masses
    for name, info in view["players"].items():
        for fig in info["figures"]:
            cells = set(fig["cells"])
            edge_colour = _dark(colour[name])
            for c in cells:
                x, y = _centre(*COORD[c])
                for d, (dq, dr) in (
                    ("E", (1, 0)),
                    ("NE", (1, -1)),
                    ("NW", (0, -1)),
                    ("W", (-1, 0)),
                    ("SW", (-1, 1)),
                    ("SE", (0, 1)),
                ):
                    q, r = COORD[c]
                    if (
                        max(abs(q + dq), abs(r + dr), abs(q + dq + r + dr)) <= RADIUS
                        and name_of(q + dq, r + dr) in cells
                    ):
                        continue
                    draw.line(_edge(x, y, d), fill=edge_colour, width=3)
            anchor = _anchor_cell(fig["cells"])
            x, y = _centre(*COORD[anchor])
            _text(draw, (x, y + 1), str(fig["mass"]), mass_font, _text_on(colour[name]))
            for c in cells:
                if c != anchor:
                    cx, cy = _centre(*COORD[c])
                    dot = _text_on(colour[name])
                    draw.ellipse([cx - 2.5, cy - 2.5, cx + 2.5, cy + 2.5], fill=dot)
    # row letters on both ends of each row
    for r in range(-RADIUS, RADIUS + 1):
        n = 2 * RADIUS + 1 - abs(r)
        for q in (qmin(r) - 1, qmin(r) + n):
            x, y = _centre(q, r)
            _text(draw, (x, y), ROWS[r + RADIUS], letter_font, INK)
    # cell numbers where each numbered diagonal meets the rim (HEX-G-4/5): the upper half
    # counts along NE-SW lines from the top and north-east sides, the lower half along NW-SE
    # lines to the bottom and south-east sides.
    for r in range(-RADIUS, 1):
        last_q = qmin(r) + 2 * RADIUS - abs(r)
        starts = [qmin(r) + i for i in range(2 * RADIUS + 1 - abs(r))] if r == -RADIUS else [last_q]
        for q in starts:
            x, y = _centre(q + 1, r - 1)
            x = (x + _centre(q, r)[0]) / 2 + 6
            y = (y + _centre(q, r)[1]) / 2 - 4
            _text(draw, (x, y), str(q - qmin(r) + 1), number_font, FAINT)
    for r in range(1, RADIUS + 1):
        last_q = qmin(r) + 2 * RADIUS - abs(r)
        ends = [qmin(r) + i for i in range(2 * RADIUS + 1 - abs(r))] if r == RADIUS else [last_q]
        for q in ends:
            x, y = _centre(q, r + 1)
            x = (x + _centre(q, r)[0]) / 2 + 6
            y = (y + _centre(q, r)[1]) / 2 + 4
            _text(draw, (x, y), str(q - qmin(r) + 1), number_font, FAINT)
    out = img.quantize(palette=_palette_image(), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    out.save(buf, format="PNG", optimize=False, compress_level=6)
    return buf.getvalue()
