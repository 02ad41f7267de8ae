"""Whose each laid segment is, in its owner's tag as well as his colour (ALT-22).

A player's line is drawn in his colour; each segment he lays also wears his tag ("A", "Ш",
"2", as his plants, TPs and panel row wear it: `badge_tags`) in a round-ended marker (a house
is square-cornered), so a colour-blind player tells whose it is without its colour (found
reviewing pictures: under deuteranopia the green and pink players' lines were one grey).

The marker sits on its segment, the line running through it, clear of every city's node and
name, every cost and every other marker. A fifth of the maps' connections show less than
35 px of line between their cities' nodes and names, most of it under their cost: there the
marker is a tab of the segment's own cost box, coming out from under it (the cost moved along
its row by up to the tab's width where that makes room), so the connection's one label says
its cost and its owner. Before, such a marker stood on its own beside the cost, where it could
be read as a neighbouring segment's (half the markers), and 1 segment in 25 had none (1 in 15
in the bench's games): tests/engine/powergrid_alt/test_render_markers.py counts both over bot
games. The segments with the least room choose first; a marker keeps off other players'
lines where any spot allows.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from engine.core.picture import INK, NUMBER, RGB, WIDTH, Pen, ink_box, text_on
from engine.powergrid.render.board import BADGE_LINE, badge_tags, name_boxes
from engine.powergrid.render.layout import NODE_H, NODE_W, overlap, segment_hits, segment_span

Box = tuple[float, float, float, float]
Point = tuple[float, float]
Wire = tuple[Point, Point]

MARKER_H = 21
CLEAR = 3  # px between a marker and a cost, a city's node or name, another marker
# A tab stands against its own cost among crowded cities: 2 px from a city's node, none from
# a name's white halo (itself 2 px around the letters); other costs and markers keep `CLEAR`,
# so that a tab never reads as theirs.
_TAB_NODE_CLEAR = 2
_TUCK = 4  # px of a tab under its cost box
# Where a marker's middle may stand across its segment (px along the normal, in order of
# preference): the line still runs through the marker at least 4 px inside its edge.
_ACROSS = (0.0, 3.0, -3.0, 6.0, -6.0)
_STEP = 3.0  # px between the spots tried along a stretch


class Marker(NamedTuple):
    """A segment's marker: whose, which segment ("a|b", as the view names it), the
    round-ended box drawn (`box`) and the part of it that shows (`shown`, its tag in the
    middle): all of it on the line. A tab comes out from under the cost box of the connection
    `cost`, drawn over its end at `cost_box` (where the layout put it, or moved along its row
    to make room)."""

    owner: str
    segment: str
    box: Box
    shown: Box
    cost: tuple[str, str] | None = None
    cost_box: Box | None = None

    def area(self) -> list[Box]:
        """What it covers on the map: what shows, and a tab's cost box."""
        return [self.shown] if self.cost_box is None else [self.shown, self.cost_box]


def marker_box(x: float, y: float, tag: str) -> Box:
    """A line marker's box centred on (x, y): as tall as `MARKER_H`, as wide as its tag
    needs between its round ends."""
    x0, _y0, x1, _y1 = ink_box(tag, NUMBER, True)
    w = max(MARKER_H, x1 - x0 + 12)
    left, top = round(x - w / 2), round(y - MARKER_H / 2)
    return (left, top, left + w, top + MARKER_H)


def tab_width(tag: str) -> int:
    """How far a tab shows out from under its cost box: its tag, 3 px either side of it, the
    outline at its round end."""
    x0, _y0, x1, _y1 = ink_box(tag, NUMBER, True)
    return max(MARKER_H - 2, x1 - x0 + 9)


def draw_marker(pen: Pen, m: Marker, color: RGB, tag: str) -> None:
    """A marker: a round-ended box in its owner's colour, his tag in the middle of what shows;
    a tab's end under its cost box square (the cost box is drawn over it afterwards)."""
    box, shown = m.box, m.shown
    x0, y0, x1, y1 = box
    d = pen.d
    d.rounded_rectangle(
        box, radius=min(x1 - x0, y1 - y0) // 2, fill=color, outline=INK, width=BADGE_LINE
    )
    if box != shown:  # a tab: the half under the cost box square, as its outline runs on
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        if box[0] < shown[0] or box[2] > shown[2]:
            a, b = (x0, mx) if box[0] < shown[0] else (mx, x1)
            d.rectangle((a, y0, b, y1), fill=color)
            d.rectangle((a, y0, b, y0 + BADGE_LINE - 1), fill=INK)
            d.rectangle((a, y1 - BADGE_LINE + 1, b, y1), fill=INK)
        else:
            a, b = (y0, my) if box[1] < shown[1] else (my, y1)
            d.rectangle((x0, a, x1, b), fill=color)
            d.rectangle((x0, a, x0 + BADGE_LINE - 1, b), fill=INK)
            d.rectangle((x1 - BADGE_LINE + 1, a, x1, b), fill=INK)
    x0, y0, x1, y1 = ink_box(tag, NUMBER, True)
    cx, cy = (shown[0] + shown[2]) / 2, (shown[1] + shown[3]) / 2
    pen.text(
        (cx - (x0 + x1) / 2, cy - (y0 + y1) / 2),
        tag,
        NUMBER,
        "number",
        bold=True,
        fill=text_on(color),
        anchor="mm",
    )


