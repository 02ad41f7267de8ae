"""The scheduler's side of the store: turn plans (reminders), absences, votes and digests.

A mixin of `bot.store.Store` (bot/reminders.py and bot/scheduler.py use it; migration 2).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.store_base import StoreBase
from bot.store_outbox import OutRow, write_outbox, write_outbox_sync
from bot.store_queries import TIMED_SQLITE as T

_NEVER = 1e18

# Migration 5 (bot/store.py): games.started_at, written when a game leaves its lobby (existing
# games: their first logged move), and users.prefs_json (/me: time zone, quiet hours).
MIGRATION: tuple[str, ...] = (
    "ALTER TABLE games ADD COLUMN started_at REAL",
    """CREATE TRIGGER games_started AFTER UPDATE OF status ON games
        WHEN OLD.status = 'lobby' AND NEW.status <> 'lobby'
        BEGIN UPDATE games SET started_at = NEW.updated_at WHERE id = NEW.id; END""",
    """UPDATE games SET started_at = coalesce(
        (SELECT min(created_at) FROM actions WHERE actions.game_id = games.id), updated_at)
        WHERE status <> 'lobby'""",
    "ALTER TABLE users ADD COLUMN prefs_json TEXT NOT NULL DEFAULT '{}'",
)

# Migration 10: when a turn's first notifying reminder went out (`TurnPlan.notified_at`).
NOTIFIED_MIGRATION = ("ALTER TABLE reminders ADD COLUMN notified_at REAL",)
# Migration 11: whether the turn's ask notified its players (`TurnPlan.ask_notified`); the
# turns under way before it count as not told (after downtime: a reminder before the expiry).
ASK_NOTIFIED_MIGRATION = (
    "ALTER TABLE reminders ADD COLUMN ask_notified INTEGER NOT NULL DEFAULT 0",
)
# Migration 12: each player's reminders in the turn (`TurnPlan.progress`); the turns under
# way before it keep the turn's own done_until and notified_at for each of their players.
PROGRESS_MIGRATION = ("ALTER TABLE reminders ADD COLUMN progress_json TEXT",)


@dataclass(frozen=True)
class Progress:
    """One player's reminders in a turn (bot/expiry.py): the latest reminder point (unshifted)
    handled for him, and when his first notifying reminder went out (his expiry waits a last
    call after it)."""

    done_until: float | None = None
    notified_at: float | None = None


def dump_progress(progress: Mapping[str, Progress]) -> str:
    """The stored text of each player's progress: {"Ann": [done_until, notified_at], ...}."""
    return json.dumps(
        {k: [p.done_until, p.notified_at] for k, p in sorted(progress.items())},
        ensure_ascii=False,
    )


def load_progress(text: str | None) -> dict[str, Progress]:
    """The progress of each player as stored (nothing for a row planned before it was kept)."""
    if not text:
        return {}
    return {k: Progress(v[0], v[1]) for k, v in json.loads(text).items()}


@dataclass(frozen=True)
class ReminderRow:
    game_id: int
    due_at: float
    attempt: int
    turn_started_at: float
    players: list[str]
    # read with a message (bot/store_load.py) and by `reminder`: what the scheduler recorded
    # of the turn, so the status message shows the moment it acts at (bot/status_deadline.py)
    done_until: float | None = None
    notified_at: float | None = None
    ask_notified: bool = False
    progress: Mapping[str, Progress] = field(default_factory=dict)

    def plan(self) -> TurnPlan:
        """The turn as the scheduler sees it (`next_at` and `due` aside)."""
        return TurnPlan(
            self.game_id,
            self.due_at,
            self.attempt,
            self.turn_started_at,
            list(self.players),
            None,
            self.done_until,
            self.turn_started_at,
            self.notified_at,
            self.ask_notified,
            self.progress,
        )


def reminder_of(r: Sequence[Any]) -> ReminderRow:
    """A reminder row of `reminder` (game_id, due_at, attempt, turn_started_at, players_json,
    done_until, notified_at, ask_notified, progress_json), or of `due_reminders` (the first
    five)."""
    if len(r) < 9:
        return ReminderRow(r[0], r[1], r[2], r[3], json.loads(r[4]))
    return ReminderRow(
        r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6], bool(r[7]), load_progress(r[8])
    )


