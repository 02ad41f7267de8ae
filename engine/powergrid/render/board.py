"""The Power Grid map picture: regions in play only, zoomed to the width, houses on top.

What depends on the map and the regions in play (tint, connections, nodes, costs, names, the
legend) is drawn once into a base layer kept in a small cache; a picture pastes it and draws
the houses and the change marks. City names and costs are drawn as labels of the base layer;
their sizes are recorded with the picture's other labels.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import groupby
from typing import Any

from PIL import Image, ImageDraw, ImageFilter
from PIL.Image import Resampling

from engine.core.picture import (
    CHANGE,
    INK,
    MAX_HEIGHT,
    NAME,
    NUMBER,
    PAPER,
    RGB,
    RULE,
    WHITE,
    WIDTH,
    Label,
    Pen,
    Words,
    font,
    font_for,
    initials,
    ink_box,
    mix,
    text_on,
)
from engine.powergrid.render import words as W
from engine.powergrid.render.layout import (
    CITY_FONT,
    COST_FONT,
    NODE_H,
    NODE_PAD,
    NODE_W,
    SLOT_D,
    SLOT_GAP,
    Geometry,
    map_and_geometry,
)

EDGE: RGB = (70, 70, 74)
OPEN_SLOT: RGB = (255, 255, 255)
CLOSED: RGB = (196, 196, 196)
LEGEND_ROW = NAME + 14


def hex_rgb(c: str) -> RGB:
    c = c.lstrip("#")
    return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))


def tint_of(color: Sequence[int]) -> RGB:
    return mix(PAPER, color, 0.30)


def rim_of(tint: Sequence[int]) -> RGB:
    return mix(tint, PAPER, 0.55)


def slot_boxes(x: float, y: float) -> list[tuple[int, int, int, int]]:
    x0 = x - NODE_W / 2 + NODE_PAD
    y0 = y - SLOT_D / 2
    return [
        (
            round(x0 + i * (SLOT_D + SLOT_GAP)),
            round(y0),
            round(x0 + i * (SLOT_D + SLOT_GAP)) + SLOT_D,
            round(y0) + SLOT_D,
        )
        for i in range(3)
    ]


# A house badge: a rounded box (a circle 23 px across held 19 px inside its outline, and two
# letters at 16 px are 21-33 px wide: "Wo", "Шу" and "B2" ran over it, drawn at 15 px).
# Slots 34-38 px wide (two letters) were tried, 2026-12-05: the recomputed layouts drew lines
# through other cities' nodes (Germany 2-5, USA 9-12; 1 and 0 at 23 px) and Germany's whole
# map grew past two screens, so a house keeps 23 px and a tag that does not fit is shortened.
BADGE_RADIUS = 6
BADGE_LINE = 2
BADGE = (SLOT_D, SLOT_D)  # the smallest badge a tag is drawn in: a map's house slot


def badge_inside(box: Sequence[float]) -> tuple[float, float, float, float]:
    """The room inside a badge's outline, 1 px clear of it."""
    m = BADGE_LINE + 1
    return (box[0] + m, box[1] + m, box[2] - m, box[3] - m)


def _inside(ink: Sequence[float], box: Sequence[float]) -> bool:
    """Whether the rectangle `ink` lies inside the badge `box`, its rounded corners too."""
    x0, y0, x1, y1 = badge_inside(box)
    if ink[0] < x0 or ink[1] < y0 or ink[2] > x1 or ink[3] > y1:
        return False
    r = BADGE_RADIUS - BADGE_LINE - 1
    for px in (ink[0], ink[2]):
        for py in (ink[1], ink[3]):
            cx = min(max(px, x0 + r), x1 - r)  # the nearest point of the box shrunk by r
            cy = min(max(py, y0 + r), y1 - r)
            if (px - cx) ** 2 + (py - cy) ** 2 > r * r:
                return False
    return True


def tag_style(tag: str, box: Sequence[float], size: int = NUMBER) -> tuple[int, bool] | None:
    """The size and weight `tag` is drawn with in the badge `box`: bold when it fits, else
    regular; None when neither fits (`badge_tags` then gives the player a shorter tag)."""
    w, h = box[2] - box[0], box[3] - box[1]
    for bold in (True, False):
        x0, y0, x1, y1 = ink_box(tag, size, bold)
        iw, ih = x1 - x0, y1 - y0
        if _inside(
            (-iw / 2 + w / 2, -ih / 2 + h / 2, iw / 2 + w / 2, ih / 2 + h / 2), (0, 0, w, h)
        ):
            return size, bold
    return None


def badge_tags(seats: Sequence[str]) -> dict[str, str]:
    """Each player's tag, as his houses, panel row and (alternative rules) plants wear it:
    `initials`, a shorter tag where his does not fit a house slot at 16 px."""
    return initials(seats, fits=lambda tag: tag_style(tag, (0, 0, *BADGE)) is not None)


