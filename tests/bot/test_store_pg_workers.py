"""Several worker processes on one PostgreSQL database (issue 23): moves of one game stay
serial with nothing lost or doubled, a worker killed mid-move hands over cleanly, and a due
reminder fires once whichever of three workers holds it. Workers: tests/bot/pg_worker.py."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.messages import Inbound
from bot.scheduler import SHARED_MAX_SLEEP, Scheduler
from bot.storage import open_store
from bot.store import Due, LogEntry, Outcome
from bot.store_outbox import OutRow
from bot.store_pg import PgStore
from tests.bot.helpers import FakeClock, present
from tests.bot.pg_worker import crowd_table
from tests.bot.test_scheduler import BlockingSleep
from tests.pg import PgServer, pg_server, pg_url  # noqa: F401  (fixtures)

ROOT = Path(__file__).resolve().parents[2]


def spawn(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.bot.pg_worker", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )


def go(*workers: subprocess.Popen[str]) -> None:
    """Start the workers' work together, once every one has opened its store."""
    for w in workers:
        assert w.stdout is not None and w.stdout.readline().strip() == "ready"
    for w in workers:
        assert w.stdin is not None
        w.stdin.write("go\n")
        w.stdin.flush()


def result(proc: subprocess.Popen[str]) -> dict[str, object]:
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    return dict(json.loads(out.strip().splitlines()[-1]))


async def new_game(store: PgStore) -> int:
    outcome, pk = await store.create_game("tg:1", "dicepile", {}, "test:1", ("test:1", "Ann", "en"))
    assert outcome is Outcome.OK
    start = await store.start_game(pk, 7, ["Ann"], json.dumps({"ids": []}), None)
    assert start.outcome is Outcome.OK
    return pk


async def assert_serial_log(store: PgStore, pk: int, ids: list[str]) -> None:
    """Every move once, in one serial order: versions 2..n+1, the log = the state."""
    row = await store.game(pk)
    assert row is not None and row.state_json is not None
    state_ids = json.loads(row.state_json)["ids"]
    log = await store.actions(pk)
    assert sorted(state_ids) == sorted(ids) and len(state_ids) == len(ids)
    assert [a.action["id"] for a in log] == state_ids  # the log's order is the state's
    assert [a.seq for a in log] == list(range(1, len(ids) + 1))
    assert [a.version for a in log] == list(range(2, len(ids) + 2))
    assert row.version == len(ids) + 1


async def test_two_workers_50_concurrent_moves_on_one_game_are_serial(
    pg_url: str,  # noqa: F811
) -> None:
    store = await PgStore.open(pg_url)
    pk = await new_game(store)
    ids = [f"m{i}" for i in range(50)]
    workers = [spawn("moves", pg_url, str(pk), *ids[w::2]) for w in range(2)]
    go(*workers)
    outcomes = [result(w)["outcomes"] for w in workers]
    # game_lock waits races out: every move commits at its first try, none is stale
    assert outcomes == [{"ok": 25}, {"ok": 25}]
    await assert_serial_log(store, pk, ids)
    await store.close()


async def test_a_worker_killed_mid_move_loses_and_doubles_nothing(pg_url: str) -> None:  # noqa: F811
    store = await PgStore.open(pg_url)
    pk = await new_game(store)
    ids = [f"m{i}" for i in range(50)]
    doomed = spawn("moves", pg_url, str(pk), "m0", "--stall", "m0")
    go(doomed)
    assert doomed.stdout is not None
    assert doomed.stdout.readline().strip() == "stalled"  # holds the game, nothing committed
    # The platform redelivers m0 (never acknowledged) to the other worker, with the rest.
    other = spawn("moves", pg_url, str(pk), *ids)
    go(other)
    time.sleep(1.0)
    assert present(await store.game(pk)).version == 1  # all wait on m0
    os.kill(doomed.pid, signal.SIGKILL)
    doomed.wait(timeout=30)
    assert result(other)["outcomes"] == {"ok": 50}
    await assert_serial_log(store, pk, ids)
    await store.close()


