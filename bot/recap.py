"""What happened since a player's last move, on one screen: the recap a private reminder
carries (issue 17, "act from the reminder").

The lines are the log's (bot/logtext.py): every action since the player's own last one, with
the public lines of what it caused and the player's own private lines (a private event of
someone else reads as its public line, as in /log). A long recap keeps the newest lines and
says how many earlier moves `/log` shows. `phase_ended` tells whether a phase (or round) ended
meanwhile, when the reminder also brings the latest picture of the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot import logtext
from bot.i18n import translator
from engine.core.protocol import Event, Game, State

# One screen of a phone: about this many lines and characters.
MAX_LINES = 14
MAX_CHARS = 1400


@dataclass(frozen=True)
class Recap:
    text: str  # "" when nothing happened since the player's last move
    phase_ended: bool
    moves: int  # actions since the player's last one


def since_last_move(entries: Sequence[logtext.Entry], player: str) -> list[logtext.Entry]:
    """The log entries after `player`'s last one (all of them when they never moved)."""
    last = max((i for i, e in enumerate(entries) if e.player == player), default=-1)
    return list(entries[last + 1 :])


def _phase_event(game: Game, event: Event) -> bool:
    """A phase or a round ended (or the game): what the chat gets a picture for by default
    (bot/announce.py `picture_level` at PHASE or above; a Hexania player's turn inside a
    round is below it, its round's end is not)."""
    if not isinstance(event, dict):
        return False
    if event.get("type") == "round_ended":
        return True
    if event.get("type") == "turn_ended" and "round" in event:
        return False
    try:
        return bool(game.is_picture_event(event))
    except Exception:
        return False


def recap(
    game: Game,
    state: State,
    entries: Sequence[logtext.Entry],
    player: str,
    lang: str,
    max_lines: int = MAX_LINES,
    max_chars: int = MAX_CHARS,
) -> Recap:
    """The recap for `player` in `lang` (see the module doc)."""
    t = translator(lang)
    # the moves as /log numbers and shows them: another's private choice is not one
    seen = logtext.numbered(game, state, entries, t, viewer=player)
    numbers = {id(entry): number for entry, number in seen}
    since = [e for e in since_last_move(entries, player) if id(e) in numbers]
    if not since:
        return Recap("", False, 0)
    phase = any(_phase_event(game, e) for entry in since for e in entry.events or ())
    blocks = [
        logtext.entry_lines(game, state, e, t, viewer=player, number=numbers[id(e)]) for e in since
    ]
    kept: list[list[str]] = []
    used_lines = used_chars = 0
    budget = max_lines - 1  # a line for "… n earlier moves" when some are left out
    for block in reversed(blocks):
        size = sum(len(x) + 1 for x in block)
        if kept and (used_lines + len(block) > budget or used_chars + size > max_chars):
            break
        kept.append(block)
        used_lines += len(block)
        used_chars += size
    kept.reverse()
    lines = [line for block in kept for line in block]
    if len(lines) > max_lines or used_chars > max_chars:  # one huge entry: cut it
        lines = [*lines[: max_lines - 1], "…"]
    earlier = len(blocks) - len(kept)
    head = t.ngettext(
        "Since your last move (1 move):", "Since your last move ({n} moves):", len(since)
    ).format(n=len(since))
    if earlier:
        lines.insert(
            0,
            t.ngettext("… 1 earlier move: /log", "… {n} earlier moves: /log", earlier).format(
                n=earlier
            ),
        )
    return Recap("\n".join([head, *lines]), phase, len(since))
