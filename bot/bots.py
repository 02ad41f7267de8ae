"""Bot moves and default moves: the one bot-move picker and the one default-move policy of the
bot, used by the move pipeline (bot seats) and by the reminders (expiry policies).

A game may declare its own default move (`default_action(state, player)`, e.g. Power Grid's
"power the most cities"): game rules live in engine/, never here. Without one, the default
is a pass / done / end action, else the first legal action.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from engine.core import IllegalAction, Rng, copy_state
from engine.core.protocol import Action, Game, State
from engine.core.rng import new_rng_state

log = logging.getLogger(__name__)

# Actions that mean "nothing more from me", in the order a default move prefers them.
NOTHING_TYPES = ("pass", "done", "end", "skip")


def bot_rng(seed: int, version: int) -> Rng:
    """The bots' own random stream for one decision, derived from the game seed and version."""
    return Rng(new_rng_state((seed * 0x9E3779B97F4A7C15 + version * 0xBF58476D1CE4E5B9) ^ seed))


def default_bot_kind(kinds: list[str]) -> str:
    """The bot a plain /addbot seats: the first that plays to win, not the random-legal one."""
    return next((kind for kind in kinds if kind != "random"), kinds[0])


def _probe(game: Game, state: State, player: str, action: Action) -> list[Any] | None:
    """The events of `action` on a copy of `state`, or None when it is illegal."""
    try:
        _, events = game.apply(copy_state(state), player, action)
    except IllegalAction:
        return None
    return list(events)


def generic_default(legal: Sequence[Action], fallback: bool = True) -> Action | None:
    for kind in NOTHING_TYPES:
        for action in legal:
            if isinstance(action, dict) and action.get("type") == kind:
                return action
    return legal[0] if legal and fallback else None


def default_action(game: Game, state: State, player: str) -> Action | None:
    """The move played for a player who ran out of time: the game's declared default move
    when it has one (checked), else a pass / done / end action, else the first legal action.
    None when the player has no legal action."""
    if game.capabilities.default_move:
        try:
            action = game.default_action(copy_state(state), player)
            if action is not None and _probe(game, state, player, action) is not None:
                return dict(action)
        except Exception:
            log.exception("default_action of %s failed", game.id)
    try:
        legal = list(game.legal_actions(copy_state(state), player))
    except Exception:
        log.exception("legal_actions of %s failed", game.id)
        return None
    return generic_default(legal)


def bot_action(game: Game, state: State, player: str, kind: str | None, rng: Rng) -> Action | None:
    """The one bot-move picker: the seat's bot kind, then the game's other kinds (a failing
    bot must not stop the game), each move checked on a copy of the state; then the default
    move; None when nothing is legal."""
    kinds = [kind or ""] + [k for k in game.bots if k != kind]
    for name in kinds:
        fn = game.bots.get(name)
        if fn is None:
            continue
        try:
            action = fn(copy_state(state), player, rng)
            if _probe(game, state, player, action) is not None:
                return action
        except Exception:
            log.exception("bot %r of %s failed for %s", name, game.id, player)
    return default_action(game, state, player)


def bot_kind_for(game: Game) -> str:
    """The kind a seat handed to a bot plays (expiry policy, /away, a vote): the searching
    bot when the game has one (issue 24), else the heuristic one."""
    for kind in ("strong", "heuristic"):
        if kind in game.bots:
            return kind
    return next(iter(game.bots), "")
