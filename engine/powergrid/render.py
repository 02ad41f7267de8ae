"""Power Grid board picture: a view dict (VIEW.md) -> PNG bytes. The only Pillow import of the game.

The picture is 1280 px wide and made for phones: the map (cities placed from their latitude and
longitude, regions tinted, regions not in play greyed, every connection with its cost, each
city's three house slots) and beside or below it the table (turn, players, plant market,
resource market, recent events, final ranking).

Speed: the city positions and cost-label spots depend only on the map, so they are computed
offline (`compute_layout`, written by `python -m engine.powergrid.render` to
data/layout/<map>.json; a test checks the files are up to date) and only read here. What
depends on the map and the regions in play (tint, connections, nodes, costs, names) is drawn at
final size, once, into a base layer kept in a module-level cache; a render pastes it, draws the
houses and the table, maps the picture onto a fixed per-map palette (no adaptive quantisation)
and writes a "P" mode PNG at zlib level 3. Fonts load at import. The output is a pure function
of the view, so the same view gives the same bytes.

Words go through `labels` (English) and, when given, a translator's `gettext`.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFilter, ImageFont

__all__ = ["WIDTH", "labels", "render"]

WIDTH = 1280
_MAPS_DIR = Path(__file__).with_name("data") / "maps"
_LAYOUT_DIR = Path(__file__).with_name("data") / "layout"
LAYOUT_VERSION = 1

# --- words -------------------------------------------------------------------------------------
# Every word on the picture comes from here, so a translator can replace it (msgid = the value).
labels: dict[str, str] = {
    "round_step_phase": "Round {round} · Step {step} · {phase}",
    "phase.regions": "Choosing regions",
    "phase.auction": "Auction",
    "phase.resources": "Buying resources",
    "phase.build": "Building",
    "phase.bureaucracy": "Bureaucracy",
    "phase.over": "Game over",
    "expected.choose_region": "choose a region",
    "expected.choose_plant": "offer a plant or pass",
    "expected.bid": "raise or pass",
    "expected.discard": "discard a plant",
    "expected.buy": "buy resources or done",
    "expected.build": "build or done",
    "expected.power": "power cities",
    "expected.": "",
    "to_move": "{players}: {what}",
    "auction_line": "Plant {plant}: high bid {bid} ({leader}) · still in: {bidders}",
    "pending_discard": "{player} must discard a plant",
    "step3_pending": "Step 3 begins with the next phase",
    "thresholds": "Step 2 at {step2} cities · game ends at {end} · max {max_plants} plants",
    "players": "Players (turn order)",
    "money": "{money} Elektro",
    "money_hidden": "? Elektro",
    "cities_houses": "cities: {cities} · houses left: {houses}",
    "powered": "powered {n}",
    "you": "(you)",
    "passed": "passed",
    "done": "done",
    "bought": "bought",
    "plant_market": "Power plants",
    "current": "now",
    "future": "future",
    "deck": "deck {n}",
    "step3_card": "STEP 3",
    "resource_market": "Resources",
    "supply": "supply {n}",
    "log": "Recent events",
    "ranking": "Final ranking",
    "rank_line": "{rank}. {players}",
    "rank_detail": "powered: {powered} · {money} Elektro · cities: {cities}",
    "regions": "Regions",
    "not_in_play": "not in play",
    "res.coal": "coal",
    "res.oil": "oil",
    "res.garbage": "garbage",
    "res.uranium": "uranium",
    "type.coal": "coal",
    "type.oil": "oil",
    "type.hybrid": "coal/oil",
    "type.garbage": "garbage",
    "type.uranium": "uranium",
    "type.eco": "eco",
    "type.fusion": "fusion",
    "ev.round_started": "Round {round} begins",
    "ev.region_chosen": "{player} chooses region {region}",
    "ev.regions_chosen": "Regions in play: {regions}",
    "ev.player_order": "Turn order: {order}",
    "ev.auction_opened": "{player} offers plant {plant} for {bid}",
    "ev.bid": "{player} bids {bid}",
    "ev.passed": "{player} passes",
    "ev.auction_won": "{player} buys plant {plant} for {price}",
    "ev.plant_discarded": "{player} discards plant {plant}",
    "ev.plant_drawn": "Plant {plant} enters the market",
    "ev.plant_removed": "Plant {plant} leaves the market",
    "ev.resources_bought": "{player} buys {count} {resource} for {price}",
    "ev.city_built": "{player} builds in {city} for {cost}",
    "ev.powered": "{player} earns {income} (cities powered: {cities})",
    "ev.step_started": "Step {step} begins",
    "ev.step3_card_drawn": "The Step 3 card is drawn",
    "ev.market_restocked": "The resource market is restocked",
    "ev.game_over": "Game over",
    "ev.phase_started": "Phase: {phase}",
}
_QUIET_EVENTS = {"phase_ended", "phase_started"}

# --- colours -----------------------------------------------------------------------------------
# Okabe-Ito, in seat order; every house also carries its owner's initial.
PLAYER_COLORS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#F0E442", "#D55E00"]
_PAPER = (247, 245, 239)
_PANEL = (255, 255, 255)
_INK = (28, 28, 30)
_MUTED = (110, 110, 115)
_RULE = (215, 212, 205)
_EDGE = (70, 70, 74)
_EDGE_DIM = (190, 190, 190)
_DIM_TINT = (214, 214, 214)
_DIM_TEXT = (150, 150, 150)
_CLOSED = (196, 196, 196)
_HILITE = (255, 244, 200)
RESOURCE_COLORS = {
    "coal": (122, 82, 48),
    "oil": (30, 30, 30),
    "garbage": (230, 190, 20),
    "uranium": (214, 40, 40),
}
_TYPE_COLORS = {
    "coal": (122, 82, 48),
    "oil": (30, 30, 30),
    "garbage": (200, 160, 0),
    "uranium": (214, 40, 40),
    "eco": (46, 150, 60),
    "fusion": (90, 60, 170),
}
RESOURCES = ("coal", "oil", "garbage", "uranium")

# --- sizes -------------------------------------------------------------------------------------
SLOT_D = 24  # house slot diameter
SLOT_GAP = 3
NODE_PAD = 4
NODE_W = 3 * SLOT_D + 2 * SLOT_GAP + 2 * NODE_PAD
NODE_H = SLOT_D + 2 * NODE_PAD
CITY_FONT = 14
SIDE_MAP_W = 760
MARGIN = 56
LEGEND_H = 30
CARD_W, CARD_H = 70, 60
PNG_LEVEL = 3  # zlib level: 6 takes twice as long for ~20% less, 9 seven times for ~25%
_LINKED_GAP = 26.0  # room between connected cities, grown where a cost does not fit


def _hex(c: str) -> tuple[int, int, int]:
    c = c.lstrip("#")
    return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))


def _mix(a: Sequence[int], b: Sequence[int], t: float) -> tuple[int, int, int]:
    """`a` moved a fraction `t` towards `b`."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _rim(tint: Sequence[int]) -> tuple[int, int, int]:
    """The pale edge around a region's tint."""
    return _mix(tint, _PAPER, 0.55)


