"""Table service latency: many concurrent games, random legal moves, on SQLite and PostgreSQL.

    .venv/bin/python bench/table_latency.py [--games 200] [--moves 4000] [--concurrency 2]
        [--db PATH|sqlite:///PATH|postgresql://...] [--workers 4] [--durable] [--known-state]
        [--scheduler] [--server-pid PID] [--only sqlite|postgresql]

Each game has three human seats. Senders (the chats sending at the same time) pick a random
idle game, choose a random legal action for a player who must act, and send it through
`Table.act` — the service path of a parsed chat command: turn check, apply on a state loaded
from JSON, one transaction (version check, log, state, reminder), the event announcements and
the next prompt. Rendering is off. Only the service call is timed. A sender reads its game's
state from the store before each move (as the bench of the issue's day did, so figures compare
across waves: bench/table_baseline.py). That read is the harness's, not the table's: no chat
makes it. With --known-state a sender takes the state the table committed last instead (kept by
the table for its next message): about 8 % more moves/s on both backends (quiet machine,
2026-11-27), but a higher p50, as the other sender's pick of a move, no longer split by a
read's yield, lands inside the timed call.

Without --db both backends run: SQLite in one process (a temp file) and PostgreSQL with
--workers processes (each its own table and games) on a throwaway server started with
tests/pg.py, skipped when no server binary exists; the workers reach that server through its
Unix socket, as a deployment with the server on the same host does (docs/deploy.md; --tcp:
loopback TCP, about 8 % more CPU per move). --db runs only the backend it names, --only one
of the two on the bench's own files and server.
With --durable the chats are Telegram chats whose messages go to the outbox for a sender loop
(one more INSERT in each move's transaction); no sender runs, so the rows stay queued.
With --scheduler each process runs the table's scheduler as `boardchat run` does (it plans
every new turn; on PostgreSQL it listens for the other workers' wake-ups). Stderr gives the CPU
per move of the bot's processes and, where the bench started the server (or was given its
--server-pid), of the server: a figure the machine's other load changes less than moves/s.
bench/move_calls.py counts the store and game calls of the same moves (a figure the machine's
load does not change). `--loop` chooses the event loop as BOARDCHAT_LOOP does (bot/eventloop.py;
default auto, as production: uvloop for the PostgreSQL workers, asyncio's loop for SQLite).

The last line reads (2-core machine, 2026-11-28 11:30, `--moves 16000 --games 400`):
`table: sqlite p50 0.7 ms p99 1.4 ms 1950 moves/s; postgres(4 workers) p50 3.0 ms p99 8.5 ms
1677 moves/s`; with --scheduler `sqlite p50 0.8 ms p99 1.9 ms 1657 moves/s; postgres(4
workers) p50 3.3 ms p99 9.2 ms 1619 moves/s` (the default 4,000 moves: SQLite 1768-2077,
PostgreSQL 1306-1521 moves/s in the same half hour; the machine's speed drifts by about 15 %
through a day, and this machine runs the issue day's table at 774 moves/s, p50 2.1 ms, so it
is about as fast as the issue's: bench/table_baseline.py).
With --scheduler, before this wave's scheduler work (2026-11-28, PostgreSQL, alternating
rounds on one server, CPU per move bot + server): 1690 µs; 1490 once a woken scheduler lets a
burst settle (0.25 s) instead of a pass per move; 1240 µs with one read per planned turn, a
claim in one statement and no NOTIFY per move (each reached every worker: ~195 µs of a move
with four), which is the figure without a scheduler (1249 µs): production's scheduler now costs
a move nothing measurable. SQLite with --scheduler: 874 -> 619 µs, the planning's reads and
claim on the loop's thread (16 hand-offs per new turn before).
Through the Unix socket (the default since 2026-11-28 15:00), alternating with --tcp, `--only
postgresql --moves 8000 --games 400`: 1826, 1711, 1891 against 1507, 1772, 1665 moves/s (CPU per
move bot + server 1044-1159 against 1105-1307 µs); the machine ran ~15 % slower then than at
13:38, when loopback TCP made 2029 moves/s (972 µs).
Where the PostgreSQL move's CPU goes (1.1-1.2 ms over bot and server; the server about 40 %):
three round trips (the harness's read, the message's read, the commit), each ~60 µs of the
client's CPU and as much of the server's beyond the statement itself (asyncpg on uvloop,
loopback TCP; a Unix socket saves ~2 %); the statements themselves ~200 µs (pg_stat_statements:
commit 129 µs, the message's read 53 µs, the harness's read 16 µs); the rest is the table's
Python, as on SQLite.
2026-11-29 (this VM's speed moved by up to 2x within the hour: SQLite's CPU per move 480-862
µs, so only paired figures mean anything): the log's foreign key cost the commit 40-70 µs (an
SPI lookup per appended action); migration 10 drops it (bot/store_pg_schema.py), the commit's
exec time 171-234 -> 126-167 µs, alternating, `--moves 8000 --games 400`. pgbench on the
saturated machine (-M prepared, 8 clients; a C client, so near the server's own cost per
round trip): `SELECT 1` 20 µs of CPU, the harness's read 29 µs, the message's read 84 µs,
30 µs of it the seats' subquery (array_agg of rows instead of json_agg: 4 % less). py-spy of
one worker: its CPU is Python (asyncpg's client 13 %, the engine's view, play and wording 38 %,
the table 35 %); the kernel is ~10 % of the workers' CPU and ~18 % of the backends'.
The one lever left, skipping the message's read (a worker keeping each chat's `Loaded` and the
commit validating it), measured at its ceiling on 2026-11-29 04:30 (quiet machine, one server,
alternating, `--moves 8000 --games 400`): an experiment outside the repo that reused each
chat's first read with the committed state and version patched in, validating nothing, made
1894 and 1971 moves/s against 1611 and 1658 unchanged (CPU per move bot + server 1032 and 998
against 1214 and 1177 µs): even the read skipped for free leaves the 2,000 moves/s of issue 23
out of reach on this machine that day, and a real cache (a context stamp every writer of
seats, users, prefs, votes and chat settings bumps) costs more and would mostly miss with
Telegram's webhooks spread over workers, so it was not built.
py-spy again that day with `--gil` (only samples holding the GIL, so no idle ones): the
native code under asyncpg's `_do_execute` (its Cython protocol and uvloop's socket writes) is
35 % of a worker's CPU: the commit 16 %, the message's read 10 %, the harness's read 8 %.
bot/gctune.py (a worker's collector settled once its table is open) took 39 -> 6 µs a move
out of the collector and its 20 ms full collections out of moves. Later that day the VM ran
slower and noisier: `--moves 16000 --games 400` gave `sqlite p50 0.7 ms p99 1.4 ms 1946
moves/s; postgres(4 workers) p50 3.9 ms p99 10.2 ms 1391 moves/s`, and the morning's code
(efa07ef) against the day's, alternating on one server, five rounds each, 1132-1477 against
1017-1534 moves/s (medians 1187 and 1376): no change the machine's noise would show.
2026-12-02 06:58, the slowest VM yet (bench/table_baseline.py ran the issue day's table at
219 moves/s here against 790 on the issue's machine; today's table 5.1x that): `--moves 16000
--games 400` gave `sqlite p50 1.3 ms p99 2.5 ms 1127 moves/s; postgres(4 workers) p50 5.7 ms
p99 13.3 ms 1001 moves/s` (CPU per move 898 µs on SQLite; bot 1220 + server 753 µs on
PostgreSQL, against about 1000-1200 in all on 2026-11-28).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import eventloop, gctune
from bot.messages import Inbound
from bot.scheduler import SETTLE, Scheduler
from bot.storage import open_store, parse_db
from bot.store_protocol import SharedStore
from bot.table import Table, discover_games
from engine.core import load_state

PLAYERS = ("ann", "bob", "cyd")
# Power Grid's regions drawn, as when the figures above were measured: the table's default is
# now the players' choice (DECISION PG-D-3), pinned off so the figures stay comparable.
NEW_OPTIONS = {"powergrid": " regions=random"}


PLATFORM = {"local": "local", "tg": "telegram"}


def inbound(chat: str, user: str, text: str | None = None) -> Inbound:
    prefix = chat.split(":", 1)[0]
    return Inbound(PLATFORM[prefix], chat, f"{prefix}:{user}", user, text=text)


DURABLE: list[bool] = []
# --scheduler: each process runs the table's scheduler, as `boardchat run` does
SCHEDULER: list[bool] = []
# --known-state: the senders take each move's state from what the table committed last
# instead of reading it from the store (the default, as the issue day's bench did)
KNOWN_STATE: list[bool] = []


async def setup(table: Table, games: int, game_id: str, prefix: str = "") -> list[str]:
    if DURABLE:
        base = 1 + 100_000 * sum(map(ord, prefix))
        chats = [f"tg:-{base + i}" for i in range(games)]
    else:
        chats = [f"local:bench-{prefix}{i}" for i in range(games)]
    for chat in chats:
        await table.handle(
            inbound(chat, PLAYERS[0], f"/new {game_id}{NEW_OPTIONS.get(game_id, '')}")
        )
        for user in PLAYERS[1:]:
            await table.handle(inbound(chat, user, "/join"))
        await table.handle(inbound(chat, PLAYERS[0], "/start"))
    return chats


async def run_one(
    db: str, games: int, moves: int, concurrency: int, game_id: str, seed: int, prefix: str = ""
) -> dict[str, Any]:
    """One process: set up `games` games on `db`, then `moves` timed moves."""
    rnd = random.Random(seed)
    store = await open_store(db)
    found = discover_games()
    table = Table(
        store,
        games={game_id: found[game_id]},
        render=False,
        durable=("telegram",) if DURABLE else (),
        seeder=lambda: rnd.randrange(1 << 62),
    )
    game = table.games[game_id]
    gctune.settle()  # as `boardchat run` does once its table is open (bot/runner.py)
    chats = await setup(table, games, game_id, prefix)
    scheduler = Scheduler(table, settle=SETTLE) if SCHEDULER else None
    if scheduler is not None:
        scheduler.start()
        if DURABLE and isinstance(store, SharedStore):
            # as a worker running Telegram does (its sender loop, not run here, registered):
            # its moves' rows wake that loop in-process, not every worker's
            store.deliver_here("telegram")
    await go_signal()
    idle = list(chats)
    pks: dict[str, int] = {}
    latencies: list[float] = []
    refused = 0
    remaining = moves

    async def state_of(chat: str) -> str | None:
        """The chat's game state as a player's client knows it: what the table committed last
        (kept by the table for its next message), read from the store only when it kept
        none. A chat message costs the table no read of ours; reading it here for every move
        would add a store round trip per move that no real chat makes (on PostgreSQL, a
        third of the server's work)."""
        pk = pks.get(chat)
        kept = table._recent.state_json(pk) if pk is not None and KNOWN_STATE else None
        if kept is not None:
            return kept
        row = await store.open_game(chat)
        if row is None or row.state_json is None:
            return None
        pks[chat] = row.id
        return row.state_json

    async def sender() -> None:
        nonlocal remaining, refused
        while remaining > 0 and idle:
            remaining -= 1
            chat = idle.pop(rnd.randrange(len(idle)))
            try:
                state_json = await state_of(chat)
                if state_json is None:
                    continue  # the game ended: it stays out of the idle list
                state = load_state(state_json)
                if game.is_over(state):
                    continue
                player = rnd.choice(game.current_players(state))
                action = rnd.choice(game.legal_actions(state, player))
                t0 = time.perf_counter()
                outs = await table.act(inbound(chat, player), action)
                latencies.append(time.perf_counter() - t0)
                if not outs or "Sorry" in outs[0].text:
                    refused += 1
                idle.append(chat)
            except Exception:
                idle.append(chat)
                raise

    started, cpu = time.time(), time.process_time()
    await asyncio.gather(*(sender() for _ in range(concurrency)))
    ended, cpu = time.time(), time.process_time() - cpu
    if scheduler is not None:
        await scheduler.stop()
    await store.close()
    return {
        "latencies": latencies,
        "refused": refused,
        "started": started,
        "ended": ended,
        "cpu": cpu,
    }


_GO: list[bool] = []


async def go_signal() -> None:
    """A worker process (--worker) says it is set up and waits for the parent's go."""
    if _GO:
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)


