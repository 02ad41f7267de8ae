"""The deadline line of the table's live status message (bot/announce.py): when the bot will
act on the turn asked, in the chat's time zone and named with it.

The moment shown is the one the scheduler acts at (bot/expiry.py `acts_at`: out of the chat's
quiet hours, a last call after each player's first notifying reminder, as the scheduler
recorded it for a turn that goes on), not the deadline the move wrote (found play-testing,
2026-12: "Deadline: Mar 4, 1:00 AM" pinned while the default move came at 07:00). Players
asked together whose expiries differ (one's first reminder the night held) see each his own.

Under a time bank (`/settings clock=bank:3d+12h`) the per-move deadline does not apply: each
player asked has his own, the start of his turn plus what is left in his bank (bot/clock.py);
players asked together see each his own, since each acts against his own bank (before, the
per-move deadline was pinned while the reminder told the bank's "2 days 23 hours"). The time
zone is named, as /away's answer does: players of one chat live in several ("9:00 PM" pinned in
Berlin time read in Moscow).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping, Sequence

from bot.clock import Turns, account, after_run
from bot.context import Ctx, Played
from bot.deadlines import Bank, ChatSettings, human_when, quiet_of
from bot.expiry import acts_at
from bot.i18n import tr
from bot.moment import Moment
from bot.store import GameRow, TurnPlan
from bot.table_base import TableBase

# A deadline in words, to the minute (Babel's formatting is slow enough to be worth keeping).
_when = functools.lru_cache(maxsize=1024)(human_when)


def minute_when(t: float, tz: str, lang: str) -> str:
    """ "Nov 14, 2023, 11:13 PM": a deadline to the minute in the chat's time zone."""
    return _when(round(t / 60.0) * 60.0, tz, lang)


def shown_when(t: float, tz: str, lang: str) -> str:
    """ "Nov 14, 2023, 11:13 PM (Europe/Berlin)": the time zone named, as /away's end is
    (bot/reminder_commands.py)."""
    return f"{minute_when(t, tz, lang)} ({tz})"


def bank_deadlines(
    turns: Mapping[str, Turns], bank: Bank, asked: Sequence[str], now: float, started: float
) -> dict[str, float]:
    """Each asked player's own deadline under a time bank: the start of his running turn plus
    what his bank held then (one the log shows no turn of starts at `started`)."""
    return {
        p: account(turns.get(p, []), bank, now, started).deadline or started + bank.start
        for p in asked
    }


class StatusDeadline(TableBase):
    """The status message's deadline line (the module doc says what it shows)."""

    async def _deadline_text(
        self,
        ctx: Ctx,
        row: GameRow,
        now: Moment,
        asked: Sequence[str],
        before: Collection[str] | None,
        played: Played,
    ) -> str | None:
        """ "Deadline: Nov 14, 2023, 11:13 PM (UTC)": when the bot acts on the turn of the
        players `asked` (`before` None: a new turn, bot/quiet.py `starts_a_turn`; else the
        transaction keeps the running turn's deadline while no new player is waited for);
        under a time bank each one's own when they differ."""
        if not asked:
            return None
        settings = ChatSettings.load(ctx.chat_settings or {})
        hours = await self._deadline_hours(row.chat_key, ctx)
        due = self._due(now.game, now.state, hours, now)
        if due is None:
            return None
        due_at, started = due.due_at, due.turn_started_at
        plan = TurnPlan(row.id, due_at, 0, started, [], None, None, 0)
        if before is not None and set(due.players) <= set(before):
            # the row read with the message: no second read (issue 23)
            loaded = ctx.loaded_for == row.id
            kept = ctx.reminder if loaded else await self.store.reminder(row.id)
            if kept is not None and kept.players and set(due.players) <= set(kept.players):
                # the running turn as the scheduler recorded it: when each one's first notice
                # went (found play-testing, 2026-12: a turn's notice held to 07:00, pinned
                # after a partner's move at 07:30 as "Deadline: 1:12 AM", the time the notice
                # had been planned for, while the bot acted at 08:12)
                plan = kept.plan()
                started = plan.turn_started_at
        clock = self.clock()
        own = await self._banked(ctx, row, settings, asked, played, started)
        key_of = {s.display_name: s.user_key for s in ctx.seats}
        ends = {
            p: acts_at(
                plan, settings, clock, quiet_of(ctx.prefs.get(key_of.get(p, ""), {})), own.get(p), p
            )
            for p in asked
        }
        lang = ctx.post_lang
        if len(set(ends.values())) == 1:
            when = shown_when(next(iter(ends.values())), settings.tz, lang)
            return tr(lang, "Deadline: {when}", when=when)
        each = "; ".join(f"{p}: {minute_when(t, settings.tz, lang)}" for p, t in ends.items())
        return tr(lang, "Deadlines: {deadlines} ({tz})", deadlines=each, tz=settings.tz)

    async def _banked(
        self,
        ctx: Ctx,
        row: GameRow,
        settings: ChatSettings,
        asked: Sequence[str],
        played: Played,
        started: float,
    ) -> dict[str, float]:
        """Each asked player's own deadline under a time bank; {} under a deadline per move."""
        bank = settings.bank
        if bank is None:
            return {}
        first_run = played.asked_before is None and played.version - len(played.steps) <= 1
        turns = {} if first_run else await self.reminders.clocks.turns(row)
        steps = [list(s.asked) for s in played.steps if s.asked is not None] or [list(asked)]
        clock = self.clock()
        replay = after_run(turns, steps, clock)
        return bank_deadlines(replay.turns, bank, asked, clock, started)

    async def _stored_acts_at(self, ctx: Ctx, plan: TurnPlan) -> float:
        """When the bot acts on the stored turn `plan` of the chat's game (/status), as the
        scheduler counts it: for the reader when the turn waits for him, else for the first
        of those it waits for to run out (each has his own quiet hours and first notice)."""
        waited = [s for s in ctx.seats if s.display_name in plan.players and not s.is_bot]
        keys = [s.user_key for s in waited]
        prefs = await self.store.user_prefs(keys) if keys else {}
        settings = ChatSettings.load(ctx.chat_settings or {})
        clock = self.clock()
        ends = {
            s.user_key: acts_at(
                plan, settings, clock, quiet_of(prefs.get(s.user_key, {})), None, s.display_name
            )
            for s in waited
        }
        mine = ends.get(ctx.inbound.user_key)
        if mine is not None:
            return mine
        return min(ends.values()) if ends else acts_at(plan, settings, clock)
