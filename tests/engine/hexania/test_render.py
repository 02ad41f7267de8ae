"""The board picture: a palette PNG at most 1280 px wide, deterministic, reflecting the state."""

import io

from PIL import Image

from engine.hexania import GAME
from tests.engine.hexania.helpers import position


def _img(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png))


def test_render_is_a_palette_png_within_1280_px_and_deterministic() -> None:
    state = GAME.setup(["a", "b", "c", "d", "e", "f"], {}, 3)
    png = GAME.render(state, None)
    assert png.startswith(b"\x89PNG")
    img = _img(png)
    assert img.mode == "P" and img.width <= 1280 and img.height <= 1280
    assert GAME.render(state, None) == png


def test_render_shows_pieces_and_changes_with_the_state() -> None:
    empty = position({})
    full = position(
        {"blue": ["L12", "L13", "K12"], "red": ["N11", "N12", "N13", "N14", "N15"]}, points=8
    )
    a, b = GAME.render(empty, "blue"), GAME.render(full, "blue")
    assert a != b
    from engine.hexania.render import PLAYER_COLOURS, _centre

    img = _img(b).convert("RGB")
    x, y = _centre(-1, 2)  # N11 holds a red piece (seat 1: vermillion)
    assert img.getpixel((int(x) + 9, int(y) - 9)) == PLAYER_COLOURS[1]
    over = position({"blue": ["L12"]})
    over.update(over=True, turn=None, result=[["blue"], ["red"]], end_reason="last_player")
    assert _img(GAME.render(over, None)).size == _img(a).size
