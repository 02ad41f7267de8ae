"""IEC pictures for phones: view -> palette PNGs. The only module of the game importing Pillow.

One picture when it fits (the map on top, the panel under it), else the map and the panel
apart. The map: terrain and areas (each deposit area's name drawn on its block), column letters
and row numbers (how cells are typed), each building as the letter of its kind (hollow when not
powered this turn) with its modules as a bar (white for missing ones), sites, seismic cells,
and tokens (a face-down token of another player is an empty ring: hidden; the viewer's own show
real or bluff). A cell holds one token per company at most (IEC-20), so up to four, each drawn
apart in seat order: a lone one big in a free cell's middle, more side by side along its top
edge, then a second row; on a building's cell smaller and white-edged, down the cell's right
edge from over its top corner, off the building's letter (drawn over them) and above its module
bar. The panel: turn, phase and radiation, whose move it is (highlighted), every player in turn
order with points, science, technologies (hidden ones counted, never named) and each storage's
contents (public, IEC-S-26), what each found deposit yields, and a legend of every terrain kind
and mark drawn. Buildings new or grown by a module, new sites, and tokens laid, moved or turned
up since the previous picture are marked in the change colour; the caption says it. A fixed
palette keeps encoding cheap. Every word goes through the translator.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from PIL import Image

from engine.core.errors import N_, NP_
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
    TITLE,
    WHITE,
    WIDTH,
    Drawing,
    Pen,
    Sheet,
    Words,
    new_sheet,
    palette,
    text_on,
    text_width,
    wrap,
)
from engine.core.protocol import Translator
from engine.iec.lines import deposit_contents
from engine.iec.picture_story import (
    AT_ONCE,
    OVER,
    Changes,
    caption,
    changes,
    turn_order,
    winners,
)
from engine.iec.rules import PHASE_NAMES
from engine.iec.scenario import COLS, GOODS, Scenario, load

MARGIN = 30  # room for the row numbers and column letters
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
TAG: RGB = (255, 250, 230)  # under an area's name on the map
# the shared palette's first four (Okabe-Ito, engine/core/picture.py): the red and green
# companies this had were one colour under deuteranopia, blue and purple under protanopia
SEAT_RGB: dict[str, RGB] = {f"P{i + 1}": PLAYER_COLORS[i] for i in range(4)}
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
TITLE_TEXT = N_("Turn {turn} · phase {phase}: {name}")
RADIATION = N_("Radiation: {r}")
TO_ACT = N_("{player} to act")
PLAYER_LINE = N_("points: {vp} · science: {science} · technologies: {techs}")
HIDDEN_TECHS = N_("{n} hidden")
OUT = N_("out of the game")
# every company's storages, each apart (public, IEC-S-26; which one holds AC matters, IEC-S-21)
STORAGES = N_("Storages: {list}")
MORE = NP_("+{n} more", "+{n} more")  # storages a company's lines have no room for
STORAGE_LINES = 3  # at most, per company: the panel stays within the picture's height
EMPTY = N_("empty")
DEPOSITS = N_("Deposits: {list}")
UNKNOWN = N_("unknown")
YOU = N_("you")
PANEL_CAPTION = N_("Players, storages and deposits")
# The legend: the terrain kinds by their scenario names (IEC-S-4), then the marks.
TERRAIN_TEXT = {
    "plain": N_("plain: buildable"),
    "liquid": N_("liquid: not buildable"),
    "steep": N_("steep: not buildable"),
    "toxic": N_("toxic: not buildable"),
}
HOME_TEXT = N_("home deposit: {contents}")
AREA_TEXT = N_("deposit areas, classes {classes}")
SEISMIC_TEXT = N_("seismic: buildings may lose modules")
UNPOWERED_TEXT = N_("not powered this turn")
MODULES_TEXT = N_("white in the bar: missing modules")
SITE_TEXT = N_("prepared site")
HIDDEN_TEXT = N_("face-down token: real mine or fake")
REAL_TEXT = N_("your real mine (only you see it)")
UP_TEXT = N_("face-up real mine")
CHANGED_TEXT = N_("changed since the last picture")
SWATCH = 24  # a legend swatch: a small cell
LONE_TOKEN = 16  # the one token of a cell without a building, px across at 720 px width
TOKEN = 11  # one of two to four on a cell without a building
SMALL_TOKEN = 9  # a token on a building's cell
TINY_TOKEN = 7  # one of three or four on a building's cell
TOKEN_GAP = 2  # between two tokens of a free cell


def _letter_name(w: Words, kind: str) -> tuple[str, str]:
    text = w(KIND[kind]) if kind in KIND else kind
    letter, _, name = text.partition("|")
    if not name:  # a translation without the "|": fall back to English
        letter, _, name = KIND.get(kind, kind + "|" + kind).partition("|")
    return letter, name


@cache
def _palette() -> Image.Image:
    seats = list(SEAT_RGB.values())
    flat = [
        PAPER,
        GRID,
        INK,
        MUTED,
        WHITE,
        CHANGE,
        HILITE,
        RULE,
        SEISMIC,
        UNPOWERED,
        TAG,
        (90, 90, 90),
        (0, 0, 0),
        *TERRAIN_RGB.values(),
        *AREA_RGB.values(),
        *seats,
    ]
    backgrounds = [
        PAPER,
        WHITE,
        HILITE,
        TAG,
        UNPOWERED,
        *AREA_RGB.values(),
        *TERRAIN_RGB.values(),
    ]
    return palette(flat, backgrounds, [INK, WHITE, *seats])


class _Map:
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


def _seat_rgb(view: dict[str, Any], player: str) -> RGB:
    return SEAT_RGB.get(view["players"].get(player, {}).get("seat", ""), (0, 0, 0))


def player_colours(view: dict[str, Any]) -> dict[str, RGB]:
    """Each company's colour by its seat (P1..P4), the end-of-game card's too."""
    return {p: _seat_rgb(view, p) for p in view["players"]}


def _fill(s: Scenario, cell: str) -> RGB:
    area = s.area_of.get(cell)
    if area:
        return AREA_RGB.get(s.areas[area].get("class") or "H", (200, 180, 140))
    x, y = s.xy[cell]
    return TERRAIN_RGB.get(s.map[y][x], (214, 200, 170))


# --- the marks, drawn alike on the map and in the legend ----------------------------------------
def _ground(pen: Pen, x0: float, y0: float, c: int, fill: RGB, seismic: bool = False) -> None:
    pen.d.rectangle((x0, y0, x0 + c, y0 + c), fill=fill, outline=GRID)
    if seismic:
        pen.d.line((x0 + 2, y0 + c - 4, x0 + c - 2, y0 + 4), fill=SEISMIC, width=2)


def _frame(pen: Pen, x0: float, y0: float, c: int) -> None:
    pen.d.rectangle((x0 - 2, y0 - 2, x0 + c + 2, y0 + c + 2), outline=CHANGE, width=3)


def _site(pen: Pen, x0: float, y0: float, c: int, col: RGB) -> None:
    pen.d.rectangle((x0 + 3, y0 + 3, x0 + c - 3, y0 + c - 3), outline=col, width=3)


def _building(
    pen: Pen,
    x0: float,
    y0: float,
    c: int,
    col: RGB,
    letter: str,
    powered: bool,
    modules: int,
    full: int,
) -> None:
    """A building whole, as the legend shows it; the map draws the letters after the tokens."""
    _box(pen, x0, y0, c, col, powered, modules, full)
    _letter(pen, x0, y0, c, col, letter, powered)


def _letter(pen: Pen, x0: float, y0: float, c: int, col: RGB, letter: str, powered: bool) -> None:
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


def _box(
    pen: Pen, x0: float, y0: float, c: int, col: RGB, powered: bool, modules: int, full: int
) -> None:
    """The building's box (hollow when not powered) and its module bar under it."""
    d = pen.d
    d.rectangle(
        (x0 + 2, y0 + 2, x0 + c - 2, y0 + c - 7),
        fill=col if powered else UNPOWERED,
        outline=col,
        width=2,
    )
    bar = (c - 4) / full
    for k in range(full):
        d.rectangle(
            (x0 + 2 + k * bar, y0 + c - 6, x0 + 1 + (k + 1) * bar, y0 + c - 2),
            fill=col if k < modules else WHITE,
        )


