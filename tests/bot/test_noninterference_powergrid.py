"""Noninterference through the table service (issue 20): Power Grid with hidden_money=yes.

Two tables, in two chats of one store, whose states differ only in what the observer (alice)
may not know: bob's money (hidden_money=yes, PG-22), bob's standing orders (private, PG-O) and
the order of the draw deck below its top cards (PG-4). The same public sequence of moves is
played on both. Everything alice receives must be identical: the group posts (prompts with
their buttons, event lines, sender-only replies, which Telegram shows in the group), her own
private messages, the answers to her /status, /plants, /orders and /log, the reminders
pushed at the deadline (to the group for a player who never wrote privately), and
`view`/`describe_turn` for her.

The rules reveal some of it; these are the allowed differences, and the comparison stops at
the first: a move made by bob's standing order (an event marked `by_order`) and a plant drawn
from the part of the deck that differs (the public plant market changes).
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot.messages import Outbound
from bot.scheduler import Scheduler
from bot.store import Store
from bot.table import Table
from engine.core import IllegalAction, Reply, Rng, canonical_json
from engine.core.rng import new_rng_state
from engine.powergrid import GAME
from tests.bot.helpers import Chat, FakeClock, present
from tests.bot.pgdrive import command_for, reads_back

OBS = "alice"
HOLDER = "bob"
PLAYERS = ["alice", "bob", "carol"]
ORDERS = ["/buy auto limit=30", "/power auto", "/buy coal 2", "/pass round"]
QUERIES = ["/status", "/plants", "/orders", "/log"]


def seen_by(outs: list[Outbound], chat_key: str, user_key: str) -> list[Any]:
    """What the observer receives of these messages: group posts (sender-only replies too: on
    Telegram they are ordinary replies in the group) and what is addressed to her."""
    got = []
    for o in outs:
        if o.private_to is not None and o.private_to != user_key:
            continue
        buttons = [[(b.label, b.payload.split(":", 2)[-1]) for b in row] for row in o.buttons]
        got.append((o.private_to, o.text.replace(chat_key, "<chat>"), o.png, buttons))
    return got


def public(state: dict[str, Any]) -> str:
    return json.dumps(GAME.view(state, None), sort_keys=True)


def by_order(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """An allowed reveal happened: a standing order acted, or the plant market changed by a
    draw from the differing deck."""
    new = [e for e in after["log"] if e not in before["log"]]
    return any(e.get("by_order") for e in new)


async def _play(data: st.DataObject, root: Path) -> None:
    draw = data.draw
    clock = FakeClock()
    store = await Store.open(str(root / "db.sqlite3"), clock=clock)
    pushed: list[Outbound] = []

    async def send(out: Outbound) -> None:
        pushed.append(out)

    seed = draw(st.integers(0, 2**16), label="seed")
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False, seeder=lambda: seed)
    table.register_sender("local", send)
    chats = [Chat(table, chat_key="local:a"), Chat(table, chat_key="local:b")]
    pks = []
    for chat in chats:
        await chat.say("alice", "/new powergrid hidden_money=yes")
        await chat.say("alice", "/settings deadline=10m")
        for name in PLAYERS[1:]:
            await chat.say(name, "/join")
        await chat.say("alice", "/start")
        row = await store.open_game(chat.chat_key)
        assert row is not None
        pks.append(row.id)
    # The hidden differences, written into both stored states.
    row = await store.game(pks[0])
    assert row is not None and row.state_json is not None
    base = json.loads(row.state_json)
    states = [json.loads(row.state_json), json.loads(row.state_json)]
    keep = draw(st.integers(3, 6), label="deck cards in common")
    for i, state in enumerate(states):
        state["players"][HOLDER]["money"] = draw(st.sampled_from([30, 50, 80, 150]))
        tail = state["deck"][keep:]
        random.Random(draw(st.integers(0, 999))).shuffle(tail)
        state["deck"][keep:] = tail
        for text in draw(st.lists(st.sampled_from(ORDERS), max_size=2, unique=True)):
            words = text.lstrip("/").split()
            try:
                action = GAME.parse(state, HOLDER, words[0], words[1:])
                if isinstance(action, Reply | list):
                    continue
                trial, _ = GAME.apply(json.loads(canonical_json(state)), HOLDER, action)
            except IllegalAction:
                continue
            if public(trial) == public(state):  # an order that has not acted yet
                states[i] = state = trial
    with sqlite3.connect(root / "db.sqlite3") as db:
        for pk, state in zip(pks, states, strict=True):
            db.execute("UPDATE games SET state_json = ? WHERE id = ?", (canonical_json(state), pk))
    assert public(states[0]) == public(states[1]) == public(base)
    await store.close()
    store = await Store.open(str(root / "db.sqlite3"), clock=clock)
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False, seeder=lambda: seed)
    table.register_sender("local", send)
    chats = [Chat(table, chat_key="local:a"), Chat(table, chat_key="local:b")]
    sched = Scheduler(table, clock=clock)
    await sched.run_due()
    chooser = Rng(new_rng_state(seed))
    key = f"local:{OBS}"
    try:
        for _step in range(draw(st.integers(2, 8), label="moves")):
            rows = [await store.game(pk) for pk in pks]
            before = [json.loads(r.state_json) for r in rows if r is not None and r.state_json]
            if GAME.is_over(before[0]):
                break
            # What alice reads before the move: her view, her turn text, her queries.
            assert GAME.view(before[0], OBS) == GAME.view(before[1], OBS)
            t = GAME.describe_turn(before[0], OBS, _en())
            assert t == GAME.describe_turn(before[1], OBS, _en())
            assert GAME.current_players(before[0]) == GAME.current_players(before[1])
            # A query by anyone (bob's answers in the group are alice's to read too).
            asker = draw(st.sampled_from(PLAYERS), label="asker")
            query = draw(st.sampled_from(QUERIES), label="query")
            got = [seen_by(await c.say(asker, query), c.chat_key, key) for c in chats]
            assert got[0] == got[1], (asker, query)
            player = GAME.current_players(before[0])[0]
            action = GAME.bots["heuristic"](json.loads(canonical_json(before[0])), player, chooser)
            text = command_for(action)
            outs = []
            for chat, state in zip(chats, before, strict=True):
                if reads_back(GAME, state, player, text, action):
                    outs.append(await chat.say(player, text))
                else:
                    outs.append(await chat.table.act(chat.inbound(player), action))
            after = [json.loads(present(present(await store.game(pk)).state_json)) for pk in pks]
            if any(by_order(b, a) for b, a in zip(before, after, strict=True)):
                break  # allowed: bob's standing order acted (PG-O), the table sees its move
            if public(after[0]) != public(after[1]):
                # allowed only as a plant drawn from the differing deck (PG-4)
                assert after[0]["market"] != after[1]["market"], "public state diverged"
                break
            seen = [seen_by(o, c.chat_key, key) for o, c in zip(outs, chats, strict=True)]
            assert seen[0] == seen[1], text
        # Reminders and the deadline: pushed messages alice receives, per chat.
        pushed.clear()
        clock.advance(700)
        await sched.run_due()
        per_chat = [
            seen_by([o for o in pushed if o.chat_key == c.chat_key], c.chat_key, key) for c in chats
        ]
        assert per_chat[0] == per_chat[1]
    finally:
        await store.close()


def _en() -> Any:
    from engine.core import EnglishTranslator

    return EnglishTranslator()


# No shrinking (as the engine-level tests): a table example costs ~0.3 s, and shrinking a
# failure would outlast the test timeout; the first failing example is reported as found.
@settings(
    max_examples=200,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_pg22_hidden_money_orders_and_deck_do_not_reach_alice(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_play(data, Path(tmp)))
