"""The public line of a version 2 Phase 3 /done (`purchase_declared`) when the player had
nothing to buy whatever money he holds (purchase.nothing_to_buy): round 1, where nobody has a
built plant (ALT-10, EX-ALT-14), or no built plant with room for a token the market holds.
Otherwise the line stays "has chosen what to buy": it must not tell hidden money (PG-9 option)
nor a secret declaration (version 2, purchase.py)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import translator
from engine.core import EnglishTranslator
from engine.powergrid_alt import GAME
from tests.engine.powergrid_alt.helpers import (
    act,
    give_hand,
    give_plant,
    money,
    new_game,
    set_phase,
)

EN = EnglishTranslator()
CHOSEN = "a has chosen what to buy."
NO_PLANT = "a has nothing to buy: no built plant to store resources on."
NO_ROOM = "a has nothing to buy: no built plant with room for a resource the market holds."


def _done(state: dict[str, Any], player: str = "a") -> dict[str, Any]:
    """`player`'s /done, played as the table plays a forced move when it is one."""
    action = GAME.forced_action(state, player) or {"type": "done"}
    assert action == {"type": "done"}
    (event,) = [e for e in act(state, player, action) if e["type"] == "purchase_declared"]
    return event


def _round_one(hidden: str) -> dict[str, Any]:
    state = new_game(3, rules_version="2", hidden_money=hidden)
    set_phase(state, "resources", round_=1, order=["a", "b", "c"])
    give_hand(state, "a", 4)
    give_hand(state, "b", 5)
    give_hand(state, "c", 6)
    return state


@pytest.mark.parametrize("hidden", ["no", "yes"])
def test_ex_alt14_alt10_round_one_forced_done_says_there_is_nothing_to_buy(hidden: str) -> None:
    """Round 1: every plant is still in its buyer's hand, so nobody can buy (ALT-10); the
    forced /done (forced.py) says so instead of "has chosen what to buy", with open or hidden
    money alike (it is forced whatever money he holds)."""
    state = _round_one(hidden)
    for player in ("c", "b", "a"):
        assert GAME.forced_action(state, player) == {"type": "done"}
    event = _done(state)
    assert event["nothing"] == "no_plant"
    assert GAME.describe_event(state, event, EN) == NO_PLANT
    assert GAME.describe_event(state, event, translator("ru")) == (
        "a: покупать нечего — нет построенной станции для хранения ресурсов."
    )
    assert GAME.describe_event(state, event, translator("pl")) == (
        "a nie ma nic do kupienia: brak zbudowanej elektrowni, na której można trzymać surowce."
    )
    assert GAME.describe_event(state, event, translator("zh_Hant")) == (
        "a 沒有東西可買：沒有已建的發電廠可以存放燃料。"
    )


def test_alt10_no_room_for_anything_the_market_holds_says_so() -> None:
    """A built plant already full (its tokens are public): nothing to buy whatever money."""
    state = new_game(3, rules_version="2", hidden_money="yes")
    set_phase(state, "resources", order=["b", "c", "a"])
    give_plant(state, "a", 4, "Kiel", coal=4)  # plant 4 stores 2 x 2 coal
    money(state, "a", 500)
    assert GAME.forced_action(state, "a") == {"type": "done"}
    event = _done(state)
    assert event["nothing"] == "no_room"
    assert GAME.describe_event(state, event, EN) == NO_ROOM


@pytest.mark.parametrize("cash", [0, 500])
def test_pg9_hidden_money_a_plant_with_room_keeps_the_old_line(cash: int) -> None:
    """Hidden money: a built plant with room, and he says /done himself (with no money the
    /done is not forced: forced whatever money only). The line is the old one either way, so
    it does not tell whether he could have paid."""
    state = new_game(3, rules_version="2", hidden_money="yes")
    set_phase(state, "resources", order=["b", "c", "a"])
    give_plant(state, "a", 4, "Kiel")
    money(state, "a", cash)
    assert GAME.forced_action(state, "a") is None
    event = act(state, "a", {"type": "done"})[0]
    assert event["type"] == "purchase_declared" and "nothing" not in event
    assert GAME.describe_event(state, event, EN) == CHOSEN


def test_pg9a_open_money_forced_by_money_alone_keeps_the_old_line() -> None:
    """Open money, none left: the /done is forced, but only by his money (not whatever money
    he holds), so the line is the old one."""
    state = new_game(3, rules_version="2")
    set_phase(state, "resources", order=["b", "c", "a"])
    give_plant(state, "a", 4, "Kiel")
    money(state, "a", 0)
    event = _done(state)
    assert "nothing" not in event
    assert GAME.describe_event(state, event, EN) == CHOSEN


def test_alt10_a_plant_his_own_secret_declaration_filled_keeps_the_old_line() -> None:
    """Version 2: after he declared the plant full his /done is forced (forced.py), but only
    because of his secret declaration: the line must not tell it (purchase.py)."""
    state = new_game(3, rules_version="2", hidden_money="yes")
    set_phase(state, "resources", order=["b", "c", "a"])
    give_plant(state, "a", 4, "Kiel")
    act(state, "a", {"type": "buy", "resource": "coal", "count": 4, "plant": 4})
    event = _done(state)
    assert "nothing" not in event
    assert GAME.describe_event(state, event, EN) == CHOSEN
    # ... the same event as a player with room who declared nothing.
    other = new_game(3, rules_version="2", hidden_money="yes")
    set_phase(other, "resources", order=["b", "c", "a"])
    give_plant(other, "a", 4, "Kiel")
    assert act(other, "a", {"type": "done"})[0] == event


def test_version1_done_has_no_purchase_declared_event() -> None:
    """Version 1 plays Phase 3 in turn and says nothing of a /done (the table's note speaks
    for a forced one): unchanged."""
    state = new_game(3, rules_version="1")
    set_phase(state, "resources", round_=1, order=["a", "b", "c"])
    give_hand(state, "c", 4)
    events = act(state, "c", {"type": "done"})
    assert all(e["type"] != "purchase_declared" for e in events)