async def test_a_reminder_fires_once_with_three_workers(pg_url: str) -> None:  # noqa: F811
    clock = FakeClock()
    store = await PgStore.open(pg_url, clock=clock)
    games = []
    for n in range(30):
        _, pk = await store.create_game(f"tg:{n}", "dicepile", {}, "test:1", None)
        due = Due(["Ann"], clock.now - 100 + n, clock.now + n)
        assert (await store.start_game(pk, 1, [], "{}", due)).outcome is Outcome.OK
        games.append(pk)
    workers = [spawn("reminders", pg_url, str(clock.now)) for _ in range(3)]
    go(*workers)
    results = [result(w) for w in workers]
    fired = [pk for r in results for pk in r["fired"]]  # type: ignore[attr-defined]
    assert sorted(fired) == sorted(games)  # each turn planned once, none twice, none lost
    assert [r["lost"] for r in results] == [0, 0, 0]  # SKIP LOCKED: no two tried the same
    assert all(r["fired"] for r in results)  # and all three did some of the work
    assert await store.due_turns(clock.now) == []
    await store.close()


async def test_a_turn_whose_worker_died_unplanned_is_found_within_a_minute(
    pg_url: str,  # noqa: F811
) -> None:
    """Moves send no NOTIFY (issue 23: one per move reached every worker): the worker that
    moved plans the new turn. Should it die first, another worker's scheduler, which on a
    shared store never sleeps longer than SHARED_MAX_SLEEP, finds the turn unwoken."""
    clock = FakeClock()
    store = await PgStore.open(pg_url, clock=clock)
    pk = await crowd_game(store)
    table = crowd_table(store)
    sleep = BlockingSleep()
    sched = Scheduler(table, clock=clock, sleep=sleep)
    assert sched.max_sleep == SHARED_MAX_SLEEP == 60.0
    sched.start()
    await asyncio.wait_for(sleep.changed.wait(), 10)
    assert sleep.asked[-1] <= SHARED_MAX_SLEEP  # never six hours on a shared store
    await sched.stop()
    # The dead worker's move: a new turn, committed, never planned (it died), no NOTIFY.
    dead = await PgStore.open(pg_url, clock=clock)
    row = await dead.game(pk)
    assert row is not None and row.state_json is not None
    # a list that is no part of the one before (all three): a new turn, at the fake clock
    due = Due(["bob", "dan"], clock.now, clock.now + 3600.0)
    step = LogEntry("local:ann", "ann", '{"take": 1}', "[]")
    done = await dead.commit_moves(pk, row.version, [step], row.state_json, over=False, due=due)
    assert done.outcome is Outcome.OK
    await dead.close()
    plan = await store.turn_plan(pk)
    assert plan is not None and plan.attempt == 0 and plan.players == ["bob", "dan"]
    # Within the minute the living worker's scheduler looks again and plans it.
    clock.advance(SHARED_MAX_SLEEP)
    assert await sched.run_due() >= 1
    plan = await store.turn_plan(pk)
    assert plan is not None and plan.attempt == 1
    await store.close()


async def test_a_worker_s_own_sender_loop_needs_no_notify(pg_url: str) -> None:  # noqa: F811
    """The table tells a shared store which platforms it delivers (`deliver_here`): their
    rows of its moves wake its own sender loop, not every worker's (issue 23)."""
    store = await PgStore.open(pg_url, clock=FakeClock())
    table = crowd_table(store)
    rows = [
        OutRow("telegram", "tg:1", "chat", "en", {"text": "a"}),
        OutRow("discord", "dc:1", "chat", "en", {"text": "b"}),
    ]
    assert store.to_notify(rows) == ["discord", "telegram"]

    async def deliver(item: object) -> None:
        raise AssertionError("nothing is sent here")

    sender = table.register_delivery("telegram", deliver)
    assert store.to_notify(rows) == ["discord"]
    assert store.to_notify([OutRow("discord", "dc:1", "chat", "en", {}, sent=True)]) == []
    await sender.stop()
    await store.close()


