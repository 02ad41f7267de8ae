"""Ideas the variant's rules, legal moves, forced moves and bots share, written once (issue 26):
where a new line may start (ALT-22, ALT-28), and the /hint words both rules give."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import EnglishTranslator
from engine.core.search import Arm, Decision
from engine.powergrid.strong import auction_reason, odds_reason
from engine.powergrid_alt import rules as r
from engine.powergrid_alt import strong as alt_strong

from .helpers import give_line, give_plant, give_tp, new_game


def test_alt22_alt28_a_line_starts_at_own_cities_then_at_own_hanging_ends() -> None:
    state = new_game(2)
    give_plant(state, "a", 4, "Stuttgart")
    give_tp(state, "a", "Freiburg")
    give_line(state, "a", "Freiburg", "Stuttgart")
    give_line(state, "b", "Würzburg", "Stuttgart")  # b holds nothing: hangs, but not a's
    assert r.line_starts(state, "a") == ["Stuttgart", "Freiburg"]
    state["tps"]["Freiburg"].remove("a")  # the TP displaced (ALT-15): the end now hangs
    state["players"]["a"]["cities"].remove("Freiburg")
    assert r.line_starts(state, "a") == ["Stuttgart", "Freiburg"]
    assert r.line_starts(state, "b") == ["Stuttgart", "Würzburg"]


def test_the_hint_words_for_bidding_and_the_odds_line_are_one_text() -> None:
    t = EnglishTranslator()
    state: dict[str, Any] = {"auction": {"plant": 13}}
    assert auction_reason(state, {"type": "open", "plant": 13, "bid": 15}, t) == (
        "Open plant 13 at 15 E: it powers 1 city"
    )
    assert auction_reason(state, {"type": "raise", "bid": 16}, t) == (
        "Raise to 16 E: plant 13 is worth it"
    )
    assert auction_reason(state, {"type": "line", "cities": []}, t) is None
    action = {"type": "done"}
    decision = Decision(action=action, arms=[Arm(action, [1.0, 0.0])], iterations=2)
    assert odds_reason(decision, t) == "/done: 50% to win in the simulations"


def test_an_upgrade_hint_names_the_plant_it_replaces(monkeypatch: pytest.MonkeyPatch) -> None:
    """ALT-20: an upgrade replaces a built plant; the hint said "Build plant 23" for it."""
    upgrade = {"type": "upgrade", "old": 11, "new": 23}
    decision = Decision(action=upgrade, arms=[Arm(upgrade, [1.0])], iterations=1)
    monkeypatch.setattr(alt_strong, "decide", lambda *args, **kwargs: decision)
    _, why = alt_strong.hint(new_game(), "p1", EnglishTranslator())
    assert why == "Replace plant 11 by 23: it powers 3 cities"
