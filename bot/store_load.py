"""What an inbound message needs from the store before anything happens, read in one call
(issue 23): whether the update was seen already, the chat's settings, the sender's language,
the chat's open game, its seats, the seated users and whether votes stand against the sender.
On SQLite this is one statement (`LOAD_SQL`), run on the loop's thread or in one hand-off to
the reader's thread; on PostgreSQL one query too (bot/store_pg.py). The move pipeline
(bot/moves.py) then needs one more call: the commit."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.store_queries import GAME_COLUMNS

if TYPE_CHECKING:  # the row types live in bot/store.py, which imports this module
    from bot.store import ChatRow, GameRow, SeatRow, UserRow
    from bot.store_plans import ReminderRow


@dataclass(frozen=True)
class Loaded:
    """One message's reads. `users`: every seated human's and the sender's row (defaults for a
    user the store does not know), by user key."""

    seen: bool
    chat: ChatRow
    user: UserRow
    game: GameRow | None
    seats: list[SeatRow] = field(default_factory=list)
    users: dict[str, UserRow] = field(default_factory=dict)
    voted: bool = False  # a vote against the sender stands in the open game (/kick)
    # the open game's reminder row (its turn's deadline: the announcement of a move that asks
    # nobody new says the running one, bot/announce.py), None without one
    reminder: ReminderRow | None = None
    # the stored prefs (/me: time zone, quiet hours) of the sender and the seated, by user key
    # (those who set any): a ping waits for a player's quiet hours (bot/announce.py)
    prefs: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class RawLoad:
    """The rows `load_sync` read, for the store to turn into its row types."""

    seen: bool
    chat: Sequence[Any] | None
    game: Sequence[Any] | None
    seats: list[Sequence[Any]]
    users: list[Sequence[Any]]  # (user_key, lang, dm_ok) of the sender and the seated
    voted: bool
    # (due_at, attempt, turn_started_at, players_json, done_until, notified_at, ask_notified,
    # progress_json)
    reminder: Sequence[Any] | None = None
    prefs: list[tuple[str, str]] = field(default_factory=list)  # (user_key, prefs_json) set


_OPEN_GAME = "g.chat_key = ?1 AND g.status IN ('lobby', 'active')"  # the partial unique index

# One statement, two kinds of rows told apart by the first column (SQLite runs a UNION ALL's
# arms one after the other, but `load_sync` relies on no order):
# 0 — the head, exactly one: seen?, the chat's (lang, settings; NULL settings: no row), the
#     sender's (lang, dm_ok, known?), the open game's columns (NULL id: none), voted?, its
#     reminder's (due_at, attempt, turn_started_at, players_json; NULL: none), the sender's
#     prefs (/me: time zone, quiet hours), the reminder's (done_until, notified_at,
#     ask_notified, progress_json);
# 1 — one per seat of the open game: the seat's columns, then its user's (lang, dm_ok, known?),
#     NULLs, its user's prefs, NULLs.
# Parameters: chat key, user key, inbound platform, inbound update id (NULLs: not asked).
LOAD_SQL = f"""
SELECT 0, EXISTS (SELECT 1 FROM inbound WHERE platform = ?3 AND update_id = ?4),
    c.lang, c.settings_json, u.lang, u.dm_ok, u.user_key IS NOT NULL,
    {", ".join("g." + c.strip() for c in GAME_COLUMNS.split(","))},
    EXISTS (SELECT 1 FROM votes v WHERE v.game_id = g.id AND v.target = ?2),
    r.due_at, r.attempt, r.turn_started_at, r.players_json, u.prefs_json,
    r.done_until, r.notified_at, r.ask_notified, r.progress_json
FROM (SELECT 1) AS one
LEFT JOIN chats c ON c.chat_key = ?1
LEFT JOIN users u ON u.user_key = ?2
LEFT JOIN games g ON {_OPEN_GAME}
LEFT JOIN reminders r ON r.game_id = g.id
UNION ALL
SELECT 1, s.game_id, s.seat, s.user_key, s.display_name, s.is_bot, s.bot_kind, s.lang,
    su.lang, su.dm_ok, su.user_key IS NOT NULL, {", ".join(["NULL"] * 12)}, su.prefs_json,
    NULL, NULL, NULL, NULL
FROM games g JOIN seats s ON s.game_id = g.id LEFT JOIN users su ON su.user_key = s.user_key
WHERE {_OPEN_GAME}
"""


def load_sync(
    con: sqlite3.Connection, chat_key: str, user_key: str, inbound: tuple[str, str] | None
) -> RawLoad:
    """The reads of `Loaded` in one statement, synchronously on the raw connection (in its own
    thread, or the loop's)."""
    head: Sequence[Any] = ()
    seats: list[Sequence[Any]] = []
    users: list[Sequence[Any]] = []
    prefs: list[tuple[str, str]] = []
    for row in con.execute(LOAD_SQL, (chat_key, user_key, *(inbound or (None, None)))):
        if row[0]:
            seats.append(row[1:8])
            if row[10]:
                users.append((row[3], row[8], row[9]))
                if row[23] and row[23] != "{}":
                    prefs.append((row[3], row[23]))
        else:
            head = row
    if head[6]:
        users.append((user_key, head[4], head[5]))
        if head[23] and head[23] != "{}":
            prefs.append((user_key, head[23]))
    seats.sort(key=_seat_number)
    return RawLoad(
        seen=bool(head[1]),
        chat=head[2:4] if head[3] is not None else None,
        game=head[7:18] if head[7] is not None else None,
        seats=seats,
        users=users,
        voted=bool(head[18]),
        reminder=(*head[19:23], *head[24:28]) if head[19] is not None else None,
        prefs=prefs,
    )


def _seat_number(seat: Sequence[Any]) -> int:
    return int(seat[1])
