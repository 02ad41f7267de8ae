"""The note on a chat's refused pictures (a Discord channel without Attach Files, a Telegram
group that allows text only) is an outbox row written in the transaction that stores the
refusal: before, the sender loop stored the refusal and then sent the note, so a process that
died between the two kept the refusal and never told the chat why its pictures stopped."""

from __future__ import annotations

import asyncio

from bot.messages import Outbound
from bot.outbox import OutboxSender, PictureMemory, PicturesRefused, row_of
from tests.bot.conftest import AnyStore
from tests.bot.helpers import FakeClock

CHAT = "dc:42"
PNG = b"\x89PNG picture"
NOTE = "I may not attach files in this channel."


def note_row(lang: str = "pl") -> Outbound:
    return Outbound(CHAT, NOTE, silent=True, lang=lang)


async def test_the_first_refusal_queues_its_note_with_it_and_only_the_first(
    any_store: AnyStore, clock: FakeClock
) -> None:
    note = row_of(note_row(), "pl")
    assert await any_store.set_pictures_refused(CHAT, clock.now, note) is True
    (row,) = await any_store.outbox(status="pending")
    assert (row.chat_key, row.body["text"], row.lang, row.silent) == (CHAT, NOTE, "pl", True)
    clock.advance(60)  # refused again (another worker, or a day later): no second note
    assert await any_store.set_pictures_refused(CHAT, clock.now, note) is False
    assert len(await any_store.outbox(status="pending")) == 1
    assert await any_store.pictures_refused(CHAT) == clock.now
    await any_store.set_pictures_refused(CHAT, None)  # they went again
    assert await any_store.set_pictures_refused(CHAT, clock.now, note) is True
    assert len(await any_store.outbox(status="pending")) == 2


async def test_a_process_that_dies_after_the_refusal_still_notes_it_after_the_restart(
    any_store: AnyStore, clock: FakeClock
) -> None:
    """The first sender dies as soon as it would send the note; the next one sends it, once."""
    reached: list[tuple[str, bool]] = []

    def platform(dies_at_the_note: bool):  # type: ignore[no-untyped-def]
        async def deliver(out: Outbound) -> str | None:
            if out.png is not None:
                raise PicturesRefused("no Attach Files", note_row())
            if out.text == NOTE and dies_at_the_note:
                raise asyncio.CancelledError  # kill -9, as far as this loop can tell
            reached.append((out.text, out.png is not None))
            return str(len(reached))

        return deliver

    await any_store.outbox_add([row_of(Outbound(CHAT, "After the auction", png=PNG), "en")])
    first = OutboxSender(
        any_store, "discord", platform(True), clock=clock, pictures=PictureMemory(any_store)
    )
    try:
        while await first.run_due():
            pass
    except asyncio.CancelledError:
        pass
    assert await any_store.pictures_refused(CHAT) == clock.now
    restarted = OutboxSender(
        any_store, "discord", platform(False), clock=clock, pictures=PictureMemory(any_store)
    )
    while await restarted.run_due():
        pass
    assert reached.count((NOTE, False)) == 1, reached
    assert ("After the auction", False) in reached
    assert not await any_store.outbox(status="pending")
