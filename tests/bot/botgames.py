"""Whole seeded bot games, played once per test session, for the log and end-of-game tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.core.protocol import Game, State
from engine.core.rng import Rng
from engine.registry import games

PLAYERS = ("alice", "bob", "carol")


@dataclass(frozen=True)
class Row:
    seq: int
    player: str
    action: Any
    events: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class Played:
    game: Game
    players: list[str]
    options: dict[str, str]
    seed: int
    rows: list[Row]
    state: State


@cache
def bot_game(game_id: str, seed: int = 5, players: int = 3) -> Played:
    game = games()[game_id]
    names = list(PLAYERS[:players])
    state = game.setup(names, {}, seed)
    # The best rule-based bot: the searching `strong` one thinks seconds per move (and on the
    # tests' tiny budget plays aimlessly), the IEC `rush` is a one-idea script (issue 24).
    bot = [fn for kind, fn in game.bots.items() if kind not in ("strong", "rush")][-1]
    rng = Rng({"s": seed})
    rows: list[Row] = []
    while not game.is_over(state):
        player = game.current_players(state)[0]
        action = bot(state, player, rng)
        state, events = game.apply(state, player, action)
        rows.append(Row(len(rows) + 1, player, action, events))
        assert len(rows) < 20_000
    return Played(game, names, {}, seed, rows, state)
