"""A table with nobody left to play waits (found through Telegram, 2026-12-05: Ann alone with
one /addbot bot went `/away 30d` under policy bot, and the bots played all 237 moves of the
game at once, 13 pictures and the end card within a second): the expiry policy hands a seat
to a bot, or plays for someone away, only while another seat is played by a person."""

from __future__ import annotations

from bot.scheduler import Scheduler
from tests.bot.helpers import Chat, FakeClock, joined, present
from tests.bot.test_reminders import Outbox

H = 3600.0


async def alone_with_a_bot(chat: Chat, policy: str = "bot") -> int:
    await chat.say("alice", "/new dicepile start=20")
    await chat.say("alice", "/addbot greedy")
    await chat.say("alice", f"/settings policy={policy}")
    await chat.say("alice", "/start")
    return present(await chat.table.store.open_game(chat.chat_key)).id


async def test_away_with_only_bots_left_the_game_waits_for_the_player(
    chat: Chat, clock: FakeClock
) -> None:
    outbox = Outbox(chat.table)
    sched = Scheduler(chat.table, clock=clock)
    store = chat.table.store
    pk = await alone_with_a_bot(chat)
    played = len(await store.actions(pk))
    await chat.say("alice", "/away 30d")
    outbox.take()
    await sched.run_due()
    assert len(await store.actions(pk)) == played  # no move played for her
    assert not {s.display_name: s.is_bot for s in await store.seats(pk)}["alice"]
    notice = joined(outbox.take())
    assert "the game waits for alice instead of playing itself out" in notice
    clock.advance(20 * H)
    await sched.run_due()
    clock.advance(10 * H)  # past the deadline too: still nothing, and said once
    await sched.run_due()
    assert outbox.take() == [] and len(await store.actions(pk)) == played
    assert "Welcome back" in await chat.text("alice", "/back")
    await chat.say("alice", "/take 1")  # she plays on, and the bot answers her
    assert len(await store.actions(pk)) == played + 2


async def test_a_deadline_run_out_with_only_bots_left_is_reminded_not_played(
    chat: Chat, clock: FakeClock
) -> None:
    outbox = Outbox(chat.table)
    sched = Scheduler(chat.table, clock=clock)
    store = chat.table.store
    pk = await alone_with_a_bot(chat)
    played = len(await store.actions(pk))
    await sched.run_due()
    outbox.take()
    clock.advance(24 * H + 1)
    await sched.run_due()
    said = joined(outbox.take())
    assert "the game waits for alice" in said and "Time is up" in said
    assert len(await store.actions(pk)) == played
    assert not {s.display_name: s.is_bot for s in await store.seats(pk)}["alice"]
    clock.advance(24 * H)
    await sched.run_due()
    later = joined(outbox.take())
    assert "alice" in later and "waits for alice" not in later  # reminded; the notice once


async def test_under_skip_a_deadline_still_plays_the_default_move_alone_with_bots(
    chat: Chat, clock: FakeClock
) -> None:
    sched = Scheduler(chat.table, clock=clock)
    store = chat.table.store
    pk = await alone_with_a_bot(chat, "skip")
    played = len(await store.actions(pk))
    clock.advance(24 * H + 1)
    await sched.run_due()
    assert len(await store.actions(pk)) > played  # the deadline paces it: one move a day
