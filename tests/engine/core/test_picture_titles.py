"""Every game's picture title, in every language, for every phase and turn or round number, is
drawn whole at the picture's width: a size smaller or on two lines, never cut with an ellipsis
(a play-tester saw 'Tura 3 · faza 6: przygotowanie placów budo…' on an IEC picture)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot.i18n import LANGUAGES, translator
from engine.core.picture import NAME, TITLE, WIDTH, Words, needs_cjk, text_width, title_lines
from engine.hexania import render as hexania_render
from engine.iec import render_panel as iec_panel
from engine.iec.model import param
from engine.iec.rules import PHASE_NAMES
from engine.powergrid.render import panel as pg_panel
from engine.powergrid.render import words as W
from engine.registry import get

PANEL_W = WIDTH - 2 * 24  # every game's panel has 24 px either side
TitleFn = Callable[[Words, dict[str, Any]], str]


def _iec(state: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for turn in range(1, int(param(state, "turns")) + 1):
        for phase in PHASE_NAMES:
            yield {"turn": turn, "phase": phase}


def _powergrid(state: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for rnd in range(1, 41):  # a game ends in far fewer rounds
        for step in (1, 2, 3):
            for phase in W.PHASE:
                yield {"round": rnd, "step": step, "phase": phase}


def _hexania(state: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for rounds in (0, 1, 30, 999, 1000):  # the option: off, or 1..1000 (HEX-2.6)
        for rnd in range(1, max(rounds, 30) + 1):
            yield {"round": rnd, "rounds": rounds}


GAMES: dict[str, tuple[TitleFn, Callable[[dict[str, Any]], Iterator[dict[str, Any]]]]] = {
    "iec": (iec_panel.title, _iec),
    "powergrid": (pg_panel.title, _powergrid),
    "powergrid_alt": (pg_panel.title, _powergrid),  # the same panel header
    "hexania": (hexania_render.title, _hexania),
}


def _widest(game_id: str, lang: str) -> tuple[dict[str, Any], str]:
    """The game's view with its widest title in `lang`, and the title."""
    game = get(game_id)
    state = game.setup(["Ann", "Bot"], {}, 1)
    title, variants = GAMES[game_id]
    w = Words(translator(lang))
    best = max(variants(state), key=lambda ch: text_width(title(w, ch), TITLE, True))
    view = {**game.view(state, None), **best}
    return view, title(w, view)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_title_fits_whole(game_id: str, lang: str) -> None:
    game = get(game_id)
    state = game.setup(["Ann", "Bot"], {}, 1)
    title, variants = GAMES[game_id]
    w = Words(translator(lang))
    for change in variants(state):
        text = title(w, change)
        size, lines = title_lines(text, PANEL_W)
        assert NAME <= size <= TITLE and len(lines) <= 2, text
        assert all(text_width(line, size, True) <= PANEL_W for line in lines), text
        # broken at spaces (CJK anywhere), nothing left out
        assert ("" if needs_cjk(text) else " ").join(lines) == text, (text, lines)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_widest_title_is_drawn_whole(game_id: str, lang: str) -> None:
    """The picture draws the widest title as `title_lines` lays it out, no ellipsis."""
    view, text = _widest(game_id, lang)
    render = importlib.import_module(get(game_id).render_module)  # type: ignore[attr-defined]
    pics = render.render_set(view, None, t=translator(lang))
    labels = [lab for p in pics for lab in p.labels]
    size, lines = title_lines(text, PANEL_W)
    for line in lines:
        assert any(lab.text == line and lab.size == size for lab in labels), (line, size)
    assert not any(lab.text.endswith("…") and text.startswith(lab.text[:-1]) for lab in labels)


def test_the_polish_site_preparation_title_is_whole() -> None:
    """The play-tester's title: a size smaller, on one line."""
    w = Words(translator("pl"))
    text = iec_panel.title(w, {"turn": 3, "phase": 6})
    assert text == "Tura 3 · faza 6: przygotowanie placów budowy"
    assert title_lines(text, PANEL_W) == (TITLE - 1, [text])
