"""The store's test suite (tests/bot/test_store.py) on both backends, SQLite and PostgreSQL.

Every test there that only uses the `store` fixture is re-run here with `store` opened by
bot/storage.py's `open_store` on each backend; the PostgreSQL half runs on a throwaway
server (tests/pg.py) and is skipped only when no server binary exists. The tests that open
SQLite files themselves have PostgreSQL counterparts below.
"""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import asyncpg
import pytest

from bot.storage import parse_db
from bot.store import INBOUND_KEEP_SECONDS, Due, Outcome
from bot.store_pg import MIGRATIONS as PG_MIGRATIONS
from bot.store_pg import PgStore
from bot.store_protocol import Store as AnyStore
from tests.bot import test_store as suite
from tests.bot.helpers import FakeClock

for _name, _test in list(vars(suite).items()):
    if _name.startswith("test_") and "db_path" not in inspect.signature(_test).parameters:
        globals()[_name] = _test


@pytest.fixture
def store(any_store: AnyStore) -> AnyStore:
    return any_store  # the suite's tests on each backend (tests/bot/conftest.py)


def test_db_urls_choose_the_backend() -> None:
    assert parse_db("./boardchat.sqlite3") == ("sqlite", "./boardchat.sqlite3")
    assert parse_db("sqlite:///data/b.sqlite3") == ("sqlite", "data/b.sqlite3")
    assert parse_db("sqlite:////data/b.sqlite3") == ("sqlite", "/data/b.sqlite3")
    url = "postgresql://bot:pw@db:5432/boardchat"
    assert parse_db(url) == ("postgresql", url)
    for bad in ("mysql://x/y", "sqlite://relative"):
        with pytest.raises(ValueError):
            parse_db(bad)


async def test_pg_migrations_run_once_when_workers_start_together(
    pg_url: str,
    clock: FakeClock,
) -> None:
    stores = await asyncio.gather(*(PgStore.open(pg_url, clock=clock) for _ in range(4)))
    for s in stores:
        assert await s.schema_version() == len(PG_MIGRATIONS)
    count = await stores[0]._pool.fetchval("SELECT count(*) FROM schema_version")
    assert count == len(PG_MIGRATIONS)
    for s in stores:
        await s.close()


async def test_pg_inbound_ids_are_pruned_after_days(pg_url: str, clock: FakeClock) -> None:
    store = await PgStore.open(pg_url, clock=clock)
    assert await store.record_inbound("telegram", "1")
    assert not await store.record_inbound("telegram", "1")
    await store.close()
    clock.advance(INBOUND_KEEP_SECONDS + 1)
    store = await PgStore.open(pg_url, clock=clock)
    assert not await store.seen("telegram", "1")
    await store.close()


async def test_pg_wake_reaches_another_worker(pg_url: str, clock: FakeClock) -> None:
    one = await PgStore.open(pg_url, clock=clock)
    two = await PgStore.open(pg_url, clock=clock)
    woken = asyncio.Event()
    calls: list[int] = []

    def wake() -> None:
        calls.append(1)
        woken.set()

    await two.listen_wake(wake)
    pk = await suite.active(one)
    await asyncio.wait_for(woken.wait(), 10)  # the start changed a due time: a wake-up
    calls.clear()
    woken.clear()
    due = Due(["Ann"], clock.now, clock.now + 100)
    assert (await one.commit_moves(pk, 1, [suite.entry(1)], "{}", over=False, due=due)).outcome is (
        Outcome.OK
    )
    # A move's new turn is planned by the worker that moved (bot/scheduler.py): no NOTIFY
    # reaches the others (issue 23). A change of settings that replans the turn does, and
    # notifications arrive in the order of the commits: the replan's is the first.
    await one.replan_now([pk], clock.now)
    await asyncio.wait_for(woken.wait(), 10)
    assert calls == [1]
    await one.close()
    await two.close()


async def test_pg_leased_turns_go_to_one_worker(pg_url: str, clock: FakeClock) -> None:
    one = await PgStore.open(pg_url, clock=clock)
    two = await PgStore.open(pg_url, clock=clock)
    pk = await suite.active(one)
    await one.commit_moves(
        pk, 1, [suite.entry(1)], "{}", over=False, due=Due(["Ann"], clock.now, clock.now + 9)
    )
    leased = await one.lease_due_turns(clock.now, lease=30)
    assert [p.game_id for p in leased] == [pk]
    assert await two.lease_due_turns(clock.now) == []  # leased to the first worker
    assert await two.lease_due_turns(clock.now + 31) != []  # the first one died: lease over
    assert await one.claim_turn(leased[0], None, clock.now + 100)  # ends the lease
    assert await two.lease_due_turns(clock.now + 31) == []  # planned: next look at +100
    assert [p.game_id for p in await two.lease_due_turns(clock.now + 100)] == [pk]
    await one.close()
    await two.close()


