"""The catalogs' words for tokens and sites, as a play-tester read them (2026-12):
"alice активирует жетон на F7: ложная." (the fake did not agree with "жетон"), and the picture
caption "alice готовит площадки на R12" for one site."""

from __future__ import annotations

import copy

import pytest

from bot.i18n import translator
from engine.core.picture import Words
from engine.iec import GAME
from engine.iec.picture_story import caption, changes

from .helpers import add, empty


def _activated(lang: str, real: bool) -> str:
    st, _ = empty(2)
    event = {"type": "token_activated", "player": "alice", "cell": "F7", "real": real}
    line = GAME.describe_event(st, {**event, "revealed": True}, translator(lang))
    assert line is not None
    return line


def test_a_fake_token_agrees_with_the_token_in_russian() -> None:
    """ "жетон" is masculine: "…: ложный." or the mine itself, "…: ложная мина." (as a real
    one reads "…: настоящая мина.")."""
    fake = _activated("ru", real=False)
    assert fake.startswith("alice активирует жетон на F7: "), fake
    assert fake.endswith((": ложный.", ": ложная мина.")), fake
    assert _activated("ru", real=True) == "alice активирует жетон на F7: настоящая мина."


@pytest.mark.parametrize("lang", ["ru", "pl", "zh_Hant"])
def test_a_fake_and_a_real_token_read_apart(lang: str) -> None:
    assert _activated(lang, False) != _activated(lang, True)
    assert "a fake" not in _activated(lang, False)


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("ru", "готовит площадку на H9", "готовит площадки на H9, J9"),
        ("pl", "przygotowuje plac budowy na H9", "przygotowuje place budowy na H9, J9"),
    ],
    ids=["ru", "pl"],
)
def test_the_caption_says_one_site_in_the_singular(lang: str, one: str, two: str) -> None:
    st, (p1, p2) = empty(2)
    add(st, p1, "reactor", "C3")
    before = copy.deepcopy(st)
    st["sites"]["H9"] = p2
    view, previous = GAME.view(st, None), GAME.view(before, None)
    words = Words(translator(lang))
    assert f"{p2} {one}" in caption(words, view, changes(view, previous).told)
    st["sites"]["J9"] = p2
    view = GAME.view(st, None)
    assert f"{p2} {two}" in caption(words, view, changes(view, previous).told)


def test_the_laid_tokens_line_says_one_token_in_the_singular_in_russian() -> None:
    st, _ = empty(2)
    event = {"type": "tokens_laid", "player": "bob", "paid": "E3", "private_to": "bob"}
    t = translator("ru")
    assert GAME.describe_event(st, {**event, "cells": ["H7"]}, t) == "bob выкладывает жетон на H7."
    three = GAME.describe_event(st, {**event, "cells": ["C5", "D4", "D6"]}, t)
    assert three == "bob выкладывает жетоны на D4, C5, D6."