Pair = tuple[str, str]  # a connection, as the layout names it (`Geometry.edge_label`)


class _Map:
    """What stays the same between pictures of one map crop (`_map`): every city's node and
    name, the costs, and per connection what its marker may meet, the room on its line, the
    connections near it and the ways a tab of its cost may come out, clear of all of them."""

    def __init__(self, g: Any) -> None:
        # not `g` itself: `_MAPS` holds this as long as `g` lives
        self.pos: dict[str, Point] = dict(g.pos)
        self.h: float = g.h
        self.nodes = [_node(*g.pos[c]) for c in g.pos]
        self.names = [r for c in g.pos for r in name_boxes(c, *g.pos[c])]
        self.costs: dict[Pair, Box] = dict(g.edge_label)
        self.on_line = [_grown(r, CLEAR) for r in (*self.nodes, *self.names, *self.costs.values())]
        self.wires = [(pair, (g.pos[pair[0]], g.pos[pair[1]])) for pair in self.costs]
        self._near: dict[tuple[str, Point], list[Box]] = {}
        self._room: dict[tuple[str, Point], float] = {}
        self._tabs: dict[tuple[str, int], list[_Tab]] = {}
        self._wires: dict[tuple[str, float], list[tuple[Pair, Wire]]] = {}

    def line(self, key: str) -> Wire:
        a, b = key.split("|")
        return self.pos[a], self.pos[b]

    def pair(self, key: str) -> Pair | None:
        a, b = key.split("|")
        return next((k for k in ((a, b), (b, a)) if k in self.costs), None)

    def near(self, key: str, half: Point) -> list[Box]:
        """The obstacles a marker `half` its size on the segment might meet."""
        if (key, half) not in self._near:
            self._near[key, half] = _near(self.on_line, *self.line(key), half)
        return self._near[key, half]

    def room(self, key: str, half: Point) -> float:
        """How much of the segment's line (px, summed over `_ACROSS`) a marker's middle may
        take, clear of cities and costs (0: none, its marker is a tab)."""
        if (key, half) not in self._room:
            p, q = self.line(key)
            near = self.near(key, half)
            room = 0.0
            for a, b in _across(p, q):  # the line itself first: most have room there
                room += sum(t1 - t0 for t0, t1 in _stretches(a, b, near, half, self.h))
                if room:
                    break
            self._room[key, half] = room * math.dist(p, q)
        return self._room[key, half]

    def wires_near(self, key: str, by: float) -> list[tuple[Pair, Wire]]:
        """The map's other connections passing within `by` of the segment's box."""
        if (key, by) not in self._wires:
            reach = _grown(_bounds(*self.line(key)), by)
            own = self.pair(key)
            self._wires[key, by] = [
                (pair, w) for pair, w in self.wires if pair != own and segment_hits(*w, reach)
            ]
        return self._wires[key, by]

    def tabs(self, key: str, w: int) -> list[_Tab]:
        """The ways a tab `w` wide may come out from under the segment's cost (`_tab_spots`)."""
        if (key, w) not in self._tabs:
            self._tabs[key, w] = _tab_spots(self, key, w)
        return self._tabs[key, w]


class _Tab(NamedTuple):
    """A way for a tab to come out from under its cost box: by how much the cost moves, the
    order it was tried in, its box, what shows, the cost's box, whether the segment runs
    through what shows, and the map's other connections that run through what shows (7 px
    wide in an 11 px casing once laid: `wide`) and through it as they are drawn (`thin`)."""

    moved: float
    n: int
    box: Box
    shown: Box
    cost_box: Box
    off_line: bool
    wide: tuple[Pair, ...]
    thin: tuple[Pair, ...]


