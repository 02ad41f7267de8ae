"""A turn never expires before its player was told (bot/expiry.py): the expiry waits a last
call after the turn's first notifying reminder, through the chat's quiet hours and the
player's own, pushed once per turn; work overdue after downtime waits for quiet hours to end,
and a turn whose player nothing notified hears its reminder before it expires. Found by a
play-tester living weeks of simulated play (2026-12): a turn begun at 23:00 (quiet 22-08)
expired at 08:00 without one message to its player."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot.deadlines import ChatSettings
from bot.expiry import decide
from bot.scheduler import Scheduler
from bot.storage import open_store
from bot.store_outbox import OutboxItem
from bot.store_plans import TurnPlan
from bot.store_protocol import Store
from bot.table import Table
from tests.bot.helpers import Chat, FakeClock, Outbox, joined, present
from tests.bot.test_quiet_table import mentioned, quiet_table

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
    downtime alone pushes nothing for a player whose ask notified her (the terminal's prompt
    mentions alice): no last call for a notice that never went."""
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


# ---------------------------------------------------------------------- downtime, told or not
async def asked_again_silently(table: Table, clock: FakeClock) -> Chat:
    """A Telegram table, deadline 6 h, policy skip, from 10:00: ann asked (and notified) at the
    start, bob asked (and notified) after her move; when bob has moved at 10:00, ann is asked
    again in the round she played (bot/quiet.py): silently, the status message names her."""
    chat = Chat(table, chat_key=TG, platform="telegram")
    await table.store.set_user("local:ann", dm_ok=True)
    await table.store.set_user("local:bob", dm_ok=True)
    clock.now = at(9)
    await chat.say("ann", "/new dicepile")
    await chat.say("ann", "/settings deadline=6h policy=skip")
    await chat.say("bob", "/join")
    await chat.say("ann", "/start")
    await chat.say("ann", "/take 1")  # bob's turn, at 09:00
    return chat


def notices_to(rows: list[OutboxItem], user: str) -> list[OutboxItem]:
    """The rows that notify `user`: his private ones and the chat's that mention him, loud."""
    return [
        r
        for r in rows
        if not r.silent
        and r.kind != "edit"
        and (r.audience == f"local:{user}" or user in mentioned(r))
    ]


async def test_a_turn_asked_silently_and_down_through_its_reminders_is_told_before_it_expires(
    db_url: str, clock: FakeClock
) -> None:
    """Ann is asked again at 10:00 without a sound (she played this round); her reminders
    (13:00, 15:24: the first that would have notified her) and her deadline (16:00) all fell
    in the bot's ten hours of downtime (10:30-20:30). Back at 20:30 it played her default move
    at once: her turn was lost and no message had ever notified her of it. Now her reminder
    goes first, notifying, and the expiry waits the last call after it (an hour)."""
    store = await open_store(db_url, clock=clock)
    table = quiet_table(store, clock)  # type: ignore[arg-type]
    chat = await asked_again_silently(table, clock)
    pk = present(await store.open_game(TG)).id
    await Scheduler(table, clock=clock).run_due()
    clock.now = at(10)
    await sent(store)
    await chat.say("bob", "/take 1")  # ann's turn, asked silently
    await Scheduler(table, clock=clock).run_due()  # her start prompt: private, silent
    assert notices_to(await sent(store), "ann") == []
    await store.close()  # the bot goes down at 10:30 ...

    clock.now = at(20, minute=30)  # ... and is back ten hours later
    store = await open_store(db_url, clock=clock)
    table = quiet_table(store, clock)  # type: ignore[arg-type]
    sched = Scheduler(table, clock=clock)
    await sched.run_due()
    rows = await sent(store)
    [told] = notices_to(rows, "ann")
    assert "Reminder" in told.body["text"] and "1 hour left" in told.body["text"], told.body
    assert "ran out of time" not in joined_rows(rows)
    assert present(await store.turn_plan(pk)).notified_at == at(20, minute=30)
    await look_until(sched, clock, at(21, minute=30))
    assert len(await store.actions(pk)) == 2  # nothing played for ann before her last call ends
    assert notices_to(await sent(store), "ann") == []  # and nothing more said to her
    clock.now = at(21, minute=30)
    await sched.run_due()
    assert "ann ran out of time" in joined_rows(await sent(store))
    assert [a.player for a in await store.actions(pk)] == ["ann", "bob", "ann"]
    await store.close()


