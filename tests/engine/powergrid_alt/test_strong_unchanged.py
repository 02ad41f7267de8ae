"""The strong bot's moves stay as they were while its rollouts get faster (issue 24: p99
think time <= 2 s): hashes of whole seeded games of the heuristic bot (the rollout policy)
and of the strong bot's searches at a fixed iteration budget in auctions across a game
(the only decisions with more than one candidate, engine/powergrid_alt/strong.py), with
the value of every rollout. Recorded before the speed-up: a speed-up must change no move.
The heuristic games' hashes were re-recorded on 2026-12-05 for the private "power_planned"
log entry (version 2's power declaration said back to its owner): the same moves and the
same final state but for its log, checked game by game before and after."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from engine import registry
from engine.core import Rng, search
from engine.core.rng import new_rng_state
from engine.powergrid_alt import strong

GAME = registry.get("powergrid_alt")


def _setup(players: int, seed: int) -> tuple[dict[str, Any], Rng]:
    names = [f"p{i}" for i in range(players)]
    options = {o.key: o.default for o in GAME.options}  # the table's defaults, as /new
    # ... as they were when the games were recorded: the region draw, not the players' choice
    # that is the default now (DECISION PG-D-3, ALT-4); the same games, hashes unchanged.
    options["regions"] = "random"
    return GAME.setup(names, options, seed), Rng(new_rng_state(seed))


@pytest.mark.parametrize(
    ("players", "seed", "expected"),
    [(4, 1, "737001998630fd12"), (3, 2, "cd6c46211202d30a"), (2, 3, "3a280f3493d21236")],
)
def test_the_heuristic_bot_plays_the_recorded_games(players: int, seed: int, expected: str) -> None:
    state, rng = _setup(players, seed)
    digest = hashlib.sha256()
    while not GAME.is_over(state):
        player = GAME.current_players(state)[0]
        action = GAME.bots["heuristic"](state, player, rng)
        digest.update(json.dumps([player, action], sort_keys=True).encode())
        GAME.apply(state, player, action)
    digest.update(json.dumps(state, sort_keys=True).encode())
    assert digest.hexdigest()[:16] == expected


@pytest.mark.parametrize(
    ("players", "seed", "expected"), [(4, 11, "7e69b704e0942f0b"), (3, 12, "0094101e85ef7c96")]
)
def test_the_strong_bot_searches_the_recorded_auctions(
    players: int, seed: int, expected: str
) -> None:
    """A heuristic game's first plant choice of every other round from round 2 on, searched
    by the strong bot (one round of rollouts, each cut at 30 actions): its choice, every
    rollout's value and the determinised worlds must not change."""
    state, rng = _setup(players, seed)
    digest = hashlib.sha256()
    searched = set()
    budget = search.Budget(iterations=1, rollout_cap=30)
    while not GAME.is_over(state):
        player = GAME.current_players(state)[0]
        rnd = state["round"]
        if state["phase"] == "auction" and rnd >= 2 and rnd % 2 == 0 and rnd not in searched:
            searched.add(rnd)
            seeded = Rng(new_rng_state(seed * 1000 + rnd))
            world = strong.determinise_alt(state, player, seeded)
            digest.update(json.dumps(world, sort_keys=True).encode())
            decision = strong.decide(state, player, seeded, budget)
            values = [[arm.action, [repr(v) for v in arm.values]] for arm in decision.arms]
            digest.update(json.dumps([decision.action, values], sort_keys=True).encode())
        GAME.apply(state, player, GAME.bots["heuristic"](state, player, rng))
    assert len(searched) >= 4
    assert digest.hexdigest()[:16] == expected
