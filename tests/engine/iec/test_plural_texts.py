"""Lines and picture captions that list cells or tokens say one in the singular (found
play-testing, 2026-12: the caption read "alice prepared sites on R12", in Russian "alice готовит
площадки на R12", for one site; the chat said "bob lays tokens on H7" for one token). Each is a
plural message (NP_) whose form the number of items chooses, so every catalog words both."""

from __future__ import annotations

import copy
from typing import Any

from engine.core import EnglishTranslator
from engine.core.picture import Words
from engine.iec import GAME
from engine.iec.picture_story import caption, changes

from .helpers import add, empty

T = EnglishTranslator()


class Counting(EnglishTranslator):
    """English, with every plural form marked by the count it was chosen for: shows that a
    text went through ngettext (so a catalog can word each form), with which count."""

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"[{n}]" + super().ngettext(singular, plural, n)


def _state() -> tuple[dict[str, Any], list[str]]:
    st, names = empty(2)
    add(st, names[0], "reactor", "C3")
    add(st, names[1], "reactor", "T12")
    st["tokens"] = [
        {"id": 1, "owner": names[0], "cell": "F5", "up": False, "real": True},
        {"id": 2, "owner": names[1], "cell": "G5", "up": False, "real": False},
        {"id": 3, "owner": names[1], "cell": "G6", "up": False, "real": True},
    ]
    st["next_token"] = 4
    return st, names


def _caption(st: dict[str, Any], before: dict[str, Any], t: Any = None) -> str:
    view, previous = GAME.view(st, None), GAME.view(before, None)
    return caption(Words(t), view, changes(view, previous).told)


def test_the_caption_tells_one_site_or_token_in_the_singular() -> None:
    st, (p1, p2) = _state()
    before = copy.deepcopy(st)
    st["sites"]["H9"] = p2
    st["tokens"].append({"id": 4, "owner": p1, "cell": "H7", "up": False, "real": False})
    st["tokens"][1]["up"] = True  # p2's token on G5 activated
    st["tokens"][0]["cell"] = "F6"  # p1's token relocated
    cap = _caption(st, before)
    assert f"{p2} prepared a site on H9" in cap, cap
    assert f"{p1} laid a token on H7" in cap, cap
    assert f"{p2} turned up a token on G5" in cap, cap
    assert f"{p1} moved a token to F6" in cap, cap
    assert "sites" not in cap and "tokens" not in cap, cap


def test_the_caption_tells_several_sites_or_tokens_in_the_plural() -> None:
    st, (p1, p2) = _state()
    before = copy.deepcopy(st)
    st["sites"]["H9"] = st["sites"]["J9"] = p2
    st["tokens"] += [
        {"id": 4, "owner": p1, "cell": "H7", "up": False, "real": False},
        {"id": 5, "owner": p1, "cell": "H8", "up": False, "real": True},
    ]
    st["tokens"][1]["up"] = st["tokens"][2]["up"] = True
    cap = _caption(st, before)
    assert f"{p2} prepared sites on H9, J9" in cap, cap
    assert f"{p1} laid tokens on H7, H8" in cap, cap
    assert f"{p2} turned up tokens on G5, G6" in cap, cap


def test_the_caption_s_counted_texts_go_through_ngettext_with_the_number_of_cells() -> None:
    """A building is told alike for one cell or several ("built on"); the rest are plural
    messages, so a Russian catalog says "готовит площадку" for one site."""
    st, (p1, p2) = _state()
    before = copy.deepcopy(st)
    st["sites"]["H9"] = p2
    st["tokens"] += [
        {"id": 4, "owner": p1, "cell": "H7", "up": False, "real": False},
        {"id": 5, "owner": p1, "cell": "H8", "up": False, "real": True},
    ]
    add(st, p1, "mine", "D5", modules=1)
    cap = _caption(st, before, Counting())
    assert f"[1]{p2} prepared a site on H9" in cap, cap
    assert f"[2]{p1} laid tokens on H7, H8" in cap, cap
    assert f"; {p1} built on D5" in cap or f". {p1} built on D5" in cap, cap


def _laid(cells: list[str], real: list[str]) -> dict[str, Any]:
    return {
        "type": "tokens_laid",
        "player": "p1",
        "cells": cells,
        "paid": "E3",
        "private_to": "p1",
        "secret": {"real": real},
    }


def test_the_laid_tokens_line_says_one_token_in_the_singular() -> None:
    st, _ = _state()
    assert GAME.describe_event(st, _laid(["H7"], ["H7"]), T) == "p1 lays a token on H7."
    three = _laid(["H6", "H7", "H8"], ["H7"])
    assert GAME.describe_event(st, three, T) == "p1 lays tokens on H6, H7, H8."
    # row by row, as the Activate buttons list them (the event keeps them sorted by name)
    rows = _laid(["Q9", "R9", "T8"], ["Q9"])
    assert GAME.describe_event(st, rows, T) == "p1 lays tokens on T8, Q9, R9."
    line = GAME.describe_event(st, _laid(["H7"], ["H7"]), Counting())
    assert line == "[1]p1 lays a token on H7."


def test_the_owner_s_line_counts_his_real_mines() -> None:
    """Two real mines at once with Total Mine War (IEC-TECH-18)."""
    st, _ = _state()
    one = GAME.describe_private_event(st, _laid(["H6", "H7"], ["H7"]), T)
    assert one == "Only you know: your real mine is on H7."
    two = GAME.describe_private_event(st, _laid(["H6", "H7"], ["H6", "H7"]), T)
    assert two == "Only you know: your real mines are on H6, H7."


def test_the_swept_line_counts_the_tokens_swept() -> None:
    """IEC-TECH-19: the tokens of every player on one cell."""
    st, _ = _state()
    event: dict[str, Any] = {"type": "swept", "player": "p1", "cell": "G5", "revealed": True}
    one = {**event, "tokens": [{"owner": "p2", "real": False}]}
    assert GAME.describe_event(st, one, T) == "p1 sweeps the token from G5."
    two = {**event, "tokens": [{"owner": "p2", "real": False}, {"owner": "p1", "real": True}]}
    assert GAME.describe_event(st, two, T) == "p1 sweeps the tokens from G5."


def test_a_declared_placement_counts_its_real_mines_and_fakes() -> None:
    """Rules version 2: the owner's line of a declared /lay ("fakes on C5" for one fake)."""
    st, _ = _state()
    declared = {"type": "declared", "player": "p1", "phase": 5, "private_to": "p1"}
    st["turn"], st["phase"] = 1, 5

    def said(real: list[str], fake: list[str]) -> str:
        action = {"type": "lay", "real": real, "fake": fake}
        line = GAME.describe_private_event(
            st, {**declared, "turn": 1, "secret": {"action": action}}, T
        )
        assert line is not None
        return line

    assert "real mine on E2 (" in said(["E2"], [])
    assert "real mines on E2, E3 (" in said(["E2", "E3"], [])
    assert "real mine on E2, a fake on F3 (" in said(["E2"], ["F3"])
    assert "real mine on E2, fakes on F3, F4 (" in said(["E2"], ["F3", "F4"])
    assert "real mines on E2, E3, a fake on F3 (" in said(["E2", "E3"], ["F3"])
