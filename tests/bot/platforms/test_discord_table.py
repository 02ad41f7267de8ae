"""Discord adapter over the real table service and Power Grid, through discord.py's dispatch."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.platforms import discord_bot as dc
from bot.table import Table, open_table
from tests.bot.platforms.fake_discord import (
    ALICE_ID,
    BOB_ID,
    CHANNEL_ID,
    GUILD_ID,
    DiscordHttp,
    button_payload,
    discord_http,
    settle,
    slash_payload,
)
from tests.bot.platforms.test_discord import settings

NOW = 1_700_000_000.0


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    opened = await open_table(
        str(tmp_path / "boardchat.sqlite3"), clock=lambda: NOW, seeder=lambda: 7
    )
    try:
        yield opened
    finally:
        await opened.close()


@asynccontextmanager
async def running(table: Table) -> AsyncIterator[tuple[dc.BoardchatClient, DiscordHttp]]:
    client = dc.build_client(table, settings(discord_token="t", discord_guild_id=str(GUILD_ID)))
    async with discord_http(client) as http:
        try:
            await client.login("t")
            yield client, http
        finally:
            await client.close()


async def feed(client: dc.BoardchatClient, http: DiscordHttp, payload: dict[str, Any]) -> list:
    """Feed one interaction; return the follow-ups it produced."""
    before = len(http.followups())
    client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    await settle()
    return http.followups()[before:]


NAMES = {ALICE_ID: "Alice", BOB_ID: "Bob"}


def to_act(prompt: Any) -> tuple[int, int]:
    """(who must act, the other player) from a prompt that mentions the player to act."""
    first = next(uid for uid in NAMES if prompt.json["content"].startswith(f"<@{uid}>"))
    return first, next(uid for uid in NAMES if uid != first)


def custom_ids(request: Any) -> list[str]:
    return [c["custom_id"] for row in request.json.get("components", []) for c in row["components"]]


async def test_the_real_commands_sync(table: Table) -> None:
    async with running(table) as (_client, http):
        (sync,) = http.find("PUT", "/commands")
        names = {c["name"] for c in sync.json}
        assert {"new", "join", "start", "bid", "buy", "build", "power"} <= names
        assert len(sync.json) <= 100
        for cmd in sync.json:
            assert 1 <= len(cmd["description"]) <= 100
            assert len(cmd.get("options", [])) <= 25
            for option in cmd.get("options", []):
                assert 1 <= len(option["description"]) <= 100
                assert len(option.get("choices", [])) <= 25
        bid = next(c for c in sync.json if c["name"] == "bid")
        plant = next(o for o in bid["options"] if o["name"] == "plant")
        assert plant.get("autocomplete") is True


async def test_a_power_grid_game_starts_and_plays_through_discord(table: Table) -> None:
    async with running(table) as (client, http):
        (opened,) = await feed(client, http, slash_payload("new", {"game": "powergrid"}))
        assert "Power Grid" in opened.json["content"] and not opened.ephemeral
        assert f"<@{ALICE_ID}>" in opened.json["content"]

        (joined,) = await feed(client, http, slash_payload("join", user_id=BOB_ID, user_name="Bob"))
        assert "Bob" in joined.json["content"]

        started = await feed(client, http, slash_payload("start"))
        pictures = [r for r in started if r.files]
        assert pictures and pictures[0].files[0].startswith(b"\x89PNG")
        prompt = started[-1]
        first, _other = to_act(prompt)  # the prompt mentions the player to act
        buttons = custom_ids(prompt)
        assert buttons and all(b.startswith("bc:") for b in buttons)

        # Autocomplete of a plant number from the game in this channel.
        client._connection.parse_interaction_create(  # type: ignore[arg-type]
            slash_payload("bid", {"plant": ""}, focused="plant")
        )
        await settle()
        choices = http.callbacks()[-1].json["data"]["choices"]
        assert choices and all(c["value"].isdigit() for c in choices)

        # The player to act presses the first "/bid" button of the prompt: the auction opens.
        press = button_payload(buttons[0], user_id=first, user_name=NAMES[first])
        pressed = await feed(client, http, press)
        assert http.callbacks()[-1].json == {"type": 6}
        assert any(not r.ephemeral for r in pressed)
        text = " ".join(r.json.get("content", "") for r in pressed)
        assert f"{NAMES[first]} puts plant" in text

        # The same button again is stale: a private answer, nothing sent to the channel.
        again = await feed(client, http, button_payload(buttons[0], user_id=first))
        assert len(again) == 1 and again[0].ephemeral
        assert "out of date" in again[0].json["content"]


async def test_a_move_out_of_turn_is_refused(table: Table) -> None:
    async with running(table) as (client, http):
        await feed(client, http, slash_payload("new", {"game": "powergrid"}))
        await feed(client, http, slash_payload("join", user_id=BOB_ID, user_name="Bob"))
        started = await feed(client, http, slash_payload("start"))
        first, other = to_act(started[-1])
        (refused,) = await feed(
            client,
            http,
            slash_payload(
                "bid", {"plant": "3", "amount": 3}, user_id=other, user_name=NAMES[other]
            ),
        )
        assert "Not your turn" in refused.json["content"]
        (opened,) = await feed(
            client,
            http,
            slash_payload(
                "bid", {"plant": "3", "amount": 3}, user_id=first, user_name=NAMES[first]
            ),
        )
        assert f"{NAMES[first]} puts plant 3 up for auction at 3" in opened.json["content"]
        assert not opened.ephemeral
        seats = await table.store.seats((await table.store.open_game(f"dc:{CHANNEL_ID}")).id)  # type: ignore[union-attr]
        assert {s.user_key for s in seats} == {f"dc:{ALICE_ID}", f"dc:{BOB_ID}"}
