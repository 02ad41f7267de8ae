"""The durable message path of the store: `inbox` (updates kept before the platform is told
they arrived) and `outbox` (every message a move causes, written in the move's transaction).

A mixin of `bot.store.Store` (migration 3). Rows are addressed by audience, not by text alone:
`audience` is "chat" (the chat `chat_key` reads it) or the user key of the one person who may
read it; `lang` is the catalog language the text was written in; `silent` asks the platform not
to notify; `kind` is "post" (a new message), "edit" (replace the table's live status message) or
"picture" (a board picture: the PNG rides in `png`). The sender loop (bot/outbox.py) delivers
the pending rows of one platform in `id` order per chat and records the platform's message id.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from bot.store_base import StoreBase
from bot.store_queries import MESSAGE_SQLITE as M

# Sent and failed rows, and handled inbox rows, are forgotten after this long.
KEEP_SECONDS = 3 * 24 * 3600.0

AUDIENCE_CHAT = "chat"
KINDS = ("post", "edit", "picture")

MIGRATION: tuple[str, ...] = (
    """CREATE TABLE inbox (
        platform TEXT NOT NULL,
        update_id TEXT NOT NULL,
        payload TEXT NOT NULL,
        received_at REAL NOT NULL,
        handled_at REAL,
        PRIMARY KEY (platform, update_id)
    ) WITHOUT ROWID""",
    "CREATE INDEX inbox_unhandled ON inbox (platform, received_at) WHERE handled_at IS NULL",
    """CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        platform TEXT NOT NULL,
        chat_key TEXT NOT NULL,
        audience TEXT NOT NULL,
        lang TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('post', 'edit', 'picture')),
        silent INTEGER NOT NULL DEFAULT 0,
        body_json TEXT NOT NULL,
        png BLOB,
        game_id INTEGER,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at REAL NOT NULL,
        created_at REAL NOT NULL,
        sent_at REAL,
        message_id TEXT,
        error TEXT
    )""",
    "CREATE INDEX outbox_pending ON outbox (platform, id) WHERE status = 'pending'",
    "CREATE INDEX outbox_by_game ON outbox (game_id) WHERE game_id IS NOT NULL",
)


# The live status message of each game (issue 17): the platform's id of the one message the
# sender loop edits in place ("edit" rows), posted (and pinned) again when it is gone.
STATUS_MIGRATION: tuple[str, ...] = (
    """CREATE TABLE status_messages (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        chat_key TEXT NOT NULL,
        message_id TEXT NOT NULL,
        lines_json TEXT NOT NULL DEFAULT '[]',
        updated_at REAL NOT NULL
    )""",
)


@dataclass(frozen=True)
class StatusMessage:
    """A game's live status message: its platform id and the event lines it shows (those of
    the current phase, newest last; the sender loop adds each edit's lines)."""

    message_id: str
    lines: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class OutRow:
    """One message to write: who reads it, in which language, how, and what it says.

    `body` holds the message fields as JSON data (text, buttons, mentions, sender_only);
    `sent` writes the row as already delivered (the caller shows it itself: the terminal)."""

    platform: str
    chat_key: str
    audience: str
    lang: str
    body: dict[str, Any]
    kind: str = "post"
    silent: bool = False
    png: bytes | None = None
    game_id: int | None = None
    sent: bool = False
    # Seconds the sender loop leaves the row alone (an adapter replying itself may take it).
    delay: float = 0.0


@dataclass(frozen=True)
class OutboxItem:
    """A stored row, as the sender loop and the tests read it."""

    id: int
    platform: str
    chat_key: str
    audience: str
    lang: str
    kind: str
    silent: bool
    body: dict[str, Any]
    png: bytes | None
    game_id: int | None
    status: str
    attempts: int
    next_at: float
    message_id: str | None
    error: str | None
    extra: dict[str, Any] = field(default_factory=dict)


_ITEM_COLUMNS = (
    "id, platform, chat_key, audience, lang, kind, silent, body_json, png, game_id, status, "
    "attempts, next_at, message_id, error"
)


def _item(r: Sequence[Any]) -> OutboxItem:
    return OutboxItem(
        r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), json.loads(r[7]), r[8], r[9], r[10],
        r[11], r[12], r[13], r[14],
    )  # fmt: skip


def outbox_insert(rows: Sequence[OutRow], now: float) -> tuple[str, list[Any]]:
    """The one INSERT ... RETURNING id statement that writes `rows` (not empty)."""
    params: list[Any] = []
    for row in rows:
        params += (
            row.platform,
            row.chat_key,
            row.audience,
            row.lang,
            row.kind,
            int(row.silent),
            json.dumps(row.body, ensure_ascii=False, sort_keys=True),
            row.png,
            row.game_id,
            "sent" if row.sent else "pending",
            now + row.delay,
            now,
            now if row.sent else None,
        )
    marks = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"] * len(rows))
    sql = (
        "INSERT INTO outbox (platform, chat_key, audience, lang, kind, silent, body_json, png, "
        f"game_id, status, next_at, created_at, sent_at) VALUES {marks} RETURNING id"
    )
    return sql, params


async def write_outbox(db: aiosqlite.Connection, rows: Sequence[OutRow], now: float) -> list[int]:
    """Insert `rows` inside the caller's transaction (one statement); their ids, in order."""
    if not rows:
        return []
    found = await db.execute_fetchall(*outbox_insert(rows, now))
    return sorted(int(r[0]) for r in found)


