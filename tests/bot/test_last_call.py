"""A turn never expires before its player was told (bot/expiry.py): the expiry waits a last
call after the turn's first notifying reminder, through the chat's quiet hours and the
player's own, pushed once per turn; work overdue after downtime waits for quiet hours to end.
Found by a play-tester living weeks of simulated play (2026-12): a turn begun at 23:00 (quiet
22-08) expired at 08:00 without one message to its player."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.scheduler import Scheduler
from bot.store_outbox import OutboxItem
from bot.store_protocol import Store
from tests.bot.helpers import Chat, FakeClock, Outbox, joined, present
from tests.bot.test_quiet_table import quiet_table

H = 3600.0
TG = "tg:-100"


def at(hour: int, day: int = 15, minute: int = 0) -> float:
    """A moment of November 2023, UTC (FakeClock starts on the 14th at 22:13)."""
    return datetime(2023, 11, day, hour, minute, tzinfo=UTC).timestamp()


async def sent(store: Store) -> list[OutboxItem]:
    """The outbox rows written since the last call (marked sent, as a sender loop would)."""
    rows = await store.outbox(status="pending")
    for row in rows:
        await store.outbox_sent(row.id, None)
    return rows


async def look_until(sched: Scheduler, clock: FakeClock, until: float) -> None:
    """The scheduler's looks every ten minutes up to `until` (not included)."""
    while clock.now + 600 < until:
        clock.advance(600)
        await sched.run_due()


async def test_a_turn_begun_in_quiet_hours_is_told_an_hour_before_it_expires(
    any_store: Store, clock: FakeClock
) -> None:
    """Deadline 6 h, quiet hours 22-08, policy skip; bob's turn begins at 23:00. His start
    reminder and his deadline (05:00) were both held to 08:00, where the expiry won: the
    default move was played for a player never told. Now the start notice goes at 08:00 and
    the expiry an hour later, as the pinned status message and /status say; his quiet hours
    set after the notice move it no further (one push per turn, recorded with the claim)."""
    table = quiet_table(any_store, clock)  # type: ignore[arg-type]
    sched = Scheduler(table, clock=clock)
    chat = Chat(table, chat_key=TG, platform="telegram")
    await any_store.set_user("local:bob", dm_ok=True)
    clock.now = at(21, day=14)
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/settings deadline=6h policy=skip quiet=22-08 tz=UTC")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    pk = present(await any_store.open_game(TG)).id
    await sched.run_due()
    clock.now = at(23, day=14)
    await chat.say("alice", "/take 1")  # bob's turn, in quiet hours
    status = [r for r in await sent(any_store) if r.kind == "edit"][-1]
    assert "Deadline: Nov 15, 2023, 9:00\u202fAM (UTC)" in status.body["text"], status.body
    assert "Deadline: in 10 hours." in await chat.text("bob", "/status")  # not "in 6 hours"
    await look_until(sched, clock, at(8))
    assert [r for r in await sent(any_store) if r.audience != "chat"] == []
    clock.now = at(8)
    await sched.run_due()
    [told] = [r for r in await sent(any_store) if r.audience != "chat"]
    assert not told.silent and "1 hour left" in told.body["text"], told.body
    assert present(await any_store.turn_plan(pk)).notified_at == at(8)
    await chat.say("bob", "/me quiet=08-20 tz=UTC")  # would hold a notice not yet sent to 20:00
    await sent(any_store)
    await look_until(sched, clock, at(9))
    assert len(await any_store.actions(pk)) == 1  # nothing played for bob before 09:00
    clock.now = at(9)
    await sched.run_due()
    assert "bob ran out of time" in joined_rows(await sent(any_store))
    assert [a.player for a in await any_store.actions(pk)] == ["alice", "bob"]


def joined_rows(rows: list[OutboxItem]) -> str:
    """The rows' texts, a status message's new lines included."""
    return "\n".join(
        "\n".join([*r.body.get("status_lines", []), str(r.body.get("text", ""))]) for r in rows
    )


