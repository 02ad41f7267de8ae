"""The TypedDicts of engine/powergrid/state_types.py describe the state the rules really keep
(issue 26): every key of every state met in whole bot games is declared, every required key is
there, and the values have the declared JSON types. mypy reads the TypedDicts; this test keeps
them true."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import Rng
from engine.core.rng import new_rng_state
from engine.powergrid import GAME
from engine.powergrid.state_types import (
    Auction,
    Declared,
    PendingDiscard,
    PlayerState,
    PowerGridState,
)
from tests.engine.powergrid.helpers import NAMES

MAX_ACTIONS = 3000


def keys_fit(value: dict[str, Any], typed: Any) -> None:
    assert set(value) <= set(typed.__annotations__), set(value) - set(typed.__annotations__)
    assert set(typed.__required_keys__) <= set(value), set(typed.__required_keys__) - set(value)


def check(state: dict[str, Any]) -> None:
    keys_fit(state, PowerGridState)
    for p in state["players"].values():
        keys_fit(p, PlayerState)
        assert isinstance(p["money"], int)
        assert p["powered"] is None or isinstance(p["powered"], int)
        assert all(isinstance(n, int) for n in p["plants"])
        assert all(isinstance(c, str) for c in p["cities"])
    if state["auction"] is not None:
        keys_fit(state["auction"], Auction)
    if state["pending_discard"] is not None:
        keys_fit(state["pending_discard"], PendingDiscard)
    for declared in state.get("power_declared", {}).values():
        keys_fit(declared, Declared)
    assert all(isinstance(n, int) for n in state["market"] + state["deck"])
    assert all(isinstance(v, int) for v in state["rm"].values())


@pytest.mark.parametrize(
    ("n", "seed", "regions"), [(2, 1, "choose"), (4, 7, "random"), (6, 3, "random")]
)
def test_the_declared_state_shape_holds_through_whole_bot_games(
    n: int, seed: int, regions: str
) -> None:
    players = NAMES[:n]
    state = GAME.setup(players, {"map": "germany", "regions": regions}, seed)
    rng = Rng(new_rng_state(seed))
    kinds = ["heuristic", "random"]
    for i in range(MAX_ACTIONS):
        check(state)
        if GAME.is_over(state):
            return
        player = GAME.current_players(state)[0]
        action = GAME.bots[kinds[i % 2]](state, player, rng)
        GAME.apply(state, player, action)
    raise AssertionError(f"game {seed} did not end within {MAX_ACTIONS} actions")
