"""IEC pictures: one phone picture, hidden tokens hidden, new buildings and tokens marked."""

from __future__ import annotations

import copy
import io

from PIL import Image

from engine.core.picture import CHANGE, HILITE
from engine.iec import GAME

from .helpers import add, at, empty


def _rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _colours(pics: list) -> dict[tuple[int, ...], int]:
    out: dict[tuple[int, ...], int] = {}
    for p in pics:
        for n, c in _rgb(p.png).getcolors(1 << 20) or []:
            assert isinstance(c, tuple)  # an RGB picture's colours are triples
            out[c] = out.get(c, 0) + n
    return out


def _state() -> tuple[dict, list[str]]:
    st, names = empty(2)
    add(st, names[0], "reactor", "C3")
    add(st, names[0], "storage", "D3", goods={"A": 2})
    add(st, names[1], "mine", "T12", powered=False)
    st["tokens"] = [
        {"id": 1, "owner": names[0], "cell": "F5", "up": False, "real": True},
        {"id": 2, "owner": names[1], "cell": "G5", "up": False, "real": False},
    ]
    return at(st, 9, names[0]), names


def test_iec_picture_fits_a_phone_with_map_and_panel_in_one() -> None:
    st, names = _state()
    pics = GAME.render_set(st, names[0])
    assert len(pics) == 1
    img = Image.open(io.BytesIO(pics[0].png))
    assert img.mode == "P" and img.width == 720 and img.height <= 1440
    labels = pics[0].label_texts()
    assert {"A", "X", "1", "16"} <= set(labels)  # column letters and row numbers to type cells
    assert f"{names[0]} to act" in labels and f"Radiation: {st['radiation']}" in labels
    assert HILITE in _colours(pics)
    assert GAME.render_set(st, names[0])[0].png == pics[0].png


def test_iec_s26_hidden_facts_stay_hidden() -> None:
    """IEC-S-26: another player's face-down token and secret technologies are not shown."""
    st, names = _state()
    st["players"][names[1]]["techs"] = ["T1", "T2"]
    st["players"][names[1]]["revealed"] = ["T1"]
    mine = GAME.render_set(st, names[0])[0]
    theirs = GAME.render_set(st, names[1])[0]
    assert mine.png != theirs.png  # each sees its own token's truth only
    text = " ".join(mine.label_texts())
    assert "1 + 1 hidden" in text and "T2" not in text
    assert "Storage D3: 2A" in text  # the viewer's own storage
    assert "Storage" not in " ".join(theirs.label_texts())


def test_new_buildings_and_tokens_are_marked_and_told() -> None:
    st, names = _state()
    before = copy.deepcopy(st)
    add(st, names[1], "laboratory", "R3")
    st["tokens"].append({"id": 3, "owner": names[0], "cell": "H7", "up": False, "real": True})
    assert CHANGE not in _colours(GAME.render_set(st, names[0]))
    marked = GAME.render_set(st, names[0], None, before)
    assert _colours(marked).get(CHANGE, 0) > 50
    cap = marked[0].caption
    assert f"{names[1]} built on R3" in cap and f"{names[0]} laid tokens on H7" in cap


def test_iec_s9_game_over_picture_names_the_ranked_winner_not_the_first_seat() -> None:
    """IEC-S-9: the winner has most VP (ties: intact modules, then science); the picture and
    its caption name the same winner as "Game over. Ranking: ..." (rules.result), even when he
    is not first in seat order."""
    from engine.iec import rules

    st, names = _state()
    first, second = names
    st["players"][first]["vp"], st["players"][second]["vp"] = 3, 9
    st["over"], st["actor"] = True, None
    assert rules.result(st)[0] == [second]
    for viewer in (first, second, None):
        pic = GAME.render_set(st, viewer)[0]
        assert f"Game over: {second} won" in pic.label_texts()
        assert f"Game over: {second} won" in pic.caption
        assert f"Game over: {first} won" not in pic.caption + " ".join(pic.label_texts())
    # A VP tie goes to intact modules (IEC-S-9): the second seat has more.
    st["players"][first]["vp"] = 9
    for cell in ("T10", "V14", "R8"):
        add(st, second, "reactor", cell)
    assert rules.result(st)[0] == [second]
    assert f"Game over: {second} won" in GAME.render_set(st, first)[0].caption


def test_the_caption_of_a_phase_asked_at_once_with_one_player_left_names_him_next() -> None:
    """Found playing (2026-12-02): with one player left of those asked at once the caption
    read "piotr decide at once"."""
    from engine.core.picture import Words
    from engine.iec.render import _caption

    st, names = _state()
    view = {**GAME.view(st, None), "actor": None}
    alone = _caption(Words(None), {**view, "actors": names[:1]}, {}, {})
    assert f" — {names[0]} is next" in alone and "at once" not in alone, alone
    both = _caption(Words(None), {**view, "actors": names[:2]}, {}, {})
    assert f" — {names[0]}, {names[1]} decide at once" in both, both
