"""Act from the reminder (issue 17) through discord.py's dispatch and HTTP edge: the private
reminder reaches the player's DM with the prompt's buttons; pressed there, the move is played
once and announced in the game's channel; the second press is answered as out of date."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.platforms import discord_bot as dc
from bot.scheduler import Scheduler
from bot.table import Table, open_table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import present
from tests.bot.platforms.fake_discord import (
    ALICE_ID,
    BOB_ID,
    CHANNEL_ID,
    GUILD_ID,
    DiscordHttp,
    _user,
    as_event,
    button_payload,
    discord_http,
    settle,
    slash_payload,
)
from tests.bot.platforms.test_discord import settings

NOW = 1_700_000_000.0
ALICE_DM = ALICE_ID + 1  # the fake's DM channel of a user


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    opened = await open_table(
        str(tmp_path / "dm.sqlite3"),
        clock=lambda: NOW,
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


def in_dm(payload: dict[str, Any], user_id: int, name: str) -> dict[str, Any]:
    """The same press made in the user's DM with the bot: no guild, no member."""
    for key in ("guild_id", "member", "authorizing_integration_owners"):
        payload.pop(key, None)
    payload["user"] = _user(user_id, name)
    payload["channel_id"] = str(ALICE_DM)
    payload["channel"] = {"id": str(ALICE_DM), "type": 1, "recipients": [_user(user_id, name)]}
    payload["message"]["channel_id"] = str(ALICE_DM)
    payload["context"] = 1
    return payload


def channel_texts(http: DiscordHttp, channel_id: int) -> list[str]:
    """What the bot wrote into the channel itself (not as an answer to an interaction): its
    posts and the edits of its live status message (issue 17: a move that asks nobody anew
    is announced there)."""
    where = f"/channels/{channel_id}/messages"
    return [r.json.get("content", "") for r in http.find("POST", where) + http.find("PATCH", where)]


async def test_a_move_from_the_dm_buttons_is_played_once_and_announced_in_the_channel(
    table: Table,
) -> None:
    client = dc.build_client(table, settings(discord_token="t", discord_guild_id=str(GUILD_ID)))
    async with discord_http(client) as http:
        await client.login("t")
        try:
            for payload in (
                slash_payload("new", {"game": "dicepile"}),
                slash_payload("join", user_id=BOB_ID, user_name="Bob"),
                slash_payload("start"),
                slash_payload("take", {"n": 1}),
                slash_payload("take", {"n": 2}, user_id=BOB_ID, user_name="Bob"),
            ):
                client._connection.parse_interaction_create(as_event(payload))
                await settle()
            await drained(table)
            await table.store.set_user(dc.user_key(ALICE_ID), dm_ok=True)
            await Scheduler(table).run_due()
            await drained(table)
            [reminder] = [
                r
                for r in http.find("POST", f"/channels/{ALICE_DM}/messages")
                if "Your move in Dice pile" in r.json.get("content", "")
            ]
            assert "Since your last move (1 move):" in reminder.json["content"]
            ids = [c["custom_id"] for row in reminder.json["components"] for c in row["components"]]
            take3 = next(i for i in ids if i.endswith("/take 3"))

            press = in_dm(
                button_payload(take3, "Take 3", user_id=ALICE_ID, user_name="Alice"),
                ALICE_ID,
                "Alice",
            )
            client._connection.parse_interaction_create(as_event(press))
            await settle()
            await drained(table)
            announced = sum("Alice takes 3." in t for t in channel_texts(http, CHANNEL_ID))
            assert announced >= 1
            told = "; announced in "
            assert any(told in r.json.get("content", "") for r in http.followups())

            again = in_dm(
                button_payload(take3, "Take 3", user_id=ALICE_ID, user_name="Alice"),
                ALICE_ID,
                "Alice",
            )
            client._connection.parse_interaction_create(as_event(again))
            await settle()
            await drained(table)
            # nothing more written about it: the second press played nothing
            assert sum("Alice takes 3." in t for t in channel_texts(http, CHANNEL_ID)) == announced
            assert any("out of date" in r.json.get("content", "") for r in http.followups())
            pk = present(await table.store.open_game(dc.chat_key(CHANNEL_ID))).id
            assert len(await table.store.actions(pk)) == 3
        finally:
            await client.close()