def house(pen: Pen, box: Sequence[float], color: Sequence[int], tag: str) -> None:
    """A house: a rounded box in its owner's colour with his tag in the middle (its ink
    centred, bold when it fits, else regular; at 16 px either way)."""
    pen.d.rounded_rectangle(
        tuple(box), radius=BADGE_RADIUS, fill=tuple(color), outline=INK, width=BADGE_LINE
    )
    size, bold = tag_style(tag, box) or (NUMBER, False)
    x0, y0, x1, y1 = ink_box(tag, size, bold)
    pen.text(
        ((box[0] + box[2]) / 2 - (x0 + x1) / 2, (box[1] + box[3]) / 2 - (y0 + y1) / 2),
        tag,
        size,
        "number",
        bold=bold,
        fill=text_on(color),
        anchor="mm",
    )


def empty_slot(pen: Pen, box: Sequence[float], open_: bool) -> None:
    """A slot without a house: white while open to building, grey and struck through not."""
    d = pen.d
    if open_:
        d.rounded_rectangle(
            tuple(box), radius=BADGE_RADIUS, fill=OPEN_SLOT, outline=(120, 120, 120)
        )
        return
    d.rounded_rectangle(tuple(box), radius=BADGE_RADIUS, fill=CLOSED, outline=(160, 160, 160))
    d.line((box[0] + 5, box[3] - 5, box[2] - 5, box[1] + 5), fill=(140, 140, 140), width=2)


class MapBase:
    """The cropped geometry, the base layer and the labels drawn on it."""

    def __init__(self, g: Geometry, img: Image.Image, labels: list[Label], legend_top: int):
        self.g = g
        self.img = img
        self.labels = labels
        self.legend_top = legend_top


_BASE: dict[tuple[str, tuple[str, ...], str], MapBase] = {}
_BASE_LIMIT = 16


def base_layer(map_key: str, regions: tuple[str, ...], w: Words, lang_key: str) -> MapBase:
    key = (map_key, regions, lang_key)
    if key in _BASE:
        _BASE[key] = _BASE.pop(key)  # most recently used last
        return _BASE[key]
    mp, whole = map_and_geometry(map_key)
    g = whole.cropped(regions)
    region_color = {r["id"]: hex_rgb(r["color"]) for r in mp["regions"]}
    legend = [r for r in mp["regions"] if r["id"] in regions]
    legend_h = _legend_height(w, legend)
    img = Image.new("RGB", (WIDTH, g.h + legend_h), PAPER)
    pen = Pen(img)
    d = pen.d
    inner = [
        (a, b)
        for a, b, _c in mp["connections"]
        if a in g.pos and b in g.pos and g.region_of[a] == g.region_of[b]
    ]
    # Region tint: blobs around cities and along same-region connections: a pale rim first,
    # then the tint; smaller circles drawn later keep each area closest to its own cities.
    for rim, radii, width in ((True, (70,), 84), (False, (60, 48, 38), 64)):
        for a, b in inner:
            t = tint_of(region_color[g.region_of[a]])
            d.line((*g.pos[a], *g.pos[b]), fill=rim_of(t) if rim else t, width=width)
        for r in radii:
            for name in sorted(g.pos):
                x, y = g.pos[name]
                t = tint_of(region_color[g.region_of[name]])
                d.ellipse((x - r, y - r, x + r, y + r), fill=rim_of(t) if rim else t)
    conns = [(a, b, c) for a, b, c in mp["connections"] if a in g.pos and b in g.pos]
    for a, b, _c in conns:
        d.line((*g.pos[a], *g.pos[b]), fill=EDGE, width=3)
    for name in sorted(g.pos):
        x, y = g.pos[name]
        d.rounded_rectangle(
            (x - NODE_W / 2, y - NODE_H / 2, x + NODE_W / 2, y + NODE_H / 2),
            radius=8,
            fill=(250, 250, 250),
            outline=INK,
            width=2,
        )
    draw_costs(pen, g, conns)
    for name in sorted(g.pos):
        draw_name(img, name, *g.pos[name])
        pen.labels.append(Label(name, "name", CITY_FONT))
    _legend(pen, w, legend, region_color, g.h)
    base = MapBase(g, img, pen.labels, g.h)
    _BASE[key] = base
    while len(_BASE) > _BASE_LIMIT:
        del _BASE[next(iter(_BASE))]
    return base


def draw_costs(
    pen: Pen,
    g: Geometry,
    conns: Sequence[Sequence[Any]],
    at: Mapping[tuple[str, str], Sequence[float]] | None = None,
) -> None:
    """Each connection's cost in its box (again over anything drawn on the map since), where
    the layout put it or where `at` says (the alternative rules' line markers move a few)."""
    for a, b, cost in conns:
        x0, y0, x1, y1 = (at or {}).get((a, b)) or g.edge_label[(a, b)]
        pen.d.rounded_rectangle((x0, y0, x1, y1), radius=5, fill=WHITE, outline=EDGE)
        pen.text(
            ((x0 + x1) / 2, (y0 + y1) / 2 + 1),
            str(cost),
            COST_FONT,
            "number",
            bold=True,
            anchor="mm",
        )


def _legend_items(w: Words, legend: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(r["id"], W.region_name(w, r)) for r in legend]


