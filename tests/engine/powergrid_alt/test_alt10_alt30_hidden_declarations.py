"""ALT-10 and ALT-30 (rules version 2: Phase 3's purchases and Phase 5's power choices are
declared by everybody at once and stay secret until all are made), with what the base game
hides (PG-9: money under `hidden_money`, the deck order and the setup removals; the RNG):
what the strong bot and /hint (engine/powergrid_alt/strong.py) compute for a player may
depend only on what the rules let him know.

`determinise_alt` re-samples what his `view` hides: the base game's secrets as the base game
does (engine/powergrid/strong.py), a rival's declared purchases as none and his declared power
choice as every runnable plant; that a rival has declared is public (his `done`, the public
"has chosen" line), what he declared is not. It kept an empty book of purchases whenever a
rival had declared one (`declared_buys: {}` against no key): one bit of a rival's secret in
the sampled world, fixed with this test.

Noninterference, as tests/engine/iec/test_iec_s10_3_hidden_declarations.py: two states with
the same `view(state, player)` that differ only in one such secret give identical determinised
worlds, identical search Decisions (every rollout's value) and identical hints. The variant
searches only its auctions (`strong.candidates`), so the declared phases are also searched
with a wider list of candidates (the policy's move and its alternative), so that rollouts
start from the worlds sampled there.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

import pytest

from engine.core import EnglishTranslator, Rng, canonical_json
from engine.core.protocol import Action
from engine.core.rng import new_rng_state
from engine.core.search import Budget, copy_state, search
from engine.powergrid_alt import GAME, purchase, strong
from engine.powergrid_alt import rules as r
from tests.engine.powergrid_secrets import (
    Change,
    State,
    deck_reversed,
    money,
    nothing,
    removal_swapped,
    reseeded,
)

SEED = 2
NAMES = ["p0", "p1", "p2"]
OPTIONS = {"hidden_money": "yes", "regions": "random", "rules_version": "2"}
Position = tuple[State, str, str]  # the state, the searching player, the rival
BUDGET = Budget(iterations=6, rollout_cap=60)


def _heuristic(state: State, player: str) -> Action:
    return GAME.bots["heuristic"](state, player, Rng(new_rng_state(0)))


def _auction_found(state: State, acting: list[str]) -> Position | None:
    """A plant choice or a bid the search compares several moves at (round 2 on)."""
    me = acting[0]
    if state["phase"] != "auction" or state["round"] < 2:
        return None
    found = strong.candidates(state, me, Rng(new_rng_state(1)))
    if len({canonical_json(a) for a in found}) < 2:
        return None
    return copy_state(state), me, next(n for n in state["order"] if n != me)


def _declared_found(phase: str) -> Callable[[State, list[str]], Position | None]:
    """Phase 3 or 5 of version 2 with two players still to declare, the first of whom (the
    rival) has something to declare: a purchase of two tokens or more (ALT-10) or a plant to
    run (ALT-30)."""

    def found(state: State, acting: list[str]) -> Position | None:
        if state["phase"] != phase or state["round"] < 2 or len(acting) < 2:
            return None
        rival, me = acting[0], acting[1]
        first = _heuristic(state, rival)
        if first.get("count", 2) < 2 or first["type"] == "done" or first.get("plants") == []:
            return None
        return copy_state(state), me, rival

    return found


FINDERS = {
    "auction": _auction_found,
    "resources": _declared_found("resources"),
    "bureaucracy": _declared_found("bureaucracy"),
}


@functools.cache
def _found(where: str) -> Position:
    """The first such position of a seeded three-player heuristic game (rules version 2,
    hidden money)."""
    state = GAME.setup(NAMES, OPTIONS, SEED)
    rng = Rng(new_rng_state(SEED))
    while not GAME.is_over(state):
        acting = GAME.current_players(state)
        found = FINDERS[where](state, acting)
        if found is not None:
            return found
        GAME.apply(state, acting[0], GAME.bots["heuristic"](state, acting[0], rng))
    raise AssertionError(f"no {where} position")


# ----------------------------------------------------------------- the secrets that differ


def _purchases(how: str) -> Change:
    """ALT-10 (version 2): the rival declares his heuristic's purchases ("all"), one token
    fewer of the first of them and nothing more ("less"), or none, then says /done (public:
    "has chosen what to buy")."""

    def change(state: State, me: str, rival: str) -> None:
        for _ in range(12):
            action: Action = {"type": "done"}
            if how == "all" or (how == "less" and not purchase.declared(state, rival)):
                action = _heuristic(state, rival)
            if how == "less" and action["type"] == "buy":
                action["count"] -= 1
            GAME.apply(state, rival, action)
            if action["type"] == "done":
                return
        raise AssertionError("the rival never said /done")

    return change


def _power(how: str) -> Change:
    """ALT-30 (version 2): the rival declares every runnable plant or none."""

    def change(state: State, me: str, rival: str) -> None:
        plants = r.runnable(state, rival) if how == "all" else []
        GAME.apply(state, rival, {"type": "power", "plants": plants})

    return change


DEALT = GAME.setup(NAMES, OPTIONS, SEED)["deck"]

PAIRS = [
    pytest.param("auction", money(0), money(-7), id="auction-money"),
    pytest.param("auction", nothing, deck_reversed, id="auction-deck-order"),
    pytest.param("auction", nothing, removal_swapped(DEALT), id="auction-setup-removals"),
    pytest.param("auction", nothing, reseeded, id="auction-rng"),
    pytest.param("resources", _purchases("all"), _purchases("none"), id="declared-or-not"),
    pytest.param("resources", _purchases("all"), _purchases("less"), id="declared-more-or-less"),
    pytest.param("resources", money(0), money(30), id="resources-money"),
    pytest.param("bureaucracy", _power("all"), _power("none"), id="power-all-or-none"),
    pytest.param("bureaucracy", money(0), money(30), id="bureaucracy-money"),
]


def _pair(where: str, change_a: Change, change_b: Change) -> tuple[State, State, str]:
    base, me, rival = _found(where)
    a, b = copy_state(base), copy_state(base)
    change_a(a, me, rival)
    change_b(b, me, rival)
    assert a != b
    assert me in GAME.current_players(a)
    assert canonical_json(GAME.view(a, me)) == canonical_json(GAME.view(b, me))
    return a, b, me


@pytest.mark.parametrize(("where", "change_a", "change_b"), PAIRS)
def test_alt10_alt30_determinise_ignores_what_the_player_cannot_see(
    where: str, change_a: Change, change_b: Change
) -> None:
    a, b, me = _pair(where, change_a, change_b)
    for seed in range(8):
        world_a = strong.determinise_alt(a, me, Rng(new_rng_state(seed)))
        world_b = strong.determinise_alt(b, me, Rng(new_rng_state(seed)))
        assert canonical_json(world_a) == canonical_json(world_b), seed
        # Nobody's declared purchase but his own (he has declared none here).
        assert purchase.DECLARED not in world_a


def test_alt10_alt30_determinise_keeps_the_searchers_own_declarations() -> None:
    """His own declared purchases and power choice are his to know: the worlds keep them."""
    state, me, rival = _found("resources")
    state = copy_state(state)
    _purchases("all")(state, me, rival)
    bought = _heuristic(state, me)
    assert bought["type"] == "buy"
    GAME.apply(state, me, bought)
    world = strong.determinise_alt(state, me, Rng(new_rng_state(0)))
    assert world[purchase.DECLARED] == {me: purchase.declared(state, me)}
    state, me, rival = _found("bureaucracy")
    state = copy_state(state)
    _power("all")(state, me, rival)
    GAME.apply(state, me, {"type": "power", "plants": []})
    world = strong.determinise_alt(state, me, Rng(new_rng_state(0)))
    assert world[r.POWER_DECLARED][me] == {"type": "power", "plants": []}
    assert world[r.POWER_DECLARED][rival]["plants"] == r.runnable(state, rival)


def _wider(state: State, player: str, rng: Rng) -> list[Action]:
    """The policy's move and its alternative in a declared phase: /done instead of a purchase,
    no plant run instead of the runnable ones."""
    first = strong.candidates(state, player, rng)[0]
    other = {"type": "done"} if first["type"] == "buy" else {"type": "power", "plants": []}
    return [first, other]


@pytest.mark.parametrize(("where", "change_a", "change_b"), PAIRS)
def test_alt10_alt30_strong_search_and_hint_ignore_what_the_player_cannot_see(
    where: str, change_a: Change, change_b: Change
) -> None:
    """The whole decision at a fixed iteration budget: every rollout's value (what the strong
    bot chooses from) and the hint; in the declared phases also a search over two moves."""
    a, b, me = _pair(where, change_a, change_b)
    decided_a = strong.decide(copy_state(a), me, Rng(new_rng_state(3)), BUDGET)
    decided_b = strong.decide(copy_state(b), me, Rng(new_rng_state(3)), BUDGET)
    assert decided_a == decided_b
    t = EnglishTranslator()
    assert strong.hint(a, me, t, budget=BUDGET) == strong.hint(b, me, t, budget=BUDGET)
    if where == "auction":
        assert decided_a.iterations > 0
        return
    glue = dataclasses.replace(strong.glue(), candidates=_wider)
    wide_a = search(glue, copy_state(a), me, Rng(new_rng_state(3)), BUDGET)
    wide_b = search(glue, copy_state(b), me, Rng(new_rng_state(3)), BUDGET)
    assert wide_a.iterations > 0
    assert wide_a == wide_b
