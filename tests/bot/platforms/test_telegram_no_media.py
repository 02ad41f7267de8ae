"""A Telegram group that lets its members send text only (its media permissions, or the bot
restricted): the real adapter against the fake Bot API, which answers a photo, album,
document or animation there "not enough rights to send photos to the chat". Before, such a
post was undeliverable, so its caption (the phase's news) was lost with its picture. Now the
sender loop posts the text alone, notes once how to allow the pictures, and remembers the
chat: later posts go as text without an upload tried (bot/outbox.py, as Discord's Attach
Files)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.messages import Inbound
from bot.platforms.telegram import adapter_of, build_application
from bot.store import Store
from bot.table import Table, discover_games
from tests.bot.helpers import FakeClock
from tests.bot.platforms.fake_telegram import (
    MEDIA,
    BotApiState,
    DictRequest,
    FakeTable,
    make_settings,
    no_retries,
)

pytestmark = pytest.mark.timeout(120)

GROUP = -1001
CHAT = f"tg:{GROUP}"


@pytest.fixture
async def store(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Store]:
    s = await Store.open(str(tmp_path / "no_media.sqlite3"), clock=clock)
    yield s
    await s.close()


def say(text: str, n: int) -> Inbound:
    return Inbound("telegram", CHAT, "tg:1", "host", text=text, is_admin=True, update_id=f"u{n}")


async def test_a_group_without_media_gets_the_pictures_text_and_one_note(
    store: Store, clock: FakeClock
) -> None:
    api = BotApiState()
    api.group(GROUP)
    api.no_media.add(GROUP)
    app = build_application(
        FakeTable(), make_settings(), request=DictRequest(api), rate_limiter=no_retries()
    )
    await app.initialize()
    try:
        table = Table(
            store,
            games=discover_games(),
            clock=clock,
            render=True,
            seeder=lambda: 3,
            durable=("telegram",),
        )
        # An all-bot IEC game: it ends inside /start's own transaction, with a picture after
        # each turn and the game-over card, charts and replay.
        for n, text in enumerate(["/new iec", "/leave", "/addbot", "/addbot", "/start"]):
            await table.handle(say(text, n))
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
