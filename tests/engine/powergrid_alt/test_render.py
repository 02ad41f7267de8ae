"""The variant's pictures: lines, plants and TPs in player colours, names over lines, marks."""

from __future__ import annotations

import copy
import io

from PIL import Image

from engine.core.picture import CHANGE
from engine.powergrid import render as pg
from engine.powergrid.render.layout import segment_hits
from engine.powergrid_alt import GAME

from .helpers import give_line, give_plant, give_tp, new_game


def _rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _near(px: object, colour: tuple[int, int, int], tol: int = 40) -> bool:
    assert isinstance(px, tuple), px  # an RGB pixel
    return sum(abs(p - q) for p, q in zip(px, colour, strict=True)) < tol


def _map_part(pics: list, city: str, g: pg.Geometry) -> tuple[Image.Image, int]:
    """The map part that shows `city`, and the y offset of that part."""
    top = 0
    for pic in pics[:-1]:
        if top <= g.pos[city][1] < top + pic.height - 40:
            return _rgb(pic.png), top
        top += pic.height - 80  # parts overlap by 80 px
    raise AssertionError(city)


def test_render_draws_owned_lines_plants_and_tps_in_player_colours() -> None:
    state = new_game(3)
    give_plant(state, "a", 13, "Freiburg")
    give_tp(state, "a", "Würzburg")
    give_line(state, "a", "Freiburg", "Stuttgart", "Würzburg")
    give_plant(state, "b", 18, "Kiel")
    give_line(state, "b", "Kiel", "Hamburg")  # hanging: no TP in Hamburg
    pics = GAME.render_set(state, None)
    g = pg.map_geometry(GAME.view(state, None))
    a_color = pg.hex_rgb(pg.PLAYER_COLORS[state["seats"].index("a")])
    img, top = _map_part(pics, "Freiburg", g)
    (fx, fy), (sx, sy) = g.pos["Freiburg"], g.pos["Stuttgart"]
    mid = (round((fx + sx) / 2), round((fy + sy) / 2) - top)
    near = [img.getpixel((mid[0] + dx, mid[1] + dy)) for dx in range(-3, 4) for dy in range(-3, 4)]
    assert any(_near(px, a_color) for px in near)
    x, y = g.pos["Freiburg"]
    assert _near(img.getpixel((x - 30, y - top)), a_color)  # the plant fills the node
    assert GAME.render(state, None) == GAME.render(state, None)  # deterministic
    labels = {lab.text for p in pics for lab in p.labels}
    assert {"⚡13", "⚡18", "TP", "Freiburg", "Kiel"} <= labels


def test_new_lines_plants_and_tps_are_marked_and_told() -> None:
    state = new_game(3)
    give_plant(state, "a", 13, "Freiburg")
    before = copy.deepcopy(state)
    give_tp(state, "a", "Würzburg")
    give_line(state, "a", "Freiburg", "Stuttgart", "Würzburg")
    give_plant(state, "b", 18, "Kiel")
    plain = GAME.render_set(state, None)
    marked = GAME.render_set(state, None, None, before)
    count = sum(
        n for p in marked[:-1] for n, c in _rgb(p.png).getcolors(1 << 20) or [] if c == CHANGE
    )
    assert count > 500
    assert all(CHANGE not in {c for _n, c in _rgb(p.png).getcolors(1 << 20) or []} for p in plain)
    cap = marked[0].caption
    assert "a laid a line Freiburg – Stuttgart – Würzburg" in cap
    assert "b built plant 18 in Kiel" in cap and "a placed a TP in Würzburg" in cap
    assert "plant 13" not in cap


def test_pollution_of_each_region_is_in_the_panel() -> None:
    state = new_game(3)
    give_plant(state, "a", 13, "Freiburg")
    labels = GAME.render_set(state, "a")[-1].label_texts()
    assert any(x.startswith("Pollution") for x in labels)
    assert any(" of " in x and ":" in x for x in labels)


def test_a_tp_mark_keeps_a_short_word_and_falls_back_to_tp() -> None:
    from engine.powergrid_alt.render import tp_mark

    assert tp_mark("ТП") == "ТП"
    assert tp_mark("Podstacja") == "TP"
    assert tp_mark("變電站") == "TP"


def test_a_cost_under_a_laid_line_stays_readable() -> None:
    """The laid line is drawn over the map; the cost it runs over is drawn again on top: its
    box reads exactly as on a map without the line."""
    state = new_game(3)
    give_plant(state, "a", 13, "Freiburg")
    bare = GAME.render_set(state, None)
    give_line(state, "a", "Freiburg", "Stuttgart")
    laid = GAME.render_set(state, None)
    g = pg.map_geometry(GAME.view(state, None))
    pair = ("Freiburg", "Stuttgart")
    x0, y0, x1, y1 = g.edge_label[pair if pair in g.edge_label else (pair[1], pair[0])]
    assert segment_hits(g.pos["Freiburg"], g.pos["Stuttgart"], (x0 + 4, y0 + 4, x1 - 4, y1 - 4))
    (before, top), (after, _top) = _map_part(bare, "Freiburg", g), _map_part(laid, "Freiburg", g)
    box = (x0 + 5, y0 - top + 2, x1 - 4, y1 - top - 1)  # inside the rounded corners
    assert before.crop(box).tobytes() == after.crop(box).tobytes()
