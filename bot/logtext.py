"""`/log` in words (issue 25): a game's action log as lines in the reader's language.

Each logged action becomes one line that starts with its number and the acting player, then
the lines of what it caused, indented, in the game's own voice: a phase that ends because a
bot passed is the game's news, not the bot's. The words come from the game: its
`describe_event` for events and, when no event names the actor, its `describe_action` (a
declared member of the game's chat part). Private events and private actions are shown only
as the table may know them: the public line of the event, or "bob makes a private choice.";
the owner of a private event reads its private line. A game of days reads its days: a page
puts the day's date above its first move of each day ("— Tue, March 3 —", in the reader's
words and the chat's time zone). Pure: no store, no chat.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol

from babel.dates import format_skeleton

from bot.deadlines import zone
from engine.core.protocol import Action, Event, Game, State, Translator

PER_PAGE = 10

# The day of a moment (epoch seconds) as its reader names it.
DayOf = Callable[[float], str]


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
    game: Game,
    state: State,
    entry: Entry,
    t: Translator,
    viewer: str | None = None,
    number: int | None = None,
    unnumbered: bool = False,
) -> list[str]:
    """The lines of one logged action: the actor's line first, then the game's. `number`: its
    place among the moves the table sees (`numbered`; default its log sequence number);
    `unnumbered`: an entry only its author sees, shown without one."""
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
        # the head only when the first line is the actor's own: a line further down is what
        # the move set off (IEC: the last /done of a phase resolves everybody's production),
        # not the move, and must keep its place (found through Telegram, 2026-12-04:
        # "#22 Ann's mine W2 extracts no A." for Ann's /done, ahead of Bob's mixer)
        if mine is None and not rest and event.get("player") == actor:
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
    head = f"   ◦ {mine}" if unnumbered else f"#{entry.seq if number is None else number} {mine}"
    return [head] + [f"   · {line}" for line in rest]


def private_only(game: Game, state: State, entry: Entry, t: Translator) -> bool:
    """Whether the table learns nothing of an action but that it was made ("bob makes a
    private choice."): a standing order, a declaration kept secret until its phase resolves.
    Such an action is left out of everybody's log but its author's, numbers and counts
    included: how many private choices a player made, and when, is itself his secret (found
    by a leak hunt, 2026-12-04: in the alternative rules' secret Phase 3 the count of those
    lines told who was buying, and an /undo that dropped a rival's order removed its line)."""
    lines = entry_lines(game, state, entry, t, viewer=None, number=0)
    private = t.gettext("{player} makes a private choice.").format(player=entry.player)
    return lines == [f"#0 {private}"]


def numbered(
    game: Game, state: State, entries: Sequence[Entry], t: Translator, viewer: str | None
) -> list[tuple[Entry, int | None]]:
    """The entries `viewer` sees (None: the table), each with its number among the moves the
    table sees (None for `viewer`'s own private ones, which the table does not count)."""
    out: list[tuple[Entry, int | None]] = []
    count = 0
    for entry in entries:
        if private_only(game, state, entry, t):
            if viewer is not None and entry.player == viewer:
                out.append((entry, None))
            continue
        count += 1
        out.append((entry, count))
    return out


def _folded(numbered: Sequence[tuple[int | None, list[str]]]) -> list[str]:
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
        if seq is None:  # the reader's own private entry: never folded
            flush()
            out += lines
            continue
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


def day_of(lang: str, tz: str) -> DayOf:
    """Days as `lang` writes them with the weekday ("Tue, March 3", "вт, 3 марта",
    "wt., 3 marca", "3月3日週二"), in the time zone `tz`."""
    locale = lang if lang in ("ru", "pl", "zh_Hant") else "en"
    where = zone(tz)

    def name(at: float) -> str:
        return format_skeleton("MMMMEd", datetime.fromtimestamp(at, where), locale=locale)

    return name


def _with_days(
    shown: Sequence[tuple[Entry, int | None, list[str]]], day: DayOf | None
) -> list[tuple[int | None, list[str]]]:
    """The entries' lines, a day's date above the first of each day (as a line of its own,
    which `_folded` never folds into a run)."""
    out: list[tuple[int | None, list[str]]] = []
    last: str | None = None
    for entry, number, lines in shown:
        at = getattr(entry, "created_at", None)
        if day is not None and isinstance(at, int | float):
            name = day(float(at))
            if name != last:
                out.append((None, [f"— {name} —"]))
                last = name
        out.append((number, lines))
    return out


def log_page(
    game: Game,
    state: State,
    entries: Sequence[Entry],
    t: Translator,
    viewer: str | None = None,
    page: int = 1,
    per_page: int = PER_PAGE,
    day: DayOf | None = None,
) -> str:
    """Page `page` of the log, newest first by page (page 1: the last `per_page` actions),
    oldest first within a page, with a header saying where the page lies. Pages and numbers
    count the moves the table sees; `viewer`'s own private entries stand, unnumbered, after
    the move they followed. `day`: the days' names, each above its first move on the page
    (the entries' `created_at`); None: no dates."""
    seen = numbered(game, state, entries, t, viewer)
    total = sum(1 for _, n in seen if n is not None)
    if not seen:
        return t.gettext("No moves yet.")
    pages = max(1, math.ceil(total / per_page))
    page = min(max(1, page), pages)
    end = total - (page - 1) * per_page
    start = max(0, end - per_page)
    header = t.gettext("Moves {first}–{last} of {total} (page {page} of {pages})").format(
        first=start + 1, last=end, total=total, page=page, pages=pages
    )
    lines = [header if total else t.gettext("No moves yet.")]  # then his own private ones
    shown: list[tuple[Entry, int | None, list[str]]] = []
    last = 0  # the number of the table's move an own private entry followed
    for entry, number in seen:
        last = number if number is not None else last
        if start < max(last, 1) <= end or total == 0:
            own = number is None
            shown.append((entry, number, entry_lines(game, state, entry, t, viewer, number, own)))
    lines += _folded(_with_days(shown, day))
    if page < pages:
        lines.append(t.gettext("Older moves: /log {page}").format(page=page + 1))
    return "\n".join(lines)


def all_lines(
    game: Game, state: State, entries: Sequence[Entry], t: Translator, viewer: str | None = None
) -> list[str]:
    """Every line of the whole log `viewer` sees (for a test or an export)."""
    out: list[str] = []
    for entry, number in numbered(game, state, entries, t, viewer):
        out += entry_lines(game, state, entry, t, viewer, number, number is None)
    return out
