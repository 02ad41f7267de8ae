"""Hexania pictures tell a figure's owner by shape besides colour: found reviewing pictures, a
figure showed its owner by its colour only, and under simulated deuteranopia the green and
pink players (seats 3 and 4), or the orange and yellow (2 and 5), were one grey. A figure's
mass is written in a white badge of its owner's seat shape (engine/core/picture.py
SEAT_SHAPES: square, round, pointed, slanted, peaked, shield), and the panel's swatch beside
his name, the key, is drawn in that shape and his colour."""

from __future__ import annotations

from itertools import combinations
from typing import Any
from unittest import mock

from PIL import Image

from bot.i18n import translator
from engine.core.picture import PLAYER_COLORS, SEAT_SHAPES, WHITE, Pen, Words
from engine.hexania import GAME
from engine.hexania import render as R
from tests.engine.core.test_colours import distance, seen
from tests.engine.hexania.helpers import position

PLAYERS = ("a", "b", "c", "d", "e", "f")
GREY = (128, 128, 128)


def _silhouette(shape: str) -> set[tuple[int, int]]:
    """The pixels a mass badge of `shape` covers, drawn alone on grey."""
    img = Image.new("RGB", (60, 40), GREY)
    R.mass_badge(Pen(img), 30, 20, "3", shape, R.MASS_H)
    return {(x, y) for x in range(60) for y in range(40) if img.getpixel((x, y)) != GREY}


def test_every_two_seats_mass_badges_differ_in_silhouette() -> None:
    """Six seats, six shapes: any two badges differ in more than their colour-free outline's
    noise, the digit inside them the same."""
    assert len(set(SEAT_SHAPES)) == len(PLAYER_COLORS) == 6
    shapes = {s: _silhouette(s) for s in SEAT_SHAPES}
    for a, b in combinations(SEAT_SHAPES, 2):
        assert len(shapes[a] ^ shapes[b]) >= 20, (a, b)


def test_hex_t1_a_figure_wears_its_owners_shape_on_the_map_and_in_the_panel() -> None:
    """Two figures (HEX-T-1: one player's connected pieces) of the seats nearest alike under
    deuteranopia: each one's mass badge is its owner's shape, and the panel's swatch beside
    each name, and beside "to play", is his shape in his colour; the legend's mass sample is a
    badge too."""
    state = position({"c": ["L10", "L11"], "d": ["L13", "L14", "K13"]}, players=PLAYERS, turn="c")
    view = GAME.view(state, None)
    seat = {p: info["seat"] for p, info in view["players"].items()}
    colour = R.player_colours(view)
    shape = R.seat_shapes(view)
    assert shape == {p: SEAT_SHAPES[seat[p]] for p in PLAYERS}
    assert (seat["c"], seat["d"]) == (2, 3)
    assert distance(seen(colour["c"], "deuteranopia"), seen(colour["d"], "deuteranopia")) < 20
    drawn: list[tuple[str, tuple[int, ...]]] = []
    real = R.draw_shape

    def spy(d: Any, s: str, box: Any, k: float, fill: Any, *a: Any, **kw: Any) -> None:
        drawn.append((s, tuple(fill)))
        real(d, s, box, k, fill, *a, **kw)

    with mock.patch.object(R, "draw_shape", spy):
        pics = GAME.render_set(state, None)
    badges = {s for s, fill in drawn if fill == WHITE}  # a map part each figure is whole in
    # the two figures' masses, and the legend's sample (in the first seat's shape)
    assert badges == {shape["c"], shape["d"], SEAT_SHAPES[0]}
    swatches = [(s, fill) for s, fill in drawn if fill != WHITE]
    assert {(shape[p], colour[p]) for p in PLAYERS} == set(swatches)
    assert swatches.count((shape["c"], colour["c"])) == 2  # beside "to play" and his name
    labels = {lab.text for p in pics for lab in p.labels}
    assert {"2", "3", "mass of a figure"} <= labels


def test_hex_t1_the_panel_lists_each_figure_as_the_map_shows_it() -> None:
    """The panel listed a figure as "L11 ×2" while the map showed its middle cell's id over
    its mass in a badge of its owner's shape (found reviewing pictures: two notations to
    match). The panel now writes the same id and draws the same badge beside it."""
    state = position({"c": ["L10", "L11"], "d": ["L13", "L14", "K13"]}, players=PLAYERS, turn="c")
    view = GAME.view(state, None)
    shape = R.seat_shapes(view)
    badges: list[tuple[str, str]] = []  # every mass badge drawn: map parts, panel, legend
    listed: list[tuple[str, str, str]] = []  # the panel's figures
    real, real_row = R.mass_badge, R.draw_figure_row

    def spy(pen: Pen, x: float, y: float, text: str, s: str, *a: Any) -> Any:
        badges.append((text, s))
        return real(pen, x, y, text, s, *a)

    def row_spy(pen: Pen, x: float, y: float, row: list[Any], s: str) -> None:
        listed.extend((p[1], p[2], s) for p in row if p[0] == "figure")
        real_row(pen, x, y, row, s)

    with mock.patch.object(R, "mass_badge", spy), mock.patch.object(R, "draw_figure_row", row_spy):
        pics = GAME.render_set(state, None)
    drawn = [lab.text for p in pics for lab in p.labels]
    for p in ("c", "d"):
        (fig,) = view["players"][p]["figures"]
        cell, mass = R.anchor_cell(fig["cells"]), str(fig["mass"])
        assert (cell, mass, shape[p]) in listed, p  # the panel: the map's id, the map's badge
        assert badges.count((mass, shape[p])) >= 2, p  # on the map (a part or two) and there
        assert drawn.count(cell) >= 2, p
        rows = R.figure_rows(Words(None), [(cell, fig["mass"])], shape[p], 600)
        assert rows == [[("text", "Figures: "), ("figure", cell, mass)]]
    assert not any("×" in x for x in drawn)


def test_the_panels_figure_list_keeps_its_languages_words_and_three_rows() -> None:
    """The words around the list and its separator are the language's ("圖形：A2 [5]、L4 [1]");
    a list longer than three rows ends in "…" after a whole figure, every row within its
    width."""
    zh = Words(translator("zh_Hant"))
    assert R.figure_rows(zh, [("A2", 5), ("L4", 1)], "round", 600) == [
        [("text", "圖形："), ("figure", "A2", "5"), ("text", "、"), ("figure", "L4", "1")]
    ]
    many = [(f"Q{i}", i % 9 + 1) for i in range(1, 60)]
    rows = R.figure_rows(Words(None), many, "pointed", 500)
    assert len(rows) == 3 and rows[-1][-1] == ("text", "…")
    assert rows[-1][-2][0] == "figure"  # no comma before the ellipsis
    for row in rows:
        assert sum(R._piece_width(p, "pointed") for p in row) <= 500
    assert R.figure_rows(Words(None), [], "round", 500) == [[("text", "no figures")]]
