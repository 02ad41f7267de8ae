"""Board pictures in the chat (issues 17-19), through the real adapters and their local fakes:
the Telegram adapter against the fake Bot API (in process), the Discord adapter against the
recorded discord.py HTTP layer.

A phase end posts one media group (map and panel), silently, its caption in words in the
chat's language; the move's transaction writes only the instruction, so a restart between the
commit and the send still delivers the pictures; `/settings pictures=off` posts none; a Russian
chat gets Russian pictures (the renderer's label list held against the catalog).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.announce import previous_version, states_at
from bot.i18n import translator
from bot.messages import Outbound
from bot.platforms import discord_bot as dc
from bot.platforms.telegram import adapter_of, build_application
from bot.store import Store
from bot.table import Table
from engine.core import Rng
from engine.core.rng import new_rng_state
from tests.bot.helpers import Chat, FakeClock
from tests.bot.platforms.fake_discord import CHANNEL_ID, discord_http
from tests.bot.platforms.fake_telegram import (
    BotApiState,
    Call,
    DictRequest,
    make_settings,
    no_retries,
)
from tests.bot.platforms.test_discord import settings as discord_settings

pg = pytest.importorskip("engine.powergrid")
GAME = pg.GAME
GROUP = -1001
CHAT_KEY = f"tg:{GROUP}"
PLAYERS = ["alice", "bob", "carol"]
SUPPRESS_NOTIFICATIONS = 1 << 12

pytestmark = pytest.mark.timeout(180)


@asynccontextmanager
async def telegram_table(
    db: str, clock: FakeClock, api: BotApiState, deliver: bool = True
) -> AsyncIterator[tuple[Store, Chat]]:
    """The real table (Power Grid, pictures on) whose Telegram messages go through the outbox;
    with `deliver`, the real adapter's sender loop delivers them to the fake Bot API."""
    store = await Store.open(db, clock=clock)
    table = Table(
        store,
        games={"powergrid": GAME},
        clock=clock,
        render=True,
        seeder=lambda: 7,
        durable=("telegram",),
    )
    app = build_application(
        table, make_settings(), request=DictRequest(api), rate_limiter=no_retries()
    )
    await app.initialize()
    if deliver:
        table.register_delivery("telegram", adapter_of(app).deliver)
    try:
        yield store, Chat(table, chat_key=CHAT_KEY, platform="telegram")
    finally:
        await table.stop_senders()
        await app.shutdown()
        await store.close()


async def drained(store: Store) -> None:
    for _ in range(3000):
        if not await store.outbox(status="pending"):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the outbox did not drain")


async def start_game(chat: Chat) -> int:
    await chat.say("alice", "/new powergrid")
    for name in PLAYERS[1:]:
        await chat.say(name, "/join")
    await chat.say("alice", "/start")
    row = await chat.table.store.open_game(CHAT_KEY)
    assert row is not None
    return row.id


async def play_to_phase_end(chat: Chat, pk: int, chooser: Rng) -> int:
    """Heuristic moves until one ends a phase (as the game declares it: the end of the region
    choice too, PG-8); the version that move committed."""
    store = chat.table.store
    for _ in range(200):
        row = await store.game(pk)
        assert row is not None and row.state_json is not None
        state = json.loads(row.state_json)
        player = next(p for p in GAME.current_players(state) if p in PLAYERS)
        action = GAME.bots["heuristic"](json.loads(json.dumps(state)), player, chooser)
        await chat.table.act(chat.inbound(player), action)
        after = await store.game(pk)
        assert after is not None and after.version > row.version
        events = [e for a in await store.actions(pk) if a.version > row.version for e in a.events]
        if any(GAME.is_picture_event(e) for e in events):
            return after.version
    raise AssertionError("no phase ended")


async def expected_pictures(store: Store, pk: int, version: int, lang: str) -> list[Any]:
    """What the renderer draws for the group at `version`, changes since the chat's last."""
    row = await store.game(pk)
    assert row is not None
    actions = await store.actions(pk)
    names = [s.display_name for s in await store.seats(pk)]
    previous = previous_version(GAME, actions, version, "phase")
    states = states_at(GAME, names, row, actions, {version, previous})
    return list(GAME.render_set(states[version], None, translator(lang), states[previous]))


def groups(api: BotApiState, mark: int) -> list[Call]:
    return api.since(mark, "sendMediaGroup")


def caption_of(call: Call) -> str:
    return str(json.loads(call.params["media"])[0].get("caption", ""))


