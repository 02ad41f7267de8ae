"""Shared picture helpers for the games' render modules (the only other place Pillow is used).

- `Picture`: one PNG of a set sent together (map, panel), with its caption in words, the labels
  drawn on it and the smallest font drawn per label class (what the legibility tests read).
- `Pen`: draws text on an image and keeps that bookkeeping; picks the font per text (DejaVu for
  Latin and Cyrillic, a Noto Sans CJK TC subset for Chinese).
- `Words`: a translator wrapper for picture labels (msgid = the English text, `N_`-marked).
- Fixed palettes and the PNG encoder: mapping onto a fixed palette is several times cheaper than
  finding one, and the same picture gives the same bytes.

Legibility rule of thumb (issue 19): when a picture is shown 720 px wide, names are at least
2.8 % of its width and small numbers and other text at least 2.2 %. `MIN_SHARE` holds that per
label class; `Pen` records the smallest size drawn per class so tests can hold pictures to it.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine.core.protocol import EnglishTranslator, Translator
from engine.core.sentences import join_list

RGB = tuple[int, int, int]

WIDTH = 720  # every picture is this wide: legible as sent, on a phone held upright
MAX_HEIGHT = 2 * WIDTH
# label class -> smallest font size as a share of the picture's width
MIN_SHARE = {"name": 0.028, "number": 0.022, "text": 0.022}
NAME = round(MIN_SHARE["name"] * WIDTH + 0.5)  # 21 px at 720
NUMBER = round(MIN_SHARE["number"] * WIDTH + 0.5)  # 16 px at 720
TITLE = 26
PNG_LEVEL = 1  # zlib level: 3 takes a third longer for ~10% less, 6 twice as long

INK: RGB = (28, 28, 30)
MUTED: RGB = (96, 96, 102)
PAPER: RGB = (247, 245, 239)
PANEL: RGB = (255, 255, 255)
RULE: RGB = (215, 212, 205)
HILITE: RGB = (255, 236, 160)
CHANGE: RGB = (214, 0, 120)  # marks what changed since the previous picture
WHITE: RGB = (255, 255, 255)
# Okabe-Ito, in seat order: every game's board, the end-of-game card and charts draw a seat
# in its colour (`seat_colours`; a game gives them to the cards as `Game.player_colours`).
# Apart under simulated deuteranopia and protanopia too (tests/engine/core/test_colours.py).
PLAYER_COLORS: tuple[RGB, ...] = (
    (0, 114, 178),
    (230, 159, 0),
    (0, 158, 115),
    (204, 121, 167),
    (240, 228, 66),
    (213, 94, 0),
)


def seat_colours(seats: Sequence[str]) -> dict[str, RGB]:
    """Each player's colour by his place in `seats` (the game's seat order)."""
    return {p: PLAYER_COLORS[i % len(PLAYER_COLORS)] for i, p in enumerate(seats)}


# A seat's shape, its owner cue beside the colour where a tag does not fit (IEC's buildings,
# sites and tokens, 24 px and less, hold a building's letter or nothing; Hexania's figures a
# mass): a colour-blind player or a greyscale phone tells the owners apart by shape. In seat
# order, like PLAYER_COLORS (IEC seats four, Hexania six): square corners, round ends, pointed
# ends (a hexagon; a diamond when pointed to the middle), two opposite corners cut
# ("slanted"), a point on top ("peaked", a house's gable), a point below ("shield").
SEAT_SHAPES = ("square", "round", "pointed", "slanted", "peaked", "shield")


def shape_points(shape: str, box: Sequence[float], k: float) -> list[tuple[float, float]]:
    """The corners of `shape` in `box` (x0, y0, x1, y1): "pointed" ends in points `k` deep at
    the left and right, "slanted" has its top right and bottom left corners cut by `k`,
    "peaked" and "shield" a point `k` high on top and below; any other shape is the box
    ("round" is drawn by `draw_shape`)."""
    x0, y0, x1, y1 = box[0], box[1], box[2], box[3]
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    if shape == "pointed":
        return [(x0, my), (x0 + k, y0), (x1 - k, y0), (x1, my), (x1 - k, y1), (x0 + k, y1)]
    if shape == "slanted":
        return [(x0, y0), (x1 - k, y0), (x1, y0 + k), (x1, y1), (x0 + k, y1), (x0, y1 - k)]
    if shape == "peaked":
        return [(mx, y0), (x1, y0 + k), (x1, y1), (x0, y1), (x0, y0 + k)]
    if shape == "shield":
        return [(x0, y0), (x1, y0), (x1, y1 - k), (mx, y1), (x0, y1 - k)]
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def draw_shape(
    d: ImageDraw.ImageDraw,
    shape: str,
    box: Sequence[float],
    k: float,
    fill: Sequence[int] | None,
    outline: Sequence[int] | None = None,
    width: int = 1,
) -> None:
    """`shape` filling `box`, its outline `width` px inside it: "round" a disc in a square box,
    else a box with half-round ends; the others as `shape_points` gives them."""
    xy = (box[0], box[1], box[2], box[3])
    fill_ = tuple(fill) if fill is not None else None
    line = tuple(outline) if outline is not None else None
    if shape == "round":
        w, h = box[2] - box[0], box[3] - box[1]
        if w == h:
            d.ellipse(xy, fill=fill_, outline=line, width=width)
        else:
            d.rounded_rectangle(xy, min(w, h) / 2, fill=fill_, outline=line, width=width)
    elif shape in ("pointed", "slanted", "peaked", "shield"):
        d.polygon(shape_points(shape, box, k), fill=fill_, outline=line, width=width)
    else:
        d.rectangle(xy, fill=fill_, outline=line, width=width)


@dataclass(frozen=True)
class Label:
    text: str
    cls: str  # "name", "number" or "text"
    size: int  # font size in px


@dataclass(frozen=True)
class Picture:
    """One PNG of a picture set, with its caption in words and what the renderer drew on it."""

    png: bytes
    caption: str
    width: int
    height: int
    labels: tuple[Label, ...] = ()
    smallest: dict[str, float] = field(default_factory=dict)  # class -> size / width

    def label_texts(self) -> list[str]:
        return [lab.text for lab in self.labels]


# --- fonts -------------------------------------------------------------------------------------
_DEJAVU = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
_CJK = "NotoSansTC-Subset-Regular.otf"


@cache
def _font_bytes(name: str) -> bytes:
    return (resources.files("assets") / "fonts" / name).read_bytes()


@cache
def font(size: int, bold: bool = False, cjk: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (Latin, Polish, Cyrillic) or, for text with CJK characters, Noto Sans TC."""
    name = _CJK if cjk else _DEJAVU[bold]
    return ImageFont.truetype(io.BytesIO(_font_bytes(name)), size)


