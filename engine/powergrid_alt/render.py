"""The variant's board picture (PNG), the only module here that imports Pillow.

The map itself (regions, connections, costs, names) is the base game's cached drawing
(engine/powergrid/render.py); on it we draw owned lines in player colours (hanging ones
dashed, with a cross at the hanging end), plants in cities with their numbers, TPs in the
three slots of a city, and below the map a panel: each region's pollution against its
limit, the players' money, built plants, hands and TPs, the plant market; under it the
resource market (the base game's block: prices, tokens, supply) beside the last events,
worded as the chat words them (commands.describe_event).
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from engine.core.protocol import EnglishTranslator
from engine.powergrid import render as base
from engine.powergrid_alt.graph import alt_map

PANEL_LINE = 22
LOG_LINES = 8  # the last events shown
LOG_LINE = 21
PAD = 12


def _color(view: dict[str, Any], player: str) -> tuple[int, int, int]:
    seats = view["seat_order"]
    return base._hex(base.PLAYER_COLORS[seats.index(player) % len(base.PLAYER_COLORS)])


def _dashed(
    d: ImageDraw.ImageDraw,
    a: tuple[float, float],
    b: tuple[float, float],
    color: tuple[int, int, int],
    width: int,
) -> None:
    (ax, ay), (bx, by) = a, b
    steps = max(1, int(((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 // 12))
    for i in range(0, steps, 2):
        t0, t1 = i / steps, min(1.0, (i + 1) / steps)
        d.line(
            (ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1),
            fill=color,
            width=width,
        )


def _draw_lines(d: ImageDraw.ImageDraw, view: dict[str, Any], g: Any) -> None:
    am = alt_map(view["map"])
    for line in view["lines"]:
        color = _color(view, line["owner"])
        hanging = bool(line["hanging_at"])
        for key in line["segments"]:
            a, b = key.split("|")
            pa, pb = g.pos[a], g.pos[b]
            if hanging:
                _dashed(d, pa, pb, color, 7)
            else:
                d.line((*pa, *pb), fill=(255, 255, 255), width=11)
                d.line((*pa, *pb), fill=color, width=7)
        for node in line["hanging_at"]:
            x, y = g.pos[am.members[node][0]]
            d.line((x - 9, y - 9, x + 9, y + 9), fill=color, width=4)
            d.line((x - 9, y + 9, x + 9, y - 9), fill=color, width=4)


def _draw_cities(d: ImageDraw.ImageDraw, view: dict[str, Any], g: Any) -> None:
    am = alt_map(view["map"])
    font = base._font(15, True)
    for node, plants in view["plants_in_cities"].items():
        for i, number in enumerate(plants):
            city = am.members[node][min(i, len(am.members[node]) - 1)]
            x, y = g.pos[city]
            owner = view["plant_owner"][str(number)]
            color = _color(view, owner)
            box = (
                x - base.NODE_W / 2,
                y - base.NODE_H / 2,
                x + base.NODE_W / 2,
                y + base.NODE_H / 2,
            )
            d.rounded_rectangle(box, radius=6, fill=color, outline=base._INK, width=2)
            text = f"⚡{number}"
            d.text((x, y), text, fill=base._text_on(color), font=font, anchor="mm")
    for node, owners in view["tps"].items():
        x, y = g.pos[am.members[node][0]]
        for (x0, y0, x1, y1), owner in zip(base._slot_boxes(x, y), owners, strict=False):
            d.rectangle((x0, y0, x1, y1), fill=_color(view, owner), outline=base._INK, width=2)
            d.text(
                ((x0 + x1) / 2, (y0 + y1) / 2),
                "TP",
                fill=(255, 255, 255),
                font=base._font(10, True),
                anchor="mm",
            )


def _panel_lines(view: dict[str, Any]) -> list[tuple[str, tuple[int, int, int]]]:
    am = alt_map(view["map"])
    out: list[tuple[str, tuple[int, int, int]]] = []
    phase = view["phase"]
    head = f"Power Grid (alternative rules) · round {view['round']} · Step {view['step']} · {phase}"
    if view.get("final_round"):
        head += " · final Phase 5"
    out.append((head, base._INK))
    pol = "   ".join(
        f"{reg}: pollution {p['level']}/{p['limit']}" + (" ☢" if p["nuclear"] else "")
        for reg, p in view["pollution"].items()
    )
    out.append((pol, base._INK))
    out.append((f"Uncovered cities: {len(view['uncovered'])}", base._MUTED))
    for name in view["seat_order"]:
        p = view["players"][name]
        built = ", ".join(f"{b['number']}@{am.label(b['city'])}" for b in p["built"]) or "-"
        hand = ", ".join(str(h["number"]) for h in p["hand"]) or "-"
        money = "?" if p["money"] is None else f"{p['money']} E"
        out.append(
            (
                f"{name}: {money} · plants {built} · hand {hand} · TPs {len(p['tps'])}"
                + ("" if p["powered"] is None else f" · powered {p['powered']}"),
                _color(view, name),
            )
        )
    market = " ".join(str(c["number"]) for c in view["plant_market"]["current"])
    future = " ".join(str(c["number"]) for c in view["plant_market"]["future"])
    out.append((f"Plant market: {market}  |  {future}", base._INK))
    if view["ranking"]:
        out.append(("Ranking: " + " > ".join(", ".join(g) for g in view["ranking"]), base._INK))
    return out


def log_lines(view: dict[str, Any], t: Any = None) -> list[str]:
    """The last events as chat texts (quiet phase markers left out)."""
    from engine.powergrid_alt import commands

    tr = t or EnglishTranslator()
    state = {"map": view["map"]}  # all describe_event reads from the state
    texts = [
        commands.describe_event(state, e, tr)
        for e in view.get("log") or []
        if e.get("type") not in base._QUIET_EVENTS
    ]
    return [x for x in texts if x][-LOG_LINES:]


def _log(d: ImageDraw.ImageDraw, x: float, y: float, width: float, texts: list[str]) -> None:
    d.text((x, y), "Last events", font=base._font(18, True), fill=base._INK)
    font = base._font(15)
    for i, text in enumerate(texts):
        d.text(
            (x, y + 28 + i * LOG_LINE),
            base._fit("· " + text, font, width),
            font=font,
            fill=base._INK,
        )


def render(view: dict[str, Any], viewer: str | None, *, t: Any = None) -> bytes:
    """The board as a PNG from GAME.view(...)."""
    _mp, g = base._map_and_geometry(view["map"])
    regions = tuple(sorted(view.get("regions_in_play") or []))
    layer = base._base_layer(view["map"], regions)
    lines = _panel_lines(view)
    width = max(g.w, 1000)
    table = base._Table(view, viewer, base._Words(t))
    col_w = (width - 3 * PAD) / 2
    market_h = table.resource_market(None, 0, 0, col_w)
    events = log_lines(view, t)
    log_h = 28 + LOG_LINE * len(events)
    top = g.h + 16 + PANEL_LINE * len(lines)
    height = top + max(market_h, log_h) + PAD
    img = Image.new("RGB", (width, height), base._PANEL)
    img.paste(layer, (0, 0))
    d = ImageDraw.Draw(img)
    _draw_lines(d, view, g)
    _draw_cities(d, view, g)
    font = base._font(15)
    y = g.h + 8
    for text, color in lines:
        d.text((12, y), base._fit(text, font, width - 24), fill=color, font=font)
        y += PANEL_LINE
    d.line((0, top - 4, width, top - 4), fill=base._RULE, width=2)
    table.resource_market(d, PAD, top, col_w)
    _log(d, 2 * PAD + col_w, top, col_w, events)
    out = io.BytesIO()
    pal = img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    pal.save(out, format="PNG", compress_level=6)
    return out.getvalue()
