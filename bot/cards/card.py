"""The game-over card: the ranking with the figures that decided it (PNG, phone-sized)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from bot.cards.draw import BG, GOLD, GRID, INK, MUTED, RGB, colour, fit, font
from engine.core.protocol import Ranking, Translator

WIDTH = 720
ROW = 58
TOP = 120


def game_over_card(
    title: str,
    subtitle: str,
    ranking: Ranking,
    figures: list[tuple[str, dict[str, int]]],
    players: list[str],
    t: Translator,
    colours: dict[str, RGB] | None = None,
) -> bytes:
    """Place, colour, name and the deciding figures (labels are msgids, translated with t)
    for every player; the winners' rows on gold. Each player is drawn in his colour on the
    board (`colours`, the game's `player_colours`), else by his place in `players`."""
    rows = [(place, name) for place, group in _places(ranking) for name in group]
    height = TOP + ROW * len(rows) + 40
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    size = 34
    while size > 18 and d.textbbox((0, 0), title, font=font(size, True, title))[2] > WIDTH - 48:
        size -= 2  # a long game name: a smaller title rather than a cut one
    d.text(
        (32, 24),
        fit(d, title, font(size, True, title), WIDTH - 48),
        font=font(size, True, title),
        fill=INK,
    )
    d.text((32, 72), subtitle, font=font(20, False, subtitle), fill=MUTED)
    labels = [t.gettext(label) for label, _ in figures]
    col_w = 140
    first_col = WIDTH - 24 - col_w * len(labels)
    for i, label in enumerate(labels):
        f = font(14, True, label)
        text = fit(d, label, f, col_w - 8)
        d.text((first_col + col_w * i + col_w - 8, TOP - 12), text, font=f, fill=MUTED, anchor="rs")
    for r, (place, name) in enumerate(rows):
        y = TOP + r * ROW
        if place == 1:
            d.rounded_rectangle((16, y + 4, WIDTH - 16, y + ROW - 4), radius=12, fill=GOLD)
        d.line((24, y + ROW, WIDTH - 24, y + ROW), fill=GRID, width=1)
        mid = y + ROW // 2
        d.text((52, mid), f"{place}.", font=font(26, True), fill=INK, anchor="rm")
        c = colour(name, players, colours or {})
        d.ellipse((66, mid - 11, 88, mid + 11), fill=c)
        f = font(26, place == 1, name)
        d.text((100, mid), fit(d, name, f, first_col - 110), font=f, fill=INK, anchor="lm")
        for i, (_label, values) in enumerate(figures):
            value = str(values.get(name, ""))
            x = first_col + col_w * i + col_w - 8
            d.text((x, mid), value, font=font(26, i == 0), fill=INK, anchor="rm")
    out = io.BytesIO()
    img.save(out, "PNG", optimize=True)
    return out.getvalue()


def _places(ranking: Ranking) -> list[tuple[int, list[str]]]:
    out = []
    before = 0
    for group in ranking:
        out.append((before + 1, list(group)))
        before += len(group)
    return out
