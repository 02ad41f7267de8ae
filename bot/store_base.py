"""The connection handling every part of the SQLite store shares (bot/store.py and its mixins).

Two aiosqlite connections per store: one writer, used only inside `BEGIN IMMEDIATE`
transactions under an asyncio lock (SQLite has one writer anyway), and one reader in
autocommit mode, which in WAL mode sees only committed data.

The move's hot path (issue 23) hands nothing to a thread: `load_message` reads on a third,
plain connection on the event loop's thread (`_inline`), and `commit_moves` runs its
transaction on the writer's connection there too, under the write lock. A hand-off costs
50-100 µs and, on a busy machine, milliseconds while the OS schedules the thread; the move's
statements take ~0.1-0.3 ms. The WAL is checkpointed in the reader's thread every
`CHECKPOINT_EVERY` inline commits, so no commit on the loop pays for a checkpoint. Each
inline call still lets the loop turn once before it returns (`yield_once`), as a hand-off
did, so a task making many calls does not keep the loop from the others. When
another process holds the database's write lock the commit goes to the writer's thread,
which waits there (`busy_timeout`) instead of on the loop. The writer's busy timeout is 0
outside `begin`, so the inline BEGIN is one statement; `begin` (always in a thread) waits for
the lock only when the first try finds it taken.
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

# Inline commits between two WAL checkpoints (each commit writes a few pages; SQLite's own
# automatic checkpoint comes at 1,000 pages and would run inside the committing call).
CHECKPOINT_EVERY = 200
# A store call runs inline only when the loop has no more than this many other callbacks
# ready; otherwise it hands off to the database thread. Two chats moving at once leave one or
# two callbacks ready nearly always (the other chat's task, a sleep(0) wake-up): with 0 almost
# every call of bench/table_latency.py's two senders handed off. A flood (bench/loop_lag.py:
# 50 at once) still crowds the loop far past 2, and hands off.
CROWDED = 2
BUSY_TIMEOUT_MS = 10000
_PRAGMAS = (
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = NORMAL",
    "PRAGMA foreign_keys = ON",
)


async def connect(path: str) -> aiosqlite.Connection:
    """An aiosqlite connection; `check_same_thread` off so that the write lock's holder may
    also use it on the loop's thread (`StoreBase._tx_sync`), never at the same time."""
    db = await aiosqlite.connect(path, isolation_level=None, check_same_thread=False)
    for pragma in _PRAGMAS:
        await db.execute(pragma)
    return db


def connect_inline(path: str) -> sqlite3.Connection:
    """The plain reader of the loop's thread (autocommit; WAL: only committed data)."""
    con = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    for pragma in _PRAGMAS:
        con.execute(pragma)
    return con


