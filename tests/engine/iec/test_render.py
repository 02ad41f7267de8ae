"""IEC pictures: one phone picture, hidden tokens hidden, new buildings and tokens marked, a
legend for every terrain kind and mark drawn, the panel in turn order with public storages and
deposit yields."""

from __future__ import annotations

import copy
import io
from unittest import mock

import pytest
from PIL import Image

from bot.i18n import LANGUAGES, translator
from engine.core.picture import CHANGE, HILITE, SEAT_SHAPES, Words
from engine.iec import GAME, render_map, render_marks

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
    assert "Storages: D3: 2A" in text  # the viewer's own storage
    theirs_text = " ".join(theirs.label_texts())
    assert "Storages: D3: 2A" in theirs_text  # another's too: public, IEC-S-26
    assert "real mine (only you see it)" in text
    assert "real mine (only you see it)" not in theirs_text  # his own token is a fake


def test_new_buildings_and_tokens_are_marked_and_told() -> None:
    st, names = _state()
    before = copy.deepcopy(st)
    add(st, names[1], "laboratory", "R3")
    st["tokens"].append({"id": 3, "owner": names[0], "cell": "H7", "up": False, "real": True})
    assert CHANGE not in _colours(GAME.render_set(st, names[0]))
    marked = GAME.render_set(st, names[0], None, before)
    assert _colours(marked).get(CHANGE, 0) > 50
    cap = marked[0].caption
    assert f"{names[1]} built on R3" in cap and f"{names[0]} laid a token on H7" in cap


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
    from engine.iec.picture_story import caption

    st, names = _state()
    view = {**GAME.view(st, None), "actor": None}
    alone = caption(Words(None), {**view, "actors": names[:1]}, {})
    assert f" — {names[0]} is next" in alone and "at once" not in alone, alone
    both = caption(Words(None), {**view, "actors": names[:2]}, {})
    assert f" — {names[0]}, {names[1]} decide at once" in both, both


def _text(pic: object) -> str:
    """A picture's labels as one text, no-break spaces read as spaces."""
    return " ".join(pic.label_texts()).replace("\u00a0", " ")  # type: ignore[attr-defined]


def test_iec_s4_the_legend_names_each_terrain_kind_and_the_map_names_each_area() -> None:
    """IEC-S-4 / IEC-S-5: plain, liquid, steep, toxic, the home deposit (with what it yields),
    the deposit areas and the seismic cells are each explained; every area's name is on it."""
    st, names = _state()
    pic = GAME.render_set(st, names[0])[0]
    text = _text(pic)
    for words in (
        "plain: buildable",
        "liquid: not buildable",
        "steep: not buildable",
        "toxic: not buildable",
        "home deposit: A 3+, B 3+, C 4+",
        "deposit areas, classes I, II, III",
        "seismic: buildings may lose modules",
    ):
        assert words in text, words
    labels = pic.label_texts()
    for area in ("I-NW", "I-NE", "I-SW", "I-SE", "II-N", "II-S", "III-C"):
        assert area in labels, area  # drawn on its block, a label of its own


def test_the_legend_explains_every_mark_drawn_and_only_those() -> None:
    st, names = _state()
    before = copy.deepcopy(st)
    marks = {
        "not powered this turn",  # T12, a mine left unpowered
        "face-down token: real mine or fake",  # the other's token on G5
        "real mine (only you see it)",  # the viewer's own on F5
    }
    text = _text(GAME.render_set(st, names[0])[0])
    for words in marks:
        assert words in text, words
    for words in (
        "white in the bar: missing modules",
        "prepared site",
        "face-up real mine",
        "changed since the last picture",
    ):
        assert words not in text, words  # nothing of the kind on the map
    add(st, names[1], "laboratory", "R3", modules=1)
    st["sites"]["H9"] = names[0]
    st["tokens"][1]["up"] = True
    text = _text(GAME.render_set(st, names[0], None, before)[0])
    for words in (
        *marks - {"face-down token: real mine or fake"},
        "white in the bar: missing modules",
        "prepared site",
        "face-up real mine",
        "changed since the last picture",
    ):
        assert words in text, words


def test_iec_s5_the_panel_says_what_each_found_deposit_yields_as_the_chat_does() -> None:
    """The chat says "Area I-NW holds deposit I-3: C 3+."; the panel said "I-NW I-3"."""
    from engine.core import EnglishTranslator
    from engine.iec.lines import describe

    st, names = _state()
    st["areas"]["I-NW"]["deposit"] = "I-3"
    st["areas"]["II-N"]["deposit"] = "II-4"
    chat = describe(
        st, {"type": "deposit_revealed", "area": "I-NW", "deposit": "I-3"}, EnglishTranslator()
    )
    assert chat == "Area I-NW holds deposit I-3: C 3+."
    text = _text(GAME.render_set(st, names[0])[0])
    assert "I-NW: C 3+" in text and "II-N: A 2+, C 2+" in text and "I-SE: unknown" in text
    assert "I-3" not in text and "II-4" not in text


