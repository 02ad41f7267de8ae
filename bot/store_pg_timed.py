"""The timed work of the PostgreSQL store (bot/store_pg.py): reminder plans, seats played by
bots, absences, votes and digests; the same methods and semantics as bot/store.py's.

`PgBase` holds the pool and the helpers both halves use. `lease_due_turns` hands each due
turn to one worker (`FOR UPDATE SKIP LOCKED` and a lease); `claim_turn` stays the compare
and set that makes a reminder fire once.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from typing import Any

import asyncpg

from bot.store import AutopilotRow, Clock, DigestRow, OutRow, ReminderRow, TurnPlan
from bot.store_plans import (
    PrefsChange,
    Progress,
    changed_prefs,
    claim_params,
    plan_of,
    reminder_of,
)
from bot.store_queries import TIMED_POSTGRES as T

WAKE_CHANNEL = "boardchat_wake"
# A leased reminder row is another worker's for this long (it claims within milliseconds;
# a worker that died mid-reminder gives it up after the lease).
LEASE_SECONDS = 60.0
_PLAN_DUE = "(CASE WHEN attempt = 0 THEN turn_started_at ELSE next_at END)"
_PLAN_COLUMNS = (
    "game_id, due_at, attempt, turn_started_at, players_json, next_at, done_until, "
    f"{_PLAN_DUE}, notified_at, ask_notified, progress_json"
)


def outbox_arrays(rows: Sequence[OutRow]) -> list[list[Any]]:
    """The eleven column arrays `boardchat_outbox_add` takes (after the time)."""
    return [
        [r.platform for r in rows],
        [r.chat_key for r in rows],
        [r.audience for r in rows],
        [r.lang for r in rows],
        [r.kind for r in rows],
        [r.silent for r in rows],
        [json.dumps(r.body, ensure_ascii=False, sort_keys=True) for r in rows],
        [r.png for r in rows],
        [r.game_id for r in rows],
        [r.sent for r in rows],
        [float(r.delay) for r in rows],
    ]


async def write_outbox(con: asyncpg.Connection, rows: Sequence[OutRow], now: float) -> list[int]:
    """Insert outbox `rows` inside the caller's transaction (a move's, a scheduler claim's);
    their ids, in order. Here, below bot/store_pg_outbox.py, which imports this module."""
    if not rows:
        return []
    ids = await con.fetchval(
        "SELECT boardchat_outbox_add($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        now,
        *outbox_arrays(rows),
    )
    return [int(i) for i in ids or ()]


def count(status: str) -> int:
    """Rows touched, from a command status such as "UPDATE 1" or "INSERT 0 1"."""
    return int(status.rsplit(" ", 1)[-1])


_CLAIM_TURN = (
    "UPDATE reminders SET attempt = attempt + 1, done_until = $1, next_at = $2, "
    "notified_at = $3, progress_json = $4, leased_until = NULL WHERE game_id = $5 "
    "AND attempt = $6 AND turn_started_at = $7 AND due_at = $8 AND players_json = $9"
)


def _reminder(r: Any) -> ReminderRow:
    return reminder_of(tuple(r))


class _Held:
    """The connection a `game_lock` holds: every store call inside the lock uses it (a move
    needs one pool connection, not two, so held locks can never starve the pool), one call
    at a time. The advisory lock on `key` is taken lazily, by the first call inside that is
    not the move's commit (`locked` then; bot/store_pg.py `game_lock`)."""

    def __init__(self, con: asyncpg.Connection, key: tuple[int, int] | None = None) -> None:
        self.con = con
        self.key = key
        self.locked = False
        self.busy = asyncio.Lock()
        self.active = True  # False once the lock ends (a task started inside may outlive it)


_HELD: ContextVar[_Held | None] = ContextVar("boardchat_pg_held", default=None)

# Connections a store keeps out of the pool between its calls (issue 23): the pool's acquire
# and release cost ~80 µs of CPU together (futures, a shielded task per release), twice a
# move; an idle connection from this list costs nothing. Bounded, so that the pool keeps
# connections for the rest (its max_size counts these as in use).
KEEP_IDLE = 4


