"""The variant's chat layer: commands to actions, quotes, texts, buttons."""

from __future__ import annotations

import pytest

from engine.core import EnglishTranslator, IllegalAction, ParseError, Reply
from engine.powergrid_alt import GAME

from .helpers import act, build_turn, give_hand, give_plant, give_tp, new_game, power_turn


def _state():
    state = new_game(3)
    build_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 13, "Freiburg")
    return state


def test_commands_plant_line_tp_move_upgrade_parse() -> None:
    state = _state()
    give_hand(state, "a", 18)
    assert GAME.parse(state, "a", "plant", ["18", "essen"]) == {
        "type": "build_plant",
        "plant": 18,
        "city": "Essen",
    }
    assert GAME.parse(state, "a", "line", ["Freiburg", "Würzburg", "via", "Stuttgart"]) == {
        "type": "line",
        "cities": ["Freiburg", "Stuttgart", "Würzburg"],
    }
    # without via: the cheapest free route
    assert GAME.parse(state, "a", "line", ["Freiburg", "Würzburg"])["cities"] == [
        "Freiburg",
        "Stuttgart",
        "Würzburg",
    ]
    assert GAME.parse(state, "a", "tp", ["stutt"]) == {"type": "tp", "city": "Stuttgart"}
    assert GAME.parse(state, "a", "move", ["2", "coal", "4", "25"]) == {
        "type": "move",
        "from": 4,
        "to": 25,
        "tokens": {"coal": 2},
    }
    assert GAME.parse(state, "a", "upgrade", ["10", "25"]) == {
        "type": "upgrade",
        "old": 10,
        "new": 25,
    }
    with pytest.raises(ParseError):
        GAME.parse(state, "a", "move", ["coal"])


def test_commands_line_applies_and_is_announced() -> None:
    state = _state()
    action = GAME.parse(state, "a", "line", ["Freiburg", "Stuttgart"])
    events = act(state, "a", action)
    text = GAME.describe_event(state, events[0], EnglishTranslator())
    assert "Freiburg – Stuttgart" in text and "21 E" in text


def test_commands_cost_line_quotes_price_and_income_before_paying() -> None:
    state = _state()
    reply = GAME.parse(state, "a", "cost", ["line", "Freiburg", "Würzburg", "via", "Stuttgart"])
    assert isinstance(reply, Reply)
    assert reply.extra["quote"]["total"] == 33 and reply.extra["quote"]["income2"] == 19
    assert "33 E" in reply.text and "9.5 E" in reply.text
    assert state["players"]["a"]["money"] == 75
    bad = GAME.parse(state, "a", "cost", ["plant", "13", "Kiel"])
    assert "Not possible" in bad.text


def test_commands_power_with_plants_and_cities() -> None:
    state = new_game(3)
    power_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 13, "Freiburg")
    give_tp(state, "a", "Stuttgart")
    assert GAME.parse(state, "a", "power", []) == {"type": "power", "plants": [13]}
    assert GAME.parse(state, "a", "power", ["13", "Stuttgart"]) == {
        "type": "power",
        "plants": [13],
        "cities": ["Stuttgart"],
    }
    assert GAME.parse(state, "a", "power", ["none"])["plants"] == []
    assert GAME.buttons(state, "a")[0][1] == "/power"
    income = GAME.parse(state, "a", "income", [])
    assert "5 E" in income.text


def test_commands_texts_buttons_complete() -> None:
    state = new_game(3)
    assert "Round 1" in GAME.describe_turn(state, None, EnglishTranslator())
    assert "Essen" in GAME.complete(state, "a", "city", "ess")
    assert GAME.complete(state, "a", "resource", "co") == ["coal"]
    with pytest.raises(IllegalAction):
        GAME.parse(state, "a", "frobnicate", [])
    names = {c.name for c in GAME.commands}
    assert {
        "plant",
        "upgrade",
        "line",
        "tp",
        "move",
        "power",
        "bid",
        "pass",
        "done",
        "cost",
    } <= names
