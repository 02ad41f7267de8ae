"""The durable message path of the PostgreSQL store (bot/store_pg.py): inbox and outbox, with
the semantics of bot/store_outbox.py's SQLite mixin, for several workers.

- Outbox rows are written inside the transaction that causes them (`boardchat_outbox_add`,
  migration 3, called by the move function too), and the insert sends
  `NOTIFY boardchat_outbox, '<platform>'` at commit: `listen_outbox` wakes the sender loops.
- `outbox_due` *claims* rows: it locks the first pending row of each chat with
  `FOR UPDATE SKIP LOCKED` (a chat another worker is claiming right now is skipped whole, so
  its later rows never jump ahead), then leases the chat's due rows to this store until
  `now + LEASE_SECONDS`. A chat whose first row another worker leases is left alone, so each
  chat is sent by one worker at a time, in order. The lease ends when the row is sent or
  failed; a retry ends the leases of the chat's rows (the sender stops the chat there), and a
  worker that died gives its chats up when the lease runs out. Leases this store holds do not
  block this store (its sender loop asks again only after the last batch is done).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import asyncpg

from bot.store_outbox import KEEP_SECONDS, OutboxItem, OutRow, StatusMessage
from bot.store_pg_timed import LEASE_SECONDS, PgBase, count, write_outbox
from bot.store_queries import MESSAGE_POSTGRES as M

OUTBOX_CHANNEL = "boardchat_outbox"

_ITEM_COLUMNS = (
    "id, platform, chat_key, audience, lang, kind, silent, body_json, png, game_id, status, "
    "attempts, next_at, message_id, error"
)


def _item(r: Any) -> OutboxItem:
    return OutboxItem(
        r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), json.loads(r[7]), r[8], r[9], r[10],
        r[11], r[12], r[13], r[14],
    )  # fmt: skip


class PgOutbox(PgBase):
    """Inbox and outbox (see the module doc)."""

    _listener: asyncpg.Connection | None

    def __init__(self, pool: asyncpg.Pool, clock: Callable[[], float], url: str) -> None:
        super().__init__(pool, clock, url)
        self._token = uuid.uuid4().hex  # whose lease an outbox row is

    # ------------------------------------------------------------------ inbox
    async def inbox_put(self, platform: str, update_id: str, payload: str) -> bool:
        """Keep an update before the platform is told it arrived; False when already kept."""
        status = await self._execute(
            "INSERT INTO inbox (platform, update_id, payload, received_at) "
            "VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            platform,
            update_id,
            payload,
            self._clock(),
        )
        return count(status) == 1

    async def inbox_done(self, platform: str, update_id: str) -> None:
        await self._execute(
            M.inbox_done,
            self._clock(),
            platform,
            update_id,
        )

    async def inbox_pending(self, platform: str, limit: int = 1000) -> list[tuple[str, str]]:
        """(update id, payload) of the updates kept but not handled, oldest first."""
        rows = await self._all(
            M.inbox_pending,
            platform,
            limit,
        )
        return [(str(r[0]), str(r[1])) for r in rows]

    # ------------------------------------------------------------------ outbox
    async def outbox_add(self, rows: Sequence[OutRow]) -> list[int]:
        """Write messages that no move carries in a transaction of their own; their ids."""
        if not rows:
            return []
        async with self._tx() as con:
            return await write_outbox(con, rows, self._clock())

    async def outbox_due(self, platform: str, now: float, limit: int = 500) -> list[OutboxItem]:
        """Claim the rows of `platform` that may go now, oldest first: per chat, the rows up
        to the first one still waiting for its `next_at`, of the chats no other worker holds."""
        async with self._tx() as con:
            heads = await con.fetch(
                "SELECT o.chat_key FROM outbox o WHERE o.id IN (SELECT min(id) FROM outbox "
                "WHERE platform = $1 AND status = 'pending' GROUP BY chat_key) "
                "AND o.status = 'pending' AND o.next_at <= $2 AND (o.leased_until IS NULL "
                "OR o.leased_until <= $2 OR o.leased_by = $3) "
                "ORDER BY o.id LIMIT $4 FOR UPDATE OF o SKIP LOCKED",
                platform,
                now,
                self._token,
                limit,
            )
            if not heads:
                return []
            rows = await con.fetch(
                f"SELECT {_ITEM_COLUMNS} FROM outbox WHERE platform = $1 AND status = 'pending' "
                "AND chat_key = ANY($2::text[]) ORDER BY id LIMIT $3",
                platform,
                [h[0] for h in heads],
                limit,
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
            await con.execute(
                "UPDATE outbox SET leased_until = $1, leased_by = $2 WHERE id = ANY($3::bigint[])",
                now + LEASE_SECONDS,
                self._token,
                [i.id for i in due],
            )
        return due

    async def outbox_next_at(self, platform: str) -> float | None:
        """When the next row may go: the earliest time each chat's first pending row may
        (its `next_at`, or the end of another worker's lease on it)."""
        value = await self._fetchval(
            "SELECT min(CASE WHEN o.leased_by IS DISTINCT FROM $2 AND o.leased_until IS NOT NULL "
            "THEN greatest(o.next_at, o.leased_until) ELSE o.next_at END) FROM outbox o "
            "WHERE o.id IN (SELECT min(id) FROM outbox WHERE platform = $1 "
            "AND status = 'pending' GROUP BY chat_key)",
            platform,
            self._token,
        )
        return None if value is None else float(value)

    async def outbox_sent(self, item_id: int, message_id: str | None) -> None:
        await self._execute(
            "UPDATE outbox SET status = 'sent', sent_at = $1, message_id = $2, "
            "attempts = attempts + 1, leased_until = NULL, leased_by = NULL WHERE id = $3",
            self._clock(),
            message_id,
            item_id,
        )

    async def outbox_retry(self, item_id: int, next_at: float, error: str) -> None:
        """A delivery that may work later: try at `next_at`. The sender stops the chat here,
        so the leases of the chat's rows end (any worker may take the chat up again)."""
        await self._execute(
            "WITH r AS (UPDATE outbox SET next_at = $1, error = $2, attempts = attempts + 1, "
            "leased_until = NULL, leased_by = NULL WHERE id = $3 RETURNING platform, chat_key) "
            "UPDATE outbox o SET leased_until = NULL, leased_by = NULL FROM r "
            "WHERE o.platform = r.platform AND o.chat_key = r.chat_key "
            "AND o.status = 'pending' AND o.id <> $3",
            next_at,
            error[:500],
            item_id,
        )

    async def outbox_failed(self, item_id: int, reason: str) -> None:
        """The platform refused for good (blocked, chat deleted): never retried."""
        await self._execute(
            "UPDATE outbox SET status = 'failed', error = $1, attempts = attempts + 1, "
            "leased_until = NULL, leased_by = NULL WHERE id = $2",
            reason[:500],
            item_id,
        )

    async def outbox(
        self, chat_key: str | None = None, status: str | None = None
    ) -> list[OutboxItem]:
        """Rows for tests and tools, oldest first."""
        rows = await self._all(
            f"SELECT {_ITEM_COLUMNS} FROM outbox WHERE ($1::text IS NULL OR chat_key = $1) "
            "AND ($2::text IS NULL OR status = $2) ORDER BY id",
            chat_key,
            status,
        )
        return [_item(r) for r in rows]

    # ------------------------------------------------------------------ status messages
    async def status_message(self, game_id: int) -> StatusMessage | None:
        """The game's live status message (None: none posted yet)."""
        rows = await self._all(M.status_message, game_id)
        if not rows:
            return None
        return StatusMessage(str(rows[0][0]), list(json.loads(rows[0][1])))

    async def set_status_message(
        self, game_id: int, chat_key: str, message_id: str, lines: Sequence[str] = ()
    ) -> None:
        """Remember the game's live status message and its lines (a new one replaces the old)."""
        await self._execute(
            M.set_status_message,
            game_id,
            chat_key,
            message_id,
            json.dumps(list(lines), ensure_ascii=False),
            self._clock(),
        )

    async def prune_messages(self) -> None:
        """Forget delivered or failed rows and handled updates older than KEEP_SECONDS."""
        old = self._clock() - KEEP_SECONDS
        async with self._tx() as con:
            await con.execute(M.prune_outbox, old)
            await con.execute(M.prune_inbox, old)

    async def listen_outbox(self, callback: Callable[[str], None]) -> None:
        """Call `callback(platform)` whenever any worker committed rows for `platform`."""
        if self._listener is None:
            self._listener = await asyncpg.connect(self.path)
        await self._listener.add_listener(OUTBOX_CHANNEL, lambda *a: callback(str(a[-1])))
