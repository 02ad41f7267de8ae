"""The worker pool for CPU-heavy steps: long parses, bot moves, pictures, undo replays.

They run in these threads, off the event loop, so one expensive command never stalls the other
chats. The pool is small on purpose: every busy thread competes with the event loop for the
interpreter lock, so more threads would make the loop wait longer, not shorter.
"""

from __future__ import annotations

import asyncio
import functools
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

WORKERS = 1
# How long a busy worker may hold the interpreter lock before the event loop gets it back
# (Python's default is 5 ms; a shorter slice keeps the loop's worst wait short).
SWITCH_INTERVAL = 0.001
_pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="boardchat-cpu")


def tune() -> None:
    """Give the event loop the interpreter lock back sooner (bot/runner.py calls it once)."""
    sys.setswitchinterval(SWITCH_INTERVAL)


async def cpu(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run `fn(*args, **kwargs)` in the worker pool and wait for it."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_pool, functools.partial(fn, *args, **kwargs))
