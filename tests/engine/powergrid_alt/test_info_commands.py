"""The variant's info commands (found playing: "/price oil 2", "/market", "/plants" answered
"Unknown command"): the base game's quotes where the rules agree (ALT-10 keeps the base
market, PG-31..PG-33), and no quote tells a secret declaration (version 2) or hidden money
(PG-9 option)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import EnglishTranslator, Reply
from engine.powergrid_alt import GAME
from tests.engine.powergrid_alt.helpers import (
    act,
    give_hand,
    give_plant,
    money,
    new_game,
    replied,
    set_phase,
)

_EN = EnglishTranslator()


def _purchase(version: str = "2", hidden: str = "yes") -> dict[str, Any]:
    state = new_game(3, rules_version=version, hidden_money=hidden)
    set_phase(state, "resources", order=["a", "b", "c"])
    give_plant(state, "a", 4, "Kiel", coal=1)
    give_hand(state, "a", 13)
    give_plant(state, "b", 10, "Hamburg")
    money(state, "a", 61)
    money(state, "b", 47)
    return state


def test_the_info_commands_are_declared() -> None:
    names = {spec.name for spec in GAME.commands}
    assert {"price", "market", "plants"} <= names
    for name in ("price", "market", "plants"):
        assert next(s for s in GAME.commands if s.name == name).kind == "quote"


def test_pg32_price_quotes_the_market_as_the_base_game() -> None:
    state = _purchase(version="1")
    reply = replied(state, "a", "price", ["coal", "2"])
    assert reply.text == "2 coal: 1+1 = 2 E" and not reply.private
    assert reply.extra["quote"] == {"total": 2, "available": 23, "prices": [1, 1]}


def test_pg32_version2_price_counts_the_askers_own_declarations_privately() -> None:
    """During the simultaneous purchase a player prices his next declaration as /buy checks
    it (after his own); the answer is his alone, and another's declarations never count."""
    state = _purchase()
    act(state, "a", {"type": "buy", "resource": "coal", "count": 2, "plant": 4})
    mine = replied(state, "a", "price", ["coal", "2"])
    assert mine.private and mine.text.startswith("2 coal: 2+2 = 4 E")
    theirs = replied(state, "b", "price", ["coal", "2"])
    assert theirs.private and theirs.text.startswith("2 coal: 1+1 = 2 E")
    # b's answer is the same whatever a declared (noninterference)
    other = _purchase()
    act(other, "a", {"type": "buy", "resource": "coal", "count": 1, "plant": 4})
    assert replied(other, "b", "price", ["coal", "2"]) == theirs


def test_market_lists_both_markets_without_the_declarations() -> None:
    state = _purchase()
    before = replied(state, "b", "market", [])
    act(state, "a", {"type": "buy", "resource": "coal", "count": 2, "plant": 4})
    after = replied(state, "b", "market", [])
    assert after == before and not after.private
    assert after.text.startswith("Current plants: ")
    assert "coal: 2 at 1, 3 at 2" in after.text


@pytest.mark.parametrize("hidden", ["yes", "no"])
def test_pg9_plants_shows_built_plants_hand_and_money_unless_hidden(hidden: str) -> None:
    state = _purchase(hidden=hidden)
    reply = GAME.parse(state, "a", "plants", [], _EN)
    assert isinstance(reply, Reply) and not reply.private
    lines = reply.text.splitlines()
    money_a = "?" if hidden == "yes" else "61 E"
    assert lines[0] == f"a ({money_a}, 1 city): built 4 coal 2→1 @Kiel (1 coal); hand 13 eco →1"
    assert lines[1].startswith("b (" + ("?" if hidden == "yes" else "47 E"))
    assert lines[2] == "c (" + ("?" if hidden == "yes" else "75 E") + ", 0 cities): built -; hand -"
    # PG-9: the asker's own copy (sent to him alone by the table) shows his money only
    if hidden == "no":
        assert reply.own is None
    else:
        assert reply.own is not None
        own = reply.own.splitlines()
        assert own[0].startswith("a (61 E, 1 city)") and own[1:] == lines[1:]


def test_pg9_plants_shows_every_money_once_the_game_is_over() -> None:
    state = _purchase()
    state["phase"] = "over"
    reply = replied(state, "b", "plants", [])
    assert reply.text.startswith("a (61 E, 1 city)") and reply.own is None  # nothing to add
