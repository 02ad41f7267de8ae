"""The variant's fast paths (issue 24: the strong bot's rollouts) against the plain ways they
replace, position by position over seeded heuristic games: the sites found at once and the
sites `site_check` accepts one by one (ALT-14, ALT-18/19, ALT-41, ALT-46, ALT-D-25); the
remembered city incomes and the incomes worked out afresh (ALT-33..37); the uncovered
cities listed at once and `covered` node by node."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core import IllegalAction, Rng
from engine.core.rng import new_rng_state
from engine.powergrid.data import PLANTS
from engine.powergrid_alt import GAME
from engine.powergrid_alt import rules as r
from engine.powergrid_alt.graph import mse2


def positions(seeds: range, players: int = 4, every: int = 4) -> Iterator[dict[str, Any]]:
    """Every `every`-th Phase 4 position of heuristic games (the table's defaults)."""
    for seed in seeds:
        names = [f"p{i}" for i in range(players)]
        state = GAME.setup(names, {o.key: o.default for o in GAME.options}, seed)
        rng = Rng(new_rng_state(seed))
        seen = 0
        while not GAME.is_over(state):
            player = GAME.current_players(state)[0]
            if state["phase"] == "build":
                seen += 1
                if seen % every == 0:
                    yield state
            GAME.apply(state, player, GAME.bots["heuristic"](state, player, rng))


def plain_sites(state: dict[str, Any], player: str, plant: int) -> list[str]:
    out = []
    for node in r.play_nodes(state):
        try:
            r.site_check(state, player, plant, node)
        except IllegalAction:
            continue
        out.append(node)
    return out


def test_legal_sites_are_the_sites_site_check_accepts() -> None:
    checked = refused = 0
    for state in positions(range(1, 3)):
        for player in state["players"]:
            for plant in sorted(PLANTS)[::4]:
                plain = plain_sites(state, player, plant)
                assert r.legal_sites(state, player, plant) == plain
                checked += 1
                refused += len(plain) < len(r.play_nodes(state))
    assert checked > 500 and refused > 250


def plain_income2(state: dict[str, Any], player: str, node: str) -> int:
    """`city_income2` as first written: no shared graphs, nothing remembered."""
    if node in r.plant_nodes(state, player):
        return r.PLANT_CITY_INCOME2
    lines = r.qualifying_lines(state, node)
    if not lines:
        return 0
    cheapest = min(r.line_cost(state, line) for line in lines)
    return min(cheapest, mse2(state["map"], state["regions"], node))


def test_remembered_incomes_and_uncovered_cities_are_the_plain_ones() -> None:
    checked = 0
    for state in positions(range(3, 5), every=2):
        known = r.Incomes(state)
        for player in state["players"]:
            for node in r.play_nodes(state):
                income = plain_income2(state, player, node)
                assert known.city(player, node) == income
                assert r.city_income2(state, player, node) == income
                checked += income > 0
        assert r.uncovered(state) == [n for n in r.play_nodes(state) if not r.covered(state, n)]
    assert checked > 100
