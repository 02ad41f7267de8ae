"""Hexania pictures for phones: view -> palette PNGs (the only module that imports Pillow).

The map is cropped to the cells in play (figures and homelands) plus two rings, drawn with
pointy-top hexes (HEX-G-2) large enough that every cell shows its id (HEX-G-4), occupied
cells too; a figure's mass stands under the id of its middle cell, in a badge of its owner's
shape. A crop too wide for one picture at that size comes in parts. The panel says whose turn
it is (highlighted), the dice, the points left, and each player's side, pieces and figures as
the map shows them (the middle cell's id and the mass in his badge: "C7 [2]"). Cells
that changed since the previous picture are ringed in the change colour and the caption says
what changed. Every word goes through the translator.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from PIL import Image

from engine.core.errors import N_
from engine.core.picture import (
    CHANGE,
    HILITE,
    INK,
    MAX_HEIGHT,
    MUTED,
    NAME,
    NUMBER,
    PLAYER_COLORS,
    RGB,
    RULE,
    SEAT_SHAPES,
    WHITE,
    WIDTH,
    Drawing,
    Pen,
    Sheet,
    Words,
    draw_shape,
    draw_title,
    ink_box,
    new_sheet,
    palette,
    text_on,
    text_width,
)
from engine.core.protocol import Translator
from engine.hexania.board import CELLS, COORD, RADIUS, SIDE_NAMES, name_of
from engine.hexania.render_changes import Changes

SQRT3 = math.sqrt(3)
S_MIN = 24  # hex circumradius: a 16 px cell id fits inside
S_MAX = 30
MARGIN = 10
BACKGROUND: RGB = (250, 248, 243)
CELL: RGB = (238, 234, 224)
CELL_LINE: RGB = (184, 176, 160)
FAINT: RGB = (120, 114, 104)
NEIGHBOURS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
EDGE_OF = {  # neighbour offset -> the two corners (of _corners) on that side
    (1, 0): (0, 1),
    (0, 1): (1, 2),
    (-1, 1): (2, 3),
    (-1, 0): (3, 4),
    (0, -1): (4, 5),
    (1, -1): (5, 0),
}

TITLE_ROUNDS = N_("Round {round} of {rounds}")
TITLE_ROUND = N_("Round {round}")
TO_PLAY = N_("{player} to play")
DICE = N_("+ bonus {bonus} = {total} · points left: {points}")
OVER = N_("Game over: {players} won")
PLAYER_LINE = N_("{side} · pieces: {pieces}")
OUT = N_("out of the game")
FIGURES = N_("Figures: {list}")
NO_FIGURES = N_("no figures")
YOU = N_("you")
CAPTION = N_("Round {round}")
NEXT = N_("{player} is next")
LEGEND_HOME = N_("homeland (births only here)")
LEGEND_NEW = N_("new piece since the last picture")
LEGEND_GONE = N_("cell emptied since the last picture")
LEGEND_MASS = N_("mass of a figure")
PANEL_CAPTION = N_("Players and figures")
SENTENCE = N_("{text}.")
MAP_PART = N_("Map, part {i} of {n}")


def _tint(rgb: RGB, amount: float) -> RGB:
    return (
        round(rgb[0] * amount + 255 * (1 - amount)),
        round(rgb[1] * amount + 255 * (1 - amount)),
        round(rgb[2] * amount + 255 * (1 - amount)),
    )


def _dark(rgb: RGB, amount: float = 0.55) -> RGB:
    return (round(rgb[0] * amount), round(rgb[1] * amount), round(rgb[2] * amount))


@cache
def _palette() -> Image.Image:
    players = [*PLAYER_COLORS]
    flat: list[RGB] = [
        BACKGROUND,
        CELL,
        CELL_LINE,
        INK,
        FAINT,
        WHITE,
        CHANGE,
        HILITE,
        RULE,
        MUTED,
        (226, 221, 210),
    ]
    for c in players:
        flat += [c, _tint(c, 0.3), _tint(c, 0.6), _dark(c), _dark(c, 0.8)]
    backgrounds = [CELL, WHITE, BACKGROUND, HILITE, *players, *(_tint(c, 0.3) for c in players)]
    return palette(flat, backgrounds, [INK, FAINT, WHITE])


def _unit(q: int, r: int) -> tuple[float, float]:
    """A cell's centre in units of the hex radius."""
    return SQRT3 * (q + r / 2), 1.5 * r


