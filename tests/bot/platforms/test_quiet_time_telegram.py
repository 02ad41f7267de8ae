"""A table you can live with for a week (issue 17) through the real Telegram Application over
the fake Bot API (in process): a player's acknowledgements of his own moves in a row are one
private message, edited, silent; the time bank runs down and refills as the group reads it in
/status and the expiry; quiet hours hold a reminder back across a restart and it is sent once
they end."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.platforms.telegram import adapter_of, build_application
from bot.scheduler import Scheduler
from bot.store import Store
from bot.table import Table
from tests.bot.helpers import FakeClock
from tests.bot.platforms.fake_telegram import DictRequest, make_settings, unthrottled
from tests.bot.platforms.test_chat_names import ANN, BOB, FRIDAY, World
from tests.bot.platforms.test_telegram_closed_dm_restart import restarted
from tests.bot.platforms.test_telegram_table import world  # noqa: F401
from tests.bot.test_quiet_fold import Noted

pytestmark = pytest.mark.timeout(60)

H = 3600.0
ID = {"Ann": ANN, "Bob": BOB}


async def current(store: Store) -> tuple[str, str]:
    """(who acts, the other) in the Friday game."""
    row = await store.open_game(f"tg:{FRIDAY}")
    assert row is not None and row.state_json is not None
    first = Noted().current_players(json.loads(row.state_json))[0]
    return first, "Bob" if first == "Ann" else "Ann"


async def opened(w: World) -> None:
    """Both players opened a private chat with the bot (so it may write to them there)."""
    for who in ("Ann", "Bob"):
        await w.say(who, "/help", chat=ID[who])


async def test_acknowledgements_of_ones_own_moves_in_a_row_are_one_private_message(
    store: Store, clock: FakeClock
) -> None:
    w = World(store, clock)
    w.table = Table(store, games={"dicepile": Noted()}, clock=clock, seeder=lambda: 12345)
    w.app = build_application(
        w.table, make_settings(), request=DictRequest(w.api), rate_limiter=unthrottled()
    )
    w.adapter = adapter_of(w.app)
    await w.app.initialize()
    await w.adapter.setup(w.app)
    try:
        await opened(w)
        await w.say("Ann", "/new dicepile start=20")
        await w.say("Bob", "/join")
        await w.say("Ann", "/start")
        who, other = await current(store)
        mark = len(w.api.calls)
        await w.say(who, "/again 1")
        await w.say(who, "/again 2")
        await w.say(who, "/take 1")  # his turn ends

        def dm(since: int, user: str, *methods: str) -> list[Any]:
            return [c for c in w.api.since(since, *methods) if c.chat_id == ID[user]]

        [posted] = dm(mark, who, "sendMessage")
        assert posted.text == "You took 1."
        assert posted.params.get("disable_notification") == "true"
        edits = dm(mark, who, "editMessageText")
        assert len(edits) == 2 and all(
            e.params["message_id"] == str(posted.message_id) for e in edits
        )
        assert w.api.sent[posted.message_id]["text"] == "You took 1.\nYou took 2.\nYou took 1."
        # the moves were announced in the group as usual
        assert any(c.chat_id == FRIDAY for c in w.api.since(mark))

        # the other player's move: his own acknowledgement, a message of its own
        mark = len(w.api.calls)
        await w.say(other, "/take 1")
        assert [c.text for c in dm(mark, other, "sendMessage")] == ["You took 1."]
        # somebody moved since the first player's last acknowledgement: a new message
        await w.say(who, "/again 1")
        assert [c.text for c in dm(mark, who, "sendMessage")] == ["You took 1."]
        assert not dm(mark, who, "editMessageText")
    finally:
        await w.table.stop_senders()
        await w.app.shutdown()


def banks(texts: list[str]) -> dict[str, str]:
    """The time banks the last /status read: player -> what is left."""
    line = [m for t in texts for m in re.findall(r"Time banks: ([^\n]*)\.", t)][-1]
    return dict(part.split(" ", 1) for part in line.split(", "))


async def test_the_time_bank_runs_down_and_refills_through_telegram(
    world: World,  # noqa: F811
    store: Store,
    clock: FakeClock,
) -> None:
    sched = Scheduler(world.table, clock=clock)
    await world.say("Ann", "/new dicepile")
    saved = await world.say("Ann", "/settings clock=bank:1d+12h policy=skip")
    assert any("Time bank per player: 1 day to start, 12 hours" in c.text for c in saved)
    await world.say("Bob", "/join")
    await world.say("Ann", "/start")
    await sched.run_due()
    await world.drained()
    first, second = await current(store)

    async def status() -> dict[str, str]:
        return banks([c.text for c in await world.say(second, "/status")])

    clock.advance(5 * H)
    assert await status() == {first: "19 hours", second: "1 day"}  # running down
    clock.advance(5 * H)
    await world.say(first, "/take 1")  # 10 h spent: 1 d - 10 h + 12 h
    clock.advance(1 * H)
    await world.say(second, "/take 1")  # 1 h spent: 1 d - 1 h + 12 h
    await sched.run_due()
    await world.drained()
    assert await status() == {first: "1 day 2 hours", second: "1 day 11 hours"}
    # the bank, not the 24 h deadline, is what runs out: at 26 h, the group hears it (the
    # 50 % reminder goes on time: one sent late would push the expiry, bot/expiry.py)
    mark = len(world.api.calls)
    clock.advance(13 * H)
    await sched.run_due()
    clock.advance(13 * H - 1)
    await sched.run_due()
    await world.drained()
    assert not any("ran out of time" in c.text for c in world.api.messages(mark))
    clock.advance(1)
    await sched.run_due()
    await world.drained()
    expired = f"{first} ran out of time: the default move is played."
    group = [c for c in world.api.since(mark, "sendMessage", "editMessageText")]
    assert any(expired in c.text and c.chat_id == FRIDAY for c in group)
    # the empty bank got its 12 h back with the default move; the other's refills at once
    await world.say(second, "/take 1")
    assert await status() == {first: "12 hours", second: "1 day 23 hours"}


async def test_quiet_hours_hold_the_reminder_across_a_restart_through_telegram(
    world: World,  # noqa: F811
    store: Store,
    clock: FakeClock,
) -> None:
    await opened(world)
    # 22:13 UTC is 23:13 in Warsaw's winter: both sleep until 08:00 there, 07:00 UTC
    for who in ("Ann", "Bob"):
        [saved] = await world.say(who, "/me tz=Europe/Warsaw quiet=23-08", chat=ID[who])
        assert "Saved." in saved.text
    await world.say("Ann", "/new dicepile")
    await world.say("Bob", "/join")
    await world.say("Ann", "/start")
    first, _ = await current(store)
    mark = len(world.api.calls)
    await Scheduler(world.table, clock=clock).run_due()
    await world.drained()

    def reminders(since: int, api: Any) -> list[Any]:
        return [
            c
            for c in api.since(since, "sendMessage")
            if c.chat_id == ID[first] and "Your move in Dice pile" in c.text
        ]

    assert reminders(mark, world.api) == []  # held back for her quiet hours
    wake = datetime(2023, 11, 15, 7, 0, tzinfo=UTC).timestamp()
    assert await store.next_wake() == wake  # stored: the restart reads it

    await world.table.stop_senders()  # the process goes down
    again = restarted(world, store, clock)
    await again.app.initialize()
    await again.adapter.setup(again.app)
    try:
        sched = Scheduler(again.table, clock=clock)
        clock.now = wake - 60
        await sched.run_due()
        await again.drained()
        assert reminders(mark, again.api) == []
        clock.now = wake
        await sched.run_due()
        await again.drained()
        [reminder] = reminders(mark, again.api)
        assert reminder.params.get("disable_notification") != "true"  # it asks: it notifies
        assert reminder.buttons  # act from the reminder
        await sched.run_due()
        await again.drained()
        assert len(reminders(mark, again.api)) == 1  # once
    finally:
        await again.table.stop_senders()
        await again.app.shutdown()