def _text_on(bg: Sequence[int]) -> tuple[int, int, int]:
    lum = 0.2126 * bg[0] + 0.7152 * bg[1] + 0.0722 * bg[2]
    return _INK if lum > 140 else (255, 255, 255)


# --- fonts -------------------------------------------------------------------------------------
@cache
def _font_bytes(bold: bool) -> bytes:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return (resources.files("assets") / "fonts" / name).read_bytes()


@cache
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(io.BytesIO(_font_bytes(bold)), size)


def _fit(text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """`text` cut with an ellipsis so it is at most `width` pixels long."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


# --- translation -------------------------------------------------------------------------------
class _Words:
    def __init__(self, t: Any) -> None:
        self.t = t

    def __call__(self, key: str, **kw: Any) -> str:
        english = labels[key]
        text = self.t.gettext(english) if self.t is not None and english else english
        if not kw:
            return text
        try:
            return text.format(**kw)
        except (KeyError, IndexError, ValueError):  # a broken translation: fall back to English
            return english.format(**kw)


# --- map geometry: computed offline into data/layout/<map>.json ---------------------------------
@cache
def _load_map(map_id: str) -> str:
    return (_MAPS_DIR / f"{map_id}.json").read_text(encoding="utf-8")


def _map_digest(mp: dict[str, Any]) -> str:
    """What a layout was computed from: the map's content and the layout code's version."""
    text = json.dumps(mp, sort_keys=True, ensure_ascii=False) + f"|layout v{LAYOUT_VERSION}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def compute_layout(mp: dict[str, Any]) -> dict[str, Any]:
    """Where everything of one map goes (slow, deterministic; run offline by `write_layouts`).

    Projection (equirectangular around the mean latitude), city positions pushed apart until
    no node or name overlaps another (connected cities further, so their cost fits between),
    a spot for each connection's cost on its visible part, clear of cities and other costs.
    When a cost finds no clear spot, its two cities get a wider gap and the whole is redone."""
    cities = mp["cities"]
    lat0 = math.radians(sum(c["lat"] for c in cities) / len(cities))
    k = math.cos(lat0)
    raw = {c["name"]: (c["lon"] * k, -c["lat"]) for c in cities}
    xs = [p[0] for p in raw.values()]
    ys = [p[1] for p in raw.values()]
    rw, rh = max(xs) - min(xs) or 1.0, max(ys) - min(ys) or 1.0
    side = rw / rh < 1.3  # tall maps sit beside the table, wide ones above it
    w = SIDE_MAP_W if side else WIDTH
    scale = (w - 2 * MARGIN) / rw
    map_h = round(rh * scale + 2 * MARGIN)
    start = {
        n: (MARGIN + (x - min(xs)) * scale, MARGIN + (y - min(ys)) * scale)
        for n, (x, y) in raw.items()
    }
    font = _font(CITY_FONT, True)
    label_w = {n: math.ceil(font.getlength(n)) for n in start}
    cost_font = _font(14, True)
    gaps = {frozenset(c[:2]): _LINKED_GAP for c in mp["connections"]}
    for _attempt in range(14):
        pos = _declutter(start, label_w, gaps, w, map_h)
        boxes = sorted((_box(pos[n], label_w[n]), n) for n in pos)
        if _attempt < 13 and any(
            _overlap(p[0], q[0]) for i, p in enumerate(boxes) for q in boxes[i + 1 :]
        ):
            map_h += 24  # no room left: a taller map (its cities keep their places)
            continue
        labels_at, crowded = _place_cost_labels(mp["connections"], pos, label_w, cost_font)
        if not crowded:
            break
        for pair in sorted(set(crowded), key=sorted):
            gaps[pair] = gaps.get(pair, 8.0) + 6
    legend_h = LEGEND_H * _legend_lines(mp, w) + 6
    return {
        "version": LAYOUT_VERSION,
        "map": mp.get("id", ""),
        "digest": _map_digest(mp),
        "side": side,
        "w": w,
        "map_h": map_h,
        "h": map_h + legend_h,
        "label_w": {n: label_w[n] for n in sorted(label_w)},
        "pos": {n: list(pos[n]) for n in sorted(pos)},
        "cost_labels": [[a, b, *labels_at[(a, b)]] for a, b, _cost in mp["connections"]],
    }


def _box(
    p: tuple[float, float], label_w: float, pad: float = 0.0
) -> tuple[float, float, float, float]:
    """A city's node plus its name label, as (x0, y0, x1, y1)."""
    x, y = p
    half = max(NODE_W, label_w + 6) / 2 + pad
    return (x - half, y - NODE_H / 2 - pad, x + half, y + NODE_H / 2 + CITY_FONT + 6 + pad)


def _declutter(
    start: dict[str, tuple[float, float]],
    label_w: dict[str, int],
    gaps: dict[frozenset[str], float],
    map_w: int,
    map_h: int,
) -> dict[str, tuple[int, int]]:
    """Push overlapping city boxes apart (deterministic), staying inside the map area.

    `gaps` holds the room kept between connected cities so their connection and cost show."""
    names = sorted(start)
    xs = [start[n][0] for n in names]
    ys = [start[n][1] for n in names]
    half = [max(NODE_W, label_w[n] + 6) / 2 for n in names]
    height = NODE_H + CITY_FONT + 6  # every box is this tall (node + name)
    pairs = [
        (i, j, gaps.get(frozenset((names[i], names[j])), 8.0))
        for i in range(len(names))
        for j in range(i + 1, len(names))
    ]
    top, bottom = 8 + NODE_H / 2, map_h - 4 - (height - NODE_H / 2)
    for _ in range(600):
        moved = False
        for i, j, gap in pairs:
            dx, dy = xs[j] - xs[i], ys[j] - ys[i]
            ox = half[i] + half[j] - abs(dx) + gap
            if ox <= 0:
                continue
            oy = height - abs(dy) + gap
            if oy <= 0:
                continue
            moved = True
            if ox < oy * 1.2:
                s = (ox / 2 + 0.5) * (1 if dx >= 0 else -1)
                xs[i] -= s
                xs[j] += s
            else:
                s = (oy / 2 + 0.5) * (1 if dy >= 0 else -1)
                ys[i] -= s
                ys[j] += s
        for k in range(len(names)):
            xs[k] = min(max(xs[k], 8 + half[k]), map_w - 8 - half[k])
            ys[k] = min(max(ys[k], top), bottom)
        if not moved:
            break
    return {n: (round(xs[k]), round(ys[k])) for k, n in enumerate(names)}


def _place_cost_labels(
    connections: list[list[Any]],
    pos: dict[str, tuple[int, int]],
    label_w: dict[str, int],
    font: ImageFont.FreeTypeFont,
) -> tuple[dict[tuple[str, str], list[int]], list[frozenset[str]]]:
    """A spot for each connection's cost, and the connections that found no clear spot.

    Candidates run along the visible part of the line (and a little to either side of it);
    a spot pays for covering a city, another cost (with a margin), or another line, and for
    leaving the middle. Costs of short, crowded connections are placed first."""
    boxes = {n: _box(pos[n], label_w[n]) for n in pos}
    segments = [(a, b, pos[a], pos[b]) for a, b, _c in connections]
    jobs = []
    for a, b, cost in connections:
        (ax, ay), (bx, by) = pos[a], pos[b]
        lo = _exit(boxes[a], ax, ay, bx - ax, by - ay)
        hi = 1 - _exit(boxes[b], bx, by, ax - bx, ay - by)
        length = math.hypot(bx - ax, by - ay) * max(0.0, hi - lo)
        jobs.append((length, a, b, cost, lo, hi))
    placed: list[tuple[tuple[int, int, int, int], frozenset[str]]] = []
    out: dict[tuple[str, str], list[int]] = {}
    crowded: list[frozenset[str]] = []
    for _length, a, b, cost, lo, hi in sorted(jobs, key=lambda j: (j[0], j[1], j[2])):
        (ax, ay), (bx, by) = pos[a], pos[b]
        w, h = math.ceil(font.getlength(str(cost))) + 10, 19
        if hi <= lo:
            lo = hi = (lo + hi) / 2
        mid = (lo + hi) / 2
        ln = math.hypot(bx - ax, by - ay) or 1.0
        nx, ny = -(by - ay) / ln, (bx - ax) / ln
        m = w + 12
        reach = (min(ax, bx) - m, min(ay, by) - m, max(ax, bx) + m, max(ay, by) + m)
        near_boxes = [(n, q) for n, q in boxes.items() if _overlap(reach, q)]
        near_placed = [(q, pair) for q, pair in placed if _overlap(reach, q)]
        near_segments = [
            (p, q)
            for c, e, p, q in segments
            if (c, e) != (a, b)
            and _overlap(
                reach, (min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]), max(p[1], q[1]))
            )
        ]
        best: tuple[float, list[frozenset[str]], tuple[int, int, int, int]] | None = None
        for step in range(-8, 9):
            t = mid + (hi - lo) * step / 18
            for off in (0, 5, -5, 9, -9):
                cx, cy = ax + (bx - ax) * t + nx * off, ay + (by - ay) * t + ny * off
                r = (
                    round(cx - w / 2),
                    round(cy - h / 2),
                    round(cx - w / 2) + w,
                    round(cy - h / 2) + h,
                )
                hard = 0.0
                blame = []  # the pairs of cities to move apart when no spot is clear
                for _n, q in near_boxes:
                    hard += _overlap_area(r, q)
                grown = (r[0] - 3, r[1] - 3, r[2] + 3, r[3] + 3)
                for q, pair in near_placed:
                    area = _overlap_area(grown, q)
                    if area > 0:
                        hard += 2 * area
                        blame.append(pair)
                soft = sum(25.0 for p, q in near_segments if _segment_hits(p, q, r))
                score = hard * 4 + soft + abs(t - mid) * 30 + abs(off) * 2.5
                if best is None or score < best[0]:
                    best = (score, [frozenset((a, b)), *blame] if hard else [], r)
        assert best is not None
        crowded += best[1]
        placed.append((best[2], frozenset((a, b))))
        out[(a, b)] = list(best[2])
    return out, crowded


