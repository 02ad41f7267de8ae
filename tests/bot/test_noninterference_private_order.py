"""A standing order sent privately leaves the group exactly as it was (issue 20, PG-O).

Two tables in two stores, started alike. On one, bob sends standing orders in his private
chat with the bot; on the other he sends nothing. The same public moves follow. The group
must receive the same bytes on both: every post, its buttons (labels and payloads), its
mentions, and the reminders at the deadline. The group's buttons posted before the order stay
valid after it (a press plays its move), and the order itself posts nothing to the group.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.messages import Outbound
from bot.scheduler import Scheduler
from bot.store import Store
from bot.table import Table
from engine.core import Rng
from engine.core.rng import new_rng_state
from engine.powergrid import GAME
from tests.bot.helpers import Chat, FakeClock, present
from tests.bot.pgdrive import command_for, reads_back

GROUP = "local:g"
ORDERS = ("/power auto", "/buy auto limit=30")


def group_bytes(outs: list[Outbound]) -> list[Any]:
    """Everything of these messages a member of the group receives, as sent."""
    return [
        (
            o.chat_key,
            o.text,
            o.png,
            [[(b.label, b.payload) for b in row] for row in o.buttons],
            sorted(o.mentions),
            o.sender_only,
            o.silent,
            o.lang,
        )
        for o in outs
        if o.chat_key == GROUP and o.private_to is None
    ]


async def _play(root: Path, orders: tuple[str, ...], press_old_button: bool) -> list[Any]:
    clock = FakeClock()
    store = await Store.open(str(root / "db.sqlite3"), clock=clock)
    pushed: list[Outbound] = []

    async def send(out: Outbound) -> None:
        pushed.append(out)

    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False, seeder=lambda: 5)
    table.register_sender("local", send)
    chat = Chat(table, chat_key=GROUP)
    seen: list[Any] = []
    try:
        await chat.say("alice", "/new powergrid regions=random hidden_money=yes")
        await chat.say("alice", "/settings deadline=10m")
        for name in ("bob", "carol"):
            await chat.say(name, "/join")
        started = await chat.say("alice", "/start")
        first = [b.payload for o in started for row in o.buttons for b in row]
        assert first, "the first prompt has buttons"
        row = await store.open_game(GROUP)
        assert row is not None
        sched = Scheduler(table, clock=clock)
        await sched.run_due()
        due_before = await store.reminder(row.id)
        for text in orders:  # bob, in his private chat with the bot
            dm = replace(Chat(table, chat_key="local:dm-bob").inbound("bob", text=text))
            answer = await table.handle(replace(dm, is_private=True))
            assert answer and all(o.chat_key != GROUP or o.private_to for o in answer), answer
        assert group_bytes(pushed) == [], "a private order posts nothing to the group"
        due_after = await store.reminder(row.id)
        assert (due_before and due_before.due_at) == (due_after and due_after.due_at)
        rng = Rng(new_rng_state(3))
        if press_old_button:  # a button of the prompt before the order still plays its move
            state = json.loads(present(present(await store.game(row.id)).state_json))
            player = GAME.current_players(state)[0]
            outs = await chat.press(player, first[0])
            seen += group_bytes(outs)
            assert all(o.toast is None for o in outs), "the button went stale"
        for _ in range(6):
            fresh = await store.game(row.id)
            assert fresh is not None and fresh.state_json is not None
            state = json.loads(fresh.state_json)
            if state["phase"] != "auction":
                break
            player = GAME.current_players(state)[0]
            action = GAME.bots["heuristic"](json.loads(fresh.state_json), player, rng)
            text = command_for(action)
            if reads_back(GAME, state, player, text, action):
                seen += group_bytes(await chat.say(player, text))
            else:
                seen += group_bytes(await table.act(chat.inbound(player), action))
            for asker in ("alice", "bob"):
                seen += group_bytes(await chat.say(asker, "/status"))
        seen += group_bytes(pushed)
        pushed.clear()
        clock.advance(700)
        await sched.run_due()
        seen += group_bytes(pushed)
    finally:
        await store.close()
    return seen


@pytest.mark.parametrize("press_old_button", [False, True])
async def test_pg_o_a_private_order_leaves_the_groups_bytes_and_buttons_alone(
    tmp_path: Path, press_old_button: bool
) -> None:
    (tmp_path / "with").mkdir()
    (tmp_path / "without").mkdir()
    with_orders = await _play(tmp_path / "with", ORDERS, press_old_button)
    without = await _play(tmp_path / "without", (), press_old_button)
    assert len(with_orders) > 10
    assert with_orders == without


async def test_pg_o_log_asked_by_the_order_holder_shows_the_group_only_the_tables_page(
    tmp_path: Path,
) -> None:
    """bob's /log in the group: the group reads the table's page (as alice's /log shows it);
    his own order's line comes to him alone."""
    store = await Store.open(str(tmp_path / "db.sqlite3"), clock=FakeClock())
    try:
        table = Table(store, games={"powergrid": GAME}, render=False, seeder=lambda: 5)
        chat = Chat(table, chat_key=GROUP)
        await chat.say("alice", "/new powergrid hidden_money=yes")
        for name in ("bob", "carol"):
            await chat.say(name, "/join")
        await chat.say("alice", "/start")
        await chat.say("bob", "/buy auto limit=30")  # a standing order, typed in the group
        by_bob = await chat.say("bob", "/log")
        by_alice = await chat.say("alice", "/log")
        assert group_bytes(by_bob) == group_bytes(by_alice)
        public = "\n".join(o.text for o in by_bob if o.private_to is None)
        assert "standing order" not in public
        mine = [o for o in by_bob if o.private_to == "local:bob"]
        # his own line says which order, in the second person (found playing, 2026-12-03)
        line = "bob: Your standing order: buy fuel for one run automatically, up to 30 E."
        assert mine and line in mine[0].text
    finally:
        await store.close()


async def test_board_refusals_go_to_the_asker_alone(tmp_path: Path) -> None:
    store = await Store.open(str(tmp_path / "db.sqlite3"), clock=FakeClock())
    try:
        table = Table(store, games={"powergrid": GAME}, render=False, seeder=lambda: 5)
        chat = Chat(table, chat_key=GROUP)
        outs = await chat.say("alice", "/board")  # no game here
        assert outs and all(o.sender_only for o in outs)
        await chat.say("alice", "/new powergrid")
        outs = await chat.say("bob", "/board")  # not started
        assert outs and all(o.sender_only for o in outs)
    finally:
        await store.close()
