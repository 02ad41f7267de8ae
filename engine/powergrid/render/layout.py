"""Where a Power Grid map's cities and costs go: computed offline, read at render time.

`compute_layout` places every city of a map on a 720 px wide area with the picture's own font
sizes (names 21 px, costs 16 px), pushes cities apart (in their order on the real map) until
no node, name or cost overlaps, then moves them (`_Untangler`) so that connections stop
running through other cities and across each other, near their real places and on their
sides of the cities around them; `python -m engine.powergrid.render` writes it to
data/layout/<map>.json (about 4 minutes; a test checks the files are up to date).
`Geometry.cropped` then keeps the cities of the regions in play only, and zooms their
bounding box to the picture's width: zooming in only spreads cities further apart, so the
offline guarantees hold in every crop.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.core.picture import NAME, NUMBER, WIDTH, font
from engine.powergrid.data import MAPS_DIR, map_text

LAYOUT_DIR = Path(__file__).resolve().parents[1] / "data" / "layout"
LAYOUT_VERSION = 5

SLOT_D = 23  # house slot diameter
SLOT_GAP = 2
NODE_PAD = 3
NODE_W = 3 * SLOT_D + 2 * SLOT_GAP + 2 * NODE_PAD
NODE_H = SLOT_D + 2 * NODE_PAD
CITY_FONT = NAME
COST_FONT = NUMBER
COST_H = COST_FONT + 8
MARGIN = 14
MAX_ZOOM = 1.7
_LINKED_GAP = 24.0  # room between connected cities, grown where a cost does not fit
_BOX_H = NODE_H + CITY_FONT + 4  # node plus name


load_map = map_text  # the one reader of the map files (engine/powergrid/data.py)


def map_digest(mp: dict[str, Any]) -> str:
    """What a layout was computed from: the map's content and the layout code's version."""
    text = json.dumps(mp, sort_keys=True, ensure_ascii=False) + f"|layout v{LAYOUT_VERSION}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def name_width(name: str) -> int:
    return math.ceil(font(CITY_FONT, True).getlength(name))


def box(p: Sequence[float], label_w: float, pad: float = 0.0) -> tuple[float, float, float, float]:
    """A city's node plus its name label, as (x0, y0, x1, y1)."""
    x, y = p
    half = max(NODE_W, label_w + 6) / 2 + pad
    return (x - half, y - NODE_H / 2 - pad, x + half, y + NODE_H / 2 + CITY_FONT + 4 + pad)


def overlap(r: Sequence[float], q: Sequence[float]) -> bool:
    return r[0] < q[2] and q[0] < r[2] and r[1] < q[3] and q[1] < r[3]


def overlap_area(r: Sequence[float], q: Sequence[float]) -> float:
    return max(0.0, min(r[2], q[2]) - max(r[0], q[0])) * max(0.0, min(r[3], q[3]) - max(r[1], q[1]))


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
    w = WIDTH
    scale = (w - 2 * MARGIN - NODE_W) / rw
    map_h = round(rh * scale + 2 * MARGIN + _BOX_H)
    label_w = {n: name_width(n) for n in raw}
    gaps = {frozenset(c[:2]): _LINKED_GAP for c in mp["connections"]}
    pos: dict[str, tuple[int, int]] = {}
    labels_at: dict[tuple[str, str], list[int]] = {}
    for attempt in range(60):
        # the cities spread over the whole height: a taller map gives every one more room
        sy = (map_h - 2 * MARGIN - _BOX_H) / rh
        start = {
            n: (MARGIN + NODE_W / 2 + (x - min(xs)) * scale, MARGIN + NODE_H + (y - min(ys)) * sy)
            for n, (x, y) in raw.items()
        }
        pos = _declutter(start, label_w, gaps, w, map_h)
        boxes = sorted((box(pos[n], label_w[n]), n) for n in pos)
        if attempt < 59 and any(
            overlap(p[0], q[0]) for i, p in enumerate(boxes) for q in boxes[i + 1 :]
        ):
            map_h += 20  # no room left: a taller map
            continue
        labels_at, crowded = _place_cost_labels(mp["connections"], pos, label_w)
        if not crowded or attempt == 59:
            break
        for pair in sorted(set(crowded), key=sorted):
            gaps[pair] = gaps.get(pair, 8.0) + 6
        map_h += 10
    pos = _Untangler(pos, start, label_w, gaps, mp["connections"], w, map_h).untangled()
    labels_at, _crowded = _place_cost_labels(mp["connections"], pos, label_w)
    return {
        "version": LAYOUT_VERSION,
        "map": mp.get("id", ""),
        "digest": map_digest(mp),
        "w": w,
        "h": map_h,
        "label_w": {n: label_w[n] for n in sorted(label_w)},
        "pos": {n: list(pos[n]) for n in sorted(pos)},
        "cost_labels": [[a, b, *labels_at[(a, b)]] for a, b, _cost in mp["connections"]],
    }


