"""The variant's pictures for phones (PNG), the only module here that imports Pillow.

The map is the base game's (engine/powergrid/render: the regions in play, zoomed to the
width); on it we draw owned lines in player colours (hanging ones dashed, with a cross at the
hanging end), each segment with a round marker wearing its owner's tag, on the segment or as
a tab of its cost box (render_markers.py), then the city names again so no line covers them,
plants in cities with their numbers and owners' tags, and TPs in a city's slots drawn as the
base game's houses (the owner's tag on his colour). The panel is the base game's (who must
act, players, plants, resources) with each region's pollution against its limit. Marks in the
change colour show lines, plants and TPs new since the previous picture; the caption says it.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from engine.core.errors import N_, NP_
from engine.core.picture import (
    CHANGE,
    INK,
    MAX_HEIGHT,
    MUTED,
    NAME,
    NUMBER,
    PANEL,
    PAPER,
    RGB,
    WHITE,
    WIDTH,
    Pen,
    Picture,
    Sheet,
    Words,
    finish,
    new_sheet,
    stacked,
    text_on,
    text_width,
)
from engine.core.protocol import EnglishTranslator, Translator
from engine.powergrid import render as base
from engine.powergrid.render import words as W
from engine.powergrid.render.board import (
    BADGE_RADIUS,
    badge_tags,
    base_layer,
    draw_costs,
    draw_name,
    house,
    slot_boxes,
    tiles,
)
from engine.powergrid.render.layout import (
    CITY_FONT,
    NODE_H,
    NODE_W,
    map_and_geometry,
    segment_hits,
)
from engine.powergrid.render.panel import CARD_H, CARD_W, TEXT_X, Panel, player_colours
from engine.powergrid_alt.graph import alt_map
from engine.powergrid_alt.render_markers import Marker, draw_marker, marker_spots

LOG_LINES = 8
POLLUTION = N_("Pollution")
POLLUTION_LINE = N_("{region}: {level} of {limit}")
UNCOVERED = N_("Cities not covered yet: {n}")  # by a plant or TP: the end, ALT-43
TPS = N_("TPs: {n}")
# "Hand: 6, 13" beside "Cities: 3" read as counts: the numbers are plants (found playing)
HAND = NP_("Hand: plant {plants}", "Hand: plants {plants}")
FINAL_ROUND = N_("Final round")
LAID = N_("{player} laid a line {cities}")
BUILT_PLANT = N_("{player} built plant {plant} in {city}")
PLACED_TP = N_("{player} placed a TP in {city}")


def _color(view: dict[str, Any], player: str) -> RGB:
    return player_colours(view)[player]


def _dashed(
    pen: Pen, a: tuple[float, float], b: tuple[float, float], color: RGB, width: int
) -> None:
    (ax, ay), (bx, by) = a, b
    steps = max(1, int(((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 // 12))
    for i in range(0, steps, 2):
        t0, t1 = i / steps, min(1.0, (i + 1) / steps)
        pen.d.line(
            (ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1),
            fill=color,
            width=width,
        )


class Changes:
    """What is new since the previous picture: line segments, plants in cities, TPs."""

    def __init__(self, view: dict[str, Any], previous: dict[str, Any] | None) -> None:
        def segs(v: dict[str, Any]) -> set[tuple[str, str]]:
            return {(ln["owner"], s) for ln in v.get("lines") or [] for s in ln["segments"]}

        def tps(v: dict[str, Any]) -> set[tuple[str, str]]:
            return {(o, c) for c, owners in (v.get("tps") or {}).items() for o in owners}

        if previous is None:
            self.segments: set[tuple[str, str]] = set()
            self.plants: set[str] = set()
            self.tps: set[tuple[str, str]] = set()
            return
        self.segments = segs(view) - segs(previous)
        self.plants = set(view.get("plant_owner") or {}) - set(previous.get("plant_owner") or {})
        self.tps = tps(view) - tps(previous)

    def words(self, w: Words, view: dict[str, Any]) -> list[str]:
        am = alt_map(view["map"])
        out = []
        for ln in view.get("lines") or []:
            if any((ln["owner"], s) in self.segments for s in ln["segments"]):
                cities = " – ".join(am.label(c) for c in ln["cities"])
                out.append(w(LAID, player=ln["owner"], cities=cities))
        for number in sorted(self.plants, key=int):
            owner = view["plant_owner"][number]
            city = next((c for c, ns in view["plants_in_cities"].items() if int(number) in ns), "?")
            out.append(w(BUILT_PLANT, player=owner, plant=number, city=am.label(city)))
        for owner, city in sorted(self.tps):
            out.append(w(PLACED_TP, player=owner, city=am.label(city)))
        return out


# A new line's highlight, the widest stroke of a laid line: a cost within half of it is covered.
_MARKED_W = 17


def _draw_lines(pen: Pen, view: dict[str, Any], g: Any, new: Changes) -> None:
    am = alt_map(view["map"])
    for ln in view["lines"]:
        color = _color(view, ln["owner"])
        hanging = bool(ln["hanging_at"])
        for key in ln["segments"]:
            a, b = key.split("|")
            if a not in g.pos or b not in g.pos:
                continue
            pa, pb = g.pos[a], g.pos[b]
            if (ln["owner"], key) in new.segments:
                pen.d.line((*pa, *pb), fill=CHANGE, width=_MARKED_W)
            if hanging:
                _dashed(pen, pa, pb, color, 7)
            else:
                pen.d.line((*pa, *pb), fill=WHITE, width=11)
                pen.d.line((*pa, *pb), fill=color, width=7)
        for node in ln["hanging_at"]:
            city = am.members[node][0]
            if city in g.pos:
                x, y = g.pos[city]
                pen.d.line((x - 9, y - 9, x + 9, y + 9), fill=color, width=4)
                pen.d.line((x - 9, y + 9, x + 9, y - 9), fill=color, width=4)


def _draw_markers(pen: Pen, view: dict[str, Any], g: Any) -> list[Marker]:
    tag = badge_tags(view["seat_order"])
    markers = marker_spots(view, g)
    for m in markers:
        draw_marker(pen, m, _color(view, m.owner), tag.get(m.owner, "?"))
    return markers


def _draw_covered_costs(
    pen: Pen, view: dict[str, Any], g: Any, mp: dict[str, Any], markers: list[Marker]
) -> None:
    """The costs a laid line ran over or a tab comes out from under (where the tab put it),
    drawn again on top: their numbers stay readable."""
    laid = [
        (g.pos[a], g.pos[b])
        for ln in view["lines"]
        for a, b in (key.split("|") for key in ln["segments"])
        if a in g.pos and b in g.pos
    ]
    tabs = {m.cost: m.cost_box for m in markers if m.cost is not None and m.cost_box is not None}
    covered = [
        (a, b, cost)
        for a, b, cost in mp["connections"]
        if (a, b) in g.edge_label
        and (
            (a, b) in tabs
            or any(segment_hits(p, q, _grown(g.edge_label[(a, b)], _MARKED_W / 2)) for p, q in laid)
        )
    ]
    draw_costs(pen, g, covered, tabs)


def _grown(r: Any, by: float) -> tuple[float, float, float, float]:
    return (r[0] - by, r[1] - by, r[2] + by, r[3] + by)


def _draw_names(img: Image.Image, g: Any) -> None:
    """The city names again, over the lines."""
    for name in sorted(g.pos):
        draw_name(img, name, *g.pos[name])


def plant_mark(number: int, tag: str) -> tuple[str, int]:
    """What a built plant's box says, and its size: "⚡12 B2", the plant and its owner's
    initials as his houses and the panel carry them (not his colour alone: green and pink
    were two greys under deuteranopia, found reviewing pictures); the plant alone when the
    two do not fit the box."""
    room = NODE_W - 8
    for text, size in ((f"⚡{number} {tag}", NUMBER + 2), (f"⚡{number} {tag}", NUMBER)):
        if text_width(text, size, True) <= room:
            return text, size
    return f"⚡{number}", NUMBER + 2


def _draw_cities(pen: Pen, w: Words, view: dict[str, Any], g: Any, new: Changes) -> None:
    am = alt_map(view["map"])
    tag = badge_tags(view["seat_order"])
    for node, plants in view["plants_in_cities"].items():
        for i, number in enumerate(plants):
            city = am.members[node][min(i, len(am.members[node]) - 1)]
            if city not in g.pos:
                continue
            x, y = g.pos[city]
            owner = view["plant_owner"][str(number)]
            color = _color(view, owner)
            mark, size = plant_mark(number, tag.get(owner, "?"))
            box = (x - NODE_W / 2, y - NODE_H / 2, x + NODE_W / 2, y + NODE_H / 2)
            if str(number) in new.plants:
                pen.d.rounded_rectangle(
                    (box[0] - 5, box[1] - 5, box[2] + 5, box[3] + 5), radius=9, fill=CHANGE
                )
            pen.d.rounded_rectangle(box, radius=6, fill=color, outline=INK, width=2)
            pen.text(
                (x, y),
                mark,
                size,
                "number",
                bold=True,
                fill=text_on(color),
                anchor="mm",
            )
    for node, owners in view["tps"].items():
        city = am.members[node][0]
        if city in g.pos:
            x, y = g.pos[city]
            for box, owner in zip(slot_boxes(x, y), owners, strict=False):
                # a TP is the variant's house (ALT-5a): drawn as the base game's, with its
                # owner's tag (found reviewing pictures: "TP" on his colour alone, the green
                # and pink players' TPs were one grey under deuteranopia)
                if (owner, node) in new.tps:
                    x0, y0, x1, y1 = box
                    ring = (x0 - 4, y0 - 4, x1 + 4, y1 + 4)
                    pen.d.rounded_rectangle(ring, radius=BADGE_RADIUS + 4, fill=CHANGE)
                house(pen, box, _color(view, owner), tag.get(owner, "?"))


# ALT-8: a player may own any number of plants. Up to `BESIDE` cards stand beside his name,
# money and cities (the base game's row); more go under them, in rows as wide as the panel, so
# the texts keep their width however many plants he owns (found playing: at 6 plants the money
# was cut to "? Elektro…", by round 22 the cards ran over the name).
BESIDE = 4
# The text block of a row: the name, the money, two lines of details (Panel._row).
TEXT_H = NAME + NUMBER + 20 + 2 * (NUMBER + 3) + 4
CARD_STEP_X, CARD_STEP_Y = CARD_W + 4, CARD_H + 6


def cards_per_row(width: float) -> int:
    """How many cards fit in a row under the texts (from the house's right edge)."""
    return max(1, int((width - TEXT_X + 4) // CARD_STEP_X))


class AltPanel(Panel):
    def row_height(self, width: float, info: dict[str, Any]) -> int:
        count = len(info.get("plants") or [])
        if count <= BESIDE:
            return super().row_height(width, info)
        rows = -(-count // cards_per_row(width))
        return TEXT_H + rows * CARD_STEP_Y + 10

    def card_spots(
        self, x: float, y: float, width: float, count: int
    ) -> tuple[float, list[tuple[float, float]]]:
        if count <= BESIDE:
            return super().card_spots(x, y, width, count)
        per_row = cards_per_row(width)
        spots = [
            (x + TEXT_X + (i % per_row) * CARD_STEP_X, y + TEXT_H + (i // per_row) * CARD_STEP_Y)
            for i in range(count)
        ]
        return width - TEXT_X - 4, spots

    def details(self, p: str, info: dict[str, Any]) -> str:
        w = self.w
        text = w(W.CITIES, n=len(info.get("cities", []))) + " · " + w(TPS, n=len(info["tps"]))
        numbers = [str(h["number"]) for h in info.get("hand") or []]
        if not numbers:
            return text
        return text + " · " + w.n(*HAND, len(numbers), plants=w.list(numbers))

    def pollution(self, pen: Pen | None, x: float, y: float, width: float) -> int:
        v, w = self.v, self.w
        h = self.heading(pen, x, y, w(POLLUTION))
        mp, _g = map_and_geometry(v["map"])
        names = {r["id"]: W.region_name(w, r) for r in mp["regions"]}
        lines = []
        for reg, p in (v.get("pollution") or {}).items():
            text = w(POLLUTION_LINE, region=names.get(reg, reg), level=p["level"], limit=p["limit"])
            lines.append(text + (f" ☢{p['nuclear']}" if p["nuclear"] else ""))
        lines.append(w(UNCOVERED, n=len(v.get("uncovered") or [])))
        if v.get("final_round") and v.get("phase") != "over":  # not under "Game over"
            lines.append(w(FINAL_ROUND))
        col = width / 2
        for i, text in enumerate(lines):
            if pen is not None:
                pen.text(
                    (x + (i % 2) * col, y + h + (i // 2) * (NUMBER + 10)),
                    text,
                    NUMBER + 1,
                    "number",
                    fill=INK if i < len(lines) - 1 else MUTED,
                    max_w=col - 8,
                )
        return h + ((len(lines) + 1) // 2) * (NUMBER + 10) + 6


def _panel_view(view: dict[str, Any]) -> dict[str, Any]:
    """The view with each owned plant's stored resources (the base panel's cards show them)."""
    out = dict(view)
    players = {}
    for name, p in view["players"].items():
        stored = {b["number"]: b.get("stored") or {} for b in p.get("built") or []}
        plants = [{**c, "stored": stored.get(c["number"], {})} for c in p.get("plants") or []]
        players[name] = {**p, "plants": plants, "houses_left": 0}
    out["players"] = players
    return out


def log_lines(view: dict[str, Any], t: Any = None) -> list[str]:
    """The last events as chat texts (quiet phase markers left out)."""
    from engine.powergrid_alt import commands

    translator = t or EnglishTranslator()
    state = {"map": view["map"]}  # all describe_event reads from the state
    texts = [
        commands.describe_event(state, e, translator)
        for e in view.get("log") or []
        if e.get("type") not in ("phase_ended", "phase_started")
    ]
    return [x for x in texts if x][-LOG_LINES:]


def _sheets(
    view: dict[str, Any], viewer: str | None, t: Translator | None, previous: dict[str, Any] | None
) -> list[Sheet]:
    w = Words(t)
    mp, _whole = map_and_geometry(view["map"])
    regions = base.regions_of(view, mp)
    new = Changes(view, previous)
    lang_key = "|".join(W.region_name(w, r) for r in mp["regions"])
    layer = base_layer(view["map"], regions, w, lang_key)
    g = layer.g
    cap = W.caption(w, view, previous, new.words(w, view))
    whole = new_sheet(WIDTH, layer.img.height, PAPER)
    whole.img.paste(layer.img, (0, 0))
    whole.pen.labels.extend(layer.labels)
    _draw_lines(whole.pen, view, g, new)
    markers = _draw_markers(whole.pen, view, g)
    _draw_covered_costs(whole.pen, view, g, mp, markers)
    _draw_names(whole.img, g)
    _draw_cities(whole.pen, w, view, g, new)
    sheets: list[Sheet] = []
    parts = tiles(layer.img.height)
    for i, (top, bottom) in enumerate(parts):
        if len(parts) == 1:
            whole.caption = cap
            sheets.append(whole)
            break
        s = new_sheet(WIDTH, bottom - top, PAPER)
        s.img.paste(whole.img.crop((0, top, WIDTH, bottom)), (0, 0))
        s.pen.labels.extend(whole.pen.labels)
        part = w(W.MAP_PART, i=i + 1, n=len(parts))
        s.caption = f"{cap} ({part})" if i == 0 else part
        sheets.append(s)
    panel = AltPanel(_panel_view(view), viewer, w)
    blocks = [
        "header",
        "rule",
        "pollution",
        "rule",
        "players",
        "rule",
        "plant_market",
        "rule",
        "resource_market",
    ]
    width = WIDTH - 2 * base.PAD
    y = base.PAD / 2
    for b in blocks:
        y += getattr(panel, b)(None, base.PAD, y, width)
    sheet = new_sheet(WIDTH, min(MAX_HEIGHT, round(y + base.PAD / 2)), PANEL, w(W.PANEL_CAPTION))
    y = base.PAD / 2
    for b in blocks:
        y += getattr(panel, b)(sheet.pen, base.PAD, y, width)
    sheets.append(sheet)
    return sheets


def render_set(
    view: dict[str, Any],
    viewer: str | None,
    *,
    t: Translator | None = None,
    previous: dict[str, Any] | None = None,
) -> list[Picture]:
    """The pictures sent together (map, then panel) from GAME.view(...)."""
    return finish(_sheets(view, viewer, t, previous), base.map_palette(view["map"]))


def render(
    view: dict[str, Any],
    viewer: str | None,
    *,
    t: Translator | None = None,
    previous: dict[str, Any] | None = None,
) -> bytes:
    """The same pictures as one PNG, one under the other."""
    return stacked(_sheets(view, viewer, t, previous), base.map_palette(view["map"]))


__all__ = ["CITY_FONT", "NAME", "log_lines", "player_colours", "render", "render_set"]
