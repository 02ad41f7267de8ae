"""Forced moves of the alternative rules (issue 17; engine/powergrid_alt/forced.py): a move is
played for a player only when it is his one legal move, and never one that costs him a
penalty a real choice could avoid."""

from __future__ import annotations

import copy
import json

import pytest

from engine.core import EnglishTranslator
from engine.powergrid_alt import GAME
from engine.powergrid_alt.legal import legal_actions
from tests.engine.powergrid_alt.helpers import (
    act,
    build_turn,
    give_hand,
    give_plant,
    money,
    new_game,
    power_turn,
    set_phase,
)

EN = EnglishTranslator()


def _only(state: dict, player: str) -> list[str]:
    return [json.dumps(a, sort_keys=True) for a in legal_actions(state, player)]


@pytest.mark.parametrize("version", ["1", "2"])
def test_ex_alt14_alt10_round_one_purchase_done_is_forced(version: str) -> None:
    """Round 1: every bought plant is still in the hand, so nobody can buy (ALT-10)."""
    state = new_game(3, rules_version=version)
    set_phase(state, "resources", round_=1, order=["a", "b", "c"])
    give_hand(state, "a", 4)
    for player in GAME.current_players(state):
        assert GAME.forced_action(state, player) == {"type": "done"}
        assert _only(state, player) == ['{"type": "done"}']


def test_alt10_a_built_plant_with_room_is_a_real_choice() -> None:
    state = new_game(3, rules_version="2")
    set_phase(state, "resources", order=["b", "c", "a"])
    give_plant(state, "a", 4, "Kiel")
    assert GAME.forced_action(state, "a") is None
    assert "Nothing more" not in GAME.describe_turn(state, "a", EN)
    act(state, "a", {"type": "buy", "resource": "coal", "count": 4, "plant": 4})
    # Version 2: his own declarations filled the plant, but they are secret: a /done forced
    # now would tell the table so, and he is passed or not as if he had declared nothing
    # (found by `make fuzz`, 2026-12-04). He says /done himself.
    assert GAME.forced_action(state, "a") is None
    assert GAME.legal_actions(state, "a") == [{"type": "done"}]  # for him, all that is left
    assert "Nothing more can be bought: send /done." in GAME.describe_turn(state, "a", EN)
    other = new_game(3, rules_version="2")
    set_phase(other, "resources", order=["b", "c", "a"])
    give_plant(other, "a", 4, "Kiel")
    for viewer in ("b", "c", None):
        assert GAME.view(state, viewer) == GAME.view(other, viewer)
    assert GAME.buttons(state, "a") == GAME.buttons(other, "a")  # posted in the group
    act(state, "a", {"type": "done"})  # once done, he is not told to send it again
    assert "Nothing more" not in GAME.describe_turn(state, "a", EN)


@pytest.mark.parametrize("version", ["1", "2"])
def test_ex_alt14_alt36_power_nothing_forced_when_no_plant_holds_fuel(version: str) -> None:
    """Round 1, A built coal plant 4 without coal: he cannot run it, so no city can be powered
    (ALT-32); the 5 E penalty (ALT-36) is due whatever he does."""
    state = new_game(3, rules_version=version)
    power_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 4, "Kiel")
    forced = GAME.forced_action(state, "a")
    assert forced == {"type": "power", "plants": []}
    assert _only(state, "a") == [json.dumps(forced, sort_keys=True)]
    before = state["players"]["a"]["money"]
    act(state, "a", forced)
    if version == "2":
        for other in ("b", "c"):
            act(state, other, GAME.forced_action(state, other) or {"type": "power", "plants": []})
    assert state["players"]["a"]["money"] == before - 5


def test_alt31_fuel_on_a_plant_is_a_real_choice() -> None:
    state = new_game(3)
    power_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 4, "Kiel", coal=2)
    assert GAME.forced_action(state, "a") is None


def test_alt11_build_done_forced_only_when_nothing_can_be_done() -> None:
    state = new_game(3)
    build_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 4, "Kiel")
    money(state, "a", 0)
    assert GAME.forced_action(state, "a") == {"type": "done"}
    assert _only(state, "a") == ['{"type": "done"}']
    # ALT-20: an upgrade is free, so a same-type plant in the hand is a real choice.
    give_hand(state, "a", 10)
    assert GAME.forced_action(state, "a") is None


def test_alt22_line_money_is_a_real_choice() -> None:
    state = new_game(3)
    build_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 4, "Kiel")
    money(state, "a", 60)
    assert GAME.forced_action(state, "a") is None


def test_alt45_a_stalled_table_is_asked_again() -> None:
    """No income without running plants (ALT-39): a broke table would otherwise be passed
    through for ever; once a Phase 4 went by without building, it is asked (and may agree to
    end, corrections 1.1)."""
    state = new_game(3)
    build_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 4, "Kiel")
    money(state, "a", 0)
    state["idle"] = 1
    assert GAME.forced_action(state, "a") is None


def test_alt9_pg25_round_one_auction_is_never_forced() -> None:
    state = new_game(3)
    (chooser,) = GAME.current_players(state)
    money(state, chooser, 0)
    assert GAME.forced_action(state, chooser) is None


def test_open_end_vote_is_a_real_choice() -> None:
    state = new_game(3)
    set_phase(state, "resources", round_=1, order=["a", "b", "c"])
    act(state, "b", {"type": "propose_end"})
    assert GAME.forced_action(state, "c") is None


def test_pg9_hidden_money_never_forces_a_move_only_the_money_decides() -> None:
    state = new_game(3, hidden_money="yes")
    build_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 4, "Kiel")
    money(state, "a", 0)
    assert GAME.forced_action(state, "a") is None  # with money he could lay a line
    shown = new_game(3)
    build_turn(shown, "a", ["b", "c"])
    give_plant(shown, "a", 4, "Kiel")
    money(shown, "a", 0)
    assert GAME.forced_action(shown, "a") == {"type": "done"}
    # Storage is public: no built plant, nothing to buy whatever the money.
    set_phase(state, "resources", order=["b", "c", "a"])
    state["built"].clear()
    state["players"]["a"]["cities"] = []
    assert GAME.forced_action(copy.deepcopy(state), "a") == {"type": "done"}
