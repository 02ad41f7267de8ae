"""Issue 22 (4): a shared prompt of a simultaneous phase, pressed by each player through
discord.py's dispatch: every button stays valid for a player while its move is legal for
them; a press whose move no longer is gets the "out of date" toast and changes nothing."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.platforms import discord_bot as dc
from bot.table import Table, open_table
from tests.bot.chatgame import Together as ChatTogether
from tests.bot.platforms.fake_discord import (
    ALICE_ID,
    BOB_ID,
    CHANNEL_ID,
    GUILD_ID,
    as_event,
    button_payload,
    discord_http,
    settle,
    slash_payload,
    status_prompt,
)
from tests.bot.platforms.test_discord import settings


class Together(ChatTogether):
    """Everybody takes once per round, in any order (a simultaneous phase), with buttons."""

    id = "together"
    name = "Together"

    def buttons(self, state: dict[str, Any], player: str, t: Any = None) -> list[tuple[str, str]]:
        return [(f"Take {n}", f"/take {n}") for n in (1, 2, 3)]


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    opened = await open_table(
        str(tmp_path / "t.sqlite3"),
        clock=lambda: 1_700_000_000.0,
        seeder=lambda: 7,
        games={"together": Together()},
        render=False,
    )
    try:
        yield opened
    finally:
        await opened.close()


async def test_shared_buttons_serve_every_player_of_a_simultaneous_phase(table: Table) -> None:
    client = dc.build_client(table, settings(discord_token="t", discord_guild_id=str(GUILD_ID)))
    async with discord_http(client) as http:
        await client.login("t")
        try:

            async def feed(payload: dict[str, Any]) -> list[Any]:
                before = len(http.followups())
                client._connection.parse_interaction_create(as_event(payload))
                await settle()
                return http.followups()[before:]

            await feed(slash_payload("new", {"game": "together"}))
            await feed(slash_payload("join", user_id=BOB_ID, user_name="Bob"))
            await feed(slash_payload("start"))
            prompt = await status_prompt(http)
            ids = [c["custom_id"] for r in prompt.json["components"] for c in r["components"]]
            take1 = next(i for i in ids if i.endswith("/take 1"))
            take2 = next(i for i in ids if i.endswith("/take 2"))
            assert f"<@{ALICE_ID}>" in prompt.json["content"]
            assert f"<@{BOB_ID}>" in prompt.json["content"]

            async def status() -> str:
                """The latest text of the table's live status message (issue 17)."""
                rows = await table.store.outbox(dc.chat_key(CHANNEL_ID))
                last = [r for r in rows if r.kind == "edit"][-1]
                return "\n".join([*last.body["status_lines"], last.body["text"]])

            # Nobody is newly asked: no new message, the move goes into the status message.
            alice = await feed(button_payload(take1, user_id=ALICE_ID, user_name="Alice"))
            assert all(r.ephemeral for r in alice if r.json.get("content"))
            assert "Alice takes 1." in await status()
            # Bob presses the same prompt after Alice's move bumped the version: still his.
            bob = await feed(button_payload(take2, user_id=BOB_ID, user_name="Bob"))
            assert "Bob takes 2." in await status()
            assert not any("out of date" in r.json.get("content", "") for r in bob)

            row = await table.store.open_game(dc.chat_key(CHANNEL_ID))
            assert row is not None and row.state_json is not None
            assert json.loads(row.state_json)["waiting"] == ["Alice", "Bob"]  # a new round
            # The button Alice pressed already is out of date for her (a second tap must not
            # take again: bot/moment.py `Pressed`); the old prompt's other button is legal for
            # her again (she has not taken this round); once she has, it is out of date too.
            row = await table.store.open_game(dc.chat_key(CHANNEL_ID))
            assert row is not None
            version, state = row.version, row.state_json
            tapped = await feed(button_payload(take1, user_id=ALICE_ID, user_name="Alice"))
            assert [r.ephemeral for r in tapped] == [True]
            assert "out of date" in tapped[0].json["content"]
            row = await table.store.open_game(row.chat_key)
            assert row is not None and (row.version, row.state_json) == (version, state)
            await feed(button_payload(take2, user_id=ALICE_ID, user_name="Alice"))
            row = await table.store.open_game(dc.chat_key(CHANNEL_ID))
            assert row is not None and row.version > version
            version, state = row.version, row.state_json
            again = await feed(button_payload(take2, user_id=ALICE_ID, user_name="Alice"))
            assert [r.ephemeral for r in again] == [True]
            assert "out of date" in again[0].json["content"]
            row = await table.store.open_game(row.chat_key)
            assert row is not None and (row.version, row.state_json) == (version, state)
        finally:
            await client.close()
