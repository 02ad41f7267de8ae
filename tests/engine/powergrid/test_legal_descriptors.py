"""Lean legal moves (issue 24): descriptors expand to exactly the legal actions, sampling
stays inside a family, and every family's actions are accepted by `apply` (PG-14, PG-31..33,
PG-36..38, PG-42)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.core import IllegalAction, Rng
from engine.core.rng import new_rng_state
from engine.powergrid import GAME, legal
from engine.powergrid import market as mk
from engine.powergrid.data import PLANTS, RESOURCES
from tests.engine.powergrid.helpers import played_hashes


@pytest.mark.parametrize(("seed", "n"), [(1, 4), (2, 2), (3, 6)])
def test_descriptors_expand_to_the_legal_actions_and_samples_stay_inside(seed: int, n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    state = GAME.setup(players, {"map": "germany"}, seed)
    rng = Rng(new_rng_state(seed))
    kinds: set[str] = set()
    while not GAME.is_over(state):
        player = GAME.current_players(state)[0]
        families = legal.legal_descriptors(state, player)
        assert families, "a player to act always has a move"
        expanded = [a for d in families for a in legal.expand(state, player, d)]
        assert expanded == legal.legal_actions(state, player)
        for d in families:
            kinds.add(d["type"])
            members = legal.expand(state, player, d)
            assert members, f"empty family {d}"
            assert legal.sample(state, player, d, rng) in members
            GAME.apply(copy.deepcopy(state), player, members[-1])
        for other in players:
            if other not in GAME.current_players(state):
                assert legal.legal_descriptors(state, other) == []
        GAME.apply(state, player, legal.random_legal(state, player, rng))
    assert {"buy", "build", "power", "open", "done"} <= kinds


def test_a_buy_range_stops_at_money_and_storage() -> None:
    state = GAME.setup(["a", "b"], {"map": "germany"}, 5)
    rng = Rng(new_rng_state(5))
    while state["phase"] != "resources":
        player = GAME.current_players(state)[0]
        GAME.apply(state, player, GAME.bots["heuristic"](state, player, rng))
    player = GAME.current_players(state)[0]
    for d in legal.legal_descriptors(state, player):
        if d["type"] == "buy":
            most = d["most"]
            GAME.apply(
                copy.deepcopy(state),
                player,
                {"type": "buy", "resource": d["resource"], "count": most},
            )
            with pytest.raises(IllegalAction):
                GAME.apply(
                    copy.deepcopy(state),
                    player,
                    {"type": "buy", "resource": d["resource"], "count": most + 1},
                )


# The first two name `regions=random`, the table's default when they were recorded (the
# default is now the players' choice, DECISION PG-D-3; the third game plays that).
CASES = [
    (["p1", "p2", "p3", "p4"], {"map": "germany", "regions": "random"}, 1),
    (["a", "b", "c"], {"map": "usa", "regions": "random"}, 5),
    (["a", "b", "c", "d", "e", "f"], {"map": "germany", "regions": "choose"}, 9),
]


@pytest.mark.parametrize(("players", "options", "seed"), CASES)
def test_random_legal_draws_as_a_family_then_a_member(
    players: list[str], options: dict[str, str], seed: int
) -> None:
    """random_legal's shortcuts (issue 24's benchmark) draw exactly what drawing a family of
    `legal_descriptors` uniformly, then `sample`, draws: the same action, the same RNG state."""
    state = GAME.setup(players, options, seed)
    box, twin_box = new_rng_state(seed), new_rng_state(seed)
    rng, twin = Rng(box), Rng(twin_box)
    while not GAME.is_over(state):
        player = GAME.current_players(state)[0]
        families = legal.legal_descriptors(state, player)
        expected = legal.sample(state, player, families[twin.below(len(families))], twin)
        action = legal.random_legal(state, player, rng)
        assert action == expected
        assert box == twin_box
        GAME.apply(state, player, action)


# (players, options, seed) -> (moves, final state hash, moves-and-events hash), recorded with
# the family-then-member random_legal before its shortcuts and the engine's speed work.
# The moves-and-events hashes re-recorded (play-testing, PG-D-21): an unopposed chooser's
# purchase has no `auction_opened` event before its `auction_won` (`unopposed: true`); moves,
# final states and every other event unchanged.
RANDOM_GAMES = [
    (CASES[0], (542, "d5be881ff184c0fd", "d64215ffa84313ac")),
    (CASES[1], (332, "49af76b7a69a29f3", "96ecf0dac52beaae")),
    (CASES[2], (770, "10fc4ddc3e9bcd53", "930de2d528ca8ac7")),
]


@pytest.mark.parametrize(("case", "recorded"), RANDOM_GAMES)
def test_random_legal_games_replay_as_recorded(case: Any, recorded: Any) -> None:
    players, options, seed = case
    assert played_hashes(players, options, seed, legal.random_legal) == recorded


def test_buy_ranges_are_the_counts_storage_stock_and_money_allow() -> None:
    """`_buys` (PG-31..33): per resource, the most tokens k with room to store them, k in the
    market and the k cheapest affordable, checked against the plain definition."""
    rng = Rng(new_rng_state(11))
    numbers = sorted(PLANTS)
    for _ in range(2000):
        plants = tuple(sorted({numbers[rng.below(len(numbers))] for _ in range(rng.below(5))}))
        held = tuple(rng.below(10) for _ in RESOURCES)
        market = tuple(rng.below(mk.CAPACITY[r] + 1) for r in RESOURCES)
        money = rng.below(120)
        cap = mk.capacities(list(plants))
        res = dict(zip(RESOURCES, held, strict=True))
        expected = []
        for r, stock in zip(RESOURCES, market, strict=True):
            fits = min(mk.room_for(cap, res, r), stock)
            most = max(k for k in range(fits + 1) if mk.resource_cost(stock, r, k) <= money)
            if most:
                expected.append((r, most))
        assert legal._buys(plants, held, market, money) == tuple(expected)
