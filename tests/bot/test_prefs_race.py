"""A person's preferences (users.prefs: /me's time zone and quiet hours, the stored refusal of
his DMs, his per-game count of missed deadlines) are one JSON object written by several
hands: the /me command, the sender loop (bot/outbox.py `DmMemory`) and the expiry of a turn
(bot/no_show.py). Each change is made in the store on the keys it concerns: before, each
writer read the whole object, changed its key and wrote the whole object back, and a change
made by another task or worker in between (at the await between the read and the write) was
lost. Both stores; on each, two workers (two stores on one database) as well as two tasks."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from bot.messages import Outbound
from bot.no_show import set_timeouts, timeouts_in
from bot.outbox import DM_CLOSED, DmMemory, row_of
from bot.storage import open_store
from bot.store_protocol import Store
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock

ANN = "local:ann"
NOTE = Outbound("local:test", "@ann, I cannot message you privately.")


@pytest.fixture
async def other_worker(db_url: str, clock: FakeClock) -> AsyncIterator[Store]:
    """A second store on the same database: another worker process, as far as it matters."""
    s = await open_store(db_url, clock=clock)
    yield s
    await s.close()


async def prefs(store: Store) -> dict[str, object]:
    return (await store.user_prefs([ANN]))[ANN]


async def interleaved(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    first: Callable[[], Awaitable[object]],
    other: Callable[[], Awaitable[object]],
) -> None:
    """`first`, with `other` run whole within its first read of prefs through `store`: the
    await a writer that read the whole object spent before writing it back. Deterministic,
    not left to how the loop happens to schedule two tasks. A change made in the store reads
    nothing before its transaction: `other` runs after it then."""
    read = store.user_prefs
    ran = False

    async def reading(user_keys: list[str]) -> dict[str, dict[str, object]]:
        nonlocal ran
        found = await read(user_keys)
        if not ran:
            ran = True
            await other()
        return found

    monkeypatch.setattr(store, "user_prefs", reading)
    await first()
    monkeypatch.setattr(store, "user_prefs", read)
    if not ran:
        await other()


async def test_timeouts_in_two_games_at_once_are_both_counted(any_store: Store) -> None:
    await asyncio.gather(set_timeouts(any_store, ANN, 1, 1), set_timeouts(any_store, ANN, 2, 3))
    got = await prefs(any_store)
    assert (timeouts_in(got, 1), timeouts_in(got, 2)) == (1, 3)


async def test_two_workers_counting_timeouts_of_many_games_lose_none(
    any_store: Store, other_worker: Store
) -> None:
    workers = (any_store, other_worker)
    await asyncio.gather(*(set_timeouts(workers[g % 2], ANN, g, g) for g in range(1, 13)))
    got = await prefs(any_store)
    assert [timeouts_in(got, g) for g in range(1, 13)] == list(range(1, 13))


async def test_a_refusal_stored_while_a_timeout_is_counted_survives_with_its_note(
    any_store: Store, other_worker: Store
) -> None:
    memory = DmMemory(other_worker)
    await asyncio.gather(
        set_timeouts(any_store, ANN, 7, 2), memory.remember(ANN, True, row_of(NOTE, "en"))
    )
    got = await prefs(any_store)
    assert got.get(DM_CLOSED) is True and timeouts_in(got, 7) == 2
    assert [r.body["text"] for r in await any_store.outbox()] == [NOTE.text]


async def test_a_timeout_counted_in_the_await_of_another_game_s_count_is_kept(
    any_store: Store, other_worker: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    await interleaved(
        any_store,
        monkeypatch,
        lambda: set_timeouts(any_store, ANN, 1, 1),
        lambda: set_timeouts(other_worker, ANN, 2, 1),
    )
    got = await prefs(other_worker)
    assert (timeouts_in(got, 1), timeouts_in(got, 2)) == (1, 1)


async def test_his_time_zone_set_while_the_sender_loop_stores_his_refusal_keeps_both(
    any_store: Store, other_worker: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/me tz= in one worker while another worker's sender loop stores the refusal of his
    DMs (with the group's note): neither change is lost, nor the note."""
    table = Table(any_store, games={"dicepile": ChatDicePile()}, clock=clock, seeder=lambda: 7)
    memory = DmMemory(other_worker)
    chat = Chat(table)
    answers: list[str] = []

    async def me(line: str) -> None:
        answers.append(await chat.text("Ann", line))

    await interleaved(
        any_store,
        monkeypatch,
        lambda: me("/me tz=Europe/Warsaw quiet=23-08"),
        lambda: memory.remember(ANN, True, row_of(NOTE, "en")),
    )
    assert "Europe/Warsaw" in answers[0]
    got = await prefs(other_worker)
    assert got == {DM_CLOSED: True, "tz": "Europe/Warsaw", "quiet": [23, 8]}
    assert [r.body["text"] for r in await other_worker.outbox()] == [NOTE.text]

    # and the other way round: his DMs open again while he turns his quiet hours off
    await interleaved(
        any_store, monkeypatch, lambda: me("/me quiet=off"), lambda: memory.remember(ANN, False)
    )
    assert await prefs(other_worker) == {"tz": "Europe/Warsaw", "quiet": None}


async def test_a_change_of_prefs_keeps_the_other_keys_and_queues_its_rows_with_it(
    any_store: Store,
) -> None:
    """The store's own change (`update_user_prefs`): what is stored goes in, the result is
    stored and returned, the rows are written in the same transaction (none when the change
    fails)."""
    assert await any_store.update_user_prefs(ANN, lambda p: {**p, "tz": "UTC"}) == {"tz": "UTC"}
    note = row_of(NOTE, "en")
    got = await any_store.update_user_prefs(ANN, lambda p: {**p, DM_CLOSED: True}, [note])
    assert got == {"tz": "UTC", DM_CLOSED: True} == await prefs(any_store)
    assert [r.body["text"] for r in await any_store.outbox()] == [NOTE.text]
    assert await any_store.update_user_prefs("local:cyd", dict) == {}

    def broken(p: dict[str, object]) -> dict[str, object]:
        raise ValueError("no")

    with pytest.raises(ValueError):
        await any_store.update_user_prefs(ANN, broken, [note])
    assert len(await any_store.outbox()) == 1


async def test_forty_changes_of_different_keys_from_two_workers_at_once_all_stay(
    any_store: Store, other_worker: Store
) -> None:
    workers = (any_store, other_worker)

    def setting(i: int) -> Callable[[dict[str, object]], dict[str, object]]:
        return lambda p: {**p, f"k{i}": i}

    await asyncio.gather(*(workers[i % 2].update_user_prefs(ANN, setting(i)) for i in range(40)))
    assert await prefs(any_store) == {f"k{i}": i for i in range(40)}
