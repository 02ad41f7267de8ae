"""The replay law: setup(seed) + the action log reproduces the stored state exactly."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from engine.core.protocol import Action, Event, State


class Replayable(Protocol):
    """What replaying needs of a game: its setup and its apply (any `Rules` has both)."""

    def setup(self, players: list[str], options: dict[str, str], seed: int) -> State: ...

    def apply(self, state: State, player: str, action: Action) -> tuple[State, list[Event]]: ...


def replay(
    game: Replayable,
    players: list[str],
    options: dict[str, str],
    seed: int,
    actions: Iterable[tuple[str, Action]],
) -> State:
    state = game.setup(players, options, seed)
    for player, action in actions:
        state, _events = game.apply(state, player, action)
    return state
