"""A player's private line about his own move comes before what the group reads of its
consequences (found play-testing, 2026-12-03: with the alternative rules' declared purchase,
ALT-10, the last buyer's "You plan to buy 4 coal ..." arrived after the group had read the
purchase his move completed, "ann buys 4 coal for 5 E").

On the terminal the group's part of a move sent privately is pushed, and the private lines
before its last message now go out with it, in order; where a sender loop delivers (Telegram),
the move's messages are queued in the outbox in the order of the run: the private line before
the picture the phase's end brings.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

from bot.messages import Outbound
from bot.store import Store
from bot.table import Table, discover_games
from engine.core import canonical_json
from tests.bot.helpers import Chat, FakeClock
from tests.bot.test_secret_in_chat import start, typed
from tests.engine.powergrid_alt.helpers import give_plant, set_phase

# ann's private line in the run of her /done that ends the phase: bob, who buys first (reverse
# player order, PG-31), leaves her 1 of the 4 coal she declared.
PLAN = "You wanted 4 coal onto plant 4"
BOUGHT = "ann buys 1 coal for"


def _at_purchase(state_json: str) -> str:
    """Round 2's declared purchase (ALT-10, rules version 2): ann and bob each own a coal plant;
    the market holds 5 coal; ann declares last."""
    state = json.loads(state_json)
    set_phase(state, "resources", order=["ann", "bob"])
    give_plant(state, "ann", 4, "Kiel")
    give_plant(state, "bob", 10, "Hamburg")
    state["rm"]["coal"] = 5
    return canonical_json(state)


def _patch(db: str, pk: int, state_json: str) -> None:
    with sqlite3.connect(db) as con:
        con.execute("UPDATE games SET state_json = ? WHERE id = ?", (state_json, pk))


async def test_alt10_on_the_terminal_the_plan_is_read_before_the_purchase(tmp_path: Path) -> None:
    db, clock = str(tmp_path / "db.sqlite3"), FakeClock()
    store = await Store.open(db, clock=clock)
    seen: list[Outbound] = []

    async def pushed(out: Outbound) -> None:
        seen.append(out)

    table = Table(store, games=discover_games(), clock=clock, render=False, seeder=lambda: 3)
    table.register_sender("local", pushed)
    try:
        chat = Chat(table)
        await chat.say("ann", "/new powergrid_alt rules_version=2")
        await chat.say("bob", "/join")
        await chat.say("ann", "/start")
        row = await store.open_game(chat.chat_key)
        assert row is not None and row.state_json is not None
        _patch(db, row.id, _at_purchase(row.state_json))
        moves = [("bob", "/buy coal 4"), ("bob", "/done"), ("ann", "/buy coal 4"), ("ann", "/done")]
        for user, line in moves:
            private = Chat(table, chat_key=f"local:dm-{user}")
            dm = replace(private.inbound(user, text=line), is_private=True)
            seen += await table.handle(dm)
    finally:
        await store.close()
    texts = [o.text for o in seen]
    plan = next(i for i, t in enumerate(texts) if t.startswith(PLAN))
    bought = next(i for i, t in enumerate(texts) if BOUGHT in t)
    assert seen[plan].private_to == "local:ann"
    assert plan < bought, texts


async def test_alt10_in_the_outbox_the_plan_is_queued_before_the_phases_picture(
    tmp_path: Path,
) -> None:
    db, clock = str(tmp_path / "db.sqlite3"), FakeClock()
    store = await Store.open(db, clock=clock)
    table = Table(
        store,
        games=discover_games(),
        clock=clock,
        render=True,
        durable=("telegram",),
        seeder=lambda: 3,
    )

    async def pushed(_out: Outbound) -> None:
        return None

    table.register_sender("telegram", pushed)
    try:
        pk = await start(table, "powergrid_alt rules_version=2", ["ann", "bob"])
        row = await store.game(pk)
        assert row is not None and row.state_json is not None
        _patch(db, pk, _at_purchase(row.state_json))
        for user, line in [("bob", "/buy coal 4"), ("bob", "/done"), ("ann", "/buy coal 4")]:
            await table.handle(typed(user, line, private=True))
        before = len(await store.outbox_due("telegram", clock() + 10**6))
        await table.handle(typed("ann", "/done", private=True))
        rows = (await store.outbox_due("telegram", clock() + 10**6))[before:]
    finally:
        await store.close()
    kinds = [
        "plan"
        if str(r.body.get("text", "")).startswith(PLAN)
        else "picture"
        if "picture" in r.body
        else "other"
        for r in rows
    ]
    assert "plan" in kinds and "picture" in kinds, kinds
    # the run's last picture is the phase's end; the plan comes before it
    assert kinds.index("plan") < len(kinds) - 1 - kinds[::-1].index("picture"), kinds
