"""Power Grid pictures for phones: a view dict (VIEW.md) -> PNG pictures. Pillow lives here.

`render_set` returns the pictures sent together: the map (the regions in play only, zoomed to
720 px wide; a map taller than twice its width comes in two parts) and the panel (who must act
and what is asked, the players, plants and resources). `render` returns them as one PNG, one
under the other, for callers that want a single picture. Every word goes through the
translator `t`; marks in the change colour show what changed since `previous` (new houses,
bought plants) and the first picture's caption says it in words.

Speed: city positions and cost spots are computed offline (layout.py); the map of a set of
regions in play is drawn once into a cached base layer; pictures are mapped onto a fixed
per-map palette and written at zlib level 3. The same view gives the same bytes.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from PIL import Image

from engine.core.picture import (
    CHANGE,
    HILITE,
    INK,
    MAX_HEIGHT,
    MUTED,
    PANEL,
    PAPER,
    RULE,
    WHITE,
    WIDTH,
    Picture,
    Sheet,
    Words,
    finish,
    mix,
    new_sheet,
    palette,
    stacked,
)
from engine.core.protocol import Translator
from engine.powergrid.render import words as W
from engine.powergrid.render.board import (
    _BASE,
    CLOSED,
    EDGE,
    base_layer,
    draw_houses,
    hex_rgb,
    rim_of,
    slot_boxes,
    tiles,
    tint_of,
)
from engine.powergrid.render.layout import (
    _GEOMETRY,
    Geometry,
    compute_layout,
    layout_path,
    layout_text,
    map_and_geometry,
    register_map,
    write_layouts,
)
from engine.powergrid.render.panel import (
    PLAYER_HEX,
    RESOURCE_COLORS,
    RESOURCES,
    TYPE_COLORS,
    Panel,
    player_colours,
)

__all__ = [
    "RESOURCES",
    "RESOURCE_COLORS",
    "WIDTH",
    "Geometry",
    "Picture",
    "compute_layout",
    "layout_path",
    "layout_text",
    "map_and_geometry",
    "player_colours",
    "render",
    "render_set",
    "slot_boxes",
    "write_layouts",
]
PLAYER_COLORS = PLAYER_HEX
PAD = 24


def _map_and_geometry(map_id: str) -> tuple[dict[str, Any], Geometry]:
    """The map and its whole layout (kept for older callers)."""
    return map_and_geometry(map_id)


def clear_caches() -> None:
    _BASE.clear()
    _GEOMETRY.clear()


def regions_of(view: dict[str, Any], mp: dict[str, Any]) -> tuple[str, ...]:
    """The regions in play; all of them while they are being chosen."""
    known = {r["id"] for r in mp["regions"]}
    chosen = [r for r in view.get("regions_in_play") or [] if r in known]
    if view.get("phase") == "regions" or not chosen:
        return tuple(sorted(known))
    return tuple(sorted(chosen))


def changes(
    view: dict[str, Any], previous: dict[str, Any] | None
) -> tuple[set[tuple[str, str]], set[tuple[str, int]]]:
    """(city, player) of every house and (player, plant) of every plant new since `previous`."""
    if previous is None:
        return set(), set()
    old_cities = previous.get("cities") or {}
    houses = {
        (city, p)
        for city, owners in (view.get("cities") or {}).items()
        for p in owners
        if p not in (old_cities.get(city) or [])
    }
    old_players = previous.get("players") or {}
    plants = set()
    for p, info in (view.get("players") or {}).items():
        before = {c.get("number") for c in (old_players.get(p) or {}).get("plants", [])}
        plants |= {
            (p, int(c["number"])) for c in info.get("plants", []) if c["number"] not in before
        }
    return houses, plants


def change_words(
    w: Words, view: dict[str, Any], houses: set[tuple[str, str]], plants: set[tuple[str, int]]
) -> list[str]:
    out = []
    for p in view.get("seat_order") or sorted(view.get("players", {})):
        for number in sorted(n for q, n in plants if q == p):
            out.append(w(W.BOUGHT_PLANT, player=p, plant=number))
        built = sorted(c for c, q in houses if q == p)
        if built:
            out.append(w(W.BUILT, player=p, cities=w.list(built)))
    return out


@cache
def map_palette(map_key: str) -> Image.Image:
    """The map's PNG palette (players, regions, resources, cards): shared with the variant."""
    mp, _g = map_and_geometry(map_key)
    regions = [hex_rgb(r["color"]) for r in mp["regions"]]
    tints = [tint_of(c) for c in regions]
    players = [hex_rgb(c) for c in PLAYER_HEX]
    cards = [mix(c, WHITE, 0.82) for c in TYPE_COLORS.values()]
    flat = [
        PAPER,
        PANEL,
        INK,
        MUTED,
        RULE,
        EDGE,
        CLOSED,
        HILITE,
        CHANGE,
        WHITE,
        (250, 250, 250),
        (244, 243, 239),
        (170, 170, 170),
        (160, 160, 160),
        (140, 140, 140),
        (120, 120, 120),
        (170, 40, 20),
        *RESOURCE_COLORS.values(),
        *TYPE_COLORS.values(),
        *players,
        *regions,
        *tints,
        *(rim_of(t) for t in tints),
        *cards,
    ]
    backgrounds = [WHITE, PAPER, HILITE, (244, 243, 239), *tints[:6], *cards[:4]]
    return palette(flat, backgrounds, [INK, MUTED, *players[:2]])


