"""Each player waited for has his own schedule (bot/expiry.py): his reminders, "Time is up" and
the nags after it wait for his own quiet hours whoever is asked with him, his seat expires a
last call after his own first notice, a reminder held late takes in the next one due soon
after it, and the status message shows the expiry the scheduler recorded. Found by a
play-tester living weeks of simulated play through Telegram (2026-12)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from bot.deadlines import ChatSettings, Quiet
from bot.expiry import decide
from bot.scheduler import Scheduler
from bot.store import Store
from bot.store_outbox import OutboxItem
from bot.store_plans import Progress, TurnPlan
from bot.store_protocol import Store as AnyStore
from engine.core import N_
from engine.core.protocol import ArgSpec, CommandSpec, Reply, Translator
from tests.bot.chatgame import ChatDicePile, Together
from tests.bot.helpers import Chat, FakeClock, Outbox, present
from tests.bot.test_last_call import TG, asked_again_silently, joined_rows, notices_to, sent
from tests.bot.test_quiet_table import quiet_table

H = 3600.0


def at(hour: int, day: int = 15, minute: int = 0, month: int = 11, year: int = 2023) -> float:
    """A moment, UTC (FakeClock starts on Nov 14, 2023 at 22:13)."""
    return datetime(year, month, day, hour, minute, tzinfo=UTC).timestamp()


class Again(ChatDicePile):
    """The dice pile with `/again n`: a take that leaves the player deciding (his turn goes
    on, as one city built of several)."""

    commands = (
        *ChatDicePile.commands,
        CommandSpec("again", N_("Take and go on"), (ArgSpec("n", "int"),), ("/again 1",)),
    )

    def parse(
        self,
        state: dict[str, Any],
        player: str,
        name: str,
        args: list[str],
        t: Translator | None = None,
    ) -> dict[str, Any] | list[dict[str, Any]] | Reply:
        if name == "again":
            return {"take": int(args[0]), "again": True}
        return super().parse(state, player, name, args, t)


def stamp(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%d %H:%M")


# ---------------------------------------------------------------------- his own quiet hours
async def test_time_is_up_and_the_nags_wait_for_the_players_own_quiet_hours(
    chat: Chat, clock: FakeClock
) -> None:
    """Bob's `/me quiet=23-07` (the chat has none), deadline 12 h from 14:00, policy remind:
    "Time is up" came at 02:00 and again every night at 02:00. Now it waits for 07:00, as
    his reminders do, and so does each nag after it."""
    outbox = Outbox(chat.table)
    sched = Scheduler(chat.table, clock=clock)
    clock.now = at(13, day=14)
    await chat.say("bob", "/me quiet=23-07 tz=UTC")
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/settings deadline=12h")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    clock.now = at(14, day=14)
    await chat.say("alice", "/take 1")  # bob's turn: 50 % at 20:00, deadline 02:00
    outbox.take()
    told: list[tuple[str, str]] = []
    while clock.now < at(8, day=17):
        clock.advance(600)
        await sched.run_due()
        told += [
            (stamp(clock.now), o.text)
            for o in outbox.take()
            if ("local:bob", "bob") in o.mentions and not o.silent
        ]
    assert [when for when, _ in told] == ["14 20:00", "15 07:00", "16 07:00", "17 07:00"], told
    assert "Time is up" in told[1][1] and "for 5 hours past the deadline" in told[1][1], told
    assert "for 1 day 5 hours past the deadline" in told[2][1], told


async def test_a_bot_taking_his_seat_in_his_quiet_hours_tells_him_silently(
    store: Store, clock: FakeClock
) -> None:
    """Policy bot, bob's `/me quiet=23-07`, deadline 12 h from 14:00: the seat is taken at
    02:00, on the table's time (his own quiet hours pushed nothing: his 50 % reminder reached
    him at 20:00), and his private note says so without waking him (it notified him before)."""
    table = quiet_table(store, clock)
    sched = Scheduler(table, clock=clock)
    chat = Chat(table, chat_key=TG, platform="telegram")
    await store.set_user("local:bob", dm_ok=True)
    clock.now = at(13, day=14)
    await chat.say("bob", "/me quiet=23-07 tz=UTC")
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/settings deadline=12h policy=bot")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    clock.now = at(14, day=14)
    await chat.say("alice", "/take 1")
    pk = present(await store.open_game(TG)).id
    await sent(store)
    while clock.now < at(1, minute=50):
        clock.advance(600)
        await sched.run_due()
    assert not any(s.is_bot for s in await store.seats(pk))
    await sent(store)
    clock.now = at(2)
    await sched.run_due()
    rows = await sent(store)
    assert "bob ran out of time: a bot" in joined_rows(rows)
    assert [s.is_bot for s in await store.seats(pk) if s.display_name == "bob"] == [True]
    [note] = [r for r in rows if r.audience == "local:bob"]
    assert "so a bot plays your seat now" in note.body["text"] and note.silent, note


def test_his_own_quiet_hours_push_the_act_once_and_hold_what_he_is_told() -> None:
    """`decide` for a 12 h turn from 10:00 (UTC), policy skip, and a player who declared
    `/me quiet=08-07` (23 hours of the day): everything he is told waits for 07:00, and his
    seat expires a last call after that first notice (08:12), though 08:12 falls in his quiet
    hours again: they push the act once, never to their next end. Under policy remind nothing
    acts, and "Time is up" waits for 07:00 of the day after, as his reminders do."""
    plan = TurnPlan(1, at(22), 0, at(10), ["bob"], None, None, at(10))
    quiet = Quiet((8, 7), "UTC")
    skip = ChatSettings(deadline=12 * H, policy="skip")
    first = decide(plan, skip, at(10), quiet, "bob")
    assert first.point is None and first.next_at == at(7, day=16)
    planned = replace(plan, attempt=1)
    told = decide(planned, skip, at(7, day=16), quiet, "bob")
    assert told.point is not None and told.point.kind == "remind"
    assert told.notified_at == at(7, day=16) and told.schedule.expires == at(8, day=16, minute=12)
    mine = {"bob": Progress(told.done_until, told.notified_at)}
    after = replace(planned, done_until=told.done_until, progress=mine)
    acts = decide(after, skip, at(8, day=16, minute=12), quiet, "bob")
    assert acts.point is not None and acts.point.kind == "expire" and acts.schedule.ran_out
    remind = replace(skip, policy="remind")
    waits = decide(after, remind, at(8, day=16, minute=12), quiet, "bob")
    assert waits.point is None and waits.next_at == at(7, day=17)


# ---------------------------------------------------------------------- asked together
def private_notices(rows: list[OutboxItem], user: str) -> list[str]:
    return [r.body["text"] for r in notices_to(rows, user) if r.audience == f"local:{user}"]


async def test_players_asked_together_are_each_reminded_out_of_their_own_quiet_hours(
    any_store: AnyStore, clock: FakeClock
) -> None:
    """Ann in Warsaw and Bob in Taipei, both `/me quiet=23-07`, asked together at 13:00 in
    Warsaw (20:00 in Taipei), deadline 12 h, policy skip. Each reminder waited until nobody
    asked was in his quiet hours: both came at 07:00 Warsaw, Ann's 19:00 reminder held by
    Bob's night, and both expiries moved to 08:12. Now Ann is reminded at 19:00 and Bob when
    his night ends (07:00 in Taipei, 00:00 in Warsaw); Ann's seat expires at the deadline
    (01:00), Bob's a last call after his reminder (01:12)."""
    store = any_store
    table = quiet_table(store, clock, game=Together())  # type: ignore[arg-type]
    sched = Scheduler(table, clock=clock)
    chat = Chat(table, chat_key=TG, platform="telegram")
    await store.set_user("local:ann", dm_ok=True)
    await store.set_user("local:bob", dm_ok=True)
    clock.now = at(11, day=14, month=1, year=2026)
    await chat.say("ann", "/me tz=Europe/Warsaw quiet=23-07")
    await chat.say("bob", "/me tz=Asia/Taipei quiet=23-07")
    await chat.say("ann", "/new dicepile start=20")
    await chat.say("ann", "/settings deadline=12h policy=skip tz=Europe/Warsaw")
    await chat.say("bob", "/join")
    clock.now = at(12, day=14, month=1, year=2026)
    await chat.say("ann", "/start")  # both asked
    pk = present(await store.open_game(TG)).id
    told: dict[str, list[tuple[str, str]]] = {"ann": [], "bob": []}
    played: list[tuple[str, str]] = []
    while clock.now < at(0, day=15, minute=30, month=1, year=2026):
        clock.advance(360)
        await sched.run_due()
        rows = await sent(store)
        for user in told:
            told[user] += [(stamp(clock.now), text) for text in private_notices(rows, user)]
        text = joined_rows(rows)
        played += [(stamp(clock.now), u) for u in ("ann", "bob") if f"{u} ran out of time" in text]
    assert [w for w, _ in told["ann"]] == ["14 18:00"] and "6 hours left" in told["ann"][0][1]
    assert [w for w, _ in told["bob"]] == ["14 23:00"], told
    assert "1 hour 12 minutes left" in told["bob"][0][1], told
    assert played == [("15 00:00", "ann"), ("15 00:12", "bob")]
    assert [a.player for a in await store.actions(pk)] == ["ann", "bob"]


