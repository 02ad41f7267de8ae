"""A bot process for the crash tests: the real table (dice pile game), the real Telegram adapter
against the fake Bot API at the given URL, the scheduler, `bot.runner.serve` (SIGTERM).

    python -m tests.bot.platforms.durable_bot <db> <bot api base url>

The crash tests fork it from tests/bot/platforms/bot_process.py (`ready` then says so through a
pipe).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable

from bot import eventloop
from bot.platforms.telegram import build_application, running
from bot.runner import serve
from bot.settings import Settings
from bot.store import Store
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.platforms.fake_telegram import make_settings, no_retries


def print_ready() -> None:
    print("ready", flush=True)


async def main(db: str, base_url: str, ready: Callable[[], None] = print_ready) -> None:
    store = await Store.open(db)
    table = Table(store, games={"dicepile": ChatDicePile()}, render=False, durable=("telegram",))

    async def telegram(table: Table, settings: Settings) -> None:
        app = build_application(table, settings, base_url=base_url, rate_limiter=no_retries())
        async with running(app, settings, poll_timeout=1):
            ready()
            await asyncio.Event().wait()

    try:
        await serve(make_settings(), servers={"telegram": telegram}, table=table)
    finally:
        await table.close()
    print("stopped", flush=True)


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    eventloop.run(main(sys.argv[1], sys.argv[2]))  # as `boardchat run` on SQLite
