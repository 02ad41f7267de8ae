"""Standing orders through the table service: sent off turn in chat, kept across a restart."""

from __future__ import annotations

import json
from pathlib import Path

from bot.store import Store
from bot.table import Table
from engine.core import Rng
from engine.core.rng import new_rng_state
from engine.powergrid import GAME
from tests.bot.helpers import Chat, FakeClock, joined


async def open_auction(db_path: str, clock: FakeClock) -> tuple[Store, Chat]:
    store = await Store.open(db_path, clock=clock)
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False, seeder=lambda: 7)
    return store, Chat(table, chat_key="tg:-1002")


async def _state(store: Store, chat: Chat) -> dict:
    row = await store.open_game(chat.chat_key)
    assert row is not None and row.state_json is not None
    return json.loads(row.state_json)


async def test_orders_sent_off_turn_act_after_a_restart_and_stay_private(tmp_path: Path) -> None:
    db_path = str(tmp_path / "orders.sqlite3")
    clock = FakeClock()
    store, chat = await open_auction(db_path, clock)
    await chat.say("alice", "/new powergrid")
    await chat.say("bob", "/join")
    await chat.say("carol", "/join")
    await chat.say("alice", "/start")
    state = await _state(store, chat)
    waiting = [p for p in state["seats"] if p not in GAME.current_players(state)]
    assert waiting
    off = waiting[0]
    outs = await chat.say(off, "/power auto")  # not his turn: an order is still accepted
    text = joined(outs)
    assert "Not your turn" not in text and "standing order" in text
    outs = await chat.say(off, "/buy coal 1")  # an ordinary move off turn is still refused
    assert "Not your turn" in joined(outs)
    await store.close()

    store, chat = await open_auction(db_path, clock)  # the process restarts
    state = await _state(store, chat)
    assert state["orders"][off] == {"power_auto": {}}
    reply = await chat.say(off, "/orders")
    assert "power the most cities automatically" in joined(reply)
    assert reply and all(o.private_to is not None for o in reply)  # only the owner sees it
    rng = Rng(new_rng_state(1))
    for _ in range(200):  # play on by hand until the bureaucracy
        state = await _state(store, chat)
        if state["phase"] == "bureaucracy" or state["round"] > 1:
            break
        player = GAME.current_players(state)[0]
        action = GAME.bots["heuristic"](state, player, rng)
        await chat.table.act(chat.inbound(player), action)
    state = await _state(store, chat)
    assert state["phase"] == "bureaucracy"
    assert off not in GAME.current_players(state)  # his order declared for him
    assert state["players"][off]["done"]
    row = await store.open_game(chat.chat_key)
    assert row is not None
    actions = await store.actions(row.id)
    placed = [a for a in actions if a.action.get("type") == "order"]
    assert placed and placed[0].player == off
    await store.close()
