"""Shared drawing helpers for the cards: fonts (the bundled DejaVu and Noto Sans TC subset, as
the board pictures use), player colours, text sizes."""

from __future__ import annotations

from PIL import ImageDraw, ImageFont

from engine.core import picture

BG = (250, 248, 243)
INK = (34, 34, 38)
MUTED = (110, 110, 120)
GRID = (222, 220, 214)
GOLD = (255, 236, 179)
RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont


def font(size: int, bold: bool = False, text: str = "") -> Font:
    """DejaVu, or the bundled Noto Sans TC subset for text with CJK characters (the same fonts
    as the board pictures, so a card draws Chinese on any machine)."""
    return picture.font(size, bold, picture.needs_cjk(text))


def colour(player: str, players: list[str], colours: dict[str, RGB]) -> RGB:
    """The player's colour on the board (the game's `player_colours`), else the shared
    palette's (engine/core/picture.py) by his place in `players`: one player, one colour on
    the board, the card and the charts (found reviewing pictures: IEC's Bot 3 was red on the
    board and green on the card)."""
    found = colours.get(player)
    if found is not None:
        return found
    index = players.index(player) if player in players else len(players)
    return picture.PLAYER_COLORS[index % len(picture.PLAYER_COLORS)]


def text_width(draw: ImageDraw.ImageDraw, text: str, f: Font) -> int:
    left, _, right, _ = draw.textbbox((0, 0), text, font=f)
    return int(right - left)


def fit(draw: ImageDraw.ImageDraw, text: str, f: Font, width: int) -> str:
    """The text, shortened with an ellipsis to fit `width` pixels."""
    if text_width(draw, text, f) <= width:
        return text
    while text and text_width(draw, text + "…", f) > width:
        text = text[:-1]
    return text + "…"
