"""IEC pictures tell whose a building, site or token is by shape as well as by colour. Found
reviewing pictures: the owner was told by colour only, and under simulated deuteranopia (or
on a greyscale phone) the green and pink companies' buildings were one grey. Each seat has a
shape (engine/core/picture.py SEAT_SHAPES): square, round, pointed, slanted; the panel's
swatch beside a company's name shows it. A face-down token's shape is its owner's, public
(IEC-S-26): a real one and a fake still look alike to all but their owner (IEC-S-21)."""

from __future__ import annotations

import copy
import io
import itertools
from typing import Any
from unittest import mock

import pytest
from PIL import Image

from engine.core.picture import SEAT_SHAPES
from engine.iec import GAME, render_panel
from engine.iec.render_map import Map
from engine.iec.render_marks import SEAT_RGB

from .helpers import add, at, empty
from .test_render_stacked import _mined

# a mine powered, one not, a site, a face-down and a face-up token: on cells apart
MARKS = ("E5", "E7", "E9", "E11", "E13")


def _rgb(st: dict[str, Any], viewer: str | None = None) -> Image.Image:
    png = GAME.render_set(st, viewer)[0].png
    return Image.open(io.BytesIO(png)).convert("RGB")


def _marked(seat: int) -> dict[str, Any]:
    """Four companies; the one in seat `seat` (0 for P1) owns every mark of MARKS."""
    st, names = empty(4)
    at(st, 9, names[0])
    p = names[seat]
    add(st, p, "mine", MARKS[0])
    add(st, p, "mine", MARKS[1], powered=False)
    st["sites"] = {MARKS[2]: p}
    st["tokens"] = [
        {"id": 1, "owner": p, "cell": MARKS[3], "up": False, "real": False},
        {"id": 2, "owner": p, "cell": MARKS[4], "up": True, "real": True},
    ]
    return st


def _silhouettes(st: dict[str, Any], bare: Image.Image) -> list[set[tuple[int, int]]]:
    """Per mark, the pixels it draws on its cell and round it (what differs from `bare`),
    whatever their colour: the mark's shape as a greyscale phone shows it."""
    img = _rgb(st)
    m = Map(GAME.view(st, None))
    out = []
    for cell in MARKS:
        x0, y0 = m.xy(cell)
        out.append(
            {
                (x - x0, y - y0)
                for x in range(x0 - 3, x0 + m.cell + 4)
                for y in range(y0 - 3, y0 + m.cell + 4)
                if img.getpixel((x, y)) != bare.getpixel((x, y))
            }
        )
    return out


def test_each_company_draws_its_buildings_sites_and_tokens_in_a_shape_of_its_own() -> None:
    """Every two companies' marks of a kind differ in shape, not in colour alone: their
    silhouettes (the pixels drawn, of any colour) differ by 10 pixels at least, at the phone
    width of 720 px."""
    bare_state, _names = empty(4)
    at(bare_state, 9, _names[0])
    bare = _rgb(bare_state)
    shapes = [_silhouettes(_marked(seat), bare) for seat in range(4)]
    for a, b in itertools.combinations(range(4), 2):
        for k, cell in enumerate(MARKS):
            apart = len(shapes[a][k] ^ shapes[b][k])
            assert apart >= 10, (SEAT_SHAPES[a], SEAT_SHAPES[b], cell, apart)


def test_the_panel_shows_each_companys_shape_beside_its_name() -> None:
    """The key to the map's shapes: the swatch beside a company's name (and beside "to act")
    is drawn in its seat's shape and colour."""
    st = _marked(0)
    drawn: list[tuple[str, tuple[int, ...]]] = []
    real = render_panel.draw_shape

    def spy(d: Any, shape: str, box: Any, k: float, fill: Any, *a: Any, **kw: Any) -> None:
        drawn.append((shape, tuple(fill)))
        real(d, shape, box, k, fill, *a, **kw)

    with mock.patch.object(render_panel, "draw_shape", spy):
        GAME.render_set(st, None)
    seats = {f"P{i + 1}": (SEAT_SHAPES[i], SEAT_RGB[f"P{i + 1}"]) for i in range(4)}
    assert set(drawn) == set(seats.values())
    actor = st["players"][st["actor"]]["seat"]
    assert drawn.count(seats[actor]) == 2  # beside "to act" and beside his name


@pytest.mark.parametrize("seat", range(4), ids=list(SEAT_SHAPES[:4]))
def test_iec_s21_a_face_down_token_of_any_shape_looks_alike_real_or_fake(seat: int) -> None:
    """Every company's face-down token, whatever its shape: the same pixels real or fake to
    everybody but its owner (to the public and to each other company)."""
    st, names = _mined(4)
    fake = copy.deepcopy(st)
    owner = names[seat]
    for tok in fake["tokens"]:
        if tok["owner"] == owner:
            tok["real"] = False
    for viewer in (None, *[p for p in names if p != owner]):
        assert GAME.render_set(st, viewer)[0].png == GAME.render_set(fake, viewer)[0].png, viewer
    assert GAME.render_set(st, owner)[0].png != GAME.render_set(fake, owner)[0].png
