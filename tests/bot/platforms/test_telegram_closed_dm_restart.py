"""Closed DMs survive a restart (issue 22 follow-up), through the real table and the Telegram
Application over the fake Bot API: a player who never started the bot is refused once and
mentioned in the group once; after a restart (a new table and sender loop on the same store)
his next private message is not tried again and the group is not told again; once he writes
to the bot privately, his DMs are used and the stored refusal is gone."""

from __future__ import annotations

from typing import Any

import pytest
from telegram import Update

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


async def test_the_note_of_an_immediate_answer_is_queued_with_the_refusal_for_the_loop(
    world: World,  # noqa: F811
    store: Store,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bob's /status in the group has a private copy (his language), refused: the group's
    note is an outbox row written with the stored refusal, as the sender loop's own notes
    (f2a9a5f), and the loop posts it. Before, the adapter stored the refusal and then posted
    the note itself: a process that died between them kept the refusal (told, after a
    restart) and lost the note. Here the process dies once both are stored; the restarted
    one posts the note once."""
    bob = f"tg:{BOB}"
    world.api.unstarted.add(BOB)
    await world.say("Ann", "/new dicepile")
    await world.say("Bob", "/join")
    await world.say("Bob", "/lang ru")  # his answers in the group get a private copy

    written: list[list[str]] = []
    change = store.update_user_prefs

    async def spied(user_key: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
        rows = kwargs.get("outbox", args[1] if len(args) > 1 else ())
        written.append([r.body.get("text", "") for r in rows])
        return await change(user_key, *args, **kwargs)

    monkeypatch.setattr(store, "update_user_prefs", spied)
    await world.table.stop_senders()  # nothing leaves but what the adapter sends itself
    world._ids += 1
    update = world.api.message_update(FRIDAY, world.users["Bob"], "/status")
    await world.app.process_update(
        Update.de_json({"update_id": world._ids, **update}, world.app.bot)
    )

    def dm_attempts() -> int:
        return len([c for c in world.api.since(0, "sendMessage") if c.chat_id == BOB])

    def notes() -> list[Any]:
        return [
            c
            for c in world.api.messages()
            if c.chat_id == FRIDAY and f'href="tg://user?id={BOB}"' in c.text
        ]

    assert dm_attempts() == 1 and notes() == [], "the adapter posts no note itself"
    assert (await store.user_prefs([bob]))[bob].get(DM_CLOSED) is True
    [texts] = written  # the refusal, stored with the note in one transaction
    [note] = [r for r in await store.outbox(GROUP_KEY, status="pending") if r.body["text"] in texts]
    assert "@Bob" in note.body["text"] and note.audience == "chat"

    again = restarted(world, store, clock)  # the process went down: a new one
    await again.app.initialize()
    await again.adapter.setup(again.app)
    try:
        await again.drained()
        assert len(notes()) == 1, "posted once, by the restarted sender loop"
        assert note.id in [r.id for r in await store.outbox(GROUP_KEY, status="sent")]
        await again.say("Bob", "/status")
        assert dm_attempts() == 1 and len(notes()) == 1
    finally:
        await again.table.stop_senders()
        await again.app.shutdown()
