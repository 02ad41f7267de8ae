"""The outbox path with the real Telegram adapter against the fake Bot API (issue 16):
flood control honoured without dropping, permanent refusals failed with their reason, a
reminder due while the bot was down sent once after the start, the sender loop only
delivering once the adapter is up."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.messages import Outbound
from bot.outbox import OutboxSender, row_of
from bot.platforms.telegram import adapter_of, build_application, running
from bot.scheduler import Scheduler
from bot.store import Store
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock
from tests.bot.platforms.fake_telegram import (
    BotApiState,
    DictRequest,
    FakeBotApi,
    FakeTable,
    make_settings,
    no_retries,
)

pytestmark = pytest.mark.timeout(60)

GROUP, OTHER = -1001, -1002


@pytest.fixture
async def store(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Store]:
    s = await Store.open(str(tmp_path / "outbox.sqlite3"), clock=clock)
    yield s
    await s.close()


def texts(api: BotApiState, chat_id: int) -> list[str]:
    return [
        c.text
        for c in api.since(0, "sendMessage")
        if c.chat_id == chat_id and c.result not in (None, "flood")
    ]


async def test_sixty_seconds_of_flood_control_drop_nothing(store: Store, clock: FakeClock) -> None:
    api = BotApiState()
    app = build_application(
        FakeTable(), make_settings(), request=DictRequest(api), rate_limiter=no_retries()
    )
    await app.initialize()
    try:
        start = clock.now
        api.flood = lambda: 7 if clock.now < start + 60 else 0
        rows = [row_of(Outbound(f"tg:{GROUP}", f"group {i}"), "en") for i in range(12)]
        rows += [row_of(Outbound(f"tg:{OTHER}", f"other {i}"), "en") for i in range(8)]
        await store.outbox_add(rows)

        async def sleep(seconds: float) -> None:
            clock.advance(seconds)  # virtual time: the 60 s pass at once
            await asyncio.sleep(0)

        sender = OutboxSender(store, "telegram", adapter_of(app).deliver, clock=clock, sleep=sleep)
        for _ in range(100):
            await sender.run_due()
            if not await store.outbox(status="pending"):
                break
            await sleep(max(0.0, (await store.outbox_next_at("telegram") or clock.now) - clock.now))
        assert clock.now - start >= 60 and sender.retried >= 18  # every chat was refused ~9 times
        assert texts(api, GROUP) == [f"group {i}" for i in range(12)]  # in order, each once
        assert texts(api, OTHER) == [f"other {i}" for i in range(8)]
        stored = await store.outbox()
        assert all(r.status == "sent" and r.message_id for r in stored)
        assert {r.error for r in stored if r.attempts > 1} <= {None} | {
            r.error for r in stored if r.error and "flood control" in r.error
        }
    finally:
        await app.shutdown()


async def test_a_permanent_refusal_is_failed_with_its_reason_and_the_chat_goes_on(
    store: Store, clock: FakeClock
) -> None:
    api = BotApiState()
    api.gone.add(OTHER)
    app = build_application(
        FakeTable(), make_settings(), request=DictRequest(api), rate_limiter=no_retries()
    )
    await app.initialize()
    try:
        await store.outbox_add(
            [
                row_of(Outbound(f"tg:{OTHER}", "into the void"), "en"),
                row_of(Outbound(f"tg:{GROUP}", "hello"), "en"),
            ]
        )
        sender = OutboxSender(store, "telegram", adapter_of(app).deliver, clock=clock)
        await sender.run_due()
        gone, sent = await store.outbox()
        assert gone.status == "failed" and "kicked" in (gone.error or "")
        assert sent.status == "sent" and texts(api, GROUP) == ["hello"]
        await sender.run_due()  # never retried blindly
        assert len(api.since(0, "sendMessage")) == 2
    finally:
        await app.shutdown()


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
        durable=("telegram",),
    )
    chat = Chat(table, chat_key=f"tg:{GROUP}", platform="telegram")
    await chat.say("alice", "/new dicepile")
    await chat.say("bob", "/join")
    await chat.say("alice", "/settings deadline=2h reminders=50")
    await chat.say("alice", "/start")
    queued = len(await store.outbox(status="pending"))
    assert queued >= 2  # the start's messages wait for a sender that never came
    await table.close()  # the bot goes down

    clock.advance(1.5 * 3600)  # the 50 % reminder falls due meanwhile
    async with FakeBotApi() as api:
        api.group(GROUP)
        store = await Store.open(db, clock=clock)
        table = Table(
            store,
            games={"dicepile": ChatDicePile()},
            clock=clock,
            render=False,
            durable=("telegram",),
        )
        try:
            # The scheduler runs before any sender is up: the reminder waits in the outbox.
            scheduler = Scheduler(table, clock=clock)
            assert await scheduler.run_due() >= 1
            pending = await store.outbox(status="pending")
            assert len(pending) == queued + 1
            app = build_application(
                table, make_settings(), base_url=api.base_url, rate_limiter=no_retries()
            )
            async with running(app, make_settings(), poll_timeout=1):
                await api.wait_for(lambda s: not s.since(0, "getUpdates") or True)
                for _ in range(500):
                    if not await store.outbox(status="pending"):
                        break
                    await asyncio.sleep(0.01)
                assert await scheduler.run_due() == 0  # nothing due twice
            sent = [c.text for c in api.since(0, "sendMessage")]
            reminders = [t for t in sent if "Reminder" in t]
            assert len(sent) == queued + 1 and len(reminders) == 1, sent
            assert "begins" in sent[0]  # the start's messages first, in order
        finally:
            await table.close()


async def test_the_telegram_sender_loop_starts_with_the_adapter(tmp_path: Path) -> None:
    store = await Store.open(str(tmp_path / "up.sqlite3"))
    table = Table(store, games={"dicepile": ChatDicePile()}, render=False, durable=("telegram",))
    await store.outbox_add([row_of(Outbound(f"tg:{GROUP}", "queued before start"), "en")])
    try:
        async with FakeBotApi() as api:
            api.group(GROUP)
            app = build_application(
                table, make_settings(), base_url=api.base_url, rate_limiter=no_retries()
            )
            assert "telegram" not in table.deliveries
            async with running(app, make_settings(), poll_timeout=1):
                assert "telegram" in table.deliveries
                found: Any = await api.wait_for(lambda s: texts(s, GROUP))
                assert found == ["queued before start"]
    finally:
        await table.close()
