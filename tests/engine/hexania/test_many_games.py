"""Hundreds of whole bot games with cheap invariants after every action.

test_properties.py checks everything (figures as components, replay, JSON) on fewer games;
this file plays many more with random variants so rare paths are reached: pieces only on
board cells and owned by players still in the game (HEX-1, HEX-20), points never negative
(HEX-4), and every game ends (HEX-21, or the round limit).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import Rng
from engine.core.rng import new_rng_state
from engine.hexania import GAME, rules
from engine.hexania.board import CELL_SET

VARIANTS = ("split", "guard", "bastions", "birthattack", "viscous", "mergebirth")
MAX_ACTIONS = 20_000


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
)
@given(
    seed=st.integers(0, 2**63 - 1),
    n=st.integers(2, 6),
    variants=st.lists(st.sampled_from(VARIANTS), unique=True, max_size=3),
    bot=st.sampled_from(["random", "greedy"]),
)
def test_hundreds_of_bot_games_keep_the_board_sane_and_end(
    seed: int, n: int, variants: list[str], bot: str
) -> None:
    players = [f"p{i}" for i in range(n)]
    options = {"rounds": "5", **{v: "yes" for v in variants}}
    state = GAME.setup(players, options, seed)
    rng = Rng(new_rng_state(seed ^ 0xBEE))
    for _ in range(MAX_ACTIONS):
        if GAME.is_over(state):
            break
        player = GAME.current_players(state)[0]
        GAME.apply(state, player, GAME.bots[bot](state, player, rng))
        board = state["board"]
        assert set(board) <= CELL_SET
        assert set(board.values()) <= set(rules.active_players(state))
        assert state["turn"] is None or state["turn"]["points"] >= 0
    else:
        raise AssertionError(f"game {seed} did not end")
    ranking = GAME.result(state)
    assert sorted(p for group in ranking for p in group) == players
