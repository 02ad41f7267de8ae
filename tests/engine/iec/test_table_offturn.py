"""IEC standing orders through the table service: accepted off turn (the game's `anytime`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.store import Store
from bot.table import Table
from engine.iec import GAME
from tests.bot.helpers import Chat, FakeClock, joined


async def _started(tmp_path: Path) -> tuple[Store, Chat, dict[str, Any], str]:
    """A started two-company table taken one company at a time (rules version 1), its state
    and the company not asked now."""
    clock = FakeClock()
    store = await Store.open(str(tmp_path / "t.sqlite3"), clock=clock)
    chat = Chat(Table(store, games={"iec": GAME}, clock=clock, seeder=lambda: 7))
    await chat.say("alice", "/new iec rules_version=1")  # one company at a time
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    row = await store.open_game(chat.chat_key)
    assert row is not None and row.state_json is not None
    state = json.loads(row.state_json)
    idle = next(p for p in ("alice", "bob") if p not in GAME.current_players(state))
    return store, chat, state, idle


async def test_iec_s10_5_table_accepts_standing_orders_off_turn(tmp_path: Path) -> None:
    store, chat, state, idle = await _started(tmp_path)
    try:
        outs = await chat.say(idle, "/mix BC AB")
        assert "Not your turn" not in joined(outs)
        outs = await chat.say(idle, "/use 7 off")  # a private choice; he has no such tech
        assert "Not your turn" not in joined(outs)
        row = await store.open_game(chat.chat_key)
        assert row is not None and row.state_json is not None
        after = json.loads(row.state_json)
        assert after["players"][idle]["orders"]["mix"] == ["BC", "AB"]
        assert (after["phase"], after["actor"]) == (state["phase"], state["actor"])
        outs = await chat.say(idle, "/done")  # a phase action still waits for his turn
        assert "Not your turn" in joined(outs)
    finally:
        await store.close()


async def test_the_technology_list_answers_off_turn(tmp_path: Path) -> None:
    """`/tech` without an argument only lists the technologies: refused off turn with "Not
    your turn — waiting for ..." in the phases taken one company at a time, while it answered
    in phase 5, where everybody acts at once. Now it answers any seated player at any time;
    `/tech N` (a phase 14 choice, IEC-24) still waits for his turn."""
    store, chat, state, idle = await _started(tmp_path)
    try:
        outs = await chat.say(idle, "/tech")
        assert "Not your turn" not in joined(outs)
        assert "Super Computer" in joined(outs)
        outs = await chat.say(idle, "/tech 8")
        assert "Not your turn" in joined(outs)
        row = await store.open_game(chat.chat_key)
        assert row is not None and row.state_json is not None
        after = json.loads(row.state_json)
        assert (after["phase"], after["actor"]) == (state["phase"], state["actor"])
    finally:
        await store.close()


def test_every_read_only_move_command_is_let_through_off_turn() -> None:
    """A move command that may only answer (a Reply, no action) must be parsed off turn: the
    table refuses any other move command from an idle player before parsing it (engine/core
    protocol.py, `off_turn_commands`). /status and /techs are info commands already."""
    from engine.core import IllegalAction, Reply
    from tests.engine.iec.helpers import new

    state = new(2, rules_version="1")
    idle = next(p for p in state["players"] if p not in GAME.current_players(state))
    declared = GAME.capabilities.off_turn_commands
    answering = []
    for spec in GAME.commands:
        if spec.kind != "move":
            continue
        try:
            out = GAME.parse(state, idle, spec.name, [])
        except IllegalAction:  # a command that needs arguments
            continue
        if isinstance(out, Reply):
            answering.append(spec.name)
    assert answering == ["power", "tech"]
    assert set(answering) <= declared