class PgBase:
    def __init__(self, pool: asyncpg.Pool, clock: Clock, url: str) -> None:
        self._pool = pool
        self._clock = clock
        self.path = url
        self._idle: list[asyncpg.Connection] = []
        self._waiting = 0  # calls waiting for the pool to give them a connection
        # platforms whose sender loop runs in this process (`deliver_here`)
        self._delivered_here: set[str] = set()

    def deliver_here(self, platform: str) -> None:
        """This process runs `platform`'s sender loop, which the table wakes itself after a
        move: the move's rows of that platform send no NOTIFY to the other workers (issue
        23: one per move woke every worker's sender). Their loops still look every
        `IDLE_POLL` seconds (bot/outbox.py), so a worker that died before sending delays
        its rows by that much at most."""
        self._delivered_here.add(platform)

    def to_notify(self, rows: Sequence[OutRow]) -> list[str]:
        """The platforms of `rows` to send to that this process does not deliver itself."""
        return sorted({r.platform for r in rows if not r.sent} - self._delivered_here)

    @asynccontextmanager
    async def _borrow(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool for one call or one held game: an idle one kept from
        before, else the pool's. A connection comes back to the list only clean (open, no
        transaction) after a call that did not raise, and only while no call waits for the
        pool (the list never holds connections a waiting call needs); else the pool takes it
        back, and its release cleans up or closes it, as before."""
        if self._idle:
            con = self._idle.pop()
        else:
            self._waiting += 1
            try:
                con = await self._pool.acquire()
            finally:
                self._waiting -= 1
        try:
            yield con
        except BaseException:
            await self._pool.release(con)
            raise
        if (
            self._waiting  # someone waits for the pool: it gets this one (no one starves)
            or len(self._idle) >= KEEP_IDLE
            or con.is_closed()
            or con.is_in_transaction()
        ):
            await self._pool.release(con)
        else:
            self._idle.append(con)

    async def _release_idle(self) -> None:
        """Give the kept connections back to the pool (before it closes)."""
        while self._idle:
            await self._pool.release(self._idle.pop())

    @asynccontextmanager
    async def _con(self, *, lock: bool = True) -> AsyncIterator[asyncpg.Connection]:
        """A connection for one call: the held one inside `game_lock`, else the pool's.
        Inside `game_lock` the game's advisory lock is taken first unless `lock` is False
        (the move's commit, which takes it inside its own transaction)."""
        held = _HELD.get()
        if held is not None and held.active:
            async with held.busy:
                if lock:
                    await _take(held)
                yield held.con
            return
        async with self._borrow() as con:
            yield con

    @contextmanager
    def _holding(
        self, con: asyncpg.Connection, key: tuple[int, int] | None = None
    ) -> Iterator[_Held]:
        held = _Held(con, key)
        token = _HELD.set(held)
        try:
            yield held
        finally:
            held.active = False
            _HELD.reset(token)

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[asyncpg.Connection]:
        async with self._con() as con, con.transaction():
            yield con

    async def _one(self, sql: str, *args: Any) -> Any:
        async with self._con() as con:
            return await con.fetchrow(sql, *args)

    async def _all(self, sql: str, *args: Any) -> list[Any]:
        async with self._con() as con:
            return list(await con.fetch(sql, *args))

    async def _execute(self, sql: str, *args: Any) -> str:
        async with self._con() as con:
            return str(await con.execute(sql, *args))

    async def _fetchval(self, sql: str, *args: Any) -> Any:
        async with self._con() as con:
            return await con.fetchval(sql, *args)

    @staticmethod
    async def _notify(con: asyncpg.Connection, pk: int | None = None) -> None:
        """Wake every worker's scheduler: sent at commit, and only then."""
        await con.execute("SELECT pg_notify($1, $2)", WAKE_CHANNEL, str(pk or ""))


async def _take(held: _Held) -> None:
    """The held game's advisory lock (a session lock, let go by `game_lock` at its end)."""
    if held.locked or held.key is None:
        return
    try:
        await held.con.execute("SELECT pg_advisory_lock($1, $2)", *held.key)
    except BaseException:
        held.con.terminate()  # cancelled: the lock may be held, and only a closed session
        raise  # surely lets it go (the pool's reset does not, bot/store_pg.py)
    held.locked = True


class PgTimed(PgBase):
    # ------------------------------------------------------------------ reminders
    async def reminder(self, pk: int) -> ReminderRow | None:
        row = await self._one(
            T.reminder,
            pk,
        )
        return _reminder(row) if row else None

    async def due_reminders(self, now: float, limit: int = 100) -> list[ReminderRow]:
        rows = await self._all(
            T.due_reminders,
            now,
            limit,
        )
        return [_reminder(r) for r in rows]

    async def next_wake(self) -> float | None:
        """The earliest time the scheduler has something to do; None when nothing is."""
        value = await self._fetchval(
            "SELECT least("
            f"(SELECT {_PLAN_DUE} AS t FROM reminders ORDER BY t LIMIT 1), "
            "(SELECT next_at FROM digests ORDER BY next_at LIMIT 1), "
            "(SELECT until FROM autopilot WHERE until IS NOT NULL ORDER BY until LIMIT 1))"
        )
        return None if value is None else float(value)

    async def due_turns(self, now: float, limit: int = 100) -> list[TurnPlan]:
        """Turns whose plan is due, earliest first."""
        rows = await self._all(
            f"SELECT {_PLAN_COLUMNS} FROM reminders WHERE {_PLAN_DUE} <= $1 "
            f"ORDER BY {_PLAN_DUE} LIMIT $2",
            now,
            limit,
        )
        return [plan_of(r) for r in rows]

    async def lease_due_turns(
        self, now: float, limit: int = 100, lease: float = LEASE_SECONDS
    ) -> list[TurnPlan]:
        """Like `due_turns`, but each due row goes to one worker: rows another worker is
        leasing (or holds locked right now) are skipped, and the rows returned are leased to
        this caller until `now + lease` (the `claim_turn` that follows ends the turn's plan)."""
        rows = await self._all(
            "WITH picked AS (SELECT game_id AS pick FROM reminders "
            f"WHERE {_PLAN_DUE} <= $1 AND (leased_until IS NULL OR leased_until <= $1) "
            f"ORDER BY {_PLAN_DUE} LIMIT $2 FOR UPDATE SKIP LOCKED) "
            "UPDATE reminders r SET leased_until = $3 FROM picked "
            f"WHERE r.game_id = picked.pick RETURNING {_PLAN_COLUMNS}",
            now,
            limit,
            now + lease,
        )
        plans = [plan_of(r) for r in rows]
        plans.sort(key=lambda p: p.due)
        return plans

    async def turn_plan(self, pk: int) -> TurnPlan | None:
        row = await self._one(f"SELECT {_PLAN_COLUMNS} FROM reminders WHERE game_id = $1", pk)
        return plan_of(row) if row else None

    async def claim_turn(
        self,
        seen: TurnPlan,
        done_until: float | None,
        next_at: float | None,
        outbox: Sequence[OutRow] = (),
        notified_at: float | None = None,
        progress: Mapping[str, Progress] | None = None,
    ) -> bool:
        """Record that the scheduler handled `seen` (compare and set); ends a lease. The
        reminders it sends (`outbox`) are written in the same transaction, exactly when the
        claim holds (issue 16); `notified_at` and `progress` as bot/store_plans.py
        `claim_params` says."""
        args = claim_params(seen, done_until, next_at, notified_at, progress)
        if not outbox:
            # the claim alone is one statement: no BEGIN and COMMIT round trips around it
            # (every new turn is claimed once it is planned, issue 23)
            return count(await self._execute(_CLAIM_TURN, *args)) == 1
        async with self._tx() as con:
            if count(await con.execute(_CLAIM_TURN, *args)) != 1:
                return False
            await write_outbox(con, outbox, self._clock())
        return True

    async def replan_now(self, pks: Sequence[int], now: float) -> None:
        if not pks:
            return
        async with self._tx() as con:
            await con.execute(
                "UPDATE reminders SET next_at = $1 WHERE game_id = ANY($2::bigint[]) "
                "AND attempt > 0",
                now,
                list(pks),
            )
            await self._notify(con)

    # ------------------------------------------------------------------ seats played by bots
    async def set_seat_bot(
        self, pk: int, user_key: str, is_bot: bool, bot_kind: str | None
    ) -> None:
        await self._execute(
            T.set_seat_bot,
            is_bot,
            bot_kind,
            pk,
            user_key,
        )

    async def start_autopilot(
        self, pk: int, user_key: str, reason: str, until: float | None, bot_kind: str
    ) -> bool:
        now = self._clock()
        async with self._tx() as con:
            done = await con.execute(
                T.seat_to_bot,
                bot_kind,
                pk,
                user_key,
            )
            if count(done) != 1:
                exists = await con.fetchval(T.autopilot_exists, pk, user_key)
                if exists is None:
                    return False
            await con.execute(
                T.start_autopilot,
                pk,
                user_key,
                reason,
                now,
                until,
            )
            await con.execute(T.clear_votes, pk, user_key)
            await self._notify(con, pk)
        return True

    async def end_autopilot(self, pk: int, user_key: str, outbox: Sequence[OutRow] = ()) -> bool:
        """The player takes their seat back, with its announcement (`outbox`) or not at all."""
        async with self._tx() as con:
            done = await con.execute(T.end_autopilot, pk, user_key)
            if count(done) != 1:
                return False
            await con.execute(
                T.seat_back,
                pk,
                user_key,
            )
            await write_outbox(con, outbox, self._clock())
        return True

    async def autopilots(self, pk: int) -> list[AutopilotRow]:
        rows = await self._all(
            T.autopilots,
            pk,
        )
        return [AutopilotRow(*r) for r in rows]

    async def user_autopilots(self, user_key: str) -> list[AutopilotRow]:
        rows = await self._all(
            T.user_autopilots,
            user_key,
        )
        return [AutopilotRow(*r) for r in rows]

    async def ended_autopilots(self, now: float, limit: int = 100) -> list[AutopilotRow]:
        rows = await self._all(
            T.ended_autopilots,
            now,
            limit,
        )
        return [AutopilotRow(*r) for r in rows]

    # ------------------------------------------------------------------ absences, votes, digests
    async def set_away(self, user_key: str, until: float) -> None:
        await self._execute(
            T.set_away,
            user_key,
            self._clock(),
            until,
        )

    async def clear_away(self, user_key: str) -> bool:
        status = await self._execute(T.clear_away, user_key)
        return count(status) == 1

    async def away_until(self, user_keys: Sequence[str], now: float) -> dict[str, float]:
        if not user_keys:
            return {}
        rows = await self._all(
            "SELECT user_key, until FROM away WHERE until > $1 AND user_key = ANY($2::text[])",
            now,
            list(user_keys),
        )
        return {r[0]: float(r[1]) for r in rows}

    async def add_vote(self, pk: int, target: str, voter: str) -> list[str]:
        """Record a vote (once per voter); returns everybody who voted against `target`."""
        now = self._clock()
        async with self._tx() as con:
            await con.execute(
                T.add_vote,
                pk,
                target,
                voter,
                now,
            )
            rows = await con.fetch(
                T.votes_against,
                pk,
                target,
            )
        return [r[0] for r in rows]

    async def votes_against(self, pk: int, target: str) -> list[str]:
        rows = await self._all(
            T.votes_against,
            pk,
            target,
        )
        return [r[0] for r in rows]

    async def clear_votes(self, pk: int, target: str) -> int:
        status = await self._execute(T.clear_votes, pk, target)
        return count(status)

    async def set_digest(
        self, user_key: str, chat_key: str, hour: int, tz: str, next_at: float
    ) -> None:
        async with self._tx() as con:
            await con.execute(
                T.set_digest,
                user_key,
                chat_key,
                hour,
                tz,
                next_at,
            )
            await self._notify(con)

    async def clear_digest(self, user_key: str) -> bool:
        status = await self._execute(T.clear_digest, user_key)
        return count(status) == 1

    async def digest(self, user_key: str) -> DigestRow | None:
        row = await self._one(
            T.digest,
            user_key,
        )
        return DigestRow(*row) if row else None

    async def due_digests(self, now: float, limit: int = 100) -> list[DigestRow]:
        rows = await self._all(
            T.due_digests,
            now,
            limit,
        )
        return [DigestRow(*r) for r in rows]

    async def claim_digest(
        self, seen: DigestRow, next_at: float, outbox: Sequence[OutRow] = ()
    ) -> bool:
        """Move a due digest on (compare and set), writing the digest (`outbox`) with it."""
        async with self._tx() as con:
            status = await con.execute(
                T.claim_digest,
                next_at,
                seen.user_key,
                seen.next_at,
            )
            if count(status) != 1:
                return False
            await write_outbox(con, outbox, self._clock())
        return True

    # ------------------------------------------------------------------ clocks and people
    async def started_at(self, pk: int) -> float | None:
        value = await self._fetchval(T.started_at, pk)
        return None if value is None else float(value)

    async def user_prefs(self, user_keys: Sequence[str]) -> dict[str, dict[str, Any]]:
        keys = sorted(set(user_keys))
        found: dict[str, dict[str, Any]] = {k: {} for k in keys}
        if keys:
            rows = await self._all(
                "SELECT user_key, prefs_json FROM users WHERE user_key = ANY($1::text[])", keys
            )
            for r in rows:
                found[r[0]] = json.loads(r[1] or "{}")
        return found

    async def update_user_prefs(
        self, user_key: str, change: PrefsChange, outbox: Sequence[OutRow] = ()
    ) -> dict[str, Any]:
        """As bot/store_plans.py: `change` applied to the prefs as stored, in the transaction
        that holds the user's row (`FOR UPDATE`: another worker's change waits for this one
        and reads its result), with `outbox`."""
        async with self._tx() as con:
            while True:
                stored = await con.fetchval(T.user_prefs_locked, user_key)
                prefs, text = changed_prefs(stored, change)
                if text is None:
                    break
                if stored is not None:
                    await con.execute(T.set_user_prefs, text, user_key)
                    break
                if count(await con.execute(T.add_user_prefs, user_key, text)) == 1:
                    break
                # another worker added his row meanwhile: changed again, on that one
            await write_outbox(con, outbox, self._clock())
            if text is not None:
                await self._notify(con)  # quiet hours: the schedulers plan again
        return prefs
