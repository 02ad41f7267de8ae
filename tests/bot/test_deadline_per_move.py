"""The deadline is per move (`/settings deadline=4h`: "4 hours per move"): the one player asked
after his own move that ended a phase is asked a new decision, with a fresh deadline (a move
within his decision keeps its clock: tests/bot/test_turn_deadline.py). Found living simulated days
through Telegram (2026-12-05): Power Grid regions went Ann, Bob, Ann; Ann's last pick, 3 h 50 m
into that turn, asked her to open the auction (PG-20) with the region turn's deadline, and ten
minutes later "Ann ran out of time: the default move is played"."""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.table import Table
from tests.bot.helpers import Chat, FakeClock, present

pg = pytest.importorskip("engine.powergrid")
GAME = pg.GAME
DEADLINE = 4 * 3600.0


async def asked_alone(store: Store, pk: int) -> str | None:
    row = present(await store.reminder(pk))
    return row.players[0] if len(row.players) == 1 else None


async def test_a_player_asked_again_after_his_own_move_gets_a_fresh_deadline(
    store: Store, clock: FakeClock
) -> None:
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False, seeder=lambda: 11)
    chat = Chat(table, chat_key="tg:-100", platform="telegram")
    await chat.say("ann", "/new powergrid")
    await chat.say("ann", "/settings deadline=4h policy=skip")
    await chat.say("bob", "/join")
    await chat.say("ann", "/start")
    pk = present(await store.open_game(chat.chat_key)).id
    regions = iter(["NW", "NE", "W", "E", "SW", "SE"])
    seen_again = False
    for _ in range(3):  # two players choose three regions (PG-6, PG-8), then the auction (PG-20)
        player = present(await asked_alone(store, pk))
        clock.advance(DEADLINE - 600)  # he moves ten minutes before his deadline
        while True:
            outs = await chat.say(player, f"/region {next(regions)}")
            if not any("not in play" in o.text or "taken" in o.text for o in outs):
                break
        after = present(await store.reminder(pk))
        if after.players == [player]:  # his move asked him again: his last region
            seen_again = True
            assert after.turn_started_at == clock.now
            assert after.due_at == clock.now + DEADLINE, "the region turn's deadline kept"
    assert seen_again, "no player was asked again after his own move"
