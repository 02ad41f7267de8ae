"""The connection handling every part of the SQLite store shares (bot/store.py and its mixins).

Two connections per store: one writer, used only inside `BEGIN IMMEDIATE` transactions under an
asyncio lock (SQLite has one writer anyway), and one reader in autocommit mode, which in WAL
mode sees only committed data.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import aiosqlite

Clock = Callable[[], float]
T = TypeVar("T")


async def fetch(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    """Run a query and fetch every row in one thread round trip."""
    return list(await db.execute_fetchall(sql, params))


async def rollback(db: aiosqlite.Connection) -> None:
    """Roll back if a transaction is open (a failed COMMIT may already have ended it)."""
    if db.in_transaction:
        await db.execute("ROLLBACK")


class StoreBase:
    """The writer and reader connections, the write lock and the clock."""

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection, clock: Clock):
        self._w = writer
        self._r = reader
        self._clock = clock
        self._write_lock = asyncio.Lock()
        self.path = ""

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._write_lock:
            await self._w.execute("BEGIN IMMEDIATE")
            try:
                yield self._w
            except BaseException:
                await rollback(self._w)
                raise
            else:
                await self._w.execute("COMMIT")

    async def _tx_sync(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """One write transaction in a single hand-off to the writer's thread: `work` runs
        every statement synchronously on the raw connection between BEGIN IMMEDIATE and
        COMMIT (rolled back if it raises). The hot path of a move (bot/store.py)."""

        def run() -> T:
            con = self._w._conn  # aiosqlite's connection, used in its own thread
            con.execute("BEGIN IMMEDIATE")
            try:
                result = work(con)
            except BaseException:
                if con.in_transaction:
                    con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")
            return result

        async with self._write_lock:
            return await self._w._execute(run)

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await fetch(self._r, sql, params)  # one thread hop, not three
        return rows[0] if rows else None

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await fetch(self._r, sql, params)
