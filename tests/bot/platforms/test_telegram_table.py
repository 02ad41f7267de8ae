"""Issue 22 on Telegram, through the real table (dice pile) and the real Application over the
fake Bot API (in process): inline buttons apply once and a stale one is answered with a
callback alert, never a group post; a player who never started the bot is remembered, and
mentioned in the group once instead of at every private message."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.i18n import tr
from bot.messages import Outbound
from bot.outbox import DM_CLOSED
from bot.store import Store
from bot.table import Table
from tests.bot.helpers import FakeClock
from tests.bot.platforms.test_chat_names import FRIDAY, World, running_world

pytestmark = pytest.mark.timeout(60)

ANN, BOB = 7, 8
GROUP_KEY = f"tg:{FRIDAY}"


@pytest.fixture
async def world(store: Store, clock: FakeClock) -> AsyncIterator[World]:
    async with running_world(store, clock) as w:
        yield w


async def press(world: World, who: str, message_id: int, data: str) -> tuple[Any, list[Any]]:
    """Press a button; (the callback answer, the messages sent meanwhile)."""
    mark = len(world.api.calls)
    world._ids += 1
    update = world.api.press_update(world.users[who], world.api.sent[message_id], data)
    await world.feed_raw(update, world._ids)
    [answer] = world.api.since(mark, "answerCallbackQuery")
    return answer, world.api.messages(mark)


def prompt(world: World) -> tuple[int, list[str]]:
    """The latest message in the group with buttons, and its payloads."""
    call = next(c for c in reversed(world.api.messages()) if c.buttons and c.chat_id == FRIDAY)
    return call.message_id, [p for row in call.buttons for _, p in row]


async def version(store: Store) -> int:
    row = await store.open_game(GROUP_KEY)
    assert row is not None
    return row.version


async def test_a_button_press_applies_once_and_a_stale_one_is_an_alert(
    world: World, store: Store
) -> None:
    await world.say("Ann", "/new dicepile")
    await world.say("Bob", "/join")
    await world.say("Ann", "/start")
    message_id, payloads = prompt(world)
    take = next(p for p in payloads if p.endswith("/take 1"))
    before = await version(store)

    answer, sent = await press(world, "Ann", message_id, take)
    assert await version(store) == before + 1  # applied
    assert "show_alert" not in answer.params
    assert [c.chat_id for c in sent] and all(c.chat_id == FRIDAY for c in sent)

    # The same update again (Telegram redelivers after a timeout): nothing applied twice.
    mark = len(world.api.calls)
    update = world.api.press_update(world.users["Ann"], world.api.sent[message_id], take)
    await world.feed_raw(update, world._ids)
    assert await version(store) == before + 1
    assert world.api.messages(mark) == []

    # The button pressed again later: an alert to the presser, no post, nothing changed.
    answer, sent = await press(world, "Ann", message_id, take)
    assert "out of date" in answer.params["text"] and answer.params["show_alert"] == "true"
    assert sent == [] and await version(store) == before + 1


async def test_a_button_pressed_out_of_turn_is_an_alert_to_the_presser_alone(
    world: World, store: Store
) -> None:
    """Found playing through Telegram, 2026-12-04: Bob pressed Ann's button and the group
    read "Not your turn" in Bob's language; a refusal to a press is the presser's alone."""
    await world.say("Ann", "/new dicepile")
    await world.say("Bob", "/join")
    await world.say("Ann", "/start")
    message_id, payloads = prompt(world)
    take = next(p for p in payloads if p.endswith("/take 1"))
    before = await version(store)
    answer, sent = await press(world, "Bob", message_id, take)
    assert answer.params["show_alert"] == "true" and "turn" in answer.params["text"]
    assert sent == [] and await version(store) == before


async def test_a_player_who_never_started_the_bot_is_remembered_and_mentioned_once(
    world: World, store: Store, caplog: pytest.LogCaptureFixture
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

    with caplog.at_level(logging.INFO):
        for _ in range(3):  # three private messages of one turn
            await world.table.push(secret)
            await world.drained()
    assert dm_attempts() == 1  # refused once, then remembered
    (note,) = notes()
    assert f'href="tg://user?id={BOB}"' in note.text  # a real mention, once
    assert (await store.user(bob)).dm_ok is False
    assert len(await store.outbox(status="failed")) == 3
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]

    # Bob uses the bot in the group: that opens no private chat on Telegram, so his DMs are
    # not tried again and the group is not told again (found play-testing: each /status of
    # his brought another note)
    for _ in range(2):
        await world.say("Bob", "/status")
        await world.table.push(secret)
        await world.drained()
    assert dm_attempts() == 1 and len(notes()) == 1

    # Bob presses Start in a private chat with the bot: the next private message reaches him.
    world.api.unstarted.discard(BOB)
    await world.say("Bob", "/help", chat=BOB)
    assert (await store.user(bob)).dm_ok is True
    await world.table.push(secret)
    await world.drained()
    assert any(c.chat_id == BOB and c.text == "Your hand" for c in world.api.messages())
    assert len(notes()) == 1


async def test_a_player_who_never_started_the_bot_is_told_once_across_his_answers(
    world: World, store: Store
) -> None:
    """Found play-testing: each /status in the group of a player who never started the bot
    had its private copy (in his language) refused, and each refusal brought the group
    another note. The immediate answers meet the sender loop's memory: one attempt, one
    note, also after a restart of the memory's reading (a stored refusal)."""
    world.api.unstarted.add(BOB)
    await world.say("Ann", "/new dicepile")
    await world.say("Bob", "/join")
    await world.say("Bob", "/lang ru")  # his answers in the group get a private copy

    def dm_attempts() -> int:
        return len([c for c in world.api.since(0, "sendMessage") if c.chat_id == BOB])

    def notes() -> list[Any]:
        return [
            c
            for c in world.api.messages()
            if c.chat_id == FRIDAY and f'href="tg://user?id={BOB}"' in c.text
        ]

    for _ in range(3):
        await world.say("Bob", "/status")
    assert dm_attempts() == 1 and len(notes()) == 1
    assert (await store.user_prefs([f"tg:{BOB}"]))[f"tg:{BOB}"].get(DM_CLOSED) is True


