"""IEC pictures: the tokens sharing a cell are each drawn apart (found playing: two or three
tokens on one cell were drawn on the same corner, only the last one seen). A cell holds one
token per company (IEC-20, IEC-S-21), so up to four at four players, on a free cell or on a
building's cell (a building may come after the tokens, EX-IEC-7)."""

from __future__ import annotations

import copy
import io
import itertools
from typing import Any
from unittest import mock

import pytest
from PIL import Image

from engine.core.picture import INK
from engine.iec import GAME, render_map
from engine.iec.render_map import Map
from engine.iec.render_marks import LONE_TOKEN, SEAT_RGB

from .helpers import add, at, do, empty

CELL = "H8"
# each company's powered developer and storage holding AC: all four may mine CELL
HOMES = (("F6", "F7"), ("K6", "K7"), ("F10", "G10"), ("K10", "J10"))


def _mined(n: int) -> tuple[dict[str, Any], list[str]]:
    """Four companies; the first `n` in seat order each lay a real mine on CELL, a legal
    placement each (phase 5), then it is phase 9."""
    st, names = empty(4)
    for p, (dev, store) in zip(names, HOMES):
        add(st, p, "developer", dev)
        add(st, p, "storage", store, goods={"AC": 2})
    for p in names[:n]:
        do(at(st, 5, p), p, {"type": "lay", "real": [CELL]})
    at(st, 9, names[0])
    return st, names


def _rgb(st: dict[str, Any], previous: dict[str, Any] | None = None) -> Image.Image:
    png = GAME.render_set(st, None, None, previous)[0].png
    img = Image.open(io.BytesIO(png)).convert("RGB")
    assert img.width == 720  # a phone's picture: what a player sees
    return img


def _cell_box(st: dict[str, Any]) -> tuple[int, int, int]:
    m = Map(GAME.view(st, None))
    x0, y0 = m.xy(CELL)
    return int(x0), int(y0), m.cell


def _spots(
    st: dict[str, Any], bare: Image.Image, img: Image.Image
) -> dict[str, list[tuple[int, int]]]:
    """Each token owner's pixels: drawn since `bare` (no tokens) in his colour, on CELL or
    just round it."""
    x0, y0, c = _cell_box(st)
    around = [(x, y) for x in range(x0 - 8, x0 + c + 9) for y in range(y0 - 8, y0 + c + 9)]
    changed = [xy for xy in around if img.getpixel(xy) != bare.getpixel(xy)]
    out: dict[str, list[tuple[int, int]]] = {}
    for tok in st["tokens"]:
        rgb = SEAT_RGB[st["players"][tok["owner"]]["seat"]]
        out[tok["owner"]] = [xy for xy in changed if img.getpixel(xy) == rgb]
    return out


def _centre(points: list[tuple[int, int]]) -> tuple[float, float]:
    return (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))


def _glyph(st: dict[str, Any], bare: Image.Image) -> list[tuple[int, int]]:
    """The building letter's pixels on CELL: what the letter changes in `bare` (the same
    picture drawn without building letters differs there only; the box's outline follows
    its owner's shape, so no fixed rectangle holds the letter alone)."""
    before = copy.deepcopy(st)
    before["tokens"] = []
    with mock.patch.object(render_map, "draw_letter", lambda *_a, **_k: None):
        plain = _rgb(before)
    x0, y0, c = _cell_box(st)
    return [
        (x, y)
        for x in range(x0, x0 + c)
        for y in range(y0, y0 + c)
        if bare.getpixel((x, y)) != plain.getpixel((x, y))
    ]