# per map crop: the crop's geometry is the base layer's (engine/powergrid/render/board.py
# keeps a few), so what is worked out here lives as long as it does
_MAPS: weakref.WeakKeyDictionary[Any, _Map] = weakref.WeakKeyDictionary()


def _map(g: Any) -> _Map:
    if g not in _MAPS:
        _MAPS[g] = _Map(g)
    return _MAPS[g]


class _Ground:
    """One picture's markers: the map, the laid segments and their owners, the markers placed
    so far and what they cover."""

    def __init__(self, view: dict[str, Any], g: Any) -> None:
        self.map = mp = _map(g)
        self.laid = [
            (ln["owner"], key)
            for ln in view["lines"]
            for key in ln["segments"]
            for a, b in [key.split("|")]
            if a in g.pos and b in g.pos
        ]
        self.owner = {pair: o for o, key in self.laid if (pair := mp.pair(key)) is not None}
        self.placed: list[Marker] = []
        self.taken: list[Box] = []  # what they cover, grown by `CLEAR`

    def place(self, m: Marker) -> None:
        self.placed.append(m)
        self.taken += [_grown(r, CLEAR) for r in m.area()]

    def restart(self, placed: list[Marker]) -> None:
        self.placed, self.taken = [], []
        for m in placed:
            self.place(m)

    def crossed(self, owner: str, wide: Sequence[Pair], thin: Sequence[Pair]) -> tuple[int, ...]:
        """How many other players' lines and then how many of `owner`'s run through a marker
        (`wide`: the connections through it grown by half a laid line), and how many
        connections nobody laid (`thin`: those through it as drawn)."""
        laid = [self.owner[pair] for pair in wide if pair in self.owner]
        return (
            sum(o != owner for o in laid),
            sum(o == owner for o in laid),
            sum(pair not in self.owner for pair in thin),
        )

    def tabs(self, owner: str, key: str, tag: str) -> list[tuple[tuple[Any, ...], Marker]]:
        """The segment's tabs clear of the markers placed so far, best first, and their
        scores: off other players' lines, the segment running through what shows, off other
        lines, the cost where the layout put it."""
        cost = self.map.pair(key)
        found = []
        for t in self.map.tabs(key, tab_width(tag)):
            m = Marker(owner, key, t.box, t.shown, cost, t.cost_box)
            if self.free(m):
                theirs, his, grey = self.crossed(owner, t.wide, t.thin)
                found.append(((theirs, t.off_line, his, grey, t.moved, t.n), m))
        return sorted(found)

    def free(self, m: Marker, taken: list[Box] | None = None) -> bool:
        """Whether `m` keeps clear of the markers placed so far (or of those in `taken`)."""
        return not any(
            overlap(r, t) for r in m.area() for t in (self.taken if taken is None else taken)
        )


def marker_spots(view: dict[str, Any], g: Any) -> list[Marker]:
    """Each owned segment's marker: on the segment, else a tab of its cost box; clear of every
    city's node and name, every other cost, every other marker and the picture's edges, and
    off the other lines where it can be. The most constrained choose first, so that none
    takes the one spot another had: the segments without room on their line (their tabs; the
    one with the fewest ways left first), then the others by the room they have (those left
    without a spot first on a second try)."""
    tag = badge_tags(view["seat_order"])
    ground = _Ground(view, g)
    roomy, tight = [], []
    for owner, key in ground.laid:
        size = marker_box(0, 0, tag.get(owner, "?"))
        half = ((size[2] - size[0]) / 2 + 1, MARKER_H / 2 + 1)  # and a pixel: rounding
        room = ground.map.room(key, half)
        if room > 0:
            roomy.append((room, key, owner, half))
        else:
            tight.append((key, [m for _s, m in ground.tabs(owner, key, tag.get(owner, "?"))]))
    reach = {key: _extent(tabs) for key, tabs in tight if tabs}
    while tight:
        key, tabs = min(tight, key=lambda j: (not j[1], len(j[1]), j[0]))
        tight = [j for j in tight if j[0] != key]
        if tabs:
            ground.place(tabs[0])
            new = [_grown(r, CLEAR) for r in tabs[0].area()]
            tight = [
                (k, [m for m in ms if ground.free(m, new)])
                if ms and any(overlap(reach[k], r) for r in new)
                else (k, ms)
                for k, ms in tight
            ]
    # the others by the room they have; should some find none left, they go first next time
    settled = list(ground.placed)
    jobs = {j[1]: j[1:] for j in roomy}
    order = [j[1] for j in sorted(roomy, key=lambda j: j[:2])]
    best: list[Marker] = []
    for _attempt in range(3):
        ground.restart(settled)
        missed = [key for key in order if not _place(ground, tag, *jobs[key])]
        if not best or len(ground.placed) > len(best):
            best = ground.placed
        if not missed:
            break
        order = missed + [key for key in order if key not in missed]
    return best


