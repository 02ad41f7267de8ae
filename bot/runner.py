"""`boardchat run`: open the table and serve every platform whose token is set.

Each platform module exposes `async def serve(table, settings) -> None` and is imported only
when its token is set (so a missing optional dependency does not stop the other platform).
SIGINT/SIGTERM cancel the platforms; the database is closed on the way out.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import signal
from collections.abc import Callable, Coroutine
from typing import Any

from bot import gctune, workers
from bot.scheduler import SETTLE, Scheduler
from bot.service import PlatformError
from bot.settings import Settings
from bot.table import Table, open_table

log = logging.getLogger(__name__)

Serve = Callable[[Table, Settings], Coroutine[Any, Any, None]]

PLATFORMS = (
    ("telegram", "telegram_token", "bot.platforms.telegram"),
    ("discord", "discord_token", "bot.platforms.discord_bot"),
)


class PlatformsFailed(Exception):
    """Every platform stopped with an error: `boardchat run` has nothing left to serve.
    `config` when each failure was a setting (restarting cannot help)."""

    def __init__(self, failures: dict[str, BaseException]) -> None:
        said = "; ".join(
            f"{name}: {err}" if isinstance(err, PlatformError) else f"{name}: {err!r}"
            for name, err in failures.items()
        )
        super().__init__(said)
        self.config = all(
            isinstance(err, PlatformError) and err.config for err in failures.values()
        )


def platform_servers(settings: Settings) -> dict[str, Serve]:
    """The serve functions of the platforms with a token; a platform that fails to import is
    logged and left out."""
    found: dict[str, Serve] = {}
    for name, token_field, module_name in PLATFORMS:
        if not getattr(settings, token_field):
            continue
        try:
            module = importlib.import_module(module_name)
        except Exception:
            log.exception("%s is configured but %s does not load", name, module_name)
            continue
        found[name] = module.serve
    return found


async def serve(
    settings: Settings, servers: dict[str, Serve] | None = None, table: Table | None = None
) -> None:
    """Run the platforms until cancelled or until SIGINT/SIGTERM; raises PlatformsFailed when
    every platform stopped with an error (a rejected token, an unreachable server)."""
    servers = platform_servers(settings) if servers is None else servers
    if not servers:  # tokens set, but their platforms' modules do not load (logged above)
        error = PlatformError("no platform could load (see the log above)", config=True)
        raise PlatformsFailed({"platforms": error})
    own_table = table is None
    workers.tune()  # the event loop gets the interpreter lock back sooner from busy workers
    # The platforms' messages wait in the outbox for their sender loops (bot/outbox.py), which
    # start when each adapter can deliver: nothing is lost to a sender that is not up yet.
    table = table or await open_table(
        settings.db, default_lang=settings.default_lang, durable=tuple(servers)
    )
    gctune.settle()  # what startup built leaves the collector's walks (bot/gctune.py)
    loop = asyncio.get_running_loop()
    tasks: dict[str, asyncio.Task[None]] = {
        name: asyncio.create_task(fn(table, settings), name=f"platform:{name}")
        for name, fn in servers.items()
    }
    scheduler = Scheduler(table, settle=SETTLE)  # reminders, deadlines (bot/scheduler.py)
    scheduler.start()
    stop = asyncio.Event()
    installed: list[signal.Signals] = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
            installed.append(sig)
        except (NotImplementedError, RuntimeError, ValueError):
            pass  # not the main thread, or not supported here
    stopper = asyncio.create_task(stop.wait(), name="stop-signal")
    # "uvloop" or "asyncio" (bot/eventloop.py): which loop a report came from
    log.info("serving %s on %s", ", ".join(tasks), type(loop).__module__.split(".")[0])
    failures: dict[str, BaseException] = {}
    try:
        pending: set[asyncio.Task[Any]] = {*tasks.values(), stopper}
        while pending:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            if stopper in done:
                log.info("stop signal: shutting down")
                break
            for task in done:
                name = task.get_name()
                if task.cancelled():
                    continue
                err = task.exception()
                if isinstance(err, PlatformError):  # said in one line: no traceback, no token
                    log.error("%s stopped: %s", name, err)
                elif err is not None:
                    log.error("%s stopped with an error", name, exc_info=err)
                else:
                    log.info("%s finished", name)
                if err is not None:
                    failures[name.removeprefix("platform:")] = err
            if pending == {stopper}:
                break
    finally:
        for task in (*tasks.values(), stopper):
            task.cancel()
        await asyncio.gather(*tasks.values(), stopper, return_exceptions=True)
        await scheduler.stop()
        await table.stop_senders()  # what is not delivered stays in the outbox
        for sig in installed:
            loop.remove_signal_handler(sig)
        if own_table:
            await table.close()
    if failures and len(failures) == len(tasks):
        raise PlatformsFailed(failures)
