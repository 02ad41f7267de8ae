"""The outbox rows a move writes (issue 16): in the move's own transaction, addressed by
audience, marked for the caller so nobody sends them twice."""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.table import MAX_COMMAND, Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock


@pytest.fixture
def durable(store: Store, clock: FakeClock) -> Table:
    return Table(
        store,
        games={"dicepile": ChatDicePile()},
        clock=clock,
        render=False,
        seeder=lambda: 12345,
        durable=("telegram",),
    )


async def test_a_move_s_messages_wait_in_the_outbox_and_are_marked_for_the_caller(
    durable: Table, store: Store
) -> None:
    chat = Chat(durable, chat_key="tg:-100", platform="telegram")
    await chat.say("alice", "/new dicepile")
    await chat.say("bob", "/join")
    started = await chat.say("alice", "/start")
    assert started and all(o.outbox_id is not None for o in started)
    before = len(await store.outbox())
    outs = await chat.say("alice", "/take 2")
    rows = await store.outbox()
    assert [o.outbox_id for o in outs] == [r.id for r in rows[before:]]
    assert all(r.status == "pending" and r.audience == "chat" and r.lang == "en" for r in rows)
    assert "alice takes 2" in rows[-1].body["text"] and rows[-1].body["buttons"]
    # A refusal changes nothing and is answered directly.
    refused = await chat.say("alice", "/take 1")
    assert refused and refused[0].outbox_id is None and len(await store.outbox()) == len(rows)


async def test_the_terminal_shows_its_messages_itself(table: Table, store: Store) -> None:
    chat = Chat(table)
    await chat.say("alice", "/new dicepile")
    await chat.say("bob", "/join")
    outs = await chat.say("alice", "/start")
    assert outs and all(o.outbox_id is None for o in outs)
    assert await store.outbox() == []  # nothing for a sender loop to deliver


async def test_a_command_over_the_cap_is_refused_unread(table: Table) -> None:
    chat = Chat(table)
    await chat.say("alice", "/new dicepile")
    outs = await chat.say("alice", "/take " + "1 " * MAX_COMMAND)
    assert len(outs) == 1 and "too long" in outs[0].text and outs[0].sender_only


async def test_a_private_message_for_another_player_is_queued_in_his_language(
    store: Store, clock: FakeClock
) -> None:
    """The outbox row's language is its reader's: what its sender loop words itself (the
    notice that his private chat is closed) came in the language of the player whose move
    caused the message (found through Telegram, 2026-12-04)."""
    from bot.context import Ctx
    from bot.messages import Inbound, Outbound
    from bot.store import SeatRow, UserRow

    table = Table(store, games={"dicepile": ChatDicePile()}, clock=clock, durable=("telegram",))
    ann = Inbound("telegram", "tg:-100", "tg:1", "Ann", lang="ru")
    ctx = Ctx(ann, "ru", chat_lang="en")
    ctx.seats = [
        SeatRow(1, 1, "tg:1", "Ann", False, None, "ru"),
        SeatRow(1, 2, "tg:2", "Bob", False, None, None),
        SeatRow(1, 3, "tg:3", "Cy", False, None, "zh-TW"),
    ]
    ctx.users = {"tg:2": UserRow("tg:2", "pl", True)}
    outs = [
        Outbound("tg:-100", "to Bob", private_to="tg:2"),
        Outbound("tg:-100", "to Cy", private_to="tg:3"),
        Outbound("tg:-100", "to Ann", private_to="tg:1"),
        Outbound("tg:-100", "worded already", private_to="tg:2", lang="en"),
    ]
    _fitted, rows = table._rows(ctx, outs, 1)
    assert [r.lang for r in rows] == ["pl", "zh_Hant", "ru", "en"]