def _sheets(
    view: dict[str, Any],
    viewer: str | None,
    t: Translator | None,
    previous: dict[str, Any] | None,
    map_data: dict[str, Any] | None,
) -> tuple[list[Sheet], str]:
    w = Words(t)
    map_key = register_map(map_data) if map_data is not None else view["map"]
    mp, _whole = map_and_geometry(map_key)
    regions = regions_of(view, mp)
    houses, plants = changes(view, previous)
    panel = Panel(view, viewer, w, plants)
    lang_key = "|".join(W.region_name(w, r) for r in mp["regions"])
    base = base_layer(map_key, regions, w, lang_key)
    cap = W.caption(w, view, previous, change_words(w, view, houses, plants))

    whole = new_sheet(WIDTH, base.img.height, PAPER)
    whole.img.paste(base.img, (0, 0))
    whole.pen.labels.extend(base.labels)
    draw_houses(whole.pen, view, base.g, panel.color, panel.tag, houses)
    parts = tiles(base.img.height)
    sheets: list[Sheet] = []
    if len(parts) == 1:
        whole.caption = cap
        sheets.append(whole)
    else:
        for i, (top, bottom) in enumerate(parts):
            s = new_sheet(WIDTH, bottom - top, PAPER)
            s.img.paste(whole.img.crop((0, top, WIDTH, bottom)), (0, 0))
            s.pen.labels.extend(whole.pen.labels)  # every label of the map, for the record
            part = w(W.MAP_PART, i=i + 1, n=len(parts))
            s.caption = f"{cap} ({part})" if i == 0 else part
            sheets.append(s)

    blocks = ["header", "rule", "players", "rule", "plant_market", "rule", "resource_market"]
    width = WIDTH - 2 * PAD
    y = PAD / 2
    for b in blocks:
        y += getattr(panel, b)(None, PAD, y, width)
    sheet = new_sheet(WIDTH, min(MAX_HEIGHT, round(y + PAD / 2)), PANEL, w(W.PANEL_CAPTION))
    y = PAD / 2
    for b in blocks:
        y += getattr(panel, b)(sheet.pen, PAD, y, width)
    sheets.append(sheet)
    return sheets, map_key


def render_set(
    view: dict[str, Any],
    viewer: str | None,
    *,
    t: Translator | None = None,
    previous: dict[str, Any] | None = None,
    map_data: dict[str, Any] | None = None,
) -> list[Picture]:
    """The pictures sent together (map part(s), then the panel), each with its caption.

    `view` is GAME.view(...) (VIEW.md); `previous` the view of the previous picture, whose
    differences are marked; `t` a translator; `map_data` overrides the map file (tests)."""
    sheets, map_key = _sheets(view, viewer, t, previous, map_data)
    return finish(sheets, map_palette(map_key))


def render(
    view: dict[str, Any],
    viewer: str | None,
    *,
    t: Translator | None = None,
    previous: dict[str, Any] | None = None,
    map_data: dict[str, Any] | None = None,
) -> bytes:
    """The same pictures as one PNG, one under the other."""
    sheets, map_key = _sheets(view, viewer, t, previous, map_data)
    return stacked(sheets, map_palette(map_key))


def map_key_of(map_data: dict[str, Any]) -> str:
    return "\0" + json.dumps(map_data, sort_keys=True, ensure_ascii=False)


def map_geometry(view: dict[str, Any], map_data: dict[str, Any] | None = None) -> Geometry:
    """Where the map picture (its first part, at the top) draws each city in play: tests and
    callers that point at a city use this."""
    map_key = register_map(map_data) if map_data is not None else view["map"]
    mp, whole = map_and_geometry(map_key)
    return whole.cropped(regions_of(view, mp))