@dataclass(frozen=True)
class TurnPlan:
    """A reminders row with its plan: `deadline_at` is the expiry the move transaction wrote;
    `attempt` 0 = not planned yet; `due` = when the scheduler must look at it."""

    game_id: int
    deadline_at: float
    attempt: int
    turn_started_at: float
    players: list[str]
    next_at: float | None
    done_until: float | None
    due: float
    # when the turn's first notifying reminder went out (bot/expiry.py: the expiry waits a
    # last call after it); stale, as `done_until`, until the turn's first claim (attempt 0)
    notified_at: float | None = None
    # whether the message that asked the turn's players notified every one of them (written
    # with the turn by the move, bot/store.py `Due`)
    ask_notified: bool = False
    # each player's reminders (by name), stale as `done_until` until the turn's first claim;
    # a player without his own (a row planned before migration 12, one an undo asked again)
    # has the turn's
    progress: Mapping[str, Progress] = field(default_factory=dict)

    @property
    def due_at(self) -> float:
        return self.deadline_at

    @property
    def notified(self) -> float | None:
        """`notified_at` of this turn (None before its first claim: the value is an earlier
        turn's)."""
        return self.notified_at if self.attempt > 0 else None

    def progress_of(self, player: str | None) -> Progress:
        """The reminders `player` had in this turn (none before its first claim)."""
        if self.attempt == 0:
            return Progress()
        own = self.progress.get(player) if player is not None else None
        return own or Progress(self.done_until, self.notified_at)


def plan_of(r: Sequence[Any]) -> TurnPlan:
    """A turn plan from its row (the same columns on both stores: bot/store_queries.py)."""
    return TurnPlan(
        r[0],
        r[1],
        r[2],
        r[3],
        json.loads(r[4]),
        r[5],
        r[6],
        r[7],
        r[8],
        bool(r[9]),
        load_progress(r[10]),
    )


@dataclass(frozen=True)
class AutopilotRow:
    game_id: int
    user_key: str
    reason: str  # "expired" (policy bot), "away", "vote"
    since: float
    until: float | None


@dataclass(frozen=True)
class DigestRow:
    user_key: str
    chat_key: str  # the private chat the digest goes to
    hour: int
    tz: str
    next_at: float


def claim_params(
    seen: TurnPlan,
    done_until: float | None,
    next_at: float | None,
    notified_at: float | None,
    progress: Mapping[str, Progress] | None = None,
) -> tuple[Any, ...]:
    """The parameters of a turn's claim, in the order both backends' UPDATE takes them: the
    new done_until, next_at (None: never), notified_at (None: as it was, the turn's first
    notice is never forgotten, so its expiry is pushed once at most; a new turn's first
    claim clears an earlier turn's) and each player's progress (None: as it was, cleared by
    a new turn's first claim), then the turn as `seen` (compare and set)."""
    notified = notified_at if notified_at is not None else seen.notified
    kept = progress if progress is not None else (seen.progress if seen.attempt > 0 else {})
    return (
        done_until,
        next_at if next_at is not None else _NEVER,
        notified,
        dump_progress(kept) if kept else None,
        seen.game_id,
        seen.attempt,
        seen.turn_started_at,
        seen.due_at,
        json.dumps(sorted(seen.players), ensure_ascii=False),
    )


# A change of a person's prefs (users.prefs_json: /me settings, the refusal of his DMs, his
# missed deadlines): from what is stored (a copy of it), what is to be. The store applies it
# inside the transaction that holds the row (`update_user_prefs`), so two changes of
# different keys never lose one another, as a read, an await and a write of the whole object
# did (one writer's key was gone when another wrote in between).
PrefsChange = Callable[[dict[str, Any]], dict[str, Any]]


def changed_prefs(stored: str | None, change: PrefsChange) -> tuple[dict[str, Any], str | None]:
    """The prefs after `change` of those stored as `stored` (None: no row yet), and their text
    to store (None: nothing changed)."""
    prefs = change(json.loads(stored or "{}"))
    if prefs == json.loads(stored or "{}"):
        return prefs, None
    return prefs, json.dumps(prefs, sort_keys=True)


