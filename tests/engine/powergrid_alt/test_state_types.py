"""The TypedDicts of engine/powergrid_alt/state_types.py describe the state the variant's rules
really keep (issue 26): every key of every state met in whole bot games (both rules versions)
is declared, every required key is there, and the values have the declared JSON types. mypy
reads the TypedDicts; this test keeps them true."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import Rng
from engine.core.rng import new_rng_state
from engine.powergrid.state_types import Auction
from engine.powergrid_alt import GAME
from engine.powergrid_alt.state_types import (
    AltPlayerState,
    BuiltPlant,
    EndVote,
    Line,
    PowerGridAltState,
    Purchase,
)
from tests.engine.powergrid.test_state_types import keys_fit  # one shape check

MAX_ACTIONS = 3000


def check(state: dict[str, Any], seen: set[str]) -> None:
    keys_fit(state, PowerGridAltState)
    seen.update(state)
    for p in state["players"].values():
        keys_fit(p, AltPlayerState)  # no pooled "res": tokens live on built plants (ALT-10)
        assert isinstance(p["money"], int)
        assert all(isinstance(n, int) for n in p["plants"])
    for number, plant in state["built"].items():
        keys_fit(plant, BuiltPlant)
        assert int(number) in state["players"][plant["owner"]]["plants"]
        assert all(isinstance(v, int) for v in plant["res"].values())
    for line in state["lines"]:
        keys_fit(line, Line)
        assert len(line["segs"]) == len(line["nodes"]) - 1
    assert all(isinstance(owners, list) for owners in state["tps"].values())
    if state["auction"] is not None:
        keys_fit(state["auction"], Auction)
    if state["end_vote"] is not None:
        keys_fit(state["end_vote"], EndVote)
    for items in state.get("declared_buys", {}).values():
        for item in items:
            keys_fit(item, Purchase)


@pytest.mark.parametrize(
    ("n", "seed", "version"), [(2, 1, "1"), (3, 2, "1"), (4, 5, "2"), (3, 7, "2"), (2, 8, "2")]
)
def test_the_declared_state_shape_holds_through_whole_bot_games(
    n: int, seed: int, version: str
) -> None:
    players = ["a", "b", "c", "d"][:n]
    state = GAME.setup(players, {"rules_version": version}, seed)
    rng = Rng(new_rng_state(seed))
    kinds = ["heuristic", "random"]
    seen: set[str] = set()
    for i in range(MAX_ACTIONS):
        check(state, seen)
        if GAME.is_over(state):
            if version == "2":  # the declarations were met, and kept only while open
                assert {"declared_buys", "power_declared"} <= seen
            return
        player = GAME.current_players(state)[0]
        action = GAME.bots[kinds[i % 2]](state, player, rng)
        state, _events = GAME.apply(state, player, action)
    raise AssertionError(f"game {seed} did not end within {MAX_ACTIONS} actions")