async def test_a_players_own_quiet_hours_hold_the_expiry_too(chat: Chat, clock: FakeClock) -> None:
    """Bob's `/me quiet=22-08` holds his reminders to 08:00 (the chat has none); the expiry
    (03:00) came before any of them. Now it waits a last call after the first."""
    outbox = Outbox(chat.table)
    sched = Scheduler(chat.table, clock=clock)
    clock.now = at(18, day=14)
    await chat.say("bob", "/me quiet=22-08 tz=UTC")
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/settings deadline=8h policy=skip")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    clock.now = at(19, day=14)
    await chat.say("alice", "/take 1")  # bob's turn: deadline 03:00, 50 % at 23:00
    outbox.take()
    await look_until(sched, clock, at(8))
    assert outbox.take() == []
    clock.now = at(8)
    await sched.run_due()
    [told] = outbox.take()
    assert told.mentions == [("local:bob", "bob")] and "1 hour left" in told.text, told.text
    await look_until(sched, clock, at(9))
    assert outbox.take() == []
    clock.now = at(9)
    await sched.run_due()
    assert "bob ran out of time" in joined(outbox.take())


async def test_an_evening_turn_under_remind_hears_a_reminder_before_time_is_up(
    chat: Chat, clock: FakeClock
) -> None:
    """Deadline 12 h from 17:00 Berlin, quiet 23-07: the 50 % and 90 % points fall in the
    night. The first message was "Time is up ... 1 hour past the deadline"; now a reminder
    with the last call (10 % of the turn, 1 h 12 min) comes at 07:00, then "Time is up"."""
    outbox = Outbox(chat.table)
    sched = Scheduler(chat.table, clock=clock)
    clock.now = at(16, day=14)  # 17:00 in Berlin
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/settings deadline=12h quiet=23-07 tz=Europe/Berlin")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    outbox.take()
    await look_until(sched, clock, at(6))  # 07:00 in Berlin
    assert [o.text for o in outbox.take()] == []
    clock.now = at(6)
    await sched.run_due()
    [told] = outbox.take()
    assert "Reminder" in told.text and "1 hour 12 minutes left" in told.text, told.text
    await look_until(sched, clock, at(7, minute=12))
    assert outbox.take() == []
    clock.now = at(7, minute=12)
    await sched.run_due()
    [up] = outbox.take()
    assert "Time is up" in up.text and "just passed" in up.text, up.text


async def test_overdue_work_after_downtime_waits_for_the_quiet_hours_to_end(
    chat: Chat, clock: FakeClock
) -> None:
    """The bot is down 10:30-23:00; quiet hours 22-08. The expiry that passed meanwhile (16:00)
    was played at once, at night, and the next turn asked then: now it waits for 08:00. The
    downtime alone pushes nothing: no last call for a notice that never went."""
    outbox = Outbox(chat.table)
    sched = Scheduler(chat.table, clock=clock)
    clock.now = at(10)
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/settings deadline=6h policy=skip quiet=22-08 tz=UTC")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    await sched.run_due()
    outbox.take()
    clock.now = at(23)  # back
    await sched.run_due()
    assert outbox.take() == []
    await look_until(sched, clock, at(8, day=16))
    assert outbox.take() == []
    clock.now = at(8, day=16)
    await sched.run_due()
    assert "alice ran out of time" in joined(outbox.take())


async def test_an_overdue_reminder_waits_for_the_quiet_hours_and_gets_its_last_call(
    chat: Chat, clock: FakeClock
) -> None:
    """Quiet hours 00-08; the 50 % reminder (22:00) passed while the bot was down; back at
    03:00 it went at once, notifying in the night. Now it waits for 08:00; sent two hours
    before the deadline it gets the last call (2.4 h of a day's turn)."""
    outbox = Outbox(chat.table)
    sched = Scheduler(chat.table, clock=clock)
    clock.now = at(10)
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/settings quiet=0-8 tz=UTC")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    await sched.run_due()
    outbox.take()
    clock.now = at(3, day=16)  # back in the night
    await sched.run_due()
    assert outbox.take() == []
    clock.now = at(8, day=16)
    await sched.run_due()
    [told] = outbox.take()
    assert "Reminder" in told.text and "2 hours 24 minutes left" in told.text, told.text
    clock.now = at(10, day=16)  # the deadline the move wrote
    await sched.run_due()
    assert outbox.take() == []
    clock.now = at(10, day=16, minute=24)
    await sched.run_due()
    assert "Time is up" in joined(outbox.take())
