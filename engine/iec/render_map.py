"""The IEC map: terrain and areas (each deposit area's name on its block), column letters and
row numbers (how cells are typed), sites, buildings and tokens, each cell's tokens apart."""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.core.picture import MUTED, NUMBER, RGB, WIDTH, Pen, Words, text_width
from engine.iec.picture_story import Changes
from engine.iec.render_marks import (
    GRID,
    LONE_TOKEN,
    SMALL_TOKEN,
    TINY_TOKEN,
    TOKEN,
    TOKEN_GAP,
    cell_fill,
    draw_box,
    draw_edge,
    draw_frame,
    draw_ground,
    draw_letter,
    draw_ring,
    draw_site,
    draw_token,
    letter_name,
    seat_rgb,
    seat_shape,
    token_dot,
)
from engine.iec.scenario import COLS, load

MARGIN = 30  # room for the row numbers and column letters
TAG: RGB = (255, 250, 230)  # under an area's name on the map


class Map:
    """The scenario, its cell size at the picture's width and where each cell is drawn."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.s = load(view["scenario"])
        self.cell = (WIDTH - MARGIN - 6) // self.s.width
        self.height = MARGIN + self.s.height * self.cell + 8

    def xy(self, cell: str) -> tuple[int, int]:
        x, y = self.s.xy[cell]
        return MARGIN + x * self.cell, MARGIN + y * self.cell


@cache
def _blocks(scenario_id: str) -> dict[str, list[str]]:
    """Each area's cells, in scenario order (the home deposit, "H", included)."""
    s = load(scenario_id)
    out: dict[str, list[str]] = {a: [] for a in s.areas}
    for cell in s.cells:
        if cell in s.area_of:
            out[s.area_of[cell]].append(cell)
    return out


def _token_places(c: int, n: int, small: bool) -> list[tuple[float, float, int]]:
    """(left, top, size) of each of a cell's `n` tokens, from the cell's top left corner. A
    cell holds one token per company at most (IEC-20: laid or moved only where the player has
    none, IEC-S-21), so up to four; found playing: two tokens on one cell were drawn on top of
    each other, the first one hidden."""
    return _column(c, n) if small else _rows(c, n)


