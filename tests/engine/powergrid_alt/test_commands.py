"""The variant's chat layer: commands to actions, quotes, texts, buttons."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import EnglishTranslator, IllegalAction, ParseError, Reply
from engine.powergrid import commands as base
from engine.powergrid_alt import GAME, commands

from .helpers import (
    act,
    build_turn,
    give_hand,
    give_plant,
    give_tp,
    new_game,
    parsed,
    power_turn,
    replied,
)


def _state() -> dict[str, Any]:
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
    assert parsed(state, "a", "line", ["Freiburg", "Würzburg"])["cities"] == [
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
    action = parsed(state, "a", "line", ["Freiburg", "Stuttgart"])
    events = act(state, "a", action)
    text = GAME.describe_event(state, events[0], EnglishTranslator())
    assert text is not None and "Freiburg – Stuttgart" in text and "21 E" in text


def test_commands_cost_line_quotes_price_and_income_before_paying() -> None:
    state = _state()
    reply = GAME.parse(state, "a", "cost", ["line", "Freiburg", "Würzburg", "via", "Stuttgart"])
    assert isinstance(reply, Reply)
    assert reply.extra["quote"]["total"] == 33 and reply.extra["quote"]["income2"] == 19
    assert "33 E" in reply.text and "9.5 E" in reply.text
    assert state["players"]["a"]["money"] == 75
    bad = replied(state, "a", "cost", ["plant", "13", "Kiel"])
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
    assert parsed(state, "a", "power", ["none"])["plants"] == []
    assert GAME.buttons(state, "a")[0][1] == "/power"
    income = replied(state, "a", "income", [])
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


# ------------------------------------------------------------------ one declaration per command


def test_commands_each_declared_once_with_its_usage_line() -> None:
    """Issue 26: the table is the only declaration; COMMANDS, USAGE and the handlers come from
    it, every command answers a wrong call with its own usage line."""
    assert [c.name for c in commands.COMMANDS] == [
        "bid",
        "raise",
        "pass",
        "done",
        "region",
        "buy",
        "plant",
        "upgrade",
        "move",
        "line",
        "tp",
        "power",
        "endgame",
        "cost",
        "income",
        "price",
        "market",
        "plants",
        "board",
    ]
    assert list(GAME.commands) == commands.TABLE.specs
    assert set(commands.TABLE.handlers) == set(commands.USAGE)
    assert all(usage.startswith("Usage: /") for usage in commands.USAGE.values())
    # the auction words the variant shares keep the base game's declaration, object and all
    for name in ("raise", "done", "region", "price", "market", "plants"):
        assert commands.TABLE.spec(name) is base.TABLE.spec(name)
    # but not /pass: no standing orders here, so no `/pass round` or `/pass plant` in its help
    own_pass = commands.TABLE.spec("pass")
    assert own_pass is not None and "/pass round" not in own_pass.help
    # /done and /region read their words the base game's way too: the same reader (issue 26)
    for name in ("done", "region"):
        assert commands.TABLE.handlers[name] is base.TABLE.handlers[name]
    # the variant's /bid offers no max= (no standing orders): its own usage line says so
    with pytest.raises(ParseError) as err:
        GAME.parse(new_game(3), "a", "bid", ["x"])
    assert err.value.message_key == commands.USAGE["bid"] and "max=" not in err.value.message_key


@pytest.mark.parametrize(
    ("name", "args", "extra"),
    [
        ("income", ["now"], "now"),
        ("board", ["all"], "all"),
        ("done", ["x"], "x"),
        ("pass", ["round"], "round"),
        ("move", ["2", "coal", "4", "25", "13"], "13"),
    ],
)
def test_commands_the_declared_arguments_count_the_words(
    name: str, args: list[str], extra: str
) -> None:
    """A command of one-word arguments refuses a word too many with its usage line (the table
    counts them from the declaration, as for the base game)."""
    with pytest.raises(ParseError) as err:
        GAME.parse(_state(), "a", name, args)
    assert err.value.message_key == commands.USAGE[name]
    assert err.value.params == {"word": extra}


def test_commands_cost_move_answers_a_wrong_transfer_with_the_move_usage() -> None:
    state = _state()
    with pytest.raises(ParseError) as err:
        GAME.parse(state, "a", "cost", ["move", "2", "coal"])
    assert err.value.message_key == commands.USAGE["move"]
    with pytest.raises(ParseError) as err:
        GAME.parse(state, "a", "cost", [])
    assert err.value.message_key == commands.USAGE["cost"]


def test_commands_plant_completion_reads_market_and_hand() -> None:
    state = _state()
    give_hand(state, "a", 18)
    market = [str(n) for n in state["market"][:4]]
    found = GAME.complete(state, "a", "plant", "")
    assert found[: len(market)] == market and "18" in found and "13" in found
    assert GAME.complete(state, "a", "plant", "1") == [n for n in found if n.startswith("1")]
    assert GAME.complete(None, None, "plant", "1") == []
    assert GAME.complete(state, "a", "region", "N") == ["North-East", "North-West"]  # as the base
    assert GAME.complete(state, "a", "region", "Pół")[0] == "Północny wschód"


@pytest.mark.parametrize("count", ["-1", "1.5", "1,5", "0", "+2"])
def test_commands_pg31_buy_refuses_a_bad_count_as_a_count(count: str) -> None:
    """ALT-10 on PG-31: "/buy oil -1" (and 1.5, 0) is a bad count, not the usage line; the
    count is a whole number of at least 1, the plant after it as before."""
    state = _state()
    with pytest.raises(ParseError) as err:
        GAME.parse(state, "a", "buy", ["oil", count, "13"])
    assert err.value.english() == f'"{count}" is not a count: give a whole number of at least 1.'
    bought = GAME.parse(state, "a", "buy", ["oil", "2", "13"])
    assert isinstance(bought, dict) and bought["count"] == 2
    with pytest.raises(ParseError) as err:
        GAME.parse(state, "a", "buy", ["oil", "lots"])
    assert err.value.message_key == commands.USAGE["buy"]