async def test_pg_game_lock_lets_go_without_the_pool_s_reset_query(
    pg_url: str,
    clock: FakeClock,
) -> None:
    """Issue 23: pooled connections skip asyncpg's reset query (a round trip per release), so
    `game_lock` must release its advisory lock itself, also when its holder is cancelled."""
    one = await PgStore.open(pg_url, clock=clock)
    two = await PgStore.open(pg_url, clock=clock)
    try:
        async with one.game_lock(7):
            await one.game(7)  # the first read inside takes the advisory lock
        async with asyncio.timeout(10), two.game_lock(7):  # another worker takes it at once
            await two.game(7)
        entered = asyncio.Event()

        async def hold() -> None:
            async with one.game_lock(8):
                await one.game(8)
                entered.set()
                await asyncio.sleep(3600)

        task = asyncio.create_task(hold())
        await entered.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        async with asyncio.timeout(10), two.game_lock(8):
            await two.game(8)
        # the session setting of `_init_connection` survives releases (no RESET ALL)
        for _ in range(3):
            assert await one._fetchval("SHOW lock_timeout") == "30s"
    finally:
        await one.close()
        await two.close()


def count_statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The statements asyncpg sends from now on (each one a round trip)."""
    sent: list[str] = []
    for name in ("execute", "fetch", "fetchrow", "fetchval"):
        real = getattr(asyncpg.Connection, name)

        def counted(con: Any, query: str, *args: Any, _real: Any = real, **kw: Any) -> Any:
            sent.append(query)
            return _real(con, query, *args, **kw)

        monkeypatch.setattr(asyncpg.Connection, name, counted)
    return sent


async def test_pg_a_move_read_with_the_message_commits_in_one_round_trip_under_the_lock(
    pg_url: str,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 23: `game_lock` costs no round trip of its own when the move commits at once
    (the commit takes the lock in its statement); a read inside takes it (and the end lets
    it go), and a commit from another worker waits while it is held."""
    one = await PgStore.open(pg_url, clock=clock)
    two = await PgStore.open(pg_url, clock=clock)
    try:
        pk = await suite.active(one)
        sent = count_statements(monkeypatch)
        async with one.game_lock(pk):
            done = await one.commit_moves(pk, 1, [suite.entry(1)], "{}", over=False, due=None)
        assert done.outcome is Outcome.OK
        assert len(sent) == 1 and "pg_advisory_xact_lock" in sent[0]
        sent.clear()
        entered, release = asyncio.Event(), asyncio.Event()

        async def hold() -> None:
            async with one.game_lock(pk):
                row = await one.game(pk)  # takes the lock: a read, apply, commit follows
                assert row is not None and row.version == 2
                entered.set()
                await release.wait()
                moved = await one.commit_moves(pk, 2, [suite.entry(2)], "{}", over=False, due=None)
                assert moved.outcome is Outcome.OK

        holder = asyncio.create_task(hold())
        await entered.wait()
        other = asyncio.create_task(
            two.commit_moves(pk, 2, [suite.entry(3)], "{}", over=False, due=None)
        )
        for _ in range(20):  # the other worker's commit waits for the held game
            await asyncio.sleep(0.01)
        assert not other.done()
        release.set()
        await asyncio.wait_for(holder, 10)
        assert (await asyncio.wait_for(other, 10)).outcome is Outcome.STALE  # it then lost
        assert any("pg_advisory_lock" in q for q in sent)
        assert any("pg_advisory_unlock" in q for q in sent)
        assert [a.action for a in await two.actions(pk)] == [{"n": 1}, {"n": 2}]
    finally:
        await one.close()
        await two.close()


async def test_pg_connections_kept_between_calls_never_starve_a_waiting_call(
    pg_url: str,
    clock: FakeClock,
) -> None:
    """Issue 23: the store keeps a few connections out of the pool between calls (the pool's
    acquire and release cost more than a query); a call waiting for the pool still gets
    one, however many calls and held games there are at once."""
    store = await PgStore.open(pg_url, clock=clock, min_size=1, max_size=2)
    try:
        await store.chat("tg:1")
        kept = list(store._idle)
        assert len(kept) == 1
        for _ in range(4):
            await store.chat("tg:1")
        assert store._idle == kept  # the first call's connection served the four after it

        async def held(pk: int) -> None:
            async with store.game_lock(pk):
                await store.game(pk)
                await asyncio.sleep(0.01)
                await store.chat("tg:1")

        calls = [held(n % 3) for n in range(12)] + [store.user("u") for _ in range(12)]
        await asyncio.wait_for(asyncio.gather(*calls), 60)
    finally:
        await store.close()
    assert store._idle == []  # given back before the pool closed


