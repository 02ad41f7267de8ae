"""Deadlines and reminders through the table service, in virtual time (bot/reminders.py)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime

from bot.deadlines import overdue_head
from bot.reminders import (
    ChatSettings,
    default_action,
    format_duration,
    out_of_quiet,
    parse_duration,
    parse_percents,
    parse_quiet,
    parse_tz,
)
from bot.scheduler import Scheduler
from bot.store import Store
from bot.table import Table
from engine.core.protocol import Capabilities
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock, Outbox, joined, present

H = 3600.0
# 2023-11-14 22:13:20 UTC: FakeClock's start.
T0 = 1_700_000_000.0


async def started(chat: Chat, *others: str) -> int:
    await chat.say("alice", "/new dicepile")
    for name in others:
        await chat.say(name, "/join")
    await chat.say("alice", "/start")
    row = await chat.table.store.open_game(chat.chat_key)
    assert row is not None and row.status == "active"
    return row.id


async def state_of(table: Table, pk: int) -> dict:
    row = await table.store.game(pk)
    assert row is not None and row.state_json is not None
    return json.loads(row.state_json)


# ---------------------------------------------------------------------- parsing
def test_durations_percents_quiet_and_zones_parse_and_refuse() -> None:
    assert parse_duration("10m") == 600 and parse_duration("6h") == 6 * H
    assert parse_duration("2d") == 48 * H and parse_duration("1d12h") == 36 * H
    assert parse_duration("1.5h") == 1.5 * H
    for bad in ("", "6", "h", "6x", "6h ", "-1h", "6h2", "0m"):
        assert parse_duration(bad.rstrip() if bad == "6h " else bad) in (None, 6 * H)
    assert parse_duration("6x") is None and parse_duration("0m") is None
    assert format_duration(36 * H) == "1d12h" and format_duration(600) == "10m"
    assert parse_percents("0,50,90") == (0, 50, 90) and parse_percents("90, 50%") == (50, 90)
    assert parse_percents("off") == () and parse_percents("100") is None
    assert parse_percents("a,b") is None
    assert parse_quiet("22-08") == (22, 8) and parse_quiet("off") is None
    assert parse_quiet("8-8") == "bad" and parse_quiet("25-3") == "bad"
    assert parse_tz("+03:00") == "+03:00" and parse_tz("-5") == "-05:00"
    assert parse_tz("Europe/Berlin") == "Europe/Berlin" and parse_tz("utc") == "UTC"
    assert parse_tz("Mars/Olympus") is None and parse_tz("+15:00") is None
    assert parse_tz("../etc/passwd") is None


def test_quiet_hours_move_a_point_to_the_end_of_the_quiet_period() -> None:
    s = ChatSettings(quiet=(22, 8), tz="+02:00")
    # 23:00 local (+02:00) = 21:00 UTC -> 08:00 local next day = 06:00 UTC.
    t = datetime(2024, 3, 1, 21, 0, tzinfo=UTC).timestamp()
    assert out_of_quiet(t, s) == datetime(2024, 3, 2, 6, 0, tzinfo=UTC).timestamp()
    # 07:30 local is still quiet: 08:00 the same day.
    t = datetime(2024, 3, 2, 5, 30, tzinfo=UTC).timestamp()
    assert out_of_quiet(t, s) == datetime(2024, 3, 2, 6, 0, tzinfo=UTC).timestamp()
    # 12:00 local is not quiet.
    t = datetime(2024, 3, 2, 10, 0, tzinfo=UTC).timestamp()
    assert out_of_quiet(t, s) == t
    day = ChatSettings(quiet=(13, 15), tz="Europe/Berlin")
    t = datetime(2024, 7, 1, 11, 30, tzinfo=UTC).timestamp()  # 13:30 in Berlin (CEST)
    assert out_of_quiet(t, day) == datetime(2024, 7, 1, 13, 0, tzinfo=UTC).timestamp()


def test_default_action_prefers_the_games_hook_then_a_do_nothing_action() -> None:
    game = ChatDicePile()
    state = game.setup(["alice", "bob"], {}, 1)
    assert default_action(game, state, "alice") == {"take": 1}  # no pass: the first legal
    assert default_action(game, state, "bob") is None  # not bob's turn

    class WithHook(ChatDicePile):
        capabilities = Capabilities(rules_index=True, default_move=True)

        def default_action(self, state: dict, player: str) -> dict:
            return {"take": 3}

    assert default_action(WithHook(), state, "alice") == {"take": 3}


# ---------------------------------------------------------------------- one turn
async def test_one_turn_start_mention_half_ninety_percent_and_expiry(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    await chat.table.store.set_user("local:alice", dm_ok=True)
    await chat.table.store.set_chat_name(chat.chat_key, "Test table", None)  # issue 17
    pk = await started(chat, "bob")
    await sched.run_due()
    [start] = outbox.take()
    assert start.private_to == "local:alice" and "Your move in Dice pile (Test table)" in start.text
    assert "alice takes 1 to 3" in start.text and "1 day" in start.text
    await sched.run_due()
    assert outbox.take() == []  # nothing twice
    clock.advance(12 * H - 1)
    await sched.run_due()
    assert outbox.take() == []
    clock.advance(1)
    await sched.run_due()
    [half] = outbox.take()
    assert (
        half.private_to == "local:alice"
        and "Reminder" in half.text
        and "12 hours left" in half.text
    )
    clock.advance(9.6 * H)
    await sched.run_due()
    [ninety] = outbox.take()
    assert "Reminder" in ninety.text and "2 hours 24 minutes left" in ninety.text
    clock.advance(2.4 * H)
    await sched.run_due()
    [expiry] = outbox.take()
    assert "Time is up" in expiry.text and "alice takes 1 to 3" in expiry.text
    # Policy remind: the turn waits; one more reminder a day later, not before.
    clock.advance(24 * H - 60)
    await sched.run_due()
    assert outbox.take() == []
    clock.advance(60)
    await sched.run_due()
    [nag] = outbox.take()
    assert "Time is up" in nag.text and "1 day" in nag.text
    assert (await state_of(chat.table, pk))["turn"] == 0  # nobody moved for alice


def test_a_deadline_just_passed_is_said_so_not_zero_seconds_past_it() -> None:
    """Found play-testing: the reminder sent at the deadline read "... has been waiting for
    your move for 0 seconds past the deadline"; under a minute past it, it has just passed."""
    for late in (0.0, 0.4, 59.0):
        assert overdue_head("en", "Dice pile", "Test table", late) == (
            "Time is up: Dice pile (Test table) is waiting for your move; the deadline has "
            "just passed."
        )
    just = {lang: overdue_head(lang, "Dice pile", "T", 0.0) for lang in ("ru", "pl", "zh_Hant")}
    assert just == {
        "ru": "Время вышло: в игре Dice pile (T) ждут вашего хода; срок только что истёк.",
        "pl": "Czas minął: Dice pile (T) czeka na twój ruch; termin właśnie upłynął.",
        "zh_Hant": "時間到：Dice pile（T）在等你行動，期限剛過。",
    }
    assert overdue_head("en", "Dice pile", "T", 90 * 60.0) == (
        "Time is up: Dice pile (T) has been waiting for your move for 1 hour 30 minutes past "
        "the deadline."
    )
    assert "1 день сверх срока" in overdue_head("ru", "Dice pile", "T", 24 * H)
    for lang in ("en", "ru", "pl", "zh_Hant"):
        for late in (0.0, 30.0, 59.0, 60.0, 24 * H):
            assert not any(z in overdue_head(lang, "g", "c", late) for z in ("0 ", "0 秒")), (
                lang,
                late,
            )