def _segment_hits(p: tuple[float, float], q: tuple[float, float], r: Sequence[float]) -> bool:
    """Whether the segment p-q passes through the rectangle r (Liang-Barsky clipping)."""
    x0, y0 = p
    dx, dy = q[0] - x0, q[1] - y0
    t0, t1 = 0.0, 1.0
    for pp, qq in ((-dx, x0 - r[0]), (dx, r[2] - x0), (-dy, y0 - r[1]), (dy, r[3] - y0)):
        if pp == 0:
            if qq < 0:
                return False
            continue
        t = qq / pp
        if pp < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def _legend_lines(mp: dict[str, Any], map_w: int) -> int:
    font = _font(15, True)
    x, lines = 12.0, 1
    for r in mp["regions"]:
        w = 22 + font.getlength(_region_label(r)) + 18
        if x + w > map_w - 12:
            x, lines = 12.0, lines + 1
        x += w
    return lines


class _Geometry:
    """One map's layout (see `compute_layout`), read from its file."""

    def __init__(self, mp: dict[str, Any], layout: dict[str, Any]) -> None:
        self.side: bool = layout["side"]
        self.w: int = layout["w"]
        self.map_h: int = layout["map_h"]
        self.h: int = layout["h"]
        self.label_w: dict[str, int] = layout["label_w"]
        self.pos: dict[str, tuple[int, int]] = {n: (p[0], p[1]) for n, p in layout["pos"].items()}
        self.region_of = {c["name"]: c["region"] for c in mp["cities"]}
        self.edge_label: dict[tuple[str, str], tuple[int, int, int, int]] = {
            (e[0], e[1]): (e[2], e[3], e[4], e[5]) for e in layout["cost_labels"]
        }
        self.palette = _palette_image([_hex(r["color"]) for r in mp["regions"]])

    def box(self, name: str, p: tuple[float, float] | None = None) -> tuple[float, ...]:
        """The city's node plus its name label, as (x0, y0, x1, y1)."""
        return _box(p or self.pos[name], self.label_w[name])


def layout_path(map_id: str) -> Path:
    return _LAYOUT_DIR / f"{map_id}.json"


