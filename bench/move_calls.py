"""Calls per move: how many store calls (and database hand-offs) and game calls one move makes
through the table — a measure the machine's load does not change (issue 23), and the trace of a
`/build Berlin` through the parts (issue 26).

    .venv/bin/python bench/move_calls.py [--moves 300] [--game powergrid] [--durable]
        [--db PATH|postgresql://...|postgresql] [--profile N]

Plays `--moves` random legal moves with `Table.act` one at a time (the bench's service path,
bench/table_latency.py) and counts, per move, each store method the table calls and each game
method. Then plays on until a player may build in Berlin and sends him `/build Berlin` as a
chat message through `Table.handle`, the whole inbound path, and counts that one message.
`--db postgresql` starts a throwaway server (tests/pg.py); there each statement asyncpg sends
is a round trip, counted with the store calls. `--durable`: the chats are Telegram groups
(quiet table, outbox rows in the transaction).
`--profile N`: cProfile of the timed moves, the N costliest functions (cumulative) on stderr.
The last line reads `calls: per move N store calls, M game calls; /build Berlin: …`.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import cProfile
import functools
import inspect
import json
import pstats
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.messages import Inbound
from bot.storage import open_store
from bot.table import Table, discover_games
from engine.core import IllegalAction

PLAYERS = ("ann", "bob", "cyd")
# Power Grid's regions drawn, as when the figures above were measured: the table's default is
# now the players' choice (DECISION PG-D-3), pinned off so the figures stay comparable.
NEW_OPTIONS = {"powergrid": " regions=random"}
GAME_METHODS = (
    "play",
    "apply",
    "view",
    "current_players",
    "legal_actions",
    "is_over",
    "parse",
    "describe_turn",
    "describe_event",
    "describe_private_event",
    "buttons",
    "is_picture_event",
    "forced_action",
    "anytime",
    "result",
)


class Counter:
    """Counts calls to wrapped methods; `take()` returns and resets them. A synchronous call
    made inside another counted one (the game's `play` asking its own `apply`) is not counted:
    the figure is how often the table calls the game, not how the game spends the call."""

    def __init__(self) -> None:
        self.calls: collections.Counter[str] = collections.Counter()
        self.on = False
        self.depth = 0

    def wrap(self, obj: Any, name: str, label: str) -> None:
        fn = getattr(obj, name)
        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def acall(*args: Any, **kwargs: Any) -> Any:
                if self.on:
                    self.calls[label] += 1
                return await fn(*args, **kwargs)

            setattr(obj, name, acall)
            return
        if not callable(fn):
            return

        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            if self.on and not self.depth:
                self.calls[label] += 1
            self.depth += 1
            try:
                return fn(*args, **kwargs)
            finally:
                self.depth -= 1

        setattr(obj, name, call)

    def count(self, label: str) -> None:
        self.calls[label] += 1

    def take(self) -> collections.Counter[str]:
        out, self.calls = self.calls, collections.Counter()
        return out


def count_store(store: Any, counter: Counter) -> None:
    """Every public coroutine method of the store, and `game_lock`."""
    for name in dir(type(store)):
        if name.startswith("_"):
            continue
        attr = getattr(type(store), name, None)
        if inspect.iscoroutinefunction(attr) or name == "game_lock":
            counter.wrap(store, name, f"store.{name}")


def count_handoffs(store: Any, counter: Counter) -> None:
    """The SQLite store's hand-offs to its connections' threads (aiosqlite's `_execute`)."""
    for name in ("_r", "_w"):
        con = getattr(store, name, None)
        if con is not None and hasattr(con, "_execute"):
            counter.wrap(con, "_execute", "hand-off")


def count_statements(store: Any, counter: Counter) -> None:
    """The SQLite store's SQL statements, on every connection (each row of an executemany
    counts: SQLite runs the statement once per row)."""
    import sqlite3

    for name in ("_inline", "_r", "_w"):
        con = getattr(store, name, None)
        raw = getattr(con, "_conn", con)
        if isinstance(raw, sqlite3.Connection):
            raw.set_trace_callback(lambda _sql: counter.on and counter.count("sql statement"))


def count_round_trips(counter: Counter) -> None:
    """PostgreSQL: every statement asyncpg sends (the pool's reset on release included)."""
    import asyncpg

    for name in ("execute", "executemany", "fetch", "fetchrow", "fetchval"):
        counter.wrap(asyncpg.Connection, name, "round trip")


def count_game(game: Any, counter: Counter) -> None:
    for name in GAME_METHODS:
        if hasattr(game, name):
            counter.wrap(game, name, f"game.{name}")


def inbound(chat: str, user: str, text: str | None = None) -> Inbound:
    platform = "telegram" if chat.startswith("tg:") else "local"
    prefix = chat.split(":", 1)[0]
    return Inbound(platform, chat, f"{prefix}:{user}", user, text=text, chat_title="Bench")


def can_build(game: Any, state: dict[str, Any], player: str, city: str) -> bool:
    try:
        parsed = game.parse(json.loads(json.dumps(state)), player, "build", [city])
        if not isinstance(parsed, (dict, list)):
            return False
        work = json.loads(json.dumps(state))
        for action in parsed if isinstance(parsed, list) else [parsed]:
            work, _ = game.apply(work, player, action)
    except (IllegalAction, ValueError, KeyError):
        return False
    return True


def per_move(total: collections.Counter[str], n: int, prefix: str) -> float:
    return sum(v for k, v in total.items() if k.startswith(prefix)) / max(1, n)


def table_of(total: collections.Counter[str], n: int) -> str:
    return "\n".join(f"  {k:32s} {v / max(1, n):6.2f}" for k, v in sorted(total.items()))


async def run(args: argparse.Namespace, db: str) -> str:
    rnd = random.Random(args.seed)
    store = await open_store(db)
    found = discover_games()
    durable = ("telegram",) if args.durable else ()
    table = Table(
        store,
        games={args.game: found[args.game]},
        render=False,
        durable=durable,
        seeder=lambda: rnd.randrange(1 << 62),
    )
    game = table.games[args.game]
    counter = Counter()
    count_store(store, counter)
    count_handoffs(store, counter)
    count_statements(store, counter)
    if db.startswith("postgres"):
        count_round_trips(counter)
    count_game(game, counter)
    prefix = "tg:-100" if args.durable else "local:calls-"
    chats = [f"{prefix}{i}" for i in range(args.games)]
    for chat in chats:
        await table.handle(
            inbound(chat, PLAYERS[0], f"/new {args.game}{NEW_OPTIONS.get(args.game, '')}")
        )
        for user in PLAYERS[1:]:
            await table.handle(inbound(chat, user, "/join"))
        await table.handle(inbound(chat, PLAYERS[0], "/start"))
    total: collections.Counter[str] = collections.Counter()
    moves = 0
    prof = cProfile.Profile() if args.profile else None
    for i in range(args.moves):
        chat = chats[i % len(chats)]
        row = await store.open_game(chat)
        if row is None or row.state_json is None:
            continue
        state = json.loads(row.state_json)
        player = rnd.choice(game.current_players(state))
        action = rnd.choice(game.legal_actions(state, player))
        counter.take()
        counter.on = True
        if prof is not None:
            prof.enable()
        await table.act(inbound(chat, player), action)
        if prof is not None:
            prof.disable()
        counter.on = False
        total += counter.take()
        moves += 1
    print(f"per move (mean of {moves} moves through Table.act):", file=sys.stderr)
    print(table_of(total, moves), file=sys.stderr)
    line = (
        f"per move {per_move(total, moves, 'store.'):.1f} store calls "
        f"({per_move(total, moves, 'hand-off') + per_move(total, moves, 'round trip'):.1f} "
        "hand-offs or round trips; "
        f"{per_move(total, moves, 'sql statement'):.1f} SQLite statements), "
        f"{per_move(total, moves, 'game.'):.1f} game calls"
    )
    if prof is not None:
        pstats.Stats(prof, stream=sys.stderr).sort_stats("cumulative").print_stats(args.profile)
    # /build Berlin: play on in one chat until a player may build there
    traced = "/build Berlin: not reached"
    if args.game == "powergrid":
        for chat in chats:
            for _ in range(2000):
                row = await store.open_game(chat)
                if row is None or row.state_json is None:
                    break
                state = json.loads(row.state_json)
                now = game.current_players(state)
                who = [p for p in now if can_build(game, state, p, "Berlin")]
                if who:
                    counter.take()
                    counter.on = True
                    outs = await table.handle(inbound(chat, who[0], "/build Berlin"))
                    counter.on = False
                    calls = counter.take()
                    print("/build Berlin (Table.handle):", file=sys.stderr)
                    print(table_of(calls, 1), file=sys.stderr)
                    print("\n".join(o.text for o in outs), file=sys.stderr)
                    traced = (
                        f"/build Berlin: {per_move(calls, 1, 'store.'):.0f} store calls "
                        f"({per_move(calls, 1, 'hand-off') + per_move(calls, 1, 'round trip'):.0f}"
                        " hand-offs or round trips), "
                        f"{per_move(calls, 1, 'game.'):.0f} game calls"
                    )
                    break
                player = rnd.choice(game.current_players(state))
                legal = game.legal_actions(state, player)
                picks = [a for a in legal if a.get("type") != "build"] or legal
                await table.act(inbound(chat, player), rnd.choice(picks))
            if traced != "/build Berlin: not reached":
                break
    await store.close()
    return f"calls: {line}; {traced}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--game", default="powergrid")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default=None, help="SQLite path/URL or postgresql:// URL")
    parser.add_argument("--durable", action="store_true", help="Telegram groups, outbox rows")
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest functions")
    args = parser.parse_args()
    if args.db == "postgresql":  # a throwaway server (tests/pg.py)
        from tests.pg import start_server

        with start_server() as server:
            print(asyncio.run(run(args, server.new_database())))
        return 0
    if args.db:
        print(asyncio.run(run(args, args.db)))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        print(asyncio.run(run(args, str(Path(tmp) / "calls.sqlite3"))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