async def test_the_reminder_at_the_deadline_says_it_has_just_passed(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    await chat.table.store.set_user("local:alice", dm_ok=True)
    await started(chat, "bob")
    await sched.run_due()
    outbox.take()
    clock.advance(24 * H)
    await sched.run_due()
    expiry = next(o for o in outbox.take() if "Time is up" in o.text)
    assert "the deadline has just passed" in expiry.text and "0 seconds" not in expiry.text


async def test_without_private_chat_reminders_mention_in_the_table_chat(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    await started(chat, "bob")
    await sched.run_due()
    assert outbox.take() == []  # the table's own prompt was the start mention
    clock.advance(12 * H)
    await sched.run_due()
    [half] = outbox.take()
    assert half.private_to is None and half.chat_key == chat.chat_key
    assert half.mentions == [("local:alice", "alice")]
    # named as a prompt names him, the chat it is posted in not named, with his buttons
    # (found play-testing through Telegram, 2026-12-05: "@Fay Reminder: Power Grid (Game
    # night) is waiting…" in Game night itself, with no buttons)
    assert half.text.startswith("@alice: Reminder: Dice pile is waiting for your move; 12 hours")
    assert [b.payload.rsplit(":", 1)[1] for row in half.buttons for b in row] == [
        "/take 1",
        "/take 2",
        "/take 3",
    ]
    clock.advance(12 * H)
    await sched.run_due()
    expiry = next(o for o in outbox.take() if "Time is up" in o.text)
    assert expiry.text.startswith(
        "@alice: Time is up: Dice pile is waiting for your move; the deadline has just passed."
    )


async def test_a_private_message_makes_reminders_private(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    await started(chat, "bob")
    dm = Chat(chat.table, chat_key="local:dm-alice")
    inbound = dm.inbound("alice", text="/games")
    await chat.table.handle(type(inbound)(**{**inbound.__dict__, "is_private": True}))
    assert (await chat.table.store.user("local:alice")).dm_ok
    clock.advance(12 * H)
    await sched.run_due()
    [half] = outbox.take()
    assert half.private_to == "local:alice"


async def test_no_reminder_after_the_player_moved(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    await chat.table.store.set_user("local:alice", dm_ok=True)
    await chat.table.store.set_user("local:bob", dm_ok=True)
    await started(chat, "bob")
    await sched.run_due()
    assert [o.private_to for o in outbox.take()] == ["local:alice"]
    clock.advance(11 * H)
    await chat.say("alice", "/take 1")
    clock.advance(1 * H)  # alice's 50 % point passes: she has moved
    await sched.run_due()
    sent = outbox.take()
    assert [o.private_to for o in sent] == ["local:bob"] and "Your move" in sent[0].text
    clock.advance(11 * H)  # bob's 50 % point (his turn began at 11 h)
    await sched.run_due()
    sent = outbox.take()
    assert [o.private_to for o in sent] == ["local:bob"] and "12 hours left" in sent[0].text


async def test_no_reminder_for_a_finished_game(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    pk = await started(chat, "bob")
    await chat.say("alice", "/abort confirm")
    assert await chat.table.store.turn_plan(pk) is None
    clock.advance(30 * H)
    assert await sched.run_due() == 0
    assert outbox.take() == []


async def test_quiet_hours_shift_a_reminder_to_their_end(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    # T0 is 22:13 UTC; deadline 2h: the 50 % point is 23:13 UTC, inside quiet 23-07 (UTC).
    await chat.say("alice", "/new dicepile")
    assert "Settings saved" in joined(
        await chat.say("alice", "/settings deadline=2h reminders=50 quiet=23-07 tz=UTC")
    )
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    await sched.run_due()
    clock.advance(1 * H)
    await sched.run_due()
    assert outbox.take() == []  # 23:13: quiet
    plan = await chat.table.store.turn_plan(
        present(await chat.table.store.open_game(chat.chat_key)).id
    )
    seven = datetime(2023, 11, 15, 7, 0, tzinfo=UTC).timestamp()
    assert plan is not None and plan.next_at == seven
    clock.now = seven - 1
    await sched.run_due()
    assert outbox.take() == []
    clock.now = seven
    await sched.run_due()
    # The 50 % point and the deadline (00:13) were both held to 07:00: the reminder goes, and
    # the expiry waits a last call after it (bot/expiry.py; before, the expiry won and its
    # "Time is up" was the first word of the turn, found by a play-tester).
    [late] = outbox.take()
    assert "Reminder" in late.text and "1 hour left" in late.text, late.text
    clock.advance(60)
    await sched.run_due()
    assert outbox.take() == []
    clock.now = seven + H
    await sched.run_due()
    [expiry] = outbox.take()
    assert "Time is up" in expiry.text and "just passed" in expiry.text, expiry.text


# ---------------------------------------------------------------------- policies
async def test_policy_skip_plays_the_default_move_at_expiry(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/settings policy=skip deadline=1h")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    pk = present(await chat.table.store.open_game(chat.chat_key)).id
    pile = (await state_of(chat.table, pk))["pile"]
    clock.advance(1 * H)
    await sched.run_due()
    text = joined(outbox.take())
    assert "alice ran out of time: the default move is played." in text
    assert "alice takes 1." in text and "@bob" in text
    state = await state_of(chat.table, pk)
    assert state["turn"] == 1 and state["pile"] in (pile - 1, pile)
    assert [a.player for a in await chat.table.store.actions(pk)] == ["alice"]


async def test_restart_with_pending_and_overdue_reminders_fires_each_once(
    db_path: str, clock: FakeClock
) -> None:
    store = await Store.open(db_path, clock=clock)
    tables = []
    for i in range(3):
        table = Table(store, games={"dicepile": ChatDicePile()}, clock=clock, seeder=lambda: 5)
        tables.append(table)
        c = Chat(table, chat_key=f"local:t{i}")
        await c.say("alice", "/new dicepile")
        if i == 2:
            await c.say("alice", "/settings policy=skip")
        await c.say("bob", "/join")
        await c.say("alice", "/start")
        clock.advance(4 * H)  # tables start 4 h apart
    await store.set_user("local:alice", dm_ok=True)
    box = Outbox(tables[0])
    await Scheduler(tables[0], clock=clock).run_due()
    assert len(box.take()) == 3  # three start mentions
    await store.close()  # the process dies here

    clock.advance(16 * H)  # t0: 28 h in (expired); t1: 24 h (expired); t2: 20 h (90 % passed)
    store = await Store.open(db_path, clock=clock)
    table = Table(store, games={"dicepile": ChatDicePile()}, clock=clock)
    box = Outbox(table)
    sched = Scheduler(table, clock=clock)
    await sched.run_due()
    sent = box.take()
    by_chat: dict[str, list[str]] = {}
    for out in sent:
        by_chat.setdefault(out.chat_key, []).append(out.text)
    assert len(by_chat["local:t0"]) == 1 and "Time is up" in by_chat["local:t0"][0]
    assert len(by_chat["local:t1"]) == 1 and "Time is up" in by_chat["local:t1"][0]
    assert len(by_chat["local:t2"]) == 1 and "Reminder" in by_chat["local:t2"][0]
    await sched.run_due()
    assert box.take() == []
    clock.advance(4 * H)  # t2 expires under policy skip: the default move, once
    await sched.run_due()
    text = joined(box.take())
    assert text.count("ran out of time") == 1 and "alice takes 1." in text
    await store.close()


# ---------------------------------------------------------------------- away and back
async def test_settings_permissions_and_validation(chat: Chat) -> None:
    text = await chat.text("bob", "/settings")
    assert "Deadline 1 day per move; reminders at 0%, 50%, 90%; quiet hours off" in text
    # every setting is shown, in words (found playing, 2026-12-03)
    assert "Board pictures: after each phase (phase)." in text
    assert "Hints (/hint): on. Games offered here: all." in text
    assert "Only the game's creator or a chat admin" in await chat.text(
        "bob", "/settings deadline=6h"
    )
    await chat.say("alice", "/new dicepile")
    assert "Only the game's creator" in await chat.text("bob", "/settings deadline=6h")
    for bad, why in [
        ("deadline=5m", "from 10m to 14d"),
        ("deadline=15d", "from 10m to 14d"),
        ("deadline=soon", "from 10m to 14d"),
        ("reminders=0,120", "from 0 to 99"),
        ("quiet=22", "two different hours"),
        ("tz=Nowhere/Land", "offset like +02:00"),
        ("policy=kick", "remind, skip, bot"),
        ("colour=red", "Unknown setting 'colour'"),
        ("deadline", "key=value"),
    ]:
        assert why in await chat.text("alice", f"/settings {bad}"), bad
    assert (await chat.table.store.chat(chat.chat_key)).settings == {}  # nothing saved
    text = await chat.text("alice", "/settings deadline=6h reminders=off policy=skip tz=+02:00")
    assert "Settings saved" in text and "Deadline 6 hours per move; reminders at none" in text
    chat.admins.add("carol")
    text = await chat.text("carol", "/settings quiet=22-08 tz=Europe/Berlin")
    assert "quiet hours 22-08 (time zone Europe/Berlin)" in text and "(skip)" in text
    text = await chat.text("carol", "/settings hints=off games=dicepile pictures=round")
    assert "Hints (/hint): off." in text and "after each round (round)" in text
    assert f"Games offered here: {chat.table.games['dicepile'].name}." in text
    saved = (await chat.table.store.chat(chat.chat_key)).settings
    assert saved["deadline_hours"] == 6 and saved["policy"] == "skip"
    # The table's deadline follows the setting.
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    row = present(await chat.table.store.open_game(chat.chat_key))
    plan = await chat.table.store.turn_plan(row.id)
    assert plan is not None and plan.deadline_at - plan.turn_started_at == 6 * H


async def test_digest_in_private_lists_the_games_waiting_for_you(
    table: Table, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    one, two = Chat(table, chat_key="local:one"), Chat(table, chat_key="local:two")
    await started(one, "bob")
    await two.say("bob", "/new dicepile")
    await two.say("alice", "/join")
    await two.say("bob", "/start")
    dm = Chat(table, chat_key="local:dm-alice")
    await table.store.set_chat_name("local:one", "Kitchen", None)  # issue 17: titles
    await table.store.set_chat_name("local:two", "Garden", None)

    async def private(text: str) -> str:
        ib = dm.inbound("alice", text=text)
        return joined(await table.handle(type(ib)(**{**ib.__dict__, "is_private": True})))

    assert "private chat" in await one.text("alice", "/digest on")
    assert "Daily digest at 8:00 (UTC)" in await private("/digest on 8")
    await sched.run_due()
    outbox.take()
    clock.now = datetime(2023, 11, 15, 8, 0, tzinfo=UTC).timestamp()
    await sched.run_due()
    digest = [o for o in outbox.take() if o.chat_key == "local:dm-alice"]
    assert len(digest) == 1 and "Kitchen" in digest[0].text and "Garden" not in digest[0].text
    clock.advance(3 * 24 * H)  # three days down: one digest, not three
    await sched.run_due()
    assert len([o for o in outbox.take() if o.chat_key == "local:dm-alice"]) == 1
    assert "Daily digest off" in await private("/digest off")


async def test_the_digest_takes_the_players_own_time_zone(table: Table) -> None:
    """Found play-testing, 2026-12-03: after `/me tz=Asia/Taipei`, `/digest on 8` answered
    8:00 (UTC); his time zone is "for every table". An explicit tz= still wins."""
    dm = Chat(table, chat_key="local:dm-alice")

    async def private(text: str) -> str:
        ib = replace(dm.inbound("alice", text=text), is_private=True)
        return joined(await table.handle(ib))

    await private("/me tz=Asia/Taipei")
    assert "Daily digest at 8:00 (Asia/Taipei)" in await private("/digest on 8")
    assert "Daily digest at 9:00 (Asia/Taipei)" in await private("/digest on 9")  # kept
    assert "Daily digest at 9:00 (Europe/Warsaw)" in await private("/digest on tz=Europe/Warsaw")


async def test_a_turn_begun_in_the_chats_quiet_hours_notifies_at_their_end(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    """The table's ask notifies nobody in the chat's quiet hours (bot/announce.py), so the
    turn's start point, held to their end, is the notification: a private prompt that is not
    silent even 5 minutes after the turn began, and for a player the bot cannot write to
    privately, a mention in the chat (a start point on time mentions nobody: the ask did)."""
    clock.now = datetime(2023, 11, 15, 6, 55, tzinfo=UTC).timestamp()
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/settings deadline=6h quiet=23-07 tz=UTC")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")  # alice to act, 06:55: quiet
    await sched.run_due()
    assert outbox.take() == []
    clock.now = datetime(2023, 11, 15, 7, 0, tzinfo=UTC).timestamp()
    await sched.run_due()
    [start] = outbox.take()
    assert start.private_to is None and start.mentions == [("local:alice", "alice")]
    assert start.text.startswith("@alice") and not start.silent, start.text
    # bob can be written to privately: his turn, begun at 07:10, is on time and silent
    await chat.table.store.set_user("local:bob", dm_ok=True)
    clock.now = datetime(2023, 11, 15, 7, 10, tzinfo=UTC).timestamp()
    await chat.say("alice", "/take 1")
    await sched.run_due()
    [prompt] = [o for o in outbox.take() if o.private_to == "local:bob"]
    assert prompt.silent


async def test_a_private_start_prompt_held_by_the_chats_quiet_hours_notifies(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    clock.now = datetime(2023, 11, 15, 6, 55, tzinfo=UTC).timestamp()
    await chat.table.store.set_user("local:alice", dm_ok=True)
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/settings deadline=6h quiet=23-07 tz=UTC")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    clock.now = datetime(2023, 11, 15, 7, 0, tzinfo=UTC).timestamp()  # 5 minutes later
    await sched.run_due()
    [start] = outbox.take()
    assert start.private_to == "local:alice" and not start.silent


async def test_a_turn_begun_in_a_players_own_quiet_hours_mentions_him_at_their_end(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    """/me quiet=23-07: the table's ask did not ping him (bot/announce.py), so his turn's start
    point, held to his morning, mentions him in the chat (he gets no private messages)."""
    await chat.say("alice", "/me quiet=23-07 tz=UTC")
    await _asked_in_quiet_hours_then_mentioned_at_seven(
        chat, outbox, sched, clock, "/settings deadline=6h"
    )


async def _asked_in_quiet_hours_then_mentioned_at_seven(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock, settings: str
) -> None:
    """alice's turn begins at 06:55, in quiet hours (23-07, the chat's or her own): nothing
    until 07:00, then one mention of her that notifies (she gets no private messages)."""
    clock.now = datetime(2023, 11, 15, 6, 55, tzinfo=UTC).timestamp()
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", settings)
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")  # alice to act, 06:55: quiet
    outbox.take()
    await sched.run_due()
    assert outbox.take() == []
    clock.now = datetime(2023, 11, 15, 7, 0, tzinfo=UTC).timestamp()
    await sched.run_due()
    [start] = outbox.take()
    assert start.mentions == [("local:alice", "alice")] and not start.silent, start.text


async def test_a_chat_without_a_start_reminder_still_hears_an_ask_its_quiet_hours_held(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    """`reminders=50`: the chat wants no start reminder. A turn begun in its quiet hours was
    asked without a ping (bot/announce.py), so at their end the players it held are told once;
    a turn begun outside them gets nothing before its 50 % point."""
    await _asked_in_quiet_hours_then_mentioned_at_seven(
        chat, outbox, sched, clock, "/settings deadline=6h reminders=50 quiet=23-07 tz=UTC"
    )
    clock.advance(60)
    await sched.run_due()
    assert outbox.take() == []  # told once
    clock.now = datetime(2023, 11, 15, 7, 10, tzinfo=UTC).timestamp()
    await chat.say("alice", "/take 1")  # bob's turn, on time: the ask pinged him
    outbox.take()
    clock.advance(60 * 60)
    await sched.run_due()
    assert outbox.take() == []
    clock.now = datetime(2023, 11, 15, 10, 10, tzinfo=UTC).timestamp()  # his 50 % point
    await sched.run_due()
    [half] = outbox.take()
    assert half.mentions == [("local:bob", "bob")], half.text


async def test_a_new_deadline_during_a_turn_says_the_turn_keeps_its_own(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    """Found play-testing through Telegram, 2026-12-05: "/settings deadline=10m" answered
    "Deadline 10 minutes per move" while the turn under way kept its 24 hours, unsaid. The
    running turn keeps its promise (as designed); now the answer says so."""
    await chat.say("alice", "/new dicepile")
    lobby = await chat.text("alice", "/settings deadline=2h")
    assert "Settings saved" in lobby and "keeps its deadline" not in lobby  # no turn yet
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    text = await chat.text("alice", "/settings deadline=10m")
    assert "Deadline 10 minutes per move" in text
    assert "The turn under way keeps its deadline; the new one applies from the next turn." in text
    assert "keeps its deadline" not in await chat.text("alice", "/settings reminders=50")
