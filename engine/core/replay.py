"""The replay law: setup(seed) + the action log reproduces the stored state exactly."""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.protocol import Action, Game, State


def replay(
    game: Game,
    players: list[str],
    options: dict[str, str],
    seed: int,
    actions: Iterable[tuple[str, Action]],
) -> State:
    state = game.setup(players, options, seed)
    for player, action in actions:
        state, _events = game.apply(state, player, action)
    return state
