"""The scheduler loop in virtual time: it sleeps until the next due time, wakes early on a
move or a setting, and never polls (bot/scheduler.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.messages import Outbound
from bot.scheduler import Scheduler
from bot.store import Due, Store
from bot.table import Table
from engine.core import canonical_json
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock, joined, present

H = 3600.0


class VirtualSleep:
    """An injected sleep: jumps the fake clock forward instead of waiting. Once the clock
    reaches `end` it blocks (until cancelled) and says so through `reached`."""

    def __init__(self, clock: FakeClock, end: float) -> None:
        self.clock = clock
        self.end = end
        self.asked: list[float] = []
        self.reached = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        if self.clock.now + seconds > self.end:
            self.reached.set()
            await asyncio.Future()  # never: the test stops the scheduler
        self.clock.advance(seconds)
        await asyncio.sleep(0)


class BlockingSleep:
    """A sleep that never ends by itself: only an early wake-up gets the loop going."""

    def __init__(self) -> None:
        self.asked: list[float] = []
        self.changed = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        self.changed.set()
        await asyncio.Future()


async def settles(condition: Callable[[], bool], turns: int = 10_000) -> bool:
    """Let other tasks run (the fake clock stands still) until `condition` holds. Each turn
    yields for a millisecond: the store answers from its thread, and on a loaded machine
    10,000 bare yields of the loop can pass before it does."""
    for _ in range(turns):
        if condition():
            return True
        await asyncio.sleep(0.001)
    return condition()


async def sent_to(table: Table) -> list[Outbound]:
    box: list[Outbound] = []

    async def send(out: Outbound) -> None:
        box.append(out)

    table.register_sender("local", send)
    return box


async def test_a_thousand_tables_wake_the_scheduler_only_when_something_is_due(
    store: Store, clock: FakeClock
) -> None:
    game = ChatDicePile()
    table = Table(store, games={"dicepile": game}, clock=clock)
    box = await sent_to(table)
    start = clock.now
    deadlines = set()
    for i in range(1000):
        chat = f"local:t{i}"
        # Deadlines from 10 minutes to a day, one 50 % reminder each: 2,000 distinct times.
        deadline = 600.0 + i * 85.7
        deadlines.add(deadline)
        await store.set_chat_settings(chat, {"deadline_hours": deadline / H, "reminders": [50]})
        _, pk = await store.create_game(chat, "dicepile", {}, "local:a", ("local:a", "a", None))
        await store.add_seat(pk, "local:b", "b", max_players=4)
        state = game.setup(["a", "b"], {}, i)
        await store.start_game(
            pk, i, ["a", "b"], canonical_json(state), Due(["a"], start, start + deadline)
        )
    distinct = 1 + 2 * len(deadlines)  # the planning at the start, 50 %, expiry
    sleep = VirtualSleep(clock, end=start + 24 * H + 1)
    sched = Scheduler(table, clock=clock, sleep=sleep)
    sched.start()
    await asyncio.wait_for(sleep.reached.wait(), 120)
    await sched.stop()
    assert len(box) == 2000  # every reminder and every expiry notice, each once
    assert sum("Time is up" in o.text for o in box) == 1000
    assert sched.timer_wakeups <= distinct + 24 * H / sched.max_sleep + 2
    assert sched.early_wakeups <= 2
    assert all(s > 0 for s in sleep.asked[1:])  # never a busy loop


async def test_a_move_and_a_setting_wake_the_sleeping_scheduler(
    store: Store, clock: FakeClock
) -> None:
    table = Table(store, games={"dicepile": ChatDicePile()}, clock=clock, seeder=lambda: 3)
    box = await sent_to(table)
    sleep = BlockingSleep()
    sched = Scheduler(table, clock=clock, sleep=sleep, max_sleep=48 * H)
    sched.start()
    await asyncio.wait_for(sleep.changed.wait(), 5)
    assert sleep.asked == [sched.max_sleep]  # nothing scheduled yet
    chat = Chat(table)
    await chat.say("alice", "/new dicepile")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    # Planned at once: the next look is at the 50 % point.
    assert await settles(lambda: sleep.asked[-1] == 12 * H)
    await chat.say("alice", "/settings reminders=10")
    assert await settles(lambda: abs(sleep.asked[-1] - 2.4 * H) < 1e-6)
    assert sched.timer_wakeups == 0 and sched.early_wakeups >= 2
    await sched.stop()
    assert box == []


class GatedSleep:
    """`settle`-long sleeps wait for the test's `gate`; any other never ends by itself."""

    def __init__(self, settle: float) -> None:
        self.settle = settle
        self.asked: list[float] = []
        self.gate = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        if seconds == self.settle:
            await self.gate.wait()
        else:
            await asyncio.Future()


