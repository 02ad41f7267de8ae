"""The engine's fast paths (issue 24's random-legal benchmark) against the plain ways they
replace, over many seeded games: the same draws, the same walks by cost, the same purchase.
The recorded games (test_legal_descriptors.py, test_performance_invariants.py) hold whole
games to their hashes; these hold each shortcut to its plain path move by move."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.core import Rng
from engine.core.rng import new_rng_state
from engine.powergrid import GAME, legal
from engine.powergrid.network import Network
from engine.powergrid.purchase import PURCHASE
from engine.powergrid.rules import net

_MASK = (1 << 64) - 1

# Bounds the games draw below (1: one family; powers of two: subsets of plants) and others.
BOUNDS = [1, 2, 3, 4, 5, 7, 8, 16, 33, 1000, (1 << 63) + 5, _MASK, 1 << 64]


def plain_below(rng: Rng, n: int) -> int:
    """`Rng.below` as first written: every draw through `next64`, rejected above the limit."""
    limit = _MASK - (_MASK + 1) % n
    while True:
        x = rng.next64()
        if x <= limit:
            return x % n


def test_below_draws_what_next64_with_rejection_draws() -> None:
    """The inline SplitMix64 and the unmixed below(1) leave the same numbers and states,
    including the bounds near 2^64 where draws are rejected."""
    box, twin_box = new_rng_state(7), new_rng_state(7)
    rng, twin = Rng(box), Rng(twin_box)
    picker = Rng(new_rng_state(99))
    for _ in range(20_000):
        n = BOUNDS[picker.below(len(BOUNDS))]
        assert rng.below(n) == plain_below(twin, n)
        assert box == twin_box
    with pytest.raises(ValueError):
        rng.below(0)


def plain_reach(nw: Network, owned: tuple[str, ...]) -> tuple[list[int], list[Any]]:
    """`Network.reach` without its memo: each row's minimum, every other city sorted."""
    rows = [nw.dist[nw.index[c]] for c in owned]
    costs = [min(col) for col in zip(*rows)] if rows else [0] * len(nw.cities)
    mine = {nw.index[c] for c in owned}
    walk = sorted((costs[i], i, nw.cities[i]) for i in nw.play if i not in mine)
    return costs, walk


GAMES = [
    (["p1", "p2", "p3", "p4"], {"map": "germany"}, range(1, 13)),
    (["a", "b", "c"], {"map": "usa"}, range(1, 6)),
    (["a", "b", "c", "d", "e", "f"], {"map": "germany", "regions": "choose"}, range(1, 4)),
]


@pytest.mark.parametrize(("players", "options", "seeds"), GAMES)
def test_walks_extended_city_by_city_are_the_walks_sorted_afresh(
    players: list[str], options: dict[str, str], seeds: range
) -> None:
    """Every player's walk by cost (extended from the walk without his last city, PG-37)
    equals the walk worked out from scratch, after every move of random-legal games."""
    checked = 0
    for seed in seeds:
        state = GAME.setup(players, options, seed)
        rng = Rng(new_rng_state(seed))
        while not GAME.is_over(state):
            player = GAME.current_players(state)[0]
            GAME.apply(state, player, legal.random_legal(state, player, rng))
            if state["phase"] in ("build", "bureaucracy"):
                nw = net(state)
                for name in players:
                    owned = tuple(state["players"][name]["cities"])
                    assert nw.reach(owned) == plain_reach(nw, owned)
                    checked += 1
    assert checked > 100


@pytest.mark.parametrize(("players", "options", "seeds"), GAMES[:2])
def test_a_purchase_pays_what_take_would_charge(
    players: list[str], options: dict[str, str], seeds: range
) -> None:
    """`buy` pays the price its check worked out; `take`, the plain way, works it out again
    from the market: both leave the same state (PG-32)."""
    bought = 0
    for seed in seeds:
        state = GAME.setup(players, options, seed)
        rng = Rng(new_rng_state(seed))
        while not GAME.is_over(state):
            player = GAME.current_players(state)[0]
            action = legal.random_legal(state, player, rng)
            if action["type"] == "buy":
                plain = copy.deepcopy(state)
                checked = PURCHASE.check(plain, player, action)
                price = PURCHASE.take(plain, player, checked.resource, checked.count, None)
                assert price == checked.price
                GAME.apply(state, player, action)
                assert state["players"] == plain["players"] and state["rm"] == plain["rm"]
                bought += 1
            else:
                GAME.apply(state, player, action)
    assert bought > 50


@pytest.mark.parametrize("seed", range(20))
def test_log_event_keeps_what_trim_log_keeps_across_interleaved_logs(seed: int) -> None:
    """`log_event` remembers one log known to hold public entries only (issue 24): over two
    states' logs written in turns, with public and private events (the log of issue 20), each
    log is what appending and `trim_log` keep, event by event; a fresh copy
    of a remembered log (a loaded state) is scanned, not trusted."""
    from engine.powergrid.basics import log_event, trim_log

    rng = Rng(new_rng_state(seed))
    rare = (4, 16, 40)[seed % 3]  # private events often, or seldom (the memo then holds)
    states: list[dict[str, Any]] = [{"log": []}, {"log": []}]
    plain: list[list[dict[str, Any]]] = [[], []]
    for n in range(300):
        k = rng.below(2)
        if rng.below(40) == 0:  # a state loaded again: a new list with the same entries
            states[k] = {"log": copy.deepcopy(states[k]["log"])}
        ev: dict[str, Any] = {"type": "x", "round": n, "player": "ab"[rng.below(2)]}
        if rng.below(rare) == 0:
            ev["private"] = True
        log_event(states[k], [], ev)
        plain[k].append(ev)
        trim_log(plain[k])
        assert states[k]["log"] == plain[k], n
