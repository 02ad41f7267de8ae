"""IEC-S-10.3 (corrections 1.1, "Flexible Order"): a company's Flexible Order declarations are
made privately at phase 0 and each becomes public only when the phase it concerns begins.
The strong bot and /hint (engine/iec/strong.py) sample what their player cannot see; they
copied a rival's `declared`, which `rules._phase_order` applies in the rollouts, so the
searched move hung on another company's secret (found by a tester).

Noninterference (as tests/engine/iec/test_noninterference.py): two states that differ only in
a rival's secret declarations (and the secret technology and standing order behind them), so
that the searcher's `view` is the same, give the same determinised worlds, the same search
statistics and the same hint.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from engine import registry
from engine.core import EnglishTranslator, Rng, canonical_json
from engine.core.rng import new_rng_state
from engine.core.search import Budget, copy_state
from engine.iec import defence, rules, strong
from engine.iec.model import param

State = dict[str, Any]
ME = "p0"
RIVAL = "p1"
EVERY_LATER_PHASE = {str(ph): "first" for ph in range(7, 15)}


@functools.cache
def _last_turn() -> State:
    """Seed 4, four companies: the guarded policy (p0) against three economic bots, at its
    phase-6 decision of the last turn, a phase the strong bot searches (`strong.SEARCHED`).
    Before the fix, p1's declarations there changed the rollouts' values."""
    game = registry.get("iec")
    options = {o.key: o.default for o in game.options}
    state = game.setup([f"p{i}" for i in range(4)], options, 4)
    rng = Rng(new_rng_state(4))
    last = int(param(state, "turns"))
    while True:
        player = game.current_players(state)[0]
        # Past the standing orders the policy keeps in step (not searched).
        if (state["turn"], state["phase"], player) == (last, 6, ME) and (
            len(strong.candidates(state, ME, Rng(new_rng_state(1)))) > 1
        ):
            break
        bot = defence.guarded_bot if player == ME else game.bots["economic"]
        game.apply(state, player, bot(state, player, rng))
    assert not state["players"][RIVAL]["eliminated"] and 3 not in state["players"][RIVAL]["techs"]
    return state


def _pair(flex_a: dict[str, str], tech_b: int, flex_b: dict[str, str]) -> tuple[State, State]:
    """The rival holds an unrevealed Flexible Order with `flex_a` declared at phase 0 in a;
    in b the unrevealed technology `tech_b`, with `flex_b` (phase 0 declares only with
    Flexible Order, `rules._declare_flex`)."""
    a, b = copy_state(_last_turn()), copy_state(_last_turn())
    for state, tech, flex in ((a, 3, flex_a), (b, tech_b, flex_b)):
        pl = state["players"][RIVAL]
        pl["techs"].append(tech)
        pl["orders"]["flex"] = dict(flex)
        pl["declared"] = dict(flex) if tech == 3 else {}
    assert a != b
    assert canonical_json(rules.view(a, ME)) == canonical_json(rules.view(b, ME))
    return a, b


PAIRS = [
    pytest.param(EVERY_LATER_PHASE, 3, {}, id="declared-or-not"),
    pytest.param(EVERY_LATER_PHASE, 3, {"9": "last", "12": "last"}, id="first-or-last"),
    pytest.param(EVERY_LATER_PHASE, 5, {}, id="flexible-order-or-advanced-mining"),
]


@pytest.mark.parametrize(("flex_a", "tech_b", "flex_b"), PAIRS)
def test_iec_s10_3_determinise_ignores_a_rivals_secret_declarations(
    flex_a: dict[str, str], tech_b: int, flex_b: dict[str, str]
) -> None:
    a, b = _pair(flex_a, tech_b, flex_b)
    for seed in range(12):
        world_a = strong.determinise(a, ME, Rng(new_rng_state(seed)))
        world_b = strong.determinise(b, ME, Rng(new_rng_state(seed)))
        assert canonical_json(world_a) == canonical_json(world_b), seed
        # A rival sampled with or without Flexible Order carries no declaration of this turn.
        assert world_a["players"][RIVAL]["declared"] == {}


def test_iec_s10_3_determinise_keeps_the_searchers_own_declarations() -> None:
    """His own declarations are his to know: the worlds keep them."""
    state = copy_state(_last_turn())
    pl = state["players"][ME]
    pl["techs"].append(3)
    pl["orders"]["flex"] = {"9": "last"}
    pl["declared"] = {"9": "last"}
    world = strong.determinise(state, ME, Rng(new_rng_state(0)))
    assert world["players"][ME]["declared"] == {"9": "last"}


def test_iec_s10_3_strong_search_and_hint_ignore_a_rivals_secret_declarations() -> None:
    """The whole decision at a fixed iteration budget: every rollout's value (what the
    strong bot chooses from) and the hint. Before the fix the values differed here."""
    a, b = _pair(EVERY_LATER_PHASE, 5, {})
    budget = Budget(iterations=12)
    decided_a = strong.decide(a, ME, Rng(new_rng_state(3)), budget)
    decided_b = strong.decide(b, ME, Rng(new_rng_state(3)), budget)
    assert decided_a.iterations > 0
    assert decided_a == decided_b
    t = EnglishTranslator()
    assert strong.hint(a, ME, t, budget=budget) == strong.hint(b, ME, t, budget=budget)
