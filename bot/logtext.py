"""`/log` in words (issue 25): a game's action log as lines in the reader's language.

Each logged action becomes one line that starts with its number and the acting player, then
the lines of what it caused, indented, in the game's own voice: a phase that ends because a
bot passed is the game's news, not the bot's. The words come from the game: its
`describe_event` for events and, when no event names the actor, its `describe_action` (a
declared member of the game's chat part). Private events and private actions are shown only
as the table may know them: the public line of the event, or "bob makes a private choice.";
the owner of a private event reads its private line. Pure: no store, no chat.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol

from engine.core.protocol import Action, Event, Game, State, Translator

PER_PAGE = 10


class Entry(Protocol):
    """One logged action (the store's ActionRow has these fields)."""

    @property
    def seq(self) -> int: ...

    @property
    def player(self) -> str: ...

    @property
    def action(self) -> Any: ...

    @property
    def events(self) -> list[Any]: ...


def event_owner(event: Event) -> str | None:
    """The player an event is private to (as bot/table.py decides), None for a public one."""
    owner = event.get("private_to")
    if isinstance(owner, str) and owner:
        return owner
    if event.get("private") or "secret" in event:
        player = event.get("player")
        return player if isinstance(player, str) and player else None
    return None


def _describe_action(game: Game, state: State, player: str, action: Action, t: Translator) -> str:
    line: str | None = None
    if isinstance(action, dict):
        try:
            line = game.describe_action(state, player, action, t)
        except Exception:
            line = None
    return line or t.gettext("{player} makes a move.").format(player=player)


def entry_lines(
    game: Game, state: State, entry: Entry, t: Translator, viewer: str | None = None
) -> list[str]:
    """The lines of one logged action: the actor's line first, then the game's."""
    actor = entry.player
    mine: str | None = None  # the first event line about the actor's own move
    rest: list[str] = []
    private_move = False
    for event in entry.events or ():
        if not isinstance(event, dict):
            continue
        owner = event_owner(event)
        describe = game.describe_event
        if owner is not None:
            if owner == actor:
                private_move = True
            if owner == viewer:
                private = game.capabilities.private_events
                describe = game.describe_private_event if private else game.describe_event
        try:
            line = describe(state, event, t)
        except Exception:
            line = None
        if not line:
            continue
        if mine is None and event.get("player") == actor:
            mine = line
        else:
            rest.append(line)
    if mine is None:
        if private_move and viewer != actor:
            mine = t.gettext("{player} makes a private choice.").format(player=actor)
        else:
            mine = _describe_action(game, state, actor, entry.action, t)
    if actor not in mine:  # e.g. the owner's private line "Standing order saved."
        mine = f"{actor}: {mine}"
    return [f"#{entry.seq} {mine}"] + [f"   · {line}" for line in rest]


def _folded(numbered: Sequence[tuple[int, list[str]]]) -> list[str]:
    """The entries' lines, a run of one-line entries that say the same ("#1 Bot makes a
    secret choice." five times: a bot's standing orders) as one line "#1–#5 Bot makes ...".
    """
    out: list[str] = []
    run: list[tuple[int, str]] = []  # (seq, the line without its number)

    def flush() -> None:
        if run:
            first, text = run[0]
            last = run[-1][0]
            out.append(f"#{first}–#{last} {text}" if last != first else f"#{first} {text}")
            run.clear()

    for seq, lines in numbered:
        text = lines[0].removeprefix(f"#{seq} ")
        if len(lines) == 1 and run and run[-1][1] == text and run[-1][0] + 1 == seq:
            run.append((seq, text))
            continue
        flush()
        if len(lines) == 1:
            run.append((seq, text))
        else:
            out += lines
    flush()
    return out


def log_page(
    game: Game,
    state: State,
    entries: Sequence[Entry],
    t: Translator,
    viewer: str | None = None,
    page: int = 1,
    per_page: int = PER_PAGE,
) -> str:
    """Page `page` of the log, newest first by page (page 1: the last `per_page` actions),
    oldest first within a page, with a header saying where the page lies."""
    total = len(entries)
    if total == 0:
        return t.gettext("No moves yet.")
    pages = max(1, math.ceil(total / per_page))
    page = min(max(1, page), pages)
    end = total - (page - 1) * per_page
    start = max(0, end - per_page)
    lines = [
        t.gettext("Moves {first}–{last} of {total} (page {page} of {pages})").format(
            first=start + 1, last=end, total=total, page=page, pages=pages
        )
    ]
    lines += _folded([(e.seq, entry_lines(game, state, e, t, viewer)) for e in entries[start:end]])
    if page < pages:
        lines.append(t.gettext("Older moves: /log {page}").format(page=page + 1))
    return "\n".join(lines)


def all_lines(
    game: Game, state: State, entries: Sequence[Entry], t: Translator, viewer: str | None = None
) -> list[str]:
    """Every line of the whole log (for a test or an export)."""
    out: list[str] = []
    for entry in entries:
        out += entry_lines(game, state, entry, t, viewer)
    return out