@cache
def _offsets(size: float) -> tuple[tuple[float, float], ...]:
    return tuple(
        (size * math.cos(math.radians(60 * i - 30)), size * math.sin(math.radians(60 * i - 30)))
        for i in range(6)
    )


def _corners(x: float, y: float, size: float) -> list[tuple[float, float]]:
    return [(x + dx, y + dy) for dx, dy in _offsets(size)]


def _dist(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def in_play(view: dict[str, Any]) -> set[str]:
    """The cells the picture shows: figures and homelands of active players, plus two rings."""
    core = set(view["board"])
    for info in view["players"].values():
        core |= set(info["homeland"])
    if not core:
        return set(CELLS)
    near = set()
    for c in core:
        q, r = COORD[c]
        for dq in range(-2, 3):
            for dr in range(-2, 3):
                if (
                    abs(dq + dr) <= 2
                    and max(abs(q + dq), abs(r + dr), abs(q + dq + r + dr)) <= RADIUS
                ):
                    near.add(name_of(q + dq, r + dr))
    return near


def anchor_cell(cells: list[str]) -> str:
    """The figure's cell nearest its centroid: where its mass is written."""
    pts = [_unit(*COORD[c]) for c in cells]
    cx = sum(p[0] for p in pts) / len(pts)
    cy = sum(p[1] for p in pts) / len(pts)
    return min(
        cells, key=lambda c: ((_unit(*COORD[c])[0] - cx) ** 2 + (_unit(*COORD[c])[1] - cy) ** 2, c)
    )


class MapLayout:
    """The hex size and pixel box of the cropped map, and how it is cut into parts."""

    def __init__(self, cells: set[str], fit_height: int | None = None) -> None:
        """`fit_height`: shrink the hexes (never below S_MIN) so the map is at most that tall,
        when it then fits in one part: the map and the panel go in one picture."""
        us = [_unit(*COORD[c]) for c in cells]
        self.ux0 = min(u[0] for u in us) - SQRT3 / 2
        self.ux1 = max(u[0] for u in us) + SQRT3 / 2
        self.uy0 = min(u[1] for u in us) - 1
        self.uy1 = max(u[1] for u in us) + 1
        avail = WIDTH - 2 * MARGIN
        span = self.ux1 - self.ux0
        self.columns = max(1, math.ceil(span * S_MIN / avail))
        # parts overlap by one hex column so a figure at a cut shows whole in one of them
        self.size = min(S_MAX, (self.columns * avail) / (span + (self.columns - 1) * SQRT3))
        tall = self.uy1 - self.uy0
        if fit_height and self.columns == 1 and S_MIN * tall + 2 * MARGIN <= fit_height:
            self.size = min(self.size, (fit_height - 2 * MARGIN) / tall)
        self.width = round(span * self.size + 2 * MARGIN)
        self.ox = 0.0  # where the map's top left corner is drawn
        self.oy = 0.0
        self.height = round((self.uy1 - self.uy0) * self.size + 2 * MARGIN)

    def centre(self, cell: str) -> tuple[float, float]:
        ux, uy = _unit(*COORD[cell])
        return (
            self.ox + MARGIN + (ux - self.ux0) * self.size,
            self.oy + MARGIN + (uy - self.uy0) * self.size,
        )

    def parts(self) -> list[tuple[int, int, int, int]]:
        """(x0, y0, x1, y1) of each part: at most WIDTH wide and MAX_HEIGHT tall."""
        xs = [(0, self.width)]
        if self.width > WIDTH:
            n = math.ceil(self.width / WIDTH)
            step = (self.width - WIDTH) / (n - 1)
            xs = [(round(i * step), round(i * step) + WIDTH) for i in range(n)]
        ys = [(0, self.height)]
        if self.height > MAX_HEIGHT:
            n = math.ceil(self.height / (MAX_HEIGHT - 60))
            step = (self.height - MAX_HEIGHT) / (n - 1)
            ys = [(round(i * step), round(i * step) + MAX_HEIGHT) for i in range(n)]
        return [(x0, y0, x1, y1) for y0, y1 in ys for x0, x1 in xs]


def _draw_map(
    pen: Pen,
    view: dict[str, Any],
    lay: MapLayout,
    cells: set[str],
    colour: dict[str, RGB],
    changed: dict[str, tuple[str | None, str | None]],
    box: tuple[float, float, float, float],
) -> None:
    """The map's cells that lie whole inside `box` (x0, y0, x1, y1 on the sheet): a cell the
    box would cut is left out (its neighbouring part shows it whole), so no cell id is ever
    clipped into another ("Q12" read "Q1" at the seam of two parts)."""
    d = pen.d
    s = lay.size
    hw, hh = s * SQRT3 / 2 + 3, s + 3  # a hex's half width and height, with its outline
    x0, y0, x1, y1 = box[0] + hw, box[1] + hh, box[2] - hw, box[3] - hh
    board: dict[str, str] = view["board"]
    home_owner = {c: p for p, info in view["players"].items() for c in info["homeland"]}
    anchors: dict[str, tuple[int, str]] = {}
    for name, info in view["players"].items():
        for fig in info["figures"]:
            anchors[anchor_cell(fig["cells"])] = (fig["mass"], name)
    id_size = NUMBER if s < 30 else NUMBER + 2
    shapes = seat_shapes(view)
    at: dict[str, tuple[float, float]] = {}
    faint = []
    for cell in CELLS:
        x, y = lay.centre(cell)
        if x0 <= x <= x1 and y0 <= y <= y1:
            if cell in cells:
                at[cell] = (x, y)
            else:
                faint.append((x, y))
    # cells out of play inside the crop: faint, for orientation, without ids
    for x, y in faint:
        d.polygon(_corners(x, y, s), fill=BACKGROUND, outline=(226, 221, 210))
    for cell, (x, y) in at.items():
        owner = board.get(cell)
        if owner is not None:
            fill = colour[owner]
        elif cell in home_owner:
            fill = _tint(colour[home_owner[cell]], 0.3)
        else:
            fill = CELL
        d.polygon(_corners(x, y, s), fill=fill, outline=CELL_LINE)
    for cell, owner in home_owner.items():
        if cell in at:
            d.polygon(_corners(*at[cell], s - 3), outline=_dark(colour[owner], 0.8), width=3)
    # figure outlines: the sides of each figure's cells that face no cell of the same figure
    for name, info in view["players"].items():
        edge = _dark(colour[name])
        for fig in info["figures"]:
            own = set(fig["cells"])
            for c in own:
                if c not in at:
                    continue
                q, r = COORD[c]
                pts = _corners(*at[c], s)
                for dq, dr in NEIGHBOURS:
                    nq, nr = q + dq, r + dr
                    if _dist((nq, nr), (0, 0)) <= RADIUS and name_of(nq, nr) in own:
                        continue
                    i, j = EDGE_OF[(dq, dr)]
                    d.line((*pts[i], *pts[j]), fill=edge, width=3)
    for cell, (_before, now) in changed.items():
        if cell in at:
            _change_mark(pen, *at[cell], s, emptied=now is None)
    for cell, (x, y) in at.items():
        owner = board.get(cell)
        ink = (
            text_on(colour[owner]) if owner is not None else (INK if cell in home_owner else FAINT)
        )
        if cell in anchors:
            mass, name = anchors[cell]
            pen.text((x, y - 1), cell, id_size, "number", fill=ink, anchor="md")
            h = MASS_H if s < S_MAX else MASS_H + 3
            mass_badge(pen, x, y - 2 + h / 2, str(mass), shapes[name], h, id_size)
        else:
            pen.text((x, y), cell, id_size, "number", bold=owner is not None, fill=ink, anchor="mm")


# A figure's mass is written in a white badge of its owner's shape (engine/core/picture.py
# SEAT_SHAPES, by seat), under its middle cell's id: found reviewing pictures, a figure told
# its owner by colour only, and under simulated deuteranopia the orange and yellow players
# (seats 2 and 5), or the green and pink (3 and 4), were one grey. The panel's swatch beside
# each name is drawn in the same shape: the key. Sizes at 720 px: 18 px tall (21 at the
# largest hexes), a mass of two digits at 16 px bold inside; the cut of each shape:
MASS_H = 18
MASS_CUT = {"pointed": 5, "slanted": 6, "peaked": 5, "shield": 5}


def seat_shapes(view: dict[str, Any]) -> dict[str, str]:
    """Each player's shape by his seat, as his colour (`player_colours`)."""
    return {p: SEAT_SHAPES[i["seat"] % len(SEAT_SHAPES)] for p, i in view["players"].items()}


def mass_width(text: str, shape: str, h: int, size: int = NUMBER) -> int:
    x0, _y0, x1, _y1 = ink_box(text, size, True)
    return max(h + 2, x1 - x0 + 10 + (2 * MASS_CUT["pointed"] if shape == "pointed" else 0))


def mass_badge(
    pen: Pen, x: float, y: float, text: str, shape: str, h: int, size: int = NUMBER
) -> tuple[float, float, float, float]:
    """A white badge of `shape` centred on (x, y), `text` (a mass) in ink in its middle, clear
    of the shape's points; returns its box."""
    x0, y0, x1, y1 = ink_box(text, size, True)
    k = MASS_CUT.get(shape, 0)
    w = mass_width(text, shape, h, size)
    box = (round(x - w / 2), round(y - h / 2), round(x - w / 2) + w, round(y - h / 2) + h)
    draw_shape(pen.d, shape, box, k, WHITE, INK, 2)
    dy = {"peaked": 1.5, "shield": -1.5}.get(shape, 0)  # away from the point
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + dy
    pen.text((cx - (x0 + x1) / 2, cy - (y0 + y1) / 2), text, size, "number", bold=True, anchor="mm")
    return box


def _change_mark(pen: Pen, x: float, y: float, s: float, emptied: bool, width: int = 4) -> None:
    """A ring in the change colour: whole where a piece is new, broken where a cell was
    emptied (a whole ring on an empty cell read as a piece of a pink player)."""
    pts = _corners(x, y, s - 2)
    if not emptied:
        pen.d.polygon(pts, outline=CHANGE, width=width)
        return
    for i in range(6):
        (ax, ay), (bx, by) = pts[i], pts[(i + 1) % 6]
        for t0, t1 in ((0.0, 0.3), (0.7, 1.0)):
            pen.d.line(
                (
                    ax + (bx - ax) * t0,
                    ay + (by - ay) * t0,
                    ax + (bx - ax) * t1,
                    ay + (by - ay) * t1,
                ),
                fill=CHANGE,
                width=width - 1,
            )


def title(w: Words, v: dict[str, Any]) -> str:
    """The panel's title: "Round 3 of 8", "Round 3" when the rounds are not counted."""
    rounds = v.get("rounds")
    if rounds:
        return w(TITLE_ROUNDS, round=v["round"], rounds=rounds)
    return w(TITLE_ROUND, round=v["round"])


class _Panel:
    def __init__(
        self,
        view: dict[str, Any],
        viewer: str | None,
        w: Words,
        colour: dict[str, RGB],
        changed: dict[str, tuple[str | None, str | None]],
    ) -> None:
        self.v, self.viewer, self.w, self.colour = view, viewer, w, colour
        self.changed = changed
        self.shapes = seat_shapes(view)

    def draw(self, pen: Pen | None, x: float, y: float, width: float) -> float:
        v, w = self.v, self.w
        top = y
        y += draw_title(pen, (x, y), title(w, v), width) + 14
        turn = v.get("turn")
        if v.get("over"):
            winners = w.list((v.get("result") or [[]])[0])
            if pen is not None:
                pen.text((x, y), w(OVER, players=winners), NAME, "name", bold=True, max_w=width)
            y += NAME + 14
        elif turn is not None:
            who = turn["player"]
            if pen is not None:
                d = pen.d
                d.rounded_rectangle((x - 8, y - 6, x + width, y + 2 * NAME + 30), 8, HILITE)
                shape = self.shapes.get(who, "square")
                box = (x, y, x + 24, y + 24)
                draw_shape(d, shape, box, MASS_CUT.get(shape, 0), self.colour[who], INK)
                pen.text(
                    (x + 34, y), w(TO_PLAY, player=who), NAME, "name", bold=True, max_w=width - 40
                )
                dx = x
                dy = y + NAME + 14
                for die in turn["dice"]:
                    _die(pen, dx, dy, die)
                    dx += 40
                total = sum(turn["dice"]) + turn["bonus"]
                pen.text(
                    (dx + 6, dy + 4),
                    w(DICE, bonus=turn["bonus"], total=total, points=turn["points"]),
                    NAME,
                    "number",
                    bold=True,
                    max_w=x + width - dx - 10,
                )
            y += 2 * NAME + 40
        if pen is not None:
            pen.d.line((x - 8, y - 4, x + width + 8, y - 4), fill=RULE, width=2)
        y += 8
        for name, info in sorted(v["players"].items(), key=lambda kv: kv[1]["seat"]):
            y += self._player(pen, x, y, width, name, info)
        y += self._legend(pen, x, y, width)
        return y - top

    def _legend(self, pen: Pen | None, x: float, y: float, width: float) -> float:
        """One line (wrapped) saying what each mark on the map means: the homeland tint, the
        change rings (new piece, emptied cell) and the figure's mass."""
        v, w = self.v, self.w
        homes = [p for p, i in sorted(v["players"].items(), key=lambda kv: kv[1]["seat"])]
        homes = [p for p in homes if v["players"][p]["homeland"]]
        items: list[tuple[str, str]] = []
        if homes:
            items.append((homes[0], w(LEGEND_HOME)))
        if any(now is not None for _b, now in self.changed.values()):
            items.append(("new", w(LEGEND_NEW)))
        if any(now is None for _b, now in self.changed.values()):
            items.append(("gone", w(LEGEND_GONE)))
        if v["board"]:
            items.append(("mass", w(LEGEND_MASS)))
        if not items:
            return 0
        size, row, r = NUMBER, NUMBER + 14, 12
        cx, cy = x, y + 6
        first = min(v["players"], key=lambda p: v["players"][p]["seat"])
        for kind, text in items:
            sw = 2 * r if kind != "mass" else mass_width("3", self.shapes[first], MASS_H)
            need = sw + 6 + text_width(text, size)
            if cx > x and cx + need > x + width:
                cx, cy = x, cy + row
            if pen is not None:
                hx, hy = cx + r, cy + size / 2 + 1
                pts = _corners(hx, hy, r)
                if kind == "mass":  # in the first player's shape: his row above says it is his
                    mass_badge(pen, cx + sw / 2, hy, "3", self.shapes[first], MASS_H)
                elif kind in ("new", "gone"):
                    fill = FAINT if kind == "new" else CELL  # a piece of anyone, an empty cell
                    pen.d.polygon(pts, fill=fill, outline=CELL_LINE)
                    _change_mark(pen, hx, hy, r + 1, emptied=kind == "gone", width=3)
                else:
                    pen.d.polygon(pts, fill=_tint(self.colour[kind], 0.3), outline=CELL_LINE)
                    ring = _corners(hx, hy, r - 2)
                    pen.d.polygon(ring, outline=_dark(self.colour[kind], 0.8), width=2)
                pen.text(
                    (cx + sw + 6, cy), text, size, "text", fill=MUTED, max_w=x + width - cx - sw - 6
                )
            cx += need + 18
        return cy + row - y + 4

    def _player(
        self, pen: Pen | None, x: float, y: float, width: float, name: str, info: dict[str, Any]
    ) -> float:
        w = self.w
        active = info["active"]
        shape = self.shapes.get(name, "square")
        figs = sorted(
            info["figures"], key=lambda f: (-f["mass"], CELLS.index(anchor_cell(f["cells"])))
        )
        items = [(anchor_cell(f["cells"]), f["mass"]) for f in figs]
        rows = figure_rows(w, items, shape, width - 34) if active else []
        h = NAME + 12 + len(rows) * FIGURE_ROW + 10
        if pen is not None:
            fill = self.colour[name] if active else _tint(self.colour[name], 0.3)
            box = (x, y + 2, x + 22, y + 24)
            draw_shape(pen.d, shape, box, MASS_CUT.get(shape, 0), fill, INK)
            label = name + (f" ({w(YOU)})" if name == self.viewer else "")
            nw = pen.text(
                (x + 34, y),
                label,
                NAME,
                "name",
                bold=True,
                fill=INK if active else MUTED,
                max_w=width * 0.55,
            )
            side = w(SIDE_NAMES[info["side"]]) if info["side"] in SIDE_NAMES else info["side"]
            detail = w(PLAYER_LINE, side=side, pieces=info["pieces"]) if active else w(OUT)
            pen.text(
                (x + 34 + nw + 12, y + 4),
                detail,
                NUMBER + 1,
                "number",
                fill=MUTED,
                max_w=width - nw - 50,
            )
            yy = y + NAME + 10
            for row in rows:
                draw_figure_row(pen, x + 34, yy, row, shape)
                yy += FIGURE_ROW
        return h


# The panel lists a player's figures as the map shows them: the id of a figure's middle cell,
# then its mass in a badge of his shape ("Figures: A2 [5], L4 [1]"). "A2 ×5" beside the map's
# badges asked the reader to match two notations (found reviewing pictures).
FIGURE_TEXT = NUMBER + 1
FIGURE_ROW = NUMBER + 7
_FIGURE_GAP = 4  # between a cell's id and its badge
# a piece of a row: ("text", words) or ("figure", cell id, mass)
Piece = tuple[str, ...]


def figure_rows(
    w: Words, figures: list[tuple[str, int]], shape: str, width: float, most: int = 3
) -> list[list[Piece]]:
    """The panel's figure list in rows at most `width` wide: the words of "Figures: {list}"
    around the figures, the list's separator after all but the last, never broken inside a
    figure; at most `most` rows, the last ending in "…" when the figures do not all fit;
    "no figures" when there are none."""
    if not figures:
        return [[("text", w(NO_FIGURES))]]
    before, _mark, after = w(FIGURES, list="\0").partition("\0")
    sep = w.list(["", ""])
    units: list[list[Piece]] = [[("text", before)]] if before else []
    for i, (cell, mass) in enumerate(figures):
        unit: list[Piece] = [("figure", cell, str(mass))]
        units.append([*unit, ("text", sep)] if i < len(figures) - 1 else unit)
    if after:
        units.append([("text", after)])
    rows: list[list[Piece]] = [[]]
    room = width
    for unit in units:
        need = sum(_piece_width(p, shape) for p in unit)
        if rows[-1] and need > room:
            rows.append([])
            room = width
        rows[-1] += unit
        room -= need
    if len(rows) > most:
        rows = rows[:most]
        last, more = rows[-1], ("text", "…")
        while last and sum(_piece_width(p, shape) for p in (*last, more)) > width:
            last.pop()
        while last and last[-1][0] == "text":  # no separator before the ellipsis
            last.pop()
        last.append(more)
    return rows


def _piece_width(piece: Piece, shape: str) -> float:
    if piece[0] == "figure":
        id_w = text_width(piece[1], FIGURE_TEXT)
        return id_w + _FIGURE_GAP + mass_width(piece[2], shape, MASS_H)
    return text_width(piece[1], FIGURE_TEXT)


def draw_figure_row(pen: Pen, x: float, y: float, row: list[Piece], shape: str) -> None:
    """One row of `figure_rows` from (x, y): its words on one baseline, each figure's cell id
    on it and its mass badge beside, as tall as the map's, centred on the id's height."""
    base = y + FIGURE_TEXT
    _x0, y0, _x1, y1 = ink_box("0", FIGURE_TEXT)
    middle = base - (y1 - y0) / 2
    for piece in row:
        if piece[0] == "figure":
            x += pen.text((x, base), piece[1], FIGURE_TEXT, "number", anchor="ls") + _FIGURE_GAP
            bw = mass_width(piece[2], shape, MASS_H)
            mass_badge(pen, x + bw / 2, middle, piece[2], shape, MASS_H)
            x += bw
        else:
            x += pen.text((x, base), piece[1], FIGURE_TEXT, "number", anchor="ls")


def _die(pen: Pen, x: float, y: float, value: int, size: int = 30) -> None:
    d = pen.d
    d.rounded_rectangle((x, y, x + size, y + size), radius=6, fill=WHITE, outline=INK, width=2)
    pips = {
        1: [(1, 1)],
        2: [(0, 0), (2, 2)],
        3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (2, 0), (0, 2), (2, 2)],
        5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
        6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
    }.get(value, [])
    step = size / 4
    for px, py in pips:
        cx, cy = x + step * (px + 1), y + step * (py + 1)
        d.ellipse((cx - 3, cy - 3, cx + 3, cy + 3), fill=INK)