def _declutter(
    start: dict[str, tuple[float, float]],
    label_w: dict[str, int],
    gaps: dict[frozenset[str], float],
    map_w: int,
    map_h: int,
) -> dict[str, tuple[int, int]]:
    """Push overlapping city boxes apart (deterministic), staying inside the map area.

    A pair is pushed apart in its order on the real map wherever that order is clear (more
    than `_FLIP_FROM` pixels), not in its order of the moment: the pairs are pushed one after
    another, so one push can carry a city past another before that pair's turn comes, and
    pushing that pair apart as it then stands made the inversion permanent. In the USA, New
    York pushed Philadelphia south past Washington, Philadelphia then pushed Washington north,
    and Washington ended above New York, three boxes away from a way back that annealing
    never found."""
    names = sorted(start)
    xs = [start[n][0] for n in names]
    ys = [start[n][1] for n in names]
    half = [max(NODE_W, label_w[n] + 6) / 2 for n in names]

    def real_side(i: int, j: int, axis: int) -> int:
        """+1 or -1: j's side of i on the real map in that axis, 0 where too close to tell."""
        d = start[names[j]][axis] - start[names[i]][axis]
        return 0 if abs(d) <= _FLIP_FROM else (1 if d > 0 else -1)

    pairs = [
        (
            i,
            j,
            gaps.get(frozenset((names[i], names[j])), 8.0),
            real_side(i, j, 0),
            real_side(i, j, 1),
        )
        for i in range(len(names))
        for j in range(i + 1, len(names))
    ]
    top, bottom = MARGIN + NODE_H / 2, map_h - MARGIN - (_BOX_H - NODE_H / 2)
    for _ in range(800):
        moved = False
        for i, j, gap, side_x, side_y in pairs:
            dx, dy = xs[j] - xs[i], ys[j] - ys[i]
            if half[i] + half[j] - abs(dx) + gap <= 0 or _BOX_H - abs(dy) + gap <= 0:
                continue
            moved = True
            sx = side_x or (1 if dx >= 0 else -1)
            sy = side_y or (1 if dy >= 0 else -1)
            # how far apart they must move to stand clear in that order (past each other
            # first, where they stand the wrong way round)
            ox = half[i] + half[j] + gap - sx * dx
            oy = _BOX_H + gap - sy * dy
            if ox < oy * 1.2:
                s = (ox / 2 + 0.5) * sx
                xs[i] -= s
                xs[j] += s
            else:
                s = (oy / 2 + 0.5) * sy
                ys[i] -= s
                ys[j] += s
        for k in range(len(names)):
            xs[k] = min(max(xs[k], MARGIN + half[k]), map_w - MARGIN - half[k])
            ys[k] = min(max(ys[k], top), bottom)
        if not moved:
            break
    return {n: (round(xs[k]), round(ys[k])) for k, n in enumerate(names)}


# _Untangler's weights: a line through another city's node reads as a connection to it, one
# through its name only hides letters; overlapping boxes are never allowed; a city may leave
# its place on the map (the geography players know) at a small, growing cost, and should stay
# on its side of the cities around it, connected or not (Washington south of New York).
_THROUGH_NODE = 300.0
_THROUGH_NAME = 80.0
_CLASH = 1000.0
_CROSSING = 30.0  # two connections crossing: what keeps a city on its side of the lines
_FLIPPED = 60.0  # a neighbour on the other side than on the real map (north/south, east/west)
_FLIP_FROM = 20.0  # pixels apart on the real map before a side counts
# Unconnected cities count as neighbours when their boxes at their real places come within a
# box's height of each other: the pairs the pushing apart had to sort out, which no line
# holds in order. 30 or 120 instead of _FLIPPED for them did worse (Germany crossings 12, USA 5).
_NEAR = _BOX_H
_DRIFT = 0.004  # per square pixel
_PROPOSALS_PER_CITY = 2000


