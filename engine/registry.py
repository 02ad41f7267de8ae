"""The game registry: every package under engine/ that exposes `GAME` is a game.

Discovery instead of a hand-kept list, so adding a game touches only its own folder.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

import engine
from engine.core.protocol import Game

_NOT_GAMES = {"core"}


@cache
def games() -> dict[str, Game]:
    found: dict[str, Game] = {}
    for info in pkgutil.iter_modules(engine.__path__):
        if not info.ispkg or info.name in _NOT_GAMES:
            continue
        module = importlib.import_module(f"engine.{info.name}")
        game = getattr(module, "GAME", None)
        if game is not None:
            found[game.id] = game
    return dict(sorted(found.items()))


def get(game_id: str) -> Game:
    try:
        return games()[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(games())}") from None
