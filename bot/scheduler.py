"""One asyncio task that does the table's timed work: turn reminders, expiry policies, the
end of absences and daily digests (bot/reminders.py says what each of them does).

Due times live in the database (bot/store.py), so a restart loses nothing: the task asks the
store for the earliest one, sleeps until then, and does everything due. A move or a settings
change wakes it early (`wake`, which the table calls after every handled message), since the
earliest due time may have moved; `boardchat run` lets the changes of a busy moment gather
for `SETTLE` seconds first, so many moves share one pass. After downtime every overdue turn
is looked at once, in order of due time, and its missed reminder points collapse into one
message.

The clock and the sleep are injected: tests run days of reminders in virtual time.

On a store several worker processes share (PostgreSQL, `bot.store_protocol.SharedStore`) each
due turn is leased to one worker (`lease_due_turns`: `FOR UPDATE SKIP LOCKED` and a lease, so
a reminder fires once whichever worker holds it), and the loop listens for the other workers'
changes (`listen_wake`: a setting, an absence or a replanned turn elsewhere may have moved
the earliest due time; at most one wake-up per `OTHERS_QUIET` seconds) and for their outbox
rows (`listen_outbox`: this worker's sender loop of that platform wakes). A move sends no
NOTIFY: the worker that made it wakes its own scheduler, which plans the new turn; should
that worker die first, another finds the turn within `SHARED_MAX_SLEEP`, the longest any
worker's scheduler sleeps on a shared store.

Start it next to the table (bot/runner.py does):

    scheduler = Scheduler(table)
    scheduler.start()
    ...
    await scheduler.stop()
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.reminders import next_local_hour
from bot.store import DigestRow, TurnPlan
from bot.store_protocol import SharedStore

if TYPE_CHECKING:
    from bot.table import Table

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]

# Sleep at most this long even when nothing is due: a suspended machine or a clock step
# must not leave the task asleep for days. Also bounds the cost of a missed wake-up.
MAX_SLEEP = 6 * 3600.0
# Passes of `run_due` at one instant: each pass may create new due work (a default move
# starts the next player's turn, which is planned at once); this bounds a runaway loop.
MAX_PASSES = 1000
BATCH = 200
# Other workers' changes (their NOTIFY) wake this scheduler at most once per this many
# seconds: each wake-up costs a pass (leases, absences, digests, the next wake: a query each).
OTHERS_QUIET = 1.0
# On a shared store a scheduler looks at the due work at least this often. Moves send no
# NOTIFY (issue 23: one per move reached every worker, an eighth of a move's CPU with four
# workers): the worker that moved plans the turn, and this bounds the delay when it died
# first. One query a minute per worker.
SHARED_MAX_SLEEP = 60.0
# How long `boardchat run`'s scheduler lets a burst of local changes gather after the first
# wakes it (bot/runner.py): every handled message wakes it, and each pass costs the store
# about ten queries whether one turn is due or a hundred. A reminder is never due sooner
# than this matters.
SETTLE = 0.25


class Scheduler:
    def __init__(
        self,
        table: Table,
        clock: Callable[[], float] | None = None,
        sleep: Sleep | None = None,
        max_sleep: float = MAX_SLEEP,
        settle: float = 0.0,
    ) -> None:
        self.table = table
        self.store = table.store
        self.reminders = table.reminders
        self.clock = clock or table.clock
        self.sleep: Sleep = sleep or asyncio.sleep
        shared = isinstance(self.store, SharedStore)
        self.max_sleep = min(max_sleep, SHARED_MAX_SLEEP) if shared else max_sleep
        # after an early wake-up, wait this long (`sleep`) for the burst it began to end
        self.settle = settle
        self._wake = asyncio.Event()
        self.others_quiet = OTHERS_QUIET
        self._others_timer: asyncio.TimerHandle | None = None
        self._others_missed = False
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        # What the loop did, for logs and tests.
        self.timer_wakeups = 0  # the sleep ran out (something was due, or MAX_SLEEP passed)
        self.early_wakeups = 0  # woken by `wake` (a move or a setting changed)
        self.handled = 0  # turns, absences and digests looked at
        self.reminders.wake = self.wake

    # ------------------------------------------------------------------ life cycle
    def start(self) -> asyncio.Task[None]:
        if self._task is None or self._task.done():
            self._stopping = False
            self._task = asyncio.create_task(self.run(), name="boardchat-scheduler")
        return self._task

    async def stop(self) -> None:
        self._stopping = True
        if self._others_timer is not None:
            self._others_timer.cancel()
            self._others_timer = None
        self._wake.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def wake(self) -> None:
        """Look at the due times again now (a move or a setting may have changed them)."""
        self._wake.set()

    # ------------------------------------------------------------------ the loop
    async def run(self) -> None:
        await self._listen()
        while not self._stopping:
            try:
                await self.run_due()
                next_at = await self.store.next_wake()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("scheduler pass failed; trying again in a minute")
                next_at = self.clock() + 60.0
            if self._stopping:
                break
            await self._wait(next_at)

    async def _listen(self) -> None:
        """Across workers (a shared store): wake on their changes and their outbox rows."""
        if not isinstance(self.store, SharedStore):
            return
        try:
            await self.store.listen_wake(self.wake_from_other)
            await self.store.listen_outbox(self._wake_sender)
        except Exception:
            log.exception("scheduler: cannot listen for other workers; polling only")

    def wake_from_other(self) -> None:
        """Another worker changed a due time: wake now, then at most once more at the end of
        `others_quiet` seconds, however many changes come meanwhile."""
        if self._others_timer is not None:
            self._others_missed = True
            return
        self.wake()
        loop = asyncio.get_running_loop()
        self._others_timer = loop.call_later(self.others_quiet, self._others_quiet_end)

    def _others_quiet_end(self) -> None:
        self._others_timer = None
        if self._others_missed:
            self._others_missed = False
            self.wake_from_other()

    def _wake_sender(self, platform: str) -> None:
        sender = self.table.deliveries.get(platform)
        if sender is not None:
            sender.wake()

    async def _due_turns(self, now: float) -> list[TurnPlan]:
        if isinstance(self.store, SharedStore):
            return await self.store.lease_due_turns(now, limit=BATCH)
        return await self.store.due_turns(now, limit=BATCH)

    async def _wait(self, next_at: float | None) -> None:
        """Until `next_at` (capped by max_sleep) or an early wake-up, whichever is first."""
        if self._wake.is_set():
            await self._woken_early()
            return
        delay = self.max_sleep if next_at is None else next_at - self.clock()
        delay = min(max(0.0, delay), self.max_sleep)
        waker = asyncio.ensure_future(self._wake.wait())
        sleeper = asyncio.ensure_future(self.sleep(delay))
        try:
            done, _ = await asyncio.wait({waker, sleeper}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (waker, sleeper):
                if not task.done():
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
        if waker in done:
            await self._woken_early()
        else:
            self.timer_wakeups += 1
            self._wake.clear()

    async def _woken_early(self) -> None:
        """A change woke the loop: let the changes that come with it gather (`settle`), so a
        busy table's moves share one pass instead of one each."""
        self.early_wakeups += 1
        if self.settle > 0 and not self._stopping:
            await self.sleep(self.settle)
        self._wake.clear()

    async def run_due(self) -> int:
        """Do everything due now: ended absences, then turns in order of due time, then
        digests; again while that created more due work. Returns how many items it handled."""
        handled = 0
        for _ in range(MAX_PASSES):
            now = self.clock()
            count = await self.reminders.end_absences(now)
            turns = await self._due_turns(now)
            # An expired turn counts from its deadline: after downtime, expiry policies
            # apply in the order the deadlines passed.
            turns.sort(key=lambda p: p.deadline_at if p.deadline_at <= now else p.due)
            for plan in turns:
                try:
                    await self.reminders.process_turn(plan, now)
                except Exception:
                    log.exception("reminder for game %s failed", plan.game_id)
                    await self._skip_broken(plan, now)
            digests = await self.store.due_digests(now, limit=BATCH)
            for digest in digests:
                try:
                    # the digest is written by the claim itself (issue 16)
                    await self.reminders.run_digest(digest, self._next_digest(digest, now))
                except Exception:
                    log.exception("digest for %s failed", digest.user_key)
            count += len(turns) + len(digests)
            handled += count
            if count == 0:
                break
        else:
            log.error("scheduler: work kept coming at %s; the rest waits for the next pass", now)
        self.handled += handled
        return handled

    def _next_digest(self, digest: DigestRow, now: float) -> float:
        return next_local_hour(now, digest.hour, digest.tz)

    async def _skip_broken(self, plan: TurnPlan, now: float) -> None:
        """A turn whose processing raised is not retried in a hot loop: look again in an hour."""
        with contextlib.suppress(Exception):
            await self.store.claim_turn(plan, plan.done_until, now + 3600.0)
