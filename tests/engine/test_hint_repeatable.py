"""/hint gives one position one hint (found playing, 2026-12-03: four /hint calls on the same
Power Grid position said "open plant 7", one "pass": each search thought for one second of
wall time and so ran a different number of rollouts). A time budget now also counts the
strong module's `HINT_ITERATIONS`; the seconds only cap a slow machine."""

from __future__ import annotations

import importlib
import itertools

import pytest

from engine import registry
from engine.core import Rng
from engine.core.game_base import with_hint_rollouts
from engine.core.protocol import EnglishTranslator
from engine.core.rng import new_rng_state
from engine.core.search import Budget
from engine.powergrid import GAME as PG

GAMES = ["powergrid", "powergrid_alt", "hexania", "iec"]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_time_budget_gets_the_strong_modules_rollout_count(game_id: str) -> None:
    module = importlib.import_module(f"engine.{game_id}.strong")
    assert getattr(registry.get(game_id), "strong_module", None) == module.__name__
    count = module.HINT_ITERATIONS
    assert count >= 8  # paired samples enough to compare the candidates
    timed = with_hint_rollouts(module, Budget(seconds=3.0))
    assert timed is not None and (timed.iterations, timed.seconds) == (count, 3.0)
    untimed = with_hint_rollouts(module, None)
    assert untimed is not None and untimed.iterations == count
    chosen = Budget(iterations=5)  # BOARDCHAT_BOT_BUDGET=5i, or a test's: kept as given
    assert with_hint_rollouts(module, chosen) is chosen


def _clock(step: float) -> Budget:
    """A budget of many seconds on a fake clock that advances `step` a reading: a machine as
    fast or as busy as the step says, never near the cap."""
    ticks = itertools.count()
    return Budget(seconds=1e6, clock=lambda: next(ticks) * step)


def test_one_position_gets_one_hint_on_a_fast_and_a_busy_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """PG-19: a round-2 choice in a four-player game. On a fast clock and on one ten times
    slower the search runs `HINT_ITERATIONS` rollouts, and the hint is the same move and the
    same words, as a second /hint is."""
    state = PG.setup(["ann", "bo", "cyd", "dee"], {}, 7)
    rng = Rng(new_rng_state(7))
    while state["round"] < 2 or state["phase"] != "auction":
        player = PG.current_players(state)[0]
        state, _ = PG.apply(state, player, PG.bots["heuristic"](state, player, rng))
    player = PG.current_players(state)[0]
    module = importlib.import_module(PG.strong_module)
    budgets: list[Budget | None] = []
    decide = module.decide

    def spy(state: object, player: str, rng: Rng, budget: Budget | None = None) -> object:
        budgets.append(budget)
        return decide(state, player, rng, budget)

    monkeypatch.setattr(module, "decide", spy)
    t = EnglishTranslator()
    hints = [PG.hint(state, player, t, budget=_clock(step)) for step in (1e-4, 1e-3, 1e-4)]
    assert [b.iterations if b else None for b in budgets] == [module.HINT_ITERATIONS] * 3
    assert hints[0] is not None
    assert hints[1] == hints[0] and hints[2] == hints[0]
