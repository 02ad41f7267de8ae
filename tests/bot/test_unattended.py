"""A table with nobody left to play waits (found through Telegram, 2026-12-05: Ann alone with
one /addbot bot went `/away 30d` under policy bot, and the bots played all 237 moves of the
game at once, 13 pictures and the end card within a second): the expiry policy hands a seat
to a bot, or plays for someone away, only while another seat is played by a person."""

from __future__ import annotations

from bot.scheduler import Scheduler
from tests.bot.helpers import Chat, FakeClock, Outbox, joined, present

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
    for _ in range(10):  # the scheduler looks again every minute or so
        await sched.run_due()
        clock.advance(61)
    # the deadline paces it: one move a day, the bot's answer, and her fresh deadline (it
    # played one a minute: asked again with the same list, she kept the expired deadline)
    assert len(await store.actions(pk)) == played + 2


async def voted_out(chat: Chat, clock: FakeClock, policy: str, away: bool = False) -> int:
    """alice and bob at a table, policy `policy`; bob lets it wait half a day and alice
    (`away`: gone /away meanwhile) votes him out: she is the only person left, with the bot
    playing bob's seat."""
    await chat.say("alice", "/new dicepile start=20")
    await chat.say("bob", "/join")
    await chat.say("alice", f"/settings policy={policy}")
    await chat.say("alice", "/start")
    pk = present(await chat.table.store.open_game(chat.chat_key)).id
    await chat.say("alice", "/take 1")
    if away:
        await chat.say("alice", "/away 30d")
    clock.advance(12 * H)
    assert "now plays bob's seat" in await chat.text("alice", "/vote replace bob")
    return pk


async def players(chat: Chat, pk: int) -> list[str]:
    return [a.player for a in await chat.table.store.actions(pk)]


async def test_after_voting_out_every_other_person_the_bots_answer_each_move_of_hers(
    chat: Chat, clock: FakeClock
) -> None:
    """/vote replace of the last other person: she still plays, so the bot plays bob's seat
    turn by turn as she moves (the chain stops at her turn), never the rest of the game."""
    sched = Scheduler(chat.table, clock=clock)
    pk = await voted_out(chat, clock, "skip")
    await sched.run_due()  # it was bob's turn: the bot takes it, and stops at hers
    assert await players(chat, pk) == ["alice", "bob"]
    for _ in range(3):
        clock.advance(20 * H)  # she takes her time, within her deadline each turn
        await sched.run_due()
        await chat.say("alice", "/take 1")
    assert await players(chat, pk) == ["alice", "bob"] * 4
    assert present(await chat.table.store.game(pk)).status == "active"


async def test_after_voting_out_every_other_person_her_silence_plays_a_move_a_deadline(
    chat: Chat, clock: FakeClock
) -> None:
    """Found reproducing /vote replace: left with bots, her turns all asked the same list
    of players, so the first turn's deadline never ended; once it had passed, policy skip
    played her default move at each look of the scheduler (every minute) and the bots
    answered: the rest of the game in a few minutes. The deadlines pace it: one a day."""
    sched = Scheduler(chat.table, clock=clock)
    pk = await voted_out(chat, clock, "skip")
    await sched.run_due()
    clock.advance(20 * H)
    await chat.say("alice", "/take 1")  # she plays on, 32 hours after her first ask
    clock.advance(24 * H + 1)  # then goes quiet for a day
    for _ in range(10):
        await sched.run_due()
        clock.advance(61)
    assert await players(chat, pk) == ["alice", "bob", "alice", "bob", "alice", "bob"]
    assert present(await chat.table.store.game(pk)).status == "active"
    clock.advance(24 * H)
    await sched.run_due()
    assert len(await players(chat, pk)) == 8  # the next day's


async def test_after_voting_out_every_other_person_her_absence_holds_the_game(
    chat: Chat, clock: FakeClock
) -> None:
    """Away after voting out the others (policy bot or skip), or voting them out while away
    (skip: under bot, a bot plays her seat while she is away, and she votes nobody out):
    nobody else plays here, so the game waits for her (`unattended`), the bot playing bob's
    seat only as she moves."""
    for policy, away_first in (("bot", False), ("skip", False), ("skip", True)):
        chat.chat_key = f"local:{policy}:{away_first}"
        outbox = Outbox(chat.table)
        sched = Scheduler(chat.table, clock=clock)
        said = ""
        pk = await voted_out(chat, clock, policy, away_first)
        if not away_first:
            await sched.run_due()
            said = await chat.text("alice", "/away 30d")
        for _ in range(5):
            clock.advance(12 * H)
            await sched.run_due()
        assert await players(chat, pk) == ["alice", "bob"], (policy, away_first)
        assert not {s.display_name: s.is_bot for s in await chat.table.store.seats(pk)}["alice"]
        assert "wait" in said + joined(outbox.take()), policy  # it says so
        await chat.say("alice", "/back")
        await chat.say("alice", "/take 1")
        assert await players(chat, pk) == ["alice", "bob"] * 2, policy
