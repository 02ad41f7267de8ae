"""Lists in the readers' words: Chinese enumerates with "、" ("ann、bo"), where an ASCII
comma reads as a foreign mark; English, Russian and Polish keep ", ". One text per game,
and the two ways a list reaches its reader: joined where the translator is at hand
(`join_list`), or a refusal's `Listed` parameter the table words when it fills the message."""

from __future__ import annotations

import json

import pytest

from bot.i18n import explain, translator
from engine.core import N_, IllegalAction, Listed
from engine.core.picture import Words
from engine.core.protocol import State
from engine.registry import get

EN, ZH = translator("en"), translator("zh_Hant")
PLAYERS = ["ann", "bo", "cyd"]


def _new(game_id: str) -> State:
    # Power Grid from round 1's auction: regions drawn, not chosen (the default, PG-D-3).
    options = {"regions": "random"} if game_id.startswith("powergrid") else {}
    return get(game_id).setup(PLAYERS, options, 1)


def _both(game_id: str, event: dict[str, object]) -> tuple[str, str]:
    game, state = get(game_id), _new(game_id)
    english, chinese = game.describe_event(state, event, EN), game.describe_event(state, event, ZH)
    assert english is not None and chinese is not None
    return english, chinese


def test_power_grid_player_order() -> None:
    english, chinese = _both("powergrid", {"type": "player_order", "order": PLAYERS, "round": 1})
    assert english == "Player order: ann, bo, cyd."
    assert "ann、bo、cyd" in chinese and ", " not in chinese


def test_power_grid_refusal_lists_the_market_in_the_readers_words() -> None:
    """PG-20 is raised in `apply`, without a translator: the market is a `Listed`."""
    game, state = get("powergrid"), _new("powergrid")
    with pytest.raises(IllegalAction) as err:
        game.apply(state, game.current_players(state)[0], {"type": "open", "plant": 99, "bid": 99})
    assert isinstance(err.value.params["market"], Listed)
    assert explain("en", err.value) == "Plant 99 is not in the current market (3, 4, 5, 6). (PG-20)"
    assert "3、4、5、6" in explain("zh_Hant", err.value)


def test_power_grid_dropped_order_keeps_its_list_plain_json_and_worded_when_read() -> None:
    """An order's refusal goes into a private event: the `Listed` is stored as its items
    (JSON), and listed in the reader's words when the event is read."""
    from engine.powergrid import event_text, orders

    state = _new("powergrid")
    events: list[dict[str, object]] = []
    refusal = IllegalAction(
        "PG-42",
        N_("You do not have the resources to run plants {plants}."),
        plants=Listed([3, 5]),
    )
    orders._tell(state, events, "ann", "power_auto", refusal)
    (event,) = events
    assert json.loads(json.dumps(event)) == event
    assert event["params"] == {"plants": ["3", "5"]} and event["lists"] == ["plants"]
    assert "plants 3, 5." in event_text.order_dropped_private(event, EN)
    assert "3、5" in event_text.order_dropped_private(event, ZH)


def test_power_grid_alternative_rules_end_vote() -> None:
    event = {"type": "end_proposed", "player": "ann", "waiting": ["bo", "cyd"], "round": 1}
    english, chinese = _both("powergrid_alt", event)
    assert english.endswith("Waiting for bo, cyd.")
    assert "bo、cyd" in chinese and ", " not in chinese


def test_hexania_start() -> None:
    game, state = get("hexania"), _new("hexania")
    english, chinese = game.describe_start(state, EN), game.describe_start(state, ZH)
    assert english is not None and chinese is not None
    first, *others = state["order"]
    assert english.endswith(f"{first} starts; then clockwise: {', '.join(others)}.")
    assert "、".join(others) in chinese and ", " not in chinese


def test_iec_turn_order() -> None:
    english, chinese = _both("iec", {"type": "turn_started", "turn": 2, "order": PLAYERS})
    assert english == "Turn 2 begins. Order: ann, bo, cyd."
    assert "ann、bo、cyd" in chinese and ", " not in chinese


def test_picture_labels() -> None:
    assert Words(EN).list(PLAYERS) == "ann, bo, cyd"
    assert Words(ZH).list(PLAYERS) == "ann、bo、cyd"