def needs_cjk(text: str) -> bool:
    return any(ord(ch) >= 0x2E80 for ch in text)


@cache
def _cjk_has(ch: str) -> bool:
    """Whether the CJK subset draws `ch`: not the symbol blocks (arrows, dingbats, ☢, ⚡...),
    which DejaVu draws; ASCII and CJK always; between them, only what it has a glyph for.
    Noto Sans CJK lacks ą ć ę ł ś ź ż and €, which came out as empty boxes in a line with
    Chinese in it ("輪到 ☒ucja", found reviewing pictures, 2026-12-05): DejaVu draws those."""
    code = ord(ch)
    if 0x2100 <= code < 0x2E80:
        return False
    if code < 0x80 or code >= 0x2E80:
        return True
    return _cjk_glyph(ch) != _cjk_glyph(_NOTDEF)


_NOTDEF = "\U0010fffd"  # a private-use code point no font here maps: its .notdef box


def _cjk_glyph(ch: str) -> tuple[tuple[int, int], bytes]:
    """The CJK font's rendering of `ch` (a missing glyph renders as the .notdef box)."""
    mask = font(20, False, True).getmask(ch)
    return mask.size, bytes(mask)


def runs(text: str) -> list[tuple[str, bool]]:
    """`text` cut into runs drawn with one font each: (run, cjk)."""
    if not needs_cjk(text):
        return [(text, False)]
    out: list[tuple[str, bool]] = []
    for ch in text:
        cjk = _cjk_has(ch)
        if out and out[-1][1] == cjk:
            out[-1] = (out[-1][0] + ch, cjk)
        else:
            out.append((ch, cjk))
    return out