async def test_a_phase_end_posts_one_silent_media_group_with_a_caption_in_words(
    tmp_path: Path, clock: FakeClock
) -> None:
    api = BotApiState()
    async with telegram_table(str(tmp_path / "db.sqlite3"), clock, api) as (store, chat):
        pk = await start_game(chat)
        await drained(store)
        mark = len(api.calls)
        version = await play_to_phase_end(chat, pk, Rng(new_rng_state(3)))
        await drained(store)
        [group] = groups(api, mark)
        assert api.since(mark, "sendPhoto") == []
        assert group.params.get("disable_notification") == "true"  # pictures never ring
        expected = await expected_pictures(store, pk, version, "en")
        assert len(expected) >= 2 and api.album(group) == [p.png for p in expected]
        caption = caption_of(group)
        assert caption and caption == expected[0].caption
        assert "_" not in caption and "Board:" not in caption  # words, not event ids
        media = json.loads(group.params["media"])
        assert all("caption" not in m for m in media[1:])  # the caption rides on the first
        # the prompt that follows asks a person to act: it is the one that notifies
        prompts = [c for c in api.since(mark, "sendMessage") if c.buttons]
        assert prompts and prompts[-1].params.get("disable_notification") != "true"


async def test_a_restart_between_commit_and_send_still_delivers_the_pictures(
    tmp_path: Path, clock: FakeClock
) -> None:
    db = str(tmp_path / "db.sqlite3")
    api = BotApiState()
    chooser = Rng(new_rng_state(3))
    async with telegram_table(db, clock, api, deliver=False) as (store, chat):
        pk = await start_game(chat)
        version = await play_to_phase_end(chat, pk, chooser)
        pending = await store.outbox(status="pending")
        orders = [r for r in pending if r.kind == "picture" and "picture" in r.body]
        assert [r.body["picture"]["version"] for r in orders] == [version]
        assert orders[0].png is None  # the transaction kept the instruction, not the picture
        assert orders[0].silent
    assert api.since(0, "sendMediaGroup") == []  # the process died before sending anything
    async with telegram_table(db, clock, api) as (store, _chat):
        await drained(store)
        start, group = groups(api, 0)  # the board at the start, then the phase's
        assert start.params.get("disable_notification") == "true"
        expected = await expected_pictures(store, pk, version, "en")
        assert api.album(group) == [p.png for p in expected]
        assert caption_of(group) == expected[0].caption


async def test_pictures_off_posts_none(tmp_path: Path, clock: FakeClock) -> None:
    api = BotApiState()
    async with telegram_table(str(tmp_path / "db.sqlite3"), clock, api) as (store, chat):
        pk = await start_game(chat)
        saved = await chat.text("alice", "/settings pictures=off")
        assert "pictures: only when asked with /board (off)" in saved
        refused = await chat.text("alice", "/settings pictures=always")
        assert "phase, round, turn, off" in refused
        await drained(store)
        mark = len(api.calls)
        chooser = Rng(new_rng_state(3))
        await play_to_phase_end(chat, pk, chooser)
        await play_to_phase_end(chat, pk, chooser)
        await drained(store)
        assert api.since(mark, "sendMediaGroup", "sendPhoto") == []
        assert api.since(mark, "sendMessage")  # the moves were announced all the same
        assert not [r for r in await store.outbox() if r.kind == "picture"][1:]  # the start's only


async def test_a_russian_chat_gets_russian_pictures(tmp_path: Path, clock: FakeClock) -> None:
    api = BotApiState()
    async with telegram_table(str(tmp_path / "db.sqlite3"), clock, api) as (store, chat):
        await store.set_chat_lang(CHAT_KEY, "ru")
        pk = await start_game(chat)
        await drained(store)
        mark = len(api.calls)
        version = await play_to_phase_end(chat, pk, Rng(new_rng_state(3)))
        await drained(store)
        [group] = groups(api, mark)
        russian = await expected_pictures(store, pk, version, "ru")
        english = await expected_pictures(store, pk, version, "en")
        assert api.album(group) == [p.png for p in russian]
        assert caption_of(group) == russian[0].caption != english[0].caption
        ru = translator("ru")
        en_labels = [lab for p in english for lab in p.label_texts()]
        ru_labels = [lab for p in russian for lab in p.label_texts()]
        # every label the catalog translates shows up translated, never in English
        translated = {lab: ru.gettext(lab) for lab in en_labels if ru.gettext(lab) != lab}
        assert len(translated) >= 3, en_labels
        assert all(msg in ru_labels for msg in translated.values())
        assert not set(translated) & set(ru_labels)


async def test_discord_sends_a_picture_set_as_one_silent_message_with_attachments() -> None:
    from tests.bot.platforms.fake_discord import FakeTable

    client = dc.build_client(FakeTable(), discord_settings(), sync_commands=False)
    async with discord_http(client) as http:
        await client.login("t")
        try:
            first, second = b"\x89PNG first", b"\x89PNG second"
            out = Outbound(
                f"dc:{CHANNEL_ID}", "After the auction, round 1", png=first, album=[second]
            )
            out.silent = True
            assert await client.adapter.deliver(out)
            [sent] = http.find("POST", f"/channels/{CHANNEL_ID}/messages")
            assert sent.files == [first, second]
            assert sent.flags & SUPPRESS_NOTIFICATIONS
            assert sent.json["content"] == "After the auction, round 1"
        finally:
            await client.close()
