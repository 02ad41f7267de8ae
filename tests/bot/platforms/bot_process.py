"""The crash tests' bot processes, forked from a server that imported the bot once.

A fresh interpreter spends about 2.5 s importing the bot (discord.py, aiohttp, every game) before
it says "ready", and the crash tests start one 10 to 20 times each: most of their time went
there. Here `multiprocessing`'s fork server imports the bot processes' modules once
(tests/bot/platforms/durable_bot.py, durable_discord_bot.py) and forks a new process per start.
Each start is still its own process, with its own event loop, database connection and sockets,
killed with a real SIGKILL or stopped with a real SIGTERM (bot.runner.serve); only the imports
are shared, and no state: the fork server never runs the bot.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from multiprocessing.connection import Connection
from typing import Any

_FORKS = multiprocessing.get_context("forkserver")
_FORKS.set_forkserver_preload(
    ["tests.bot.platforms.durable_bot", "tests.bot.platforms.durable_discord_bot"]
)


def _serve(platform: str, db: str, url: str, handle_delay: float, ready: Connection) -> None:
    """In the forked process: the bot of `platform`, "ready" sent through `ready` once it is up."""
    from bot import eventloop
    from tests.bot.platforms import durable_bot, durable_discord_bot

    logging.basicConfig(level=logging.WARNING)

    def say_ready() -> None:
        ready.send("ready")

    if platform == "telegram":
        eventloop.run(durable_bot.main(db, url, ready=say_ready))
    else:
        eventloop.run(durable_discord_bot.main(db, url, handle_delay, ready=say_ready))


async def _readable(fd: int, timeout: float) -> None:
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def readable() -> None:
        if not done.done():
            done.set_result(None)

    loop.add_reader(fd, readable)
    try:
        await asyncio.wait_for(done, timeout)
    finally:
        loop.remove_reader(fd)


class BotProcess:
    """One bot process at a time: start it, SIGKILL it, SIGTERM it."""

    def __init__(self, platform: str, db: str, url: str) -> None:
        self.platform = platform
        self.db = db
        self.url = url
        self.handle_delay = 0.0
        self.proc: Any = None  # multiprocessing's forkserver Process

    async def start(self) -> None:
        """A new process; back once it said "ready" (its session with the fake is up)."""
        heard, ready = _FORKS.Pipe(duplex=False)
        args = (self.platform, self.db, self.url, self.handle_delay, ready)
        self.proc = _FORKS.Process(target=_serve, args=args, daemon=True)
        # the first start waits for the fork server's imports: not on the fakes' event loop
        await asyncio.to_thread(self.proc.start)
        ready.close()
        try:
            await _readable(heard.fileno(), 60)
            said = heard.recv()  # EOFError: the process died before it was ready
        finally:
            heard.close()
        assert said == "ready", said

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        self.proc.kill()

    def terminate(self) -> None:
        self.proc.terminate()  # SIGTERM

    async def wait(self, timeout: float = 30) -> None:
        """Until the process has exited."""
        await _readable(self.proc.sentinel, timeout)
        self.proc.join()
        self.proc.close()
        self.proc = None
