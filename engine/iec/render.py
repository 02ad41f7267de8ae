"""IEC pictures for phones: view -> palette PNGs. The only module of the game importing Pillow.

One picture when it fits (the map on top, the panel under it), else the map and the panel
apart. The map: terrain and areas, column letters and row numbers (how cells are typed), each
building as the letter of its kind with its modules as a bar (filled when powered), sites,
seismic cells, and tokens (a face-down token of another player is an empty ring: hidden; the
viewer's own show real or bluff). The panel: turn, phase and radiation, whose move it is
(highlighted), every player's points, science and technologies (hidden ones counted, never
named), the viewer's storages, the deposits found. Buildings and tokens new since the
previous picture are ringed in the change colour; the caption says it. A fixed palette keeps
encoding cheap. Every word goes through the translator.
"""

from __future__ import annotations

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
    wrap,
)
from engine.core.protocol import Translator
from engine.iec.rules import PHASE_NAMES, result
from engine.iec.scenario import COLS, load

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
SEAT_RGB: dict[str, RGB] = {
    "P1": (200, 40, 40),
    "P2": (40, 90, 200),
    "P3": (30, 150, 60),
    "P4": (150, 60, 170),
}
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
OVER = N_("Game over: {players} won")
PLAYER_LINE = N_("points: {vp} · science: {science} · technologies: {techs}")
HIDDEN_TECHS = N_("{n} hidden")
OUT = N_("out of the game")
STORAGE = N_("Storage {cell}: {goods}")
EMPTY = N_("empty")
DEPOSITS = N_("Deposits: {list}")
UNKNOWN = N_("unknown")
YOU = N_("you")
NEXT = N_("{player} is next")
AT_ONCE = N_("{players} decide at once")
CAPTION = N_("Turn {turn}, {name}")
BUILT = N_("{player} built on {cells}")
TOKENS = N_("{player} laid tokens on {cells}")
PANEL_CAPTION = N_("Players, storages and deposits")
SENTENCE = N_("{text}.")


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
        (240, 240, 240),
        (255, 250, 230),
        (90, 90, 90),
        (0, 0, 0),
        *TERRAIN_RGB.values(),
        *AREA_RGB.values(),
        *seats,
        *PLAYER_COLORS,
    ]
    backgrounds = [
        PAPER,
        WHITE,
        HILITE,
        (255, 250, 230),
        (240, 240, 240),
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


def _seat_rgb(view: dict[str, Any], player: str) -> RGB:
    return SEAT_RGB.get(view["players"].get(player, {}).get("seat", ""), (0, 0, 0))


def _draw_map(
    pen: Pen, view: dict[str, Any], viewer: str | None, m: _Map, w: Words, new: set[str]
) -> None:
    d, s, c = pen.d, m.s, m.cell
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
        x, y = s.xy[cell]
        area = s.area_of.get(cell)
        if area:
            fill = AREA_RGB.get(s.areas[area].get("class") or "H", (200, 180, 140))
        else:
            fill = TERRAIN_RGB.get(s.map[y][x], (214, 200, 170))
        d.rectangle((x0, y0, x0 + c, y0 + c), fill=fill, outline=GRID)
        if cell in s.seismic:
            d.line((x0 + 2, y0 + c - 4, x0 + c - 2, y0 + 4), fill=SEISMIC, width=2)
    for cell, who in view["sites"].items():
        x0, y0 = m.xy(cell)
        d.rectangle((x0 + 3, y0 + 3, x0 + c - 3, y0 + c - 3), outline=_seat_rgb(view, who), width=3)
    for cell, b in view["buildings"].items():
        x0, y0 = m.xy(cell)
        col = _seat_rgb(view, b["owner"])
        if cell in new:
            d.rectangle((x0 - 2, y0 - 2, x0 + c + 2, y0 + c + 2), outline=CHANGE, width=3)
        full = max(1, int(s.buildings[b["kind"]]["modules"]))
        d.rectangle(
            (x0 + 2, y0 + 2, x0 + c - 2, y0 + c - 7),
            fill=col if b["powered"] else (240, 240, 240),
            outline=col,
            width=2,
        )
        letter, _name = _letter_name(w, b["kind"])
        pen.text(
            (x0 + c / 2, y0 + (c - 5) / 2),
            letter,
            NUMBER,
            "number",
            bold=True,
            fill=text_on(col) if b["powered"] else col,
            anchor="mm",
        )
        bar = (c - 4) / full
        for k in range(full):
            d.rectangle(
                (x0 + 2 + k * bar, y0 + c - 6, x0 + 1 + (k + 1) * bar, y0 + c - 2),
                fill=col if k < b["modules"] else WHITE,
            )
    for tok in view["tokens"]:
        x0, y0 = m.xy(tok["cell"])
        col = _seat_rgb(view, tok["owner"])
        bx, by = x0 + c - 13, y0 + 2
        if tok["cell"] in new:
            d.ellipse((bx - 3, by - 3, bx + 14, by + 14), fill=CHANGE)
        if tok["up"]:
            d.ellipse((bx, by, bx + 11, by + 11), fill=INK, outline=col, width=2)
        else:  # face down: hidden from others; the viewer sees its own real or bluff
            d.ellipse((bx, by, bx + 11, by + 11), fill=WHITE, outline=col, width=2)
            if tok.get("real") is not None and tok["owner"] == viewer:
                d.ellipse((bx + 3, by + 3, bx + 8, by + 8), fill=col if tok["real"] else WHITE)


def _areas_text(w: Words, view: dict[str, Any]) -> str:
    items = []
    for area_id, area in sorted(view["areas"].items()):
        if area_id == "H":
            continue
        items.append(f"{area_id} {area['deposit'] or w(UNKNOWN)}")
    return w(DEPOSITS, list=", ".join(items))


class _Panel:
    def __init__(self, view: dict[str, Any], viewer: str | None, w: Words) -> None:
        self.v, self.viewer, self.w = view, viewer, w

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
                pen.text((x, y), w(OVER, players=_winners(v)), NAME, "name", bold=True)
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
                    w(AT_ONCE, players=", ".join(actors)),
                    NAME,
                    "name",
                    bold=True,
                    max_w=width,
                )
            y += NAME + 18
        if pen is not None:
            pen.d.line((x - 8, y, x + width + 8, y), fill=RULE, width=2)
        y += 10
        for p in v["seats"]:
            y += self._player(pen, x, y, width, p)
        for line in wrap(_areas_text(w, v), NUMBER + 1, width):
            if pen is not None:
                pen.text((x, y), line, NUMBER + 1, "number", fill=MUTED)
            y += NUMBER + 8
        legend = " · ".join("{} {}".format(*_letter_name(w, k)) for k in KIND)
        for line in wrap(legend, NUMBER, width):
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
        lines = [detail]
        if p == self.viewer:
            for cell, b in sorted(v["buildings"].items()):
                if b["owner"] == p and b["kind"] == "storage":
                    goods = " ".join(f"{n}{g}" for g, n in (b.get("goods") or {}).items() if n)
                    lines.append(w(STORAGE, cell=cell, goods=goods or w(EMPTY)))
        lines = lines[:4]
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


