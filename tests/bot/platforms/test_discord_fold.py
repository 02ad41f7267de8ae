"""A player's acknowledgements of his own moves in a row are one private message on Discord too
(issue 17): through the Discord adapter over discord.py's HTTP edge, the second acknowledgement
edits the first DM (a PATCH in the DM channel) instead of posting; a text that no longer fits
in one Discord message is posted afresh."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.messages import Outbound
from bot.platforms import discord_bot as dc
from bot.store import Store
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import FakeClock
from tests.bot.platforms.fake_discord import ALICE_ID, CHANNEL_ID, GUILD_ID, discord_http
from tests.bot.platforms.test_discord import settings as discord_settings
from tests.bot.platforms.test_quiet_platforms import drained

pytestmark = pytest.mark.timeout(60)

CHAT = f"dc:{CHANNEL_ID}"
ALICE = f"dc:{ALICE_ID}"
DM = ALICE_ID + 1  # the fake's DM channel of a user


def ack(text: str, version: int) -> Outbound:
    return Outbound(CHAT, text, private_to=ALICE, silent=True, fold_of=(1, version, version))


async def test_acknowledgements_in_a_row_are_one_dm_edited_on_discord(
    tmp_path: Path, clock: FakeClock
) -> None:
    store = await Store.open(str(tmp_path / "f.sqlite3"), clock=clock)
    table = Table(store, games={"dicepile": ChatDicePile()}, clock=clock, render=False)
    client = dc.build_client(
        table, discord_settings(discord_token="t", discord_guild_id=str(GUILD_ID))
    )
    try:
        async with discord_http(client) as http:
            await client.login("t")

            async def send(out: Outbound) -> None:
                await table.push([out])  # written to the outbox, the sender loop woken
                await drained(store)

            await send(ack("Standing order saved.", 3))
            await send(ack("You plan to buy 3 oil.", 4))
            [_post] = http.find("POST", f"/channels/{DM}/messages")
            [first] = [m for m in http.messages.values() if m["channel_id"] == str(DM)]
            [edit] = http.find("PATCH", f"/channels/{DM}/messages/{first['id']}")
            assert edit.json["content"] == "Standing order saved.\nYou plan to buy 3 oil."
            assert first["content"] == edit.json["content"]  # the DM now reads both lines
            # a fold that would pass Discord's 2000 characters is a message of its own
            await send(ack("x" * 1990, 5))
            posts = http.find("POST", f"/channels/{DM}/messages")
            assert len(posts) == 2 and posts[-1].json["content"].startswith("xxx")
            assert len(http.find("PATCH", f"/channels/{DM}/messages/")) == 1
    finally:
        await client.close()
        await table.close()
