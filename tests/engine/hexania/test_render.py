"""Hexania pictures: cropped to the cells in play, every cell id readable, changes marked."""

from __future__ import annotations

import copy
import io

from PIL import Image

from engine.core.picture import CHANGE, HILITE
from engine.hexania import GAME
from engine.hexania.board import CELLS
from engine.hexania.render import in_play
from tests.engine.hexania.helpers import position


def _rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _labels(pics: list) -> set[str]:
    return {lab.text for p in pics for lab in p.labels}


def test_render_is_palette_pngs_for_a_phone_and_deterministic() -> None:
    state = GAME.setup(["a", "b", "c", "d", "e", "f"], {}, 3)
    pics = GAME.render_set(state, None)
    for pic in pics:
        img = Image.open(io.BytesIO(pic.png))
        assert img.mode == "P" and img.width == 720 and img.height <= 1440
    assert [p.png for p in GAME.render_set(state, None)] == [p.png for p in pics]


def test_hex_g4_the_map_is_cropped_to_the_pieces_and_homelands_plus_two_rings() -> None:
    state = position({"blue": ["L12", "L13", "K12"], "red": ["N11", "N12"]})
    view = GAME.view(state, None)
    shown = in_play(view)
    homes = {c for info in view["players"].values() for c in info["homeland"]}
    assert {"L12", "N11", "L14", "L15", "P11"} <= shown  # two rings around the pieces
    assert "L17" not in shown and len(shown) < len(CELLS)
    assert homes <= shown
    labels = _labels(GAME.render_set(state, None))
    assert shown <= labels  # every cell shown has its id written
    assert not (set(CELLS) - shown) & labels


def test_occupied_cells_keep_their_ids_and_figures_their_mass() -> None:
    state = position({"blue": ["L12", "L13", "K12"], "red": ["N11", "N12", "N13", "N14", "N15"]})
    pics = GAME.render_set(state, "blue")
    labels = _labels(pics)
    assert {"L12", "L13", "K12", "N11", "N15", "3", "5"} <= labels  # masses: in badges
    drawn = [lab.text for p in pics for lab in p.labels]
    assert "Figures: " in labels and not any("×" in x for x in labels)  # the panel's list:
    assert drawn.count("3") >= 2 and drawn.count("5") >= 2  # each mass in the map's badge


def test_a_piece_is_drawn_in_its_owners_colour_and_the_player_to_act_highlighted() -> None:
    from engine.core.picture import PLAYER_COLORS

    empty = GAME.render_set(position({}), "blue")
    full = GAME.render_set(position({"red": ["N11", "N12", "N13"]}, points=8), "blue")
    img = _rgb(full[-1].png) if len(full) > 1 else _rgb(full[0].png)
    colours = {c for p in full for _n, c in _rgb(p.png).getcolors(1 << 20) or []}
    assert PLAYER_COLORS[1] in colours  # red sits in seat 1: orange
    assert HILITE in {c for _n, c in img.getcolors(1 << 20) or []}
    assert [p.png for p in empty] != [p.png for p in full]
    over = position({"blue": ["L12"]})
    over.update(over=True, turn=None, result=[["blue"], ["red"]], end_reason="last_player")
    over_pics = GAME.render_set(over, None)
    assert "Game over: blue won" in _labels(over_pics)
    assert over_pics[0].caption.startswith("Game over: blue won")


def test_changed_cells_are_ringed_and_told_in_the_caption() -> None:
    before = position({"blue": ["L12"], "red": ["N11", "N12"]})
    after = position({"blue": ["L12", "L13"], "red": ["N12"]})
    plain = GAME.render_set(after, None)
    marked = GAME.render_set(after, None, None, before)

    def changes(pics: list) -> int:
        return sum(n for p in pics for n, c in _rgb(p.png).getcolors(1 << 20) or [] if c == CHANGE)

    assert changes(plain) == 0 < changes(marked)
    assert "blue now on L13" in marked[0].caption and "red lost N11" in marked[0].caption


def test_a_piece_that_moved_is_not_told_as_lost() -> None:
    """HEX-6, HEX-9: the caption said "ola lost W6" of a piece that only moved away from W6.
    A player who moved is told where he is now; a piece destroyed by the mover is still told
    as its owner's loss (HEX-14)."""
    before = position({"ola": ["W6"], "red": ["T10"]}, players=("ola", "red"), turn="ola")
    after, _ = GAME.apply(
        copy.deepcopy(before), "ola", {"type": "move", "figure": "W6", "dir": "NW", "steps": 1}
    )
    caption = GAME.render_set(after, None, None, before)[0].caption
    assert "ola now on V6" in caption and "lost" not in caption
    regroup = position({"ola": ["W6", "W7"]}, players=("ola", "red"), turn="ola")
    after, _ = GAME.apply(
        copy.deepcopy(regroup), "ola", {"type": "regroup", "from": "W6", "to": "V7"}
    )
    caption = GAME.render_set(after, None, None, regroup)[0].caption
    assert "ola now on V7" in caption and "lost" not in caption
    swept = position({"ola": ["W6"], "red": ["V6"]}, players=("ola", "red"), turn="ola")
    after, _ = GAME.apply(
        copy.deepcopy(swept), "ola", {"type": "move", "figure": "W6", "dir": "NW", "steps": 2}
    )
    caption = GAME.render_set(after, None, None, swept)[0].caption
    assert "ola now on U6" in caption and "red lost V6" in caption and "ola lost" not in caption