class _Untangler:
    """Moves cities so that connections stop running through other cities' boxes, staying
    near their geographic places (`anchor`) and never overlapping (simulated annealing with
    a fixed seed, then single steps while any helps: deterministic). `_declutter` alone
    (layout v2) left lines crossing each other and running through Osnabrück.
    Holds the positions and the part of the energy one city takes part in."""

    def __init__(
        self,
        pos: dict[str, tuple[int, int]],
        anchor: dict[str, tuple[float, float]],
        label_w: dict[str, int],
        gaps: dict[frozenset[str], float],
        connections: list[list[Any]],
        map_w: int,
        map_h: int,
    ) -> None:
        self.names = sorted(pos)
        self.p = {n: (float(pos[n][0]), float(pos[n][1])) for n in self.names}
        self.anchor = anchor
        self.label_w = label_w
        self.gaps = gaps
        self.half = {n: max(NODE_W, label_w[n] + 6) / 2 for n in self.names}
        self.edges = [(str(a), str(b)) for a, b, _c in connections]
        self.touching: dict[str, list[tuple[str, str]]] = {n: [] for n in self.names}
        for a, b in self.edges:
            self.touching[a].append((a, b))
            self.touching[b].append((a, b))
        self.neighbours = {
            n: sorted({a if b == n else b for a, b in self.touching[n]}) for n in self.names
        }
        self.near: dict[str, list[str]] = {n: [] for n in self.names}
        for i, a in enumerate(self.names):
            for b in self.names[i + 1 :]:
                dx, dy = anchor[b][0] - anchor[a][0], anchor[b][1] - anchor[a][1]
                if (
                    b not in self.neighbours[a]
                    and abs(dx) < self.half[a] + self.half[b] + _NEAR
                    and abs(dy) < _BOX_H + _NEAR
                ):
                    self.near[a].append(b)
                    self.near[b].append(a)
        # who may trade places with whom while annealing
        self.partners = {n: sorted({*self.neighbours[n], *self.near[n]}) for n in self.names}
        self.map_w = map_w
        self.top, self.bottom = MARGIN + NODE_H / 2, map_h - MARGIN - (_BOX_H - NODE_H / 2)

    def untangled(self) -> dict[str, tuple[int, int]]:
        self._anneal(random.Random(0))
        self._settle()
        return {n: (round(self.p[n][0]), round(self.p[n][1])) for n in self.names}

    def _anneal(self, rnd: random.Random) -> None:
        names = self.names
        proposals = _PROPOSALS_PER_CITY * len(names)
        for k in range(proposals):
            frac = k / proposals
            heat, reach = 60 * 0.01**frac, 50 * 0.06**frac
            c = names[rnd.randrange(len(names))]
            if k % 10 == 9 and self.partners[c]:
                # two neighbours trade places: a pair the pushing apart put in the wrong
                # order cannot walk past each other one small step at a time
                n = self.partners[c][rnd.randrange(len(self.partners[c]))]
                moved = {c: self.p[n], n: self.p[c]}
            else:
                x, y = self.p[c]
                moved = {c: (x + rnd.gauss(0, reach), y + rnd.gauss(0, reach))}
            old = {m: self.p[m] for m in moved}
            before = sum(self.energy(m) for m in moved)
            for m, (x, y) in moved.items():
                self.p[m] = self.clamp(m, x, y)
            worse = sum(self.energy(m) for m in moved) - before
            if worse > 0 and rnd.random() >= math.exp(-worse / heat):
                self.p.update(old)

    def _settle(self) -> None:
        """Single steps, each city to its best nearby spot, while any step helps."""
        steps = [
            (dx * s, dy * s)
            for s in (4, 10, 24, 48)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
        ]
        for _ in range(80):
            improved = False
            for c in self.names:
                old = best_at = self.p[c]
                best = self.energy(c)
                for dx, dy in steps:
                    self.p[c] = self.clamp(c, old[0] + dx, old[1] + dy)
                    e = self.energy(c)
                    if e < best - 1e-9:
                        best, best_at = e, self.p[c]
                self.p[c] = best_at
                improved = improved or best_at != old
            if not improved:
                break

    def clamp(self, c: str, x: float, y: float) -> tuple[float, float]:
        h = self.half[c]
        return (
            min(max(x, MARGIN + h), self.map_w - MARGIN - h),
            min(max(y, self.top), self.bottom),
        )

    def through(self, a: str, b: str, n: str) -> float:
        """The cost of connection a-b running through city n's node or name."""
        (ax, ay), (bx, by), (x, y) = self.p[a], self.p[b], self.p[n]
        half = self.half[n] + 4
        if (
            max(ax, bx) < x - half
            or min(ax, bx) > x + half
            or max(ay, by) < y - NODE_H / 2 - 4
            or min(ay, by) > y + _BOX_H
        ):
            return 0.0
        node = (x - NODE_W / 2 - 3, y - NODE_H / 2 - 3, x + NODE_W / 2 + 3, y + NODE_H / 2 + 3)
        if segment_hits((ax, ay), (bx, by), node):
            return _THROUGH_NODE
        w = self.label_w[n] / 2 + 5
        label = (x - w, y + NODE_H / 2, x + w, y + _BOX_H - NODE_H / 2 + 2)
        return _THROUGH_NAME if segment_hits((ax, ay), (bx, by), label) else 0.0

    def clash(self, i: str, j: str) -> float:
        gap = self.gaps.get(frozenset((i, j)), 8.0)
        dx, dy = self.p[j][0] - self.p[i][0], self.p[j][1] - self.p[i][1]
        ox = self.half[i] + self.half[j] - abs(dx) + gap
        oy = _BOX_H - abs(dy) + gap
        return _CLASH + 10 * min(ox, oy) if ox > 0 and oy > 0 else 0.0

    def flipped(self, a: str, b: str) -> int:
        """In how many axes b stands on the other side of a than on the real map."""
        p, q, pa, qa = self.p[a], self.p[b], self.anchor[a], self.anchor[b]
        return sum(
            1
            for axis in (0, 1)
            if abs(qa[axis] - pa[axis]) > _FLIP_FROM
            and (q[axis] - p[axis]) * (qa[axis] - pa[axis]) < 0
        )

    def energy(self, c: str) -> float:
        """The energy terms that change when city c moves."""
        e = sum(self.through(a, b, c) for a, b in self.edges if c != a and c != b)
        for a, b in self.touching[c]:
            e += sum(self.through(a, b, n) for n in self.names if n != a and n != b)
        e += sum(self.clash(c, n) for n in self.names if n != c)
        e += _FLIPPED * sum(self.flipped(c, n) for n in self.near[c])
        for a, b in self.touching[c]:
            p, q = self.p[a], self.p[b]
            e += _FLIPPED * self.flipped(a, b)
            for d, f in self.edges:
                if d not in (a, b) and f not in (a, b) and _cross(p, q, self.p[d], self.p[f]):
                    e += _CROSSING
        (x, y), (sx, sy) = self.p[c], self.anchor[c]
        return e + _DRIFT * ((x - sx) ** 2 + (y - sy) ** 2)


