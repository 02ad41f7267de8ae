"""PG-9 (hidden money, the deck order and the setup removals), PG-O (standing orders) and
PG-42 (power declared at once): what the strong bot and /hint (engine/powergrid/strong.py)
compute for a player may depend only on what the rules let him know.

`determinise` re-samples everything his `view` hides: the deck below its public top (PG-9,
PG-12: its order and the plants removed at setup), his rivals' money under `hidden_money`,
their standing orders (private, VIEW.md), their Phase 5 declarations (made at once: that a
rival has declared is public, his `done`; what he declared is not) and the game's RNG (the
future shuffles). The searcher's own money and declaration are his to know.

Noninterference, as tests/engine/iec/test_iec_s10_3_hidden_declarations.py: two states with
the same `view(state, player)` that differ only in one such secret give identical determinised
worlds, identical search Decisions (every rollout's value) and identical hints. The positions
are real ones of a four-player heuristic game with `hidden_money=yes`: the decisions the
search compares several moves at (choosing a plant, bidding, buying, building) and Phase 5.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

from engine.core import EnglishTranslator, Rng, canonical_json
from engine.core.rng import new_rng_state
from engine.core.search import Budget, copy_state
from engine.powergrid import GAME, strong
from engine.powergrid.rules import expected
from tests.engine.powergrid_secrets import (
    Change,
    State,
    deck_reversed,
    money,
    nothing,
    removal_swapped,
    reseeded,
)

SEED = 5
NAMES = [f"p{i}" for i in range(4)]
OPTIONS = {"hidden_money": "yes", "regions": "random"}
# A position: the state, the searching player and the rival whose secret differs.
Position = tuple[State, str, str]


def _waiting_chooser(state: State, me: str) -> str | None:
    """A rival who will choose a plant later in this Phase 2 (PG-20)."""
    players = state["players"]
    return next(
        (
            n
            for n in state["order"]
            if n != me and not players[n]["bought"] and not players[n]["passed"]
        ),
        None,
    )


def _waiting_bidder(state: State, me: str) -> str | None:
    """A rival still bidding on this plant who is neither on turn nor leading (PG-21)."""
    auction = state["auction"]
    return next((n for n in auction["bidders"] if n not in (me, auction["leader"])), None)


def _later(state: State, me: str) -> str | None:
    """A rival who plays after `me` in this Phase 3 or 4 (reverse player order, PG-15)."""
    order = state["order"][::-1]
    later = order[order.index(me) + 1 :]
    return later[0] if later else None


RIVAL_OF: dict[str, Callable[[State, str], str | None]] = {
    "choose_plant": _waiting_chooser,
    "bid": _waiting_bidder,
    "buy": _later,
    "build": _later,
}


def _searched(state: State, player: str) -> bool:
    """Whether the search compares several moves here (else it plays the policy's)."""
    found = strong.candidates(state, player, Rng(new_rng_state(1)))
    return len({canonical_json(a) for a in found}) > 1


@functools.cache
def _found(want: str) -> Position:
    """The first position from round 2 on of a seeded heuristic game where the player acting
    is expected to `want` and the search compares several moves, with a rival as RIVAL_OF
    asks; at Phase 5 ("power") the searcher is
    the second to declare, the rival the first."""
    state = GAME.setup(NAMES, OPTIONS, SEED)
    rng = Rng(new_rng_state(SEED))
    while not GAME.is_over(state):
        acting = GAME.current_players(state)
        if state["round"] >= 2 and expected(state) == want:
            if want == "power":
                return copy_state(state), acting[1], acting[0]
            rival = RIVAL_OF[want](state, acting[0])
            if rival is not None and _searched(state, acting[0]):
                return copy_state(state), acting[0], rival
        GAME.apply(state, acting[0], GAME.bots["heuristic"](state, acting[0], rng))
    raise AssertionError(f"no {want} position")


# ----------------------------------------------------------------- the secrets that differ


def _order(kind: str, **fields: Any) -> Change:
    """PG-O: a standing order the rival placed privately (through `apply`, as the table does:
    his private event goes into the log too), one that has not acted yet."""

    def change(state: State, me: str, rival: str) -> None:
        action: dict[str, Any] = {"type": "order", "kind": kind, **fields}
        if kind in ("maxbid", "pass_plant"):
            action["plant"] = state["auction"]["plant"]
        if kind == "maxbid":
            action["limit"] = state["auction"]["bid"] + int(fields["limit"])
        if kind == "build_plan":
            action["cities"] = [c for c, _ in strong.build_options(state, rival)[:2]]
        GAME.apply(state, rival, action)

    return change


def _declared(run: str) -> Change:
    """PG-42: the rival's declaration, his best run or no plant at all."""

    def change(state: State, me: str, rival: str) -> None:
        if run == "best":
            action = GAME.bots["heuristic"](state, rival, Rng(new_rng_state(0)))
        else:
            action = {"type": "power", "plants": []}
        GAME.apply(state, rival, action)

    return change


DEALT = GAME.setup(NAMES, OPTIONS, SEED)["deck"]

PAIRS = [
    pytest.param("choose_plant", money(0), money(37), id="choose-money"),
    pytest.param("choose_plant", nothing, deck_reversed, id="choose-deck-order"),
    pytest.param("choose_plant", nothing, removal_swapped(DEALT), id="choose-setup-removals"),
    pytest.param("choose_plant", nothing, reseeded, id="choose-rng"),
    pytest.param("choose_plant", nothing, _order("pass_round"), id="choose-pass-round-order"),
    pytest.param("choose_plant", nothing, _order("power_auto"), id="choose-power-auto-order"),
    pytest.param("bid", money(0), money(-5), id="bid-money"),
    pytest.param("bid", _order("maxbid", limit=2), _order("maxbid", limit=30), id="bid-maxbid"),
    pytest.param("bid", nothing, _order("pass_plant"), id="bid-pass-plant-order"),
    pytest.param("buy", money(0), money(40), id="buy-money"),
    pytest.param("buy", nothing, _order("buy_auto", limit=None), id="buy-buy-auto-order"),
    pytest.param(
        "buy", _order("buy_auto", limit=3), _order("buy_auto", limit=60), id="buy-auto-limit"
    ),
    pytest.param("build", money(0), money(25), id="build-money"),
    pytest.param("build", nothing, _order("build_plan"), id="build-plan-order"),
    pytest.param("power", _declared("best"), _declared("none"), id="power-declared"),
    pytest.param("power", nothing, reseeded, id="power-rng"),
]


def _pair(want: str, change_a: Change, change_b: Change) -> tuple[State, State, str]:
    base, me, rival = _found(want)
    a, b = copy_state(base), copy_state(base)
    change_a(a, me, rival)
    change_b(b, me, rival)
    assert a != b
    assert canonical_json(GAME.view(a, me)) == canonical_json(GAME.view(b, me))
    return a, b, me


@pytest.mark.parametrize(("want", "change_a", "change_b"), PAIRS)
def test_pg9_pgo_pg42_determinise_ignores_what_the_player_cannot_see(
    want: str, change_a: Change, change_b: Change
) -> None:
    a, b, me = _pair(want, change_a, change_b)
    for seed in range(8):
        world_a = strong.determinise(a, me, Rng(new_rng_state(seed)))
        world_b = strong.determinise(b, me, Rng(new_rng_state(seed)))
        assert canonical_json(world_a) == canonical_json(world_b), seed
        assert "orders" not in world_a  # PG-O: nobody's orders act in the rollouts
        money = {p["money"] for p in world_a["players"].values()}
        assert money == {a["players"][me]["money"]}  # PG-9: his money, not theirs


@pytest.mark.parametrize("want", ["bid", "power"])
def test_pg9_pg42_determinise_keeps_the_searchers_own_secrets(want: str) -> None:
    """His money and his own Phase 5 declaration are his to know: the worlds keep them."""
    state, me, _ = _found(want)
    state = copy_state(state)
    state["players"][me]["money"] += 11
    declared = None
    if want == "power":
        GAME.apply(state, me, {"type": "power", "plants": []})
        declared = state["power_declared"][me]
    world = strong.determinise(state, me, Rng(new_rng_state(0)))
    assert world["players"][me]["money"] == state["players"][me]["money"]
    if declared is not None:
        assert world["power_declared"][me] == declared


@pytest.mark.parametrize(("want", "change_a", "change_b"), PAIRS)
def test_pg9_pgo_pg42_strong_search_and_hint_ignore_what_the_player_cannot_see(
    want: str, change_a: Change, change_b: Change
) -> None:
    """The whole decision at a fixed iteration budget: every rollout's value (what the strong
    bot chooses from) and the hint."""
    a, b, me = _pair(want, change_a, change_b)
    budget = Budget(iterations=8, rollout_cap=120)
    decided_a = strong.decide(copy_state(a), me, Rng(new_rng_state(3)), budget)
    decided_b = strong.decide(copy_state(b), me, Rng(new_rng_state(3)), budget)
    if want != "power":  # Phase 5 has one candidate, the best run: nothing is searched
        assert decided_a.iterations > 0
    assert decided_a == decided_b
    t = EnglishTranslator()
    assert strong.hint(a, me, t, budget=budget) == strong.hint(b, me, t, budget=budget)
