"""Issue 23: the SQLite store's move path runs on the loop's thread (bot/store_base.py): the
same answers as through aiosqlite's threads, a commit that waits for another process's write
lock in the writer's thread (the loop stays free), and the WAL checkpointed off the move."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3

import pytest

from bot import store_base
from bot.store import Due, Outcome, Store
from tests.bot.helpers import FakeClock, present
from tests.bot.test_store import active, entry, lobby


@pytest.mark.parametrize("inline", [True, False])
async def test_inline_and_threaded_stores_read_and_commit_alike(
    db_path: str, clock: FakeClock, inline: bool
) -> None:
    store = await Store.open(db_path, clock=clock, inline=inline)
    try:
        pk = await active(store)
        await store.set_user("tg:11", lang="ru")
        due = Due(["Ann"], clock.now, clock.now + 60)
        moved = await store.commit_moves(
            pk, 1, [entry(1)], '{"x":1}', over=False, due=due, inbound=("telegram", "1")
        )
        assert (moved.outcome, moved.version) == (Outcome.OK, 2)
        again = await store.commit_moves(
            pk, 2, [entry(2)], '{"x":2}', over=False, due=due, inbound=("telegram", "1")
        )
        assert again.outcome is Outcome.DUPLICATE  # rolled back: nothing of it stays
        stale = await store.commit_moves(pk, 1, [entry(2)], '{"x":2}', over=False, due=due)
        assert stale.outcome is Outcome.STALE
        got = await store.load_message("tg:1", "tg:11", ("telegram", "1"))
        assert got.seen and got.game is not None
        assert (got.game.version, got.game.state_json) == (2, '{"x":1}')
        assert got.users["tg:11"].lang == "ru"
        assert [a.action for a in await store.actions(pk)] == [{"n": 1}]
        assert (await store.reminder(pk)) is not None
    finally:
        await store.close()


async def test_a_commit_waits_for_another_process_s_write_off_the_loop(
    store: Store, db_path: str
) -> None:
    pk = await active(store)
    other = sqlite3.connect(db_path, isolation_level=None)  # another process, say
    other.execute("BEGIN IMMEDIATE")
    try:
        commit = asyncio.create_task(
            store.commit_moves(pk, 1, [entry(1)], '{"x":1}', over=False, due=None)
        )
        for _ in range(20):  # the loop keeps turning while the commit waits (in a thread)
            await asyncio.sleep(0.005)
        assert not commit.done()
    finally:
        other.execute("COMMIT")
        other.close()
    result = await asyncio.wait_for(commit, 30)
    assert (result.outcome, result.version) == (Outcome.OK, 2)
    # the next commit is inline again
    assert (await store.commit_moves(pk, 2, [], '{"x":2}', over=False, due=None)).version == 3


@pytest.mark.parametrize("crowded", [False, True])
async def test_the_wal_is_checkpointed_in_a_thread_every_few_commits(
    store: Store, monkeypatch: pytest.MonkeyPatch, crowded: bool
) -> None:
    """Commits handed off on a crowded loop count too: the WAL would grow without end."""
    monkeypatch.setattr(store_base, "CHECKPOINT_EVERY", 3)
    ran: list[str] = []
    original = store._checkpoint_wal

    async def counted() -> None:
        ran.append("checkpoint")
        await original()

    monkeypatch.setattr(store, "_checkpoint_wal", counted)
    if crowded:  # others ready on the loop: every commit goes to the writer's thread
        monkeypatch.setattr(store, "_go_inline", lambda: False)
    rows = await store._w.execute_fetchall("PRAGMA wal_autocheckpoint")
    assert next(iter(rows))[0] == 0  # no commit on the loop copies the WAL itself
    pk = await active(store)
    if store._checkpoint is not None:
        await store._checkpoint
    store._commits, store._checkpoint = 0, None
    ran.clear()
    for version in range(1, 7):
        await store.commit_moves(pk, version, [entry(version)], "{}", over=False, due=None)
    assert store._checkpoint is not None
    await store._checkpoint
    assert ran  # every third commit asks for one, while none is running
    assert len(ran) <= (store._commits // 3)


async def test_inline_calls_let_other_tasks_run_between_them(store: Store) -> None:
    """A task sending many moves never waits on a thread any more; each store call still
    lets the loop turn, so the other chats (and the worker pool's results) are not starved."""
    pk = await active(store)
    turns = 0

    async def other_chat() -> None:
        nonlocal turns
        while True:
            turns += 1
            await asyncio.sleep(0)

    other = asyncio.create_task(other_chat())
    await asyncio.sleep(0)
    before = turns
    for version in range(1, 11):
        await store.load_message("tg:1", "tg:10")
        await store.commit_moves(pk, version, [entry(version)], "{}", over=False, due=None)
    other.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await other
    assert turns - before >= 20  # at least once per call


async def test_a_crowded_loop_hands_store_calls_off_so_timers_keep_their_turn(
    store: Store,
) -> None:
    """Inline only while nothing else is ready on the loop: under a flood every inline task
    is always ready and a timer would wait for a slice of each (bench/loop_lag.py: 100 ms
    with 50 at once); then the call hands off and the database thread paces the tasks."""
    pk = await active(store)
    handed: list[str] = []
    reader, writer = store._r, store._w
    for conn, name in ((reader, "read"), (writer, "write")):
        run = conn._execute

        async def counted(*args: object, _run=run, _name=name) -> object:  # type: ignore[no-untyped-def]
            handed.append(_name)
            return await _run(*args)

        conn._execute = counted  # type: ignore[method-assign]
    await store.load_message("tg:1", "tg:11")
    await store.commit_moves(pk, 1, [entry(1)], '{"x":1}', over=False, due=None)
    assert handed == []  # an idle loop: both on the loop's thread
    crowd = [asyncio.get_running_loop().call_soon(lambda: None) for _ in range(3)]
    await store.load_message("tg:1", "tg:11")
    assert handed == ["read"]
    for handle in crowd:
        handle.cancel()
    crowd = [asyncio.get_running_loop().call_soon(lambda: None) for _ in range(3)]
    await store.commit_moves(pk, 2, [entry(2)], '{"x":2}', over=False, due=None)
    assert handed == ["read", "write"]
    got = await store.load_message("tg:1", "tg:11")
    assert got.game is not None and got.game.version == 3


@pytest.mark.parametrize("call", ["commit_moves", "set_user", "crowded_commit"])
async def test_a_write_waits_for_another_process_s_lock_in_the_thread_then_stays_impatient(
    store: Store, db_path: str, monkeypatch: pytest.MonkeyPatch, call: str
) -> None:
    """The writer's busy timeout is 0 (the inline BEGIN is one statement, never a wait on the
    loop); `begin` sets it only around a wait, in the writer's thread, for every kind of
    write: an inline commit that found the lock taken, an aiosqlite transaction (`_tx`), a
    commit handed off on a crowded loop."""
    pk = await active(store)
    if call == "crowded_commit":
        monkeypatch.setattr(store, "_go_inline", lambda: False)
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        task: asyncio.Task[object]
        if call == "set_user":
            task = asyncio.create_task(store.set_user("tg:11", lang="pl"))
        else:
            task = asyncio.create_task(
                store.commit_moves(pk, 1, [entry(1)], '{"x":1}', over=False, due=None)
            )
        for _ in range(20):
            await asyncio.sleep(0.005)
        assert not task.done()
    finally:
        other.execute("COMMIT")
        other.close()
    await asyncio.wait_for(task, 30)
    assert store._w._conn.execute("PRAGMA busy_timeout").fetchone()[0] == 0
    if call == "set_user":
        assert (await store.user("tg:11")).lang == "pl"
    else:
        assert present(await store.game(pk)).version == 2


async def test_planning_a_turn_hands_nothing_to_a_thread(store: Store, clock: FakeClock) -> None:
    """The scheduler plans every new turn (bot/reminders.py `process_turn`): its reads and
    its claim run on the loop's thread too, as a move's do; through aiosqlite's threads they
    cost a move about half as much again (bench/table_latency.py --scheduler, issue 23)."""
    pk = await lobby(store)
    await store.add_seat(pk, "tg:11", "ann", max_players=4)
    due = Due(["Ann"], clock.now, clock.now + 3600.0)
    assert (await store.start_game(pk, 5, ["Ann", "ann 2"], "{}", due)).outcome is Outcome.OK
    handed: list[str] = []
    for conn, name in ((store._r, "read"), (store._w, "write")):
        run = conn._execute

        async def counted(*args: object, _run=run, _name=name) -> object:  # type: ignore[no-untyped-def]
            handed.append(_name)
            return await _run(*args)

        conn._execute = counted  # type: ignore[method-assign]
    assert await store.next_wake() == clock.now  # a new turn is planned at once
    [plan] = await store.due_turns(clock.now)
    assert await store.away_until(["tg:10", "tg:11"], clock.now) == {}
    assert await store.user_prefs(["tg:10"]) == {"tg:10": {}}
    assert await store.started_at(pk) is not None
    assert await store.claim_turn(plan, None, clock.now + 1800.0)
    assert not await store.claim_turn(plan, None, clock.now + 1800.0)  # claimed once
    assert await store.next_wake() == clock.now + 1800.0
    assert handed == []