def layout_text(layout: dict[str, Any]) -> str:
    """The layout file's exact text (one city or connection a line, so diffs read well)."""
    head = {k: v for k, v in layout.items() if k not in ("label_w", "pos", "cost_labels")}
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},")
    for key in ("label_w", "pos"):
        lines.append(f'  "{key}": {{')
        items = list(layout[key].items())
        for i, (n, v) in enumerate(items):
            comma = "," if i < len(items) - 1 else ""
            lines.append(f"    {json.dumps(n, ensure_ascii=False)}: {json.dumps(v)}{comma}")
        lines.append("  },")
    lines.append('  "cost_labels": [')
    rows = layout["cost_labels"]
    for i, row in enumerate(rows):
        comma = "," if i < len(rows) - 1 else ""
        lines.append(f"    {json.dumps(row, ensure_ascii=False)}{comma}")
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_layouts() -> list[Path]:
    """Recompute every map's layout file (run after changing a map or the layout code):

    .venv/bin/python -m engine.powergrid.render
    """
    out = []
    for path in sorted(_MAPS_DIR.glob("*.json")):
        mp = json.loads(path.read_text(encoding="utf-8"))
        target = layout_path(path.stem)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(layout_text(compute_layout(mp)), encoding="utf-8")
        out.append(target)
    return out


def _exit(box: Sequence[float], x: float, y: float, dx: float, dy: float) -> float:
    """How far (as a fraction of (dx, dy)) a ray from (x, y) inside `box` runs before leaving it."""
    ts = []
    if dx:
        ts.append(((box[2] if dx > 0 else box[0]) - x) / dx)
    if dy:
        ts.append(((box[3] if dy > 0 else box[1]) - y) / dy)
    return max(0.0, min(ts)) if ts else 0.0


def _overlap_area(r: Sequence[float], q: Sequence[float]) -> float:
    return max(0.0, min(r[2], q[2]) - max(r[0], q[0])) * max(0.0, min(r[3], q[3]) - max(r[1], q[1]))


def _region_label(region: dict[str, Any]) -> str:
    """ "NW North-West"; just "Purple (North-West)" when the name already starts with the id."""
    first = region["name"].split(" ", 1)[0]
    if first.casefold() == region["id"].casefold():
        return region["name"]
    return f"{region['id']} {region['name']}"


def _overlap(r: Sequence[float], q: Sequence[float]) -> bool:
    return r[0] < q[2] and q[0] < r[2] and r[1] < q[3] and q[1] < r[3]


_GEOMETRY: dict[str, tuple[dict[str, Any], _Geometry]] = {}
# (map, regions in play) -> base layer, least recently used first; about 4 MB each.
_BASE: dict[tuple[str, tuple[str, ...]], Image.Image] = {}
_BASE_LIMIT = 24


def _geometry_for(mp: dict[str, Any], map_id: str | None) -> _Geometry:
    """The map's layout from its file when it is up to date; computed here otherwise (slow:
    only for maps given as data, e.g. in tests, or a map edited without `write_layouts`)."""
    if map_id is not None:
        path = layout_path(map_id)
        if path.is_file():
            layout = json.loads(path.read_text(encoding="utf-8"))
            if layout.get("digest") == _map_digest(mp):
                return _Geometry(mp, layout)
    return _Geometry(mp, compute_layout(mp))


def _map_and_geometry(map_id: str) -> tuple[dict[str, Any], _Geometry]:
    if map_id not in _GEOMETRY:
        mp = json.loads(_load_map(map_id))
        _GEOMETRY[map_id] = (mp, _geometry_for(mp, map_id))
    return _GEOMETRY[map_id]


def _slot_boxes(x: float, y: float) -> list[tuple[int, int, int, int]]:
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


def _base_layer(map_id: str, regions: tuple[str, ...]) -> Image.Image:
    """The map without slots and houses, for one map and set of regions in play (cached)."""
    key = (map_id, regions)
    if key in _BASE:
        _BASE[key] = _BASE.pop(key)  # most recently used last
        return _BASE[key]
    mp, g = _map_and_geometry(map_id)
    live = set(regions)
    region_color = {r["id"]: _hex(r["color"]) for r in mp["regions"]}

    def tint(region: str) -> tuple[int, int, int]:
        if region in live:
            return _mix(_PAPER, region_color[region], 0.30)
        return _DIM_TINT

    # Region tint: blobs around cities and along same-region connections, drawn straight at the
    # final size (no blur, no scaling): a pale rim first, then the tint. Smaller circles drawn
    # later keep each area closest to its own cities.
    img = Image.new("RGB", (g.w, g.h), _PAPER)
    d = ImageDraw.Draw(img)
    inner = [(a, b) for a, b, _cost in mp["connections"] if g.region_of[a] == g.region_of[b]]
    for rim, radii, width in ((True, (72,), 86), (False, (62, 50, 40), 66)):
        for a, b in inner:
            colour = _rim(tint(g.region_of[a])) if rim else tint(g.region_of[a])
            d.line((*g.pos[a], *g.pos[b]), fill=colour, width=width)
        for r in radii:
            for name in sorted(g.pos):
                x, y = g.pos[name]
                colour = tint(g.region_of[name])
                d.ellipse((x - r, y - r, x + r, y + r), fill=_rim(colour) if rim else colour)

    def in_play(city: str) -> bool:
        return g.region_of[city] in live

    # Connections: dimmed ones first so live ones sit on top.
    conns = sorted(mp["connections"], key=lambda c: in_play(c[0]) and in_play(c[1]))
    for a, b, _cost in conns:
        live_edge = in_play(a) and in_play(b)
        (ax, ay), (bx, by) = g.pos[a], g.pos[b]
        d.line(
            (ax, ay, bx, by), fill=_EDGE if live_edge else _EDGE_DIM, width=3 if live_edge else 2
        )
    # Cities: the node frame (slots are drawn per picture), the costs, then the names on top.
    for name in sorted(g.pos):
        x, y = g.pos[name]
        live_city = in_play(name)
        d.rounded_rectangle(
            (x - NODE_W / 2, y - NODE_H / 2, x + NODE_W / 2, y + NODE_H / 2),
            radius=8,
            fill=(250, 250, 250) if live_city else (232, 232, 232),
            outline=_INK if live_city else _EDGE_DIM,
            width=2,
        )

    for a, b, cost in conns:
        live_edge = in_play(a) and in_play(b)
        x0, y0, x1, y1 = g.edge_label[(a, b)]
        sprite = _cost_sprite(str(cost), x1 - x0, y1 - y0, live_edge)
        img.paste(sprite, (x0, y0), sprite)
    for name in sorted(g.pos):
        x, y = g.pos[name]
        name_mask, halo, dx = _name_masks(name)
        at = (round(x - dx), round(y + NODE_H / 2 + 2))
        live_name = in_play(name)
        img.paste((255, 255, 255) if live_name else _PAPER, at, halo)
        img.paste(_INK if live_name else _DIM_TEXT, at, name_mask)
    # Legend of regions under the map.
    d.rectangle((0, g.map_h, g.w, g.h), fill=_PAPER)
    d.line((0, g.map_h, g.w, g.map_h), fill=_RULE, width=1)
    font = _font(15, True)
    lx, ly = 12.0, float(g.map_h + 6)
    for r in mp["regions"]:
        label = _region_label(r)
        w = 22 + font.getlength(label) + 18
        if lx + w > g.w - 12:
            lx, ly = 12.0, ly + LEGEND_H
        live_r = r["id"] in live
        d.rounded_rectangle(
            (lx, ly + 3, lx + 16, ly + 19),
            radius=3,
            fill=region_color[r["id"]] if live_r else _DIM_TINT,
            outline=_INK if live_r else _EDGE_DIM,
        )
        d.text((lx + 22, ly + 2), label, font=font, fill=_INK if live_r else _DIM_TEXT)
        lx += w
    _BASE[key] = img
    while len(_BASE) > _BASE_LIMIT:
        del _BASE[next(iter(_BASE))]
    return img


