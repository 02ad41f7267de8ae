"""The statements of the SQLite store's move transaction (bot/store.py), built once and run
either through aiosqlite or synchronously on the raw connection inside `_tx_sync` (one
hand-off to the database thread per move)."""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from bot.store_queries import SQLITE

if TYPE_CHECKING:
    from bot.store import Due, LogEntry


def players_json(players: Iterable[str]) -> str:
    """The reminder's `players_json` text: the players sorted, as `json.dumps` writes them."""
    return _players_text(tuple(sorted(players)))


@functools.lru_cache(maxsize=4096)
def _players_text(players: tuple[str, ...]) -> str:
    # the standard encoder with ensure_ascii=False builds itself anew on each call (~15 µs,
    # every move writes one): the few sets of players a table sees are worded once
    return json.dumps(list(players), ensure_ascii=False)


def due_sql(pk: int, due: Due | None) -> tuple[str, tuple[Any, ...]]:
    """The statement that writes the game's next reminder (or drops it)."""
    if due is None:
        return SQLITE.drop_reminder, (pk,)
    players = players_json(due.players)
    return (
        SQLITE.new_turn_upsert if due.anew else SQLITE.due_upsert,
        (pk, due.due_at, due.turn_started_at, players, due.ask_notified),
    )


def carried_players(stored: str | None, due: Due) -> str | None:
    """After an undo, the stored turn goes on (its start, deadline, reminders planned or
    sent) and its waiting list is widened with the players asked now: the players_json to
    write with the row's other columns kept, or None when there is no running turn to carry
    (write `due` as a move would). An undo that gave everybody a fresh turn (found through
    Telegram, 2026-12-05) sent the private prompt, recap and picture again to players still
    asked the same thing, and the move played again after it (the same list as before the
    undo) did so once more; the wider list keeps that move's players within the turn, so the
    upsert keeps the turn as it keeps it for any move that asks nobody new."""
    if stored is None:
        return None
    old = json.loads(stored)
    if not old:
        return None
    return players_json({*old, *due.players})


def claimed(con: sqlite3.Connection, inbound: tuple[str, str], now: float) -> bool:
    """Record the platform update id (raw connection); False when it was recorded already."""
    cur = con.execute(SQLITE.claim_inbound, (inbound[0], inbound[1], now))
    return cur.rowcount == 1


def append_sql(
    pk: int, base: int, entries: Sequence[LogEntry], now: float
) -> tuple[str, list[tuple[Any, ...]]]:
    """The executemany that appends log entries; an entry of step k belongs to version
    base + 1 + k and keeps k (a step 0 starts a run of moves). `seq` continues the log,
    computed in the INSERT itself."""
    return (
        "INSERT INTO actions (game_id, seq, version, user_key, player, action_json, "
        "events_json, created_at, step) SELECT ?, coalesce(max(seq), 0) + 1, ?, ?, ?, ?, "
        "?, ?, ? FROM actions WHERE game_id = ?",
        [
            (
                pk,
                base + 1 + e.step,
                e.user_key,
                e.player,
                e.action_json,
                e.events_json,
                now,
                e.step,
                pk,
            )
            for e in entries
        ],
    )


def append_sync(
    con: sqlite3.Connection, pk: int, base: int, entries: Sequence[LogEntry], now: float
) -> None:
    """`append_sql` on the raw connection: one `execute` for the usual single entry."""
    sql, rows = append_sql(pk, base, entries, now)
    if len(rows) == 1:
        con.execute(sql, rows[0])
    else:
        con.executemany(sql, rows)