def summary(
    label: str, results: list[dict[str, Any]], server_cpu: float | None = None
) -> tuple[str, int]:
    latencies = sorted(x for r in results for x in r["latencies"])
    refused = sum(r["refused"] for r in results)
    elapsed = max(r["ended"] for r in results) - min(r["started"] for r in results)
    n = len(latencies)
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[min(n - 1, int(n * 0.99))] * 1000
    # CPU per move: a figure the other load of the machine changes less than moves/s
    cpu = f"; CPU per move {sum(r['cpu'] for r in results) / n * 1e6:.0f} µs in the bot"
    if server_cpu is not None:
        cpu += f", {server_cpu / n * 1e6:.0f} µs in the server"
    print(
        f"{label}: {n} moves in {elapsed:.2f} s; {refused} refused; mean "
        f"{statistics.fmean(latencies) * 1000:.2f} ms, max {latencies[-1] * 1000:.1f} ms{cpu}",
        file=sys.stderr,
    )
    return f"{label} p50 {p50:.1f} ms p99 {p99:.1f} ms {n / elapsed:.0f} moves/s", refused


def tree_cpu(pid: int) -> float:
    """CPU seconds of process `pid` (the PostgreSQL server), its reaped children and its
    living ones (Linux /proc; 0.0 elsewhere)."""
    tick = os.sysconf("SC_CLK_TCK")

    def fields(p: str) -> list[str]:
        text = Path(f"/proc/{p}/stat").read_text()
        return text[text.rindex(")") + 2 :].split()

    try:
        own = fields(str(pid))
    except OSError:
        return 0.0
    total = sum(int(x) for x in own[11:15])  # utime stime cutime cstime
    for p in os.listdir("/proc"):
        try:
            f = fields(p) if p.isdigit() else None
        except OSError:
            continue
        if f is not None and int(f[1]) == pid:  # ppid
            total += int(f[11]) + int(f[12])
    return total / tick