def _place(ground: _Ground, tag: dict[str, str], key: str, owner: str, half: Point) -> bool:
    """Place the segment's marker on its line, else as a tab: whether it found a spot."""
    p, q = ground.map.line(key)
    hard = ground.map.near(key, half) + _near(ground.taken, p, q, half)
    wires = ground.map.wires_near(key, 40)
    found = _marker_spot(
        p,
        q,
        tag.get(owner, "?"),
        half,
        hard,
        lambda box: ground.crossed(
            owner,
            [pair for pair, w in wires if segment_hits(*w, _grown(box, 4))],
            [pair for pair, w in wires if segment_hits(*w, box)],
        ),
        ground.map.h,
    )
    if found is not None and not found[0][0]:
        ground.place(Marker(owner, key, found[1], found[1]))
        return True
    # no room on the line, or only where another player's line runs through the marker: a
    # tab, where one is clear of other players' lines
    tab = next(iter(ground.tabs(owner, key, tag.get(owner, "?"))), None)
    if found is not None and (tab is None or tab[0][0]):
        ground.place(Marker(owner, key, found[1], found[1]))
    elif tab is not None:
        ground.place(tab[1])
    return found is not None or tab is not None


def _extent(markers: list[Marker]) -> Box:
    """The box around what all of `markers` cover."""
    boxes = [r for m in markers for r in m.area()]
    return (
        min(r[0] for r in boxes),
        min(r[1] for r in boxes),
        max(r[2] for r in boxes),
        max(r[3] for r in boxes),
    )


def _bounds(p: Point, q: Point) -> Box:
    return (min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]), max(p[1], q[1]))


def _node(x: float, y: float) -> Box:
    return (x - NODE_W / 2, y - NODE_H / 2, x + NODE_W / 2, y + NODE_H / 2)


def _grown(r: Any, by: float) -> Box:
    return (r[0] - by, r[1] - by, r[2] + by, r[3] + by)


def _near(rects: list[Box], p: Point, q: Point, half: Point) -> list[Box]:
    """The rectangles a marker on the segment p-q (or beside it, `_ACROSS`) might meet."""
    m = max(_ACROSS)
    reach = (
        min(p[0], q[0]) - half[0] - m,
        min(p[1], q[1]) - half[1] - m,
        max(p[0], q[0]) + half[0] + m,
        max(p[1], q[1]) + half[1] + m,
    )
    return [r for r in rects if overlap(reach, r)]


def _across(p: Point, q: Point) -> list[Wire]:
    """The segment p-q moved across itself by each of `_ACROSS`: where a marker's middle may
    run."""
    length = math.dist(p, q) or 1.0
    nx, ny = -(q[1] - p[1]) / length, (q[0] - p[0]) / length
    return [((p[0] + nx * d, p[1] + ny * d), (q[0] + nx * d, q[1] + ny * d)) for d in _ACROSS]


def _stretches(
    p: Point, q: Point, hard: list[Box], half: Point, height: float
) -> list[tuple[float, float]]:
    """The parts (t0, t1) of the segment p-q where a marker's middle may go: all of it less
    where the marker would meet an obstacle (each grown by half the marker and clipped to the
    segment: Liang-Barsky, not sampled) or leave the picture."""
    hw, hh = half
    inside = segment_span(p, q, (hw, hh, WIDTH - hw, height - hh))
    if inside is None:
        return []
    blocked = sorted(
        span
        for r in hard
        if (span := segment_span(p, q, (r[0] - hw, r[1] - hh, r[2] + hw, r[3] + hh)))
    )
    out, t = [], inside[0]
    for t0, t1 in blocked:
        if t0 > t:
            out.append((t, min(t0, inside[1])))
        t = max(t, t1)
    if t < inside[1]:
        out.append((t, inside[1]))
    return [(t0, t1) for t0, t1 in out if t1 > t0]


