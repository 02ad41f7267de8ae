"""Hexania pictures, as a playtester read them: the caption says what happened (HEX-14,
HEX-17), no cell id is clipped at the seam of two map parts, and a legend explains the marks."""

from __future__ import annotations

import copy
import io
from typing import Any

from PIL import Image

from bot.i18n import LANGUAGES, translator
from engine.hexania import GAME
from engine.hexania.render import in_play
from tests.engine.hexania.helpers import finish_turn, position

PLAYERS = ("wei", "boris", "piotr")


def _round_two() -> list[dict[str, Any]]:
    """The playtester's round: piotr `/move Q5 E 8` destroys boris's Q13; wei moves A9 SE 2;
    boris `/move Q18 W 5` and `/grow Q13 Q12` destroy piotr's Q13 and Q12. The states at the
    round's start and after each player's turn."""
    start = position(
        {"piotr": ["Q4", "Q5"], "boris": ["Q13", "Q18", "P19"], "wei": ["A5", "A6", "B6", "A9"]},
        players=PLAYERS,
        sides=("N", "SE", "SW"),
        turn="piotr",
    )
    start["round"] = 2
    s = copy.deepcopy(start)
    s, _ = GAME.apply(s, "piotr", {"type": "move", "figure": "Q5", "dir": "E", "steps": 8})
    after_piotr, _ = finish_turn(s, "piotr")
    s = copy.deepcopy(after_piotr)
    s["turn"]["points"] = 12
    s, _ = GAME.apply(s, "wei", {"type": "move", "figure": "A9", "dir": "SE", "steps": 2})
    after_wei, _ = finish_turn(s, "wei")
    s = copy.deepcopy(after_wei)
    s["turn"]["points"] = 12
    s, _ = GAME.apply(s, "boris", {"type": "move", "figure": "Q18", "dir": "W", "steps": 5})
    s, _ = GAME.apply(s, "boris", {"type": "grow", "figure": "Q13", "cell": "Q12"})
    after_boris, _ = finish_turn(s, "boris")
    return [start, after_piotr, after_wei, after_boris]


def _caption(state: dict[str, Any], before: dict[str, Any]) -> str:
    return str(GAME.render_set(state, None, None, before)[0].caption)


def test_hex14_the_caption_names_the_destroyed_piece_and_its_attacker() -> None:
    start, after_piotr, after_wei, after_boris = _round_two()
    caption = _caption(after_piotr, start)
    assert "boris lost Q13 to piotr" in caption
    assert "piotr now on Q12, Q13" in caption and "piotr lost" not in caption
    caption = _caption(after_boris, after_wei)
    assert "piotr lost Q12, Q13 to boris" in caption
    assert "boris now on P14, Q12, Q13" in caption and "boris lost" not in caption


def test_hex6_a_cell_left_by_moving_is_not_lost_and_the_rounds_kills_are_counted() -> None:
    """The round's caption said "piotr lost Q4, Q5" (he moved off them) and named none of
    the three pieces destroyed. Where they died leaves no trace on the board (they arrived
    and were destroyed in the same round), so the caption says how many each player
    destroyed (HEX-17's books); every player is told where he is now, or, with nothing new,
    where he no longer is."""
    start, *_, after_boris = _round_two()
    caption = _caption(after_boris, start)
    assert "lost" not in caption
    assert "boris destroyed 2 pieces; piotr destroyed 1 piece" in caption
    assert "piotr no longer on Q4, Q5" in caption
    assert "wei now on C11" in caption and "boris now on P14, Q12" in caption


def test_hex17_the_caption_says_who_destroyed_the_pieces_in_every_language() -> None:
    """'Zniszczone pionki: boris — 2' (Pieces destroyed: 2 by boris) read as if boris had
    lost two pieces: the attacker is the subject of his count, in every language."""
    start, *_, after_boris = _round_two()
    said = {
        "en": "boris destroyed 2 pieces; piotr destroyed 1 piece",
        "ru": "boris уничтожает 2 фишки; piotr уничтожает 1 фишку",
        "pl": "boris niszczy 2 pionki; piotr niszczy 1 pionek",
        "zh_Hant": "boris 摧毀 2 顆棋子; piotr 摧毀 1 顆棋子",
    }
    for lang in LANGUAGES:
        caption = GAME.render_set(after_boris, None, translator(lang), start)[0].caption
        assert said[lang] in caption, caption
        assert "boris — 2" not in caption and "boris 2 顆" not in caption


def _map_parts(state: dict[str, Any], before: dict[str, Any] | None = None) -> list[Any]:
    pics = GAME.render_set(state, None, None, before)
    assert len(pics) > 2, "the test wants a map in parts"
    return pics[:-1]


def test_hex_g4_no_cell_is_cut_at_the_seam_of_two_map_parts() -> None:
    """Boris's Q12 read "Q1" at the seam, G12 "G1": a cell the part's edge would cut is left
    to the neighbouring part, which shows it whole; every cell in play is shown whole once."""
    start, *_, after_boris = _round_two()
    six = position(
        {"a": ["A5", "C7"], "b": ["E16", "H13"], "c": ["Q18"], "d": ["W6"], "e": ["P1"]},
        players=("a", "b", "c", "d", "e", "f"),
        turn="a",
    )
    for state, before in ((after_boris, start), (six, None)):
        parts = _map_parts(state, before)
        for pic in parts:
            img = Image.open(io.BytesIO(pic.png)).convert("RGB")
            background = max(img.getcolors(1 << 20) or [])[1]  # the most frequent colour
            for x in (0, img.width - 1):
                column = {img.getpixel((x, y)) for y in range(img.height)}
                assert column == {background}, f"a cell is cut at x={x}: {column}"
        shown = [lab.text for pic in parts for lab in pic.labels]
        assert in_play(GAME.view(state, None)) <= set(shown)


def _panel_labels(state: dict[str, Any], before: dict[str, Any] | None, t: Any = None) -> set:
    return {lab.text for lab in GAME.render_set(state, None, t, before)[-1].labels}


class _Marked:
    """A translator that marks every word it translates."""

    def gettext(self, message: str) -> str:
        return f"«{message}»"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"«{singular if n == 1 else plural}»"


def test_the_legend_explains_the_homeland_tint_and_the_change_marks() -> None:
    start, *_, after_boris = _round_two()
    first = _panel_labels(start, None)
    assert "homeland (births only here)" in first and "mass of a figure" in first
    assert "new piece since the last picture" not in first  # no change drawn, none explained
    labels = _panel_labels(after_boris, start)
    assert {
        "homeland (births only here)",
        "new piece since the last picture",
        "cell emptied since the last picture",
    } <= labels
    assert "«homeland (births only here)»" in _panel_labels(after_boris, start, _Marked())