def write_outbox_sync(con: sqlite3.Connection, rows: Sequence[OutRow], now: float) -> list[int]:
    """`write_outbox` on the raw connection, inside a `_tx_sync` transaction."""
    if not rows:
        return []
    return sorted(int(r[0]) for r in con.execute(*outbox_insert(rows, now)).fetchall())


class OutboxMixin(StoreBase):
    """Inbox and outbox (see the module doc)."""

    # ------------------------------------------------------------------ inbox
    async def inbox_put(self, platform: str, update_id: str, payload: str) -> bool:
        """Keep an update before the platform is told it arrived; False when already kept."""
        async with self._tx() as db:
            cur = await db.execute(
                "INSERT OR IGNORE INTO inbox (platform, update_id, payload, received_at) "
                "VALUES (?, ?, ?, ?)",
                (platform, update_id, payload, self._clock()),
            )
            return cur.rowcount == 1

    async def inbox_done(self, platform: str, update_id: str) -> None:
        async with self._tx() as db:
            await db.execute(
                M.inbox_done,
                (self._clock(), platform, update_id),
            )

    async def inbox_pending(self, platform: str, limit: int = 1000) -> list[tuple[str, str]]:
        """(update id, payload) of the updates kept but not handled, oldest first."""
        rows = await self._all(
            M.inbox_pending,
            (platform, limit),
        )
        return [(str(r[0]), str(r[1])) for r in rows]

    # ------------------------------------------------------------------ outbox
    async def outbox_add(self, rows: Sequence[OutRow]) -> list[int]:
        """Write messages that no move carries (a reminder, a note) in a transaction of their
        own; their ids."""
        if not rows:
            return []
        async with self._tx() as db:
            return await write_outbox(db, rows, self._clock())

    async def outbox_due(self, platform: str, now: float, limit: int = 500) -> list[OutboxItem]:
        """The pending rows of `platform` that may go now, oldest first: per chat, the rows up
        to the first one still waiting for its `next_at` (order within a chat is kept)."""
        rows = await self._all(
            f"SELECT {_ITEM_COLUMNS} FROM outbox WHERE platform = ? AND status = 'pending' "
            "ORDER BY id LIMIT ?",
            (platform, limit),
        )
        blocked: set[str] = set()
        due: list[OutboxItem] = []
        for r in rows:
            item = _item(r)
            if item.chat_key in blocked:
                continue
            if item.next_at > now:
                blocked.add(item.chat_key)
                continue
            due.append(item)
        return due

    async def outbox_next_at(self, platform: str) -> float | None:
        """When the next row may go: the earliest `next_at` of each chat's first pending row
        (a chat's later rows wait behind its first)."""
        row = await self._one(
            "SELECT min(first_at) FROM (SELECT next_at AS first_at, min(id) FROM outbox "
            "WHERE platform = ? AND status = 'pending' GROUP BY chat_key)",
            (platform,),
        )
        return float(row[0]) if row is not None and row[0] is not None else None

    async def outbox_sent(self, item_id: int, message_id: str | None) -> None:
        async with self._tx() as db:
            await db.execute(
                "UPDATE outbox SET status = 'sent', sent_at = ?, message_id = ?, "
                "attempts = attempts + 1 WHERE id = ?",
                (self._clock(), message_id, item_id),
            )

    async def outbox_retry(self, item_id: int, next_at: float, error: str) -> None:
        """A delivery that may work later (flood control, a network error): try at `next_at`."""
        async with self._tx() as db:
            await db.execute(
                "UPDATE outbox SET next_at = ?, error = ?, attempts = attempts + 1 WHERE id = ?",
                (next_at, error[:500], item_id),
            )

    async def outbox_failed(self, item_id: int, reason: str) -> None:
        """The platform refused for good (blocked, chat deleted): never retried."""
        async with self._tx() as db:
            await db.execute(
                "UPDATE outbox SET status = 'failed', error = ?, attempts = attempts + 1 "
                "WHERE id = ?",
                (reason[:500], item_id),
            )

    async def outbox(
        self, chat_key: str | None = None, status: str | None = None
    ) -> list[OutboxItem]:
        """Rows for tests and tools, oldest first."""
        sql = f"SELECT {_ITEM_COLUMNS} FROM outbox WHERE 1 = 1"
        params: list[Any] = []
        if chat_key is not None:
            sql += " AND chat_key = ?"
            params.append(chat_key)
        if status is not None:
            sql += " AND status = ?"
            params.append(status)
        return [_item(r) for r in await self._all(sql + " ORDER BY id", params)]

    # ------------------------------------------------------------------ status messages
    async def status_message(self, game_id: int) -> StatusMessage | None:
        """The game's live status message (None: none posted yet)."""
        row = await self._one(M.status_message, (game_id,))
        return StatusMessage(str(row[0]), list(json.loads(row[1]))) if row is not None else None

    async def set_status_message(
        self, game_id: int, chat_key: str, message_id: str, lines: Sequence[str] = ()
    ) -> None:
        """Remember the game's live status message and its lines (a new one replaces the old)."""
        async with self._tx() as db:
            await db.execute(
                M.set_status_message,
                (
                    game_id,
                    chat_key,
                    message_id,
                    json.dumps(list(lines), ensure_ascii=False),
                    self._clock(),
                ),
            )

    async def prune_messages(self) -> None:
        """Forget delivered or failed rows and handled updates older than KEEP_SECONDS."""
        old = self._clock() - KEEP_SECONDS
        async with self._tx() as db:
            await db.execute(M.prune_outbox, (old,))
            await db.execute(M.prune_inbox, (old,))
