"""What Power Grid and its alternative rules hide alike, as changes of a state that keep every
player's `view` but the owner's (PG-9: money under `hidden_money`, the deck's order and the
plants removed at setup; the RNG): the noninterference tests of both games' sampling
(tests/engine/powergrid/test_pg9_pg_o_pg42_determinise_hidden.py,
tests/engine/powergrid_alt/test_alt10_alt30_hidden_declarations.py) pair a state with its
changed copy. A change takes (state, the observer, the rival whose secret changes)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core.rng import new_rng_state
from engine.powergrid.data import STEP3

State = dict[str, Any]
Change = Callable[[State, str, str], None]


def nothing(state: State, me: str, rival: str) -> None:
    return None


def money(delta: int) -> Change:
    """PG-9 option `hidden_money`: the rival's money."""

    def change(state: State, me: str, rival: str) -> None:
        state["players"][rival]["money"] += delta

    return change


def deck_reversed(state: State, me: str, rival: str) -> None:
    """PG-9/PG-12: the deck's order (only its size and the Step 3 card are public)."""
    deck = state["deck"]
    at = [i for i, n in enumerate(deck) if n != STEP3]
    for i, n in zip(at, reversed([deck[i] for i in at]), strict=True):
        deck[i] = n


def removal_swapped(dealt: Sequence[int]) -> Change:
    """PG-9/PG-12: which plants were removed at setup (`dealt`: the setup's deck), one of
    them in the deck instead."""
    removed = sorted(n for n in range(11, 51) if n not in dealt and n != STEP3)

    def change(state: State, me: str, rival: str) -> None:
        deck = state["deck"]
        deck[next(i for i, n in enumerate(deck) if n != STEP3)] = removed[0]

    return change


def reseeded(state: State, me: str, rival: str) -> None:
    """The game's RNG: the future shuffles (PG-47)."""
    state["rng"] = new_rng_state(987654321)
