"""Concurrent commands on one game: one process, and two processes (tables) on one file."""

from __future__ import annotations

import asyncio
import json
import random

from bot.store import Store
from bot.store_protocol import Store as AnyStore
from bot.table import Table
from engine.core import canonical_json, replay
from engine.core.protocol import Game
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock, joined

PLAYERS = ["alice", "bob", "carol"]


async def setup_game(chat: Chat) -> int:
    await chat.say("alice", "/new dicepile start=20")
    await chat.say("bob", "/join")
    await chat.say("carol", "/join")
    await chat.say("alice", "/start")
    row = await chat.table.store.open_game(chat.chat_key)
    assert row is not None
    return row.id


async def check_log(store: AnyStore, pk: int, game: Game, applied: int) -> None:
    row = await store.game(pk)
    assert row is not None and row.state_json is not None
    actions = await store.actions(pk)
    assert len(actions) == applied  # every answered move is in the log, and nothing else
    assert [a.seq for a in actions] == list(range(1, applied + 1))
    assert [a.version for a in actions] == list(range(2, applied + 2))  # strictly +1
    assert row.version == applied + 1
    replayed = replay(
        game, PLAYERS, row.options, row.seed or 0, [(a.player, a.action) for a in actions]
    )
    assert canonical_json(replayed) == row.state_json


def moved(outs: list) -> bool:
    return " takes " in joined(outs)


async def test_fifty_concurrent_commands_on_one_game(chat: Chat) -> None:
    pk = await setup_game(chat)
    rnd = random.Random(5)
    commands = [(rnd.choice(PLAYERS), f"/take {rnd.randint(1, 4)}") for _ in range(50)]
    results = await asyncio.gather(*(chat.say(user, text) for user, text in commands))
    applied = sum(moved(outs) for outs in results)
    assert 0 < applied < 50
    for outs in results:
        text = joined(outs)
        assert moved(outs) or "Not your turn" in text or "(TOY-2)" in text or "over" in text
    await check_log(chat.table.store, pk, chat.table.games["dicepile"], applied)


async def test_two_tables_on_one_database_file(db_path: str, clock: FakeClock) -> None:
    game = ChatDicePile()
    stores = [await Store.open(db_path, clock=clock) for _ in range(2)]
    tables = [Table(s, games={"dicepile": game}, clock=clock, seeder=lambda: 3) for s in stores]
    chats = [Chat(t) for t in tables]
    pk = await setup_game(chats[0])
    applied = 0
    for _round in range(4):
        row = await stores[1].game(pk)
        assert row is not None
        if row.status != "active":
            break
        state = json.loads(row.state_json or "{}")
        who = state["players"][state["turn"]]
        # the player whose turn it is sends the same move to both processes at once (two
        # bot processes behind one webhook), plus noise from the others
        jobs = [chats[i % 2].say(who, "/take 1", update_id=f"r{_round}-{i}") for i in range(6)]
        jobs += [chats[i % 2].say(p, "/take 2") for i, p in enumerate(PLAYERS) if p != who]
        results = await asyncio.gather(*jobs)
        won = sum(moved(o) for o in results)
        applied += won
        for outs in results:
            text = joined(outs)
            assert moved(outs) or "Not your turn" in text or "moved on" in text or "over" in text
    assert applied >= 4
    await check_log(stores[0], pk, game, applied)
    for s in stores:
        await s.close()


async def test_same_update_on_two_tables_applies_once(db_path: str, clock: FakeClock) -> None:
    game = ChatDicePile()
    stores = [await Store.open(db_path, clock=clock) for _ in range(2)]
    chats = [Chat(Table(s, games={"dicepile": game}, clock=clock)) for s in stores]
    pk = await setup_game(chats[0])
    results = await asyncio.gather(
        *(chats[i % 2].say("alice", "/take 1", update_id="dup-1") for i in range(8))
    )
    assert sum(moved(o) for o in results) == 1
    assert sum(1 for o in results if o == []) >= 6
    assert len(await stores[0].actions(pk)) == 1
    for s in stores:
        await s.close()
