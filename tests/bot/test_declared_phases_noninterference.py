"""Noninterference through the table service for the phases declared at once (issue 20):
IEC rules version 2 (engine/iec/together.py) with a secret technology.

Two tables in two chats of one store hold states that differ only in bob's secret technology
(Fast Transmission, IEC-TECH-8, in one; Missile Salvo, idle in phase 10, in the other: as
many technologies). bob declares a transmission in each, then alice and bob ask /status.
Everything alice receives must be identical: the group posts (the prompt naming who is still
deciding, with every prompted player's buttons), sender-only replies (Telegram shows them in
the group), her own private messages (corrections 1.1, "No side channel through prompts").
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from bot.store import Store
from bot.table import Table
from engine.core import canonical_json
from engine.iec import GAME as IEC
from engine.iec import rules
from tests.bot.helpers import Chat, FakeClock
from tests.bot.test_noninterference_powergrid import seen_by
from tests.engine.iec.helpers import add, dice

State = dict[str, Any]
OBS, HOLDER = "alice", "bob"


def _phase10(state: State, tech: int) -> State:
    """bob: two transmitters fed by one storage with 2 BC and a secret `tech`; alice: one
    transmitter with 2 BC; phase 10 of rules version 2 just begun."""
    state["buildings"] = {}
    add(state, HOLDER, "reactor", "B7")
    add(state, OBS, "reactor", "W10")
    add(state, HOLDER, "transmitter", "G3")
    add(state, HOLDER, "transmitter", "G5")
    add(state, HOLDER, "storage", "E3", goods={"BC": 2})
    add(state, OBS, "transmitter", "R14")
    add(state, OBS, "storage", "T14", goods={"BC": 2})
    state["players"][HOLDER]["techs"] = [tech]
    state["players"][HOLDER]["revealed"] = []
    state["radiation"] = 8
    state["order"] = [HOLDER, OBS]
    state["phase_order"] = {str(ph): [HOLDER, OBS] for ph in range(3, 15)}
    state["phase"], state["phase_open"], state["actor"], state["done"] = 10, True, None, []
    state.pop("actors", None)
    state.pop("pending", None)
    rules.advance(state, [])
    assert IEC.current_players(state) == [HOLDER, OBS]
    return state


async def _play(root: Path) -> None:
    clock = FakeClock()

    async def open_table() -> tuple[Store, list[Chat]]:
        store = await Store.open(str(root / "db.sqlite3"), clock=clock)
        table = Table(store, games={"iec": IEC}, clock=clock, render=False, seeder=lambda: 3)

        async def send(_out: Any) -> None:
            return None

        table.register_sender("local", send)
        return store, [Chat(table, chat_key="local:a"), Chat(table, chat_key="local:b")]

    store, chats = await open_table()
    pks = []
    for chat in chats:
        await chat.say(OBS, "/new iec rules_version=2")
        await chat.say(HOLDER, "/join")
        await chat.say(OBS, "/start")
        row = await store.open_game(chat.chat_key)
        assert row is not None and row.state_json is not None
        pks.append(row.id)
        base = json.loads(row.state_json)
    states = [_phase10(json.loads(json.dumps(base)), tech) for tech in (8, 9)]
    await store.close()
    with sqlite3.connect(root / "db.sqlite3") as db:
        for pk, state in zip(pks, states, strict=True):
            db.execute("UPDATE games SET state_json = ? WHERE id = ?", (canonical_json(state), pk))
    store, chats = await open_table()
    key = f"local:{OBS}"
    try:
        for who, line in [
            (HOLDER, "/transmit G3"),
            (OBS, "/status"),
            (HOLDER, "/status"),
        ]:
            got = []
            for chat in chats:
                with dice(3, 6, 6, 6, 6, 6):  # the planning copies' bonus launch succeeds
                    got.append(seen_by(await chat.say(who, line), chat.chat_key, key))
            assert got[0] == got[1], (who, line)
        for pk in pks:
            row = await store.game(pk)
            assert row is not None and row.state_json is not None
            # bob may still declare G5, as far as the table knows, in both worlds.
            assert IEC.current_players(json.loads(row.state_json)) == [HOLDER, OBS]
    finally:
        await store.close()


def test_iec_tech_8_a_secret_technology_does_not_show_in_who_is_still_deciding() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_play(Path(tmp)))