def run_workers(
    db: str, workers: int, args: argparse.Namespace, server_pid: int | None = None
) -> tuple[list[dict[str, Any]], float | None]:
    """`workers` processes of this script on `db`, started together once all are set up;
    with the server's CPU seconds of the run when `server_pid` is known."""
    procs = []
    results_dir = tempfile.mkdtemp(prefix="table-latency-")
    for w in range(workers):
        cmd = [sys.executable, __file__, "--worker", "--db", db, "--prefix", f"w{w}-"]
        cmd += ["--games", str(max(1, args.games // workers))]
        cmd += ["--moves", str(args.moves // workers), "--concurrency", str(args.concurrency)]
        cmd += ["--game", args.game, "--seed", str(args.seed + w)]
        cmd += ["--known-state"] if args.known_state else []
        cmd += ["--durable"] if args.durable else []
        cmd += ["--scheduler"] if args.scheduler else []
        cmd += ["--loop", args.loop, "--result", f"{results_dir}/w{w}.json"]
        procs.append(
            subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        )
    for p in procs:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    before = tree_cpu(server_pid) if server_pid is not None else 0.0
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    for p in procs:
        p.communicate()
        if p.returncode != 0:
            raise SystemExit(f"a worker failed ({p.returncode})")
    time.sleep(0.2)  # the server reaps the workers' backends (their CPU joins its own)
    server = tree_cpu(server_pid) - before if server_pid is not None else None
    results = [json.loads(Path(f"{results_dir}/w{w}.json").read_text()) for w in range(workers)]
    return results, server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--game", default="powergrid")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default=None, help="SQLite path/URL or postgresql:// URL")
    parser.add_argument(
        "--only",
        choices=("sqlite", "postgresql"),
        default=None,
        help="run one backend (PostgreSQL on a server the bench starts)",
    )
    parser.add_argument("--workers", type=int, default=4, help="PostgreSQL worker processes")
    parser.add_argument(
        "--tcp",
        dest="unix",
        action="store_false",
        help="the bench's own server through loopback TCP, not its Unix socket",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--prefix", default="", help=argparse.SUPPRESS)
    parser.add_argument("--result", default="", help=argparse.SUPPRESS)
    parser.add_argument(
        "--server-pid", type=int, default=None, help="the server's pid (its CPU is reported)"
    )
    parser.add_argument("--durable", action="store_true", help="Telegram chats with outbox rows")
    parser.add_argument(
        "--scheduler", action="store_true", help="run the scheduler in each process, as production"
    )
    parser.add_argument(
        "--known-state", action="store_true", help="senders know the state the table kept"
    )
    parser.add_argument(
        "--loop",
        default="auto",
        choices=eventloop.CHOICES,
        help="event loop as BOARDCHAT_LOOP (default auto, as production: uvloop on PostgreSQL)",
    )
    args = parser.parse_args()
    if args.durable:
        DURABLE.append(True)
    if args.known_state:
        KNOWN_STATE.append(True)
    if args.scheduler:
        SCHEDULER.append(True)
    if args.worker:  # one of run_workers' processes: JSON results on the last line
        _GO.append(True)
        result = eventloop.run(
            run_one(
                args.db, args.games, args.moves, args.concurrency, args.game, args.seed, args.prefix
            ),
            args.loop,
            args.db,
        )
        # the results go to a file: through the pipe a result past 64 KiB came cut off
        # (--moves 16000)
        Path(args.result).write_text(json.dumps(result))
        return 0
    parts: list[str] = []
    refused = 0
    backends = [parse_db(args.db)[0]] if args.db else ["sqlite", "postgresql"]
    if args.only and not args.db:
        backends = [args.only]
    if "sqlite" in backends:
        with tempfile.TemporaryDirectory() as tmp:
            db = args.db or str(Path(tmp) / "bench.sqlite3")
            one = eventloop.run(
                run_one(db, args.games, args.moves, args.concurrency, args.game, args.seed),
                args.loop,
                db,
            )
        line, bad = summary("sqlite", [one])
        parts.append(line)
        refused += bad
    if "postgresql" in backends:
        from tests.pg import find_bindir, start_server

        label = f"postgres({args.workers} workers)"
        if args.db:
            line, bad = summary(label, *run_workers(args.db, args.workers, args, args.server_pid))
        elif find_bindir() is None:
            line, bad = f"{label} skipped: no PostgreSQL server binary", 0
        else:
            with start_server() as server:
                db = server.new_database()
                if args.unix:  # as a deployment with the server on the same host connects
                    db = server.unix_url(db)
                line, bad = summary(label, *run_workers(db, args.workers, args, server.process.pid))
        parts.append(line)
        refused += bad
    loops = {
        b: eventloop.loop_name(args.loop, "postgresql://" if b == "postgresql" else "x")
        for b in backends
    }
    print(f"event loops: {loops}", file=sys.stderr)
    print("table: " + "; ".join(parts))
    return 0 if refused == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
