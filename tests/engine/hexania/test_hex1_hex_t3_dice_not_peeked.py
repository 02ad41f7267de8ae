"""HEX-1 and HEX-T-3: Hexania has no secret but the future dice, rolled at the start of each
turn from the game's RNG (`state["rng"]`), which `view` leaves out (engine/hexania/rules.py).
What the strong bot and /hint (engine/hexania/strong.py) compute for a player may depend only
on what the rules let him know: the position, the dice already rolled, never the rolls to come.

- the RNG is the only part of the state the view does not give: the rest is the view's,
  or follows from it (who rolled last, who has still to play this round);
- noninterference, as tests/engine/iec/test_iec_s10_3_hidden_declarations.py: two states
  with the same `view(state, player)` and different RNGs (so different future rolls) give
  identical determinised worlds (`determinise` re-seeds the RNG from the search's own),
  identical search Decisions (every rollout's value) and identical hints.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from engine.core import EnglishTranslator, Rng, canonical_json
from engine.core.rng import new_rng_state
from engine.core.search import Budget, copy_state
from engine.hexania import GAME, strong
from engine.hexania.board import DICE, DIE_SIDES
from engine.hexania.bots import greedy_bot

State = dict[str, Any]
SEED = 7
STEPS = [10, 23, 41, 60]  # positions of a greedy game the tests search at
RNGS = [new_rng_state(1), new_rng_state(2**40 + 17), new_rng_state(987654321)]


@functools.cache
def _positions() -> list[State]:
    """Every position of a seeded four-player greedy game (the options' defaults)."""
    options = {o.key: o.default for o in GAME.options}
    state = GAME.setup([f"p{i}" for i in range(4)], options, SEED)
    rng = Rng(new_rng_state(SEED))
    out = []
    while not GAME.is_over(state):
        out.append(copy_state(state))
        player = GAME.current_players(state)[0]
        GAME.apply(state, player, greedy_bot(state, player, rng))
    out.append(copy_state(state))
    return out


def _rebuilt(view: dict[str, Any]) -> State:
    """The state as the view gives it, without the RNG."""
    players = sorted(view["players"], key=lambda p: view["players"][p]["seat"])
    mine = view["players"]
    turn = view["turn"]
    order, out = view["order"], view["eliminated"]
    # HEX-T-2: turns go clockwise (`order`) from the starter; a round ends with the last
    # active player in that order, so those still to play are the active ones after him.
    pending = [] if turn is None else order[order.index(turn["player"]) + 1 :]
    return {
        "game": "hexania",
        "players": players,
        "options": view["options"],
        "board": view["board"],
        "eliminated": out,
        "lost_piece": {p: mine[p]["lost_piece"] for p in players},
        "bonus": {p: mine[p]["bonus_next"] for p in players},
        "round_bonus": {p: mine[p]["round_bonus"] for p in players},
        "turns": {p: mine[p]["turns"] for p in players},
        "round": view["round"],
        "pending": [p for p in pending if p not in out],
        "turn": turn,
        "last": None if turn is None else turn["player"],
        "over": view["over"],
        "result": view["result"],
        "end_reason": view["end_reason"],
        "sides": {p: mine[p]["side"] for p in players},
        "order": order,
        "rolloff": view["rolloff"],
    }


def test_hex1_the_rng_is_all_the_view_hides() -> None:
    """Every position of a whole game but the finished one, for every player: the view
    gives back the whole state but its RNG."""
    positions = _positions()
    assert len(positions) > 100
    for state in positions[:-1]:
        for player in state["players"]:
            rebuilt = _rebuilt(GAME.view(state, player))
            assert rebuilt == {k: v for k, v in state.items() if k != "rng"}
    assert GAME.is_over(positions[-1])


def _next_roll(state: State) -> list[int]:
    """The dice the next turn would roll (HEX-T-3): what the bot must not know."""
    rng = Rng(dict(state["rng"]))
    return [rng.die(DIE_SIDES) for _ in range(DICE)]


def _pairs(step: int) -> tuple[State, list[State], str]:
    state = _positions()[step]
    player = GAME.current_players(state)[0]
    others = []
    for box in RNGS:
        other = copy_state(state)
        other["rng"] = dict(box)
        assert canonical_json(GAME.view(other, player)) == canonical_json(GAME.view(state, player))
        others.append(other)
    # The future rolls differ: a search that read them would decide differently.
    assert len({tuple(_next_roll(s)) for s in [state, *others]}) > 1
    return state, others, player


@pytest.mark.parametrize("step", STEPS)
def test_hex_t3_determinise_ignores_the_future_dice(step: int) -> None:
    state, others, player = _pairs(step)
    for seed in range(8):
        world = strong.determinise(state, player, Rng(new_rng_state(seed)))
        assert world["rng"] != state["rng"]
        for other in others:
            twin = strong.determinise(other, player, Rng(new_rng_state(seed)))
            assert canonical_json(twin) == canonical_json(world), seed


@pytest.mark.parametrize("step", STEPS)
def test_hex_t3_strong_search_and_hint_ignore_the_future_dice(step: int) -> None:
    """The whole decision at a fixed iteration budget: the candidates, every rollout's value
    (what the strong bot chooses from) and the hint."""
    state, others, player = _pairs(step)
    budget = Budget(iterations=8)
    decided = strong.decide(copy_state(state), player, Rng(new_rng_state(3)), budget)
    assert decided.iterations > 0
    t = EnglishTranslator()
    hint = strong.hint(state, player, t, budget=budget)
    for other in others:
        assert strong.decide(copy_state(other), player, Rng(new_rng_state(3)), budget) == decided
        assert strong.hint(other, player, t, budget=budget) == hint