@cache
def _name_masks(name: str) -> tuple[Image.Image, Image.Image, int]:
    """A city name's text and its 3 px halo as masks, and the x offset of its middle.

    The halo is the text mask dilated (a max filter), several times cheaper than FreeType's
    stroked text; the base layer pastes the colours through the two masks."""
    font = _font(CITY_FONT, True)
    w = math.ceil(font.getlength(name)) + 8
    text = Image.new("L", (w, CITY_FONT + 10), 0)
    ImageDraw.Draw(text).text((w / 2, 3), name, font=font, fill=255, anchor="ma")
    halo = text.point(lambda v: 255 if v > 40 else 0).filter(ImageFilter.MaxFilter(7))
    return text, halo, w // 2


@cache
def _cost_sprite(text: str, w: int, h: int, live: bool) -> Image.Image:
    sprite = Image.new("RGBA", (w + 1, h + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    d.rounded_rectangle(
        (0, 0, w, h),
        radius=5,
        fill=(255, 255, 255) if live else (236, 236, 236),
        outline=_EDGE if live else _EDGE_DIM,
    )
    d.text(
        (w / 2, h / 2 + 1),
        text,
        font=_font(14, True),
        fill=_INK if live else _DIM_TEXT,
        anchor="mm",
    )
    return sprite


# --- houses ------------------------------------------------------------------------------------
def _initials(seats: Sequence[str]) -> dict[str, str]:
    """One letter per player; two (or letter + seat number) when first letters collide."""
    first = {p: (p[:1] or "?").upper() for p in seats}
    out: dict[str, str] = {}
    for i, p in enumerate(seats):
        if sum(1 for q in seats if first[q] == first[p]) == 1:
            out[p] = first[p]
            continue
        two = (p[:1].upper() + p[1:2].lower()) if len(p) > 1 else first[p]
        clash = sum(1 for q in seats if (q[:1].upper() + q[1:2].lower()) == two) > 1
        out[p] = f"{first[p]}{i + 1}" if clash else two
    return out


def _house(
    d: ImageDraw.ImageDraw, box: Sequence[float], color: tuple[int, int, int], tag: str
) -> None:
    d.ellipse(tuple(box), fill=color, outline=_INK, width=2)
    size = 14 if len(tag) == 1 else 12
    d.text(
        ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1),
        tag,
        font=_font(size, True),
        fill=_text_on(color),
        anchor="mm",
    )


# --- plant cards -------------------------------------------------------------------------------
def _house_icon(d: ImageDraw.ImageDraw, x: float, y: float, color: tuple[int, int, int]) -> None:
    """A 12x12 house outline with its top-left corner at (x, y)."""
    d.polygon([(x, y + 6), (x + 6, y), (x + 12, y + 6), (x + 12, y + 12), (x, y + 12)], fill=color)


def _card(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    plant: dict[str, Any],
    w: _Words,
    stored: dict[str, int] | None = None,
    highlight: bool = False,
) -> None:
    kind = plant.get("type", "")
    cost = int(plant.get("cost", 0))
    if kind == "hybrid":
        left, right = _TYPE_COLORS["coal"], _TYPE_COLORS["oil"]
    else:
        left = right = _TYPE_COLORS.get(kind, _MUTED)
    x1, y1 = x + CARD_W, y + CARD_H
    d.rounded_rectangle((x, y, x1, y1), radius=6, fill=_mix(left, (255, 255, 255), 0.82))
    if kind == "hybrid":
        d.rectangle(
            (x + CARD_W / 2, y + 3, x1 - 3, y1 - 3), fill=_mix(right, (255, 255, 255), 0.82)
        )
    d.rounded_rectangle(
        (x, y, x1, y1),
        radius=6,
        outline=_INK if highlight else left,
        width=4 if highlight else 2,
    )
    d.text((x + 6, y + 3), str(plant.get("number", "?")), font=_font(19, True), fill=_INK)
    _house_icon(d, x1 - 30, y + 7, _INK)
    d.text(
        (x1 - 6, y + 4), str(plant.get("output", 0)), font=_font(15, True), fill=_INK, anchor="ra"
    )
    key = f"type.{kind}"
    label = w(key) if key in labels else kind
    d.text(
        (x + CARD_W / 2, y + 27),
        _fit(label, _font(14), CARD_W - 6),
        font=_font(14),
        fill=_INK,
        anchor="ma",
    )
    # Resource squares: what one run burns (market) or the storage, filled as stored (owned).
    sq, gap = 8, 2
    n = cost * 2 if stored is not None else cost
    if n == 0:
        return
    fills: list[tuple[int, int, int] | None] = []
    if stored is not None:
        order = ("coal", "oil") if kind == "hybrid" else (kind,)
        for r in order:
            fills += [RESOURCE_COLORS.get(r, _MUTED)] * int(stored.get(r, 0))
        fills = fills[:n] + [None] * max(0, n - len(fills))
    else:
        fills = [left] * n
    total = n * sq + (n - 1) * gap
    sx, sy = x + (CARD_W - total) / 2, y1 - sq - 6
    for i, f in enumerate(fills):
        bx = sx + i * (sq + gap)
        d.rectangle(
            (bx, sy, bx + sq, sy + sq),
            fill=f if f is not None else (255, 255, 255),
            outline=_INK if f is not None else left,
        )


def _step3_card(d: ImageDraw.ImageDraw, x: float, y: float, w: _Words) -> None:
    d.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=6, fill=_INK)
    d.text(
        (x + CARD_W / 2, y + CARD_H / 2),
        _fit(w("step3_card"), _font(15, True), CARD_W - 6),
        font=_font(15, True),
        fill=(255, 255, 255),
        anchor="mm",
    )


