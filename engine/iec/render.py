"""IEC pictures for phones: view -> palette PNGs. The only module of the game importing Pillow;
it lays out the set and encodes it: the map is drawn by render_map.py, the panel and its legend
by render_panel.py, the marks both draw (buildings, sites, tokens) by render_marks.py.

One picture when it fits (the map on top, the panel under it), else the map and the panel apart.
The map: terrain and areas (each deposit area's name drawn on its block), column letters and row
numbers (how cells are typed), each building as the letter of its kind (hollow when not powered
this turn) with its modules as a bar (white for missing ones), sites, seismic cells, and tokens
(a face-down token of another player is an empty ring: hidden; the viewer's own show real or
bluff). A company's buildings, sites and tokens are drawn in its colour and its seat's shape
(square, round, pointed, slanted; the panel's swatch beside its name shows it), so that no owner
is told by colour alone. A cell holds one token per company at most (IEC-20), so up to four,
each drawn apart in seat order: a lone one big in a free cell's middle, more side by side along
its top edge, then a second row; on a building's cell smaller and white-edged, down the cell's
right edge from over its top corner, off the building's letter (drawn over them) and above its
module bar. The panel: turn, phase and radiation, whose move it is (highlighted), every player
in turn order with points, science, technologies (hidden ones counted, never named) and each
storage's contents (public, IEC-S-26), what each found deposit yields, and a legend of every
terrain kind and mark drawn. Buildings new or grown by a module, new sites, and tokens laid,
moved or turned up since the previous picture are marked in the change colour; the caption says
it. A fixed palette keeps encoding cheap. Every word goes through the translator.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from PIL import Image

from engine.core.picture import (
    CHANGE,
    HILITE,
    INK,
    MAX_HEIGHT,
    MUTED,
    RGB,
    RULE,
    WHITE,
    WIDTH,
    Drawing,
    Sheet,
    Words,
    new_sheet,
    palette,
)
from engine.core.protocol import Translator
from engine.iec.picture_story import caption, changes
from engine.iec.render_map import TAG, Map, draw_map
from engine.iec.render_marks import (
    AREA_RGB,
    GRID,
    PAPER,
    SEAT_RGB,
    SEISMIC,
    TERRAIN_RGB,
    UNPOWERED,
    seat_rgb,
)
from engine.iec.render_panel import PANEL_CAPTION, Legend, Panel


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


def player_colours(view: dict[str, Any]) -> dict[str, RGB]:
    """Each company's colour by its seat (P1..P4), the end-of-game card's too."""
    return {p: seat_rgb(view, p) for p in view["players"]}


def _sheets(
    view: dict[str, Any], viewer: str | None, t: Translator | None, previous: dict[str, Any] | None
) -> list[Sheet]:
    w = Words(t)
    m = Map(view)
    ch = changes(view, previous)
    cap = caption(w, view, ch.told)
    panel = Panel(view, viewer, w, Legend(view, viewer, m, w, ch))
    pad = 24
    panel_h = round(panel.draw(None, pad, 10, WIDTH - 2 * pad) + 16)
    if m.height + panel_h <= MAX_HEIGHT:
        sheet = new_sheet(WIDTH, m.height + panel_h, PAPER, cap)
        draw_map(sheet.pen, view, viewer, m, w, ch)
        sheet.pen.d.rectangle((0, m.height, WIDTH, m.height + panel_h), fill=WHITE)
        sheet.pen.d.line((0, m.height, WIDTH, m.height), fill=RULE, width=2)
        panel.draw(sheet.pen, pad, m.height + 10, WIDTH - 2 * pad)
        return [sheet]
    top = new_sheet(WIDTH, m.height, PAPER, cap)
    draw_map(top.pen, view, viewer, m, w, ch)
    bottom = new_sheet(WIDTH, min(MAX_HEIGHT, panel_h), WHITE, w(PANEL_CAPTION))
    panel.draw(bottom.pen, pad, 10, WIDTH - 2 * pad)
    return [top, bottom]


_DRAWING = Drawing(_sheets, _palette)
render_set = _DRAWING.render_set
render = _DRAWING.render