def _changes(
    view: dict[str, Any], previous: dict[str, Any] | None
) -> tuple[set[str], dict[str, list[str]], dict[str, list[str]]]:
    if previous is None:
        return set(), {}, {}
    before_b = previous.get("buildings") or {}
    built: dict[str, list[str]] = {}
    new: set[str] = set()
    for cell, b in view["buildings"].items():
        old = before_b.get(cell)
        if old is None or old.get("owner") != b["owner"] or old.get("kind") != b["kind"]:
            new.add(cell)
            built.setdefault(b["owner"], []).append(cell)
    before_t = {t["id"] for t in previous.get("tokens") or []}
    laid: dict[str, list[str]] = {}
    for tok in view["tokens"]:
        if tok["id"] not in before_t:
            new.add(tok["cell"])
            laid.setdefault(tok["owner"], []).append(tok["cell"])
    return new, built, laid


def _winners(view: dict[str, Any]) -> str:
    """The first group of the game's own ranking (IEC-S-9: most VP, then intact modules, then
    science; corrections 1.1: survivors first), the one "Game over. Ranking: ..." names; the
    view holds all it reads."""
    ranking = result(view)
    return ", ".join(ranking[0]) if ranking else ""


def _caption(
    w: Words, view: dict[str, Any], built: dict[str, list[str]], laid: dict[str, list[str]]
) -> str:
    name = w(PHASE_NAMES[view["phase"]]) if view["phase"] in PHASE_NAMES else str(view["phase"])
    if view.get("over"):
        head = w(OVER, players=_winners(view))
    else:
        head = w(CAPTION, turn=view["turn"], name=name)
        if view.get("actor"):
            head += " — " + w(NEXT, player=view["actor"])
        elif view.get("actors"):  # one left of those asked at once: "piotr decide at once"
            actors = view["actors"]
            head += " — " + (
                w(NEXT, player=actors[0])
                if len(actors) == 1
                else w(AT_ONCE, players=", ".join(actors))
            )
    parts = []
    for p in view["seats"]:
        if p in built:
            parts.append(w(BUILT, player=p, cells=", ".join(sorted(built[p]))))
        if p in laid:
            parts.append(w(TOKENS, player=p, cells=", ".join(sorted(laid[p]))))
    return " ".join(w(SENTENCE, text=p) for p in (head, "; ".join(parts)) if p)


def _sheets(
    view: dict[str, Any], viewer: str | None, t: Translator | None, previous: dict[str, Any] | None
) -> list[Sheet]:
    w = Words(t)
    m = _Map(view)
    new, built, laid = _changes(view, previous)
    cap = _caption(w, view, built, laid)
    panel = _Panel(view, viewer, w)
    pad = 24
    panel_h = round(panel.draw(None, pad, 10, WIDTH - 2 * pad) + 16)
    if m.height + panel_h <= MAX_HEIGHT:
        sheet = new_sheet(WIDTH, m.height + panel_h, PAPER, cap)
        _draw_map(sheet.pen, view, viewer, m, w, new)
        sheet.pen.d.rectangle((0, m.height, WIDTH, m.height + panel_h), fill=WHITE)
        sheet.pen.d.line((0, m.height, WIDTH, m.height), fill=RULE, width=2)
        panel.draw(sheet.pen, pad, m.height + 10, WIDTH - 2 * pad)
        return [sheet]
    top = new_sheet(WIDTH, m.height, PAPER, cap)
    _draw_map(top.pen, view, viewer, m, w, new)
    bottom = new_sheet(WIDTH, min(MAX_HEIGHT, panel_h), WHITE, w(PANEL_CAPTION))
    panel.draw(bottom.pen, pad, 10, WIDTH - 2 * pad)
    return [top, bottom]


_DRAWING = Drawing(_sheets, _palette)
render_set = _DRAWING.render_set
render = _DRAWING.render
