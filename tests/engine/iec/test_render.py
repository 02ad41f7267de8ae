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
