"""The scheduler's side of the store: turn plans (reminders), absences, votes and digests.

A mixin of `bot.store.Store` (bot/reminders.py and bot/scheduler.py use it; migration 2).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store_base import StoreBase
from bot.store_outbox import OutRow, write_outbox

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


@dataclass(frozen=True)
class ReminderRow:
    game_id: int
    due_at: float
    attempt: int
    turn_started_at: float
    players: list[str]


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

    @property
    def due_at(self) -> float:
        return self.deadline_at


def _plan(r: Sequence[Any]) -> TurnPlan:
    return TurnPlan(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6], r[7])


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


class PlansMixin(StoreBase):
    """Reminders, turn plans, autopilots, absences, votes and digests."""

    async def reminder(self, pk: int) -> ReminderRow | None:
        row = await self._one(
            "SELECT game_id, due_at, attempt, turn_started_at, players_json FROM reminders "
            "WHERE game_id = ?",
            (pk,),
        )
        if row is None:
            return None
        return ReminderRow(row[0], row[1], row[2], row[3], json.loads(row[4]))

    async def due_reminders(self, now: float, limit: int = 100) -> list[ReminderRow]:
        rows = await self._all(
            "SELECT game_id, due_at, attempt, turn_started_at, players_json FROM reminders "
            "WHERE due_at <= ? ORDER BY due_at LIMIT ?",
            (now, limit),
        )
        return [ReminderRow(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

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
            row = await self._one(sql)
            if row is not None and row[0] is not None:
                times.append(float(row[0]))
        return min(times) if times else None

    async def due_turns(self, now: float, limit: int = 100) -> list[TurnPlan]:
        """Turns whose plan is due, earliest first."""
        rows = await self._all(
            "SELECT game_id, due_at, attempt, turn_started_at, players_json, next_at, "
            f"done_until, {self._PLAN_DUE} AS t FROM reminders WHERE t <= ? ORDER BY t LIMIT ?",
            (now, limit),
        )
        return [_plan(r) for r in rows]

    async def turn_plan(self, pk: int) -> TurnPlan | None:
        row = await self._one(
            "SELECT game_id, due_at, attempt, turn_started_at, players_json, next_at, "
            f"done_until, {self._PLAN_DUE} FROM reminders WHERE game_id = ?",
            (pk,),
        )
        return _plan(row) if row else None

    async def claim_turn(
        self,
        seen: TurnPlan,
        done_until: float | None,
        next_at: float | None,
        outbox: Sequence[OutRow] = (),
    ) -> bool:
        """Record that the scheduler handled `seen` (compare and set: False when a move or
        another process changed the turn meanwhile), with the reminders it sends (`outbox`)
        in the same transaction: written exactly when the claim holds (issue 16). next_at
        None = nothing more this turn."""
        async with self._tx() as db:
            cur = await db.execute(
                "UPDATE reminders SET attempt = attempt + 1, done_until = ?, next_at = ? "
                "WHERE game_id = ? AND attempt = ? AND turn_started_at = ? AND due_at = ? "
                "AND players_json = ?",
                (
                    done_until,
                    next_at if next_at is not None else _NEVER,
                    seen.game_id,
                    seen.attempt,
                    seen.turn_started_at,
                    seen.due_at,
                    json.dumps(sorted(seen.players), ensure_ascii=False),
                ),
            )
            if cur.rowcount != 1:
                return False
            await write_outbox(db, outbox, self._clock())
            return True

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
                "UPDATE seats SET is_bot = ?, bot_kind = ? WHERE game_id = ? AND user_key = ?",
                (int(is_bot), bot_kind, pk, user_key),
            )

    async def start_autopilot(
        self, pk: int, user_key: str, reason: str, until: float | None, bot_kind: str
    ) -> bool:
        """A bot plays a human seat from now on; False when the seat is not a human's."""
        now = self._clock()
        async with self._tx() as db:
            cur = await db.execute(
                "UPDATE seats SET is_bot = 1, bot_kind = ? "
                "WHERE game_id = ? AND user_key = ? AND is_bot = 0",
                (bot_kind, pk, user_key),
            )
            if cur.rowcount != 1:
                async with db.execute(
                    "SELECT 1 FROM autopilot WHERE game_id = ? AND user_key = ?", (pk, user_key)
                ) as c:
                    if await c.fetchone() is None:
                        return False  # a real bot, or nobody
            await db.execute(
                "INSERT INTO autopilot (game_id, user_key, reason, since, until) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, user_key) DO UPDATE SET "
                "reason = excluded.reason, until = excluded.until",
                (pk, user_key, reason, now, until),
            )
            await db.execute("DELETE FROM votes WHERE game_id = ? AND target = ?", (pk, user_key))
        return True

    async def end_autopilot(self, pk: int, user_key: str, outbox: Sequence[OutRow] = ()) -> bool:
        """The player takes their seat back; False when no bot was playing it for them. The
        announcement (`outbox`) is written with it, or not at all."""
        async with self._tx() as db:
            cur = await db.execute(
                "DELETE FROM autopilot WHERE game_id = ? AND user_key = ?", (pk, user_key)
            )
            if cur.rowcount != 1:
                return False
            await db.execute(
                "UPDATE seats SET is_bot = 0, bot_kind = NULL WHERE game_id = ? AND user_key = ?",
                (pk, user_key),
            )
            await write_outbox(db, outbox, self._clock())
        return True

    async def autopilots(self, pk: int) -> list[AutopilotRow]:
        rows = await self._all(
            "SELECT game_id, user_key, reason, since, until FROM autopilot WHERE game_id = ?",
            (pk,),
        )
        return [AutopilotRow(*r) for r in rows]

    async def user_autopilots(self, user_key: str) -> list[AutopilotRow]:
        rows = await self._all(
            "SELECT a.game_id, a.user_key, a.reason, a.since, a.until FROM autopilot a "
            "JOIN games g ON g.id = a.game_id WHERE a.user_key = ? "
            "AND g.status IN ('lobby', 'active')",
            (user_key,),
        )
        return [AutopilotRow(*r) for r in rows]

    async def ended_autopilots(self, now: float, limit: int = 100) -> list[AutopilotRow]:
        rows = await self._all(
            "SELECT game_id, user_key, reason, since, until FROM autopilot "
            "WHERE until IS NOT NULL AND until <= ? ORDER BY until LIMIT ?",
            (now, limit),
        )
        return [AutopilotRow(*r) for r in rows]

    async def set_away(self, user_key: str, until: float) -> None:
        now = self._clock()
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO away (user_key, since, until) VALUES (?, ?, ?) "
                "ON CONFLICT (user_key) DO UPDATE SET until = excluded.until",
                (user_key, now, until),
            )

    async def clear_away(self, user_key: str) -> bool:
        async with self._tx() as db:
            cur = await db.execute("DELETE FROM away WHERE user_key = ?", (user_key,))
            return cur.rowcount == 1

    async def away_until(self, user_keys: Sequence[str], now: float) -> dict[str, float]:
        """The users among `user_keys` away at `now`, with the time they come back."""
        if not user_keys:
            return {}
        marks = ", ".join("?" * len(user_keys))
        rows = await self._all(
            f"SELECT user_key, until FROM away WHERE until > ? AND user_key IN ({marks})",
            (now, *user_keys),
        )
        return {r[0]: float(r[1]) for r in rows}

    async def add_vote(self, pk: int, target: str, voter: str) -> list[str]:
        """Record a vote (once per voter); returns everybody who voted against `target`."""
        now = self._clock()
        async with self._tx() as db:
            await db.execute(
                "INSERT OR IGNORE INTO votes (game_id, target, voter, at) VALUES (?, ?, ?, ?)",
                (pk, target, voter, now),
            )
            async with db.execute(
                "SELECT voter FROM votes WHERE game_id = ? AND target = ? ORDER BY at, voter",
                (pk, target),
            ) as cur:
                return [r[0] for r in await cur.fetchall()]

    async def votes_against(self, pk: int, target: str) -> list[str]:
        rows = await self._all(
            "SELECT voter FROM votes WHERE game_id = ? AND target = ? ORDER BY at, voter",
            (pk, target),
        )
        return [r[0] for r in rows]

    async def clear_votes(self, pk: int, target: str) -> int:
        async with self._tx() as db:
            cur = await db.execute(
                "DELETE FROM votes WHERE game_id = ? AND target = ?", (pk, target)
            )
            return cur.rowcount

    async def set_digest(
        self, user_key: str, chat_key: str, hour: int, tz: str, next_at: float
    ) -> None:
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO digests (user_key, chat_key, hour, tz, next_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_key) DO UPDATE SET "
                "chat_key = excluded.chat_key, hour = excluded.hour, tz = excluded.tz, "
                "next_at = excluded.next_at",
                (user_key, chat_key, hour, tz, next_at),
            )

    async def clear_digest(self, user_key: str) -> bool:
        async with self._tx() as db:
            cur = await db.execute("DELETE FROM digests WHERE user_key = ?", (user_key,))
            return cur.rowcount == 1

    async def digest(self, user_key: str) -> DigestRow | None:
        row = await self._one(
            "SELECT user_key, chat_key, hour, tz, next_at FROM digests WHERE user_key = ?",
            (user_key,),
        )
        return DigestRow(*row) if row else None

    async def due_digests(self, now: float, limit: int = 100) -> list[DigestRow]:
        rows = await self._all(
            "SELECT user_key, chat_key, hour, tz, next_at FROM digests WHERE next_at <= ? "
            "ORDER BY next_at LIMIT ?",
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
                "UPDATE digests SET next_at = ? WHERE user_key = ? AND next_at = ?",
                (next_at, seen.user_key, seen.next_at),
            )
            if cur.rowcount != 1:
                return False
            await write_outbox(db, outbox, self._clock())
            return True

    # ------------------------------------------------------------------ clocks and people
    async def started_at(self, pk: int) -> float | None:
        """When game `pk` left its lobby (None: not started, or unknown)."""
        row = await self._one("SELECT started_at FROM games WHERE id = ?", (pk,))
        return float(row[0]) if row is not None and row[0] is not None else None

    async def user_prefs(self, user_keys: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Each user's /me settings (an empty dict for users without any)."""
        keys = sorted(set(user_keys))
        found: dict[str, dict[str, Any]] = {k: {} for k in keys}
        if keys:
            marks = ", ".join("?" for _ in keys)
            for r in await self._all(
                f"SELECT user_key, prefs_json FROM users WHERE user_key IN ({marks})", keys
            ):
                found[r[0]] = json.loads(r[1] or "{}")
        return found

    async def set_user_prefs(self, user_key: str, prefs: dict[str, Any]) -> None:
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO users (user_key, prefs_json) VALUES (?, ?) "
                "ON CONFLICT (user_key) DO UPDATE SET prefs_json = excluded.prefs_json",
                (user_key, json.dumps(prefs, sort_keys=True)),
            )


# A planned turn with nothing left to do sorts after every real time.