# --- the table ---------------------------------------------------------------------------------
class _Table:
    """Draws the blocks of the table; each block returns the height it used."""

    def __init__(self, view: dict[str, Any], viewer: str | None, w: _Words) -> None:
        self.v = view
        self.viewer = viewer
        self.w = w
        seats = list(view.get("seat_order") or view.get("players", {}).keys())
        self.color = {p: _hex(PLAYER_COLORS[i % len(PLAYER_COLORS)]) for i, p in enumerate(seats)}
        self.tag = _initials(seats)

    def heading(self, d: ImageDraw.ImageDraw | None, x: float, y: float, text: str) -> int:
        if d is not None:
            d.text((x, y), text, font=_font(18, True), fill=_INK)
        return 28

    # header: round, step, phase, who moves
    def header(self, d: ImageDraw.ImageDraw | None, x: float, y: float, width: float) -> int:
        v, w = self.v, self.w
        phase = v.get("phase", "")
        lines: list[tuple[str, ImageFont.FreeTypeFont, tuple[int, int, int]]] = []
        key = f"phase.{phase}"
        title = w(
            "round_step_phase",
            round=v.get("round", 0),
            step=v.get("step", 1),
            phase=w(key) if key in labels else phase,
        )
        lines.append((title, _font(22, True), _INK))
        current = list(v.get("current_players") or [])
        expected = v.get("expected", "")
        if current and phase != "over":
            ekey = f"expected.{expected}"
            what = w(ekey) if ekey in labels else expected
            lines.append(
                (w("to_move", players=", ".join(current), what=what), _font(17, True), _INK)
            )
        auction = v.get("auction")
        if auction:
            lines.append(
                (
                    w(
                        "auction_line",
                        plant=auction["plant"]["number"],
                        bid=auction.get("high_bid"),
                        leader=auction.get("leader") or "-",
                        bidders=", ".join(auction.get("bidders") or []),
                    ),
                    _font(15),
                    _INK,
                )
            )
        if v.get("pending_discard"):
            lines.append((w("pending_discard", player=v["pending_discard"]), _font(15, True), _INK))
        if v.get("step3_pending"):
            lines.append((w("step3_pending"), _font(15, True), (170, 40, 20)))
        th = v.get("thresholds")
        if th and phase != "over":
            lines.append((w("thresholds", **th), _font(15), _MUTED))
        h = 0
        for i, (text, font, color) in enumerate(lines):
            if d is not None:
                tx = x
                if i == 1 and current:
                    # a house chip per player to move, so colour and initial lead the line
                    for p in current[:6]:
                        _house(
                            d,
                            (tx, y + h, tx + 22, y + h + 22),
                            self.color.get(p, _MUTED),
                            self.tag.get(p, "?"),
                        )
                        tx += 26
                    tx += 4
                d.text((tx, y + h), _fit(text, font, width - (tx - x)), font=font, fill=color)
            h += int(font.size) + (10 if i == 0 else 8)
        return h + 6

    def ranking(self, d: ImageDraw.ImageDraw | None, x: float, y: float, width: float) -> int:
        v, w = self.v, self.w
        ranking = v.get("ranking") or []
        if not ranking:
            return 0
        h = self.heading(d, x, y, w("ranking"))
        big, small = _font(18, True), _font(15)
        rank = 1
        lines = []
        for group in ranking:
            for p in group:
                lines.append((w("rank_line", rank=rank, players=p), p))
            rank += len(group)
        name_w = min(max(big.getlength(text) for text, _ in lines), width * 0.4)
        for text, p in lines:
            if d is not None:
                info = v["players"].get(p, {})
                money = info.get("money")
                powered = info.get("powered")
                detail = w(
                    "rank_detail",
                    powered=0 if powered is None else powered,
                    money="?" if money is None else money,
                    cities=len(info.get("cities", [])),
                )
                _house(
                    d,
                    (x, y + h, x + 24, y + h + 24),
                    self.color.get(p, _MUTED),
                    self.tag.get(p, "?"),
                )
                d.text((x + 32, y + h + 1), _fit(text, big, name_w), font=big, fill=_INK)
                dx = x + 32 + name_w + 14
                d.text((dx, y + h + 3), _fit(detail, small, x + width - dx), font=small, fill=_INK)
            h += 30
        return h + 8

    def players(self, d: ImageDraw.ImageDraw | None, x: float, y: float, width: float) -> int:
        v, w = self.v, self.w
        players = v.get("players", {})
        ranking = v.get("ranking") or []
        # At the end the rows are the final ranking (ties share a rank), not a second list.
        order = [p for group in ranking for p in group]
        number: dict[str, int] = {}
        for group in ranking:
            for p in group:
                number[p] = len(number) - sum(1 for q in group if q in number) + 1
        order += [p for p in v.get("player_order") or v.get("seat_order") or [] if p not in order]
        order += [p for p in v.get("seat_order", []) if p not in order]
        h = self.heading(d, x, y, w("ranking") if ranking else w("players"))
        current = set(v.get("current_players") or [])
        row_h = CARD_H + 14
        for i, p in enumerate(order):
            info = players.get(p)
            if info is None:
                continue
            if d is not None:
                n = number.get(p, i + 1)
                self._player_row(d, x, y + h, width, row_h, n, p, info, p in current)
            h += row_h
        return h + 6

    def _player_row(
        self,
        d: ImageDraw.ImageDraw,
        x: float,
        y: float,
        width: float,
        row_h: int,
        n: int,
        p: str,
        info: dict[str, Any],
        to_move: bool,
    ) -> None:
        w = self.w
        if to_move:
            d.rounded_rectangle((x - 6, y, x + width, y + row_h - 4), radius=8, fill=_HILITE)
        color = self.color.get(p, _MUTED)
        d.rectangle((x - 6, y, x - 2, y + row_h - 4), fill=color)
        plants = info.get("plants", [])
        cards_w = max(3, len(plants)) * (CARD_W + 4)
        text_w = width - cards_w - 8
        _house(d, (x + 2, y + 5, x + 28, y + 31), color, self.tag.get(p, "?"))
        bold = _font(17, True)
        name = f"{n}. {p}"
        flags = []
        if p == self.viewer:
            flags.append(w("you"))
        for key in ("passed", "bought", "done"):
            if key == "bought" and info.get("bought_plant"):
                flags.append(w("bought"))
            elif key != "bought" and info.get(key):
                flags.append(w(key))
        name_w = min(bold.getlength(name), text_w - 36 - (60 if flags else 0))
        d.text((x + 34, y + 7), _fit(name, bold, name_w + 1), font=bold, fill=_INK)
        if flags:
            d.text(
                (x + 34 + name_w + 8, y + 9),
                _fit(" · ".join(flags), _font(14), text_w - 42 - name_w),
                font=_font(14),
                fill=_MUTED,
            )
        money = info.get("money")
        line2 = w("money_hidden") if money is None else w("money", money=money)
        if info.get("powered") is not None:
            line2 += " · " + w("powered", n=info["powered"])
        d.text(
            (x + 34, y + 31),
            _fit(line2, _font(15, True), text_w - 34),
            font=_font(15, True),
            fill=_INK,
        )
        line3 = w(
            "cities_houses", cities=len(info.get("cities", [])), houses=info.get("houses_left", 0)
        )
        d.text((x + 34, y + 51), _fit(line3, _font(14), text_w - 34), font=_font(14), fill=_MUTED)
        cx = x + width - cards_w
        for plant in plants:
            _card(d, cx, y + 5, plant, w, stored=plant.get("stored") or {})
            cx += CARD_W + 4

    def plant_market(self, d: ImageDraw.ImageDraw | None, x: float, y: float, width: float) -> int:
        v, w = self.v, self.w
        pm = v.get("plant_market") or {}
        h = self.heading(d, x, y, w("plant_market"))
        if d is not None:
            d.text(
                (x + width, y + 3),
                w("deck", n=v.get("deck_size", 0)),
                font=_font(15),
                fill=_MUTED,
                anchor="ra",
            )
        auction = v.get("auction") or {}
        bid_on = (auction.get("plant") or {}).get("number")
        rows = [("current", [c for c in pm.get("current", []) if _is_plant(c)])]
        future = [c for c in pm.get("future", []) if _is_plant(c)]
        if future or pm.get("step3_card"):
            rows.append(("future", future))
        widest = max(
            len(cards) + (key == "future" and bool(pm.get("step3_card"))) for key, cards in rows
        )
        label_w = 64 if 64 + widest * (CARD_W + 6) <= width else 0
        for key, cards in rows:
            if d is not None:
                if label_w:
                    d.text(
                        (x, y + h + CARD_H / 2), w(key), font=_font(15), fill=_MUTED, anchor="lm"
                    )
                cx = x + label_w
                for c in cards:
                    _card(d, cx, y + h, c, w, highlight=c.get("number") == bid_on)
                    cx += CARD_W + 6
                if key == "future" and pm.get("step3_card"):
                    _step3_card(d, cx, y + h, w)
            h += CARD_H + 8
        return h + 6

    def resource_market(
        self, d: ImageDraw.ImageDraw | None, x: float, y: float, width: float
    ) -> int:
        v, w = self.v, self.w
        rm = v.get("resource_market") or {}
        supply = v.get("supply") or {}
        h = self.heading(d, x, y, w("resource_market"))
        label_w = 90
        cols = max([len(rm.get(r, [])) for r in RESOURCES] + [8])
        cell = (width - label_w) / cols
        row_h = 40
        for r in RESOURCES:
            spaces = rm.get(r, [])
            if d is not None:
                yy = y + h
                d.rectangle((x, yy + 4, x + 12, yy + 16), fill=RESOURCE_COLORS[r], outline=_INK)
                d.text(
                    (x + 18, yy + 1),
                    _fit(w(f"res.{r}"), _font(15), label_w - 20),
                    font=_font(15),
                    fill=_INK,
                )
                for i, sp in enumerate(spaces):
                    cx = x + label_w + i * cell
                    d.rounded_rectangle(
                        (cx + 1, yy, cx + cell - 2, yy + row_h - 4), radius=4, fill=(244, 243, 239)
                    )
                    d.text(
                        (cx + cell / 2, yy + 1),
                        str(sp.get("price", "")),
                        font=_font(14),
                        fill=_MUTED,
                        anchor="ma",
                    )
                    slots = int(sp.get("slots", 1))
                    count = int(sp.get("count", 0))
                    sq, gap = 8, 2
                    total = slots * sq + (slots - 1) * gap
                    sx = cx + (cell - total) / 2
                    for k in range(slots):
                        bx = sx + k * (sq + gap)
                        filled = k >= slots - count
                        d.rectangle(
                            (bx, yy + 21, bx + sq, yy + 21 + sq),
                            fill=RESOURCE_COLORS[r] if filled else (255, 255, 255),
                            outline=_INK if filled else (170, 170, 170),
                        )
                d.text(
                    (x + 18, yy + 21),
                    _fit(w("supply", n=supply.get(r, 0)), _font(14), label_w - 20),
                    font=_font(14),
                    fill=_MUTED,
                )
            h += row_h
        return h + 6

    def log(
        self, d: ImageDraw.ImageDraw | None, x: float, y: float, width: float, lines: int
    ) -> int:
        entries = [t for t in (_event_text(e, self.w) for e in self.v.get("log") or []) if t]
        entries = entries[-lines:]
        if not entries:
            return 0
        h = self.heading(d, x, y, self.w("log"))
        font = _font(15)
        for text in entries:
            if d is not None:
                d.text((x, y + h), _fit("· " + text, font, width), font=font, fill=_INK)
            h += 21
        return h + 6


