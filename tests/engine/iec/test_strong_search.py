"""IEC's strong bot (engine/iec/strong.py, issue 24): it searches only the decisions that
change the game (IEC-27 phases 6, 7, 9) and keeps the policy's move unless the search's
paired samples clearly beat it."""

from __future__ import annotations

from typing import Any

from engine.core import Rng
from engine.core.search import Arm, Decision
from engine.iec import defence, orders, rules, strong
from tests.engine.iec.helpers import at, by_seat, new

DONE = {"type": "done"}
FIRE = {"type": "fire", "launcher": "G5", "targets": {"R14": 2}}


def _decision(base: list[float], other: list[float]) -> Decision:
    return Decision(FIRE, [Arm(DONE, base), Arm(FIRE, other)], len(base) * 2)


def test_a_phase_outside_the_searched_ones_is_the_policys_move_alone() -> None:
    st = new(2)
    p = by_seat(st, "P1")
    at(st, 10, p)  # IEC-S-17 transmission: the policy decides alone
    rng = Rng({"s": 5})
    moves = strong.candidates(st, p, rng)
    assert moves == [defence.guarded_bot(st, p, Rng({"s": 5}))]


def _ready(st: dict[str, Any], p: str) -> None:
    """The policy's standing orders kept in step, so that its next move is a decision."""
    action = defence.guarded_bot(st, p, Rng({"s": 5}))
    while action["type"] in rules.STANDING:
        orders.standing(st, p, action, [])
        action = defence.guarded_bot(st, p, Rng({"s": 5}))


def test_mid_game_the_policy_prepares_alone() -> None:
    st = new(2)
    p = by_seat(st, "P1")
    at(st, 6, p)  # turn 1: a rollout cannot reach the end within the 2 s budget
    _ready(st, p)
    assert strong.candidates(st, p, Rng({"s": 5})) == [defence.guarded_bot(st, p, Rng({"s": 5}))]


def test_the_last_turns_search_the_phases_that_change_the_game() -> None:
    st = new(2)
    p = by_seat(st, "P1")
    st["turn"] = 19  # one turn left after this one: rollouts reach the final ranking
    at(st, 6, p)  # IEC-S-18.1: which site to prepare (or none) changes the game
    _ready(st, p)
    moves = strong.candidates(st, p, Rng({"s": 5}))
    assert moves[0] == defence.guarded_bot(st, p, Rng({"s": 5}))
    assert DONE in moves and len(moves) >= 3
    assert not any(m["type"] in strong.BOOKKEEPING for m in moves)


def test_too_few_samples_keep_the_policys_move() -> None:
    # Better on both samples, but two are below MIN_ROUNDS: noise, not evidence.
    assert strong.trusted(_decision([0.2, 0.3], [0.9, 0.9])) == DONE


def test_a_gain_within_noise_keeps_the_policys_move() -> None:
    base = [0.5, 0.5, 0.5, 0.5]
    other = [0.9, 0.1, 0.9, 0.3]  # a mean gain of 0.05 with a spread of 0.4
    assert strong.trusted(_decision(base, other)) == DONE


def test_a_clear_gain_on_paired_samples_is_played() -> None:
    base = [0.2, 0.4, 0.3, 0.5]
    other = [0.8, 0.9, 0.9, 1.0]
    assert strong.trusted(_decision(base, other)) == FIRE
