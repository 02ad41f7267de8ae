"""Small state builders for Power Grid rule tests.

Tests start from a real `setup` and then set exactly the facts a rule needs (phase,
plants, money, houses), rather than playing long sequences of moves.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from typing import Any

import pytest

from engine.core import IllegalAction, Rng, canonical_json
from engine.core.rng import new_rng_state
from engine.powergrid import GAME
from engine.powergrid.data import RESOURCES, TOTALS, game_map

State = dict[str, Any]
NAMES = ["a", "b", "c", "d", "e", "f"]


def new_game(n: int = 3, seed: int = 1, **options: str) -> State:
    """A fresh game (random regions unless told), in round 1's auction.

    The table's default is the region choice (PG-8, DECISION PG-D-3); rule tests are about
    the rounds, so they pin the random connected set (and every recorded seed keeps its game)."""
    options.setdefault("regions", "random")
    return GAME.setup(NAMES[:n], {k: str(v) for k, v in options.items()}, seed)


def all_regions(state: State) -> State:
    state["regions"] = sorted(game_map(state["map"]).regions)
    return state


def set_phase(
    state: State, phase: str, *, round_: int = 2, order: list[str] | None = None
) -> State:
    """Jump to the start of `phase` in `round_` with the given player order."""
    state["phase"] = phase
    state["round"] = round_
    state["turn"] = 0
    state["auction"] = None
    state["pending_discard"] = None
    if order is not None:
        state["order"] = list(order)
    for p in state["players"].values():
        p["bought"] = p["passed"] = p["done"] = False
    return state


def give(
    state: State,
    player: str,
    *,
    money: int | None = None,
    plants: list[int] | None = None,
    res: dict[str, int] | None = None,
    cities: list[str] | None = None,
) -> State:
    """Set a player's holdings, keeping token totals and city owners consistent."""
    p = state["players"][player]
    if money is not None:
        p["money"] = money
    if plants is not None:
        p["plants"] = sorted(plants)
        state["market"] = [n for n in state["market"] if n not in plants]
        state["deck"] = [n for n in state["deck"] if n not in plants]
    if res is not None:
        for r in RESOURCES:
            want = res.get(r, 0)
            delta = want - p["res"][r]
            # take from the supply first, then from the market's dearest tokens
            from_supply = min(delta, state["supply"][r]) if delta > 0 else delta
            state["supply"][r] -= from_supply
            state["rm"][r] -= delta - from_supply
            p["res"][r] = want
    if cities is not None:
        for c in p["cities"]:
            state["cities"][c].remove(player)
            if not state["cities"][c]:
                del state["cities"][c]
        p["cities"] = list(cities)
        for c in cities:
            state["cities"].setdefault(c, []).append(player)
    return state


def set_market(state: State, market: list[int], deck: list[int] | None = None) -> State:
    state["market"] = sorted(market)
    if deck is not None:
        state["deck"] = list(deck)
    return state


def act(state: State, player: str, **action: Any) -> list[dict[str, Any]]:
    _, events = GAME.apply(state, player, action)
    return events


def illegal(state: State, player: str, rule: str, **action: Any) -> IllegalAction:
    """Assert the action is refused under `rule` and leaves the state byte-identical."""
    before = canonical_json(state)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, player, action)
    assert err.value.rule_id == rule, err.value
    assert canonical_json(state) == before
    return err.value


def tokens_conserved(state: State) -> bool:
    for r in RESOURCES:
        held = sum(p["res"][r] for p in state["players"].values())
        if state["rm"][r] + state["supply"][r] + held != TOTALS[r]:
            return False
    return True


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def clone(state: State) -> State:
    return copy.deepcopy(state)


def played_hashes(
    players: list[str],
    options: dict[str, str],
    seed: int,
    choose: Callable[[State, str, Rng], Any],
) -> tuple[int, str, str]:
    """A whole seeded game, every move `choose(state, player, rng)`: (moves, the final state's
    hash, the hash of every move with its events), to compare with a recorded game."""
    state = GAME.setup(players, options, seed)
    rng = Rng(new_rng_state(seed))
    moves = hashlib.sha256()
    n = 0
    while not GAME.is_over(state):
        player = GAME.current_players(state)[0]
        action = choose(state, player, rng)
        _, events = GAME.apply(state, player, action)
        moves.update(canonical_json([player, action, events]).encode())
        n += 1
    final = hashlib.sha256(canonical_json(state).encode()).hexdigest()[:16]
    return n, final, moves.hexdigest()[:16]