async def test_a_stale_commit_leaves_its_update_unclaimed(store: AnyStore) -> None:
    """The version check fails after the inbound claim: the claim goes back with the rest
    (PostgreSQL: `boardchat_stale` aborts the commit's one statement), so the update is not
    taken for a duplicate when it comes again on the fresh version."""
    pk = await suite.active(store)
    stale = await store.commit_moves(
        pk, 0, [suite.entry(1)], "{}", over=False, due=None, inbound=("tg", "9")
    )
    assert stale.outcome is Outcome.STALE and not await store.seen("tg", "9")
    done = await store.commit_moves(
        pk, 1, [suite.entry(1)], '{"x":1}', over=True, due=None, inbound=("tg", "9")
    )
    assert (done.outcome, done.version) == (Outcome.OK, 2) and await store.seen("tg", "9")
    game = await store.game(pk)
    assert game is not None and (game.status, game.state_json) == ("over", '{"x":1}')
    assert await store.open_game("tg:1") is None  # the game is over


async def test_pg_a_state_is_stored_with_lz4(pg_url: str, clock: FakeClock) -> None:
    """Migration 8: each move rewrites the state; past ~2 KB it is compressed, with lz4 (the
    server used here is built with it)."""
    store = await PgStore.open(pg_url, clock=clock)
    pk = await suite.active(store)
    state = '{"log":[' + ",".join(f'{{"turn":{i},"who":"Ann"}}' for i in range(400)) + "]}"
    done = await store.commit_moves(pk, 1, [suite.entry(1)], state, over=False, due=None)
    assert done.outcome is Outcome.OK
    sql = "SELECT pg_column_compression(state_json), state_json FROM games WHERE id = $1"
    assert tuple(await store._pool.fetchrow(sql, pk)) == ("lz4", state)
    await store.close()


async def test_pg_a_game_s_status_is_still_checked(pg_url: str, clock: FakeClock) -> None:
    """Migration 8 checks the status in a trigger on writes that name it (a CHECK constraint
    was parsed again by every move's update): an unknown status is refused as before."""
    store = await PgStore.open(pg_url, clock=clock)
    pk = await suite.active(store)
    for sql in (
        "UPDATE games SET status = 'paused' WHERE id = $1",
        "INSERT INTO games (chat_key, game_id, status, created_at, updated_at, creator) "
        "SELECT 'tg:2', 'dicepile', 'paused', 0, 0, 'tg:10' WHERE $1::bigint > 0",
    ):
        with pytest.raises(asyncpg.CheckViolationError):
            await store._pool.execute(sql, pk)
    await store._pool.execute("UPDATE games SET status = 'aborted' WHERE id = $1", pk)
    assert await store.open_game("tg:1") is None
    await store.close()


async def test_a_commit_for_a_game_that_is_not_there_logs_nothing(store: AnyStore) -> None:
    """The log is appended only for a game the commit has just updated (PostgreSQL: migration
    10 checks the log's key there instead of by a trigger per row): an unknown game id is a
    stale move and leaves no row."""
    pk = await suite.active(store)
    gone = await store.commit_moves(pk + 1000, 1, [suite.entry(1)], "{}", over=False, due=None)
    assert gone.outcome is Outcome.STALE
    assert await store.actions(pk + 1000) == []
    assert await store.actions(pk) == []


async def test_pg_deleting_a_game_still_deletes_its_log(pg_url: str, clock: FakeClock) -> None:
    """Migration 10 dropped the log's foreign key; an admin's DELETE of a game still takes its
    log (a trigger on delete), its seats and its reminder (their keys cascade)."""
    store = await PgStore.open(pg_url, clock=clock)
    pk = await suite.active(store)
    due = Due(["Ann"], clock(), clock() + 60)
    done = await store.commit_moves(pk, 1, [suite.entry(1)], "{}", over=False, due=due)
    assert done.outcome is Outcome.OK and len(await store.actions(pk)) == 1
    other = await store._pool.fetchval(
        "SELECT count(*) FROM actions WHERE game_id <> $1", pk
    )  # another game's log stays
    await store._pool.execute("DELETE FROM games WHERE id = $1", pk)
    assert await store.actions(pk) == [] and await store.seats(pk) == []
    assert await store.reminder(pk) is None
    assert await store._pool.fetchval("SELECT count(*) FROM actions") == other
    await store.close()
