"""Table service latency: many concurrent games on one SQLite file, random legal moves.

    .venv/bin/python bench/table_latency.py [--games 200] [--moves 4000] [--concurrency 2]
        [--durable]

Each game has three human seats. Workers (the chats sending at the same time) pick a random
idle game, choose a random legal action for a player who must act, and send it through
`Table.act` — the service path of a parsed chat command: turn check, apply on a state loaded
from JSON, one BEGIN IMMEDIATE transaction (version check, log, state, reminder), the event
announcements and the next prompt. Rendering is off. Only the service call is timed.
The last line reads: `table: 200 games, 812 moves/s, p50 1.9 ms, p99 7.5 ms`.
With --durable the chats are Telegram chats whose messages go to the outbox for a sender loop
(one more INSERT in each move's transaction); no sender runs, so the rows stay queued.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.messages import Inbound
from bot.store import Store
from bot.table import Table, discover_games

PLAYERS = ("ann", "bob", "cyd")


PLATFORM = {"local": "local", "tg": "telegram"}


def inbound(chat: str, user: str, text: str | None = None) -> Inbound:
    prefix = chat.split(":", 1)[0]
    return Inbound(PLATFORM[prefix], chat, f"{prefix}:{user}", user, text=text)


async def setup(table: Table, games: int, game_id: str, durable: bool) -> list[str]:
    chats = [f"tg:-{i + 1}" if durable else f"local:bench-{i}" for i in range(games)]
    for chat in chats:
        await table.handle(inbound(chat, PLAYERS[0], f"/new {game_id}"))
        for user in PLAYERS[1:]:
            await table.handle(inbound(chat, user, "/join"))
        await table.handle(inbound(chat, PLAYERS[0], "/start"))
    return chats


async def run(
    games: int, moves: int, concurrency: int, game_id: str, seed: int, durable: bool = False
) -> int:
    rnd = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(str(Path(tmp) / "bench.sqlite3"))
        found = discover_games()
        table = Table(
            store,
            games={game_id: found[game_id]},
            render=False,
            seeder=lambda: rnd.randrange(1 << 62),
            durable=("telegram",) if durable else (),
        )
        game = table.games[game_id]
        chats = await setup(table, games, game_id, durable)
        idle = list(chats)
        latencies: list[float] = []
        refused = 0
        remaining = moves

        async def worker() -> None:
            nonlocal remaining, refused
            while remaining > 0:
                remaining -= 1
                chat = idle.pop(rnd.randrange(len(idle)))
                try:
                    row = await store.open_game(chat)
                    if row is None or row.state_json is None:
                        continue  # the game ended: it stays out of the idle list
                    state = json.loads(row.state_json)
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

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
        await store.close()
    latencies.sort()
    n = len(latencies)
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[min(n - 1, int(n * 0.99))] * 1000
    rate = n / elapsed
    print(
        f"{game_id}: {n} moves in {elapsed:.2f} s over {games} games with {concurrency} "
        f"concurrent senders; {refused} refused; mean {statistics.fmean(latencies) * 1000:.2f} "
        f"ms, max {latencies[-1] * 1000:.1f} ms"
    )
    print(f"table: {games} games, {rate:.0f} moves/s, p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    return 0 if refused == 0 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--game", default="powergrid")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--durable", action="store_true", help="Telegram chats, outbox rows")
    args = parser.parse_args()
    return asyncio.run(
        run(args.games, args.moves, args.concurrency, args.game, args.seed, args.durable)
    )


if __name__ == "__main__":
    raise SystemExit(main())
