"""The sender loop and the live status message (issue 17): an "edit" row edits the game's one
status message in place, posts (and pins) it when there is none or it is gone, and keeps the new
id; of several waiting edits only the last goes; a prompt replies to the status message."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.messages import Outbound
from bot.outbox import MessageGone, OutboxSender, row_of
from bot.store import Store
from tests.bot.helpers import FakeClock, present
from tests.bot.test_store import active

CHAT = "tg:-5"


class Platform:
    """A platform's deliver: numbered messages, edits of known ones, deletions."""

    def __init__(self) -> None:
        self.messages: dict[str, str] = {}
        self.calls: list[tuple[str, Outbound]] = []
        self.pinned: list[str] = []
        self._next = 100

    async def deliver(self, out: Outbound) -> str:
        if out.edit_of is not None:
            self.calls.append(("edit", out))
            if out.edit_of not in self.messages:
                raise MessageGone("message to edit not found")
            self.messages[out.edit_of] = out.text
            return out.edit_of
        self.calls.append(("post", out))
        self._next += 1
        mid = str(self._next)
        self.messages[mid] = out.text
        if out.pin:
            self.pinned.append(mid)
        return mid


def status(pk: int, text: str) -> Outbound:
    return Outbound(CHAT, text, silent=True, status_of=pk)


@pytest.fixture
def platform() -> Platform:
    return Platform()


async def run(store: Store, platform: Platform, clock: FakeClock, *outs: Outbound) -> None:
    await store.outbox_add([row_of(o, "en", game_id=o.status_of or o.reply_status) for o in outs])
    await OutboxSender(store, "telegram", platform.deliver, clock=clock).run_due()


async def test_the_status_message_is_posted_pinned_then_edited_in_place(
    store: Store, platform: Platform, clock: FakeClock
) -> None:
    pk = await active(store)
    await run(store, platform, clock, status(pk, "Ann is asked"))
    [(kind, first)] = platform.calls
    assert kind == "post" and first.pin and first.silent
    known = await store.status_message(pk)
    assert known is not None and platform.pinned == [known.message_id]
    mid = known.message_id
    ask = Outbound(CHAT, "@Bob: your bid", mentions=[("tg:2", "Bob")], reply_status=pk)
    await run(store, platform, clock, status(pk, "Bob is asked"), ask)
    assert [k for k, _ in platform.calls] == ["post", "edit", "post"]
    assert platform.calls[1][1].edit_of == mid and platform.messages[mid] == "Bob is asked"
    assert platform.calls[2][1].reply_to == mid and not platform.calls[2][1].pin
    assert all(r.status == "sent" for r in await store.outbox())
    assert [r.kind for r in await store.outbox()] == ["edit", "edit", "post"]


async def test_a_deleted_status_message_is_posted_again_and_remembered(
    store: Store, platform: Platform, clock: FakeClock
) -> None:
    pk = await active(store)
    await run(store, platform, clock, status(pk, "one"))
    known = await store.status_message(pk)
    assert known is not None
    old = known.message_id
    del platform.messages[old]  # somebody deleted it
    await run(store, platform, clock, status(pk, "two"))
    again = await store.status_message(pk)
    assert again is not None and again.message_id != old
    new = again.message_id
    assert platform.messages[new] == "two"
    assert platform.pinned == [old, new]
    assert [k for k, _ in platform.calls] == ["post", "edit", "post"]


async def test_of_several_waiting_edits_only_the_last_is_sent(
    store: Store, platform: Platform, clock: FakeClock
) -> None:
    pk = await active(store)
    await run(store, platform, clock, status(pk, "a"))
    await run(store, platform, clock, status(pk, "b"), status(pk, "c"), status(pk, "d"))
    assert [(k, o.text) for k, o in platform.calls] == [("post", "a"), ("edit", "d")]
    assert all(r.status == "sent" for r in await store.outbox())


async def test_a_prompt_before_any_status_message_is_posted_plainly(
    store: Store, platform: Platform, clock: FakeClock
) -> None:
    pk = await active(store)
    await run(store, platform, clock, replace(Outbound(CHAT, "@Ann: go"), reply_status=pk))
    [(kind, out)] = platform.calls
    assert kind == "post" and out.reply_to is None


async def test_the_status_message_gathers_the_phase_s_lines_until_a_new_phase(
    store: Store, platform: Platform, clock: FakeClock
) -> None:
    pk = await active(store)

    def edit(lines: list[str], asked: str, reset: bool = False) -> Outbound:
        return replace(status(pk, asked), status_lines=lines, status_reset=reset)

    await run(store, platform, clock, edit(["Ann bids 13."], "Bob is asked"))
    await run(store, platform, clock, edit(["Bob bids 14."], "Cyd is asked"))
    mid = present(await store.status_message(pk)).message_id
    assert platform.messages[mid] == "Ann bids 13.\nBob bids 14.\n\nCyd is asked"
    # two edits waiting at once: one is sent, with both rows' lines
    await run(
        store,
        platform,
        clock,
        edit(["Cyd passes."], "Dan is asked"),
        edit(["Dan passes."], "Ann is asked"),
    )
    assert platform.messages[mid].splitlines()[-4:] == [
        "Cyd passes.",
        "Dan passes.",
        "",
        "Ann is asked",
    ]
    # a new phase: the old lines go
    await run(store, platform, clock, edit(["The auction ends."], "Ann buys", reset=True))
    assert platform.messages[mid] == "The auction ends.\n\nAnn buys"
    assert present(await store.status_message(pk)).lines == ["The auction ends."]


async def test_a_reveal_of_many_lines_is_shown_whole(
    store: Store, platform: Platform, clock: FakeClock
) -> None:
    """PG-14 phase 5, three players: the bureaucracy's reveal is one row of a dozen lines;
    the status message kept the last 8, so the first players' incomes were never in the
    group (found play-testing through Telegram, 2026-12-05). Older rows still give way."""
    pk = await active(store)
    await run(store, platform, clock, replace(status(pk, "a"), status_lines=["Old line."]))
    reveal = [f"Line {i} of the reveal." for i in range(1, 13)]
    await run(store, platform, clock, replace(status(pk, "Ann is asked"), status_lines=reveal))
    mid = present(await store.status_message(pk)).message_id
    assert platform.messages[mid] == "\n".join(reveal) + "\n\nAnn is asked"
