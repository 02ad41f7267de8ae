"""The IEC panel: turn, phase and radiation, whose move it is, every player in turn order with
points, science, technologies and storages, what each found deposit yields, and a legend of
every terrain kind and mark drawn on the map."""

from __future__ import annotations

from typing import Any

from engine.core.errors import N_, NP_
from engine.core.picture import (
    HILITE,
    INK,
    MUTED,
    NAME,
    NUMBER,
    RGB,
    RULE,
    Pen,
    Words,
    draw_shape,
    draw_title,
    text_width,
    wrap,
)
from engine.iec.lines import deposit_contents
from engine.iec.picture_story import AT_ONCE, OVER, Changes, turn_order, winners
from engine.iec.render_map import Map
from engine.iec.render_marks import (
    AREA_RGB,
    BOX_CUT,
    KIND,
    LONE_TOKEN,
    PAPER,
    TERRAIN_RGB,
    cell_fill,
    draw_building,
    draw_frame,
    draw_ground,
    draw_site,
    draw_token,
    letter_name,
    seat_rgb,
    seat_shape,
    token_dot,
)
from engine.iec.rules import PHASE_NAMES
from engine.iec.scenario import GOODS, load

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


def _swatch(pen: Pen, view: dict[str, Any], player: str, box: tuple[float, ...]) -> None:
    """A company's colour and shape beside its name, as its buildings wear them on the map."""
    shape = seat_shape(view, player)
    draw_shape(pen.d, shape, box, BOX_CUT.get(shape, 0), seat_rgb(view, player), INK)


class Legend:
    """What each terrain kind and mark drawn on the map means: a swatch and its words, in two
    columns."""

    def __init__(
        self, view: dict[str, Any], viewer: str | None, m: Map, w: Words, ch: Changes
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
                        Legend._terrain([TERRAIN_RGB.get(key, PAPER)]),
                        w(msg) if msg else ter["name"],
                    )
                )
            elif s.areas[area].get("fixed"):
                # kept whole on a line: "C\u00a04+", never "C" and "4+" apart (the list's ", "
                # stays a break; Chinese text breaks anywhere, "、" included)
                fixed = deposit_contents(view, s.areas[area]["fixed"], w.t)
                contents = fixed.replace(" ", "\u00a0").replace(",\u00a0", ", ")
                add((Legend._terrain([AREA_RGB["H"]]), w(HOME_TEXT, contents=contents)))
            elif s.areas[area].get("class") not in classes:
                classes.append(s.areas[area]["class"])
        if classes:  # one swatch striped with each class's colour; the map names each area
            fills = [AREA_RGB.get(cls, PAPER) for cls in classes]
            add((Legend._terrain(fills), w(AREA_TEXT, classes=w.list(classes))))
        if s.seismic:
            fill = cell_fill(s, next(iter(sorted(s.seismic))))
            add((Legend._terrain([fill], seismic=True), w(SEISMIC_TEXT)))
        buildings = list(view["buildings"].values())
        if any(not b["powered"] for b in buildings):
            add((Legend._unpowered(w), w(UNPOWERED_TEXT)))
        if any(b["modules"] < int(s.buildings[b["kind"]]["modules"]) for b in buildings):
            add((Legend._modules, w(MODULES_TEXT)))
        if view["sites"]:
            add((Legend._site_swatch, w(SITE_TEXT)))
        toks = view["tokens"]
        if any(not t["up"] and token_dot(t, viewer, MUTED) is None for t in toks):
            add((Legend._token_swatch(MUTED, False, None), w(HIDDEN_TEXT)))
        if viewer is not None and any(token_dot(t, viewer, MUTED) for t in toks):
            col, shape = seat_rgb(view, viewer), seat_shape(view, viewer)
            add((Legend._token_swatch(col, False, col, shape), w(REAL_TEXT)))
        if any(t["up"] for t in toks):
            add((Legend._token_swatch(MUTED, True, None), w(UP_TEXT)))
        if ch.cells or ch.tokens:
            add((Legend._changed, w(CHANGED_TEXT)))

    @staticmethod
    def _terrain(fills: list[RGB], seismic: bool = False) -> Any:
        def draw(pen: Pen, x: float, y: float) -> None:
            draw_ground(pen, x, y, SWATCH, fills[0], seismic)
            stripe = SWATCH / len(fills)
            for i, fill in enumerate(fills[1:], 1):
                pen.d.rectangle((x + i * stripe, y + 1, x + SWATCH - 1, y + SWATCH - 1), fill=fill)

        return draw

    @staticmethod
    def _unpowered(w: Words) -> Any:
        letter = letter_name(w, "mine")[0]

        def draw(pen: Pen, x: float, y: float) -> None:
            draw_ground(pen, x, y, SWATCH, TERRAIN_RGB["."])
            draw_building(pen, x, y, SWATCH, MUTED, "square", letter, False, 1, 1)

        return draw

    @staticmethod
    def _modules(pen: Pen, x: float, y: float) -> None:
        draw_ground(pen, x, y, SWATCH, TERRAIN_RGB["."])
        draw_building(pen, x, y, SWATCH, MUTED, "square", "", True, 1, 2)

    @staticmethod
    def _site_swatch(pen: Pen, x: float, y: float) -> None:
        draw_ground(pen, x, y, SWATCH, TERRAIN_RGB["."])
        draw_site(pen, x, y, SWATCH, MUTED, "square")

    @staticmethod
    def _token_swatch(col: RGB, up: bool, dot: RGB | None, shape: str = "round") -> Any:
        def draw(pen: Pen, x: float, y: float) -> None:
            draw_ground(pen, x, y, SWATCH, TERRAIN_RGB["."])
            at = (SWATCH - LONE_TOKEN) / 2  # as a lone token on a cell
            draw_token(pen, x + at, y + at, LONE_TOKEN, col, shape, up, dot)

        return draw

    @staticmethod
    def _changed(pen: Pen, x: float, y: float) -> None:
        draw_ground(pen, x, y, SWATCH, TERRAIN_RGB["."])
        draw_frame(pen, x + 2, y + 2, SWATCH - 4)

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


def title(w: Words, v: dict[str, Any]) -> str:
    """The panel's title: "Turn 3 · phase 6: site preparation"."""
    name = w(PHASE_NAMES[v["phase"]]) if v["phase"] in PHASE_NAMES else str(v["phase"])
    return w(TITLE_TEXT, turn=v["turn"], phase=v["phase"], name=name)


class Panel:
    def __init__(self, view: dict[str, Any], viewer: str | None, w: Words, legend: Legend) -> None:
        self.v, self.viewer, self.w, self.legend = view, viewer, w, legend

    def draw(self, pen: Pen | None, x: float, y: float, width: float) -> float:
        v, w = self.v, self.w
        top = y
        y += draw_title(pen, (x, y), title(w, v), width) + 10
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
                _swatch(pen, v, actor, (x, y + 1, x + 24, y + 21))
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
        kinds = " · ".join("{} {}".format(*letter_name(w, k)) for k in KIND)
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
            _swatch(pen, v, p, (x - 2, y + 3, x + 22, y + 22))
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