async def test_the_status_message_names_each_ones_expiry_when_they_differ(
    store: Store, clock: FakeClock
) -> None:
    """The same table: the status message of the ask says when the bot acts for each, as the
    scheduler will (Bob's first reminder is planned at 00:00 in Warsaw, so his seat expires at
    01:12), and each one's /status says his own."""
    table = quiet_table(store, clock, game=Together())
    chat = Chat(table, chat_key=TG, platform="telegram")
    clock.now = at(11, day=14, month=1, year=2026)
    await chat.say("ann", "/me tz=Europe/Warsaw quiet=23-07")
    await chat.say("bob", "/me tz=Asia/Taipei quiet=23-07")
    await chat.say("ann", "/new dicepile start=20")
    await chat.say("ann", "/settings deadline=12h policy=skip tz=Europe/Warsaw")
    await chat.say("bob", "/join")
    clock.now = at(12, day=14, month=1, year=2026)
    await sent(store)
    await chat.say("ann", "/start")
    text = joined_rows([r for r in await sent(store) if "Deadline" in r.body.get("text", "")])
    assert "ann: Jan 15, 2026, 1:00" in text and "bob: Jan 15, 2026, 1:12" in text, text
    assert "(Europe/Warsaw)" in text
    assert "Deadline: in 12 hours." in await chat.text("ann", "/status")
    assert "Deadline: in 12 hours 12 minutes." in await chat.text("bob", "/status")


