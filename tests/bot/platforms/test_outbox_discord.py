"""The outbox path with the real Discord adapter (discord.py over the recording HTTP fake) (issue
16): a minute of rate limits drops nothing and keeps each channel's order; a reminder due while
the bot was down is sent once after the start."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.messages import Outbound
from bot.outbox import OutboxSender, row_of
from bot.platforms import discord_bot as dc
from bot.scheduler import Scheduler
from bot.store import Store
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock
from tests.bot.platforms.fake_discord import (
    CHANNEL_ID,
    GUILD_ID,
    DiscordHttp,
    FakeTable,
    discord_http,
)
from tests.bot.platforms.test_discord import settings

pytestmark = pytest.mark.timeout(60)

OTHER_ID = CHANNEL_ID + 1


@pytest.fixture
async def store(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Store]:
    s = await Store.open(str(tmp_path / "outbox.sqlite3"), clock=clock)
    yield s
    await s.close()


def rate_limited() -> discord.HTTPException:
    """What discord.py raises once its own retries of a 429 are spent."""

    class _Resp:
        status = 429
        reason = "Too Many Requests"

    body = {"message": "You are being rate limited.", "retry_after": 7.0, "global": False}
    return discord.HTTPException(_Resp(), body)


def texts(http: DiscordHttp, channel_id: int) -> list[str]:
    return [m["content"] for m in http.messages.values() if m["channel_id"] == str(channel_id)]


async def test_sixty_seconds_of_rate_limits_drop_nothing(store: Store, clock: FakeClock) -> None:
    client = dc.build_client(FakeTable(), settings(discord_token="t"), sync_commands=False)
    async with discord_http(client) as http:
        http.channels[OTHER_ID] = {**http.channels[CHANNEL_ID], "id": str(OTHER_ID)}
        start = clock.now
        answer = http.answer
        refused: list[str] = []

        def limited(method: str, path: str, body: Any) -> Any:
            if method == "POST" and path.endswith("/messages") and clock.now < start + 60:
                refused.append(path)
                raise rate_limited()
            return answer(method, path, body)

        http.answer = limited  # type: ignore[method-assign]
        try:
            await client.login("t")
            rows = [row_of(Outbound(f"dc:{CHANNEL_ID}", f"games {i}"), "en") for i in range(12)]
            rows += [row_of(Outbound(f"dc:{OTHER_ID}", f"other {i}"), "en") for i in range(8)]
            await store.outbox_add(rows)

            async def sleep(seconds: float) -> None:
                clock.advance(seconds)  # virtual time: the minute passes at once
                await asyncio.sleep(0)

            deliver = client.adapter.deliver
            sender = OutboxSender(store, "discord", deliver, clock=clock, sleep=sleep)
            for _ in range(200):
                await sender.run_due()
                if not await store.outbox(status="pending"):
                    break
                due = await store.outbox_next_at("discord") or clock.now
                await sleep(max(0.0, due - clock.now))
            assert clock.now - start >= 60 and len(refused) >= 20  # both channels kept trying
            assert texts(http, CHANNEL_ID) == [f"games {i}" for i in range(12)]  # in order, once
            assert texts(http, OTHER_ID) == [f"other {i}" for i in range(8)]
            stored = await store.outbox()
            assert all(r.status == "sent" and r.message_id for r in stored)
            assert any(r.attempts > 1 and "429" in (r.error or "") for r in stored)
        finally:
            await client.close()


async def test_a_reminder_due_during_downtime_is_sent_once_after_the_start(
    tmp_path: Path, clock: FakeClock
) -> None:
    db = str(tmp_path / "down.sqlite3")
    store = await Store.open(db, clock=clock)
    table = Table(
        store,
        games={"dicepile": ChatDicePile()},
        clock=clock,
        render=False,
        seeder=lambda: 3,
        durable=("discord",),
    )
    chat = Chat(table, chat_key=f"dc:{CHANNEL_ID}", platform="discord")
    await chat.say("alice", "/new dicepile")
    await chat.say("bob", "/join")
    await chat.say("alice", "/settings deadline=2h reminders=50")
    await chat.say("alice", "/start")
    queued = len(await store.outbox(status="pending"))
    assert queued >= 2  # the start's messages wait for a sender that never came
    await table.close()  # the bot goes down

    clock.advance(1.5 * 3600)  # the 50 % reminder falls due meanwhile
    store = await Store.open(db, clock=clock)
    table = Table(
        store, games={"dicepile": ChatDicePile()}, clock=clock, render=False, durable=("discord",)
    )
    client = dc.build_client(table, settings(discord_token="t", discord_guild_id=str(GUILD_ID)))
    try:
        # The scheduler runs before any sender is up: the reminder waits in the outbox.
        scheduler = Scheduler(table, clock=clock)
        assert await scheduler.run_due() >= 1
        assert len(await store.outbox(status="pending")) == queued + 1
        async with discord_http(client) as http:
            assert "discord" not in table.deliveries
            await client.login("t")  # setup_hook: the sender loop starts with the adapter
            assert "discord" in table.deliveries
            for _ in range(500):
                if not await store.outbox(status="pending"):
                    break
                await asyncio.sleep(0.01)
            assert await scheduler.run_due() == 0  # nothing due twice
            sent = [m["content"] for m in http.messages.values()]
            reminders = [t for t in sent if "Reminder" in t]
            assert len(reminders) == 1, sent
            assert not await store.outbox(status="pending")
            assert "begins" in sent[0]  # the start's messages first, in order
    finally:
        await client.close()
        await table.close()
