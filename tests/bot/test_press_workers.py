"""A button's second tap in another worker (issue 23: several workers behind one webhook URL,
each update landing on any of them) or after a restart: the press is durable, noted with the
move it made (bot/moment.py `press_key`), so the second tap is out of date wherever it lands.
Found reviewing the double-tap fix of 2026-12-04, which only the tapped process knew: with
four workers three double taps in four would have reached a worker that did not. Both store
backends; two `Table`s on one store are two workers' tables."""

from __future__ import annotations

import json

from bot.store_protocol import Store
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock, payloads, present

OUT_OF_DATE = "This button is out of date; nothing was changed."


def worker(store: Store, clock: FakeClock) -> Table:
    return Table(store, games={"dicepile": ChatDicePile()}, clock=clock, seeder=lambda: 3)


async def started(chat: Chat) -> str:
    """A dice pile against a greedy bot, which answers at once: after ann's "/take 1" it is her
    turn again and the older button's move is legal (bot/buttons.py `holds_later`)."""
    await chat.say("ann", "/new dicepile")
    await chat.say("ann", "/addbot greedy")
    outs = await chat.say("ann", "/start")
    return next(p for p in payloads(outs) if p.endswith("/take 1"))


async def version(store: Store, chat: Chat) -> int:
    return present(await store.open_game(chat.chat_key)).version


async def test_a_double_tap_across_two_workers_is_taken_once(
    any_store: Store, clock: FakeClock
) -> None:
    first_worker = Chat(worker(any_store, clock))
    second_worker = Chat(worker(any_store, clock))
    take = await started(first_worker)
    first = await first_worker.press("ann", take)
    assert "ann takes 1." in "\n".join(o.text for o in first)
    after = present(await any_store.open_game(first_worker.chat_key))
    assert ChatDicePile().current_players(json.loads(present(after.state_json))) == ["ann"]
    again = await second_worker.press("ann", take)  # the second tap, in the other worker
    assert [o.toast for o in again] == [OUT_OF_DATE]
    assert await version(any_store, first_worker) == after.version
    # the prompt that stands now works in either worker
    fresh = next(p for p in payloads(first) if p.endswith("/take 1"))
    assert "ann takes 1." in "\n".join(o.text for o in await second_worker.press("ann", fresh))


async def test_an_older_button_taps_once_across_workers_and_restarts(
    any_store: Store, clock: FakeClock
) -> None:
    """An older button (pressed after the game moved on) claims its key: taken once, the
    second tap is refused by a restarted process too."""
    chat = Chat(worker(any_store, clock))
    take = await started(chat)
    await chat.say("ann", "/take 2")  # typed: the button's moment passes, its move stays legal
    moved = await version(any_store, chat)
    older = await chat.press("ann", take)
    assert "ann takes 1." in "\n".join(o.text for o in older)
    assert await version(any_store, chat) > moved
    taken = await version(any_store, chat)
    restarted = Chat(worker(any_store, clock))
    again = await restarted.press("ann", take)
    assert [o.toast for o in again] == [OUT_OF_DATE]
    assert await version(any_store, chat) == taken


async def test_a_button_pressed_again_when_its_moment_comes_back_counts(
    any_store: Store, clock: FakeClock
) -> None:
    """After /undo the board and its prompt come back with the same public mark: the button
    stands again and its press counts, though its key was noted (a now-press never claims)."""
    chat = Chat(worker(any_store, clock))
    take = await started(chat)
    before = await version(any_store, chat)
    await chat.press("ann", take)
    await chat.say("ann", "/undo")
    row = present(await any_store.open_game(chat.chat_key))
    assert row.version > before
    pressed = await Chat(worker(any_store, clock)).press("ann", take)
    assert "ann takes 1." in "\n".join(o.text for o in pressed), [o.text for o in pressed]
