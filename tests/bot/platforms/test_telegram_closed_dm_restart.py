"""Closed DMs survive a restart (issue 22 follow-up), through the real table and the Telegram
Application over the fake Bot API: a player who never started the bot is refused once and
mentioned in the group once; after a restart (a new table and sender loop on the same store)
his next private message is not tried again and the group is not told again; once he writes
to the bot privately, his DMs are used and the stored refusal is gone."""

from __future__ import annotations

from typing import Any

import pytest

from bot.messages import Outbound
from bot.outbox import DM_CLOSED
from bot.platforms.telegram import adapter_of, build_application
from bot.store import Store
from tests.bot.helpers import FakeClock
from tests.bot.platforms.fake_telegram import DictRequest, make_settings, unthrottled
from tests.bot.platforms.test_chat_names import FRIDAY, World
from tests.bot.platforms.test_telegram_table import BOB, GROUP_KEY, world  # noqa: F401

pytestmark = pytest.mark.timeout(60)


def restarted(old: World, store: Store, clock: FakeClock) -> World:
    """A new process: a new table (empty memory) and Application on the same store and API."""
    new = World(store, clock)
    new.api = old.api
    new.users = old.users
    new._ids = old._ids  # Telegram's update ids go on
    new.app = build_application(
        new.table, make_settings(), request=DictRequest(old.api), rate_limiter=unthrottled()
    )
    new.adapter = adapter_of(new.app)
    return new


async def test_closed_dms_are_remembered_across_a_restart(
    world: World,  # noqa: F811
    store: Store,
    clock: FakeClock,
) -> None:
    bob = f"tg:{BOB}"
    world.api.unstarted.add(BOB)  # Telegram: 403 "bot can't initiate conversation"
    await world.say("Ann", "/new dicepile")
    await world.say("Bob", "/join")
    secret = [Outbound(GROUP_KEY, "Your hand", private_to=bob, mentions=[(bob, "Bob")])]

    def dm_attempts() -> int:
        return len([c for c in world.api.since(0, "sendMessage") if c.chat_id == BOB])

    def notes() -> list[Any]:
        return [
            c
            for c in world.api.messages()
            if c.chat_id == FRIDAY and "cannot message you privately" in c.text
        ]

    await world.table.push(secret)
    await world.drained()
    assert dm_attempts() == 1 and len(notes()) == 1
    assert (await store.user(bob)).dm_ok is False
    assert (await store.user_prefs([bob]))[bob].get(DM_CLOSED) is True

    await world.table.stop_senders()  # the process goes down
    again = restarted(world, store, clock)
    await again.app.initialize()
    await again.adapter.setup(again.app)
    try:
        await again.table.push(secret)
        await again.drained()
        assert dm_attempts() == 1, "not tried again after the restart"
        assert len(notes()) == 1, "the group is not told again"
        assert len(await store.outbox(status="failed")) == 2
        # his /status in the group opens no private chat: still neither tried nor told
        await again.say("Bob", "/status")
        await again.table.push(secret)
        await again.drained()
        assert dm_attempts() == 1 and len(notes()) == 1

        # Bob presses Start in a private chat with the bot: his DMs are used again.
        again.api.unstarted.discard(BOB)
        await again.say("Bob", "/help", chat=BOB)
        assert (await store.user(bob)).dm_ok is True
        await again.table.push(secret)
        await again.drained()
        assert any(c.chat_id == BOB and c.text == "Your hand" for c in again.api.messages())
        assert DM_CLOSED not in (await store.user_prefs([bob]))[bob]
    finally:
        await again.table.stop_senders()
        await again.app.shutdown()
