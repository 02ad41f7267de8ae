"""Act from the reminder (issue 17) with the real Telegram adapter against the fake Bot API:
the private reminder carries the prompt's buttons and a recap; pressing one in the private chat
plays the move once, announced in the group; a second press is refused as out of date."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.platforms.telegram import build_application, running
from bot.scheduler import Scheduler
from bot.store import Store
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import FakeClock
from tests.bot.platforms.fake_telegram import BotApiState, FakeBotApi, make_settings, unthrottled

pytestmark = pytest.mark.timeout(60)

GROUP = -1001


def group_texts(api: BotApiState) -> list[str]:
    """What the group reads: the bot's posts and the edits of its live status message (issue
    17: a move that asks nobody anew is announced there), in order."""
    return [
        c.text
        for c in api.calls
        if c.method in ("sendMessage", "editMessageText") and c.chat_id == GROUP
    ]


async def said(api: FakeBotApi, user: dict[str, Any], text: str, expect: str) -> None:
    """Send a command in the group and wait until a group message contains `expect`."""
    mark = len(group_texts(api))
    api.command(GROUP, user, text)
    try:
        await api.wait_for(lambda s: any(expect in t for t in group_texts(s)[mark:]))
    except TimeoutError:
        raise AssertionError([(c.method, c.chat_id, c.text) for c in api.calls]) from None


async def test_a_move_from_the_reminders_buttons_is_played_once_and_announced_in_the_group(
    tmp_path: Path, clock: FakeClock
) -> None:
    store = await Store.open(str(tmp_path / "dm.sqlite3"), clock=clock)
    table = Table(
        store,
        games={"dicepile": ChatDicePile()},
        clock=clock,
        render=False,
        seeder=lambda: 3,
        durable=("telegram",),
    )
    try:
        async with FakeBotApi() as api:
            api.group(GROUP)
            ann, bob = api.user(7, "Ann"), api.user(8, "Bob")
            app = build_application(
                table, make_settings(), base_url=api.base_url, rate_limiter=unthrottled()
            )
            async with running(app, make_settings(), poll_timeout=1):
                await said(api, ann, "/new dicepile", "Dice pile")
                await said(api, bob, "/join", "Bob joins")
                await said(api, ann, "/start", "Ann takes 1 to 3")
                await said(api, ann, "/take 1", "Bob takes 1 to 3")
                await said(api, bob, "/take 2", "Ann takes 1 to 3")
                await store.set_user("tg:7", dm_ok=True)  # Ann wrote to the bot privately
                await Scheduler(table, clock=clock).run_due()
                reminder: Any = await api.wait_for(
                    lambda s: next(
                        (c for c in s.since(0, "sendMessage") if c.chat_id == 7 and c.buttons),
                        None,
                    )
                )
                assert "Since your last move (1 move):" in reminder.text
                assert "Bob takes 2." in reminder.text and "Your move in Dice pile" in reminder.text
                [[_one, _two, (label, data)]] = reminder.buttons
                assert label == "Take 3" and data.endswith(":/take 3")

                mark = len(api.calls)
                api.press(ann, reminder.message_id, data)
                await api.wait_for(
                    lambda s: (
                        # announced in the group, the next player asked in the same post
                        any(
                            "Ann takes 3." in c.text and "Bob takes 1 to 3" in c.text
                            for c in s.since(mark, "sendMessage")
                            if c.chat_id == GROUP
                        )
                        and any(
                            c.chat_id == 7 and "; announced in " in c.text
                            for c in s.since(mark, "sendMessage")
                        )
                    )
                )

                # The same button again: out of date, nothing played.
                posts = len([c for c in api.since(0, "sendMessage") if c.chat_id == GROUP])
                mark = len(api.calls)
                api.press(ann, reminder.message_id, data)
                [answer] = await api.wait_calls(mark, "answerCallbackQuery")
                assert "out of date" in answer.params.get("text", "")
                await asyncio.sleep(0.1)
                # nothing played: no new post in the group (its status message may be redrawn)
                assert len([c for c in api.since(0, "sendMessage") if c.chat_id == GROUP]) == posts
        assert len(await store.actions(1)) == 3
    finally:
        await table.close()
