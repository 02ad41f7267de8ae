"""The TypedDicts of engine/hexania/state_types.py describe the state the rules really keep
(issue 26): every key of every state met in whole bot games is declared, every required key is
there, and the values have the declared JSON types. mypy reads the TypedDicts; this test keeps
them true."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import Rng
from engine.core.rng import new_rng_state
from engine.hexania import GAME
from engine.hexania.state_types import HexaniaState, Turn
from tests.engine.powergrid.test_state_types import keys_fit  # one shape check

MAX_ACTIONS = 4000


def check(state: dict[str, Any]) -> None:
    keys_fit(state, HexaniaState)
    players = state["players"]
    for per_player in ("lost_piece", "bonus", "round_bonus", "turns", "sides"):
        assert set(state[per_player]) == set(players), per_player
    assert all(isinstance(v, bool) for v in state["lost_piece"].values())
    assert all(isinstance(v, int) for v in state["bonus"].values())
    assert all(owner in players for owner in state["board"].values())
    assert set(state["order"]) == set(players)
    turn = state["turn"]
    if turn is not None:
        keys_fit(turn, Turn)
        assert turn["player"] in players and not state["over"]
        assert all(isinstance(d, int) for d in turn["dice"])
        assert isinstance(turn["points"], int) and isinstance(turn["actions"], int)
    if state["over"]:
        assert isinstance(state["result"], list) and isinstance(state["end_reason"], str)


@pytest.mark.parametrize(
    ("n", "seed", "rounds"), [(2, 1, "5"), (3, 4, "5"), (6, 9, "10"), (2, 3, "off")]
)
def test_the_declared_state_shape_holds_through_whole_bot_games(
    n: int, seed: int, rounds: str
) -> None:
    players = [f"p{i}" for i in range(n)]
    state = GAME.setup(players, {"rounds": rounds}, seed)
    rng = Rng(new_rng_state(seed))
    kinds = ["greedy", "random"]  # the strong bot is slow; the shape is the same
    for i in range(MAX_ACTIONS):
        check(state)
        if GAME.is_over(state):
            return
        player = GAME.current_players(state)[0]
        action = GAME.bots[kinds[i % len(kinds)]](state, player, rng)
        state, _events = GAME.apply(state, player, action)
    raise AssertionError(f"game {seed} did not end within {MAX_ACTIONS} actions")
