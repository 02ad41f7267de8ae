"""A Telegram group that lets its members send text only (its media permissions, or the bot
restricted): the real adapter against the fake Bot API, which answers a photo, album,
document or animation there "not enough rights to send photos to the chat". Before, such a
post was undeliverable, so its caption (the phase's news) was lost with its picture. Now the
sender loop posts the text alone, notes once how to allow the pictures, and remembers the
chat: later posts go as text without an upload tried (bot/outbox.py, as Discord's Attach
Files)."""

from __future__ import annotations

import asyncio

import pytest

from bot.platforms.telegram import adapter_of
from bot.store import Store
from tests.bot.helpers import FakeClock
from tests.bot.platforms.fake_telegram import (
    MEDIA,
    BotApiState,
)
from tests.bot.platforms.test_telegram_ending import CHAT, GROUP, all_bot_iec, fake_app

pytestmark = pytest.mark.timeout(120)


async def test_a_group_without_media_gets_the_pictures_text_and_one_note(
    store: Store, clock: FakeClock
) -> None:
    api = BotApiState()
    api.group(GROUP)
    api.no_media.add(GROUP)
    app = fake_app(api)
    await app.initialize()
    try:
        table = await all_bot_iec(store, clock)
        pictured = [r for r in await store.outbox(status="pending") if r.png or "render" in r.body]
        assert len(pictured) >= 2
        captions = [str(r.body.get("text", "")) for r in pictured]
        table.register_delivery("telegram", adapter_of(app).deliver, clock=clock)
        for _ in range(600):  # the sender loop delivers every row
            if not await store.outbox(status="pending"):
                break
            await asyncio.sleep(0.02)
        assert not await store.outbox(status="pending")
        assert not await store.outbox(status="failed")  # before: every picture's row failed
        uploads = api.since(0, *MEDIA)
        assert len(uploads) == 1 and uploads[0].result is None  # one refusal, then none tried
        texts = [c.params["text"] for c in api.since(0, "sendMessage")]
        notes = [t for t in texts if "I may not send photos in this group" in t]
        assert len(notes) == 1
        # the refused post's caption went as text: the turn's news is not lost
        assert captions[0] and any(captions[0] in t for t in texts), (captions, texts)
        assert await store.pictures_refused(CHAT) is not None
    finally:
        await table.close()
        await app.shutdown()