async def fetch(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    """Run a query and fetch every row in one thread round trip."""
    return list(await db.execute_fetchall(sql, params))


async def rollback(db: aiosqlite.Connection) -> None:
    """Roll back if a transaction is open (a failed COMMIT may already have ended it)."""
    if db.in_transaction:
        await db.execute("ROLLBACK")


def impatient(con: sqlite3.Connection) -> None:
    """The writer's busy timeout off: a BEGIN on the loop's thread must not wait (`begin`
    waits, in a thread, when it has to)."""
    con.execute("PRAGMA busy_timeout = 0")


def begin(con: sqlite3.Connection) -> None:
    """BEGIN IMMEDIATE on the writer, waiting up to BUSY_TIMEOUT_MS for another process's
    write lock. Call it in the writer's thread: one statement when the lock is free, the
    timeout set only around the rare wait."""
    if _begin_now(con):
        return
    con.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    try:
        con.execute("BEGIN IMMEDIATE")
    finally:
        con.execute("PRAGMA busy_timeout = 0")


def run_tx(con: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """`work` between BEGIN IMMEDIATE and COMMIT on the writer's raw connection (rolled back
    if it raises), in the writer's thread."""
    begin(con)
    return finish_tx(con, work)


def finish_tx(con: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """`work` inside the transaction already begun on `con`, then COMMIT (ROLLBACK if it
    raises)."""
    try:
        result = work(con)
    except BaseException:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")
    return result


class StoreBase:
    """The writer and reader connections, the write lock and the clock."""

    def __init__(
        self,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        clock: Clock,
        inline: sqlite3.Connection | None = None,
    ):
        self._w = writer
        self._r = reader
        self._clock = clock
        self._write_lock = asyncio.Lock()
        self.path = ""
        # None: every call hands off to aiosqlite's threads (the behaviour before issue 23's
        # inline path; `Store.open(..., inline=False)`).
        self._inline = inline
        self._commits = 0
        self._checkpoint: asyncio.Task[None] | None = None

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._write_lock:
            await self._w._execute(begin, self._w._conn)  # one hand-off, as `execute` was
            try:
                yield self._w
            except BaseException:
                await rollback(self._w)
                raise
            else:
                await self._w.execute("COMMIT")
                self._count_commit()

    async def _tx_sync(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """One write transaction: `work` runs every statement synchronously on the raw
        connection between BEGIN IMMEDIATE and COMMIT (rolled back if it raises). On the
        loop's thread when the store is inline and no other process writes; else in one
        hand-off to the writer's thread. The hot path of a move (bot/store.py)."""
        con = self._w._conn  # aiosqlite's connection; ours while the write lock is held
        async with self._write_lock:
            if self._go_inline() and _begin_now(con):
                result = finish_tx(con, work)
                self._count_commit()
            else:
                result = await self._w._execute(run_tx, con, work)
                self._count_commit()  # a handed-off commit grows the WAL all the same
                return result
        await yield_once()
        return result

    def _go_inline(self) -> bool:
        """Whether this call may run on the loop's thread: an inline store whose loop is not
        crowded. Under a flood of messages every task running inline is always ready, so
        each turn of the loop runs a slice of every one of them before a timer or a socket
        gets its turn (100 ms and more with 50 at once, bench/loop_lag.py); handing off then
        lets the database thread pace them, as it did before the inline path."""
        return self._inline is not None and ready_callbacks() <= CROWDED

    def _count_commit(self) -> None:
        """Inline stores checkpoint the WAL themselves (`wal_autocheckpoint` is off)."""
        if self._inline is None:
            return
        self._commits += 1
        if self._commits % CHECKPOINT_EVERY == 0 and (
            self._checkpoint is None or self._checkpoint.done()
        ):
            self._checkpoint = asyncio.create_task(self._checkpoint_wal())

    async def _checkpoint_wal(self) -> None:
        """Copy the WAL back into the database in the reader's thread (PASSIVE: writers go
        on meanwhile)."""
        await self._r.execute("PRAGMA wal_checkpoint(PASSIVE)")

    async def _close_connections(self) -> None:
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
        async with self._write_lock:
            if self._inline is not None:
                self._inline.close()
            await self._r.close()
            await self._w.close()

    async def _key_one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """A read of one row by its key (tens of µs): on the loop's thread when inline."""
        if self._inline is None or not self._go_inline():
            return await self._one(sql, params)
        row = self._inline.execute(sql, params).fetchone()
        await yield_once()
        return row

    async def _key_all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The few rows under one key (a game's seats): on the loop's thread when inline."""
        if self._inline is None or not self._go_inline():
            return await self._all(sql, params)
        rows = self._inline.execute(sql, params).fetchall()
        await yield_once()
        return rows

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await fetch(self._r, sql, params)  # one thread hop, not three
        return rows[0] if rows else None

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await fetch(self._r, sql, params)


def ready_callbacks() -> int:
    """How many callbacks the running loop has ready to run now (0 where the loop does not
    tell: a loop other than asyncio's own)."""
    ready = getattr(asyncio.get_running_loop(), "_ready", ())
    return len(ready)


async def yield_once() -> None:
    """Let the loop run what else is ready: an inline store call finishes without waiting,
    and a task that never waits (a sender of many messages) would otherwise keep the loop
    from every other task, and the worker pool's results, until it does (issue 23)."""
    await asyncio.sleep(0)


def _begin_now(con: sqlite3.Connection) -> bool:
    """BEGIN IMMEDIATE without waiting (the writer's busy timeout is 0: `impatient`): False
    when another process holds the write lock (the caller then waits in the writer's thread,
    not on the loop)."""
    try:
        con.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as err:
        if "locked" not in str(err) and "busy" not in str(err):
            raise
        return False
    return True
