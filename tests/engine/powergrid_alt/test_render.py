"""The variant's board picture: a PNG with lines, plants, TPs and hanging lines drawn."""

from __future__ import annotations

import io

from PIL import Image

from engine.powergrid.render import PLAYER_COLORS, _hex, _map_and_geometry
from engine.powergrid_alt import GAME

from .helpers import give_line, give_plant, give_tp, new_game


def test_render_draws_owned_lines_plants_and_tps_in_player_colours() -> None:
    state = new_game(3)
    give_plant(state, "a", 13, "Freiburg")
    give_tp(state, "a", "Würzburg")
    give_line(state, "a", "Freiburg", "Stuttgart", "Würzburg")
    give_plant(state, "b", 18, "Kiel")
    give_line(state, "b", "Kiel", "Hamburg")  # hanging: no TP in Hamburg
    png = GAME.render(state, None)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    _mp, g = _map_and_geometry("germany")
    a_color = _hex(PLAYER_COLORS[state["seats"].index("a")])
    (fx, fy), (sx, sy) = g.pos["Freiburg"], g.pos["Stuttgart"]
    mid = (round((fx + sx) / 2), round((fy + sy) / 2))
    near = [img.getpixel((mid[0] + dx, mid[1] + dy)) for dx in range(-3, 4) for dy in range(-3, 4)]
    assert any(sum(abs(p - q) for p, q in zip(px, a_color, strict=True)) < 40 for px in near)
    x, y = (round(v) for v in g.pos["Freiburg"])
    assert sum(abs(p - q) for p, q in zip(img.getpixel((x - 30, y)), a_color, strict=True)) < 40
    assert GAME.render(state, None) == png  # deterministic
