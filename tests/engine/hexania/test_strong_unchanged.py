"""The greedy, guarded and strong bots' moves stay as they were while the engine and the
rollouts get faster (issue 24: p99 think time <= 2 s): hashes of whole seeded 4-player games
of the greedy bot (the rollout policy) and of the guarded bot (the search's default move,
against greedy rivals), and of the strong bot's searches at a fixed iteration budget across a
greedy game, with its candidates and the value of every rollout. Recorded before the speed-up:
a pure speed-up must change no move and no rollout."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from engine.core import Rng, search
from engine.core.rng import new_rng_state
from engine.hexania import GAME, strong
from engine.hexania.bots import greedy_bot


def _setup(seed: int) -> tuple[dict[str, Any], Rng]:
    options = {o.key: o.default for o in GAME.options}  # the table's defaults, as /new
    return GAME.setup([f"p{i}" for i in range(4)], options, seed), Rng(new_rng_state(seed))


@pytest.mark.parametrize(
    ("seed", "guarded", "expected"),
    [
        (1, False, "feb2b69440101eaf"),
        (2, False, "136d73adec6f5dc4"),
        (3, True, "c021e7a567e29007"),
        (4, True, "153c33501f6f88db"),
    ],
)
def test_the_policies_play_the_recorded_games(seed: int, guarded: bool, expected: str) -> None:
    """Greedy in every seat, or the guarded bot in seat p0 against three greedy bots."""
    state, rng = _setup(seed)
    digest = hashlib.sha256()
    while not GAME.is_over(state):
        player = GAME.current_players(state)[0]
        bot = strong.guarded_bot if guarded and player == "p0" else greedy_bot
        action = bot(state, player, rng)
        digest.update(json.dumps([player, action], sort_keys=True).encode())
        GAME.apply(state, player, action)
    digest.update(json.dumps(state, sort_keys=True).encode())
    assert digest.hexdigest()[:16] == expected


@pytest.mark.parametrize(("seed", "expected"), [(11, "bfc5e4e175a1bbc9"), (12, "c2c14cea76f9fd65")])
def test_the_strong_bot_searches_the_recorded_decisions(seed: int, expected: str) -> None:
    """Every 9th position of a greedy game (rounds permitting, at most 8), searched with two
    rounds of rollouts: the candidates, every rollout's value and the choice must not change."""
    state, rng = _setup(seed)
    digest = hashlib.sha256()
    budget = search.Budget(iterations=2)
    searched = step = 0
    while not GAME.is_over(state) and searched < 8:
        player = GAME.current_players(state)[0]
        if step % 9 == 4:
            searched += 1
            decision = strong.decide(state, player, Rng(new_rng_state(seed * 1000 + step)), budget)
            values = [[arm.action, [repr(v) for v in arm.values]] for arm in decision.arms]
            digest.update(json.dumps([decision.action, values], sort_keys=True).encode())
        GAME.apply(state, player, greedy_bot(state, player, rng))
        step += 1
    assert searched == 8
    assert digest.hexdigest()[:16] == expected