def _is_plant(c: Any) -> bool:
    return isinstance(c, dict) and c.get("type") not in (None, "step3") and c.get("number") != 99


def _event_text(e: dict[str, Any], w: _Words) -> str | None:
    kind = e.get("type", "")
    if kind in _QUIET_EVENTS:
        return None
    key = f"ev.{kind}"
    if key not in labels:
        return None
    fields = {k: v for k, v in e.items() if k != "type"}
    if isinstance(fields.get("plant"), dict):
        fields["plant"] = fields["plant"].get("number")
    for k in ("order", "regions"):
        if isinstance(fields.get(k), list):
            fields[k] = ", ".join(str(x) for x in fields[k])
    if "resource" in fields:
        rkey = f"res.{fields['resource']}"
        fields["resource"] = w(rkey) if rkey in labels else fields["resource"]
    if isinstance(fields.get("cities"), list):
        fields["cities"] = len(fields["cities"])
    try:
        return w(key, **fields)
    except (KeyError, IndexError, ValueError):
        return None


# --- composition -------------------------------------------------------------------------------
# --- encoding: one fixed palette per map --------------------------------------------------------
def _palette_image(region_colors: Sequence[tuple[int, int, int]]) -> Image.Image:
    """Every colour the picture uses, plus the in-between shades of anti-aliased text on each
    background, as a "P" image for `Image.quantize(palette=...)`: mapping to a fixed palette
    is several times cheaper than finding one, and the same view gives the same bytes."""
    white = (255, 255, 255)
    tints = [_mix(_PAPER, c, 0.30) for c in region_colors]
    cards = [_mix(c, white, 0.82) for c in _TYPE_COLORS.values()]
    players = [_hex(c) for c in PLAYER_COLORS]
    flat = [
        _PAPER, _PANEL, _INK, _MUTED, _RULE, _EDGE, _EDGE_DIM, _DIM_TINT, _DIM_TEXT, _CLOSED,
        _HILITE, (250, 250, 250), (232, 232, 232), (236, 236, 236), (244, 243, 239),
        (170, 170, 170), (160, 160, 160), (140, 140, 140), (120, 120, 120), (170, 40, 20),
        _rim(_DIM_TINT),
        *RESOURCE_COLORS.values(), *_TYPE_COLORS.values(), *players, *region_colors,
        *tints, *(_rim(t) for t in tints), *cards,
    ]  # fmt: skip
    ramps: list[tuple[int, int, int]] = []
    ramps += [_mix(_INK, white, i / 15) for i in range(16)]  # ink on white
    ramps += [_mix(_INK, _PAPER, i / 7) for i in range(1, 7)]
    for bg in [*tints, *cards, _HILITE, (250, 250, 250), (244, 243, 239)]:
        ramps += [_mix(_INK, bg, t) for t in (0.25, 0.5, 0.75)]
    for bg in (white, _PAPER, _DIM_TINT, _HILITE, (236, 236, 236), (232, 232, 232)):
        ramps += [_mix(_DIM_TEXT, bg, t) for t in (0.33, 0.67)]
        ramps += [_mix(_MUTED, bg, t) for t in (0.33, 0.67)]
    for c in players:
        ramps += [_mix(_text_on(c), c, t) for t in (0.25, 0.5, 0.75)]
        ramps += [_mix(_INK, c, 0.5)]
    for c in (*RESOURCE_COLORS.values(), *_TYPE_COLORS.values()):
        ramps += [_mix(c, white, 0.5)]
    ramps += [_mix(white, _INK, t) for t in (0.25, 0.5, 0.75)]  # the STEP 3 card
    colours = list(dict.fromkeys([*flat, *ramps]))[:256]
    colours += [colours[0]] * (256 - len(colours))
    img = Image.new("P", (1, 1))
    img.putpalette([v for c in colours for v in c])
    return img