# ---------------------------------------------------------------------- one reminder, not two
async def test_a_reminder_held_overnight_takes_in_the_next_one_due_soon_after(
    chat: Chat, clock: FakeClock
) -> None:
    """Quiet hours 22-08, deadline 12 h from 21:30: the 50 % reminder (03:30) waited for 08:00
    and the 90 % one came on time at 08:18, both notifying, twenty minutes apart. Now the one
    at 08:00 is all (the next would follow it sooner than half the 4.8 h planned between
    them), and the expiry comes at the deadline, 09:30."""
    outbox = Outbox(chat.table)
    sched = Scheduler(chat.table, clock=clock)
    clock.now = at(20, day=14)
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/settings deadline=12h policy=skip quiet=22-08 tz=UTC")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    clock.now = at(21, day=14, minute=30)
    await chat.say("alice", "/take 1")  # bob's turn
    outbox.take()
    told: list[tuple[str, str]] = []
    played: list[str] = []
    while clock.now < at(9, minute=30):
        clock.advance(360)
        await sched.run_due()
        outs = outbox.take()
        told += [
            (stamp(clock.now), o.text)
            for o in outs
            if ("local:bob", "bob") in o.mentions and not o.silent
        ]
        played += [stamp(clock.now) for o in outs if "bob ran out of time" in o.text]
    assert [w for w, _ in told] == ["15 08:00"], told
    assert "1 hour 30 minutes left" in told[0][1] and played == ["15 09:30"], played


def test_a_held_reminder_keeps_the_next_one_planned_far_enough_after_it() -> None:
    """The fold's bound, in `decide`: quiet hours 22-08, a 12 h turn from 21:30 (its 90 %
    point 18 minutes after the 50 % one held to 08:00: taken in) and a three-day turn from
    13:30 (the 50 % point at 01:30 held to 08:00, the 90 % one 22 hours later, more than half
    the 28.8 h planned between them: kept, and looked at again then)."""
    night = ChatSettings(deadline=12 * H, policy="skip", quiet=(22, 8))
    short = TurnPlan(1, at(9, minute=30), 1, at(21, day=14, minute=30), ["bob"], None, None, 0)
    held = decide(short, night, at(8))
    assert held.point is not None and held.point.at == at(3, minute=30)
    assert held.done_until == at(8, minute=18) and held.next_at == at(9, minute=30)
    days = replace(night, deadline=72 * H)
    long = TurnPlan(
        1, at(13, day=17, minute=30), 1, at(13, day=14, minute=30), ["bob"], None, None, 0
    )
    kept = decide(long, days, at(8, day=16))
    assert kept.point is not None and kept.done_until == at(1, day=16, minute=30)
    assert kept.next_at == at(8, day=17)


# ---------------------------------------------------------------------- the pinned deadline
async def test_the_status_message_of_a_turn_that_goes_on_shows_the_recorded_notice(
    any_store: AnyStore, clock: FakeClock
) -> None:
    """Ann is asked silently at 10:00 and the bot is down through her reminders and her
    deadline (16:00); back at 20:30 it reminds her first and acts a last call later, at 21:30.
    Her move at 20:40 that leaves her deciding re-edited the status message with "Deadline:
    Nov 15, 4:00 PM", already past: the expiry as if her first reminder had gone when it was
    planned (the running turn was seen as not planned yet), while /status said the right one.
    Now it pins 9:30 PM, from the notice the scheduler recorded."""
    store = any_store
    table = quiet_table(store, clock, game=Again())  # type: ignore[arg-type]
    chat = await asked_again_silently(table, clock)
    clock.now = at(10)
    await chat.say("bob", "/take 1")  # ann's turn, asked silently
    await Scheduler(table, clock=clock).run_due()
    await sent(store)
    clock.now = at(20, minute=30)  # back after ten hours down
    await Scheduler(table, clock=clock).run_due()
    assert notices_to(await sent(store), "ann")  # her reminder: the last call runs to 21:30
    clock.now = at(20, minute=40)
    await chat.say("ann", "/again 1")  # she is still deciding: the turn goes on
    status = [r for r in await sent(store) if r.kind == "edit"][-1]
    assert "Deadline: Nov 15, 2023, 9:30\u202fPM (UTC)" in status.body["text"], status.body
    assert "Deadline: in 50 minutes." in await chat.text("ann", "/status")
