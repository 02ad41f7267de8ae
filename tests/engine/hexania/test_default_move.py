"""The move a Hexania player gets when he runs out of time (issue 24): the greedy bot's move,
never /end, which before any action is a resignation (HEX-2.4)."""

from __future__ import annotations

from bot.bots import default_action
from engine.core import Rng, canonical_json
from engine.core.rng import new_rng_state
from engine.hexania import GAME, rules
from engine.hexania.bots import greedy_bot
from tests.engine.hexania.helpers import position


def test_hex2_4_default_move_at_turn_start_is_an_action_not_a_resignation() -> None:
    state = GAME.setup(["a", "b", "c", "d"], {}, 7)
    player = GAME.current_players(state)[0]
    assert state["turn"]["actions"] == 0
    before = canonical_json(state)
    action = GAME.default_action(state, player)
    assert canonical_json(state) == before  # a query: the state is untouched
    assert action is not None and action["type"] == "birth"  # HEX-D-23: the first is a birth
    assert action in GAME.legal_actions(state, player)
    # The table plays it (the declared default, not the generic /end of NOTHING_TYPES).
    assert GAME.capabilities.default_move
    assert default_action(GAME, state, player) == action
    GAME.apply(state, player, action)
    assert player not in state["eliminated"]


def test_hex2_default_move_is_the_greedy_bots_and_reproducible() -> None:
    state = position({"blue": ["L12", "L13"], "red": ["L15"]}, points=9)
    first = GAME.default_action(state, "blue")
    assert first is not None and first["type"] != "end"
    assert first == GAME.default_action(state, "blue")
    greedy = {canonical_json(greedy_bot(state, "blue", Rng(new_rng_state(s)))) for s in range(20)}
    assert canonical_json(first) in greedy
    # Like the greedy bot it attacks the lone enemy piece within reach.
    assert rules.price(state, "blue", first).destroyed == {"L15": "red"}
    assert GAME.default_action(state, "red") is None  # not his turn
