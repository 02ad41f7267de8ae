"""The strong bot's rollout policy stays as it was while the engine gets faster (issue 24):
a hash of every move of whole seeded games of the guarded policy (engine/iec/defence.py)
against the economic bot and the rush, of rollouts in determinised worlds (engine/iec/
strong.py: `determinise` and `policy`, rivals as economic or rush) and of the strong bot's
own moves at a fixed iteration budget. Recorded before the rollout speed-up: a speed-up must
change no move. Re-recorded on purpose (2026-11-28) for three hashes: the policy now builds a
new transmitter once the rush has removed its last one (defence.py, `_lost_transmitter`),
which a rollout of seed 42 and the strong bot's game of seed 43 meet; then seed 34's game,
where it no longer builds a counter launcher in a duel (`counter`). The other hashes held.
Re-recorded on purpose again (2026-11-28) for the four duel hashes (seeds 34, 35, 42, 43): in
a duel the policy keeps turn 1's AB and, once a rival launcher stands, builds a second
transmitter that takes the rush's missiles (defence.py, `_wait_and_see`,
`_wants_transmitter`); the hashes of three and four companies held.
Re-recorded on purpose (seeds 31, 32, 33 and the rollouts of 41): IEC-S-22 lets a company
activate any of its tokens in phase 8, so one with a token on an empty cell is now asked there
(it was passed) and a bot, asked, sets its standing orders one phase earlier; the duels held."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from engine import registry
from engine.core import Rng, search
from engine.core.rng import new_rng_state
from engine.iec import bots, defence, planning, strong


def _game(kinds: list[str], seed: int) -> tuple[Any, dict[str, Any], Rng]:
    game = registry.get("iec")
    players = [f"p{i}" for i in range(len(kinds))]
    options = {o.key: o.default for o in game.options}  # the table's defaults, as /new
    return game, game.setup(players, options, seed), Rng(new_rng_state(seed))


def _hash_game(kinds: list[str], seed: int, stop_turn: int = 99) -> tuple[str, dict[str, Any]]:
    game, state, rng = _game(kinds, seed)
    bots = {
        f"p{i}": defence.guarded_bot if k == "guarded" else game.bots[k]
        for i, k in enumerate(kinds)
    }
    digest = hashlib.sha256()
    while not game.is_over(state) and state["turn"] < stop_turn:
        player = game.current_players(state)[0]
        action = bots[player](state, player, rng)
        digest.update(json.dumps([player, action], sort_keys=True).encode())
        game.apply(state, player, action)
    digest.update(json.dumps(state, sort_keys=True).encode())
    return digest.hexdigest()[:16], state


@pytest.mark.parametrize(
    ("kinds", "seed", "expected"),
    [
        (["guarded", "economic", "economic", "economic"], 31, "79f57583ce555382"),
        (["economic", "economic", "guarded", "economic"], 32, "777b9e1ec4c5364d"),
        (["economic", "guarded", "economic"], 33, "85688276e7b88032"),
        (["guarded", "rush"], 34, "cae27fa1ae5b5aed"),
        (["rush", "guarded"], 35, "54a402d4ca3182c0"),
    ],
)
def test_the_guarded_policy_plays_the_recorded_moves(
    kinds: list[str], seed: int, expected: str
) -> None:
    assert _hash_game(kinds, seed)[0] == expected


@pytest.mark.parametrize(
    ("kinds", "seed", "turn", "expected"),
    [
        (["guarded", "economic", "economic", "economic"], 41, 8, "63b04abd0b85dc26"),
        (["rush", "guarded"], 42, 12, "dd35fbcbdfd8f9a8"),
    ],
)
def test_rollouts_in_determinised_worlds_play_the_recorded_moves(
    kinds: list[str], seed: int, turn: int, expected: str
) -> None:
    """Mid-game, the searcher's worlds (IEC-S-26: what he cannot see re-sampled) played to
    the end by the rollout policy, four worlds each with their own dice."""
    game, _state, _rng = _game(kinds, seed)
    _h, state = _hash_game(kinds, seed, stop_turn=turn)
    me = f"p{kinds.index('guarded')}"
    rng = Rng(new_rng_state(seed * 31))
    digest = hashlib.sha256()
    for _ in range(4):
        world = strong.determinise(state, me, rng)
        digest.update(json.dumps(world, sort_keys=True).encode())
        dice = Rng(new_rng_state(rng.next64()))
        while not game.is_over(world):
            player = game.current_players(world)[0]
            action = strong.policy(world, player, dice)
            digest.update(json.dumps([player, action], sort_keys=True).encode())
            game.apply(world, player, action)
        digest.update(json.dumps(strong.evaluate(world, me)).encode())
    assert digest.hexdigest()[:16] == expected


def test_the_strong_bot_plays_the_recorded_moves() -> None:
    """The whole bot at a fixed iteration budget (no clock): its searched last turns too."""
    game, state, rng = _game(["strong", "rush"], 43)
    digest = hashlib.sha256()
    saved = search.override
    search.override = search.Budget(iterations=12)
    try:
        while not game.is_over(state):
            player = game.current_players(state)[0]
            bot = strong.strong if player == "p0" else game.bots["rush"]
            action = bot(state, player, rng)
            digest.update(json.dumps([player, action], sort_keys=True).encode())
            game.apply(state, player, action)
    finally:
        search.override = saved
    assert digest.hexdigest()[:16] == "287189706e97275e"


def test_remembered_project_scores_are_the_fresh_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """planning.py's memos (growth gains per cell, orders per layout) give what a cold
    computation gives, and stay within their bounds."""
    monkeypatch.setattr(planning, "SCORES_MAX", 64)
    monkeypatch.setattr(planning, "LAYOUT_MAX", 8)
    monkeypatch.setattr(bots, "LAYOUT_MAX", 8)
    planning._GAINS.clear()  # earlier games left entries (the bound applies from here)
    bots._LAYOUT_ORDERS.clear()
    game, state, rng = _game(["guarded", "economic", "economic"], 44)
    checked = 0
    while not game.is_over(state):
        player = game.current_players(state)[0]
        if state["phase"] in (6, 7):
            cells = planning._reach_cells(state, player) + list(state["sites"])
            warm = bots.best_projects(state, player, cells)
            orders = (bots.transfer_orders(state, player), bots.delivery_orders(state, player))
            planning._GAINS.clear()
            bots._LAYOUT_ORDERS.clear()
            assert bots.best_projects(state, player, cells) == warm
            assert (bots.transfer_orders(state, player), bots.delivery_orders(state, player)) == (
                orders
            )
            checked += bool(warm)
        action = defence.guarded_bot(state, player, rng)
        game.apply(state, player, action)
        assert len(planning._GAINS) <= 64 and len(bots._LAYOUT_ORDERS) <= 8
    assert checked > 0