def test_iec26_the_panel_lists_the_players_in_turn_order() -> None:
    """The chat's "Order: ..." is the turn order (IEC-26, VP first); the panel listed seats."""
    st, names = empty(3)
    st["order"] = [names[2], names[0], names[1]]
    pic = GAME.render_set(at(st, 9, names[2]), names[0])[0]
    seen = [lab.split(" (")[0] for lab in pic.label_texts() if lab.split(" (")[0] in names]
    assert seen == st["order"], seen
    # an eliminated company, out of the order, comes last
    st["players"][names[2]]["eliminated"] = True
    st["players"][names[2]]["final_vp"] = 0
    st["order"] = [names[1], names[0]]
    pic = GAME.render_set(at(st, 9, names[1]), None)[0]
    seen = [lab for lab in pic.label_texts() if lab in names]
    assert seen == [names[1], names[0], names[2]], seen


def test_a_mine_turned_up_a_moved_token_and_a_new_site_are_marked_and_told() -> None:
    """The change colour marks what mine activation, relocation and site preparation change,
    as it marks builds (found playing: a mine activated at T4 got no frame)."""
    st, names = _state()
    before = copy.deepcopy(st)
    st["tokens"][1]["up"] = True  # the other's token on G5, activated: a real mine
    st["tokens"][1]["real"] = True
    turned = GAME.render_set(st, names[0], None, before)
    assert _colours(turned).get(CHANGE, 0) > 50
    assert f"{names[1]} turned up a token on G5" in turned[0].caption
    st, _ = _state()
    st["tokens"][0]["cell"] = "H7"
    moved = GAME.render_set(st, names[0], None, before)
    assert _colours(moved).get(CHANGE, 0) > 50
    assert f"{names[0]} moved a token to H7" in moved[0].caption
    st, _ = _state()
    st["sites"]["H9"] = names[1]
    site = GAME.render_set(st, names[0], None, before)
    assert _colours(site).get(CHANGE, 0) > 50
    assert f"{names[1]} prepared a site on H9" in site[0].caption
    assert CHANGE not in _colours(GAME.render_set(before, names[0], None, before))


def _letter_box(st: dict, cell: str) -> tuple[int, int, int, int]:
    """The pixels of the building letter on `cell` (render_marks.draw_letter: centred in the cell
    above the module bar), one pixel of margin round the glyph."""
    from engine.core.picture import NUMBER, Words, font_for
    from engine.iec.render_map import Map

    m = Map(GAME.view(st, None))
    x0, y0 = m.xy(cell)
    letter, _ = render_marks.letter_name(Words(None), st["buildings"][cell]["kind"])
    cx, cy = round(x0 + m.cell / 2), round(y0 + (m.cell - 5) / 2)
    left, top, right, bottom = font_for(letter, NUMBER, True).getbbox(letter, anchor="mm")
    return (
        int(cx + left - 1),
        int(cy + top - 1),
        int(cx + right + 1),
        int(cy + bottom + 1),
    )


