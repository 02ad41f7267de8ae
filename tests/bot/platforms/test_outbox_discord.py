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
from bot.outbox import OutboxSender, PictureMemory, row_of
from bot.platforms import discord_bot as dc
from bot.scheduler import Scheduler
from bot.store import Store
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock
from tests.bot.platforms.fake_discord import (
    BOB_ID,
    CHANNEL_ID,
    GUILD_ID,
    PNG,
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


async def test_a_channel_s_refused_pictures_are_tried_again_once_a_day(
    store: Store, clock: FakeClock
) -> None:
    """The channel that refused a picture (no Attach Files) gets its captions alone; the upload
    is tried again a day after the last refusal (an interaction showing the permission brings
    it back sooner: tests/bot/platforms/test_discord_keywords.py); a picture sent privately is
    never held back by it."""
    client = dc.build_client(FakeTable(), settings(discord_token="t"), sync_commands=False)
    chat = f"dc:{CHANNEL_ID}"
    async with discord_http(client) as http:
        await client.login("t")
        sender = OutboxSender(
            store, "discord", client.adapter.deliver, clock=clock, pictures=PictureMemory(store)
        )

        async def picture(caption: str, **kw: Any) -> list[tuple[str, bool]]:
            """Deliver a picture: what reached the channel, (text, with files), in order."""
            before = len(http.requests)
            await store.outbox_add([row_of(Outbound(chat, caption, png=PNG, **kw), "en")])
            while await sender.run_due():  # a refusal's note is a row of its own, queued then
                pass
            assert not await store.outbox(status="pending")
            return [
                (r.json.get("content", ""), bool(r.files))
                for r in http.requests[before:]
                if r.method == "POST" and r.path.endswith("/messages")
            ]

        http.no_files.add(CHANNEL_ID)
        first = await picture("round 1")
        assert first[:2] == [("round 1", True), ("round 1", False)] and len(first) == 3  # + note
        clock.advance(23 * 3600)
        assert await picture("round 2") == [("round 2", False)]  # no upload tried
        clock.advance(3600)
        assert await picture("round 3") == [("round 3", True), ("round 3", False)]  # no 2nd note
        assert await store.pictures_refused(chat) == clock.now  # a day from this refusal
        http.open_dm(BOB_ID)
        dm = await picture("your board", private_to=f"dc:{BOB_ID}")
        assert dm == [("your board", True)]  # his DM takes pictures
        http.no_files.clear()  # granted, and no interaction came to say it
        clock.advance(23 * 3600)
        assert await picture("round 4") == [("round 4", False)]
        clock.advance(3600)
        assert await picture("round 5") == [("round 5", True)]
        assert await store.pictures_refused(chat) is None
        assert await picture("round 6") == [("round 6", True)]
        await client.close()


async def test_the_platform_s_word_on_pictures_is_checked_against_the_store_sparingly(
    store: Store, clock: FakeClock
) -> None:
    """An interaction's permissions reach the sender loop with every command (`pictures_seen`):
    the store is read when they show Attach Files after they did not, or an hour after the
    last look, never for each command."""

    async def deliver(out: Outbound) -> str | None:
        return "1"

    reads: list[str] = []
    memory = PictureMemory(store)
    looked_up = memory.refused_at

    async def counted(chat_key: str) -> float | None:
        reads.append(chat_key)
        return await looked_up(chat_key)

    memory.refused_at = counted  # type: ignore[method-assign]
    sender = OutboxSender(store, "discord", deliver, clock=clock, pictures=memory)
    chat = f"dc:{CHANNEL_ID}"
    await store.set_pictures_refused(chat, clock.now)
    await sender.pictures_seen(chat, False)  # still no Attach Files: nothing read, kept
    assert reads == [] and await store.pictures_refused(chat) == clock.now
    await sender.pictures_seen(chat, True)  # granted: forgotten at once
    assert reads == [chat] and await store.pictures_refused(chat) is None
    await store.set_pictures_refused(chat, clock.now)  # another worker's refusal meanwhile
    for _ in range(5):
        clock.advance(60)
        await sender.pictures_seen(chat, True)
    assert reads == [chat]  # the word did not change within the hour
    clock.advance(3600)
    await sender.pictures_seen(chat, True)
    assert reads == [chat, chat] and await store.pictures_refused(chat) is None


async def test_the_note_for_closed_dms_comes_in_the_language_of_the_row(
    store: Store, clock: FakeClock
) -> None:
    """What the platform words itself for a row (the channel's note that a player's DMs are
    closed) is in the row's language: through the sender loop it came in English, the
    delivered message carrying no language."""
    client = dc.build_client(FakeTable(), settings(discord_token="t"), sync_commands=False)
    async with discord_http(client) as http:
        await client.login("t")
        http.closed_dms.add(BOB_ID)
        sender = OutboxSender(store, "discord", client.adapter.deliver, clock=clock)
        bob = f"dc:{BOB_ID}"
        private = Outbound(f"dc:{CHANNEL_ID}", "Psst.", private_to=bob, mentions=[(bob, "Bob")])
        await store.outbox_add([row_of(private, "pl")])
        await sender.run_due()
        (note,) = texts(http, CHANNEL_ID)
        assert note == f"<@{BOB_ID}>, nie mogę wysłać ci prywatnej wiadomości. " + (
            "Zezwól na wiadomości prywatne od członków tego serwera."
        )
        await client.close()
