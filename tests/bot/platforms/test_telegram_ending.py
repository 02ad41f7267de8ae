"""Issue 25: the end of a game through the outbox with the real Telegram adapter against the
fake Bot API. The move that ends the game writes one instruction row (not pictures); the
sender loop renders the game-over card, the charts and the replay at send time and delivers
them in order (the replay as an animation when it is an MP4, else as a document); a flood
refusal of the replay resumes without sending the card again."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest
from PIL import Image

from bot.cards.replay import MAX_BYTES
from bot.messages import Inbound
from bot.outbox import OutboxSender
from bot.platforms.telegram import adapter_of, build_application
from bot.store import Store
from bot.table import Table, discover_games
from tests.bot.helpers import FakeClock
from tests.bot.platforms.fake_telegram import (
    BotApiState,
    DictRequest,
    FakeTable,
    make_settings,
    no_retries,
)

pytestmark = pytest.mark.timeout(120)

GROUP = -1001
CHAT = f"tg:{GROUP}"


def say(table: Table, text: str, n: int) -> Inbound:
    return Inbound("telegram", CHAT, "tg:1", "host", text=text, is_admin=True, update_id=f"u{n}")


async def all_bot_iec(store: Store, clock: FakeClock) -> Table:
    """A drawing table whose all-bot IEC game in the group ends inside /start's own
    transaction: a picture after each turn, then the game-over card, charts and replay."""
    table = Table(
        store,
        games=discover_games(),
        clock=clock,
        render=True,
        seeder=lambda: 3,
        durable=("telegram",),
    )
    for n, text in enumerate(["/new iec", "/leave", "/addbot", "/addbot", "/start"]):
        await table.handle(say(table, text, n))
    return table


def fake_app(api: BotApiState) -> Any:
    """The real Telegram Application against the fake Bot API, no retries."""
    return build_application(
        FakeTable(), make_settings(), request=DictRequest(api), rate_limiter=no_retries()
    )


async def test_game_over_card_charts_and_replay_go_out_through_the_outbox(
    store: Store, clock: FakeClock
) -> None:
    api = BotApiState()
    app = fake_app(api)
    await app.initialize()
    try:
        table = await all_bot_iec(store, clock)
        row = await store.last_game(CHAT)
        assert row is not None and row.status == "over"
        pending = await store.outbox(status="pending")
        instructions = [r for r in pending if "render" in r.body]
        assert len(instructions) == 1 and instructions[0].png is None
        assert instructions[0].body["render"]["what"] == "end"
        assert instructions[0].body["render"]["game"] == row.id
        assert instructions[0].id == max(r.id for r in pending)  # after the last move's lines

        adapter = adapter_of(app)
        sender = OutboxSender(
            store, "telegram", table._rendering("telegram", adapter.deliver), clock=clock
        )
        api.fail_next("sendAnimation", 429, "Too Many Requests: retry after 3", retry_after=3)
        api.fail_next("sendDocument", 429, "Too Many Requests: retry after 3", retry_after=3)
        await sender.run_due()
        clock.advance(10)
        await sender.run_due()
        await asyncio.sleep(0)
        assert not await store.outbox(status="pending")
        assert sender.retried == 1

        photos = [c for c in api.since(0, "sendPhoto") if c.chat_id == GROUP]
        card, charts = photos[-2:]
        assert "game over" in card.params.get("caption", "")
        assert "round by round" in charts.params.get("caption", "")
        for call in (card, charts):
            (data,) = call.files.values()
            with Image.open(io.BytesIO(data)) as im:
                assert im.format == "PNG"
        sent = [c for c in api.since(0, "sendAnimation", "sendDocument") if c.result is not None]
        assert len(sent) == 1  # the replay, once, after the flood refusal
        (video,) = sent[0].files.values()
        assert 0 < len(video) <= MAX_BYTES
        if sent[0].method == "sendAnimation":
            assert video[4:8] == b"ftyp"  # MP4
        else:
            assert video[:3] == b"GIF"
        # the card and the charts were not sent twice by the retry
        assert sum("game over" in c.params.get("caption", "") for c in photos) == 1
        everything = api.since(0, "sendMessage", "sendPhoto", "sendAnimation", "sendDocument")
        last = [c for c in everything if c.result is not None][-3:]
        assert [c.method for c in last][:2] == ["sendPhoto", "sendPhoto"]
    finally:
        await app.shutdown()