def _rows(c: int, n: int) -> list[tuple[float, float, int]]:
    """On a free cell: one token big in its middle (inside a prepared site's frame); more
    side by side along the top edge, then a second row (two of 11 px fit a row of a 28 px
    cell at 720 px width). Found reviewing pictures: a lone token of 11 px was too small to
    tell its owner by on a phone."""
    if n == 1:
        size = min(LONE_TOKEN, c - 12)
        return [((c - size) / 2, (c - size) / 2, size)]
    right = c - 2 - TOKEN
    pitch = TOKEN + TOKEN_GAP
    return [(right - pitch * (1 - i % 2), 2 + pitch * (i // 2), TOKEN) for i in range(n)]


def _column(c: int, n: int) -> list[tuple[float, float, int]]:
    """On a building's cell: smaller, down the cell's right edge from over its top corner
    (each token's centre inside the cell), right of the building's letter, even the widest
    (W, Ш, a CJK sign), and above its module bar, whose right end is a reactor's last module;
    found playing: a face-up mine hid the letter of the building. The edge holds two tokens of
    9 px or three of 7 px apart at 720 px width; four of 7 px overlap by a third."""
    size = SMALL_TOKEN if n <= 2 else TINY_TOKEN
    top, bottom = -4, c - 8  # the box ends at c - 7, over the module bar; less the white edge
    pitch = float(size + 1)
    if n > 1:
        pitch = min(pitch, (bottom - size - top) / (n - 1))
    left = c - 5 + (SMALL_TOKEN - size) // 2  # one centre line whatever the size
    return [(left, top + i * pitch, size) for i in range(n)]


def _cell_tokens(view: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Each cell's tokens in seat order (P1 first), whatever order they were laid in."""
    out: dict[str, list[dict[str, Any]]] = {}
    for tok in view["tokens"]:
        out.setdefault(tok["cell"], []).append(tok)
    seat = {p: str(pl.get("seat", "")) for p, pl in view["players"].items()}
    for toks in out.values():
        toks.sort(key=lambda t: (seat.get(t["owner"], ""), t["owner"], t["id"]))
    return out


def _placed_tokens(view: dict[str, Any], m: Map) -> list[tuple[dict[str, Any], float, float, int]]:
    """Every token with its box on the map: (token, left, top, size)."""
    out = []
    for cell, toks in _cell_tokens(view).items():
        x0, y0 = m.xy(cell)
        places = _token_places(m.cell, len(toks), cell in view["buildings"])
        out += [(tok, x0 + dx, y0 + dy, size) for tok, (dx, dy, size) in zip(toks, places)]
    return out


# --- the map -------------------------------------------------------------------------------------
def draw_map(
    pen: Pen, view: dict[str, Any], viewer: str | None, m: Map, w: Words, ch: Changes
) -> None:
    s, c = m.s, m.cell
    for i in range(s.width):
        pen.text(
            (MARGIN + i * c + c / 2, MARGIN - 4),
            COLS[i],
            NUMBER,
            "number",
            bold=True,
            fill=MUTED,
            anchor="md",
        )
    for j in range(s.height):
        pen.text(
            (MARGIN - 4, MARGIN + j * c + c / 2),
            str(j + 1),
            NUMBER,
            "number",
            bold=True,
            fill=MUTED,
            anchor="rm",
        )
    for cell in s.cells:
        x0, y0 = m.xy(cell)
        draw_ground(pen, x0, y0, c, cell_fill(s, cell), cell in s.seismic)
    _area_names(pen, view, m)
    for cell, who in view["sites"].items():
        x0, y0 = m.xy(cell)
        if cell in ch.cells:
            draw_frame(pen, x0, y0, c)
        draw_site(pen, x0, y0, c, seat_rgb(view, who), seat_shape(view, who))
    for cell, b in view["buildings"].items():
        x0, y0 = m.xy(cell)
        if cell in ch.cells:
            draw_frame(pen, x0, y0, c)
        full = max(1, int(s.buildings[b["kind"]]["modules"]))
        col, shape = seat_rgb(view, b["owner"]), seat_shape(view, b["owner"])
        draw_box(pen, x0, y0, c, col, shape, bool(b["powered"]), int(b["modules"]), full)
    _draw_tokens(pen, view, viewer, m, ch)
    # the letters last: a token beside the widest (W, Ш, a CJK sign) never hides a stroke
    for cell, b in view["buildings"].items():
        x0, y0 = m.xy(cell)
        letter, _name = letter_name(w, b["kind"])
        draw_letter(pen, x0, y0, c, seat_rgb(view, b["owner"]), letter, bool(b["powered"]))


def _draw_tokens(pen: Pen, view: dict[str, Any], viewer: str | None, m: Map, ch: Changes) -> None:
    """Every token apart from the others of its cell, each ringed when changed."""
    placed = _placed_tokens(view, m)
    for tok, bx, by, size in placed:  # the change rings first: none hides a token beside it
        if tok["id"] in ch.tokens:
            draw_ring(pen, bx, by, size, seat_shape(view, tok["owner"]))
    for tok, bx, by, size in placed:  # then the edges: none hides a token either
        if size <= SMALL_TOKEN:
            draw_edge(pen, bx, by, size, seat_shape(view, tok["owner"]))
    for tok, bx, by, size in placed:  # four overlapping: each shows its top and centre
        col, shape = seat_rgb(view, tok["owner"]), seat_shape(view, tok["owner"])
        dot = token_dot(tok, viewer, col)
        draw_token(pen, bx, by, size, col, shape, bool(tok["up"]), dot)


def _area_names(pen: Pen, view: dict[str, Any], m: Map) -> None:
    """Each deposit area's name on its block (drawn under the marks: a crowded block still
    shows every building)."""
    for area_id, cx, cy, tw, th, _hits in _area_places(view, m):
        pen.d.rounded_rectangle(
            (cx - tw / 2, cy - th / 2, cx + tw / 2, cy + th / 2), 4, fill=TAG, outline=GRID
        )
        pen.text((cx, cy), area_id, NUMBER, "number", bold=True, anchor="mm")


def _area_places(view: dict[str, Any], m: Map) -> list[tuple[str, float, float, float, float, int]]:
    """(area, centre x, centre y, width, height, marks covered) of each deposit area's name:
    on a row of its block or the line between two, centred or at a side, where it covers the
    fewest buildings, sites and tokens, then nearest the block's centre."""
    s, c = m.s, m.cell
    busy: list[tuple[float, float, float, float]] = []
    for cell in (*view["buildings"], *view["sites"]):
        x0, y0 = m.xy(cell)
        busy.append((x0 + 2, y0 + 2, x0 + c - 2, y0 + c - 2))
    for _tok, bx, by, size in _placed_tokens(view, m):
        busy.append((bx - 1, by - 1, bx + size + 1, by + size + 1))
    out: list[tuple[str, float, float, float, float, int]] = []
    for area_id, cells in _blocks(s.id).items():
        if not cells or s.areas[area_id].get("fixed"):
            continue  # the home deposits: the legend names their colour
        xs = [s.xy[k][0] for k in cells]
        ys = [s.xy[k][1] for k in cells]
        left, top = MARGIN + min(xs) * c, MARGIN + min(ys) * c
        right, bottom = MARGIN + (max(xs) + 1) * c, MARGIN + (max(ys) + 1) * c
        tw, th = text_width(area_id, NUMBER, True) + 8, NUMBER + 4
        mid_x, mid_y = (left + right) / 2, (top + bottom) / 2
        best: tuple[tuple[int, float], float, float] | None = None
        for cy in (top + k * c / 2 for k in range(1, 2 * (max(ys) - min(ys) + 1))):
            for cx in (mid_x, left + tw / 2 + 3, right - tw / 2 - 3):
                box = (cx - tw / 2, cy - th / 2, cx + tw / 2, cy + th / 2)
                hits = sum(
                    1
                    for b in busy
                    if b[0] < box[2] and box[0] < b[2] and b[1] < box[3] and box[1] < b[3]
                )
                score = (hits, abs(cx - mid_x) + abs(cy - mid_y))
                if best is None or score < best[0]:
                    best = (score, cx, cy)
        if best is not None:
            (hits, _), cx, cy = best
            out.append((area_id, cx, cy, tw, th, hits))
    return out