def _cross(p: Sequence[float], q: Sequence[float], r: Sequence[float], s: Sequence[float]) -> bool:
    """Whether segments p-q and r-s cross (touching ends do not count)."""

    def side(a: Sequence[float], b: Sequence[float], c: Sequence[float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    return side(p, q, r) * side(p, q, s) < 0 and side(r, s, p) * side(r, s, q) < 0


def _exit(b: Sequence[float], x: float, y: float, dx: float, dy: float) -> float:
    """How far (as a fraction of (dx, dy)) a ray from (x, y) inside `b` runs before leaving it."""
    ts = []
    if dx:
        ts.append(((b[2] if dx > 0 else b[0]) - x) / dx)
    if dy:
        ts.append(((b[3] if dy > 0 else b[1]) - y) / dy)
    return max(0.0, min(ts)) if ts else 0.0


def segment_span(
    p: Sequence[float], q: Sequence[float], r: Sequence[float]
) -> tuple[float, float] | None:
    """The part (t0, t1) of the segment p-q inside the rectangle r, if any (Liang-Barsky
    clipping)."""
    x0, y0 = p
    dx, dy = q[0] - x0, q[1] - y0
    t0, t1 = 0.0, 1.0
    for pp, qq in ((-dx, x0 - r[0]), (dx, r[2] - x0), (-dy, y0 - r[1]), (dy, r[3] - y0)):
        if pp == 0:
            if qq < 0:
                return None
            continue
        t = qq / pp
        if pp < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return (t0, t1)


def segment_hits(p: Sequence[float], q: Sequence[float], r: Sequence[float]) -> bool:
    """Whether the segment p-q passes through the rectangle r."""
    return segment_span(p, q, r) is not None


def cost_size(cost: Any) -> tuple[int, int]:
    return math.ceil(font(COST_FONT, True).getlength(str(cost))) + 10, COST_H


def _place_cost_labels(
    connections: list[list[Any]], pos: dict[str, tuple[int, int]], label_w: dict[str, int]
) -> tuple[dict[tuple[str, str], list[int]], list[frozenset[str]]]:
    """A spot for each connection's cost, and the connections that found no clear spot.

    Candidates run along the visible part of the line (and a little to either side of it);
    a spot pays for covering a city, another cost (with a margin), or another line, and for
    leaving the middle. Costs of short, crowded connections are placed first."""
    boxes = {n: box(pos[n], label_w[n]) for n in pos}
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
        w, h = cost_size(cost)
        if hi <= lo:
            lo = hi = (lo + hi) / 2
        mid = (lo + hi) / 2
        ln = math.hypot(bx - ax, by - ay) or 1.0
        nx, ny = -(by - ay) / ln, (bx - ax) / ln
        m = w + 12
        reach = (min(ax, bx) - m, min(ay, by) - m, max(ax, bx) + m, max(ay, by) + m)
        near_boxes = [q for q in boxes.values() if overlap(reach, q)]
        near_placed = [(q, pair) for q, pair in placed if overlap(reach, q)]
        near_segments = [
            (p, q)
            for c, e, p, q in segments
            if (c, e) != (a, b)
            and overlap(reach, (min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]), max(p[1], q[1])))
        ]
        best: tuple[float, list[frozenset[str]], tuple[int, int, int, int]] | None = None
        for step in range(-8, 9):
            t = mid + (hi - lo) * step / 18
            for off in (0, 6, -6, 11, -11):
                cx, cy = ax + (bx - ax) * t + nx * off, ay + (by - ay) * t + ny * off
                x0, y0 = round(cx - w / 2), round(cy - h / 2)
                r = (x0, y0, x0 + w, y0 + h)
                hard = sum(overlap_area(r, q) for q in near_boxes)
                blame = []  # the pairs of cities to move apart when no spot is clear
                grown = (r[0] - 3, r[1] - 3, r[2] + 3, r[3] + 3)
                for q, pair in near_placed:
                    area = overlap_area(grown, q)
                    if area > 0:
                        hard += 2 * area
                        blame.append(pair)
                soft = sum(25.0 for p, q in near_segments if segment_hits(p, q, r))
                score = hard * 4 + soft + abs(t - mid) * 30 + abs(off) * 2.5
                if best is None or score < best[0]:
                    best = (score, [frozenset((a, b)), *blame] if hard else [], r)
        assert best is not None
        crowded += best[1]
        placed.append((best[2], frozenset((a, b))))
        out[(a, b)] = list(best[2])
    return out, crowded


