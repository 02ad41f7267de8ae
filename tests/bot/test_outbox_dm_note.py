"""The group's note for a player whose DMs are refused comes once until something changes
(bot/outbox.py `dm_reopened`): found play-testing, each /status in the group of a player who
never opened a private chat with the bot brought another failed DM and another note. On
Telegram a command in a group opens no private chat: his DMs are not tried again. On Discord
the refusal is a setting he may lift at any time: they are tried again, and refused again
silently. A private message from him, or a DM that reaches him, makes a refusal news again."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from bot.messages import Outbound
from bot.outbox import DM_CLOSED, DmClosed, DmMemory, OutboxSender, row_of
from bot.store import Store
from tests.bot.conftest import AnyStore
from tests.bot.helpers import FakeClock

BOB = {"telegram": "tg:8", "discord": "dc:8"}
GROUP = {"telegram": "tg:-1005", "discord": "dc:1"}


class Platform:
    """Refuses the DMs of the users in `closed`, with a note for the group."""

    def __init__(self) -> None:
        self.closed: set[str] = set()
        self.tried: list[str] = []  # private messages tried (their readers)
        self.notes: list[str] = []  # the group's notes posted

    async def __call__(self, out: Outbound) -> str:
        if out.private_to is None:
            self.notes.append(out.text)
            return "n"
        self.tried.append(out.private_to)
        if out.private_to in self.closed:
            note = Outbound(out.chat_key, "@Bob, I cannot message you privately.")
            raise DmClosed("Forbidden", fallback=note)
        return "m"


def sender(store: Store, platform: Platform, name: str, clock: FakeClock) -> OutboxSender:
    return OutboxSender(store, name, platform, clock=clock, dm_memory=DmMemory(store))


async def secret(store: Store, loop: OutboxSender, name: str) -> None:
    out = Outbound(GROUP[name], "Your hand", private_to=BOB[name])
    await store.outbox_add([row_of(out, "en")])
    while await loop.run_due():  # the note is a row of its own, queued with the refusal
        pass


@pytest.mark.parametrize("name", ["telegram", "discord"])
async def test_the_note_comes_once_until_he_writes_privately(
    store: Store, clock: FakeClock, name: str
) -> None:
    platform = Platform()
    platform.closed.add(BOB[name])
    loop = sender(store, platform, name, clock)
    await secret(store, loop, name)
    assert len(platform.tried) == 1 and len(platform.notes) == 1
    retried = 1 if name == "discord" else 0  # Discord's refusal is a setting he may lift
    for _ in range(2):  # his /status in the group, and the next private message
        loop.dm_reopened(BOB[name], private=False)
        await secret(store, loop, name)
    assert len(platform.tried) == 1 + 2 * retried and len(platform.notes) == 1

    # a restart: the stored refusal stands for the note already posted
    again = sender(store, platform, name, clock)
    again.dm_reopened(BOB[name], private=False, refused_before=True)
    await secret(store, again, name)
    assert len(platform.tried) == 1 + 3 * retried and len(platform.notes) == 1

    # he writes to the bot privately (say, to press Start) and closes his DMs once more: news
    again.dm_reopened(BOB[name], private=True)
    await secret(store, again, name)
    assert len(platform.notes) == 2
    # open for real this time: reached, the stored refusal goes
    platform.closed.clear()
    again.dm_reopened(BOB[name], private=True)
    await secret(store, again, name)
    assert platform.tried[-1] == BOB[name] and len(platform.notes) == 2
    assert DM_CLOSED not in (await store.user_prefs([BOB[name]])).get(BOB[name], {})


async def test_a_sender_killed_at_the_note_leaves_it_queued_for_the_restart(
    any_store: AnyStore, clock: FakeClock
) -> None:
    """The refusal and the group's note are written in one transaction: before, the loop
    stored the refusal and then posted the note, and a process that died between them kept
    the refusal (which counts as told after a restart) and lost the note. Both stores."""
    platform = Platform()
    platform.closed.add(BOB["telegram"])

    async def dies_at_the_note(out: Outbound) -> str:
        if out.private_to is None:
            raise asyncio.CancelledError  # kill -9, as far as this loop can tell
        return await platform(out)

    await any_store.outbox_add(
        [row_of(Outbound(GROUP["telegram"], "Your hand", private_to=BOB["telegram"]), "en")]
    )
    first = OutboxSender(
        any_store, "telegram", dies_at_the_note, clock=clock, dm_memory=DmMemory(any_store)
    )
    with contextlib.suppress(asyncio.CancelledError):
        while await first.run_due():
            pass
    assert platform.tried == [BOB["telegram"]] and platform.notes == []
    prefs = (await any_store.user_prefs([BOB["telegram"]])).get(BOB["telegram"], {})
    assert prefs.get(DM_CLOSED) is True
    restarted = OutboxSender(
        any_store, "telegram", platform, clock=clock, dm_memory=DmMemory(any_store)
    )
    while await restarted.run_due():
        pass
    assert platform.notes == ["@Bob, I cannot message you privately."]
    assert not await any_store.outbox(status="pending")
