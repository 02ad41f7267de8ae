"""Expiry policies on every Power Grid decision: remind leaves the game alone, skip plays the
default move, bot hands the seat to a bot; each of them advances the game correctly."""

from __future__ import annotations

import json

import pytest

from bot.messages import Outbound
from bot.scheduler import Scheduler
from bot.store import Store
from bot.table import Table
from engine.core import Rng, canonical_json
from engine.core.rng import new_rng_state
from tests.bot.helpers import Chat, FakeClock, joined, present

pg = pytest.importorskip("engine.powergrid")
GAME = pg.GAME
HUMANS = ["alice", "bob", "carol"]
DEADLINE = 600.0
WANTED = ("choose_plant", "bid", "discard", "buy", "build", "power")


def powered_cities(state: dict, player: str, action: dict) -> int:
    _, events = GAME.apply(json.loads(canonical_json(state)), player, action)
    return max(
        (e["cities"] for e in events if e["type"] == "powered" and e["player"] == player),
        default=-1,
    )


def check_default(want: str, state: dict, player: str, action: dict) -> None:
    """What the default move must be in each phase."""
    if want == "choose_plant":
        if state["round"] == 1:  # passing is not allowed: the cheapest plant at its number
            opens = [a for a in GAME.legal_actions(state, player) if a["type"] == "open"]
            assert action == min(opens, key=lambda a: a["bid"])
        else:
            assert action == {"type": "pass"}
    elif want == "bid":
        assert action == {"type": "pass"}
    elif want in ("buy", "build"):
        assert action == {"type": "done"}
    elif want == "discard":
        new = state["pending_discard"]["plant"]
        assert action == {
            "type": "discard",
            "plant": min(n for n in state["players"][player]["plants"] if n != new),
        }
    elif want == "power":
        best = max(
            powered_cities(state, player, a)
            for a in GAME.legal_actions(state, player)
            if a["type"] == "power"
        )
        assert action["type"] == "power" and powered_cities(state, player, action) == best


async def test_each_policy_on_each_power_grid_decision(db_path: str, clock: FakeClock) -> None:
    store = await Store.open(db_path, clock=clock)
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False, seeder=lambda: 11)
    box: list[Outbound] = []

    async def send(out: Outbound) -> None:
        box.append(out)

    table.register_sender("telegram", send)
    chat = Chat(table, chat_key="tg:-100", platform="telegram")
    await chat.say("alice", "/new powergrid")
    await chat.say("alice", "/settings deadline=10m reminders=off")
    for name in HUMANS[1:]:
        await chat.say(name, "/join")
    await chat.say("alice", "/start")
    pk = present(await store.open_game(chat.chat_key)).id
    sched = Scheduler(table, clock=clock)
    chooser = Rng(new_rng_state(5))
    done: set[tuple[str, str]] = set()
    for _ in range(4000):
        if len(done) == 3 * len(WANTED):
            break
        row = await store.game(pk)
        assert row is not None and row.status == "active", "the game ended too early"
        state = json.loads(present(row.state_json))
        want = pg.rules.expected(state)
        current = GAME.current_players(state)
        player = current[0]
        todo = [p for p in ("remind", "skip", "bot") if (want, p) not in done]
        # A bot for every seat of a simultaneous phase would play the game to its end:
        # under `bot`, wait until one player is left to power.
        if want in WANTED and todo and not (todo[0] == "bot" and len(current) > 1):
            policy = todo[0]
            box.clear()
            assert "Settings saved" in await chat.text("alice", f"/settings policy={policy}")
            await sched.run_due()  # planned; acts at once if this turn already expired
            if present(await store.game(pk)).version == row.version:
                clock.advance(DEADLINE)
                await sched.run_due()
            after = present(await store.game(pk))
            log = await store.actions(pk)
            if policy == "remind":
                assert after.version == row.version, want
                assert "Time is up" in joined(box) and f"@{player}" in joined(box)
            else:
                assert after.version > row.version, want
                mine = [a for a in log if a.version == row.version + 1]
                assert mine and mine[0].player in current
                if policy == "skip":
                    check_default(want, state, mine[0].player, mine[0].action)
                    assert "ran out of time: the default move is played." in joined(box)
                else:
                    assert "a bot (strong bot) plays the seat" in joined(box)
                    seats = {s.display_name: s for s in await store.seats(pk)}
                    assert seats[mine[0].player].is_bot
                    for name in HUMANS:
                        await chat.say(name, "/status")  # back at the table
                    assert not any(s.is_bot for s in await store.seats(pk))
            done.add((want, policy))
            if policy != "remind":
                continue
        action = GAME.bots["heuristic"](json.loads(present(row.state_json)), player, chooser)
        outs = await table.act(chat.inbound(player), action)
        assert outs, action
    assert done == {(w, p) for w in WANTED for p in ("remind", "skip", "bot")}
    await store.close()