async def test_a_burst_of_messages_costs_the_scheduler_one_pass(
    store: Store, clock: FakeClock
) -> None:
    """Issue 23: `boardchat run` lets the changes that follow a wake-up gather for `settle`
    seconds, so a busy table's moves share one pass of the store's queries; the pass still
    sees every one of them."""
    table = Table(store, games={"dicepile": ChatDicePile()}, clock=clock, seeder=lambda: 3)
    box = await sent_to(table)
    sleep = GatedSleep(settle=0.25)
    sched = Scheduler(table, clock=clock, sleep=sleep, max_sleep=48 * H, settle=0.25)
    sched.start()
    assert await settles(lambda: sleep.asked == [48 * H])
    chat = Chat(table)
    await chat.say("alice", "/new dicepile")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    await chat.say("alice", "/settings reminders=10")
    assert sleep.asked == [48 * H, 0.25]  # four wake-ups, one settling, no pass yet
    sleep.gate.set()
    # One pass planned the new turn with the last setting: the next look at 10 %.
    assert await settles(lambda: len(sleep.asked) == 3)
    assert abs(sleep.asked[2] - 2.4 * H) < 1e-6
    assert sched.early_wakeups == 1 and sched.timer_wakeups == 0
    await sched.stop()
    assert box == []


async def test_after_downtime_expiry_policies_apply_in_order_of_due_time(
    db_path: str, clock: FakeClock
) -> None:
    store = await Store.open(db_path, clock=clock)
    table = Table(store, games={"dicepile": ChatDicePile()}, clock=clock, seeder=lambda: 9)
    chats = [Chat(table, chat_key=f"local:c{i}") for i in range(3)]
    for i, chat in enumerate(chats):
        await chat.say("alice", "/new dicepile")
        await chat.say("alice", f"/settings policy=skip deadline={3 - i}h reminders=off")
        await chat.say("bob", "/join")
        await chat.say("alice", "/start")
    await store.close()
    clock.advance(5 * H)
    store = await Store.open(db_path, clock=clock)
    table = Table(store, games={"dicepile": ChatDicePile()}, clock=clock)
    box = await sent_to(table)
    await Scheduler(table, clock=clock).run_due()
    notes = [o.chat_key for o in box if "ran out of time" in o.text]
    assert notes == ["local:c2", "local:c1", "local:c0"]  # deadlines 1 h, 2 h, 3 h
    assert all("alice takes" in joined([o for o in box if o.chat_key == c]) for c in notes)
    await store.close()


async def test_a_failing_turn_is_retried_later_not_in_a_hot_loop(
    chat: Chat, table: Table, clock: FakeClock
) -> None:
    await chat.say("alice", "/new dicepile")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    sched = Scheduler(table, clock=clock)

    async def broken(plan: object, now: float) -> None:
        raise RuntimeError("boom")

    table.reminders.process_turn = broken  # type: ignore[method-assign]
    assert await sched.run_due() == 1
    row = present(await table.store.open_game(chat.chat_key))
    plan = await table.store.turn_plan(row.id)
    assert plan is not None and plan.next_at == clock.now + H


async def test_other_workers_changes_wake_it_once_per_quiet_period(
    store: Store, clock: FakeClock
) -> None:
    """Issue 23: every move on PostgreSQL notifies every worker; a burst of them wakes this
    scheduler once at once and once at the end of the quiet period, not once each."""
    table = Table(store, games={"dicepile": ChatDicePile()}, clock=clock, seeder=lambda: 3)
    sched = Scheduler(table, clock=clock)
    sched.others_quiet = 0.0  # the period ends at the loop's next turn
    woken: list[int] = []
    sched.wake = lambda: woken.append(1)  # type: ignore[method-assign]
    for _ in range(100):  # a burst within one turn of the loop
        sched.wake_from_other()
    assert len(woken) == 1  # at once, for the first
    for _ in range(5):
        await asyncio.sleep(0)
    assert len(woken) == 2  # one more at the period's end, for the 99 others; then none
    await sched.stop()
