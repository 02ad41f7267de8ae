"""Issue 22 (3): a player whose DMs are closed, through discord.py's HTTP edge and the real
table's outbox sender loop: the refusal is remembered (no further DM attempts, dm_ok off),
one public mention replaces the private messages, nothing is logged at ERROR, and the DMs
are tried again after the player interacts with the bot (silently when refused again)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.messages import Outbound
from bot.outbox import DM_CLOSED
from bot.platforms import discord_bot as dc
from bot.table import Table, open_table
from tests.bot.chatgame import ChatDicePile
from tests.bot.platforms.fake_discord import (
    BOB_ID,
    CHANNEL_ID,
    GUILD_ID,
    DiscordHttp,
    as_event,
    discord_http,
    settle,
    slash_payload,
)
from tests.bot.platforms.test_discord import settings

CHAT = dc.chat_key(CHANNEL_ID)
BOB = dc.user_key(BOB_ID)


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    opened = await open_table(
        str(tmp_path / "t.sqlite3"),
        clock=lambda: 1_700_000_000.0,
        seeder=lambda: 7,
        games={"dicepile": ChatDicePile()},
        render=False,
    )
    try:
        yield opened
    finally:
        await opened.close()


async def drained(table: Table) -> None:
    for _ in range(500):
        if not await table.store.outbox(status="pending"):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the outbox did not drain")


def dm_attempts(http: DiscordHttp) -> int:
    return len(http.find("POST", f"/channels/{BOB_ID + 1}/messages"))


def mentions(http: DiscordHttp) -> list[str]:
    return [
        r.json["content"]
        for r in http.find("POST", f"/channels/{CHANNEL_ID}/messages")
        if "private message" in r.json.get("content", "")
    ]


async def test_closed_dms_are_remembered_mentioned_once_and_retried_after_a_command(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    client = dc.build_client(table, settings(discord_token="t", discord_guild_id=str(GUILD_ID)))
    async with discord_http(client) as http:
        await client.login("t")
        try:
            http.closed_dms.add(BOB_ID)
            secret = [Outbound(CHAT, "Your hand", private_to=BOB, mentions=[(BOB, "Bob")])]
            with caplog.at_level(logging.INFO):
                for _ in range(3):  # three private messages of one turn
                    await table.push(secret)
                    await drained(table)
            assert dm_attempts(http) == 1  # remembered after the first refusal
            (note,) = mentions(http)
            assert note.startswith(f"<@{BOB_ID}>")
            assert (await table.store.user(BOB)).dm_ok is False
            assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
            assert len([r for r in caplog.records if "does not accept" in r.message]) == 1
            failed = await table.store.outbox(status="failed")
            assert len(failed) == 3

            # Bob uses the bot (here: /status): his DMs are tried again (he may have allowed
            # them meanwhile), once more refused, and not mentioned again: the channel knows
            # (found play-testing: each /status brought another note)
            client._connection.parse_interaction_create(
                as_event(slash_payload("status", user_id=BOB_ID, user_name="Bob"))
            )
            await settle()
            await table.push(secret)
            await drained(table)
            assert dm_attempts(http) == 2 and len(mentions(http)) == 1

            # Bob opens his DMs and uses the bot: the next private message reaches him.
            http.closed_dms.clear()
            client._connection.parse_interaction_create(
                as_event(slash_payload("status", user_id=BOB_ID, user_name="Bob"))
            )
            await settle()
            await table.push(secret)
            await drained(table)
            assert dm_attempts(http) == 3 and len(mentions(http)) == 1
            assert len(await table.store.outbox(status="sent")) >= 1
        finally:
            await client.close()


async def test_the_note_of_a_dm_the_adapter_sends_itself_is_queued_with_the_refusal(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """A private message the adapter sends itself (`send`, not the sender loop's `deliver`),
    refused: the channel's note is an outbox row written with the stored refusal and posted
    by the sender loop, once, as the loop's own notes (before, the adapter posted it at once
    and at every refusal, and stored nothing)."""
    client = dc.build_client(table, settings(discord_token="t", discord_guild_id=str(GUILD_ID)))
    async with discord_http(client) as http:
        await client.login("t")
        try:
            http.closed_dms.add(BOB_ID)
            await table.stop_senders()  # what the adapter posts itself shows alone
            secret = Outbound(CHAT, "Your hand", private_to=BOB, mentions=[(BOB, "Bob")])
            with caplog.at_level(logging.INFO):
                await client.adapter.send(secret)
            assert dm_attempts(http) == 1 and mentions(http) == []
            # his setting, not the bot's failure: nothing at ERROR in the admin's log
            assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
            assert (await table.store.user_prefs([BOB]))[BOB].get(DM_CLOSED) is True
            [note] = await table.store.outbox(CHAT, status="pending")
            assert "@Bob, I could not send you" in note.body["text"]

            loop = client.adapter.outbox
            assert loop is not None
            loop.start()
            await drained(table)
            (posted,) = mentions(http)
            assert posted.startswith(f"<@{BOB_ID}>") and "Your hand" not in posted
            with caplog.at_level(logging.INFO):
                await client.adapter.send(secret)  # known refused: not tried, not noted again
            await drained(table)
            assert dm_attempts(http) == 1 and len(mentions(http)) == 1
            assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        finally:
            await client.close()