class PlansMixin(StoreBase):
    """Reminders, turn plans, autopilots, absences, votes and digests."""

    async def reminder(self, pk: int) -> ReminderRow | None:
        row = await self._one(
            T.reminder,
            (pk,),
        )
        if row is None:
            return None
        return reminder_of(row)

    async def due_reminders(self, now: float, limit: int = 100) -> list[ReminderRow]:
        rows = await self._all(
            T.due_reminders,
            (now, limit),
        )
        return [reminder_of(r) for r in rows]

    # ------------------------------------------------------------------ turn plans, absences
    # (bot/reminders.py and bot/scheduler.py; migration 2)
    _PLAN_DUE = "(CASE WHEN attempt = 0 THEN turn_started_at ELSE next_at END)"

    async def next_wake(self) -> float | None:
        """The earliest time the scheduler has something to do: a turn to plan or remind, a
        digest to send, an absence that ends. None when nothing is scheduled."""
        times = []
        for sql in (
            f"SELECT {self._PLAN_DUE} AS t FROM reminders ORDER BY t LIMIT 1",
            "SELECT next_at FROM digests ORDER BY next_at LIMIT 1",
            "SELECT until FROM autopilot WHERE until IS NOT NULL ORDER BY until LIMIT 1",
        ):
            row = await self._key_one(sql)
            if row is not None and row[0] is not None:
                times.append(float(row[0]))
        return min(times) if times else None

    async def due_turns(self, now: float, limit: int = 100) -> list[TurnPlan]:
        """Turns whose plan is due, earliest first."""
        rows = await self._key_all(
            "SELECT game_id, due_at, attempt, turn_started_at, players_json, next_at, "
            f"done_until, {self._PLAN_DUE} AS t, notified_at, ask_notified, progress_json "
            "FROM reminders "
            "WHERE t <= ? ORDER BY t LIMIT ?",
            (now, limit),
        )
        return [plan_of(r) for r in rows]

    async def turn_plan(self, pk: int) -> TurnPlan | None:
        row = await self._key_one(
            "SELECT game_id, due_at, attempt, turn_started_at, players_json, next_at, "
            f"done_until, {self._PLAN_DUE}, notified_at, ask_notified, progress_json "
            "FROM reminders "
            "WHERE game_id = ?",
            (pk,),
        )
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
        """Record that the scheduler handled `seen` (compare and set: False when a move or
        another process changed the turn meanwhile), with the reminders it sends (`outbox`)
        in the same transaction: written exactly when the claim holds (issue 16). next_at
        None = nothing more this turn; `notified_at`: the turn's first notifying reminder is
        among them; `progress`: each player's reminders (`claim_params`)."""
        params = claim_params(seen, done_until, next_at, notified_at, progress)
        now = self._clock()

        def work(con: sqlite3.Connection) -> bool:
            # one transaction without a thread hand-off per statement, as a move's commit
            # (`_tx_sync`): the scheduler claims every new turn (issue 23)
            cur = con.execute(
                "UPDATE reminders SET attempt = attempt + 1, done_until = ?, next_at = ?, "
                "notified_at = ?, progress_json = ? WHERE game_id = ? AND attempt = ? "
                "AND turn_started_at = ? "
                "AND due_at = ? AND players_json = ?",
                params,
            )
            if cur.rowcount != 1:
                return False
            write_outbox_sync(con, outbox, now)
            return True

        return await self._tx_sync(work)

    async def replan_now(self, pks: Sequence[int], now: float) -> None:
        """Make the planned turns of these games due now (settings changed, someone left)."""
        if not pks:
            return
        async with self._tx() as db:
            await db.executemany(
                "UPDATE reminders SET next_at = ? WHERE game_id = ? AND attempt > 0",
                [(now, pk) for pk in pks],
            )

    async def set_seat_bot(
        self, pk: int, user_key: str, is_bot: bool, bot_kind: str | None
    ) -> None:
        async with self._tx() as db:
            await db.execute(
                T.set_seat_bot,
                (int(is_bot), bot_kind, pk, user_key),
            )

    async def start_autopilot(
        self, pk: int, user_key: str, reason: str, until: float | None, bot_kind: str
    ) -> bool:
        """A bot plays a human seat from now on; False when the seat is not a human's."""
        now = self._clock()
        async with self._tx() as db:
            cur = await db.execute(
                T.seat_to_bot,
                (bot_kind, pk, user_key),
            )
            if cur.rowcount != 1:
                async with db.execute(T.autopilot_exists, (pk, user_key)) as c:
                    if await c.fetchone() is None:
                        return False  # a real bot, or nobody
            await db.execute(
                T.start_autopilot,
                (pk, user_key, reason, now, until),
            )
            await db.execute(T.clear_votes, (pk, user_key))
        return True

    async def end_autopilot(self, pk: int, user_key: str, outbox: Sequence[OutRow] = ()) -> bool:
        """The player takes their seat back; False when no bot was playing it for them. The
        announcement (`outbox`) is written with it, or not at all."""
        async with self._tx() as db:
            cur = await db.execute(T.end_autopilot, (pk, user_key))
            if cur.rowcount != 1:
                return False
            await db.execute(
                T.seat_back,
                (pk, user_key),
            )
            await write_outbox(db, outbox, self._clock())
        return True

    async def autopilots(self, pk: int) -> list[AutopilotRow]:
        rows = await self._all(
            T.autopilots,
            (pk,),
        )
        return [AutopilotRow(*r) for r in rows]

    async def user_autopilots(self, user_key: str) -> list[AutopilotRow]:
        rows = await self._all(
            T.user_autopilots,
            (user_key,),
        )
        return [AutopilotRow(*r) for r in rows]

    async def ended_autopilots(self, now: float, limit: int = 100) -> list[AutopilotRow]:
        rows = await self._key_all(
            T.ended_autopilots,
            (now, limit),
        )
        return [AutopilotRow(*r) for r in rows]

    async def set_away(self, user_key: str, until: float) -> None:
        now = self._clock()
        async with self._tx() as db:
            await db.execute(
                T.set_away,
                (user_key, now, until),
            )

    async def clear_away(self, user_key: str) -> bool:
        async with self._tx() as db:
            cur = await db.execute(T.clear_away, (user_key,))
            return cur.rowcount == 1

    async def away_until(self, user_keys: Sequence[str], now: float) -> dict[str, float]:
        """The users among `user_keys` away at `now`, with the time they come back."""
        if not user_keys:
            return {}
        marks = ", ".join("?" * len(user_keys))
        rows = await self._key_all(
            f"SELECT user_key, until FROM away WHERE until > ? AND user_key IN ({marks})",
            (now, *user_keys),
        )
        return {r[0]: float(r[1]) for r in rows}

    async def add_vote(self, pk: int, target: str, voter: str) -> list[str]:
        """Record a vote (once per voter); returns everybody who voted against `target`."""
        now = self._clock()
        async with self._tx() as db:
            await db.execute(
                T.add_vote,
                (pk, target, voter, now),
            )
            async with db.execute(
                T.votes_against,
                (pk, target),
            ) as cur:
                return [r[0] for r in await cur.fetchall()]

    async def votes_against(self, pk: int, target: str) -> list[str]:
        rows = await self._all(
            T.votes_against,
            (pk, target),
        )
        return [r[0] for r in rows]

    async def clear_votes(self, pk: int, target: str) -> int:
        async with self._tx() as db:
            cur = await db.execute(T.clear_votes, (pk, target))
            return cur.rowcount

    async def set_digest(
        self, user_key: str, chat_key: str, hour: int, tz: str, next_at: float
    ) -> None:
        async with self._tx() as db:
            await db.execute(
                T.set_digest,
                (user_key, chat_key, hour, tz, next_at),
            )

    async def clear_digest(self, user_key: str) -> bool:
        async with self._tx() as db:
            cur = await db.execute(T.clear_digest, (user_key,))
            return cur.rowcount == 1

    async def digest(self, user_key: str) -> DigestRow | None:
        row = await self._one(
            T.digest,
            (user_key,),
        )
        return DigestRow(*row) if row else None

    async def due_digests(self, now: float, limit: int = 100) -> list[DigestRow]:
        rows = await self._key_all(
            T.due_digests,
            (now, limit),
        )
        return [DigestRow(*r) for r in rows]

    async def claim_digest(
        self, seen: DigestRow, next_at: float, outbox: Sequence[OutRow] = ()
    ) -> bool:
        """Move a due digest to `next_at` (compare and set), writing the digest itself
        (`outbox`) in the same transaction."""
        async with self._tx() as db:
            cur = await db.execute(
                T.claim_digest,
                (next_at, seen.user_key, seen.next_at),
            )
            if cur.rowcount != 1:
                return False
            await write_outbox(db, outbox, self._clock())
            return True

    # ------------------------------------------------------------------ clocks and people
    async def started_at(self, pk: int) -> float | None:
        """When game `pk` left its lobby (None: not started, or unknown)."""
        row = await self._key_one(T.started_at, (pk,))
        return float(row[0]) if row is not None and row[0] is not None else None

    async def user_prefs(self, user_keys: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Each user's /me settings (an empty dict for users without any)."""
        keys = sorted(set(user_keys))
        found: dict[str, dict[str, Any]] = {k: {} for k in keys}
        if keys:
            marks = ", ".join("?" for _ in keys)
            for r in await self._key_all(
                f"SELECT user_key, prefs_json FROM users WHERE user_key IN ({marks})", keys
            ):
                found[r[0]] = json.loads(r[1] or "{}")
        return found

    async def update_user_prefs(
        self, user_key: str, change: PrefsChange, outbox: Sequence[OutRow] = ()
    ) -> dict[str, Any]:
        """Change the user's prefs in one write transaction (BEGIN IMMEDIATE: no other task
        or process writes between the read and the write): `change` gets what is stored and
        its result is stored; `outbox`: messages written in the same transaction (the chat's
        note on his refused DMs, stored with the refusal: bot/outbox.py `DmMemory`). The
        prefs as stored now."""
        now = self._clock()

        def work(con: sqlite3.Connection) -> dict[str, Any]:
            row = con.execute(T.user_prefs_locked, (user_key,)).fetchone()
            prefs, text = changed_prefs(None if row is None else row[0], change)
            if text is not None:
                if row is None:
                    con.execute(T.add_user_prefs, (user_key, text))
                else:
                    con.execute(T.set_user_prefs, (text, user_key))
            write_outbox_sync(con, outbox, now)
            return prefs

        return await self._tx_sync(work)


# A planned turn with nothing left to do sorts after every real time.
