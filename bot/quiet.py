"""The noise budget of a table (issue 17): who a run of moves may notify.

A table in a group chat is quiet: a move makes at most one new message, and only the message
that asks a person to act notifies (mention and sound); everything else is sent silently or
folded into the table's live status message, which the sender loop edits in place.

Who is *pinged* (notified) after a run of moves: a human who is asked to act now, was not asked
before the run, and has not acted yet in the current phase. Within a phase that comes back to a
player (an auction), he is engaged: the live status message and a silent line say it is his
turn again, and the reminders (bot/reminders.py) notify him if he lets the table wait. A phase
boundary is a move whose events the table would picture at the `phase` setting (the same
events that start a new phase, round or game turn).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from bot.context import Step
from bot.store import ActionRow
from engine.core.protocol import Event, Game

# How big a moment a move's picture events mark (bot/announce.py posts pictures by it).
TURN, PHASE, ROUND, GAME = 0, 1, 2, 3

# How far back the log is read to find who acted in the current phase.
PHASE_LOOKBACK = 64
# Games whose current phase's players this process remembers (saves reading the log per move).
PHASE_CACHE = 4096
# Platforms where a reply only its sender sees is no post in the chat (a Discord ephemeral
# message): the one who acted is told what his move did even when nobody is asked anew.
EPHEMERAL_PLATFORMS = ("discord",)
# Event lines the live status message shows (the current phase's latest; /log has them all).
STATUS_LINES = 8
# A player's acknowledgements of his own moves that follow each other within this many seconds
# (with nothing else sent to him between) are one private message, edited (bot/outbox.py).
FOLD_WINDOW = 15 * 60.0
# Platforms whose private messages the bot edits (Discord DMs are sent, never edited, there).
FOLD_PLATFORMS = ("telegram",)
# Discord's limit; Telegram allows 4096 (bot/grammar.py MAX_TEXT).
STATUS_LIMIT = 2000


def picture_level(events: Sequence[Event], round_after: Any = None) -> int | None:
    """How big a moment a move's picture events mark (None: no picture event). A phase or a
    new step is a PHASE; the last phase of a round (Power Grid's bureaucracy), a round ending,
    or a game turn that is the game's round (IEC) is a ROUND; a player's turn inside a round
    (Hexania: its `turn_ended` carries the round, which a round's last turn moves on; in the
    log the `round_ended` event beside it says so) is a TURN; the end of the game or of a
    player is a GAME."""
    level: int | None = None
    for e in events:
        kind = e.get("type")
        if kind in ("game_over", "eliminated"):
            lvl = GAME
        elif kind == "round_ended" or (kind == "phase_ended" and e.get("phase") == "bureaucracy"):
            lvl = ROUND
        elif kind == "turn_ended" and "round" in e:
            lvl = ROUND if round_after is not None and round_after != e["round"] else TURN
        elif kind == "turn_ended":
            lvl = ROUND
        else:
            lvl = PHASE
        level = lvl if level is None else max(level, lvl)
    return level


def _level_at_least_phase(events: Sequence[Event], round_after: Any = None) -> bool:
    level = picture_level(events, round_after)
    return level is not None and level >= PHASE


def step_ends_phase(step: Step) -> bool:
    """Whether this committed step starts a new phase (or round, or game turn)."""
    if not step.picture_events:
        return False
    round_after = None
    if any(e.get("type") == "turn_ended" and "round" in e for e in step.picture_events):
        state = json.loads(step.state_json)
        round_after = state.get("round") if not state.get("over") else -1
    return _level_at_least_phase(step.picture_events, round_after)


def action_ends_phase(game: Game, action: ActionRow) -> bool:
    """The same for a logged action (its events, a round's end marked beside them)."""
    events = [
        e
        for e in action.events
        if isinstance(e, dict) and (e.get("type") == "round_ended" or game.is_picture_event(e))
    ]
    return bool(events) and _level_at_least_phase(events)


def acted_in_phase(
    game: Game, steps: Sequence[Step], log: Iterable[ActionRow] | None
) -> tuple[set[str], bool]:
    """The players who acted in the current phase, from this run's steps back to the last
    phase boundary, then (when the run has none) the log, newest first. The flag says whether
    the log is still needed (no boundary in the run) — the caller reads it only then."""
    acted: set[str] = set()
    for step in reversed(steps):
        if step_ends_phase(step):
            return acted, False
        if step.player:
            acted.add(step.player)
    if log is None:
        return acted, True
    for action in sorted(log, key=lambda a: a.seq, reverse=True):
        if action_ends_phase(game, action):
            break
        acted.add(action.player)
    return acted, False


def pinged(
    asked: Sequence[str], before: Collection[str] | None, engaged: Collection[str]
) -> list[str]:
    """Of the humans asked now, those to notify: newly asked and not engaged in this phase."""
    return [p for p in asked if (before is None or p not in before) and p not in engaged]


def status_text(lines: Sequence[str], asked: str) -> str:
    """The live status message: the phase's latest event lines, then who acts and what is
    asked (and the deadline), within one message."""
    head = "\n".join(lines)
    text = f"{head}\n\n{asked}" if head and asked else head or asked
    while len(text) > STATUS_LIMIT and lines:
        lines = lines[1:]
        head = "\n".join(lines)
        text = f"{head}\n\n{asked}" if head and asked else head or asked
    return text[:STATUS_LIMIT]
