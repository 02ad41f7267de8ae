"""The event loop `boardchat run` turns on. `BOARDCHAT_LOOP=auto` (the default): uvloop on
PostgreSQL when it is installed (a dependency on Linux and macOS), asyncio's own loop on
SQLite; `uvloop` or `asyncio` choose one whatever the database.

Why by database, measured back to back on the 2-core machine (bench/table_latency.py `--loop`,
three rounds each, 2026-11-27): on PostgreSQL a move is a few asyncpg round trips, whose
protocol uvloop runs in C: 758-766 moves/s against 670-711 on asyncio, p50 7.3-7.5 ms against
6.9-8.3. On SQLite the store runs its statements on the loop's own thread, so there is little
for uvloop to speed up: the same moves/s (820-853 against 829-843) and a later p50 (1.9-2.1 ms
against 1.5), as the two senders' moves interleave differently. asyncpg, aiohttp (discord.py)
and httpx/tornado (python-telegram-bot) all run on either loop unchanged.
"""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

# BOARDCHAT_LOOP: "auto" (uvloop when installed), "uvloop" (refuse to start without it),
# "asyncio" (the standard library's loop).
CHOICES = ("auto", "uvloop", "asyncio")

LoopFactory = Callable[[], asyncio.AbstractEventLoop]


class LoopError(ValueError):
    """An unknown BOARDCHAT_LOOP, or uvloop asked for and not installed."""


def uvloop_installed() -> bool:
    return importlib.util.find_spec("uvloop") is not None


def _postgresql(db: str | None) -> bool:
    return db is not None and db.startswith(("postgresql://", "postgres://"))


def loop_factory(choice: str = "auto", db: str | None = None) -> LoopFactory | None:
    """The factory of the chosen loop for database `db` (BOARDCHAT_DB); None for asyncio's."""
    choice = (choice or "auto").strip().lower()
    if choice not in CHOICES:
        raise LoopError(f"BOARDCHAT_LOOP={choice!r}: expected one of {', '.join(CHOICES)}")
    if choice == "asyncio" or (choice == "auto" and not (_postgresql(db) and uvloop_installed())):
        return None
    try:
        import uvloop
    except ImportError as err:
        raise LoopError("BOARDCHAT_LOOP=uvloop, but uvloop is not installed") from err
    factory: LoopFactory = uvloop.new_event_loop
    return factory


def loop_name(choice: str = "auto", db: str | None = None) -> str:
    """ "uvloop" or "asyncio": what `run(…, choice, db)` would turn on."""
    return "asyncio" if loop_factory(choice, db) is None else "uvloop"


def run(main: Coroutine[Any, Any, T], choice: str = "auto", db: str | None = None) -> T:
    """`asyncio.run(main)` on the loop chosen for database `db`."""
    try:
        factory = loop_factory(choice, db)
    except LoopError:
        main.close()  # never awaited: say nothing about it on the way out
        raise
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)