def layout_path(map_id: str) -> Path:
    return LAYOUT_DIR / f"{map_id}.json"


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
    for path in sorted(MAPS_DIR.glob("*.json")):
        mp = json.loads(map_text(path.stem))
        target = layout_path(path.stem)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(layout_text(compute_layout(mp)), encoding="utf-8")
        out.append(target)
    return out


class Geometry:
    """A map's layout, whole (from its file) or cropped to the cities of some regions."""

    def __init__(
        self,
        mp: dict[str, Any],
        w: int,
        h: int,
        label_w: dict[str, int],
        pos: dict[str, tuple[int, int]],
        cost_labels: dict[tuple[str, str], tuple[int, int, int, int]],
    ) -> None:
        self.mp = mp
        self.w, self.h = w, h
        self.label_w = label_w
        self.pos = pos
        self.edge_label = cost_labels
        self.region_of = {c["name"]: c["region"] for c in mp["cities"]}

    @classmethod
    def from_layout(cls, mp: dict[str, Any], layout: dict[str, Any]) -> Geometry:
        return cls(
            mp,
            layout["w"],
            layout["h"],
            dict(layout["label_w"]),
            {n: (p[0], p[1]) for n, p in layout["pos"].items()},
            {(e[0], e[1]): (e[2], e[3], e[4], e[5]) for e in layout["cost_labels"]},
        )

    def box(self, name: str) -> tuple[float, float, float, float]:
        return box(self.pos[name], self.label_w[name])

    def cropped(self, regions: Sequence[str]) -> Geometry:
        """Only the cities of `regions` and the connections between them, zoomed (at most
        `MAX_ZOOM`) so their bounding box fills the width. Node, name and cost boxes keep
        their size: only the distances between them grow, so nothing new overlaps."""
        keep = {n for n in self.pos if self.region_of[n] in set(regions)} or set(self.pos)
        edges = {e: r for e, r in self.edge_label.items() if e[0] in keep and e[1] in keep}
        xs = [self.pos[n][0] for n in keep]
        span = max(xs) - min(xs)
        pad_x = max(max(NODE_W, self.label_w[n] + 6) / 2 for n in keep) + MARGIN
        zoom = max(1.0, min(MAX_ZOOM, (WIDTH - 2 * pad_x) / span if span else MAX_ZOOM))

        def move(x: float, y: float) -> tuple[float, float]:
            return (x * zoom, y * zoom)

        moved = {n: move(*self.pos[n]) for n in keep}
        rects = [box(moved[n], self.label_w[n]) for n in keep]
        labels = {}
        for e, r in edges.items():
            ex, ey = move((r[0] + r[2]) / 2, (r[1] + r[3]) / 2)
            w, h = r[2] - r[0], r[3] - r[1]
            labels[e] = (ex - w / 2, ey - h / 2, ex + w / 2, ey + h / 2)
        allr = rects + list(labels.values())
        left = min(r[0] for r in allr) - MARGIN
        right = max(r[2] for r in allr) + MARGIN
        top = min(r[1] for r in allr) - MARGIN
        bottom = max(r[3] for r in allr) + MARGIN
        dx = (WIDTH - (right - left)) / 2 - left
        dy = -top
        pos = {n: (round(p[0] + dx), round(p[1] + dy)) for n, p in moved.items()}
        spots = {
            e: (
                round(r[0] + dx),
                round(r[1] + dy),
                round(r[0] + dx) + round(r[2] - r[0]),
                round(r[1] + dy) + round(r[3] - r[1]),
            )
            for e, r in labels.items()
        }
        return Geometry(self.mp, WIDTH, math.ceil(bottom - top), self.label_w, pos, spots)