def _ring_width(size: int) -> int:
    """The owner's ring round a token: a quarter of it across (4 px on a lone token), at
    least 2 px (found reviewing pictures: a 2 px ring round a dark disc was hard to see)."""
    return max(2, size // 4)


def _token(pen: Pen, bx: float, by: float, size: int, col: RGB, up: bool, dot: RGB | None) -> None:
    """A token in the box (bx, by, size): a ring of its owner's colour round a dark face
    (face up) or a white one (face down), the viewer's own face-down real mine dotted in
    its middle (`dot`). Nothing else tells a face-down token: a real one and a fake look
    alike to all but their owner (IEC-S-21, IEC-S-26)."""
    d = pen.d
    ring = _ring_width(size)
    d.ellipse((bx, by, bx + size, by + size), fill=INK if up else WHITE, outline=col, width=ring)
    if dot is not None and not up:
        inset = ring + 1
        d.ellipse((bx + inset, by + inset, bx + size - inset, by + size - inset), fill=dot)


def _edge(pen: Pen, bx: float, by: float, size: int) -> None:
    """A white edge round a small token: it stands apart from a building of its owner's
    colour and from the tokens beside it."""
    pen.d.ellipse((bx - 1, by - 1, bx + size + 1, by + size + 1), fill=WHITE)


def _ring(pen: Pen, bx: float, by: float, size: int) -> None:
    """The change mark round the token in the box (bx, by, size)."""
    ring = 2 if size <= SMALL_TOKEN else 3
    pen.d.ellipse((bx - ring, by - ring, bx + size + ring, by + size + ring), fill=CHANGE)


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


def _placed_tokens(view: dict[str, Any], m: _Map) -> list[tuple[dict[str, Any], float, float, int]]:
    """Every token with its box on the map: (token, left, top, size)."""
    out = []
    for cell, toks in _cell_tokens(view).items():
        x0, y0 = m.xy(cell)
        places = _token_places(m.cell, len(toks), cell in view["buildings"])
        out += [(tok, x0 + dx, y0 + dy, size) for tok, (dx, dy, size) in zip(toks, places)]
    return out


# --- the map -------------------------------------------------------------------------------------
def _draw_map(
    pen: Pen, view: dict[str, Any], viewer: str | None, m: _Map, w: Words, ch: Changes
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
        _ground(pen, x0, y0, c, _fill(s, cell), cell in s.seismic)
    _area_names(pen, view, m)
    for cell, who in view["sites"].items():
        x0, y0 = m.xy(cell)
        if cell in ch.cells:
            _frame(pen, x0, y0, c)
        _site(pen, x0, y0, c, _seat_rgb(view, who))
    for cell, b in view["buildings"].items():
        x0, y0 = m.xy(cell)
        if cell in ch.cells:
            _frame(pen, x0, y0, c)
        full = max(1, int(s.buildings[b["kind"]]["modules"]))
        col = _seat_rgb(view, b["owner"])
        _box(pen, x0, y0, c, col, bool(b["powered"]), int(b["modules"]), full)
    _draw_tokens(pen, view, viewer, m, ch)
    # the letters last: a token beside the widest (W, Ш, a CJK sign) never hides a stroke
    for cell, b in view["buildings"].items():
        x0, y0 = m.xy(cell)
        letter, _name = _letter_name(w, b["kind"])
        _letter(pen, x0, y0, c, _seat_rgb(view, b["owner"]), letter, bool(b["powered"]))


def _draw_tokens(pen: Pen, view: dict[str, Any], viewer: str | None, m: _Map, ch: Changes) -> None:
    """Every token apart from the others of its cell, each ringed when changed."""
    placed = _placed_tokens(view, m)
    for tok, bx, by, size in placed:  # the change rings first: none hides a token beside it
        if tok["id"] in ch.tokens:
            _ring(pen, bx, by, size)
    for _tok, bx, by, size in placed:  # then the edges: none hides a token either
        if size <= SMALL_TOKEN:
            _edge(pen, bx, by, size)
    for tok, bx, by, size in placed:  # four overlapping: each shows its top and centre
        col = _seat_rgb(view, tok["owner"])
        _token(pen, bx, by, size, col, bool(tok["up"]), _dot(tok, viewer, col))


def _dot(tok: dict[str, Any], viewer: str | None, col: RGB) -> RGB | None:
    """The viewer's own face-down real mine is dotted; everything else face down is a ring
    (another's hidden token, IEC-S-26, and the viewer's own fake alike)."""
    if not tok["up"] and tok["owner"] == viewer and tok.get("real"):
        return col
    return None


def _area_names(pen: Pen, view: dict[str, Any], m: _Map) -> None:
    """Each deposit area's name on its block (drawn under the marks: a crowded block still
    shows every building)."""
    for area_id, cx, cy, tw, th, _hits in _area_places(view, m):
        pen.d.rounded_rectangle(
            (cx - tw / 2, cy - th / 2, cx + tw / 2, cy + th / 2), 4, fill=TAG, outline=GRID
        )
        pen.text((cx, cy), area_id, NUMBER, "number", bold=True, anchor="mm")


def _area_places(
    view: dict[str, Any], m: _Map
) -> list[tuple[str, float, float, float, float, int]]:
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


# --- the panel -----------------------------------------------------------------------------------
def _flow(text: str, items: list[str], size: int, width: float) -> list[str]:
    """`text` (a sentence with "{list}") with `items` for the list, in lines at most `width`
    wide that break between items, never inside one."""
    head, _, tail = text.partition("\0")
    if not items:
        return wrap(head + tail, size, width)
    lines: list[str] = []
    line = head
    for i, item in enumerate(items):
        piece = item + (tail if i == len(items) - 1 else "")
        cand = line + (" · " if i else "") + piece
        if i and text_width(cand, size) > width:
            lines.append(line)
            cand = piece
        line = cand
    lines.append(line)
    return [part for ln in lines for part in wrap(ln, size, width)]


def _deposits(w: Words, view: dict[str, Any]) -> list[str]:
    """What each area yields, as the chat says it ("I-NW: C 3+", IEC-S-5), or "unknown"."""
    s = load(view["scenario"])
    items = []
    for area_id in s.areas:
        area = view["areas"].get(area_id)
        if area is None or s.areas[area_id].get("fixed"):
            continue
        found = area["deposit"]
        items.append(f"{area_id}: {deposit_contents(view, found, w.t) if found else w(UNKNOWN)}")
    return items


def _goods(counts: dict[str, int]) -> str:
    return " ".join(f"{counts[g]}{g}" for g in GOODS if counts.get(g))


def _storage_lines(w: Words, view: dict[str, Any], player: str, width: float) -> list[str]:
    """The company's storages, each with its contents ("D3: 2A 1C"), in at most
    STORAGE_LINES lines broken between storages; those with no room are counted ("+2 more"),
    never dropped unsaid. Found reviewing pictures: another company's storages were summed
    into one line, and the viewer's own cut after the third."""
    items = [
        f"{cell}: {_goods(b.get('goods') or {}) or w(EMPTY)}"
        for cell, b in sorted(view["buildings"].items())
        if b["owner"] == player and b["kind"] == "storage"
    ]
    if not items:
        return []
    text = w(STORAGES, list="\0")
    size = NUMBER + 1
    lines = _flow(text, items, size, width)
    shown = len(items)
    while len(lines) > STORAGE_LINES and shown > 1:
        shown -= 1
        rest = w.n(*MORE, len(items) - shown)
        lines = _flow(text, [*items[:shown], rest], size, width)
    return lines[:STORAGE_LINES]


class _Legend:
    """What each terrain kind and mark drawn on the map means: a swatch and its words, in two
    columns."""

    def __init__(
        self, view: dict[str, Any], viewer: str | None, m: _Map, w: Words, ch: Changes
    ) -> None:
        s = m.s
        self.items: list[tuple[Any, str]] = []
        add = self.items.append
        drawn = {k for row in s.map for k in row}
        classes: list[str] = []
        for key, ter in s.terrain.items():
            if key not in drawn:
                continue
            area = ter.get("area")
            if area is None:
                msg = TERRAIN_TEXT.get(ter["name"])
                add(
                    (
                        _Legend._terrain([TERRAIN_RGB.get(key, PAPER)]),
                        w(msg) if msg else ter["name"],
                    )
                )
            elif s.areas[area].get("fixed"):
                # kept whole on a line: "C\u00a04+", never "C" and "4+" apart (the list's ", "
                # stays a break; Chinese text breaks anywhere, "、" included)
                fixed = deposit_contents(view, s.areas[area]["fixed"], w.t)
                contents = fixed.replace(" ", "\u00a0").replace(",\u00a0", ", ")
                add((_Legend._terrain([AREA_RGB["H"]]), w(HOME_TEXT, contents=contents)))
            elif s.areas[area].get("class") not in classes:
                classes.append(s.areas[area]["class"])
        if classes:  # one swatch striped with each class's colour; the map names each area
            fills = [AREA_RGB.get(cls, PAPER) for cls in classes]
            add((_Legend._terrain(fills), w(AREA_TEXT, classes=w.list(classes))))
        if s.seismic:
            fill = _fill(s, next(iter(sorted(s.seismic))))
            add((_Legend._terrain([fill], seismic=True), w(SEISMIC_TEXT)))
        buildings = list(view["buildings"].values())
        if any(not b["powered"] for b in buildings):
            add((_Legend._unpowered(w), w(UNPOWERED_TEXT)))
        if any(b["modules"] < int(s.buildings[b["kind"]]["modules"]) for b in buildings):
            add((_Legend._modules, w(MODULES_TEXT)))
        if view["sites"]:
            add((_Legend._site, w(SITE_TEXT)))
        toks = view["tokens"]
        if any(not t["up"] and _dot(t, viewer, MUTED) is None for t in toks):
            add((_Legend._token(MUTED, False, None), w(HIDDEN_TEXT)))
        if viewer is not None and any(_dot(t, viewer, MUTED) for t in toks):
            col = _seat_rgb(view, viewer)
            add((_Legend._token(col, False, col), w(REAL_TEXT)))
        if any(t["up"] for t in toks):
            add((_Legend._token(MUTED, True, None), w(UP_TEXT)))
        if ch.cells or ch.tokens:
            add((_Legend._changed, w(CHANGED_TEXT)))

    @staticmethod
    def _terrain(fills: list[RGB], seismic: bool = False) -> Any:
        def draw(pen: Pen, x: float, y: float) -> None:
            _ground(pen, x, y, SWATCH, fills[0], seismic)
            stripe = SWATCH / len(fills)
            for i, fill in enumerate(fills[1:], 1):
                pen.d.rectangle((x + i * stripe, y + 1, x + SWATCH - 1, y + SWATCH - 1), fill=fill)

        return draw

    @staticmethod
    def _unpowered(w: Words) -> Any:
        letter = _letter_name(w, "mine")[0]

        def draw(pen: Pen, x: float, y: float) -> None:
            _ground(pen, x, y, SWATCH, TERRAIN_RGB["."])
            _building(pen, x, y, SWATCH, MUTED, letter, False, 1, 1)

        return draw

    @staticmethod
    def _modules(pen: Pen, x: float, y: float) -> None:
        _ground(pen, x, y, SWATCH, TERRAIN_RGB["."])
        _building(pen, x, y, SWATCH, MUTED, "", True, 1, 2)

    @staticmethod
    def _site(pen: Pen, x: float, y: float) -> None:
        _ground(pen, x, y, SWATCH, TERRAIN_RGB["."])
        _site(pen, x, y, SWATCH, MUTED)

    @staticmethod
    def _token(col: RGB, up: bool, dot: RGB | None) -> Any:
        def draw(pen: Pen, x: float, y: float) -> None:
            _ground(pen, x, y, SWATCH, TERRAIN_RGB["."])
            at = (SWATCH - LONE_TOKEN) / 2  # as a lone token on a cell
            _token(pen, x + at, y + at, LONE_TOKEN, col, up, dot)

        return draw

    @staticmethod
    def _changed(pen: Pen, x: float, y: float) -> None:
        _ground(pen, x, y, SWATCH, TERRAIN_RGB["."])
        _frame(pen, x + 2, y + 2, SWATCH - 4)

    def draw(self, pen: Pen | None, x: float, y: float, width: float) -> float:
        """Two columns of swatches and words; returns the height."""
        gap = 16
        col_w = (width - gap) / 2
        text_w = col_w - SWATCH - 8
        line_h = NUMBER + 5
        top = y
        for i in range(0, len(self.items), 2):
            row_h = 0
            for k, (swatch, text) in enumerate(self.items[i : i + 2]):
                lines = wrap(text, NUMBER, text_w)
                xx = x + k * (col_w + gap)
                if pen is not None:
                    swatch(pen, xx, y)
                    for j, line in enumerate(lines):
                        pen.text((xx + SWATCH + 8, y + 3 + j * line_h), line, NUMBER, "text")
                row_h = max(row_h, SWATCH, len(lines) * line_h)
            y += row_h + 6
        return y - top


class _Panel:
    def __init__(self, view: dict[str, Any], viewer: str | None, w: Words, legend: _Legend) -> None:
        self.v, self.viewer, self.w, self.legend = view, viewer, w, legend

    def draw(self, pen: Pen | None, x: float, y: float, width: float) -> float:
        v, w = self.v, self.w
        top = y
        name = w(PHASE_NAMES[v["phase"]]) if v["phase"] in PHASE_NAMES else str(v["phase"])
        if pen is not None:
            pen.text(
                (x, y),
                w(TITLE_TEXT, turn=v["turn"], phase=v["phase"], name=name),
                TITLE,
                "name",
                bold=True,
                max_w=width,
            )
        y += TITLE + 10
        if pen is not None:
            pen.text((x, y), w(RADIATION, r=v["radiation"]), NAME, "number", bold=True)
        y += NAME + 12
        actor = v.get("actor")
        actors = v.get("actors") or []  # rules version 2: a phase declared at once
        if len(actors) == 1:
            actor = actors[0]
        if v.get("over"):
            if pen is not None:
                pen.text((x, y), w(OVER, players=winners(w, v)), NAME, "name", bold=True)
            y += NAME + 14
        elif actor:
            if pen is not None:
                pen.d.rounded_rectangle((x - 8, y - 5, x + width, y + NAME + 9), 8, HILITE)
                pen.d.rectangle((x, y, x + 22, y + 22), fill=_seat_rgb(v, actor), outline=INK)
                pen.text(
                    (x + 32, y), w(TO_ACT, player=actor), NAME, "name", bold=True, max_w=width - 40
                )
            y += NAME + 18
        elif len(actors) > 1:
            if pen is not None:
                pen.d.rounded_rectangle((x - 8, y - 5, x + width, y + NAME + 9), 8, HILITE)
                pen.text(
                    (x, y),
                    w(AT_ONCE, players=w.list(actors)),
                    NAME,
                    "name",
                    bold=True,
                    max_w=width,
                )
            y += NAME + 18
        if pen is not None:
            pen.d.line((x - 8, y, x + width + 8, y), fill=RULE, width=2)
        y += 10
        for p in turn_order(v):
            y += self._player(pen, x, y, width, p)
        for line in _flow(w(DEPOSITS, list="\0"), _deposits(w, v), NUMBER + 1, width):
            if pen is not None:
                pen.text((x, y), line, NUMBER + 1, "number", fill=MUTED)
            y += NUMBER + 8
        y += 6
        y += self.legend.draw(pen, x, y, width)
        kinds = " · ".join("{} {}".format(*_letter_name(w, k)) for k in KIND)
        for line in wrap(kinds, NUMBER, width):
            if pen is not None:
                pen.text((x, y), line, NUMBER, "text", fill=MUTED)
            y += NUMBER + 6
        return y - top + 6

    def _player(self, pen: Pen | None, x: float, y: float, width: float, p: str) -> float:
        v, w = self.v, self.w
        pl = v["players"][p]
        out = bool(pl["eliminated"])
        vp = pl["final_vp"] if out else pl["vp"]
        techs = str(len(pl["techs"]))
        if pl.get("hidden_techs"):
            techs += " + " + w(HIDDEN_TECHS, n=pl["hidden_techs"])
        detail = w(OUT) if out else w(PLAYER_LINE, vp=vp, science=pl["science"], techs=techs)
        lines = [detail, *_storage_lines(w, v, p, width - 30)]
        h = NAME + 10 + len(lines) * (NUMBER + 7) + 6
        if pen is not None:
            pen.d.rectangle((x, y + 2, x + 20, y + 22), fill=_seat_rgb(v, p), outline=INK)
            label = p + (f" ({w(YOU)})" if p == self.viewer else "")
            pen.text(
                (x + 30, y),
                label,
                NAME,
                "name",
                bold=True,
                fill=MUTED if out else INK,
                max_w=width - 30,
            )
            yy = y + NAME + 8
            for line in lines:
                pen.text(
                    (x + 30, yy),
                    line,
                    NUMBER + 1,
                    "number",
                    fill=MUTED if out else INK,
                    max_w=width - 30,
                )
                yy += NUMBER + 7
        return h


def _sheets(
    view: dict[str, Any], viewer: str | None, t: Translator | None, previous: dict[str, Any] | None
) -> list[Sheet]:
    w = Words(t)
    m = _Map(view)
    ch = changes(view, previous)
    cap = caption(w, view, ch.told)
    panel = _Panel(view, viewer, w, _Legend(view, viewer, m, w, ch))
    pad = 24
    panel_h = round(panel.draw(None, pad, 10, WIDTH - 2 * pad) + 16)
    if m.height + panel_h <= MAX_HEIGHT:
        sheet = new_sheet(WIDTH, m.height + panel_h, PAPER, cap)
        _draw_map(sheet.pen, view, viewer, m, w, ch)
        sheet.pen.d.rectangle((0, m.height, WIDTH, m.height + panel_h), fill=WHITE)
        sheet.pen.d.line((0, m.height, WIDTH, m.height), fill=RULE, width=2)
        panel.draw(sheet.pen, pad, m.height + 10, WIDTH - 2 * pad)
        return [sheet]
    top = new_sheet(WIDTH, m.height, PAPER, cap)
    _draw_map(top.pen, view, viewer, m, w, ch)
    bottom = new_sheet(WIDTH, min(MAX_HEIGHT, panel_h), WHITE, w(PANEL_CAPTION))
    panel.draw(bottom.pen, pad, 10, WIDTH - 2 * pad)
    return [top, bottom]


_DRAWING = Drawing(_sheets, _palette)
render_set = _DRAWING.render_set
render = _DRAWING.render
