"""Shared drawing helpers for the cards: fonts (DejaVu from assets/, a CJK font when the text
needs one and the system has it), player colours, text sizes."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from PIL import ImageDraw, ImageFont

BG = (250, 248, 243)
INK = (34, 34, 38)
MUTED = (110, 110, 120)
GRID = (222, 220, 214)
GOLD = (255, 236, 179)
# distinct on white and for the common colour blindnesses (Okabe-Ito order)
PLAYER_COLOURS = (
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (230, 159, 0),
    (86, 180, 233),
)
_CJK_FONTS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
)

Font = ImageFont.FreeTypeFont


@cache
def _dejavu(size: int, bold: bool) -> Font:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    data = resources.files("assets").joinpath("fonts", name).read_bytes()
    import io

    return ImageFont.truetype(io.BytesIO(data), size)


@cache
def _cjk(size: int) -> Font | None:
    for path in _CJK_FONTS:
        if Path(path).exists():
            return ImageFont.truetype(path, size)
    return None


def font(size: int, bold: bool = False, text: str = "") -> Font:
    """DejaVu, or a CJK font for text DejaVu cannot draw (when one is installed)."""
    if any(ord(c) >= 0x2E80 for c in text):
        cjk = _cjk(size)
        if cjk is not None:
            return cjk
    return _dejavu(size, bold)


def colour(index: int) -> tuple[int, int, int]:
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)]


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