async def test_a_turn_whose_ask_notified_its_player_acts_at_once_after_downtime(
    db_url: str, clock: FakeClock
) -> None:
    """Bob's ask at 09:00 notified him (his first turn of the round); the bot was down from
    09:30 through his reminders and his deadline (15:00). Back at 20:30 it acts at once, as
    before: its downtime alone gives no one more time."""
    store = await open_store(db_url, clock=clock)
    table = quiet_table(store, clock)  # type: ignore[arg-type]
    await asked_again_silently(table, clock)
    pk = present(await store.open_game(TG)).id
    assert notices_to(await sent(store), "bob")  # the ask notified him
    await store.close()

    clock.now = at(20, minute=30)
    store = await open_store(db_url, clock=clock)
    table = quiet_table(store, clock)  # type: ignore[arg-type]
    await Scheduler(table, clock=clock).run_due()
    rows = await sent(store)
    assert "bob ran out of time" in joined_rows(rows)
    assert not [r for r in notices_to(rows, "bob") if "Reminder" in r.body.get("text", "")]
    assert [a.player for a in await store.actions(pk)] == ["ann", "bob"]
    await store.close()


async def test_a_turn_whose_reminder_notified_its_player_acts_at_once_after_downtime(
    db_url: str, clock: FakeClock
) -> None:
    """Ann, asked silently at 10:00, was notified by her 50 % reminder at 13:00; the bot was
    down from 13:30 through her 90 % point and her deadline (16:00). Back at 20:30 it acts at
    once: her last call ran from the reminder she got."""
    store = await open_store(db_url, clock=clock)
    table = quiet_table(store, clock)  # type: ignore[arg-type]
    chat = await asked_again_silently(table, clock)
    pk = present(await store.open_game(TG)).id
    clock.now = at(10)
    await chat.say("bob", "/take 1")
    sched = Scheduler(table, clock=clock)
    await sched.run_due()
    await sent(store)
    clock.now = at(13)
    await sched.run_due()
    [told] = notices_to(await sent(store), "ann")
    assert "Reminder" in told.body["text"], told.body
    await store.close()

    clock.now = at(20, minute=30)
    store = await open_store(db_url, clock=clock)
    table = quiet_table(store, clock)  # type: ignore[arg-type]
    await Scheduler(table, clock=clock).run_due()
    rows = await sent(store)
    assert "ann ran out of time" in joined_rows(rows)
    assert not [r for r in notices_to(rows, "ann") if "Reminder" in r.body.get("text", "")]
    assert [a.player for a in await store.actions(pk)] == ["ann", "bob", "ann"]
    await store.close()


def test_the_first_notice_of_a_turn_nobody_was_told_of_goes_before_the_expiry_it_missed() -> None:
    """`decide` after downtime (a 6 h turn from 10:00, its start prompt sent on time, silent):
    back at 20:30, a turn whose ask notified nobody gets its latest reminder (the 90 % one)
    and the expiry a last call after it; one whose ask notified its players meets the expiry
    at once. Back in the chat's quiet hours, the reminder waits for their end, as one they
    held would, and so does the expiry after it."""
    plan = TurnPlan(1, at(16), 1, at(10), ["ann"], at(13), at(10), at(13))
    skip = ChatSettings(deadline=6 * H, policy="skip")
    untold = decide(plan, skip, at(20, minute=30))
    assert untold.point is not None and untold.point.kind == "remind"
    assert untold.notified_at == at(20, minute=30)
    assert untold.schedule.expires == untold.next_at == at(21, minute=30)
    assert not untold.schedule.expired(plan.deadline_at)
    told = decide(replace(plan, ask_notified=True), skip, at(20, minute=30))
    assert told.point is not None and told.point.kind == "expire"
    assert told.schedule.expired(plan.deadline_at) and told.notified_at is None

    night = replace(skip, quiet=(22, 8))
    back = decide(plan, night, at(23))
    assert back.point is None and back.next_at == at(8, day=16)
    morning = decide(plan, night, at(8, day=16))
    assert morning.point is not None and morning.point.kind == "remind"
    assert morning.schedule.expires == at(9, day=16)