_GEOMETRY: dict[str, tuple[dict[str, Any], Geometry]] = {}


def geometry_for(mp: dict[str, Any], map_id: str | None) -> Geometry:
    """The map's layout from its file when it is up to date; computed here otherwise (slow:
    only for maps given as data, e.g. in tests, or a map edited without `write_layouts`)."""
    if map_id is not None:
        path = layout_path(map_id)
        if path.is_file():
            layout = json.loads(path.read_text(encoding="utf-8"))
            if layout.get("digest") == map_digest(mp):
                return Geometry.from_layout(mp, layout)
    return Geometry.from_layout(mp, compute_layout(mp))


def map_and_geometry(map_id: str) -> tuple[dict[str, Any], Geometry]:
    """The map's data and its whole layout (cached per process)."""
    if map_id not in _GEOMETRY:
        mp = json.loads(load_map(map_id))
        _GEOMETRY[map_id] = (mp, geometry_for(mp, map_id))
    return _GEOMETRY[map_id]


def register_map(mp: dict[str, Any]) -> str:
    """A key for a map given as data (tests), its geometry computed once."""
    key = "\0" + json.dumps(mp, sort_keys=True, ensure_ascii=False)
    if key not in _GEOMETRY:
        _GEOMETRY[key] = (mp, geometry_for(mp, None))
    return key
