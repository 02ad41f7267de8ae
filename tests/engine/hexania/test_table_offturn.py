"""Hexania's read-only commands through the table service: answered off turn (only moves
wait for the player's turn)."""

from __future__ import annotations

import json
from pathlib import Path

from bot.store import Store
from bot.table import Table
from engine.hexania import GAME
from tests.bot.helpers import Chat, FakeClock, joined


async def test_price_and_text_board_answer_a_player_who_waits(tmp_path: Path) -> None:
    """/cost (HEX-18) and /board text (HEX-G-6) only answer: the player not to move gets
    them; a move from him still waits for his turn."""
    clock = FakeClock()
    store = await Store.open(str(tmp_path / "t.sqlite3"), clock=clock)
    try:
        chat = Chat(Table(store, games={"hexania": GAME}, clock=clock, seeder=lambda: 7))
        await chat.say("alice", "/new hexania")
        await chat.say("bob", "/join")
        await chat.say("alice", "/start")
        row = await store.open_game(chat.chat_key)
        assert row is not None and row.state_json is not None
        current = GAME.current_players(json.loads(row.state_json))
        idle = next(p for p in ("alice", "bob") if p not in current)
        outs = await chat.say(idle, "/cost spawn L12")
        assert "Not your turn" not in joined(outs) and "HEX-3" in joined(outs)
        outs = await chat.say(idle, "/board text")
        assert "Not your turn" not in joined(outs) and "L . . ." in joined(outs)
        outs = await chat.say(idle, "/end")
        assert "Not your turn" in joined(outs)
    finally:
        await store.close()