def _marker_spot(
    p: Point,
    q: Point,
    tag: str,
    half: Point,
    hard: list[Box],
    crossed: Callable[[Box], tuple[int, ...]],
    height: float,
) -> tuple[tuple[int, ...], Box] | None:
    """Where the segment p-q's marker goes on its line, and what runs through it there
    (`crossed`: other players' lines, the owner's other lines, other connections; one through
    it would read as theirs): its middle on the segment or a few pixels across it
    (`_ACROSS`), in the middle of the longest stretch clear of `hard`, else as near it as
    keeps it off those lines, in that order; None where no stretch is clear."""
    step = _STEP / (math.dist(p, q) or 1.0)
    best: tuple[tuple[int, ...], Box] | None = None
    for a, b in _across(p, q):
        for t0, t1 in sorted(_stretches(a, b, hard, half, height), key=lambda s: s[0] - s[1]):
            mid, k = (t0 + t1) / 2, 0
            while mid - k * step >= t0:  # from the middle outward
                for u in (mid - k * step, mid + k * step) if k else (mid,):
                    box = marker_box(a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u, tag)
                    score = crossed(box)
                    if not any(score):
                        return score, box
                    if best is None or score < best[0]:
                        best = (score, box)
                k += 1
    return best


def _tab_spots(mp: _Map, key: str, w: int) -> list[_Tab]:
    """Each way a tab `w` wide of the segment's marker may come out from under its own cost
    box, the tab and the cost clear of every city's node and name, every other cost and the
    picture's edges.

    Right or left of the cost, as tall as the cost, the cost moved along its row by up to the
    tab's width less its round end (the tab and the moved cost then cover where the cost was),
    else as tall as a marker, at the cost's middle or either end; below or above the cost, at
    its middle or either end."""
    cost = mp.pair(key)
    if cost is None:
        return []
    p, q = mp.line(key)
    x0, y0, x1, y1 = here = mp.costs[cost]
    h = MARKER_H
    spots: list[tuple[float, Box, Box, Box]] = []  # (cost moved by, box, shown, cost box)
    for d in range(0, w - round(y1 - y0) // 2 + 1, 2):
        c0, c1 = x0 - d, x1 - d  # the cost moved left, the tab on its right
        spots.append((d, (c1 - _TUCK, y0, c1 + w, y1), (c1, y0, c1 + w, y1), (c0, y0, c1, y1)))
        c0, c1 = x0 + d, x1 + d
        spots.append((d, (c0 - w, y0, c0 + _TUCK, y1), (c0 - w, y0, c0, y1), (c0, y0, c1, y1)))
    for top in (round((y0 + y1 - h) / 2), y0, y1 - h):  # a marker's height, where the cost is
        spots.append((0, (x1 - _TUCK, top, x1 + w, top + h), (x1, top, x1 + w, top + h), here))
        spots.append((0, (x0 - w, top, x0 + _TUCK, top + h), (x0 - w, top, x0, top + h), here))
    wide = max(MARKER_H, w)
    ends = (x0, x1 - wide) if x1 - x0 >= wide else ()
    middle = round((x0 + x1 - wide) / 2)
    for x in sorted({middle, *ends}, key=lambda x: abs(x - middle)):
        spots.append((0, (x, y1 - _TUCK, x + wide, y1 + h), (x, y1, x + wide, y1 + h), here))
        spots.append((0, (x, y0 - h, x + wide, y0 + _TUCK), (x, y0 - h, x + wide, y0), here))
    reach = _grown(here, 2 * wide)
    hard = [
        *(_grown(r, _TAB_NODE_CLEAR) for r in mp.nodes if overlap(reach, r)),
        *(r for r in mp.names if overlap(reach, r)),
        *(_grown(r, CLEAR) for k, r in mp.costs.items() if k != cost and overlap(reach, r)),
    ]
    # what the cost's own box already touches (the layout's costs stand close to names) does
    # not stop it moving
    near_cost = [r for r in hard if not overlap(r, here)]
    on_line = segment_hits(p, q, here)
    wires = mp.wires_near(key, 2 * wide)
    out = []
    for n, (moved, box, shown, cost_box) in enumerate(spots):
        area = (
            min(shown[0], cost_box[0]),
            min(shown[1], cost_box[1]),
            max(shown[2], cost_box[2]),
            max(shown[3], cost_box[3]),
        )
        if area[0] < 0 or area[1] < 0 or area[2] > WIDTH or area[3] > mp.h:
            continue
        if any(overlap(shown, r) for r in hard) or any(overlap(cost_box, r) for r in near_cost):
            continue
        if on_line and not segment_hits(p, q, cost_box):
            continue  # a cost on its line stays on it
        off_line = not segment_hits(p, q, _grown(shown, -3))
        through = tuple(pair for pair, w in wires if segment_hits(*w, _grown(shown, 4)))
        thin = tuple(pair for pair, w in wires if pair in through and segment_hits(*w, shown))
        out.append(_Tab(moved, n, box, shown, cost_box, off_line, through, thin))
    return out
