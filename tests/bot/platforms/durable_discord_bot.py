"""A bot process for the Discord crash tests: the real table (dice pile game), the real Discord
client (discord.py) against the fake Discord on 127.0.0.1 at the given API URL, the scheduler,
`bot.runner.serve` (SIGTERM). Prints "ready" once the gateway session is up.

    [HANDLE_DELAY=<seconds>] python -m tests.bot.platforms.durable_discord_bot <db> <api url>

The crash tests fork it from tests/bot/platforms/bot_process.py (`ready` then says so through a
pipe, `handle_delay` is HANDLE_DELAY).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Callable

from discord.http import Route

from bot import eventloop
from bot.messages import Inbound, Outbound
from bot.platforms import discord_bot
from bot.runner import serve
from bot.settings import Settings
from bot.store import Store
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.platforms.test_discord import settings as discord_settings

# How long the outbox holds a command's public answers for the interaction's follow-ups: 30 s in
# production (bot/platforms/discord_commands.py). Here a follow-up goes out well under a second
# after the move commits (a restart and the leftover's handling included), and the crash test's
# last check waits out the hold of the answers whose interaction was killed mid-way: 10 s keeps a
# wide margin over the first even on a loaded CI machine (an answer the sender loop posted
# before its follow-up would be a repeated message) and saves 20 s of the second.
REPLY_HOLD = 10.0


def print_ready() -> None:
    print("ready", flush=True)


async def main(
    db: str, api: str, delay: float = 0.0, ready: Callable[[], None] = print_ready
) -> None:
    Route.BASE = api  # every REST call and interaction webhook goes to the fake
    discord_bot.REPLY_HOLD = REPLY_HOLD  # read when the client sets up its delivery
    store = await Store.open(db)
    table = Table(store, games={"dicepile": ChatDicePile()}, render=False, durable=("discord",))
    if delay:  # the crash tests' window between keeping an interaction and handling it
        handle = table.handle

        async def slow(inbound: Inbound) -> list[Outbound]:
            await asyncio.sleep(delay)
            return await handle(inbound)

        table.handle = slow  # type: ignore[method-assign]

    async def discord(table: Table, settings: Settings) -> None:
        client = discord_bot.build_client(table, settings)
        # discord.py holds on_ready until no GUILD_CREATE came for `guild_ready_timeout` (2 s
        # by default): the fake's READY lists no guild, so each of the tests' restarts would
        # wait 2 s for nothing
        client._connection.guild_ready_timeout = 0.05

        async def on_ready() -> None:
            ready()

        client.event(on_ready)  # what `client.on_ready = on_ready` does, typed
        async with client:
            await client.start(settings.discord_token)

    try:
        await serve(
            discord_settings(discord_token="token"), servers={"discord": discord}, table=table
        )
    finally:
        await table.close()
    print("stopped", flush=True)


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    delay = float(os.environ.get("HANDLE_DELAY", "0"))
    eventloop.run(main(sys.argv[1], sys.argv[2], delay))  # as `boardchat run` on SQLite
