"""Telegram adapter: handlers and sending, in process (DictRequest answers, no HTTP)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from telegram import Update

from bot.i18n import tr
from bot.messages import Button, Inbound, Outbound
from bot.platforms.telegram import (
    TelegramAdapter,
    adapter_of,
    api_urls,
    build_application,
    command_text,
    format_text,
    parse_chat_key,
    parse_listen,
    split_text,
)
from bot.platforms.telegram_delivery import BLOCKED
from tests.bot.platforms.fake_telegram import (
    PNG,
    TOKEN,
    BotApiState,
    DictRequest,
    FakeTable,
    make_settings,
    unthrottled,
)

pytestmark = pytest.mark.timeout(30)

GROUP = -1001
ANN, BOB = 7, 8


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class World:
    def __init__(self) -> None:
        self.api = BotApiState()
        self.table = FakeTable()
        self.clock = Clock()
        self.app = build_application(
            self.table,
            make_settings(),
            request=DictRequest(self.api),
            rate_limiter=unthrottled(),
            clock=self.clock,
        )
        self.adapter: TelegramAdapter = adapter_of(self.app)
        self.api.group(GROUP)
        self.ann = self.api.user(ANN, "Ann", "Lee", lang="ru")
        self.bob = self.api.user(BOB, "Bob")
        self._ids = 0

    async def feed(self, update: dict[str, Any]) -> None:
        self._ids += 1
        await self.app.process_update(
            Update.de_json({"update_id": self._ids, **update}, self.app.bot)
        )

    async def say(
        self, user: dict[str, Any], text: str, chat: int = GROUP, thread: int | None = None
    ) -> None:
        await self.feed(self.api.message_update(chat, user, text, thread))

    def sent(self, mark: int = 0) -> list[Any]:
        return self.api.messages(mark)


@pytest.fixture
async def world() -> AsyncIterator[World]:
    w = World()
    await w.app.initialize()
    await w.adapter.setup(w.app)
    yield w
    await w.app.shutdown()


# ---------------------------------------------------------------- keys and inbound


async def test_command_in_a_group_becomes_an_inbound(world: World) -> None:
    await world.say(world.ann, "/bid@boardchat_test_bot 13 20")
    assert world.table.inbounds == [
        Inbound(
            platform="telegram",
            chat_key=f"tg:{GROUP}",
            user_key=f"tg:{ANN}",
            display_name="Ann Lee",
            lang="ru",
            update_id="1",
            text="/bid 13 20",
            is_admin=False,
            is_private=False,
            seen_by_chat=True,  # everyone in the group reads it: no secret order so
            # issue 17: the group's title, and a link to the message (a private supergroup)
            chat_title="Game night",
            chat_link="https://t.me/c/1/1000",
        )
    ]
    assert not world.api.since(0, "getChatMember")  # no admin check for a move


async def test_forum_topic_is_its_own_table_and_replies_stay_in_it(world: World) -> None:
    await world.say(world.ann, "/status", thread=42)
    assert world.table.inbounds[-1].chat_key == f"tg:{GROUP}:42"
    [reply] = world.sent()
    assert (reply.chat_id, reply.thread_id) == (GROUP, 42)


async def test_reply_thread_in_an_ordinary_group_is_not_a_topic(world: World) -> None:
    update = world.api.message_update(GROUP, world.bob, "/status")
    update["message"]["message_thread_id"] = 99  # a reply chain, no is_topic_message
    await world.feed(update)
    assert world.table.inbounds[-1].chat_key == f"tg:{GROUP}"
    assert world.sent()[-1].thread_id is None


async def test_private_chat_is_private_and_its_owner_is_admin(world: World) -> None:
    await world.say(world.bob, "/abort", chat=BOB)
    inbound = world.table.inbounds[-1]
    assert (inbound.chat_key, inbound.is_private, inbound.is_admin) == (f"tg:{BOB}", True, True)
    assert not inbound.seen_by_chat
    assert not world.api.since(0, "getChatMember")


async def test_admin_status_is_asked_for_admin_commands_only_and_cached(world: World) -> None:
    world.api.admins.add((GROUP, ANN))
    await world.say(world.ann, "/abort")
    await world.say(world.bob, "/abort")
    await world.say(world.ann, "/abort")  # cached
    assert [i.is_admin for i in world.table.inbounds] == [True, False, True]
    assert len(world.api.since(0, "getChatMember")) == 2
    assert [m.text for m in world.sent()][1] == "Only an admin of this chat may abort the game."

    world.api.admins.discard((GROUP, ANN))
    world.clock.now += 61  # the cache expires: demoted admins lose the right
    await world.say(world.ann, "/abort")
    assert world.table.inbounds[-1].is_admin is False
    assert len(world.api.since(0, "getChatMember")) == 3


async def test_admin_status_for_a_button_with_an_admin_command(world: World) -> None:
    world.api.admins.add((GROUP, ANN))
    await world.say(world.ann, "/status")
    message = world.api.sent[max(world.api.sent)]
    await world.feed(world.api.press_update(world.ann, message, "v0:/abort"))
    assert world.table.inbounds[-1].payload == "v0:/abort"
    assert not world.table.inbounds[-1].seen_by_chat  # a press shows the chat nothing
    assert world.table.inbounds[-1].is_admin is True


async def test_edited_command_is_not_played_again(world: World) -> None:
    update = world.api.message_update(GROUP, world.ann, "/bid 30")
    await world.feed({"edited_message": {**update["message"], "edit_date": 1}})
    assert world.table.inbounds == []


def test_command_text_drops_the_bot_name_and_keeps_arguments() -> None:
    assert command_text("/Bid@boardchat_bot 13  20") == "/bid 13  20"
    assert command_text("/build Berlin\nHamburg") == "/build Berlin\nHamburg"
    assert command_text("/pass") == "/pass"


def test_chat_keys_round_trip() -> None:
    assert parse_chat_key("tg:-100123:7") == (-100123, 7)
    assert parse_chat_key("tg:42") == (42, None)
    with pytest.raises(ValueError):
        parse_chat_key("dc:42")


def test_command_names_come_from_the_specs(world: World) -> None:
    names = world.adapter.command_names()
    assert names[:8] == ["new", "join", "start", "bid", "pass", "status", "whisper", "abort"]
    assert "help" in names
    assert not any("-" in n for n in names)  # "Bad-Name" cannot be a Telegram command


# ---------------------------------------------------------------- menus and sender


async def test_menus_are_published_for_default_and_each_language(world: World) -> None:
    calls = world.api.since(0, "setMyCommands")
    assert [c.params.get("language_code") for c in calls] == [None, "ru", "zh", "pl"]
    default = calls[0].json("commands")
    assert {"command": "bid", "description": "Bid on the lot"} in default
    assert all(c["command"] != "bad-name" for c in default)
    zh = calls[2].json("commands")
    assert {"command": "bid", "description": "Bid on the lot [zh_Hant]"} in zh


async def test_registered_sender_pushes_reminders_into_the_topic(world: World) -> None:
    assert world.table.senders["telegram"] == world.adapter.send
    world.table.players = [(f"tg:{ANN}", "Ann Lee")]
    await world.table.remind(f"tg:{GROUP}:5", "@Ann Lee, your move.")
    [message] = world.sent()
    assert (message.chat_id, message.thread_id) == (GROUP, 5)
    assert message.text == f'<a href="tg://user?id={ANN}">Ann Lee</a>, your move.'
    assert message.params["parse_mode"] == "HTML"


# ---------------------------------------------------------------- formatting


def test_mentions_become_links_and_the_rest_is_escaped() -> None:
    text, mode = format_text(
        "a < b & @Al, then @Alice <3 and @Robo",
        [("tg:1", "Al"), ("tg:2", "Alice"), ("bot:robo", "Robo")],
    )
    assert mode == "HTML"
    assert text == (
        'a &lt; b &amp; <a href="tg://user?id=1">Al</a>, then '
        '<a href="tg://user?id=2">Alice</a> &lt;3 and @Robo'
    )


def test_names_with_markup_are_escaped_inside_the_link() -> None:
    text, _ = format_text("Go @<b>X</b>!", [("tg:3", "<b>X</b>")])
    assert text == 'Go <a href="tg://user?id=3">&lt;b&gt;X&lt;/b&gt;</a>!'


def test_text_without_telegram_mentions_stays_plain() -> None:
    assert format_text("1 < 2 @Robo", [("bot:r", "Robo")]) == ("1 < 2 @Robo", None)


def test_split_text_prefers_line_breaks() -> None:
    lines = [f"line {i:04d} " + "x" * 90 for i in range(100)]
    chunks = split_text("\n".join(lines), limit=1000)
    assert all(len(c) <= 1000 for c in chunks)
    assert "\n".join(chunks) == "\n".join(lines)
    assert split_text("y" * 2500, limit=1000) == ["y" * 1000, "y" * 1000, "y" * 500]


# ---------------------------------------------------------------- sending


async def test_join_reply_mentions_the_player(world: World) -> None:
    await world.say(world.ann, "/new toy")
    await world.say(world.ann, "/join")
    reply = world.sent()[-1]
    assert reply.text == f'<a href="tg://user?id={ANN}">Ann Lee</a> joined (1).'


async def test_picture_with_a_short_text_is_one_photo_with_caption_and_buttons(
    world: World,
) -> None:
    buttons = [[Button("Pass", "v1:/pass")]]
    await world.adapter.send(Outbound(f"tg:{GROUP}", "Phase 2 ended.", png=PNG, buttons=buttons))
    [photo] = world.sent()
    assert photo.method == "sendPhoto"
    assert photo.files["photo"] == PNG
    assert photo.params["caption"] == "Phase 2 ended."
    assert photo.buttons == [[("Pass", "v1:/pass")]]


async def test_picture_with_a_long_text_is_a_photo_then_the_text(world: World) -> None:
    text = "Scores:\n" + "\n".join(f"player {i}: {i * 10}" for i in range(120))
    assert len(text) > 1024
    buttons = [[Button("OK", "v1:/ok")]]
    await world.adapter.send(Outbound(f"tg:{GROUP}", text, png=PNG, buttons=buttons))
    photo, message = world.sent()
    assert (photo.method, "caption" in photo.params, photo.buttons) == ("sendPhoto", False, [])
    assert (message.method, message.text, message.buttons) == (
        "sendMessage",
        text,
        [[("OK", "v1:/ok")]],
    )


async def test_long_text_is_split_and_buttons_go_on_the_last_part(world: World) -> None:
    text = "\n".join(f"{i:05d} " + "z" * 94 for i in range(90))  # ~9000 characters
    await world.adapter.send(Outbound(f"tg:{GROUP}", text, buttons=[[Button("Go", "go")]]))
    parts = world.sent()
    assert len(parts) == 3
    assert all(len(p.text) <= 4096 for p in parts)
    assert "\n".join(p.text for p in parts) == text
    assert [bool(p.buttons) for p in parts] == [False, False, True]


async def test_a_board_in_words_goes_in_a_fixed_width_font_with_its_indents(world: World) -> None:
    """HEX-G-6: a text laid out in columns (Hexania's /board text) is sent as <pre>, escaped,
    its first line's indent kept."""
    board = "  A . 1 <\n B . . 2\nC . . . ."
    await world.adapter.send(Outbound(f"tg:{GROUP}", board, monospace=True))
    [message] = world.sent()
    assert message.text == "<pre>  A . 1 &lt;\n B . . 2\nC . . . .</pre>"
    assert message.params["parse_mode"] == "HTML"


async def test_a_payload_over_64_bytes_is_left_out(world: World) -> None:
    buttons = [[Button("ok", "x" * 64), Button("too long", "y" * 65)], [Button("é", "é" * 33)]]
    await world.adapter.send(Outbound(f"tg:{GROUP}", "Choose", buttons=buttons))
    assert world.sent()[0].buttons == [[("ok", "x" * 64)]]


async def test_empty_outbound_sends_nothing(world: World) -> None:
    await world.adapter.send(Outbound(f"tg:{GROUP}", "  ", toast="only a toast"))
    assert world.sent() == []


async def test_private_message_goes_to_the_users_private_chat(world: World) -> None:
    await world.say(world.ann, "/whisper")
    [message] = world.sent()
    assert (message.chat_id, message.text) == (ANN, "Psst.")


async def test_private_message_to_a_user_who_never_started_the_bot_mentions_them(
    world: World,
) -> None:
    world.api.unstarted.add(ANN)
    await world.say(world.ann, "/whisper", thread=3)
    failed, notice = world.sent()
    assert failed.chat_id == ANN
    assert (notice.chat_id, notice.thread_id) == (GROUP, 3)
    assert notice.text == (
        f'<a href="tg://user?id={ANN}">Ann Lee</a>, I cannot message you privately. '
        "Open a chat with @boardchat_test_bot and press Start."
    )
    assert "Psst" not in notice.text  # private content never lands in the group


async def test_the_notice_for_a_closed_private_chat_is_as_quiet_as_the_message_it_replaces(
    world: World,
) -> None:
    """Found through Telegram, 2026-12-05: a spectator's /status in his own language has a
    silent private copy; his closed private chat turned it into a notifying group post."""
    ann = f"tg:{ANN}"
    world.api.unstarted.add(ANN)
    for silent in (True, False):
        await world.adapter.send(
            Outbound(f"tg:{GROUP}", "Psst.", private_to=ann, mentions=[(ann, "Ann")], silent=silent)
        )
    notices = [m for m in world.sent() if m.chat_id == GROUP]
    assert [m.params.get("disable_notification") == "true" for m in notices] == [True, False]


async def test_the_notice_for_a_closed_private_chat_is_in_the_players_language(
    world: World,
) -> None:
    """Found through Telegram, 2026-12-04: the notice came in the server's default language
    in a Polish group, and told a player who had blocked the bot to "press Start"."""
    ann = f"tg:{ANN}"
    world.api.fail_next("sendMessage", 403, "Forbidden: bot was blocked by the user")
    out = Outbound(f"tg:{GROUP}", "Psst.", private_to=ann, mentions=[(ann, "Ann")], lang="pl")
    await world.adapter.send(out)
    failed, notice = world.sent()
    assert failed.chat_id == ANN and notice.chat_id == GROUP
    polish = tr("pl", BLOCKED, name="NAME", bot="boardchat_test_bot")
    assert polish != tr("en", BLOCKED, name="NAME", bot="boardchat_test_bot")
    assert notice.text.endswith(polish.split("NAME", 1)[1]) and "Ann</a>" in notice.text
    assert "Psst" not in notice.text


async def test_a_migrated_group_gets_the_message_at_its_new_id(world: World) -> None:
    world.api.fail_next(
        "sendMessage", 400, "Bad Request: group chat was upgraded", migrate_to_chat_id=-1002
    )
    await world.adapter.send(Outbound("tg:-55", "Hello"))
    assert [m.chat_id for m in world.sent()] == [-55, -1002]


async def test_send_failure_is_logged_not_raised(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    world.api.fail_next("sendMessage", 400, "Bad Request: message thread not found")
    with caplog.at_level(logging.WARNING, logger="bot.platforms.telegram"):
        await world.adapter.send(Outbound(f"tg:{GROUP}:77", "Hello"))
    assert "could not send to tg:-1001:77" in caplog.text


@pytest.mark.parametrize(
    ("status", "description"),
    [
        (400, "Bad Request: can't parse entities"),  # a 400
        (502, "Bad Gateway"),  # a network error (python-telegram-bot's NetworkError)
    ],
)
async def test_a_failed_bot_api_call_in_a_handler_tells_the_player_and_logs_once(
    world: World, caplog: pytest.LogCaptureFixture, status: int, description: str
) -> None:
    # Issue 22: the answer to Ann's /status cannot be sent; she hears that nothing was
    # changed (in Russian, her language), and the failure is logged once with the update.
    world.api.fail_next("sendMessage", status, description)
    with caplog.at_level(logging.INFO, logger="bot.platforms.telegram"):
        await world.say(world.ann, "/status", thread=42)
    failed, sorry = world.sent()  # the answer Telegram refused, then the apology
    assert failed.text != sorry.text
    assert (sorry.chat_id, sorry.thread_id) == (GROUP, 42)
    assert sorry.text == tr(
        "ru",
        "Sorry, something went wrong on my side. Nothing was changed unless I said so; "
        "please try again.",
    )
    assert sorry.json("reply_parameters")["message_id"]
    records = [r for r in caplog.records if r.name == "bot.platforms.telegram"]
    assert len(records) == 1 and records[0].levelno == logging.WARNING
    assert "/status" in records[0].getMessage() and "player told: True" in records[0].getMessage()


# ---------------------------------------------------------------- buttons and errors


async def test_button_press_is_answered_and_played(world: World) -> None:
    for user in (world.ann, world.bob):
        await world.say(user, "/join")
    await world.say(world.ann, "/start")
    game_on = world.api.sent[max(world.api.sent)]
    mark = len(world.api.calls)
    await world.feed(world.api.press_update(world.bob, game_on, "v1:/pass"))
    [answer] = world.api.since(mark, "answerCallbackQuery")
    assert "text" not in answer.params
    assert world.table.inbounds[-1].payload == "v1:/pass"
    assert world.table.inbounds[-1].user_key == f"tg:{BOB}"
    assert [m.method for m in world.sent(mark)] == ["sendPhoto", "sendMessage"]


async def test_stale_button_gets_a_toast_and_nothing_else(world: World) -> None:
    await world.say(world.ann, "/join")
    await world.say(world.ann, "/start")
    game_on = world.api.sent[max(world.api.sent)]
    await world.say(world.ann, "/bid 15")  # version moves on
    mark = len(world.api.calls)
    await world.feed(world.api.press_update(world.ann, game_on, "v1:/pass"))
    [answer] = world.api.since(mark, "answerCallbackQuery")
    assert answer.params["text"] == "This button is out of date."
    assert world.sent(mark) == []


async def test_a_private_answer_saying_more_than_the_toast_is_still_sent(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.say(world.ann, "/status")
    message = world.api.sent[max(world.api.sent)]

    async def answer(inbound: Inbound) -> list[Outbound]:
        return [
            Outbound(inbound.chat_key, "Not yet.", private_to=inbound.user_key, toast="Not yet."),
            Outbound(inbound.chat_key, "Your hand: 3, 7", private_to=inbound.user_key, toast="!"),
        ]

    monkeypatch.setattr(world.table, "handle", answer)
    mark = len(world.api.calls)
    await world.feed(world.api.press_update(world.bob, message, "v0:/hand"))
    assert world.api.since(mark, "answerCallbackQuery")[0].params["text"] == "Not yet."
    assert [(m.chat_id, m.text) for m in world.sent(mark)] == [(BOB, "Your hand: 3, 7")]


async def test_press_is_answered_even_when_the_table_fails_and_the_error_is_logged(
    world: World, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.say(world.ann, "/status")
    message = world.api.sent[max(world.api.sent)]

    async def broken(inbound: Inbound) -> list[Outbound]:
        raise RuntimeError("database is on fire")

    monkeypatch.setattr(world.table, "handle", broken)
    mark = len(world.api.calls)
    with caplog.at_level(logging.ERROR, logger="bot.platforms.telegram"):
        await world.feed(world.api.press_update(world.bob, message, "v0:/pass"))
    assert len(world.api.since(mark, "answerCallbackQuery")) == 1
    assert "error while handling update 2" in caplog.text
    assert f"user {BOB}" in caplog.text and "database is on fire" in caplog.text

    monkeypatch.undo()  # the application goes on
    await world.say(world.ann, "/status")
    assert world.sent(mark)[-1].text == "Status: lobby."


# ---------------------------------------------------------------- configuration


def test_self_hosted_api_server_urls() -> None:
    assert api_urls("http://localhost:8081/bot") == (
        "http://localhost:8081/bot",
        "http://localhost:8081/file/bot",
    )
    assert api_urls("http://localhost:8081/") == api_urls("http://localhost:8081/bot")
    app = build_application(
        FakeTable(), make_settings(telegram_api_base_url="http://api.local:8081")
    )
    assert app.bot.base_url == f"http://api.local:8081/bot{TOKEN}"
    assert app.bot.base_file_url == f"http://api.local:8081/file/bot{TOKEN}"


def test_listen_addresses() -> None:
    assert parse_listen("0.0.0.0:8443") == ("0.0.0.0", 8443)
    assert parse_listen("[::]:8080") == ("::", 8080)
    assert parse_listen("8443") == ("0.0.0.0", 8443)


def test_no_token_no_application() -> None:
    with pytest.raises(ValueError, match="TELEGRAM_TOKEN"):
        build_application(FakeTable(), make_settings(telegram_token=""))
