"""Thousands of whole bot games with the cheap invariants checked after every action.

test_properties.py checks everything (JSON round trip, replay, views) on fewer games; this
file trades depth for breadth so rare paths (an empty deck, Step 3 drawn early, a 6-player
USA end) are played too: tokens conserved (PG-3), money never negative (PG-9a), the game
always ends (PG-51), and the winner is ranked first (PG-53).
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.core import Rng
from engine.core.rng import new_rng_state
from engine.powergrid import GAME
from tests.engine.powergrid.helpers import NAMES, tokens_conserved

MAX_ACTIONS = 5000


def play_checked(n: int, seed: int, options: dict[str, str], bots: list[str]) -> dict[str, Any]:
    players = NAMES[:n]
    state = GAME.setup(players, options, seed)
    rng = Rng(new_rng_state(seed ^ 0xFACE))
    for _ in range(MAX_ACTIONS):
        if GAME.is_over(state):
            return state
        player = GAME.current_players(state)[0]
        action = GAME.bots[bots[players.index(player)]](state, player, rng)
        GAME.apply(state, player, action)
        assert tokens_conserved(state)
        assert all(p["money"] >= 0 for p in state["players"].values())
    raise AssertionError(f"game {seed} did not end within {MAX_ACTIONS} actions")


@settings(
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
)
@given(
    seed=st.integers(0, 2**63 - 1),
    n=st.integers(2, 6),
    map_id=st.sampled_from(["germany", "usa"]),
    regions=st.sampled_from(["random", "choose"]),
    bots=st.lists(st.sampled_from(["random", "heuristic"]), min_size=6, max_size=6),
)
# Issue 27: the random bot's build plan outgrew its houses left (PG-38).
@example(seed=45815, n=4, map_id="germany", regions="choose", bots=["random"] * 6)
def test_thousands_of_bot_games_conserve_tokens_keep_money_and_end(
    seed: int, n: int, map_id: str, regions: str, bots: list[str]
) -> None:
    options = {"map": map_id, "regions": regions}
    state = play_checked(n, seed, options, bots)
    ranking = GAME.result(state)
    assert sorted(p for group in ranking for p in group) == sorted(NAMES[:n])

    # PG-53: most cities powered, then most money, then most cities; ties share a place.
    def key(name: str) -> tuple[int, int, int]:
        p = state["players"][name]
        return (p["powered"], p["money"], len(p["cities"]))

    keys = [{key(name) for name in group} for group in ranking]
    assert all(len(group_keys) == 1 for group_keys in keys)
    flat = [next(iter(k)) for k in keys]
    assert flat == sorted(flat, reverse=True) and len(set(flat)) == len(flat)
