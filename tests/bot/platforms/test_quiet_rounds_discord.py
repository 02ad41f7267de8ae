"""One ping per player per round (issue 17, bot/quiet.py) through the Discord adapter over
discord.py's HTTP edge: in a round of two laps, a player asked again in the second lap after
acting in the first is told silently (the status message is edited; no post pings him), while
a player whose first-lap move was a forced pass is pinged for his first real ask."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.messages import Inbound
from bot.platforms import discord_bot as dc
from bot.store import Store
from bot.table import Table
from tests.bot.helpers import FakeClock
from tests.bot.platforms.fake_discord import ALICE_ID, BOB_ID, CHANNEL_ID, GUILD_ID, discord_http
from tests.bot.platforms.test_discord import settings as discord_settings
from tests.bot.platforms.test_quiet_platforms import drained
from tests.bot.test_quiet_table import Laps

pytestmark = pytest.mark.timeout(60)

SUPPRESS = 1 << 12  # SUPPRESS_NOTIFICATIONS
IDS = {"Ann": ALICE_ID, "Bob": BOB_ID, "Cyd": 600000000000000003}


async def test_one_ping_per_player_per_round_on_discord(tmp_path: Path, clock: FakeClock) -> None:
    store = await Store.open(str(tmp_path / "r.sqlite3"), clock=clock)
    table = Table(store, games={"dicepile": Laps()}, clock=clock, render=False, seeder=lambda: 4)
    chat = f"dc:{CHANNEL_ID}"
    client = dc.build_client(
        table, discord_settings(discord_token="t", discord_guild_id=str(GUILD_ID))
    )
    try:
        async with discord_http(client) as http:
            await client.login("t")
            try:

                async def say(name: str, text: str) -> None:
                    await table.handle(Inbound("test", chat, f"dc:{IDS[name]}", name, text=text))
                    await drained(store)

                async def lap(names: list[str]) -> list[str]:
                    """One lap; the players the channel's loud posts pinged."""
                    mark = len(http.requests)
                    for name in names:
                        row = await store.open_game(chat)
                        assert row is not None and row.state_json is not None
                        assert Laps().current_players(json.loads(row.state_json))[0] == name
                        await say(name, "/take 1")
                    loud = [
                        r
                        for r in http.requests[mark:]
                        if r.method == "POST"
                        and r.path == f"/channels/{CHANNEL_ID}/messages"
                        and not r.flags & SUPPRESS
                    ]
                    users: list[Any] = [
                        u for r in loud for u in r.json["allowed_mentions"]["users"]
                    ]
                    return [n for u in users for n, i in IDS.items() if str(i) == str(u)]

                await say("Ann", "/new dicepile start=20")
                await say("Bob", "/join")
                await say("Cyd", "/join")
                await say("Ann", "/start")
                await lap(["Ann", "Cyd"])  # round 1 (the phase rule until a round ends)
                await lap(["Ann", "Bob", "Cyd"])
                assert await lap(["Ann", "Cyd"]) == ["Cyd"]  # round 2: Ann was pinged as it began
                mark = len(http.requests)
                # the second lap: Ann and Cyd acted this round (silent), Bob was passed for
                assert await lap(["Ann", "Bob", "Cyd"]) == ["Bob", "Ann"]  # Ann: round 3
                edits = [r for r in http.requests[mark:] if r.method == "PATCH"]
                assert len(edits) >= 3  # each move edited the status message
            finally:
                await client.close()
    finally:
        await table.close()