@pytest.mark.parametrize("building", [False, True], ids=["free cell", "building's cell"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_tokens_sharing_a_cell_are_each_seen_with_their_owners_colour_and_face(
    n: int, building: bool
) -> None:
    """Every token of a cell keeps its owner's colour in a place of its own (centres apart),
    the face-up one shows its dark face, and on a building's cell the building's letter (W,
    the widest Latin one) keeps every pixel (the change ring round a new token may shade a few
    of its soft rim, never a stroke), face up or down."""
    st, names = _mined(n)
    assert len(st["tokens"]) == n and {t["cell"] for t in st["tokens"]} == {CELL}
    if building:  # built after the mines were laid; unpowered: the box is not a seat colour
        add(st, names[3], "launcher", CELL, powered=False)
    before = copy.deepcopy(st)
    before["tokens"] = []
    bare = _rgb(before)
    st["tokens"][1]["up"] = True  # turned up: a real mine, face up for everybody
    for previous in (None, before):  # plain, then every token ringed as laid since
        img = _rgb(st, previous)
        spots = _spots(st, bare, img)
        for owner, points in spots.items():
            assert len(points) >= 8, (owner, len(points))
        centres = [_centre(points) for points in spots.values()]
        for a, b in itertools.combinations(centres, 2):
            assert abs(a[0] - b[0]) + abs(a[1] - b[1]) >= 4, (a, b)
        up = _centre(spots[st["tokens"][1]["owner"]])
        dark = [
            (x, y)
            for x in range(round(up[0]) - 3, round(up[0]) + 4)
            for y in range(round(up[1]) - 3, round(up[1]) + 4)
            if img.getpixel((x, y)) == INK
        ]
        assert len(dark) >= 4, dark
        if building:  # unpowered: the letter in its owner's colour on a light box
            glyph = _glyph(st, bare)
            ink = SEAT_RGB[st["players"][names[3]]["seat"]]
            strokes = [xy for xy in glyph if bare.getpixel(xy) == ink]
            assert len(strokes) > 40
            hit = [xy for xy in glyph if img.getpixel(xy) != bare.getpixel(xy)]
            if previous is None:
                assert hit == []
            else:  # a change ring may shade a pixel of the letter's soft rim, no stroke
                assert not set(hit) & set(strokes) and len(hit) <= 3, hit


def test_a_second_token_of_one_company_on_a_cell_is_refused() -> None:
    """What the pictures rely on: one token per company on a cell (IEC-20)."""
    from engine.core.errors import IllegalAction

    st, names = _mined(1)
    st["players"][names[0]]["laid"] = False
    with pytest.raises(IllegalAction):
        do(at(st, 5, names[0]), names[0], {"type": "lay", "real": [CELL]})


@pytest.mark.parametrize("up", [False, True], ids=["face down", "face up"])
def test_a_lone_token_is_big_with_a_thick_ring_of_its_owners_colour(up: bool) -> None:
    """Found reviewing pictures: a lone token was an 11 px disc with a 2 px ring, its owner
    hard to tell on a phone (a face-up one a dark disc). Now 16 px with a 4 px ring at the
    phone width of 720 px, its face dark when up."""
    st, names = _mined(1)
    before = copy.deepcopy(st)
    before["tokens"] = []
    bare = _rgb(before)
    st["tokens"][0]["up"] = up
    img = _rgb(st)
    points = _spots(st, bare, img)[names[0]]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    assert max(xs) - min(xs) + 1 >= LONE_TOKEN
    assert max(ys) - min(ys) + 1 >= LONE_TOKEN
    assert len(points) >= 100  # a 2 px ring round 11 px was 60
    cx, cy = _centre(points)
    face: Any = img.getpixel((round(cx), round(cy)))
    assert face == INK if up else min(face) >= 245  # face down: white


def test_iec_s21_a_face_down_token_looks_alike_real_or_fake_but_to_its_owner() -> None:
    st, names = _mined(1)
    fake = copy.deepcopy(st)
    fake["tokens"][0]["real"] = False
    for viewer in (None, names[1]):
        assert GAME.render_set(st, viewer)[0].png == GAME.render_set(fake, viewer)[0].png, viewer
    assert GAME.render_set(st, names[0])[0].png != GAME.render_set(fake, names[0])[0].png