@pytest.mark.parametrize("seat", range(4), ids=list(SEAT_SHAPES[:4]))  # the token's shape
@pytest.mark.parametrize("up", [True, False])
@pytest.mark.parametrize(
    "kind",
    ["reactor", "mine", "storage", "mixer", "laboratory", "transmitter", "developer", "launcher"],
)
def test_a_token_on_a_buildings_cell_leaves_its_letter_readable(
    kind: str, up: bool, seat: int
) -> None:
    """Found playing: a face-up mine drawn on a cell with a building covered the building's
    letter. On a building's cell the token is smaller, over the cell's corner, off the letter
    (the widest letters, M and W, too), face up or down, at the phone width of 720 px: no
    pixel of the letter changes, and beside it the token draws its white edge at most (a
    square token's corner comes that near W's top right); the change mark round a new token
    nicks a pixel of W's corner at most."""
    st, names = empty(4)
    owner = names[seat]
    add(st, names[(seat + 1) % 4], kind, "H6")
    at(st, 9, names[0])
    before = copy.deepcopy(st)
    bare = _rgb(GAME.render_set(st, owner)[0].png)
    st["tokens"] = [{"id": 1, "owner": owner, "cell": "H6", "up": up, "real": True}]
    marked = _rgb(GAME.render_set(st, owner)[0].png)
    box = _letter_box(st, "H6")
    assert bare.width == 720
    with mock.patch.object(render_map, "draw_letter", lambda *_a, **_k: None):
        plain = _rgb(GAME.render_set(before, owner)[0].png)  # no letter: the box's shape
    inside = [(x, y) for x in range(box[0], box[2]) for y in range(box[1], box[3])]
    glyph = [xy for xy in inside if bare.getpixel(xy) != plain.getpixel(xy)]
    assert [xy for xy in glyph if marked.getpixel(xy) != bare.getpixel(xy)] == []
    ink = set(glyph)
    touching = [
        (x, y)
        for x, y in inside
        if marked.getpixel((x, y)) != bare.getpixel((x, y))
        and any((x + dx, y + dy) in ink for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    ]
    # the white edge, the letter's soft rim over it a shade greyer
    light = [marked.getpixel(xy) for xy in touching]
    assert all(isinstance(c, tuple) and min(c) >= 200 for c in light), touching
    assert marked.tobytes() != bare.tobytes()  # the token is drawn all the same
    new = _rgb(GAME.render_set(st, owner, None, before)[0].png)  # ringed: laid since
    hit = [xy for xy in glyph if new.getpixel(xy) != bare.getpixel(xy)]
    assert len(glyph) > 50 and len(hit) <= 1, (len(glyph), hit)


def _storages(st: dict, owner: str, cells: list[str]) -> None:
    for i, cell in enumerate(cells):
        add(st, owner, "storage", cell, goods={"AC": 1} if i == 3 else {"B": i + 1})


def test_iec_s26_every_companys_storages_are_listed_each_apart() -> None:
    """Found reviewing pictures: another company's storages were summed into one line
    though their contents are public (IEC-S-26) and which one holds AC matters (IEC-S-21),
    and the viewer's own fourth storage was cut off unsaid."""
    st, names = empty(2)
    at(st, 9, names[0])
    _storages(st, names[1], ["C10", "D10", "E10", "F10"])
    for viewer in (None, names[0], names[1]):
        text = " ".join(GAME.render_set(st, viewer)[0].label_texts())
        assert "Storages: C10: 1B · D10: 2B · E10: 3B · F10: 1AC" in text, viewer


def test_storages_beyond_the_panels_room_are_counted_never_dropped_unsaid() -> None:
    from engine.core.picture import MAX_HEIGHT, WIDTH
    from engine.iec.picture_story import changes
    from engine.iec.render_map import Map
    from engine.iec.render_panel import STORAGE_LINES, Legend, Panel, _storage_lines
    from engine.iec.scenario import load

    st, names = empty(4)
    at(st, 9, names[0])
    scen = load(st["scenario"])
    cells = list(scen.cells)[: 4 * 30]  # 30 storages each: more than the panel has room for
    assert len(cells) == 120
    for k, p in enumerate(names):
        _storages(st, p, cells[k * 30 : (k + 1) * 30])
    pics = GAME.render_set(st, names[0])
    view, w = GAME.view(st, names[0]), Words(None)
    legend = Legend(view, names[0], Map(view), w, changes(view, None))
    panel = Panel(view, names[0], w, legend)
    assert panel.draw(None, 24, 10, WIDTH - 48) + 16 <= MAX_HEIGHT  # nothing cut off
    for p in names:
        width = WIDTH - 2 * 24 - 30  # the panel's, less the swatch
        mine = _storage_lines(Words(None), GAME.view(st, None), p, width)
        assert len(mine) == STORAGE_LINES
        assert mine[-1].endswith(" more")
        shown = sum(line.count(":") for line in mine) - 1  # "Storages:" and one per storage
        more = int(mine[-1].rsplit("+", 1)[1].split()[0])
        assert shown + more == 30
        assert set(mine) <= {x for pic in pics for x in pic.label_texts()}  # drawn whole


# Letters a reader takes for a digit on a map square of row numbers: Cyrillic З is a 3 (found
# reviewing Russian pictures, 2026-12: the developer's "З" on a 24 px square read as a three),
# O/О/Ο a 0, I/l/І a 1, б/Б a 6, B/В an 8, Ч a 4.
DIGIT_LIKE = set("0OОΟoоQ1IlІі|3ЗзЭэ6бБ8BВ4Ч")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_building_letters_are_unique_and_none_reads_as_a_digit(lang: str) -> None:
    w = Words(None if lang == "en" else translator(lang))
    letters = [render_marks.letter_name(w, kind)[0] for kind in render_marks.KIND]
    assert len(set(letters)) == len(letters), letters
    assert not [x for x in letters if set(x) & DIGIT_LIKE], letters
