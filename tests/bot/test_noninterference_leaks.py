"""Regression tests for the leaks issue 20 lists (each one found by trying the bot as a user)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from bot.messages import Outbound
from bot.scheduler import Scheduler
from bot.store import Store
from bot.table import Table
from engine.core import EnglishTranslator
from engine.powergrid import GAME, commands, rules
from tests.bot.helpers import Chat, FakeClock, present

T = EnglishTranslator()


def group(outs: list[Outbound]) -> str:
    return "\n".join(o.text for o in outs if o.private_to is None)


@pytest.fixture
async def hidden(db_path: str, clock: FakeClock) -> AsyncIterator[tuple[Chat, list[Outbound]]]:
    store = await Store.open(db_path, clock=clock)
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False, seeder=lambda: 7)
    pushed: list[Outbound] = []

    async def send(out: Outbound) -> None:
        pushed.append(out)

    table.register_sender("local", send)
    chat = Chat(table, chat_key="local:g")
    await chat.say("alice", "/new powergrid regions=random hidden_money=yes")
    await chat.say("alice", "/settings deadline=10m")
    for name in ("bob", "carol"):
        await chat.say(name, "/join")
    await chat.say("alice", "/start")
    yield chat, pushed
    await store.close()


async def test_pg22_status_keeps_the_askers_money_and_orders_out_of_the_group(
    hidden: tuple[Chat, list[Outbound]],
) -> None:
    chat, _ = hidden
    outs = await chat.say("alice", "/status")
    assert "You have" not in group(outs) and "50 E" not in group(outs)
    mine = [o for o in outs if o.private_to == "local:alice"]
    assert mine and "You have 50 E" in mine[0].text


async def test_pg22_plants_shows_nobodys_money_publicly(
    hidden: tuple[Chat, list[Outbound]],
) -> None:
    chat, _ = hidden
    outs = await chat.say("alice", "/plants")
    assert "alice (?" in group(outs) and "50 E" not in group(outs)


async def test_pg22_a_reminder_in_the_group_tells_no_money(
    hidden: tuple[Chat, list[Outbound]], clock: FakeClock
) -> None:
    chat, pushed = hidden
    sched = Scheduler(chat.table, clock=clock)
    await sched.run_due()
    clock.advance(700)
    await sched.run_due()
    to_group = [o for o in pushed if o.private_to is None]
    assert to_group, "the player never wrote privately: the reminder goes to the group"
    assert not any("You have" in o.text or " E," in o.text for o in to_group)


async def test_pg22_maxbid_off_turn_tells_the_group_nothing(
    hidden: tuple[Chat, list[Outbound]],
) -> None:
    chat, _ = hidden
    row = await chat.table.store.open_game(chat.chat_key)
    assert row is not None and row.state_json is not None
    first = GAME.current_players(json.loads(row.state_json))[0]
    await chat.say(first, "/bid 4")
    state = json.loads(present(present(await chat.table.store.game(row.id)).state_json))
    waiting = next(p for p in ("alice", "bob", "carol") if p not in GAME.current_players(state))
    waiting = (
        waiting
        if waiting != first
        else next(
            p for p in ("alice", "bob", "carol") if p not in (first, *GAME.current_players(state))
        )
    )
    outs = await chat.say(waiting, "/maxbid 25")
    assert "standing order" not in group(outs) and "25" not in group(outs)
    assert any(o.private_to == f"local:{waiting}" for o in outs)


async def test_games_lists_the_askers_games_to_them_alone(
    hidden: tuple[Chat, list[Outbound]],
) -> None:
    chat, _ = hidden
    outs = await chat.say("bob", "/games")
    assert outs and all(o.private_to == "local:bob" for o in outs)
    outs = await chat.say("dave", "/games")
    assert outs and all(o.private_to == "local:dave" for o in outs)


async def test_table_refusals_go_to_the_sender_only(db_path: str, clock: FakeClock) -> None:
    store = await Store.open(db_path, clock=clock)
    chat = Chat(Table(store, games={"powergrid": GAME}, clock=clock, render=False))
    await chat.say("alice", "/new powergrid")
    await chat.say("bob", "/join")
    for user, text in (("bob", "/join"), ("bob", "/start"), ("carol", "/leave")):
        outs = await chat.say(user, text)
        assert outs and all(o.sender_only for o in outs), (text, outs)
    await store.close()


def test_pg22_buttons_do_not_depend_on_hidden_money() -> None:
    state = GAME.setup(["a", "b", "c"], {"hidden_money": "yes"}, 3)
    while rules.expected(state) != "choose_plant":
        p = GAME.current_players(state)[0]
        state, _ = GAME.apply(state, p, GAME.legal_actions(state, p)[0])
    p = GAME.current_players(state)[0]
    poor = json.loads(json.dumps(state))
    poor["players"][p]["money"] = 3
    assert GAME.buttons(state, p, T) == GAME.buttons(poor, p, T)


def test_pg_o_standing_order_tag_only_on_the_players_own_move() -> None:
    phase = {"type": "phase_started", "phase": "buy", "round": 1, "by_order": True}
    assert "standing order" not in (commands.describe_event({}, phase, T) or "")
    bid = {"type": "bid", "player": "b", "bid": 5, "round": 1, "by_order": True}
    line = commands.describe_event({}, bid, T)
    assert line == "b bids 5. (standing order)"


def test_pg_log_a_rivals_private_events_push_no_public_entry_out() -> None:
    log: list[dict[str, object]] = [{"type": "x", "n": i} for i in range(rules.LOG_SIZE)]
    for _ in range(3 * rules.LOG_SIZE):
        state = {"round": 1, "log": log}
        rules.emit(state, [], "order_placed", player="b", private=True)
    assert [e.get("n") for e in log if not e.get("private")] == list(range(rules.LOG_SIZE))
    assert sum(1 for e in log if e.get("private")) == rules.LOG_SIZE


async def test_games_never_shows_one_servers_games_in_another(
    hidden: tuple[Chat, list[Outbound]],
) -> None:
    """Issue 20: `/games` listed a user's games in every server to everyone present. Bob
    plays in two servers; asked in the second, the list (naming the first's game) goes to
    bob alone, and nobody else there, carol included, receives a line of it."""
    chat, _ = hidden
    other = Chat(chat.table, chat_key="local:other-server")
    await other.say("dave", "/new powergrid")
    await other.say("bob", "/join")
    outs = await other.say("bob", "/games")
    assert outs and all(o.private_to == "local:bob" for o in outs), outs
    assert "your move" in outs[0].text and "waiting for players" in outs[0].text
    assert not group(outs)
    theirs = await other.say("erin", "/games")  # present there, plays nowhere
    assert theirs and all(o.private_to == "local:erin" for o in theirs)
    assert "your move" not in theirs[0].text and "bob" not in theirs[0].text
