"""The Telegram updates' way into the table's inbox (issue 16) and their one-line description
for the logs: kept apart from the adapter (bot/platforms/telegram.py), which sends."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from telegram import Update
from telegram.request import BaseRequest, HTTPXRequest, RequestData

from bot.health import beat


class InboxQueue(asyncio.Queue[object]):
    """The Application's update queue, which keeps every update in the table's inbox before
    taking it: the Updater puts an update here before it confirms it to Telegram (polling:
    the next getUpdates offset; webhook: the HTTP answer), so a confirmed update is never
    only in memory."""

    def __init__(self, keep: Callable[[Update], Awaitable[None]]) -> None:
        super().__init__()
        self._keep = keep

    async def put(self, item: object) -> None:
        if isinstance(item, Update):
            await self._keep(item)
            beat("telegram")  # an update from a good poll or a webhook POST (bot/health.py)
        await super().put(item)


class PollHeartbeat(BaseRequest):
    """The getUpdates requests (python-telegram-bot's `get_updates_request`), beating the
    health file after each answered poll: a bot whose chats are quiet still polls, so it is
    alive (found by an admin's test, 2026-12-04: the beat came only with an update, and the
    Docker health check failed a healthy bot after five quiet minutes)."""

    def __init__(self, inner: BaseRequest | None = None) -> None:
        # python-telegram-bot's own getUpdates request: one connection, HTTP/1.1
        self._inner = inner or HTTPXRequest(connection_pool_size=1)

    @property
    def read_timeout(self) -> float | None:
        return self._inner.read_timeout

    async def initialize(self) -> None:
        await self._inner.initialize()

    async def shutdown(self) -> None:
        await self._inner.shutdown()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        code, payload = await self._inner.do_request(
            url,
            method,
            request_data,
            read_timeout=read_timeout,
            write_timeout=write_timeout,
            connect_timeout=connect_timeout,
            pool_timeout=pool_timeout,
        )
        if 200 <= code < 300:
            beat("telegram")
        return code, payload


def describe_update(update: object) -> str:
    if not isinstance(update, Update):
        return repr(update) if update is not None else "no update (polling or a job)"
    parts = [f"update {update.update_id}"]
    if update.effective_chat is not None:
        parts.append(f"chat {update.effective_chat.id}")
    if update.effective_user is not None:
        parts.append(f"user {update.effective_user.id}")
    if update.message is not None and update.message.text:
        parts.append(f"text {update.message.text[:100]!r}")
    if update.callback_query is not None:
        parts.append(f"button {update.callback_query.data!r}")
    return ", ".join(parts)
