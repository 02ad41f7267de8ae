"""Time that fits real lives (issue 17): a time bank per player, a person's own time zone and
quiet hours (/me), and the pace line of /status; in virtual time (an injected clock)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot.clock import account, most_waiting, spent
from bot.deadlines import Bank, ChatSettings, parse_bank, parse_tz, valid_clock
from bot.pace import end_estimate, pace_line
from bot.scheduler import Scheduler
from bot.store import Store
from bot.table import Table
from engine import registry
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock, Outbox, joined
from tests.bot.test_quiet_table import quiet_table
from tests.bot.test_reminders import started

H = 3600.0
D = 24 * H


# ---------------------------------------------------------------------- the time bank
def test_bank_settings_parse_and_refuse() -> None:
    assert parse_bank("bank:3d+12h") == Bank(3 * D, 12 * H)
    assert parse_bank("bank:2d") == Bank(2 * D, 0.0)
    assert valid_clock("bank:1d12h+30m") == "bank:1d12h+30m"
    assert valid_clock("deadline") == "deadline" and valid_clock("off") == "deadline"
    for bad in ("bank:", "bank:3x", "bank:1m", "bank:3d+", "bank:3d+1y", "3d+12h", "bank:99d"):
        assert valid_clock(bad) is None, bad


def test_a_bank_runs_down_never_below_zero_and_refills_after_each_move() -> None:
    bank = Bank(1 * D, 12 * H)
    t0 = 1_000_000.0
    # A first turn of 10 h: 1 d - 10 h + 12 h = 26 h left.
    turns: list[list[float | None]] = [[t0, t0 + 10 * H]]
    assert account(turns, bank, t0 + 11 * H) == account(turns, bank, t0) and (
        account(turns, bank, t0).left == 26 * H
    )
    # The second turn starts at +11 h: its deadline is 26 h later; 5 h in, 21 h are left.
    turns.append([t0 + 11 * H, None])
    now = t0 + 16 * H
    assert account(turns, bank, now).deadline == t0 + 37 * H
    assert account(turns, bank, now).left == 21 * H
    # It ran 40 h: the bank is empty (not -14 h), and the move refills it by 12 h.
    turns[-1][1] = t0 + 51 * H
    assert account(turns, bank, t0 + 52 * H).left == 12 * H
    assert spent(turns, t0 + 52 * H) == 50 * H


async def test_time_bank_runs_down_expires_under_skip_and_refills(
    chat: Chat, table: Table, clock: FakeClock
) -> None:
    sent = Outbox(table)
    sched = Scheduler(table, clock=clock)
    await chat.say("alice", "/new dicepile")
    answer = joined(await chat.say("alice", "/settings clock=bank:1d+12h policy=skip"))
    assert "Settings saved" in answer and "Time bank per player: 1 day to start, 12 hours" in (
        answer
    )
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    await sched.run_due()
    clock.advance(5 * H)
    status = joined(await chat.say("bob", "/status"))
    assert "Time banks: alice 19 hours, bob 1 day." in status and "Deadline:" not in status
    clock.advance(5 * H)
    await chat.say("alice", "/take 1")  # 10 h spent: 1 d - 10 h + 12 h = 26 h
    clock.advance(1 * H)
    await chat.say("bob", "/take 1")
    await sched.run_due()
    assert "Time banks: alice 1 day 2 hours, bob 1 day 11 hours." in joined(
        await chat.say("bob", "/status")
    )
    # The per-move deadline (24 h) does not apply: alice's bank holds 26 h (her 50 % reminder
    # goes on time: one sent late would push her expiry a last call after it, bot/expiry.py).
    clock.advance(13 * H)
    await sched.run_due()
    clock.advance(11 * H)
    await sched.run_due()
    assert not any("ran out of time" in o.text for o in sent.take())
    clock.advance(2 * H - 1)
    await sched.run_due()
    assert not any("ran out of time" in o.text for o in sent.take())
    clock.advance(1)
    await sched.run_due()
    assert any("alice ran out of time: the default move is played." in o.text for o in sent.take())
    # Bob moves at once (35 h + 12 h); alice's empty bank got the 12 h of her (default)
    # move back.
    await chat.say("bob", "/take 1")
    assert "Time banks: alice 12 hours, bob 1 day 23 hours." in joined(
        await chat.say("bob", "/status")
    )


# ---------------------------------------------------------------------- /me and quiet hours
async def test_me_shows_saves_and_refuses(chat: Chat) -> None:
    assert "Your time zone: not set (UTC); your quiet hours: off." in await chat.text("ann", "/me")
    answer = await chat.text("ann", "/me tz=Europe/Warsaw quiet=23-08")
    assert "Saved." in answer and "Europe/Warsaw" in answer and "23-08" in answer
    assert "Europe/Warsaw" in await chat.text("ann", "/me")
    assert "quiet takes two" in await chat.text("ann", "/me quiet=8-8")
    assert "tz takes" in await chat.text("ann", "/me tz=Mars/Base")
    assert "Unknown setting" in await chat.text("ann", "/me colour=blue")
    assert "off" in await chat.text("ann", "/me quiet=off")


async def test_a_zone_name_is_taken_whatever_its_capitals(chat: Chat) -> None:
    """Found by a play-tester: "/me tz=europe/warsaw", as a phone keyboard writes it, was
    refused ("tz takes an offset like +02:00 or a zone name like Europe/Berlin"); /settings
    and /digest the same. Any capitals name the zone, stored and shown as the database
    spells it."""
    for typed, zone in [
        ("europe/warsaw", "Europe/Warsaw"),
        ("ASIA/KOLKATA", "Asia/Kolkata"),
        ("Pacific/auckland", "Pacific/Auckland"),
        ("america/argentina/buenos_aires", "America/Argentina/Buenos_Aires"),
    ]:
        assert parse_tz(typed) == zone
    assert "Your time zone: Europe/Warsaw;" in await chat.text("ann", "/me tz=europe/warsaw")
    await chat.say("ann", "/new dicepile")
    assert "(time zone Pacific/Auckland)" in await chat.text("ann", "/settings tz=pacific/auckland")
    assert ChatSettings.load((await chat.table.store.chat(chat.chat_key)).settings).tz == (
        "Pacific/Auckland"
    )
    assert parse_tz("europe/atlantis") is None and parse_tz("../etc/passwd") is None


async def test_quiet_hours_are_respected_after_a_restart(db_path: str, clock: FakeClock) -> None:
    def open_table(store: Store) -> Table:
        return Table(store, games={"dicepile": ChatDicePile()}, clock=clock, seeder=lambda: 1)

    store = await Store.open(db_path, clock=clock)
    table = open_table(store)
    chat = Chat(table)
    await store.set_user("local:alice", dm_ok=True)
    # 22:13 UTC is 00:13 in Warsaw's winter (+01:00): alice sleeps until 08:00, 07:00 UTC.
    await chat.say("alice", "/me tz=Europe/Warsaw quiet=23-08")
    pk = await started(chat, "bob")
    wake = datetime(2023, 11, 15, 7, 0, tzinfo=UTC).timestamp()
    sent = Outbox(table)
    await Scheduler(table, clock=clock).run_due()
    assert sent.take() == []  # the start reminder waits for the end of her quiet hours
    plan = await store.turn_plan(pk)
    assert plan is not None and plan.next_at == wake  # stored: the restart reads it
    await store.close()

    store = await Store.open(db_path, clock=clock)  # the restart
    table = open_table(store)
    sent = Outbox(table)
    sched = Scheduler(table, clock=clock)
    assert await store.next_wake() == wake
    clock.now = wake - 60
    await sched.run_due()
    assert sent.take() == []
    clock.now = wake
    await sched.run_due()
    [start] = sent.take()
    assert start.private_to == "local:alice" and "Your move in Dice pile" in start.text
    await sched.run_due()
    assert sent.take() == []  # once
    await store.close()


async def test_a_players_quiet_hours_hold_the_expiry_a_last_call_after_his_reminder(
    chat: Chat, table: Table, clock: FakeClock
) -> None:
    """Her own quiet hours hold her reminders to their end, and the expiry waits a last call
    after the first of them (bot/expiry.py). Before, the expiry was the table's alone and came
    in the night with every reminder still held (found by a play-tester: /me promises
    "Reminders that fall in your quiet hours wait until they end")."""
    sent = Outbox(table)
    sched = Scheduler(table, clock=clock)
    await chat.say("alice", "/me tz=UTC quiet=22-21")  # awake 21:00-22:00 only
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/settings deadline=1h policy=skip")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")  # 22:13
    await sched.run_due()
    clock.advance(0.5 * H)
    await sched.run_due()
    assert sent.take() == []  # the 50 % reminder waits for 21:00
    clock.advance(0.5 * H)
    await sched.run_due()
    assert sent.take() == []  # the deadline (23:13) passed: the expiry waits for her reminder
    nine = datetime(2023, 11, 15, 21, 0, tzinfo=UTC).timestamp()
    clock.now = nine
    await sched.run_due()
    [reminder] = sent.take()
    assert "Reminder" in reminder.text and "1 hour left" in reminder.text, reminder.text
    clock.now = nine + H - 1
    await sched.run_due()
    assert sent.take() == []
    clock.now = nine + H  # the last call: an hour (her turn began in her quiet hours)
    await sched.run_due()
    assert any("alice ran out of time" in o.text for o in sent.take())


# ---------------------------------------------------------------------- the pace line
def test_pace_line_estimates_the_end_day_and_who_waits(clock: FakeClock) -> None:
    now = clock.now  # Tuesday 2023-11-14 22:13 UTC
    state = {"options": {"rounds": 10}, "round": 6}  # Hexania, half way (HEX-2.6 limit)
    done = registry.get("hexania").progress(state)
    assert done == 0.5
    assert end_estimate(now - 2 * D, now, 0.5) == now + 2 * D
    turns: dict[str, list[list[float | None]]] = {
        "ann": [[now - 2 * D, now - 2 * D + H]],
        "bob": [[now - D, None]],
    }
    assert most_waiting(turns, ["ann", "bob"], now) == "bob"
    line = pace_line("en", done, turns, ["ann", "bob"], now - 2 * D, now, "UTC")
    assert line == "At this pace the game ends about Thursday; most waiting is on bob."
    assert "четверг" in pace_line("ru", done, turns, ["ann", "bob"], now - 2 * D, now, "UTC")
    assert "czwartek" in pace_line("pl", done, turns, ["ann", "bob"], now - 2 * D, now, "UTC")
    # Too early to say: only who waits.
    early = registry.get("hexania").progress({"options": {"rounds": 10}, "round": 1})
    line = pace_line("en", early, turns, ["ann", "bob"], now - D, now, "UTC")
    assert line == "Most waiting so far is on bob."
    assert ChatDicePile().progress({}) is None  # a game without a measure
    # In the game's first hour nobody is named: bob would be blamed for having the first turn.
    first: dict[str, list[list[float | None]]] = {
        "ann": [[now - H / 2, now - H / 3]],
        "bob": [[now - H / 3, None]],
    }
    assert most_waiting(first, ["ann", "bob"], now) == "bob"
    assert pace_line("en", early, first, ["ann", "bob"], now - H / 2, now, "UTC") == ""


def test_the_pace_line_says_today_and_tomorrow_in_the_readers_calendar() -> None:
    """Found play-testing: on a Monday /status said "the game ends about Monday", today or a
    week on. Today and tomorrow are said so (the reader's words), the weekday within the
    week, the date beyond; days are counted in the chat's time zone."""
    now = datetime(2026, 3, 2, 8, 0, tzinfo=UTC).timestamp()  # Monday 08:00 UTC
    turns: dict[str, list[list[float | None]]] = {}

    def line(ends_in: float, lang: str = "en", tz: str = "UTC") -> str:
        # half done after `ends_in`: it ends as far ahead as it began behind
        return pace_line(lang, 0.5, turns, ["ann"], now - ends_in, now, tz)

    assert line(6 * H) == "At this pace the game ends about today."
    assert line(20 * H) == "At this pace the game ends about tomorrow."
    assert line(3 * D) == "At this pace the game ends about Thursday."
    assert line(7 * D) == "At this pace the game ends about Mar 9, 2026."  # not "Monday"
    assert line(8 * H).endswith("about today.")  # 16:00 UTC
    assert line(8 * H, tz="Asia/Tokyo").endswith("about tomorrow.")  # 01:00 in Tokyo
    assert "сегодня" in line(6 * H, "ru") and "jutro" in line(20 * H, "pl")
    assert "明天" in line(20 * H, "zh_Hant")


class Halfway(ChatDicePile):
    """The dice pile, always half played: the pace line dates the end as far ahead as the
    game began behind."""

    def progress(self, state: dict[str, object]) -> float:
        return 0.5


async def test_the_pace_line_of_a_group_post_is_dated_in_the_chat_s_zone(
    store: Store, clock: FakeClock
) -> None:
    """Found by a play-tester: the same group, the same minute, /status said the game ends
    "today" when ann asked and "tomorrow" when bob (/me tz=America/Los_Angeles) did: the
    group's post was dated in the asker's own zone. It is dated in the chat's (Thursday
    09:00 in Auckland, the end at 23:00); asked privately, in the reader's own (Wednesday
    noon in Los Angeles, the end on Thursday 02:00)."""
    clock.now = datetime(2026, 1, 14, 6, 0, tzinfo=UTC).timestamp()
    table = Table(store, games={"dicepile": Halfway()}, clock=clock, seeder=lambda: 1)
    chat = Chat(table)
    await chat.say("bob", "/me tz=America/Los_Angeles")
    await chat.say("ann", "/new dicepile")
    await chat.say("ann", "/settings tz=Pacific/Auckland")
    await chat.say("bob", "/join")
    await chat.say("ann", "/start")
    clock.advance(14 * H)
    for who in ("ann", "bob"):
        assert "At this pace the game ends about today;" in await chat.text(who, "/status")
    private = Chat(table, chat_key="local:dm-bob")
    answer = await table.handle(replace(private.inbound("bob", "/status"), is_private=True))
    assert "At this pace the game ends about tomorrow;" in joined(answer)


def test_nobody_is_named_while_the_longest_wait_is_shared(clock: FakeClock) -> None:
    """Players deciding together since the game began have waited exactly as long: naming
    the first seat ("most waiting is on ann") blamed her for everyone."""
    now = clock.now
    together: dict[str, list[list[float | None]]] = {
        "ann": [[now - H, None]],
        "bob": [[now - H, None]],
        "cyd": [[now - 2 * H, now - 1.5 * H]],
    }
    assert most_waiting(together, ["ann", "bob", "cyd"], now) is None
    assert pace_line("en", None, together, ["ann", "bob", "cyd"], now - H, now, "UTC") == ""
    together["bob"] = [[now - H / 2, None]]
    assert most_waiting(together, ["ann", "bob", "cyd"], now) == "ann"


def test_every_game_measures_its_progress_from_its_own_rules() -> None:
    """PG-6 (largest network against the end), ALT-44 (covered cities), HEX-2.6 (rounds),
    IEC-S-9 (turns): 0 at the start, between 0 and 1 after."""
    for game_id in ("powergrid", "powergrid_alt", "hexania", "iec"):
        game = registry.get(game_id)
        state = game.setup(["ann", "bob", "cyd"], {}, 5)
        done = game.progress(state)
        assert done is not None and 0.0 <= done < 0.1, (game_id, done)


async def test_status_says_who_the_table_waits_on_most(
    chat: Chat, table: Table, clock: FakeClock
) -> None:
    await started(chat, "bob")
    clock.advance(H)
    await chat.say("alice", "/take 1")
    clock.advance(5 * H)
    await chat.say("bob", "/take 1")
    clock.advance(H)
    assert "Most waiting so far is on bob." in await chat.text("alice", "/status")


def test_chat_settings_are_read_once_per_settings_text_and_follow_a_change() -> None:
    """`ChatSettings.load` is asked on every move's announcement: it is read once per settings
    text (issue 23), and a changed dict, even the same object changed, reads anew."""
    raw: dict[str, object] = {"tz": "Europe/Warsaw", "deadline_hours": 12, "quiet": [22, 7]}
    first = ChatSettings.load(raw)
    assert ChatSettings.load(dict(raw)) is first  # equal settings: the same frozen value
    assert (first.tz, first.deadline, first.quiet) == ("Europe/Warsaw", 12 * 3600.0, (22, 7))
    raw["tz"] = "Nowhere/Atlantis"  # does not parse: keeps the default
    assert ChatSettings.load(raw).tz == "UTC"
    assert ChatSettings.load({}) == ChatSettings()


async def test_a_replaced_players_waiting_still_counts_and_seconds_name_nobody(
    chat: Chat, table: Table, clock: FakeClock
) -> None:
    """Found play-testing: right after /vote replace gave alice's seat to a bot, /status said
    "Most waiting so far is on bob", who had been on turn for seconds: her 12 hours were
    left out with her seat, and the seconds left were the longest wait."""
    sched = Scheduler(table, clock=clock)
    await started(chat, "bob", "carol")  # alice's turn
    clock.advance(12 * H)  # she is silent: half the deadline
    await chat.say("bob", "/vote replace alice")
    assert "now plays alice's seat" in await chat.text("carol", "/vote replace alice")
    await sched.run_due()  # the bot moves for her: bob's turn
    clock.advance(30)
    status = await chat.text("carol", "/status")
    assert "waiting for bob" in status and "on bob" not in status
    assert "Most waiting so far is on alice." in status
    # Seconds or minutes of waiting name nobody, whenever the game began.
    now = clock.now
    short: dict[str, list[list[float | None]]] = {
        "ann": [[now - 2 * D, now - 2 * D + 60]],
        "bob": [[now - 30, None]],
    }
    assert pace_line("en", None, short, ["ann", "bob"], now - 2 * D, now, "UTC") == ""
    short["bob"] = [[now - H, None]]
    line = pace_line("en", None, short, ["ann", "bob"], now - 2 * D, now, "UTC")
    assert line == "Most waiting so far is on bob."


async def test_the_status_message_pins_the_time_banks_deadline_named_with_its_zone(
    store: Store, clock: FakeClock
) -> None:
    """Under a time bank the per-move deadline does not apply: the pinned status message said
    "Deadline:" a day on while the reminder said three days were left (found by a
    play-tester). It says the bank's, named with the chat's time zone (bot/status_deadline.py)."""
    table = quiet_table(store, clock)
    chat = Chat(table, chat_key="tg:-100", platform="telegram")
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/settings clock=bank:3d+12h policy=skip tz=Europe/Berlin")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")  # Nov 14, 23:13 in Berlin

    async def pinned() -> str:
        rows = [r for r in await store.outbox() if "Deadline" in str(r.body.get("text"))]
        return str(rows[-1].body["text"]).rsplit("\n", 1)[-1]

    assert await pinned() == "Deadline: Nov 17, 2023, 11:13\u202fPM (Europe/Berlin)"
    clock.advance(10 * H)
    await chat.say("alice", "/take 1")  # bob's turn: his 3 days from now (Nov 15, 09:13)
    assert await pinned() == "Deadline: Nov 18, 2023, 9:13\u202fAM (Europe/Berlin)"
    clock.advance(1 * H)
    await chat.say("bob", "/take 1")  # alice: 3 d - 10 h + 12 h = 3 d 2 h from 10:13
    assert await pinned() == "Deadline: Nov 18, 2023, 12:13\u202fPM (Europe/Berlin)"
