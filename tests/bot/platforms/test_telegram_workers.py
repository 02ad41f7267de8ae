"""`boardchat run --workers N`: every worker's Telegram webhook server accepts on the one
socket the supervisor bound (bot/supervisor.py), not on a port of its own."""

from __future__ import annotations

import socket

import aiohttp
import pytest

from bot import supervisor as workers
from bot.platforms.telegram import build_application, running, webhook_secret
from tests.bot.platforms.fake_telegram import FakeBotApi, FakeTable, make_settings, unthrottled
from tests.bot.platforms.test_telegram_e2e import GROUP, TOPIC, api, free_port  # noqa: F401


async def test_the_webhook_serves_on_the_inherited_socket(
    api: FakeBotApi,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shared = socket.create_server(("127.0.0.1", 0))
    shared.set_inheritable(True)
    port = shared.getsockname()[1]
    monkeypatch.setenv(workers.LISTEN_FD, str(shared.fileno()))
    settings = make_settings(
        telegram_webhook_url=f"http://127.0.0.1:{port}/telegram/hook",
        telegram_webhook_listen=f"127.0.0.1:{free_port()}",  # not used: the socket is given
    )
    table = FakeTable()
    app = build_application(table, settings, base_url=api.base_url, rate_limiter=unthrottled())
    ann = api.user(7, "Ann")
    async with running(app, settings):
        update = {"update_id": 900, **api.message_update(GROUP, ann, "/status", TOPIC)}
        headers = {"X-Telegram-Bot-Api-Secret-Token": webhook_secret(settings.telegram_token)}
        mark = len(api.calls)
        async with aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{port}/telegram/hook"
            async with http.post(url, json=update, headers=headers) as response:
                assert response.status == 200
        await api.wait_calls(mark, "sendMessage")
    assert [i.update_id for i in table.inbounds] == ["900"]
