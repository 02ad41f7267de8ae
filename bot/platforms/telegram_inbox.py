"""The Telegram updates' way into the table's inbox (issue 16) and their one-line description
for the logs: kept apart from the adapter (bot/platforms/telegram.py), which sends."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from telegram import Update

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