async def test_a_chat_that_plays_some_games_gets_a_menu_of_their_commands(
    store: Store, clock: FakeClock
) -> None:
    """Issue 22: /settings games=hexania in a group: that group's command menu (Telegram's
    per-chat scope, every language) holds the table's commands and Hexania's only."""
    every_game = Table(store, clock=clock, render=False)
    async with running_world(store, clock, every_game) as world:
        world.api.admins.add((FRIDAY, ANN))
        mark = len(world.api.calls)
        await world.say("Ann", "/settings games=hexania")
        menus = world.api.since(mark, "setMyCommands")
        assert [m.params.get("language_code") for m in menus] == [None, "ru", "zh", "pl"]
        own = {s.name for s in world.table.table_command_specs()}
        hexania = {s.name for s in world.table.games["hexania"].commands}
        for menu in menus:
            assert menu.json("scope") == {"type": "chat", "chat_id": FRIDAY}
            names = {c["command"] for c in menu.json("commands")}
            assert names == own | hexania
            assert "bid" not in names and "spawn" in names
        spawn = {c["command"]: c["description"] for c in menus[1].json("commands")}["spawn"]
        assert spawn == tr("ru", world.table.games["hexania"].commands[0].help)
        # Not in a private chat, and not for other settings.
        mark = len(world.api.calls)
        await world.say("Ann", "/settings deadline=6h")
        assert not world.api.since(mark, "setMyCommands")


async def test_a_mistyped_command_is_answered_where_it_is_surely_ours(world: World) -> None:
    """Found play-testing through Telegram, 2026-12-05: "/spwan O1" in the group got no answer
    at all (the Application's command handler knows only our commands). A command near one of
    ours is answered; a bare unknown one in a group may be another bot's and is left alone, as
    is one addressed to another bot; in the private chat, or addressed to us, every one."""
    await world.say("Ann", "/new dicepile")
    await world.say("Bob", "/join")
    await world.say("Ann", "/start")
    [typo] = await world.say("Ann", "/tkae 1")
    assert typo.text.startswith("Unknown command /tkae.")
    assert typo.params.get("disable_notification") == "true"  # a refusal makes no sound
    assert await world.say("Ann", "/xyzzy") == []
    assert await world.say("Ann", "/tkae@other_bot 1") == []
    [ours] = await world.say("Ann", "/xyzzy@boardchat_test_bot")
    assert ours.text.startswith("Unknown command /xyzzy.")
    world.api.chats[ANN] = {"id": ANN, "type": "private", "first_name": "Ann"}
    [private] = await world.say("Ann", "/xyzzy", chat=ANN)
    assert private.text.startswith("Unknown command /xyzzy.")


async def test_a_chat_admin_sets_the_chats_language(world: World) -> None:
    """Found play-testing through Telegram, 2026-12-05: a chat admin who had not created the
    table was refused "/lang chat ru", which the refusal itself says an admin may do: /lang
    was not among the commands whose sender is looked up as an admin. A player's own /lang
    asks nothing of Telegram."""
    await world.say("Ann", "/new dicepile")
    world.api.admins.add((FRIDAY, BOB))
    await world.say("Ann", "/lang chat pl")  # the creator may
    mark = len(world.api.calls)
    [done] = await world.say("Bob", "/lang chat ru")
    assert done.text == tr("ru", "This chat's language: {code}.").format(code="русский (ru)")
    assert len(world.api.since(mark, "getChatMember")) == 1
    mark = len(world.api.calls)
    await world.say("Bob", "/lang pl")
    assert world.api.since(mark, "getChatMember") == []
