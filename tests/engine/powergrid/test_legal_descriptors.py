"""Lean legal moves (issue 24): descriptors expand to exactly the legal actions, sampling
stays inside a family, and every family's actions are accepted by `apply` (PG-14, PG-31..33,
PG-36..38, PG-42)."""

from __future__ import annotations

import copy

import pytest

from engine.core import IllegalAction, Rng
from engine.core.rng import new_rng_state
from engine.powergrid import GAME, legal


@pytest.mark.parametrize(("seed", "n"), [(1, 4), (2, 2), (3, 6)])
def test_descriptors_expand_to_the_legal_actions_and_samples_stay_inside(seed: int, n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    state = GAME.setup(players, {"map": "germany"}, seed)
    rng = Rng(new_rng_state(seed))
    kinds: set[str] = set()
    while not GAME.is_over(state):
        player = GAME.current_players(state)[0]
        families = legal.legal_descriptors(state, player)
        assert families, "a player to act always has a move"
        expanded = [a for d in families for a in legal.expand(state, player, d)]
        assert expanded == legal.legal_actions(state, player)
        for d in families:
            kinds.add(d["type"])
            members = legal.expand(state, player, d)
            assert members, f"empty family {d}"
            assert legal.sample(state, player, d, rng) in members
            GAME.apply(copy.deepcopy(state), player, members[-1])
        for other in players:
            if other not in GAME.current_players(state):
                assert legal.legal_descriptors(state, other) == []
        GAME.apply(state, player, legal.random_legal(state, player, rng))
    assert {"buy", "build", "power", "open", "done"} <= kinds


def test_a_buy_range_stops_at_money_and_storage() -> None:
    state = GAME.setup(["a", "b"], {"map": "germany"}, 5)
    rng = Rng(new_rng_state(5))
    while state["phase"] != "resources":
        player = GAME.current_players(state)[0]
        GAME.apply(state, player, GAME.bots["heuristic"](state, player, rng))
    player = GAME.current_players(state)[0]
    for d in legal.legal_descriptors(state, player):
        if d["type"] == "buy":
            most = d["most"]
            GAME.apply(
                copy.deepcopy(state),
                player,
                {"type": "buy", "resource": d["resource"], "count": most},
            )
            with pytest.raises(IllegalAction):
                GAME.apply(
                    copy.deepcopy(state),
                    player,
                    {"type": "buy", "resource": d["resource"], "count": most + 1},
                )
