"""The names of chats (issue 17): the title and link an adapter saw, per chat key, so that a
chat is named to a person by its title and a link, never by its key; and whether a chat
refused the bot's pictures (a Discord channel without Attach Files: bot/outbox.py
`PictureMemory`). A mixin of `bot.store.Store`; bot/store_pg.py has the same methods."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store_base import StoreBase
from bot.store_outbox import OutRow, write_outbox
from bot.store_queries import MESSAGE_SQLITE as M

# Appended to the SQLite store's MIGRATIONS (bot/store_schema.py); bot/store_pg_schema.py
# has its twin.
MIGRATION: tuple[str, ...] = (
    "ALTER TABLE chats ADD COLUMN title TEXT",
    "ALTER TABLE chats ADD COLUMN link TEXT",
)
# When the chat last refused a post's pictures (NULL: they go); SQLite's 9th migration,
# PostgreSQL's 12th (DOUBLE PRECISION there).
PICTURES_MIGRATION: tuple[str, ...] = ("ALTER TABLE chats ADD COLUMN pictures_refused_at REAL",)


@dataclass(frozen=True)
class ChatName:
    """What a chat is called where it lives, and a link that opens it (either may be unknown)."""

    title: str | None = None
    link: str | None = None


class ChatNamesMixin(StoreBase):
    async def chat_names(self, chat_keys: Sequence[str]) -> dict[str, ChatName]:
        """The known names of these chats (a chat never named is left out)."""
        keys = sorted(set(chat_keys))
        if not keys:
            return {}
        marks = ", ".join("?" for _ in keys)
        rows = await self._all(
            f"SELECT chat_key, title, link FROM chats WHERE chat_key IN ({marks}) "
            "AND (title IS NOT NULL OR link IS NOT NULL)",
            keys,
        )
        return {r[0]: ChatName(r[1], r[2]) for r in rows}

    async def set_chat_name(self, chat_key: str, title: str | None, link: str | None) -> None:
        async with self._tx() as db:
            await db.execute(
                M.set_chat_name,
                (chat_key, title, link),
            )

    async def pictures_refused(self, chat_key: str) -> float | None:
        """When the chat last refused the bot's pictures; None when they go."""
        row = await self._one(M.pictures_refused, (chat_key,))
        return None if row is None or row[0] is None else float(row[0])

    async def set_pictures_refused(
        self, chat_key: str, at: float | None, note: OutRow | None = None
    ) -> bool:
        """When the chat refused the bot's pictures (None: they go again). `note`, how to allow
        them, is queued in the outbox in the same transaction when this refusal is the first
        since the chat took pictures: a crash cannot keep the refusal and lose its note, and of
        two workers refused at once one notes it. True when the note was queued."""
        async with self._tx() as db:
            before = list(await db.execute_fetchall(M.pictures_refused, (chat_key,)))
            await db.execute(M.set_pictures_refused, (chat_key, at))
            if note is None or at is None or (before and before[0][0] is not None):
                return False
            await write_outbox(db, [note], self._clock())
            return True
