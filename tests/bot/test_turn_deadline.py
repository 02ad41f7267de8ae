"""A turn's deadline and reminders, as the move transaction writes them (bot/reminders.py):
a player asked again after others moved (the bots answering him, a forced pass) starts a new
turn, with a fresh deadline and reminder schedule; one still deciding in the turn he is in (a
move that leaves him asked, another of several players acting) keeps its running clock, as
the time bank counts a turn (bot/clock.py). Found: alone with a bot, a player who moved 20
hours into his turn was asked again with 4 hours left, the 90 % reminder and the expiry
policy (a default move) landing hours after he had just played."""

from __future__ import annotations

from bot.scheduler import Scheduler
from bot.store import Store
from tests.bot.helpers import Chat, FakeClock, Outbox, joined, present
from tests.bot.test_quiet_table import quiet_table
from tests.bot.test_unattended import alone_with_a_bot

H = 3600.0


async def test_a_player_asked_again_after_the_bots_moved_gets_a_fresh_deadline(
    chat: Chat, clock: FakeClock
) -> None:
    outbox = Outbox(chat.table)
    sched = Scheduler(chat.table, clock=clock)
    store = chat.table.store
    pk = await alone_with_a_bot(chat, "skip")
    started = clock.now
    await sched.run_due()
    clock.advance(20 * H)
    await sched.run_due()  # the 50 % reminder, 20 hours into her turn
    assert "4 hours left" in joined(outbox.take())
    moved = clock.now
    await chat.say("alice", "/take 1")  # the bot answers: her turn again
    assert [a.player for a in await store.actions(pk)] == ["alice", "Bot"]
    turn = present(await store.reminder(pk))
    assert (turn.players, turn.turn_started_at, turn.due_at) == (["alice"], moved, moved + 24 * H)
    assert turn.attempt == 0 and started + 24 * H < turn.due_at
    assert "Deadline: in 1 day." in await chat.text("alice", "/status")  # not "in 4 hours"
    clock.advance(2 * H)  # past the 90 % point of the turn she answered
    await sched.run_due()
    assert outbox.take() == []
    clock.advance(3 * H)  # past its deadline
    await sched.run_due()
    assert outbox.take() == [] and len(await store.actions(pk)) == 2  # nothing played for her
    clock.advance(7 * H)  # half her new turn
    await sched.run_due()
    assert "12 hours left" in joined(outbox.take())
    clock.advance(12 * H)
    await sched.run_due()
    assert "alice ran out of time" in joined(outbox.take())
    assert [a.player for a in await store.actions(pk)][:3] == ["alice", "Bot", "alice"]


async def test_a_move_that_leaves_the_player_deciding_keeps_his_turn_s_clock(
    chat: Chat, clock: FakeClock
) -> None:
    """Taking stones without ending the turn (as building one city of several, or a Hexania
    move with points left): he is still in the turn he was asked, whose deadline runs on, as
    his time bank would count it; the deadline is no stretch of a day per part of a turn."""
    store = chat.table.store
    pk = await alone_with_a_bot(chat, "skip")
    before = present(await store.reminder(pk))
    clock.advance(20 * H)
    await chat.table.act(chat.inbound("alice"), {"take": 1, "again": True})
    assert [a.player for a in await store.actions(pk)] == ["alice"]  # her turn goes on
    assert await store.reminder(pk) == before


async def test_the_status_message_says_the_fresh_deadline(store: Store, clock: FakeClock) -> None:
    """The live status message words the deadline the transaction writes (bot/announce.py)."""
    table = quiet_table(store, clock)
    chat = Chat(table, chat_key="tg:-100", platform="telegram")
    await alone_with_a_bot(chat, "skip")
    clock.advance(20 * H)
    await chat.say("alice", "/take 1")
    status = [r for r in await store.outbox() if r.kind == "edit"][-1]
    assert "Deadline: Nov 16, 2023, 6:13" in status.body["text"]  # Nov 15, 10:13 PM was hers


async def test_a_player_whose_own_move_began_his_turn_gets_no_private_prompt_for_it(
    store: Store, clock: FakeClock
) -> None:
    """A player with his private chat open gets a turn's start prompt there (silent, with its
    buttons and a recap), not after his own move, answered by the bot: he has just read his
    new ask where he played. The new turn's reminders still come."""
    table = quiet_table(store, clock)
    sched = Scheduler(table, clock=clock)
    chat = Chat(table, chat_key="tg:-100", platform="telegram")
    await store.set_user("local:alice", dm_ok=True)
    pk = await alone_with_a_bot(chat, "skip")

    async def private() -> list[str]:
        await sched.run_due()
        rows = [r for r in await store.outbox(status="pending") if r.audience != "chat"]
        for r in rows:
            await store.outbox_sent(r.id, None)
        return [r.body["text"] for r in rows]

    assert "Your move in Dice pile" in " ".join(await private())  # her first turn's prompt
    clock.advance(H)
    await chat.say("alice", "/take 1")  # the bot answers: her new turn
    assert [a.player for a in await store.actions(pk)] == ["alice", "Bot"]
    assert await private() == []
    clock.advance(12 * H)
    assert "12 hours left" in " ".join(await private())  # her new turn's 50 % reminder
