"""A bot worker process for the PostgreSQL concurrency tests (tests/bot/test_store_pg_workers.py).

    python -m tests.bot.pg_worker moves URL GAME_PK ID... [--stall ID]
    python -m tests.bot.pg_worker reminders URL NOW
    python -m tests.bot.pg_worker table URL CHAT_KEY USER:N:UPDATE_ID... [--stall UPDATE_ID]

`moves` sends every ID as one move at the same time (one platform update each, inbound key
("test", ID)); each move holds the game (`game_lock`), reads it, adds the ID to the state and
commits with the version check, as the table does. With `--stall ID` the worker stops inside
that move (lock held, state read, nothing committed), says "stalled" and waits to be killed.
`reminders` leases due turns and claims each, as a scheduler would, until none is due.
`table` sends every move as a chat command `/take N` by USER through a real `Table` (the
move pipeline with `store.game_lock`) over the `Crowd` game, all at the same time; with
`--stall` the move of that update stops inside the game's lock, after the state is read.
They open the store, print "ready" and wait for a line on stdin before they start (the test
starts every worker at once), then print one JSON line with what they did.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import Counter
from typing import Any

from bot.messages import Inbound
from bot.store import LogEntry
from bot.store_pg import PgStore
from bot.table import Table
from tests.bot.chatgame import ChatDicePile


class Crowd(ChatDicePile):
    """The dice pile where everybody may take at any time and the pile never runs out (no
    die either): every move of the test is legal whatever order they land in."""

    def setup(self, players: list[str], options: dict[str, str], seed: int) -> dict[str, Any]:
        state = super().setup(players, options, seed)
        state["pile"] = 1_000_000
        return state

    def current_players(self, state: dict[str, Any]) -> list[str]:
        return list(state["players"])

    def apply(
        self, state: dict[str, Any], player: str, action: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        take = int(action["take"])
        state["pile"] -= take
        return state, [{"type": "took", "player": player, "n": take}]


def crowd_table(store: PgStore) -> Table:
    return Table(store, games={"dicepile": Crowd()}, render=False, seeder=lambda: 7)


async def ready() -> None:
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)


async def moves(url: str, pk: int, ids: list[str], stall: str | None) -> dict[str, object]:
    store = await PgStore.open(url, max_size=4)
    await ready()
    outcomes: Counter[str] = Counter()

    async def one(move_id: str) -> None:
        async with store.game_lock(pk):
            row = await store.game(pk)
            assert row is not None and row.state_json is not None
            state = json.loads(row.state_json)
            state["ids"].append(move_id)
            if move_id == stall:
                print("stalled", flush=True)
                await asyncio.sleep(3600)
            entry = LogEntry("test:1", "Ann", json.dumps({"id": move_id}), "[]")
            result = await store.commit_moves(
                pk,
                row.version,
                [entry],
                json.dumps(state),
                over=False,
                due=None,
                inbound=("test", move_id),
            )
            outcomes[result.outcome.value] += 1

    await asyncio.gather(*(one(i) for i in ids))
    await store.close()
    return {"outcomes": dict(outcomes)}


async def table_moves(
    url: str, chat_key: str, moves: list[str], stall: str | None
) -> dict[str, object]:
    store = await PgStore.open(url, max_size=4)
    table = crowd_table(store)
    await ready()
    answers: Counter[str] = Counter()
    if stall is not None:
        real = store.commit_moves

        async def stalled(*args: Any, **kw: Any) -> Any:
            if kw.get("inbound") == ("local", stall):
                print("stalled", flush=True)
                await asyncio.sleep(3600)
            return await real(*args, **kw)

        store.commit_moves = stalled  # type: ignore[method-assign]

    async def one(move: str) -> None:
        user, n, update_id = move.split(":")
        outs = await table.handle(
            Inbound(
                "local", chat_key, f"local:{user}", user, update_id=update_id, text=f"/take {n}"
            )
        )
        said = " ".join(o.text for o in outs)
        answers["took" if f"{user} takes {n}." in said else said or "nothing"] += 1

    await asyncio.gather(*(one(m) for m in moves))
    await store.close()
    return {"answers": dict(answers)}


async def reminders(url: str, now: float) -> dict[str, object]:
    store = await PgStore.open(url, max_size=2)
    await ready()
    fired: list[int] = []
    lost = 0
    while True:
        plans = await store.lease_due_turns(now, limit=1)
        if not plans:
            if not await store.due_turns(now):
                break
            await asyncio.sleep(0.01)  # leased by another worker right now
            continue
        for plan in plans:
            await asyncio.sleep(0.02)  # the reminder is being sent
            if await store.claim_turn(plan, plan.due, None):
                fired.append(plan.game_id)
            else:
                lost += 1
    await store.close()
    return {"fired": fired, "lost": lost}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["moves", "reminders", "table"])
    parser.add_argument("url")
    parser.add_argument("arg")
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--stall", default=None)
    args = parser.parse_args()
    if args.mode == "moves":
        out = asyncio.run(moves(args.url, int(args.arg), args.ids, args.stall))
    elif args.mode == "table":
        out = asyncio.run(table_moves(args.url, args.arg, args.ids, args.stall))
    else:
        out = asyncio.run(reminders(args.url, float(args.arg)))
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
