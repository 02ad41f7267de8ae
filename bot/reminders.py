"""Deadlines, time banks, turn reminders, expiry policies, absences, votes and daily digests.

The move transaction (bot/store.py) writes one `reminders` row per game: who must act, since
when, and the deadline (`due_at`). It resets the row's `attempt` to 0 whenever the turn
changes. A turn goes on (its start, deadline and reminders) while the players asked are some
of those it waited for and each of them stayed asked through the run of moves (another of
several players acted; a move that leaves its player deciding, as one city built of several);
a player asked again after others moved (the bots' answer to his move, a forced pass, a phase
that comes back to him) begins a new turn, with a fresh deadline and reminders
(`Played.asked_anew`), as his time bank counts turns (bot/clock.py). Everything else happens
here, driven by bot/scheduler.py:

- Planning: a turn's reminder points are percentages of its deadline (default 0 %, 50 %,
  90 %; 0 % is the start mention), then the expiry. A point falling in the chat's quiet hours
  moves to the end of the quiet period; so does the expiry (nothing the scheduler does
  happens in quiet hours). Each player waited for has his own schedule (bot/expiry.py): his
  reminders, "Time is up" and the nags after it also wait for the end of his own quiet hours
  (`/me quiet=23-08`, bot/me.py), whoever else is asked with him, and his seat expires a last
  call after his own first notice; the claim records each one's progress (`TurnPlan.progress`).
  After downtime, all points already passed collapse into one: the latest fires once, or the
  expiry alone when it has passed and the turn's players were notified (by the ask or a
  reminder); a turn nothing notified them of hears its latest reminder first, and the expiry
  waits a last call after it (bot/expiry.py).
- Time bank (`/settings clock=bank:3d+12h`): instead of the per-move deadline, each waiting
  player's deadline is the start of their turn plus what is left in their bank
  (bot/clock.py), and his reminders are percentages of it; the expiry policy applies to a
  player whose bank ran out.
- Expiry policies (per chat): `remind` posts "time is up" and then reminds once per
  max(deadline, 24 h); `skip` plays the default move (`default_action`); `bot` hands the seat
  to a bot until the player sends any command in that chat.
- `/away <duration>` applies the chat's policy at once to the player's turns in every game
  (under `remind` their turns simply wait, unreminded) until `/back` or the duration ends.
- Bots stand in, they do not play a game out alone (`unattended`): a bot takes a seat (policy
  `bot`, on expiry or `/away`) or plays for someone away (`bot` or `skip`) only while another
  seat is played by a person at the table (a human seat, not on a bot's autopilot, its
  player not away). When nobody else is left, the game waits: the table says so once, a
  player away waits unreminded (looked at again when his absence ends), one whose deadline
  ran out is reminded as under `remind`; `/back` and a move play on. Without this, one
  player alone with /addbot bots going `/away` saw the whole game played and posted at once.
- `/vote replace <name>`: when a majority of the other seated humans agree, a bot (heuristic)
  plays the silent player's seat. Any command from that player cancels the pending votes;
  a replaced player takes the seat back with `/back` in that chat. The voter stays a person
  at the table: left alone with bots, he is answered turn by turn (a bot chain stops at his
  turn), his silence plays a default move once a deadline under `skip` (each ask of his a new
  turn with its own deadline: before, his first one never ended, and once past it a default
  move came at each look of the scheduler, the rest of the game in minutes), and his absence
  holds the game (`unattended`).
- `/digest on [hour] [tz=...]` in a private chat: once a day, every game waiting for you.

The commands live in bot/reminder_commands.py and bot/me.py; this module keeps the hook on
every command and the scheduled work.

Reminders go privately to players who have written to the bot in private (users.dm_ok),
otherwise as a mention in the table's chat; the start point is private only, since the table's
own prompt already mentions the player in the chat, and silent when it comes on time (one
notifying message per prompt, the table's ask; a player asked again in a round is told
silently, bot/quiet.py); held back past `PROMPT_FRESH` (his quiet hours) it notifies. A turn
begun by its player's own move (the bots answered him, the next phase asks him too) has no
start prompt: the move's answer asked him where he played. In quiet
hours (the chat's, or the player's own /me ones) the table's ask does not notify him
(bot/announce.py), so a turn begun then has its start point, held to their end, notify him:
privately, or as a mention in the chat (a chat whose reminders have no 0 % point gets this
one start point all the same, for the players the quiet hours held, bot/deadlines.py). A
private reminder carries the prompt's buttons (pressed in private, the move is played in the
game's chat: bot/dm_press.py) and a recap of what happened since the player's last move
(bot/recap.py), with the latest picture of the board when a phase ended meanwhile.

Every message the scheduled work causes is written to the outbox in the transaction that
claims the work (the turn's plan, the absence's end, the digest's next time): a crash can
neither lose nor repeat one (issue 16).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.bots import bot_action, bot_kind_for, bot_rng, default_action
from bot.clock import Clocks, Turns, account
from bot.context import PLATFORM_OF_PREFIX, Ctx, Pipeline, fit
from bot.deadlines import (
    NAG_EVERY,
    ChatSettings,
    format_duration,
    human_duration,
    next_local_hour,
    out_of_quiet,
    parse_duration,
    parse_percents,
    parse_quiet,
    parse_tz,
    quiet_end,
    quiet_of,
)
from bot.expiry import Point, TurnDecision, decide_turn
from bot.grammar import CommandLine, shorten
from bot.i18n import listed, normalize, tr, translator
from bot.me import MeCommands, me_command
from bot.messages import Inbound, Outbound
from bot.moment import Moment
from bot.no_show import chronic_note, set_timeouts, timeouts
from bot.outbox import platform_of, row_of
from bot.pace import pace_line
from bot.placeholders import choice_label
from bot.quiet import PROMPT_FRESH
from bot.recap import recap
from bot.reminder_commands import deadline_commands
from bot.reminder_text import chat_name, prompt_buttons, reminder_buttons, reminder_text
from bot.seat_notes import taken_notice
from bot.store import GameRow, OutRow, SeatRow, TurnPlan
from bot.store_plans import DigestRow
from bot.store_protocol import Store
from engine.core import N_, load_state
from engine.core.protocol import CommandSpec, Game, State
from engine.core.sentences import WHO_DOES

log = logging.getLogger(__name__)

# After applying an expiry policy, the turn is looked at again this soon (see process_turn).
RELOOK = 60.0
# How far back the log is read for the move that began a turn (`Reminders._turn_mover`): a
# run longer than this (a bot chain) is not looked through, and its start prompt goes out.
MOVER_LOOKBACK = 64

# The notice of a turn the policy leaves waiting (`unattended`), once per turn held.
WAITS = N_(
    "Every other seat here is played by a bot, so the game waits for {names} instead of "
    "playing itself out: a bot stands in for someone only while another player is at the "
    "table. /back, then a move, plays on."
)


def unattended(
    seats: Sequence[SeatRow],
    away: Mapping[str, float],
    act_on: Sequence[tuple[SeatRow, float | None]],
    policy: str,
) -> list[tuple[SeatRow, float | None]]:
    """Of the seats the expiry policy would act on now (with the end of their absence, None
    for a deadline run out), those it leaves waiting because no other seat is played by a
    person at the table (a human seat not on a bot's autopilot, its player not away): a bot
    taking a seat (policy `bot`) or playing for someone away (`bot` or `skip`). The table
    is for friends playing at their pace with bots filling in for the absent; with nobody
    left it would play the whole game out at once (found through Telegram, 2026-12-05: Ann
    alone with one /addbot bot, `/away 30d` under policy bot: 237 moves in one commit, 13
    pictures, the end card within a second), so it waits for them instead. A deadline run
    out under `skip` still plays the default move: the deadlines pace that."""
    if not act_on:
        return []
    acting = {s.user_key for s, _ in act_on}
    if any(not s.is_bot and s.user_key not in away and s.user_key not in acting for s in seats):
        return []
    return [(s, until) for s, until in act_on if policy == "bot" or until is not None]


# Re-exported: what callers import from here.
__all__ = [
    "ChatSettings",
    "Reminders",
    "default_action",
    "format_duration",
    "next_local_hour",
    "out_of_quiet",
    "parse_duration",
    "parse_percents",
    "parse_quiet",
    "parse_tz",
    "reminder_commands",
]


def reminder_commands() -> tuple[CommandSpec, ...]:
    """The table commands of deadlines and time: /settings /away /back /vote /digest /me."""
    return (*deadline_commands(), me_command())


REMINDER_COMMAND_NAMES = frozenset(s.name for s in reminder_commands())


class Reminders(MeCommands):
    """The table's deadline side: commands, the hook on every command, and what the
    scheduler does with a due turn, an ended absence or a due digest."""

    def __init__(self, table: Pipeline, store: Store) -> None:
        super().__init__(table, store)
        self.clocks = Clocks(store, table.games)

    # ------------------------------------------------------------------ every command
    async def on_command(self, ctx: Ctx, line: CommandLine) -> None:
        """Called by the table before any command is handled: a private message proves the
        bot can write to the user; a seated player's command cancels votes against them and
        ends the bot's stand-in after an expiry (policy bot)."""
        ib = ctx.inbound
        if ib.is_private:
            user = await self.store.user(ib.user_key)
            if not user.dm_ok:
                await self.store.set_user(ib.user_key, dm_ok=True)
        if not (line.slash or ctx.from_button or ib.is_private or ib.platform == "local"):
            return  # ordinary talk in a group is not a command
        row = ctx.game
        seat = ctx.seat()
        if row is None or row.status != "active" or seat is None:
            return
        voted = (
            ctx.voted
            if ctx.voted is not None
            else await self.store.votes_against(row.id, seat.user_key)
        )
        if voted:
            await self.store.clear_votes(row.id, seat.user_key)
        if not seat.is_bot:
            return
        autos = await self.store.autopilots(row.id)
        mine = next((a for a in autos if a.user_key == seat.user_key), None)
        if mine is None or mine.reason != "expired" or line.name in REMINDER_COMMAND_NAMES:
            return
        if await self.store.end_autopilot(row.id, seat.user_key):
            ctx.seats = await self.store.seats(row.id)
            await self.store.replan_now([row.id], self.table.clock())
            # news for the game's chat, as /back's: its language, silent (it asks nobody to
            # act); found play-testing: a Russian reader's /status posted it in Russian in an
            # English group, notifying everyone
            lang = ctx.chat_lang or await self._lang(row.chat_key)  # ctx is in the game's chat
            text = tr(
                lang, "Welcome back, {name}: you play your seat again.", name=seat.display_name
            )
            await self.table.push([Outbound(row.chat_key, text, lang=lang, silent=True)])

    # ================================================================== scheduler work
    def _rows(
        self, outs: Sequence[Outbound], game_id: int | None
    ) -> tuple[list[OutRow], list[Outbound]]:
        """The outbox rows of the messages a sender loop delivers (a durable platform's),
        written by the claim itself, and the others, sent once the claim holds."""
        rows: list[OutRow] = []
        direct: list[Outbound] = []
        for out in fit(list(outs)):
            if platform_of(out.chat_key) in self.table.durable:
                rows.append(row_of(out, out.lang or self.table.default_lang, game_id))
            else:
                direct.append(out)
        return rows, direct

    async def end_absences(self, now: float) -> int:
        """Absences whose time is over: the seat goes back to its player, announced in the
        same transaction; silently in the chat's quiet hours and in his own (found by a
        play-tester: /away 1d said at 01:30 pinged him at 01:30 the next night)."""
        done = 0
        for auto in await self.store.ended_autopilots(now):
            row = await self.store.game(auto.game_id)
            outs: list[Outbound] = []
            if row is not None and row.status == "active":
                seats = await self.store.seats(row.id)
                name = next((s.display_name for s in seats if s.user_key == auto.user_key), "?")
                lang = await self._lang(row.chat_key)
                own = quiet_of((await self.store.user_prefs([auto.user_key]))[auto.user_key])
                quiet = (
                    out_of_quiet(now, await self.settings(row.chat_key)) > now
                    or quiet_end(now, own.hours, own.tz) > now
                )
                outs.append(
                    Outbound(
                        row.chat_key,
                        tr(lang, "@{name} is back: the seat is theirs again.", name=name),
                        mentions=[(auto.user_key, name)],  # named; silent: not pinged
                        lang=lang,
                        silent=quiet,
                    )
                )
            rows, direct = self._rows(outs, auto.game_id)
            if not await self.store.end_autopilot(auto.game_id, auto.user_key, outbox=rows):
                continue
            done += 1
            if row is not None and row.status == "active":
                await self.store.replan_now([row.id], now)
            await self.table.push(direct)  # and wakes the sender loops for the rows
        return done

    async def _deadlines(
        self,
        row: GameRow,
        plan: TurnPlan,
        humans: list[SeatRow],
        settings: ChatSettings,
        now: float,
    ) -> dict[str, float]:
        """Each waiting human's own deadline under a time bank (user key -> time); {} under a
        deadline per move."""
        bank = settings.bank
        if bank is None or not humans:
            return {}
        turns: dict[str, Turns] = await self.clocks.turns(row)
        return {
            s.user_key: account(
                turns.get(s.display_name, []), bank, now, plan.turn_started_at
            ).deadline
            or plan.turn_started_at + bank.start
            for s in humans
        }

    async def process_turn(self, plan: TurnPlan, now: float) -> None:
        """One due turn: plan it, remind, or apply the expiry policy. Each player waited for
        has his own schedule (bot/expiry.py): his reminders wait for his own quiet hours, his
        seat expires on his own first notice, and the claim records his progress."""
        # One store call for the reads (issue 23: every new turn is planned here, and one
        # read each cost a PostgreSQL worker five round trips per turn).
        reads = await self.store.turn_reads(plan.game_id, now)
        row = reads.game
        game = self._game(row) if row is not None else None
        if row is None or game is None or row.status != "active" or row.state_json is None:
            await self.store.claim_turn(plan, plan.done_until, None)
            return
        state: State = load_state(row.state_json)
        current = list(game.current_players(state))
        seats = reads.seats
        waiting = [s for s in seats if s.display_name in plan.players and s.display_name in current]
        # A bot seat that must act (a stand-in flipped mid-turn, a bot chain cut short): play it.
        stuck = [s for s in waiting if s.is_bot]
        if stuck:
            for seat in stuck:
                await self._play(row, game, seat, "bot", None)
            fresh = await self.store.turn_plan(row.id)
            if fresh is None or fresh != plan:
                return  # the turn moved on; it is planned afresh
        settings = ChatSettings.load(reads.chat.settings)
        humans = [s for s in waiting if not s.is_bot]
        human_keys = {s.user_key for s in humans}
        away = {k: until for k, until in reads.away.items() if k in human_keys}
        present = [s for s in humans if s.user_key not in away]
        # Under a time bank each waiting player's deadline is his own.
        own = await self._deadlines(row, plan, humans, settings, now)
        quiet = {s.display_name: quiet_of(reads.prefs.get(s.user_key, {})) for s in humans}
        deadlines = {s.display_name: own[s.user_key] for s in humans if s.user_key in own}
        decision = decide_turn(plan, settings, now, quiet, deadlines)
        acting = settings.policy in ("skip", "bot")
        # Under skip/bot a passed deadline always acts, also when the policy was switched on
        # after the expiry was handled as a reminder; when the bot acts (bot/expiry.py: out
        # of quiet hours, a last call after the player's first notice).
        ran_out = [s for s in present if decision.ran_out(s.display_name)]
        act_on: list[tuple[SeatRow, float | None]] = []
        if acting:
            act_on = [(s, away[s.user_key]) for s in humans if s.user_key in away]
            act_on += [(s, None) for s in ran_out]
        # Nobody else at the table is a person who plays: the game waits for them instead of
        # playing itself out (`unattended`).
        held = unattended(seats, reads.away, act_on, settings.policy)
        outs: list[Outbound] = []
        if held:
            act_on = [x for x in act_on if x not in held]
            if ran_out and any(until is None for _, until in held):
                # a player who ran out of time is reminded as under `remind`
                remind = replace(settings, policy="remind")
                decision = decide_turn(plan, remind, now, quiet, deadlines)
            expiring = any(
                (p := decision.point(s.display_name)) is not None and p.kind == "expire"
                for s in present
            )
            if not present or expiring:
                # once: those away wait unreminded, one out of time hears "time is up"
                outs.append(await self._waits_notice(row.chat_key, [s for s, _ in held]))
        # The reminders of those the policy does not act on now, each his own point.
        acted = {s.user_key for s, _ in act_on}
        points = {
            s.display_name: p
            for s in present
            if s.user_key not in acted and (p := decision.point(s.display_name)) is not None
        }
        reminded: list[Outbound] = []
        if points:
            reminded = await self._remind(row, game, state, present, points, plan, now, decision)
        told = {
            name
            for out in reminded
            if not out.silent
            for key, name in out.mentions
            if key in human_keys
        }
        settled = decision.settle(told)
        next_at = settled.next_at
        if held and not present:
            # those held are all away: look again when the first absence ends (or a move, a
            # /back or new settings plan the turn anew); nothing else to say meanwhile
            ends = [until for _, until in held if until is not None]
            next_at = min(ends) if ends else None
        if act_on:
            # The moves are committed after the claim, each in its own transaction: the turn
            # is looked at again shortly, so a crash in between cannot leave it unplayed (a
            # move that happened is not repeated: `_play` checks the version). The others'
            # reminders are written by the claim.
            relook = min(next_at if next_at is not None else now + RELOOK, now + RELOOK)
            rows, direct = self._rows(reminded, row.id)
            if not await self.store.claim_turn(
                plan,
                settled.done_until,
                relook,
                outbox=rows,
                notified_at=settled.notified_at,
                progress=settled.progress,
            ):
                return
            await self.table.push(direct)
            played = [
                await self._play(row, game, seat, settings.policy, until, settings)
                for seat, until in act_on
            ]
            if not any(played) and next_at is None:
                # Nothing could be played (no legal move, a failing bot): keep reminding.
                stuck_plan = await self.store.turn_plan(row.id)
                if stuck_plan is not None and stuck_plan.turn_started_at == plan.turn_started_at:
                    later_at = now + max(NAG_EVERY, plan.deadline_at - plan.turn_started_at)
                    await self.store.claim_turn(stuck_plan, stuck_plan.done_until, later_at)
            return
        # The reminders are written by the claim itself: both happen, or neither (issue 16).
        rows, direct = self._rows([*outs, *reminded], row.id)
        if not await self.store.claim_turn(
            plan,
            settled.done_until,
            next_at,
            outbox=rows,
            notified_at=settled.notified_at,
            progress=settled.progress,
        ):
            return
        await self.table.push(direct)  # and wakes the sender loops for the rows

    async def _play(
        self,
        row: GameRow,
        game: Game,
        seat: SeatRow,
        policy: str,
        away_until: float | None,
        settings: ChatSettings | None = None,
    ) -> bool:
        """Apply the policy's move for `seat` through the table (same transaction, version
        check, announcements and bot moves as a chat command); False when nothing was played."""
        fresh = await self.store.game(row.id)
        if fresh is None or fresh.status != "active" or fresh.state_json is None:
            return False
        state: State = load_state(fresh.state_json)
        if seat.display_name not in game.current_players(state):
            return False
        lang = await self._lang(row.chat_key)
        settings = settings or await self.settings(row.chat_key)
        kind = seat.bot_kind or bot_kind_for(game)
        notes: list[str] = []
        if policy == "bot" and not seat.is_bot:
            reason = "away" if away_until is not None else "expired"
            if not await self.store.start_autopilot(
                row.id, seat.user_key, reason, away_until, kind
            ):
                return False
            if away_until is not None:
                notes.append(
                    tr(
                        lang,
                        "{name} is away until {when}: a bot ({kind}) plays the seat meanwhile.",
                        name=seat.display_name,
                        when=self._when(lang, away_until, settings),
                        kind=tr(lang, choice_label(kind)),  # "strong bot", translated
                    )
                )
            else:
                notes.append(
                    tr(
                        lang,
                        "{name} ran out of time: a bot ({kind}) plays the seat until they send "
                        "any command here.",
                        name=seat.display_name,
                        kind=tr(lang, choice_label(kind)),  # "strong bot", translated
                    )
                )
        ran_out = 0  # the how-manieth time he ran out of time in this game (bot/no_show.py)
        if policy == "bot":
            action = bot_action(
                game, state, seat.display_name, kind, bot_rng(fresh.seed or 0, fresh.version)
            )
        else:
            action = default_action(game, state, seat.display_name)
            if action is not None:
                notes.append(
                    tr(lang, "{name} is away: the default move is played.", name=seat.display_name)
                    if away_until is not None
                    else tr(
                        lang,
                        "{name} ran out of time: the default move is played.",
                        name=seat.display_name,
                    )
                )
                if away_until is None:
                    ran_out = await timeouts(self.store, seat.user_key, row.id) + 1
                    notes += chronic_note(lang, seat.display_name, ran_out)
        if action is None:
            log.warning("game %s: no move to play for %s", row.id, seat.display_name)
            return False
        # The notes ride in the move's own transaction, first among its lines.
        outs = await self.table.act(
            self._inbound(row.chat_key, seat, lang),
            action,
            expected_version=fresh.version,
            notes=notes,
        )
        if not outs:
            return False  # the game moved on meanwhile
        if ran_out:  # counted once the move is in
            await set_timeouts(self.store, seat.user_key, row.id, ran_out)
        if policy == "bot" and not seat.is_bot and away_until is None:
            # a bot took his seat at his deadline: he hears it privately, with the way back
            notice = await taken_notice(self.store, row, game.name, seat, lang, self.table.clock())
            outs = [*outs, *notice]
        await self.table.push(outs)  # those already in the outbox are left to its sender loop
        return True

    async def _waits_notice(self, chat_key: str, seats: Sequence[SeatRow]) -> Outbound:
        """The table's word that the game waits for `seats` (`unattended`), silent."""
        lang = await self._lang(chat_key)
        names = listed(s.display_name for s in seats)
        return Outbound(chat_key, tr(lang, WAITS, names=names), lang=lang, silent=True)

    def _inbound(self, chat_key: str, seat: SeatRow, lang: str) -> Inbound:
        return Inbound(
            platform=PLATFORM_OF_PREFIX.get(chat_key.split(":", 1)[0], "local"),
            chat_key=chat_key,
            user_key=seat.user_key,
            display_name=seat.display_name,
            lang=lang,
        )

    async def _turn_mover(self, row: GameRow, plan: TurnPlan) -> str | None:
        """The person whose own move began the turn under way (the latest run of moves began
        with his, and began the turn): asked again after the others answered him (the bots,
        the next phase), he has his ask before him, where he played (the status message, or
        the prompt of a move sent privately, bot/moves.py `_asked_again`). None otherwise."""
        for action in reversed(await self.store.actions(row.id, last=MOVER_LOOKBACK)):
            if action.step == 0:
                return action.user_key if action.created_at >= plan.turn_started_at else None
        return None

    async def _remind(
        self,
        row: GameRow,
        game: Game,
        state: State,
        seats: list[SeatRow],
        points: Mapping[str, Point],
        plan: TurnPlan,
        now: float,
        decision: TurnDecision,
    ) -> list[Outbound]:
        """The reminder of each of `seats` that has a point now (`points`, by name; when and
        what each says: his own schedule in `decision`): privately (with the prompt's buttons,
        a recap since their last move and, when a phase ended meanwhile, the latest picture)
        where the bot may write to them, else a mention in the chat."""
        chat_lang = await self._lang(row.chat_key)
        names: dict[str, str] = {}  # language -> how the chat is named in it
        outs: list[Outbound] = []
        actions = None
        mover: str | None = None  # who began the turn by his own move, once looked up
        looked = False
        for seat in seats:
            point = points.get(seat.display_name)
            schedule = decision.schedule(seat.display_name)
            if point is None or schedule is None:
                continue
            settings = schedule.settings
            user = await self.store.user(seat.user_key)
            private = user.dm_ok
            # The turn began in the chat's quiet hours or in the player's own: the table's ask
            # did not notify him (bot/announce.py), so his start point, held to their end, does
            held = point.kind == "start" and schedule.notifies(point)
            if point.held_only and not held:
                continue  # the chat wants no start reminder: only the ask they missed
            if point.kind == "start" and not private and not held:
                continue  # the table's prompt already mentioned them in the chat
            if point.kind == "start":
                if not looked:
                    mover, looked = await self._turn_mover(row, plan), True
                if seat.user_key == mover:
                    continue  # his own move began his turn: its answer asked him already
            # A reminder is addressed to one person: their language, in the chat too. One that
            # must go to the group (the player never wrote to the bot privately) tells the
            # public turn only: their hidden money and standing orders stay theirs (issue 20).
            lang = normalize(user.lang or seat.lang or chat_lang)
            # what is left until the bot acts (bot/expiry.py), as every display says it
            left = schedule.expires - now
            if lang not in names:
                names[lang] = await chat_name(self.store, row.chat_key, lang)
            chat = names[lang]
            if not private:
                # posted in the game's chat: the chat is not named there, the player is, as a
                # prompt names him ("@Fay: Reminder: …"), and the buttons come along (found
                # play-testing through Telegram, 2026-12-05: "@Fay Reminder: Power Grid
                # (Game night) is waiting…" in Game night, with no buttons)
                text = reminder_text(
                    lang, point.kind, game, state, seat.display_name, None, left, settings, False
                )
                outs.append(
                    Outbound(
                        row.chat_key,
                        tr(lang, WHO_DOES, players="@" + seat.display_name, what=text),
                        mentions=[(seat.user_key, seat.display_name)],
                        # the group prompt's, from the public view (bot/announce.py)
                        buttons=prompt_buttons(
                            row.id, Moment(game, state), [seat.display_name], lang
                        ),
                        lang=lang,
                    )
                )
                continue
            text = reminder_text(
                lang, point.kind, game, state, seat.display_name, chat, left, settings, private
            )
            if actions is None:
                actions = await self.store.actions(row.id)
            summary = recap(game, state, actions, seat.display_name, lang)
            if summary.text:
                text = summary.text + "\n\n" + text
            drawn = settings.pictures != "off" and platform_of(row.chat_key) in self.table.durable
            if summary.phase_ended and drawn:
                # The latest picture, drawn for them at send time (bot/announce.py `_draw_row`).
                outs.append(
                    Outbound(
                        row.chat_key,
                        tr(lang, "The board now"),
                        picture={
                            "game": row.id,
                            "version": row.version,
                            "viewer": seat.display_name,
                            "lang": lang,
                            "mode": settings.pictures,
                        },
                        private_to=seat.user_key,
                        silent=True,
                        lang=lang,
                    )
                )
            outs.append(
                Outbound(
                    row.chat_key,
                    text,
                    private_to=seat.user_key,
                    mentions=[(seat.user_key, seat.display_name)],
                    buttons=reminder_buttons(
                        row.id, Moment(game, state).mark, game, state, seat.display_name, lang
                    ),
                    lang=lang,
                    # the start point on time is the private prompt: the table's ask already
                    # notified (or, asked again in a round, told silently: bot/quiet.py); one
                    # held back (quiet hours, downtime) and the later points notify
                    silent=point.kind == "start" and now - point.at < PROMPT_FRESH and not held,
                )
            )
        return outs

    # ------------------------------------------------------------------ digests
    async def digest_message(
        self, user_key: str, chat_key: str, lang_hint: str | None = None
    ) -> Outbound | None:
        """The list of the user's games waiting for them (None when none waits)."""
        user = await self.store.user(user_key)
        lang = normalize(user.lang or lang_hint or self.table.default_lang)
        t = translator(lang)
        lines = []
        for row in await self.store.user_games(user_key, limit=50):
            game = self._game(row)
            if game is None or row.status != "active" or row.state_json is None:
                continue
            seats = await self.store.seats(row.id)
            me = next((s for s in seats if s.user_key == user_key), None)
            state = load_state(row.state_json)
            if me is None or me.display_name not in game.current_players(state):
                continue
            what = game.describe_turn(state, me.display_name, t).strip()
            chat = await chat_name(self.store, row.chat_key, lang)
            lines.append(f"- {tr(lang, game.name)} ({chat}): {shorten(what, 300)}")
        if not lines:
            return None
        text = tr(lang, "Games waiting for you:") + "\n" + "\n".join(lines)
        # The digest names the user's games and their private turn texts: to them alone.
        return Outbound(chat_key, text, private_to=user_key, lang=lang)

    async def send_digest(self, user_key: str, chat_key: str, lang_hint: str | None = None) -> bool:
        """Send the digest now (outside the scheduler); False (nothing sent) when none."""
        out = await self.digest_message(user_key, chat_key, lang_hint)
        if out is None:
            return False
        await self.table.push([out])
        return True

    async def run_digest(self, digest: DigestRow, next_at: float) -> bool:
        """A due digest: moved on to `next_at` with its message in one transaction; False when
        another worker had it already."""
        out = await self.digest_message(digest.user_key, digest.chat_key)
        rows, direct = self._rows([out] if out is not None else [], None)
        if not await self.store.claim_digest(digest, next_at, outbox=rows):
            return False
        await self.table.push(direct)
        return True

    # ------------------------------------------------------------------ /status
    async def pace(self, row: GameRow, lang: str, reader: str | None = None) -> str:
        """The pace line of /status, with each player's time bank under a bank; days in the
        reader's time zone (/me), else the chat's."""
        game = self._game(row)
        if game is None or row.state_json is None or row.status != "active":
            return ""
        state: State = load_state(row.state_json)
        seats = await self.store.seats(row.id)
        humans = [s.display_name for s in seats if not s.is_bot]
        # Who the table waits on is asked of every person seated, those a bot plays for now
        # (/away, /vote replace, policy=bot) included: the time the table waited on one before
        # the bot took over is his. Leaving him out dropped the longest wait of all and named
        # the next player for the seconds he had been on turn (found play-testing, right
        # after /vote replace); pace.MIN_WAITED keeps seconds from naming anybody.
        piloted = {a.user_key for a in await self.store.autopilots(row.id)}
        people = [s.display_name for s in seats if not s.is_bot or s.user_key in piloted]
        settings = await self.settings(row.chat_key)
        turns = await self.clocks.turns(row)
        now = self.table.clock()
        started = await self.store.started_at(row.id)
        prefs = (await self.store.user_prefs([reader]))[reader] if reader else {}
        tz = prefs.get("tz") if isinstance(prefs.get("tz"), str) else None
        try:
            done = game.progress(state)
        except Exception:  # a game's measure failing must not cost /status its answer
            log.exception("game %s: no progress measure", row.id)
            done = None
        line = pace_line(lang, done, turns, people, started, now, tz or settings.tz)
        bank = settings.bank
        if bank is not None:
            banks = listed(
                f"{name} {human_duration(account(turns.get(name, []), bank, now).left, lang)}"
                for name in humans
            )
            line = (line + "\n" if line else "") + tr(lang, "Time banks: {banks}.", banks=banks)
        return line
