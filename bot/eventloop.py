"""The event loop `boardchat run` turns on: uvloop when it is installed (a dependency on Linux
and macOS), else asyncio's own; `BOARDCHAT_LOOP=asyncio` chooses asyncio's anyway.

Why uvloop: a move's service path is mostly the loop's own bookkeeping around a few awaits
(the store's hand-off, asyncpg's round trips, the platform's HTTP), and uvloop does that
bookkeeping in C. asyncpg, aiohttp (discord.py) and httpx/tornado (python-telegram-bot) all
run on it unchanged. bench/table_latency.py `--loop` measures both.
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


def loop_factory(choice: str = "auto") -> LoopFactory | None:
    """The factory of the chosen loop; None for asyncio's default."""
    choice = (choice or "auto").strip().lower()
    if choice not in CHOICES:
        raise LoopError(f"BOARDCHAT_LOOP={choice!r}: expected one of {', '.join(CHOICES)}")
    if choice == "asyncio" or (choice == "auto" and not uvloop_installed()):
        return None
    try:
        import uvloop
    except ImportError as err:
        raise LoopError("BOARDCHAT_LOOP=uvloop, but uvloop is not installed") from err
    factory: LoopFactory = uvloop.new_event_loop
    return factory


def loop_name(choice: str = "auto") -> str:
    """ "uvloop" or "asyncio": what `run(…, choice)` would turn on."""
    return "asyncio" if loop_factory(choice) is None else "uvloop"


def run(main: Coroutine[Any, Any, T], choice: str = "auto") -> T:
    """`asyncio.run(main)` on the chosen loop."""
    try:
        factory = loop_factory(choice)
    except LoopError:
        main.close()  # never awaited: say nothing about it on the way out
        raise
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)
