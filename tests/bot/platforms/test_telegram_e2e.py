"""Telegram adapter end to end over real HTTP: the real Application (long polling, or webhook)
against the fake Bot API server on 127.0.0.1, with the scripted fake table."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.platforms.telegram import build_application, running, serve, webhook_secret
from tests.bot.platforms.fake_telegram import (
    FakeBotApi,
    FakeTable,
    make_settings,
    unthrottled,
)

pytestmark = pytest.mark.timeout(60)

GROUP, TOPIC = -1001, 5


@pytest.fixture
async def api() -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi() as server:
        server.group(GROUP, forum=True)
        yield server


async def play(
    api: FakeBotApi,
    user: dict[str, Any],
    text: str,
    expect: int = 1,
    thread: int | None = TOPIC,
) -> list[Any]:
    """Send a command into the topic; wait for `expect` messages (text or photo) back."""
    mark = len(api.calls)
    api.command(GROUP, user, text, thread)
    return await api.wait_for(lambda s: (m := s.messages(mark))[expect - 1 :] and m)


async def press(api: FakeBotApi, user: dict[str, Any], message_id: int, data: str) -> Any:
    """Press a button; return the callback answer."""
    mark = len(api.calls)
    api.press(user, message_id, data)
    [answer] = await api.wait_calls(mark, "answerCallbackQuery")
    return answer


async def test_a_game_in_a_forum_topic_over_long_polling(api: FakeBotApi) -> None:
    table = FakeTable()
    app = build_application(
        table, make_settings(), base_url=api.base_url, rate_limiter=unthrottled()
    )
    ann = api.user(7, "Ann", lang="pl")
    bob = api.user(8, "Bob", "Brown")
    cy = api.user(9, "Cy")
    async with running(app, make_settings(), poll_timeout=5):
        assert [c.method for c in api.calls[:2]] == ["getMe", "setMyCommands"]
        assert api.since(0, "deleteWebhook")  # polling clears a stale webhook first

        # Lobby.
        [opened] = await play(api, ann, "/new@boardchat_test_bot toy")
        assert (opened.chat_id, opened.thread_id) == (GROUP, TOPIC)
        for user, n in ((ann, 1), (bob, 2), (cy, 3)):
            [joined] = await play(api, user, "/join")
            assert joined.text.endswith(f"joined ({n}).")
        [game_on] = await play(api, ann, "/start")
        assert game_on.params["parse_mode"] == "HTML"
        assert 'href="tg://user?id=8">Bob Brown</a>' in game_on.text
        assert game_on.buttons == [[("Pass", "v1:/pass"), ("Bid 20", "v1:/bid 20")]]
        game_on_id = game_on.message_id

        # An illegal move: one line with the reason.
        [refused] = await play(api, bob, "/bid 3")
        assert refused.text == "Bid at least 10 (PG-21)." and "\n" not in refused.text

        # A legal move by command, then a button press that ends the phase: a picture follows.
        [bid] = await play(api, bob, "/bid 12")
        assert bid.text.endswith("bids 12.")
        mark = len(api.calls)
        answer = await press(api, cy, bid.message_id, "v2:/pass")
        assert "text" not in answer.params
        photo, prompt = await api.wait_for(lambda s: (m := s.messages(mark))[1:] and m)
        assert photo.method == "sendPhoto" and photo.files["photo"].startswith(b"\x89PNG")
        assert photo.params["caption"].endswith("passes. Phase 1 ended.")
        assert (photo.chat_id, photo.thread_id) == (GROUP, TOPIC)
        assert prompt.buttons == [[("Pass", "v3:/pass"), ("Bid 20", "v3:/bid 20")]]

        # The first message's buttons are stale now: a toast, and nothing changes.
        mark = len(api.calls)
        answer = await press(api, ann, game_on_id, "v1:/bid 20")
        assert answer.params["text"] == "This button is out of date."
        [status] = await play(api, ann, "/status")
        assert status.text == "Status: phase 2, high bid 0."
        assert api.messages(mark) == [status]

        # Round two: everyone sees who acts; a press on the fresh buttons plays.
        mark = len(api.calls)
        await press(api, ann, prompt.message_id, "v3:/bid 20")
        [bid] = await api.wait_for(lambda s: s.messages(mark))
        assert bid.text == '<a href="tg://user?id=7">Ann</a> bids 20.'
        [status] = await play(api, cy, "/status")
        assert status.text == "Status: phase 2, high bid 20."

    updates = [i.update_id for i in table.inbounds]
    assert len(updates) == len(set(updates))  # each update once, each with its id
    assert {i.lang for i in table.inbounds if i.user_key == "tg:7"} == {"pl"}
    assert not app.running


# PTB's own RetryAfter warns that `retry_after` becomes a timedelta in PTB 23.
@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_flood_control_waits_and_delivers_exactly_once(api: FakeBotApi) -> None:
    table = FakeTable()
    app = build_application(table, make_settings(), base_url=api.base_url)  # production limiter
    ann = api.user(7, "Ann")
    api.fail_next("sendMessage", 429, "Too Many Requests: retry after 1", retry_after=1)
    async with running(app, make_settings(), poll_timeout=5):
        mark = len(api.calls)
        api.command(GROUP, ann, "/status", TOPIC)
        first, second = await api.wait_calls(mark, "sendMessage", count=2)
        assert second.at - first.at >= 1.0  # waited what Telegram asked
        # Another round trip proves nothing else was queued: the status went out once.
        [later] = await play(api, ann, "/status")
    sends = api.since(mark, "sendMessage")
    assert [c.text for c in sends] == ["Status: lobby."] * 3
    assert sends[2] is later


async def test_a_reminder_nobody_asked_for_reaches_the_topic(api: FakeBotApi) -> None:
    table = FakeTable()
    app = build_application(
        table, make_settings(), base_url=api.base_url, rate_limiter=unthrottled()
    )
    api.user(7, "Ann")
    table.players = [("tg:7", "Ann")]
    async with running(app, make_settings(), poll_timeout=5):
        mark = len(api.calls)
        await table.remind(f"tg:{GROUP}:{TOPIC}", "@Ann, 2 hours left for your move.")
        [reminder] = api.messages(mark)
    assert (reminder.chat_id, reminder.thread_id) == (GROUP, TOPIC)
    assert reminder.text == '<a href="tg://user?id=7">Ann</a>, 2 hours left for your move.'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_webhook_mode_receives_updates_with_the_secret_only(api: FakeBotApi) -> None:
    port = free_port()
    settings = make_settings(
        telegram_webhook_url=f"http://127.0.0.1:{port}/telegram/hook",
        telegram_webhook_listen=f"127.0.0.1:{port}",
    )
    table = FakeTable()
    app = build_application(table, settings, base_url=api.base_url, rate_limiter=unthrottled())
    ann = api.user(7, "Ann")
    secret = webhook_secret(settings.telegram_token)
    async with running(app, settings):
        [hook] = api.since(0, "setWebhook")
        assert hook.params["url"] == settings.telegram_webhook_url
        assert hook.params["secret_token"] == secret
        assert hook.json("allowed_updates") == ["message", "callback_query"]

        update = {"update_id": 500, **api.message_update(GROUP, ann, "/status", TOPIC)}
        url = f"http://127.0.0.1:{port}/telegram/hook"
        async with aiohttp.ClientSession() as http:
            async with http.post(url, json=update) as forged:
                assert forged.status == 403
            mark = len(api.calls)
            headers = {"X-Telegram-Bot-Api-Secret-Token": secret}
            async with http.post(url, json=update, headers=headers) as response:
                assert response.status == 200
            [reply] = await api.wait_calls(mark, "sendMessage")
    assert reply.text == "Status: lobby." and reply.thread_id == TOPIC
    assert [i.update_id for i in table.inbounds] == ["500"]


async def test_stopping_is_prompt_while_a_long_poll_is_open(api: FakeBotApi) -> None:
    api.max_poll_wait = 30.0  # the fake holds getUpdates like Telegram does
    app = build_application(
        FakeTable(), make_settings(), base_url=api.base_url, rate_limiter=unthrottled()
    )
    async with running(app, make_settings(), poll_timeout=30):
        await api.wait_for(lambda s: s.open_polls)
        started = time.monotonic()
    assert time.monotonic() - started < 5


async def test_serve_runs_until_cancelled(api: FakeBotApi) -> None:
    """`serve` as `boardchat run` calls it: settings only (the fake is a self-hosted server)."""
    table = FakeTable()
    ann = api.user(7, "Ann")
    task = asyncio.create_task(serve(table, make_settings(telegram_api_base_url=api.base_url)))
    try:
        await api.wait_for(lambda s: s.since(0, "getUpdates") or s.open_polls)
        [reply] = await play(api, ann, "/status")
        assert reply.text == "Status: lobby."
        assert "telegram" in table.senders
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 5)
    assert task.cancelled()
