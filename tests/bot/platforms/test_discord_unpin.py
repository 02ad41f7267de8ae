"""The live status message comes off the pins when the game ends, on Discord too (issue 17):
through the Discord adapter over discord.py's HTTP edge; without Manage Messages the unpin is
refused and ignored."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.messages import Inbound
from bot.platforms import discord_bot as dc
from bot.store import Store
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import FakeClock, present
from tests.bot.platforms.fake_discord import ALICE_ID, BOB_ID, CHANNEL_ID, GUILD_ID, discord_http
from tests.bot.platforms.test_discord import settings as discord_settings
from tests.bot.platforms.test_quiet_platforms import drained

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("may_unpin", [True, False])
async def test_abort_unpins_the_status_message_on_discord(
    tmp_path: Path, clock: FakeClock, may_unpin: bool
) -> None:
    store = await Store.open(str(tmp_path / "d.sqlite3"), clock=clock)
    table = Table(
        store, games={"dicepile": ChatDicePile()}, clock=clock, render=False, seeder=lambda: 4
    )
    chat = f"dc:{CHANNEL_ID}"
    ids = {"Ann": ALICE_ID, "Bob": BOB_ID}

    async def say(name: str, text: str) -> None:
        await table.handle(Inbound("test", chat, f"dc:{ids[name]}", name, text=text))
        await drained(store)

    client = dc.build_client(
        table, discord_settings(discord_token="t", discord_guild_id=str(GUILD_ID))
    )
    try:
        async with discord_http(client) as http:
            await client.login("t")
            try:
                await say("Ann", "/new dicepile")
                await say("Bob", "/join")
                await say("Ann", "/start")
                pk = present(await store.open_game(chat)).id
                known = await store.status_message(pk)
                assert known is not None and http.pinned[CHANNEL_ID] == int(known.message_id)
                http.may_pin = may_unpin
                await say("Ann", "/abort confirm")
                assert await store.open_game(chat) is None
                unpins = [r for r in http.requests if r.method == "DELETE" and "pins" in r.path]
                assert [r.path.rsplit("/", 1)[-1] for r in unpins] == [known.message_id]
                assert (CHANNEL_ID in http.pinned) is not may_unpin
                assert not [r for r in await store.outbox(chat) if r.status == "failed"]
            finally:
                await client.close()
    finally:
        await table.close()
