"""Figures per player per round, from replaying the log (setup + actions), and the states at
which the game shows a picture (for the replay). Pure: no Pillow, no store."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.protocol import Action, Game, State


@dataclass
class Figures:
    """periods[i] is a round (turn) number; values[key][player][i] the figure at its end."""

    periods: list[int] = field(default_factory=list)
    values: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # key -> English label (msgid)

    def add(self, period: int, score: dict[str, dict[str, int]]) -> None:
        self.periods.append(period)
        for player, figures in score.items():
            for key, value in figures.items():
                self.values.setdefault(key, {}).setdefault(player, []).append(int(value))


def replay_figures(
    game: Game,
    players: list[str],
    options: dict[str, str],
    seed: int,
    actions: Sequence[tuple[str, Action]],
    on_picture: Callable[[int, State], None] | None = None,
) -> tuple[Figures, State]:
    """Replay the game; record the figures when a round ends (and at the end). `on_picture`
    is called with (picture index, state) after every action that shows a picture."""
    if not game.series:
        raise KeyError(f"{game.id} declares no figures (engine/{game.id}/logtext.py)")
    period = game.period
    score = game.score
    figures = Figures(labels=dict(game.series))
    state = game.setup(list(players), dict(options), seed)
    current = period(state)
    last_score = score(state)
    pictures = 0
    for player, action in actions:
        state, events = game.apply(state, player, action)
        now = period(state)
        if now != current:
            figures.add(current, last_score)  # the figures as that round ended
            current = now
        last_score = score(state)
        if on_picture is not None and any(game.is_picture_event(e) for e in events):
            on_picture(pictures, state)
        if any(game.is_picture_event(e) for e in events):
            pictures += 1
    figures.add(current, last_score)
    return figures, state


def picture_count(
    game: Game, players: list[str], options: dict[str, str], seed: int, actions: Any
) -> int:
    """How many pictures the game showed (one per action with a picture event)."""
    count = 0

    def seen(_index: int, _state: State) -> None:
        nonlocal count
        count += 1

    replay_figures(game, players, options, seed, actions, on_picture=seen)
    return count


def deciding(game: Game, state: State) -> list[tuple[str, dict[str, int]]]:
    return game.deciding(state)