async def test_a_worker_on_the_same_host_connects_through_the_unix_socket(
    pg_server: PgServer,  # noqa: F811
) -> None:
    """`BOARDCHAT_DB=postgresql://user@/db?host=/socket/dir&port=N` (docs/deploy.md): the
    store migrates, moves and listens through the server's Unix socket, which costs a round
    trip less CPU on both sides than loopback TCP (issue 23)."""
    url = pg_server.unix_url(pg_server.new_database())
    assert "127.0.0.1" not in url
    store = await open_store(url, clock=FakeClock())
    assert isinstance(store, PgStore)
    pk = await new_game(store)
    row = await store.game(pk)
    assert row is not None and row.state_json is not None
    step = LogEntry("test:1", "Ann", json.dumps({"id": "u1"}), "[]")
    state = json.dumps({"ids": ["u1"]})
    done = await store.commit_moves(pk, row.version, [step], state, over=False, due=None)
    assert done.outcome is Outcome.OK
    await assert_serial_log(store, pk, ["u1"])
    await store.close()


# ---------------------------------------------------------------------- through the Table
CHAT = "local:crowd"
USERS = ("ann", "bob", "cyd")


async def crowd_game(store: PgStore) -> int:
    table = crowd_table(store)
    for user, line in (("ann", "/new dicepile"), ("bob", "/join"), ("cyd", "/join")):
        await table.handle(Inbound("local", CHAT, f"local:{user}", user, text=line))
    await table.handle(Inbound("local", CHAT, "local:ann", "ann", text="/start"))
    row = await store.open_game(CHAT)
    assert row is not None and row.status == "active"
    return row.id


def crowd_moves(count: int) -> list[str]:
    return [f"{USERS[i % 3]}:{1 + i % 3}:u{i}" for i in range(count)]


async def assert_every_move_once(store: PgStore, pk: int, moves: list[str]) -> None:
    """The log holds each move once, in one serial order, and the state is that log's."""
    row = await store.game(pk)
    assert row is not None and row.state_json is not None
    log = await store.actions(pk)
    assert len(log) == len(moves)
    assert [a.version for a in log] == list(range(2, len(moves) + 2)) and row.version == len(
        moves
    ) + 1
    assert sorted((a.player, a.action["take"]) for a in log) == sorted(
        (m.split(":")[0], int(m.split(":")[1])) for m in moves
    )
    assert json.loads(row.state_json)["pile"] == 1_000_000 - sum(a.action["take"] for a in log)


async def test_two_table_workers_50_concurrent_moves_on_one_game_are_serial(
    pg_url: str,  # noqa: F811
) -> None:
    store = await PgStore.open(pg_url)
    pk = await crowd_game(store)
    moves = crowd_moves(50)
    workers = [spawn("table", pg_url, CHAT, *moves[w::2]) for w in range(2)]
    go(*workers)
    answers = [result(w)["answers"] for w in workers]
    assert answers == [{"took": 25}, {"took": 25}]  # no lost race, no refusal
    await assert_every_move_once(store, pk, moves)
    await store.close()


async def test_a_table_worker_killed_mid_move_leaves_the_game_to_the_other(
    pg_url: str,  # noqa: F811
) -> None:
    store = await PgStore.open(pg_url)
    pk = await crowd_game(store)
    moves = crowd_moves(20)
    doomed = spawn("table", pg_url, CHAT, moves[0], "--stall", "u0")
    go(doomed)
    assert doomed.stdout is not None
    # Stalled before its commit: the game was read with the message, before the lock, so
    # the advisory lock is not taken (bot/store_pg.py `game_lock`) and nobody waits for it.
    assert doomed.stdout.readline().strip() == "stalled"
    other = spawn("table", pg_url, CHAT, *moves)  # u0 redelivered, with the rest
    go(other)
    assert result(other)["answers"] == {"took": 20}  # the other carried on at once
    os.kill(doomed.pid, signal.SIGKILL)
    doomed.wait(timeout=30)
    await assert_every_move_once(store, pk, moves)
    await store.close()
