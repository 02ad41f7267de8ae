"""A Discord channel without Attach Files, over the wire: the real table and discord.py in this
process against the fake Discord on 127.0.0.1 (tests/bot/platforms/fake_discord_server.py: its
REST API, which refuses a post with files there as Discord does, 403 code 50013, and its
gateway, which brings the interactions), with a restart of the bot between."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from discord.http import Route

from bot.platforms import discord_bot as dc
from bot.table import Table, open_table
from tests.bot.platforms.fake_discord import CHANNEL_ID, GUILD_ID, PNG, Request, slash_payload
from tests.bot.platforms.fake_discord_server import FakeDiscord
from tests.bot.platforms.test_discord import settings
from tests.bot.platforms.test_discord_keywords import board, delivered

pytestmark = pytest.mark.timeout(60)

NOW = 1_700_000_000.0
CHAT = dc.chat_key(CHANNEL_ID)


@asynccontextmanager
async def bot(api: FakeDiscord, db: str) -> AsyncIterator[Table]:
    """The bot up (its gateway session ready) on the database `db`; stopped at the end."""
    table = await open_table(db, clock=lambda: NOW, seeder=lambda: 7)
    client = dc.build_client(table, settings(discord_token="t", discord_guild_id=str(GUILD_ID)))
    client._connection.guild_ready_timeout = 0.05  # the fake's READY lists no guild
    api.expect_ready()
    running = asyncio.create_task(client.start("t"))
    try:
        await asyncio.wait_for(api.ready.wait(), 10)
        yield table
    finally:
        await client.close()
        await running
        await table.close()


async def until(check: Callable[[], Awaitable[bool]]) -> None:
    for _ in range(500):
        if await check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


def channel_posts(api: FakeDiscord, since: int = 0) -> list[Request]:
    path = f"/channels/{CHANNEL_ID}/messages"
    return [r for r in api.http.requests[since:] if r.method == "POST" and r.path == path]


async def test_refused_pictures_are_remembered_across_a_restart_until_a_command_shows_them_allowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "wire.sqlite3")
    async with FakeDiscord() as api:
        monkeypatch.setattr(Route, "BASE", api.base_url)  # every REST call and webhook
        api.http.no_files.add(CHANNEL_ID)
        async with bot(api, db) as table:
            await table.push([board("After the auction, round 1")])
            await delivered(table)
            tried, caption, note = channel_posts(api)
            assert tried.files == [PNG] and caption.files == [] and note.files == []
            assert caption.json["content"] == "After the auction, round 1"
            assert "Attach Files" in note.json["content"]
            seen = len(api.http.requests)
            await table.push([board("After the auction, round 2")])
            await delivered(table)
            assert [(r.json["content"], r.files) for r in channel_posts(api, seen)] == [
                ("After the auction, round 2", [])
            ]
        seen = len(api.http.requests)
        async with bot(api, db) as table:  # the restart remembers the channel
            await table.push([board("After the auction, round 3")])
            await delivered(table)
            assert [(r.json["content"], r.files) for r in channel_posts(api, seen)] == [
                ("After the auction, round 3", [])
            ]
            api.http.no_files.clear()  # an admin grants Attach Files; a command shows it
            await api.dispatch("INTERACTION_CREATE", slash_payload("status"))

            async def allowed() -> bool:
                return await table.store.pictures_refused(CHAT) is None

            await until(allowed)
            seen = len(api.http.requests)
            await table.push([board("After the auction, round 4")])
            await delivered(table)
            assert [(r.json["content"], r.files) for r in channel_posts(api, seen)] == [
                ("After the auction, round 4", [PNG])
            ]