def _legend_height(w: Words, legend: list[dict[str, Any]]) -> int:
    x, rows = 12.0, 1
    for _id, label in _legend_items(w, legend):
        lw = 30 + font_for(label, NAME - 2, True).getlength(label) + 22
        if x + lw > WIDTH - 12:
            x, rows = 12.0, rows + 1
        x += lw
    return rows * LEGEND_ROW + 12


def _legend(
    pen: Pen, w: Words, legend: list[dict[str, Any]], color: dict[str, RGB], top: int
) -> None:
    d = pen.d
    d.line((0, top, WIDTH, top), fill=RULE, width=2)
    x, y = 12.0, top + 8.0
    for rid, label in _legend_items(w, legend):
        lw = 30 + font_for(label, NAME - 2, True).getlength(label) + 22
        if x + lw > WIDTH - 12:
            x, y = 12.0, y + LEGEND_ROW
        d.rounded_rectangle((x, y + 2, x + 22, y + 24), radius=4, fill=color[rid], outline=INK)
        pen.text((x + 30, y), label, NAME - 2, "text", bold=True)
        x += lw


def draw_name(img: Image.Image, name: str, x: float, y: float) -> None:
    """A city's name under its node at (x, y), black on a white halo (both rules' maps)."""
    text, halo, dx = name_masks(name)
    at = (round(x - dx), round(y + NODE_H / 2 + 1))
    img.paste(WHITE, at, halo)
    img.paste(INK, at, text)


def name_boxes(name: str, x: float, y: float) -> list[tuple[int, int, int, int]]:
    """The rectangles a city's name under its node at (x, y) covers, its halo included: the
    line of letters, and under it each descender's own ("Augsburg": the "g"s), not the whole
    width down to the lowest of them: a cost placed against the letters reaches into that
    strip (and `layout.box` ends above the descenders)."""
    ax, ay = round(x - name_masks(name)[2]), round(y + NODE_H / 2 + 1)
    return [(ax + x0, ay + y0, ax + x1, ay + y1) for x0, y0, x1, y1 in _name_parts(name)]


@cache
def _name_parts(name: str) -> tuple[tuple[int, int, int, int], ...]:
    _text, halo, _dx = name_masks(name)
    x0, y0, x1, y1 = halo.getbbox() or (0, 0, 0, 0)
    base = min(y1, 3 + font(CITY_FONT, True).getmetrics()[0] + 3)  # the baseline, the halo
    parts = [(x0, y0, x1, base)]
    if y1 > base:  # the columns of the strip under the baseline whose mean is not 0
        strip = halo.crop((0, base, halo.width, y1)).resize((halo.width, 1), Resampling.BOX)
        c = 0
        for inked, run in groupby(v > 0 for v in strip.tobytes()):
            n = sum(1 for _ in run)
            if inked:
                parts.append((c, base, c + n, y1))
            c += n
    return tuple(parts)


@cache
def name_masks(name: str) -> tuple[Image.Image, Image.Image, int]:
    """A city name's text and its halo as masks, and the x offset of its middle (the halo is
    the text dilated: several times cheaper than FreeType's stroked text)."""
    f = font(CITY_FONT, True)
    w = math.ceil(f.getlength(name)) + 8
    text = Image.new("L", (w, CITY_FONT + 10), 0)
    ImageDraw.Draw(text).text((w / 2, 3), name, font=f, fill=255, anchor="ma")
    halo = text.point(lambda v: 255 if v > 40 else 0).filter(ImageFilter.MaxFilter(5))
    return text, halo, w // 2


def draw_houses(
    pen: Pen,
    view: dict[str, Any],
    g: Geometry,
    color: dict[str, RGB],
    tag: dict[str, str],
    new: set[tuple[str, str]],
) -> None:
    """Each city's three slots (10, 15, 20): a house, open and empty, or not open (hatched);
    a house new since the previous picture gets a ring in the change colour."""
    slots_open = int(view.get("slots_open", 1))
    owners_of = view.get("cities") or {}
    d = pen.d
    for city in sorted(g.pos):
        x, y = g.pos[city]
        owners = owners_of.get(city) or []
        for i, sb in enumerate(slot_boxes(x, y)):
            if i < len(owners):
                p = owners[i]
                if (city, p) in new:
                    ring = (sb[0] - 4, sb[1] - 4, sb[2] + 4, sb[3] + 4)
                    d.rounded_rectangle(ring, radius=BADGE_RADIUS + 4, fill=CHANGE)
                house(pen, sb, color.get(p, (110, 110, 115)), tag.get(p, "?"))
            else:
                empty_slot(pen, sb, i < slots_open)


def tiles(height: int, max_h: int = MAX_HEIGHT) -> list[tuple[int, int]]:
    """(top, bottom) of each part when a map is taller than `max_h`: equal parts that overlap
    by a city's height, so a city cut at one part's edge is whole in the other."""
    if height <= max_h:
        return [(0, height)]
    n = math.ceil((height - 80) / (max_h - 80))
    part = math.ceil((height + (n - 1) * 80) / n)
    out = []
    top = 0
    for i in range(n):
        bottom = min(height, top + part)
        if i == n - 1:
            top, bottom = max(0, height - part), height
        out.append((top, bottom))
        top = bottom - 80
    return out
