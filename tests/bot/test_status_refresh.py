"""The live status message follows a setting that moves when the bot acts on the turn under
way (bot/status_refresh.py): /settings and /me edit its deadline at once, as /status says
it; a setting that moves nothing edits nothing. In virtual time, at a Telegram table whose
messages go through the outbox."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.store import Store
from bot.store_outbox import OutboxItem
from bot.store_protocol import Store as AnyStore
from bot.table import Table
from tests.bot.helpers import Chat, FakeClock, joined
from tests.bot.test_quiet_table import quiet_table

TG = "tg:-100"


def at(hour: int, day: int = 14, minute: int = 0) -> float:
    """A moment of November 2023, UTC."""
    return datetime(2023, 11, day, hour, minute, tzinfo=UTC).timestamp()


async def edits(store: AnyStore, since: int = 0) -> list[OutboxItem]:
    return [r for r in (await store.outbox())[since:] if r.kind == "edit"]


def deadline(item: OutboxItem) -> str:
    return str(item.body["text"]).rsplit("\n", 1)[-1]


async def privately(table: Table, user: str, text: str) -> str:
    dm = Chat(table, chat_key=f"tg:{sum(map(ord, user))}", platform="telegram")
    return joined(await table.handle(replace(dm.inbound(user, text), is_private=True)))


@pytest.mark.parametrize("whose", ["chat", "own"])
async def test_switching_quiet_hours_off_mid_turn_edits_the_pinned_deadline(
    any_store: AnyStore, clock: FakeClock, whose: str
) -> None:
    """Found by a play-tester: deadline 12 h, quiet hours 22-08, alice asked at 19:30: the bot
    acts at 09:12 (her 50 % reminder held to 08:00, then the last call), as pinned. The quiet
    hours switched off at 20:00 (the chat's /settings, or her own /me) bring it to 07:30, which
    /status said at once, while the pin kept 09:12 until the default move came at 07:30. On
    SQLite and PostgreSQL (the edit is written under the game's lock)."""
    clock.now = at(19, minute=30)
    table = quiet_table(any_store, clock)  # type: ignore[arg-type]
    chat = Chat(table, chat_key=TG, platform="telegram")
    await chat.say("alice", "/new dicepile start=20")
    await chat.say("alice", "/settings deadline=12h policy=skip tz=UTC")
    if whose == "chat":
        await chat.say("alice", "/settings quiet=22-08")
    else:
        await privately(table, "alice", "/me tz=UTC quiet=22-08")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    [pinned] = await edits(any_store)
    assert deadline(pinned) == "Deadline: Nov 15, 2023, 9:12\u202fAM (UTC)"
    clock.now = at(20)
    mark = len(await any_store.outbox())
    if whose == "chat":
        await chat.say("alice", "/settings quiet=off")
    else:
        await privately(table, "alice", "/me quiet=off")
    [edit] = await edits(any_store, mark)
    assert deadline(edit) == "Deadline: Nov 15, 2023, 7:30\u202fAM (UTC)"
    assert edit.silent and edit.body["status_of"] == pinned.body["status_of"]
    assert edit.body["status_lines"] == [] and not edit.body["status_reset"]  # lines stay
    # who acts and what is asked, as a move's edit says it (the start's post mentioned her)
    asked = str(pinned.body["text"]).replace("@alice", "alice").split("\n")[:-1]
    assert edit.body["text"].split("\n")[:-1] == asked
    assert edit.body.get("buttons") == pinned.body.get("buttons")
    assert "Deadline: in 11 hours 30 minutes." in await chat.text("bob", "/status")


async def test_a_setting_that_moves_no_deadline_edits_nothing(
    store: Store, clock: FakeClock
) -> None:
    """/settings pictures= or deadline= (which applies from the next turn) and a /me of a
    player not asked leave the status message as it is: no edit for nothing. A time bank
    set mid-turn is the turn's deadline at once: the pin says it."""
    clock.now = at(19, minute=30)
    table = quiet_table(store, clock)
    chat = Chat(table, chat_key=TG, platform="telegram")
    await chat.say("alice", "/new dicepile start=20")
    await chat.say("alice", "/settings deadline=12h policy=skip tz=UTC")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    mark = len(await store.outbox())
    await chat.say("alice", "/settings pictures=round")
    await chat.say("alice", "/settings deadline=6h")
    await privately(table, "bob", "/me tz=Europe/Warsaw quiet=20-08")
    assert await edits(store, mark) == []
    await chat.say("alice", "/settings clock=bank:2d")
    [edit] = await edits(store, mark)
    assert deadline(edit) == "Deadline: Nov 16, 2023, 7:30\u202fPM (UTC)"
