"""Every bot of every game plays only moves the engine accepts, and every listed legal action is
accepted (issue 27).

A bot that can produce a move `apply` refuses would stall a real table: the seat it fills would
error at every turn. So at every decision point of seeded games, for every game and bot kind:
each action in `legal_actions` applies cleanly to a copy of the state, and the bot's own action
(standing orders included) applies to the state itself.

The seeds come from hypothesis: derandomised in `make test` (the "ci" profile in
tests/conftest.py), random under `make fuzz`. Failures found by fuzzing are pinned as
`@example`s below before they are fixed.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import registry
from engine.core import IllegalAction, Rng
from engine.core.rng import new_rng_state
from engine.core.search import copy_state

NAMES = ["a", "b", "c", "d", "e", "f"]
# Decision points checked per game: enough to reach the later phases of every game, bounded so
# that listing and applying every legal action at each point stays cheap.
MAX_DECISIONS = 600
# Legal actions tried per decision point (all of them when fewer): a build phase can list
# hundreds; an evenly spaced sample keeps the test fast and still covers the whole list shape.
MAX_LEGAL_TRIED = 40

CASES = [
    (game_id, kind) for game_id, game in registry.games().items() for kind in sorted(game.bots)
]


def _spread(actions: list, most: int) -> list:
    if len(actions) <= most:
        return actions
    step = len(actions) / most
    return [actions[int(i * step)] for i in range(most)]


def play_and_check(game_id: str, kind: str, seed: int, n: int, options: dict[str, str]) -> int:
    """Plays one seeded game with `kind` bots in every seat; returns the decisions checked."""
    game = registry.get(game_id)
    players = NAMES[:n]
    state = game.setup(players, options, seed)
    rng = Rng(new_rng_state(seed ^ 0xB07))
    bot = game.bots[kind]
    for step in range(MAX_DECISIONS):
        if game.is_over(state):
            return step
        current = game.current_players(state)
        assert current, f"{game_id}: nobody to act and the game is not over (step {step})"
        player = current[rng.below(len(current))]
        for action in _spread(game.legal_actions(state, player), MAX_LEGAL_TRIED):
            try:
                # copy_state: a deep copy of the plain JSON state (house rule), several times
                # faster than copy.deepcopy, which took most of this test's time
                game.apply(copy_state(state), player, action)
            except IllegalAction as err:  # pragma: no cover - the failure message is the point
                raise AssertionError(
                    f"{game_id} seed={seed} n={n} {options} step {step}: legal action "
                    f"{action} of {player} refused: [{err.rule_id}] {err}"
                ) from None
        action = bot(state, player, rng)
        try:
            game.apply(state, player, action)
        except IllegalAction as err:
            raise AssertionError(
                f"{game_id} seed={seed} n={n} {options} step {step}: {kind} bot of {player} "
                f"sent {action}, refused: [{err.rule_id}] {err}"
            ) from None
    return MAX_DECISIONS


def _options(game_id: str, draw: st.DrawFn) -> dict[str, str]:
    game = registry.get(game_id)
    chosen: dict[str, str] = {}
    for spec in game.options:
        choose: bool = draw(st.booleans())
        if spec.choices and choose:
            chosen[spec.key] = draw(st.sampled_from(spec.choices))
    return chosen


@st.composite
def tables(draw: st.DrawFn, game_id: str) -> tuple[int, int, dict[str, str]]:
    game = registry.get(game_id)
    seed = draw(st.integers(0, 2**63 - 1))
    n = draw(st.integers(game.min_players, game.max_players))
    return seed, n, _options(game_id, draw)


@pytest.mark.parametrize(("game_id", "kind"), CASES)
def test_every_bot_move_and_every_legal_action_is_accepted(game_id: str, kind: str) -> None:
    @settings(
        max_examples=6,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        seed, n, options = data.draw(tables(game_id))
        play_and_check(game_id, kind, seed, n, options)

    check()


# Issue 27: at seed 45815 the random bot placed a build plan longer than the houses it had left
# (PG-38: 22 houses per player), which `apply` rightly refused.
def test_issue27_random_bot_build_plan_never_exceeds_houses_left() -> None:
    from tests.engine.powergrid.test_many_games import play_checked

    play_checked(4, 45815, {"map": "germany", "regions": "choose"}, ["random"] * 6)