def _encode(img: Image.Image, palette: Image.Image) -> bytes:
    out = io.BytesIO()
    img.quantize(palette=palette, dither=Image.Dither.NONE).save(
        out, format="PNG", compress_level=PNG_LEVEL
    )
    return out.getvalue()


def _layout_column(
    table: _Table, blocks: Iterable[str], x: float, y: float, width: float, log_lines: int, d=None
) -> float:
    for block in blocks:
        if block == "log":
            y += table.log(d, x, y, width, log_lines)
        else:
            y += getattr(table, block)(d, x, y, width)
    return y


def render(
    view: dict[str, Any],
    viewer: str | None,
    *,
    t: Any = None,
    map_data: dict[str, Any] | None = None,
) -> bytes:
    """The board as a PNG: `view` is GAME.view(...) (VIEW.md), `viewer` whose picture it is.

    `t` is a translator (`.gettext`) for the words; `map_data` overrides the map file (tests).
    """
    words = _Words(t)
    map_id = view["map"]
    if map_data is not None:
        map_id = "\0" + json.dumps(map_data, sort_keys=True, ensure_ascii=False)
        if map_id not in _GEOMETRY:
            _GEOMETRY[map_id] = (map_data, _geometry_for(map_data, None))
    mp, g = _map_and_geometry(map_id)
    known = {r["id"] for r in mp["regions"]}
    regions = tuple(sorted(r for r in view.get("regions_in_play") or known if r in known))
    base = _base_layer(map_id, regions)
    table = _Table(view, viewer, words)

    pad = 20
    if g.side:
        col_x, col_w = g.w + pad, float(WIDTH - g.w - 2 * pad)
        blocks = ["header", "players", "plant_market", "resource_market", "log"]
        used = _layout_column(table, blocks[:-1], col_x, pad, col_w, 0)
        log_lines = max(3, min(8, int((g.h - used - 40) // 21)))
        height = max(g.h, round(_layout_column(table, blocks, col_x, pad, col_w, log_lines)) + pad)
        img = Image.new("RGB", (WIDTH, height), _PANEL)
        img.paste(base, (0, 0))
        d = ImageDraw.Draw(img)
        if height > g.h:
            d.rectangle((0, g.h, g.w, height), fill=_PAPER)
        d.line((g.w, 0, g.w, height), fill=_RULE, width=2)
        _draw_houses(d, view, g, table, regions)
        _layout_column(table, blocks, col_x, pad, col_w, log_lines, d)
    else:
        col_w = (WIDTH - 3 * pad) / 2
        left = ["header", "players"]
        right = ["plant_market", "resource_market", "log"]
        lh = _layout_column(table, left, pad, 0, col_w, 0)
        rh0 = _layout_column(table, right[:-1], 0, 0, col_w, 0)
        log_lines = max(4, min(8, int((lh - rh0 - 34) // 21)))
        rh = _layout_column(table, right, 0, 0, col_w, log_lines)
        height = g.h + round(max(lh, rh)) + 2 * pad
        img = Image.new("RGB", (WIDTH, height), _PANEL)
        img.paste(base, (0, 0))
        d = ImageDraw.Draw(img)
        d.line((0, g.h, WIDTH, g.h), fill=_RULE, width=2)
        _draw_houses(d, view, g, table, regions)
        _layout_column(table, left, pad, g.h + pad, col_w, 0, d)
        _layout_column(table, right, 2 * pad + col_w, g.h + pad, col_w, log_lines, d)

    return _encode(img, g.palette)


def _draw_houses(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    g: _Geometry,
    table: _Table,
    regions: tuple[str, ...],
) -> None:
    """Each city's three slots (10, 15, 20): a house, open and empty, or not open (hatched)."""
    slots_open = int(view.get("slots_open", 1))
    owners_of = view.get("cities") or {}
    for city in sorted(g.pos):
        x, y = g.pos[city]
        live = g.region_of[city] in regions
        owners = owners_of.get(city) or []
        for i, sb in enumerate(_slot_boxes(x, y)):
            if i < len(owners):
                p = owners[i]
                _house(d, sb, table.color.get(p, _MUTED), table.tag.get(p, "?"))
            elif live and i < slots_open:
                d.ellipse(sb, fill=(255, 255, 255), outline=(120, 120, 120), width=1)
            else:
                d.ellipse(sb, fill=_CLOSED, outline=(160, 160, 160), width=1)
                d.line((sb[0] + 5, sb[3] - 5, sb[2] - 5, sb[1] + 5), fill=(140, 140, 140), width=2)


# Load every face and size the picture uses now, at import, so no picture pays for it.
for _size, _bold in ((12, True), (14, False), (14, True), (15, False), (15, True), (17, True),
                     (18, True), (19, True), (22, True)):  # fmt: skip
    _font(_size, _bold)


if __name__ == "__main__":
    for written in write_layouts():
        print(f"wrote {written}")
