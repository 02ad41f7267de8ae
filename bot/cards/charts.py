"""Line charts per player per round (money, cities / pieces / VP ...), one panel per figure."""

from __future__ import annotations

import io
import math

from PIL import Image, ImageDraw

from bot.cards.draw import BG, GRID, INK, MUTED, RGB, colour, fit, font, text_width
from bot.cards.series import Figures
from engine.core.protocol import Translator

WIDTH = 720
PANEL = 300
LEFT, RIGHT, TOP, BOTTOM = 64, 120, 48, 40


def _ticks(top: int) -> list[int]:
    """About five round steps from 0 to at least `top`."""
    if top <= 0:
        return [0, 1]
    raw = top / 5
    mag = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    step = next(s * mag for s in (1, 2, 5, 10) if s * mag >= raw)
    step = max(1, int(step))
    return list(range(0, top + step, step))


def end_label(d: ImageDraw.ImageDraw, player: str, value: int, width: int) -> tuple[str, str]:
    """A line's end label in two parts: the name with a colon (regular weight, shortened to
    fit) and the value (bold), never cut. "Bot 1" and 4 read "Bot 14" run together, the
    name of another player (found reviewing pictures)."""
    number = f" {value}"
    f = font(15, False, player)
    room = width - text_width(d, number, font(15, True)) - text_width(d, ":", f)
    return fit(d, player, f, room) + ":", number


def line_charts(
    figures: Figures,
    players: list[str],
    t: Translator,
    period_label: str,
    colours: dict[str, RGB] | None = None,
) -> bytes:
    """One PNG: a panel per figure (in `figures.labels` order) with a line per player in his
    colour on the board (`colours`), the round on the x axis and the final value written at
    the end of each line."""
    keys = [k for k in figures.labels if k in figures.values]
    height = PANEL * len(keys) + 56
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    periods = figures.periods
    x0, x1 = LEFT, WIDTH - RIGHT
    span = max(1, len(periods) - 1)
    for k, key in enumerate(keys):
        top = k * PANEL
        label = t.gettext(figures.labels[key])
        d.text((LEFT, top + 14), label, font=font(22, True, label), fill=INK)
        values = figures.values[key]
        ticks = _ticks(max((max(v) for v in values.values() if v), default=1))
        y0, y1 = top + PANEL - BOTTOM, top + TOP
        scale = (y0 - y1) / max(1, ticks[-1])
        for tick in ticks:
            y = y0 - tick * scale
            d.line((x0, y, x1, y), fill=GRID, width=1)
            d.text((x0 - 8, y), str(tick), font=font(14), fill=MUTED, anchor="rm")
        every = max(1, math.ceil(len(periods) / 12))
        for i, p in enumerate(periods):
            if i % every == 0 or i == len(periods) - 1:
                x = x0 + (x1 - x0) * i / span
                d.text((x, y0 + 8), str(p), font=font(14), fill=MUTED, anchor="mt")
        ends: list[tuple[float, str, int, RGB]] = []
        for player in players:
            series = values.get(player)
            if not series:
                continue
            c = colour(player, players, colours or {})
            points = [(x0 + (x1 - x0) * i / span, y0 - v * scale) for i, v in enumerate(series)]
            if len(points) > 1:
                d.line(points, fill=c, width=4, joint="curve")
            for x, y in points:
                d.ellipse((x - 3, y - 3, x + 3, y + 3), fill=c)
            ends.append((points[-1][1], player, series[-1], c))
        # end labels, nudged apart so they never overlap
        ends.sort()
        last = -1e9
        for y, player, value, c in ends:
            y = max(y, last + 18)
            last = y
            name, number = end_label(d, player, value, RIGHT - 12)
            d.text((x1 + 8, y), name, font=font(15, False, name), fill=c, anchor="lm")
            x = x1 + 8 + text_width(d, name, font(15, False, name))
            d.text((x, y), number, font=font(15, True), fill=c, anchor="lm")
    caption = period_label
    d.text(
        (WIDTH // 2, height - 18), caption, font=font(16, False, caption), fill=MUTED, anchor="mm"
    )
    out = io.BytesIO()
    img.save(out, "PNG", optimize=True)
    return out.getvalue()