def player_colours(view: dict[str, Any]) -> dict[str, RGB]:
    """Each player's colour by his seat: the shared palette (engine/core/picture.py), the
    end-of-game card's too. Seat 1 blue and seat 6 sky blue were near alike (found reviewing
    pictures): the shared six hold apart, also under deuteranopia and protanopia."""
    return {
        p: PLAYER_COLORS[info["seat"] % len(PLAYER_COLORS)] for p, info in view["players"].items()
    }


def _caption(w: Words, view: dict[str, Any], changes: list[str]) -> str:
    if view.get("over"):
        head = w(OVER, players=w.list((view.get("result") or [[]])[0]))
    else:
        head = w(CAPTION, round=view["round"])
        if view.get("turn"):
            head += " — " + w(NEXT, player=view["turn"]["player"])
    return " ".join(w(SENTENCE, text=p) for p in (head, "; ".join(changes)) if p)


def _sheets(
    view: dict[str, Any], viewer: str | None, t: Translator | None, previous: dict[str, Any] | None
) -> list[Sheet]:
    w = Words(t)
    colour = player_colours(view)
    changes = Changes(view, previous) if previous is not None else None
    changed = changes.changed if changes is not None else {}
    cap = _caption(w, view, changes.words(w, view) if changes is not None else [])
    cells = in_play(view) | set(changed)
    panel = _Panel(view, viewer, w, colour, changed)
    pad = 24
    panel_h = round(panel.draw(None, pad, pad / 2, WIDTH - 2 * pad) + pad)
    lay = MapLayout(cells, MAX_HEIGHT - panel_h)
    parts = lay.parts()
    if len(parts) == 1 and panel_h + lay.height <= MAX_HEIGHT:
        sheet = new_sheet(WIDTH, panel_h + lay.height, BACKGROUND, cap)
        panel.draw(sheet.pen, pad, pad / 2, WIDTH - 2 * pad)
        lay.ox, lay.oy = (WIDTH - lay.width) / 2, panel_h
        box = (lay.ox, lay.oy, lay.ox + lay.width, lay.oy + lay.height)
        _draw_map(sheet.pen, view, lay, cells, colour, changed, box)
        return [sheet]
    sheets = []
    for i, (x0, y0, x1, y1) in enumerate(parts):
        # each part is drawn on its own, with the cells that lie whole inside it
        part = new_sheet(WIDTH, y1 - y0, BACKGROUND)
        dx = round((WIDTH - (x1 - x0)) / 2)
        lay.ox, lay.oy = dx - x0, -y0
        _draw_map(part.pen, view, lay, cells, colour, changed, (dx, 0, dx + x1 - x0, y1 - y0))
        label = w(MAP_PART, i=i + 1, n=len(parts)) if len(parts) > 1 else ""
        part.caption = (f"{cap} ({label})" if label else cap) if i == 0 else label
        sheets.append(part)
    sheet = new_sheet(WIDTH, min(MAX_HEIGHT, panel_h), WHITE, w(PANEL_CAPTION))
    panel.draw(sheet.pen, pad, pad / 2, WIDTH - 2 * pad)
    sheets.append(sheet)
    return sheets


_DRAWING = Drawing(_sheets, _palette)
render_set = _DRAWING.render_set
render = _DRAWING.render


__all__ = ["in_play", "player_colours", "render", "render_set", "text_width"]