def font_for(text: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The font of a text drawn in one run (see `runs`)."""
    return font(size, bold, needs_cjk(text) and all(_cjk_has(ch) for ch in text))


def char_font(label: str, ch: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The font `ch` is drawn with inside `label`."""
    return font(size, bold, needs_cjk(label) and _cjk_has(ch))


@cache
def text_width(text: str, size: int, bold: bool = False) -> float:
    return sum(float(font(size, bold, cjk).getlength(run)) for run, cjk in runs(text))


def fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """`text` cut with an ellipsis so it is at most `width` pixels long."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"


def wrap(text: str, size: int, width: float, bold: bool = False) -> list[str]:
    """`text` broken into lines at most `width` wide (at spaces; CJK text anywhere)."""
    if text_width(text, size, bold) <= width:
        return [text]
    cjk = needs_cjk(text)
    units = list(text) if cjk else text.split(" ")
    sep = "" if cjk else " "
    lines: list[str] = []
    line = ""
    for u in units:
        cand = u if not line else line + sep + u
        if text_width(cand, size, bold) <= width or not line:
            line = cand
        else:
            lines.append(line)
            line = u
    if line:
        lines.append(line)
    return [fit(x, size, width, bold) for x in lines]


TITLE_LEADING = 6  # between the lines of a title broken in two


def title_lines(text: str, width: float, bold: bool = True) -> tuple[int, list[str]]:
    """A picture's title, never cut: its size and lines. One line at the largest size from
    TITLE down to NAME (the least a "name" label may be) it fits in `width` at; else broken
    at spaces (CJK anywhere) at TITLE. Polish "Tura 3 · faza 6: przygotowanie placów budowy"
    was cut with an ellipsis at TITLE (a play-tester's report, 2027-01): it is drawn a size
    smaller."""
    for size in range(TITLE, NAME - 1, -1):
        if text_width(text, size, bold) <= width:
            return size, [text]
    return TITLE, wrap(text, TITLE, width, bold)


@lru_cache(maxsize=8192)
def _mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Any, tuple[int, int]]:
    """The anti-aliased glyph mask of `text` and its offset (cached: numbers, ids and names
    repeat from picture to picture, and FreeType rendering is the costliest part of text).
    A text of several runs (CJK with symbols) is drawn run by run onto one mask."""
    parts = runs(text)
    if len(parts) == 1:
        mask, offset = font_for(text, size, bold).getmask2(text, "L", anchor=anchor)
        return mask, (int(offset[0]), int(offset[1]))
    width = math.ceil(text_width(text, size, bold)) + 2
    img = Image.new("L", (width, size * 2), 0)
    draw = ImageDraw.Draw(img)
    x = 0.0
    for run, cjk in parts:
        draw.text((x, size * 1.5), run, font=font(size, bold, cjk), fill=255, anchor="ls")
        x += font(size, bold, cjk).getlength(run)
    # place it as `anchor` says: horizontal l/m/r, vertical a/m/s/d about the baseline
    dx = {"l": 0.0, "m": -width / 2, "r": -float(width)}[anchor[0]]
    asc, desc = font(size, bold, False).getmetrics()
    dy = {
        "a": -size * 1.5 + asc,
        "m": -size * 1.5 + (asc - desc) / 2,
        "s": -size * 1.5,
        "d": -size * 1.5 - desc,
    }[anchor[1]]
    return img.im, (round(dx), round(dy))


@lru_cache(maxsize=4096)
def ink_box(text: str, size: int, bold: bool = False) -> tuple[int, int, int, int]:
    """The box of the pixels `text` inks, about the point it is drawn at with anchor "mm"
    (a badge centres the ink, not the line: Chinese ink reaches lower than Latin)."""
    mask, (ox, oy) = _mask(text, size, bold, "mm")
    bbox = Image.frombytes("L", mask.size, bytes(mask)).getbbox() if text else None
    if bbox is None:
        return (0, 0, 0, 0)
    return (ox + bbox[0], oy + bbox[1], ox + bbox[2], oy + bbox[3])


# --- words -------------------------------------------------------------------------------------
class Words:
    """Picture labels through the catalog: `w(N_("Round {round}"), round=3)`."""

    def __init__(self, t: Translator | None) -> None:
        self.t: Translator = t if t is not None else EnglishTranslator()

    def __call__(self, msgid: str, **kw: Any) -> str:
        text = self.t.gettext(msgid) if msgid else msgid
        if not kw:
            return text
        try:
            return text.format(**kw)
        except (KeyError, IndexError, ValueError):  # a broken translation: fall back to English
            return msgid.format(**kw)

    def n(self, singular: str, plural: str, count: int, **kw: Any) -> str:
        text = self.t.ngettext(singular, plural, count)
        try:
            return text.format(n=count, **kw)
        except (KeyError, IndexError, ValueError):
            return (singular if count == 1 else plural).format(n=count, **kw)

    def list(self, items: Iterable[str]) -> str:
        """Items as one list in the labels' language ("ann, bo"; "ann、bo" in Chinese)."""
        return join_list(self.t, items)


# --- drawing with bookkeeping --------------------------------------------------------------------
class Pen:
    """ImageDraw plus the list of labels drawn and the smallest size per label class."""

    def __init__(self, img: Image.Image) -> None:
        self.img = img
        self.d = ImageDraw.Draw(img)
        self.labels: list[Label] = []
        self._inks: dict[tuple[int, ...], Any] = {}

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        cls: str = "text",
        *,
        bold: bool = False,
        fill: Sequence[int] = INK,
        anchor: str = "la",
        max_w: float | None = None,
    ) -> float:
        """Draw `text`; returns its width in px (after fitting into `max_w`)."""
        if not text:
            return 0.0
        if max_w is not None:
            text = fit(text, size, max_w, bold)
        mask, (ox, oy) = _mask(text, size, bold, anchor)
        ink = self._inks.get(tuple(fill))
        if ink is None:
            ink = self._inks[tuple(fill)] = self.d._getink(tuple(fill))[0]
        self.d.draw.draw_bitmap((round(xy[0]) + ox, round(xy[1]) + oy), mask, ink)
        self.labels.append(Label(text, cls, size))
        return text_width(text, size, bold)

    def smallest(self, width: int) -> dict[str, float]:
        out: dict[str, float] = {}
        for lab in self.labels:
            share = lab.size / width
            out[lab.cls] = min(out.get(lab.cls, share), share)
        return out


def draw_title(pen: Pen | None, xy: tuple[float, float], text: str, width: float) -> int:
    """Draw a picture's title at `xy` within `width` as `title_lines` lays it out (bold, a
    "name" label per line; nothing drawn without a pen, as when a panel measures itself);
    returns the height it takes: TITLE for one line, whatever size it was drawn at."""
    size, lines = title_lines(text, width)
    if pen is not None:
        for i, line in enumerate(lines):
            pen.text((xy[0], xy[1] + i * (TITLE + TITLE_LEADING)), line, size, "name", bold=True)
    return TITLE + (len(lines) - 1) * (TITLE + TITLE_LEADING)


@dataclass
class Sheet:
    """A picture being drawn: its image, pen and caption (encoded by `finish`)."""

    img: Image.Image
    caption: str = ""
    pen: Pen = field(init=False)

    def __post_init__(self) -> None:
        self.pen = Pen(self.img)


def new_sheet(width: int, height: int, bg: Sequence[int] = PANEL, caption: str = "") -> Sheet:
    return Sheet(Image.new("RGB", (width, max(1, int(height))), tuple(bg)), caption)


# --- colours and encoding ----------------------------------------------------------------------
def mix(a: Sequence[int], b: Sequence[int], t: float) -> RGB:
    """`a` moved a fraction `t` towards `b`."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def text_on(bg: Sequence[int]) -> RGB:
    lum = 0.2126 * bg[0] + 0.7152 * bg[1] + 0.0722 * bg[2]
    return INK if lum > 140 else WHITE


def palette(
    flat: Iterable[Sequence[int]],
    backgrounds: Iterable[Sequence[int]],
    inks: Iterable[Sequence[int]],
) -> Image.Image:
    """A fixed 256-colour palette: the flat colours, then ramps of each ink over each
    background (the anti-aliased edges of text and lines), as a "P" image for `encode`."""
    colours: list[RGB] = [(int(c[0]), int(c[1]), int(c[2])) for c in flat]
    bgs = list(backgrounds)
    for ink in inks:
        for bg in bgs:
            colours += [mix(ink, bg, s) for s in (0.2, 0.4, 0.6, 0.8)]
    colours += [mix(INK, WHITE, i / 15) for i in range(16)]
    uniq = list(dict.fromkeys(colours))[:256]
    uniq += [uniq[0]] * (256 - len(uniq))
    img = Image.new("P", (1, 1))
    img.putpalette([v for c in uniq for v in c])
    return img


def encode(img: Image.Image, pal: Image.Image) -> bytes:
    out = io.BytesIO()
    img.quantize(palette=pal, dither=Image.Dither.NONE).save(
        out, format="PNG", compress_level=PNG_LEVEL
    )
    return out.getvalue()


def finish(sheets: Sequence[Sheet], pal: Image.Image) -> list[Picture]:
    """Encode each sheet as a Picture."""
    pics = []
    for s in sheets:
        w, h = s.img.size
        pics.append(
            Picture(
                png=encode(s.img, pal),
                caption=s.caption,
                width=w,
                height=h,
                labels=tuple(s.pen.labels),
                smallest=s.pen.smallest(w),
            )
        )
    return pics


def stacked(sheets: Sequence[Sheet], pal: Image.Image, gap: int = 6) -> bytes:
    """All sheets one under the other as one PNG (for callers that want a single picture)."""
    if len(sheets) == 1:
        return encode(sheets[0].img, pal)
    width = max(s.img.width for s in sheets)
    height = sum(s.img.height for s in sheets) + gap * (len(sheets) - 1)
    img = Image.new("RGB", (width, height), RULE)
    y = 0
    for s in sheets:
        img.paste(s.img, (0, y))
        y += s.img.height + gap
    return encode(img, pal)


SheetsFn = Callable[
    [dict[str, Any], str | None, Translator | None, dict[str, Any] | None], list[Sheet]
]


@dataclass(frozen=True)
class Drawing:
    """A game's two picture entry points, written once: `sheets(view, viewer, t, previous)`
    draws the sheets of a set, `palette()` gives the fixed palette they are encoded with."""

    sheets: SheetsFn
    palette: Callable[[], Image.Image]

    def render_set(
        self,
        view: dict[str, Any],
        viewer: str | None = None,
        *,
        t: Translator | None = None,
        previous: dict[str, Any] | None = None,
    ) -> list[Picture]:
        """The pictures sent together, each with its caption, from the game's view."""
        return finish(self.sheets(view, viewer, t, previous), self.palette())

    def render(
        self,
        view: dict[str, Any],
        viewer: str | None = None,
        *,
        t: Translator | None = None,
        previous: dict[str, Any] | None = None,
    ) -> bytes:
        """The same pictures as one PNG, one under the other."""
        return stacked(self.sheets(view, viewer, t, previous), self.palette())


def initials(seats: Sequence[str], fits: Callable[[str], bool] | None = None) -> dict[str, str]:
    """One letter per player; two when first letters collide, else the letter and the number
    the name ends in ("Bot 2" -> "B2", so "Bot" is "B1": found playing, 2026-11-29, when
    "Bot 2" wore "B3"), else (numbers that collide) the letter and the seat number. Tags
    collide when they look alike (`looks`): Latin "A" (alice) and Cyrillic "А" (Анна) were
    both "A", told apart by colour only (found reviewing pictures, 2026-12).

    `fits` says whether a tag fits where it is drawn (a house at 16 px); a tag that does not
    is shortened, apart from every other tag: to the letter and a number, the letter alone
    when no other name starts with a look-alike, else a number (the one the name ends in,
    else the seat's): on a 23 px house "Wojtek" and "Wanda" wear "1" and "2", "Bot 2" "2"."""
    out = _initials(seats)
    if fits is None:
        return out
    seat = {p: i + 1 for i, p in enumerate(seats)}
    numbered = {p for p in seats if p.rstrip("0123456789") != p}
    # names that end in a number first ("Bot 2" keeps his 2), then by seat
    for p in sorted(seats, key=lambda p: (p not in numbered, seat[p])):
        if fits(out[p]):
            continue
        taken = {looks(v) for q, v in out.items() if q != p}
        first = (p[:1] or "?").upper()
        own = _number_of(p) if p in numbered else seat[p]
        numbers = [str(n) for n in dict.fromkeys([own, seat[p], *range(1, 100)])]
        shorter = [first + n for n in numbers]
        if sum(1 for q in seats if looks(q[:1].upper() or "?") == looks(first)) == 1:
            shorter.append(first)
        shorter += numbers
        out[p] = next((t for t in shorter if looks(t) not in taken and fits(t)), out[p])
    return out


def _initials(seats: Sequence[str]) -> dict[str, str]:
    first = {p: (p[:1] or "?").upper() for p in seats}
    two = {p: (p[:1].upper() + p[1:2].lower()) if len(p) > 1 else first[p] for p in seats}

    def alone(p: str, tags: dict[str, str]) -> bool:
        return sum(1 for q in seats if looks(tags[q]) == looks(tags[p])) == 1

    out: dict[str, str] = {}
    numbered: list[str] = []
    for p in seats:
        if alone(p, first):
            out[p] = first[p]
        elif alone(p, two):
            out[p] = two[p]
        else:
            out[p] = f"{first[p]}{_number_of(p)}"
            numbered.append(p)
    if len({looks(v) for v in out.values()}) < len(out):
        # a number tag worn by one player stays; of those alike, the first seat's
        taken = {looks(v) for p, v in out.items() if p not in numbered or alone(p, out)}
        for i, p in enumerate(seats):
            if p in numbered and not alone(p, out):
                if looks(out[p]) in taken:
                    n = i + 1
                    while looks(f"{first[p]}{n}") in taken:
                        n += 1
                    out[p] = f"{first[p]}{n}"
                taken.add(looks(out[p]))
    return out


# Letters DejaVu Sans draws (nearly) alike, Cyrillic and Greek to their Latin twin, both cases
# (a tag's second letter is lower case: "Aн" and "An" differ, "Ao" and "Aо" do not).
_TWINS = str.maketrans(
    "АВЕКМНОРСТУХЅІЈԚԜЗаеорсухѕіјԁһԛԝпгьΑΒΕΖΗΙΚΜΝΟΡΤΥΧοαινκρυχ0",
    "ABEKMHOPCTYXSIJQW3aeopcyxsijdhqwnrbABEZHIKMNOPTYXoaivkpux" + "O",
)


def looks(tag: str) -> str:
    """What a tag looks like: its letters with look-alikes (Latin, Cyrillic, Greek) made one,
    upper-cased ("Al" and "AL" alike too)."""
    return tag.translate(_TWINS).upper()


def _number_of(name: str) -> int:
    """The number a name ends in ("Bot 2" -> 2), else 1 (the first of its kind: "Bot")."""
    digits = len(name) - len(name.rstrip("0123456789"))
    return int(name[-digits:]) if 0 < digits <= 3 else 1
