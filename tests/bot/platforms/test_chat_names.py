"""Chats named by their titles and links, never by their keys (issue 17), through the real
table and the real adapters: the Telegram Application over the fake Bot API (in process) and
discord.py's dispatch over the recorded HTTP edge."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from telegram import Update

from bot.chatnames import ChatName, chat_label, markdown_link
from bot.platforms import discord_bot as dc
from bot.platforms.telegram import TelegramAdapter, adapter_of, build_application, format_text
from bot.platforms.telegram_format import chat_name
from bot.scheduler import Scheduler
from bot.store import Store
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import FakeClock, present
from tests.bot.platforms.fake_discord import (
    ALICE_ID,
    BOB_ID,
    CHANNEL_ID,
    GUILD_ID,
    as_event,
    discord_http,
    settle,
    slash_payload,
)
from tests.bot.platforms.fake_telegram import BotApiState, DictRequest, make_settings, unthrottled
from tests.bot.platforms.test_discord import settings as discord_settings

pytestmark = pytest.mark.timeout(60)

FRIDAY = -1001234567890  # a private supergroup: links t.me/c/1234567890/...
OFFICE = -1005550001112  # a public supergroup: links t.me/office_games
ANN, BOB = 7, 8
# A chat key in a text a person reads: "tg:-100…", "tg:42:7", "dc:127…".
RAW_KEY = re.compile(r"\b(?:tg|dc):-?\d")


def no_raw_keys(texts: list[str]) -> None:
    leaked = [t for t in texts if RAW_KEY.search(t)]
    assert not leaked, leaked


# ---------------------------------------------------------------- the helper


def test_chat_label_is_a_link_in_each_platforms_format_and_never_the_key() -> None:
    name = ChatName("Friday *games*", "https://t.me/c/1234567890/5")
    assert chat_label("tg:-1001234567890", name, "en") == (
        r"[Friday \*games\*](https://t.me/c/1234567890/5)"
    )
    html, mode = format_text("Your move in Dice pile (" + chat_label("tg:-1", name, "en") + ")", [])
    assert mode == "HTML"
    assert (
        html == 'Your move in Dice pile (<a href="https://t.me/c/1234567890/5">Friday *games*</a>)'
    )
    jump = ChatName("Server #games", "https://discord.com/channels/1/2")
    assert chat_label("dc:2", jump, "en") == "[Server #games](https://discord.com/channels/1/2)"
    assert chat_label("local:x", ChatName("Kitchen", "https://example.org/k"), "en") == (
        "Kitchen (https://example.org/k)"
    )
    # Unknown: the reader's words for "a chat", never the key.
    assert chat_label("tg:-1001234567890", None, "en") == "a chat"
    assert chat_label("dc:127", None, "ru") not in ("a chat", "dc:127")
    assert chat_label("tg:-1", ChatName(None, "https://t.me/x"), "en") == "[a chat](https://t.me/x)"
    # A link that is not ours stays text on Telegram (no HTML smuggled in by a title).
    assert format_text(markdown_link("x", "https://evil.example/"), [])[1] is None


def test_telegram_links_for_private_public_and_basic_groups_and_topics() -> None:
    from telegram import Chat

    private = Chat(FRIDAY, "supergroup", title="Friday")
    assert chat_name(private, None, 44) == ("Friday", "https://t.me/c/1234567890/44")
    assert chat_name(private, 5, 44) == ("Friday", "https://t.me/c/1234567890/5")  # the topic
    public = Chat(OFFICE, "supergroup", title="Office", username="office_games")
    assert chat_name(public, None, 44) == ("Office", "https://t.me/office_games")
    assert chat_name(public, 5, 44) == ("Office", "https://t.me/office_games/5")
    assert chat_name(Chat(-42, "group", title="Basic"), None, 3) == ("Basic", None)
    assert chat_name(Chat(ANN, "private", first_name="Ann"), None, 3) == (None, None)


# ---------------------------------------------------------------- Telegram, end to end


class World:
    """The real table (dice pile) behind the real Telegram Application (fake Bot API)."""

    def __init__(self, store: Store, clock: FakeClock, table: Table | None = None) -> None:
        self.api = BotApiState()
        self.clock = clock
        self.table = table or Table(
            store, games={"dicepile": ChatDicePile()}, clock=clock, seeder=lambda: 12345
        )
        self.app = build_application(
            self.table, make_settings(), request=DictRequest(self.api), rate_limiter=unthrottled()
        )
        self.adapter: TelegramAdapter = adapter_of(self.app)
        self.api.group(FRIDAY, "Friday games")
        self.api.chats[OFFICE] = {
            "id": OFFICE,
            "type": "supergroup",
            "title": "Office",
            "username": "office_games",
        }
        self.users = {"Ann": self.api.user(ANN, "Ann"), "Bob": self.api.user(BOB, "Bob")}
        self._ids = 0

    async def say(self, who: str, text: str, chat: int = FRIDAY) -> list[Any]:
        mark = len(self.api.calls)
        self._ids += 1
        await self.feed_raw(self.api.message_update(chat, self.users[who], text), self._ids)
        return self.api.messages(mark)

    async def feed_raw(self, update: dict[str, Any], update_id: int) -> None:
        """One update (of that id) through the Application; then until the outbox is empty."""
        await self.app.process_update(
            Update.de_json({"update_id": update_id, **update}, self.app.bot)
        )
        await self.drained()

    async def drained(self) -> None:
        for _ in range(500):
            if not await self.table.store.outbox(status="pending"):
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the outbox did not drain")

    def texts(self) -> list[str]:
        return [c.text for c in self.api.messages()]


@contextlib.asynccontextmanager
async def running_world(
    store: Store, clock: FakeClock, table: Table | None = None
) -> AsyncIterator[World]:
    """A World (its table `table`, by default the dice pile) whose Application is set up,
    stopped on the way out."""
    w = World(store, clock, table)
    await w.app.initialize()
    await w.adapter.setup(w.app)
    try:
        yield w
    finally:
        await w.table.stop_senders()
        await w.app.shutdown()


@pytest.fixture
async def world(store: Store, clock: FakeClock) -> AsyncIterator[World]:
    async with running_world(store, clock) as w:
        yield w


async def test_telegram_reminders_games_digest_and_the_private_picker_name_the_chats(
    world: World, store: Store, clock: FakeClock
) -> None:
    for who in ("Ann", "Bob"):  # both opened a private chat with the bot
        await world.say(who, "/help", chat=world.users[who]["id"])
    await world.say("Ann", "/new dicepile")
    await world.say("Bob", "/join")
    await world.say("Ann", "/start")
    names = await store.chat_names([f"tg:{FRIDAY}"])
    assert names[f"tg:{FRIDAY}"].title == "Friday games"
    assert present(names[f"tg:{FRIDAY}"].link).startswith("https://t.me/c/1234567890/")
    link = names[f"tg:{FRIDAY}"].link
    # A second table in a public group.
    await world.say("Bob", "/new dicepile", chat=OFFICE)
    await world.say("Ann", "/join", chat=OFFICE)
    await world.say("Bob", "/start", chat=OFFICE)

    # The turn-start reminder in the DM of whoever acts: the group's title, linked.
    mark = len(world.api.calls)
    await Scheduler(world.table, clock=clock).run_due()
    await world.drained()
    dms = [c for c in world.api.messages(mark) if c.chat_id in (ANN, BOB)]
    assert dms and any(f'<a href="{link}">Friday games</a>' in c.text for c in dms)
    assert all(c.params.get("parse_mode") == "HTML" for c in dms)
    assert any('<a href="https://t.me/office_games">Office</a>' in c.text for c in dms)

    # /games, in a private chat: both tables, titled and linked.
    [games] = await world.say("Ann", "/games", chat=ANN)
    assert f'<a href="{link}">Friday games</a>' in games.text
    assert '<a href="https://t.me/office_games">Office</a>' in games.text

    # A move sent privately while playing two games: "which one?" names the chats.
    [which] = await world.say("Ann", "/take 1", chat=ANN)
    assert "several games" in which.text
    assert "Friday games</a>" in which.text and "Office</a>" in which.text
    # Played from there in the Friday game: done, and told where it was announced.
    friday = await store.open_game(f"tg:{FRIDAY}")
    assert friday is not None
    done = await world.say("Ann", f"/take g{friday.id} 1", chat=ANN)
    told = [c for c in done if c.chat_id == ANN and "Done in" in c.text]
    assert told and f'announced in <a href="{link}">Friday games</a>' in told[0].text
    assert any(c.chat_id == FRIDAY for c in done)  # the move was announced in the group

    # The daily digest names them too (Bob's move in both games now).
    await world.say("Bob", "/digest on 8", chat=BOB)
    mark = len(world.api.calls)
    clock.now = datetime(2023, 11, 15, 8, 0, tzinfo=UTC).timestamp()
    await Scheduler(world.table, clock=clock).run_due()
    await world.drained()
    [digest] = [c for c in world.api.messages(mark) if "Games waiting for you" in c.text]
    assert digest.chat_id == BOB
    assert f'<a href="{link}">Friday games</a>' in digest.text
    assert '<a href="https://t.me/office_games">Office</a>' in digest.text

    # No text anybody received carries a raw chat key.
    no_raw_keys(world.texts())


async def test_a_title_change_is_kept_and_a_new_table_refreshes_the_link(
    world: World, store: Store
) -> None:
    await world.say("Ann", "/new dicepile")
    first = (await store.chat_names([f"tg:{FRIDAY}"]))[f"tg:{FRIDAY}"]
    await world.say("Bob", "/join")  # same title, same chat: nothing written
    assert (await store.chat_names([f"tg:{FRIDAY}"]))[f"tg:{FRIDAY}"] == first
    world.api.chats[FRIDAY]["title"] = "Friday night games"
    await world.say("Bob", "/status")
    renamed = (await store.chat_names([f"tg:{FRIDAY}"]))[f"tg:{FRIDAY}"]
    assert renamed.title == "Friday night games"
    await world.say("Ann", "/abort")
    await world.say("Ann", "/new dicepile")
    fresh = (await store.chat_names([f"tg:{FRIDAY}"]))[f"tg:{FRIDAY}"]
    assert fresh.link != first.link and fresh.title == "Friday night games"


# ---------------------------------------------------------------- Discord, end to end


async def test_discord_games_and_reminders_name_the_channel_with_its_jump_url(
    tmp_path: Any,
) -> None:
    clock = FakeClock()
    store = await Store.open(str(tmp_path / "dc.sqlite3"), clock=clock)
    table = Table(store, games={"dicepile": ChatDicePile()}, clock=clock, seeder=lambda: 12345)
    client = dc.build_client(
        table, discord_settings(discord_token="t", discord_guild_id=str(GUILD_ID))
    )
    jump = f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}"
    try:
        async with discord_http(client) as http:
            await client.login("t")
            try:

                async def feed(payload: dict[str, Any]) -> None:
                    client._connection.parse_interaction_create(as_event(payload))
                    await settle()

                await feed(slash_payload("new", {"game": "dicepile"}))
                await feed(slash_payload("join", user_id=BOB_ID, user_name="Bob"))
                await feed(slash_payload("start"))
                names = await store.chat_names([f"dc:{CHANNEL_ID}"])
                assert names[f"dc:{CHANNEL_ID}"] == ChatName("#games", jump)
                for uid in (ALICE_ID, BOB_ID):
                    await store.set_user(f"dc:{uid}", dm_ok=True)
                before = len(http.requests)
                await feed(slash_payload("games"))
                await Scheduler(table, clock=clock).run_due()
                for _ in range(300):  # the outbox sender loop delivers the DM reminder
                    if not await store.outbox(status="pending"):
                        break
                    await asyncio.sleep(0.01)
                await settle()
                posted = [
                    r.json.get("content") or ""
                    for r in http.requests[before:]
                    if r.method in ("POST", "PATCH") and isinstance(r.json, dict)
                ]
                posted += [
                    (r.json.get("data") or {}).get("content") or ""
                    for r in http.requests[before:]
                    if r.method == "POST" and isinstance(r.json, dict) and "data" in r.json
                ]
                assert any(f"[#games]({jump})" in text for text in posted), posted
                assert sum(f"[#games]({jump})" in text for text in posted) >= 2  # /games, DM
                no_raw_keys([t for r in http.requests for t in contents(r.json)])
            finally:
                await client.close()
    finally:
        await table.close()


def contents(body: Any) -> list[str]:
    if not isinstance(body, dict):
        return []
    found = [str(body.get("content") or "")]
    data = body.get("data")
    if isinstance(data, dict):
        found.append(str(data.get("content") or ""))
    return found


async def test_a_forum_topic_is_named_group_and_topic_and_linked_to_the_topic(
    world: World, store: Store
) -> None:
    topic = 5
    world.api.chats[FRIDAY]["is_forum"] = True
    key = f"tg:{FRIDAY}:{topic}"

    async def say(text: str, told: bool) -> None:
        world._ids += 1
        update = world.api.message_update(FRIDAY, world.users["Ann"], text, topic)
        if told:  # a message that replies to nothing carries the topic's creation
            update["message"]["reply_to_message"] = {
                "message_id": topic,
                "date": 0,
                "chat": world.api.chat(FRIDAY),
                "message_thread_id": topic,
                "is_topic_message": True,
                "forum_topic_created": {"name": "Power Grid", "icon_color": 7322096},
            }
        await world.feed_raw(update, world._ids)

    await say("/new dicepile", told=True)
    expected = ChatName("Friday games / Power Grid", "https://t.me/c/1234567890/5")
    assert (await store.chat_names([key]))[key] == expected
    await say("/status", told=False)  # a reply to a message: only the group's title
    await say("/status", told=False)
    assert (await store.chat_names([key]))[key] == expected
    await say("/new dicepile", told=False)  # refreshed by /new: the topic's name kept
    assert (await store.chat_names([key]))[key] == expected
