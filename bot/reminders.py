"""Deadlines, turn reminders, expiry policies, absences, votes to replace and daily digests.

The move transaction (bot/store.py) writes one `reminders` row per game: who must act, since
when, and the deadline (`due_at`). It resets the row's `attempt` to 0 whenever the turn
changes. Everything else happens here, driven by bot/scheduler.py:

- Planning: a turn's reminder points are percentages of its deadline (default 0 %, 50 %,
  90 %; 0 % is the start mention), then the expiry. A point falling in the chat's quiet hours
  moves to the end of the quiet period; so does the expiry (nothing the scheduler does
  happens in quiet hours). After downtime, all points already passed collapse into one: the
  latest fires once, or the expiry alone when it has passed.
- Expiry policies (per chat): `remind` posts "time is up" and then reminds once per
  max(deadline, 24 h); `skip` plays the default move (`default_action`); `bot` hands the seat
  to a bot until the player sends any command in that chat.
- `/away <duration>` applies the chat's policy at once to the player's turns in every game
  (under `remind` their turns simply wait, unreminded) until `/back` or the duration ends.
- `/vote replace <name>`: when a majority of the other seated humans agree, a bot (heuristic)
  plays the silent player's seat. Any command from that player cancels the pending votes;
  a replaced player takes the seat back with `/back` in that chat.
- `/digest on [hour] [tz=...]` in a private chat: once a day, every game waiting for you.

Reminders go privately to players who have written to the bot in private (users.dm_ok),
otherwise as a mention in the table's chat; the start point is private only, since the table's
own prompt already mentions the player in the chat.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot.bots import bot_action, bot_kind_for, bot_rng, default_action
from bot.chatnames import label_of
from bot.context import PLATFORM_OF_PREFIX, Ctx, Pipeline
from bot.deadlines import (
    PICTURES,
    ChatSettings,
    Point,
    decide,
    format_duration,
    human_when,
    next_local_hour,
    out_of_quiet,
    parse_duration,
    parse_percents,
    parse_quiet,
    parse_tz,
)
from bot.grammar import TABLE_KIND, CommandLine, shorten
from bot.i18n import normalize, tr, translator
from bot.messages import Inbound, Outbound
from bot.reminder_text import reminder_text
from bot.store import GameRow, SeatRow, TurnPlan
from bot.store_protocol import Store
from engine.core import N_
from engine.core.protocol import ArgSpec, CommandSpec, Game, State

log = logging.getLogger(__name__)

POLICIES = ("remind", "skip", "bot")
DEFAULT_REMINDERS = (0, 50, 90)
MIN_DEADLINE = 10 * 60.0
MAX_DEADLINE = 14 * 24 * 3600.0
MIN_AWAY = 10 * 60.0
MAX_AWAY = 90 * 24 * 3600.0
# After the expiry under `remind`, one more reminder per this much (or per deadline if longer).
NAG_EVERY = 24 * 3600.0
DEFAULT_DIGEST_HOUR = 9

_UNITS = {"m": 60.0, "h": 3600.0, "d": 86400.0}
_DURATION = re.compile(r"(\d+(?:\.\d+)?)([mhd])")
_OFFSET = re.compile(r"^([+-])(\d{1,2})(?::?(\d{2}))?$")


# ====================================================================== commands
def reminder_commands() -> tuple[CommandSpec, ...]:
    return (
        CommandSpec(
            "settings",
            N_(
                "Settings of this chat: /settings [deadline=24h] [reminders=0,50,90] "
                "[quiet=22-08] [tz=+02:00] [policy=remind|skip|bot] [games=all|<game>,<game>] "
                "[pictures=phase|round|turn|off] [hints=on|off]"
            ),
            (
                ArgSpec(
                    "settings",
                    "rest",
                    N_("key=value: deadline, reminders, quiet, tz, policy, games, pictures, hints"),
                    required=False,
                ),
            ),
            (
                "/settings",
                "/settings deadline=6h policy=skip",
                "/settings quiet=23-07 tz=Europe/Berlin",
                "/settings games=powergrid,hexania pictures=round hints=off",
            ),
            TABLE_KIND,
        ),
        CommandSpec(
            "away",
            N_("Away for a while: the chat's policy plays your turns: /away <duration>"),
            (ArgSpec("duration", "str", N_("like 6h, 2d"), required=True),),
            ("/away 3d",),
            TABLE_KIND,
        ),
        CommandSpec("back", N_("Back from /away; take your seat back from a bot"), kind=TABLE_KIND),
        CommandSpec(
            "vote",
            N_("Vote to let a bot play a silent player's seat: /vote replace <name>"),
            (
                ArgSpec("what", "choice", "", choices=("replace",)),
                ArgSpec("name", "str", N_("the player")),
            ),
            ("/vote replace @bob",),
            TABLE_KIND,
        ),
        CommandSpec(
            "digest",
            N_(
                "In a private chat, a daily list of the games waiting for you: "
                "/digest on|off [hour]"
            ),
            (
                ArgSpec("switch", "choice", "", choices=("on", "off")),
                ArgSpec("hour", "int", N_("hour of the day, 0-23"), required=False),
            ),
            ("/digest on 9", "/digest off"),
            TABLE_KIND,
        ),
    )


REMINDER_COMMAND_NAMES = frozenset(s.name for s in reminder_commands())

Handler = Callable[["Ctx", CommandLine], Awaitable[list[Outbound]]]


class Reminders:
    """The table's deadline side: commands, the hook on every command, and what the
    scheduler does with a due turn, an ended absence or a due digest."""

    def __init__(self, table: Pipeline, store: Store) -> None:
        self.table = table
        self.store = store
        self.wake: Callable[[], None] = lambda: None  # the scheduler replaces this

    def changed(self) -> None:
        """Due times may have changed (a move, a setting): let the scheduler look again."""
        self.wake()

    def handlers(self) -> dict[str, Handler]:
        """The deadline commands, for the table's command registry."""
        return {
            "settings": self._cmd_settings,
            "away": self._cmd_away,
            "back": self._cmd_back,
            "vote": self._cmd_vote,
            "digest": self._cmd_digest,
        }

    # ------------------------------------------------------------------ helpers
    def _t(self, ctx: Ctx, message: str, **params: Any) -> str:
        return tr(ctx.lang, message, **params)

    def _say(self, ctx: Ctx, text: str, **kw: Any) -> list[Outbound]:
        return [Outbound(ctx.chat_key, text, **kw)]

    async def _remember(self, ctx: Ctx) -> None:
        ib = ctx.inbound
        if ib.update_id is not None:
            await self.store.record_inbound(ib.platform, ib.update_id)

    async def settings(self, chat_key: str) -> ChatSettings:
        return ChatSettings.load((await self.store.chat(chat_key)).settings)

    async def _lang(self, chat_key: str) -> str:
        return normalize((await self.store.chat(chat_key)).lang or self.table.default_lang)

    def _game(self, row: GameRow) -> Game | None:
        return self.table.games.get(row.game_id)

    def _when(self, lang: str, t: float, settings: ChatSettings) -> str:
        return f"{human_when(t, settings.tz, lang)} ({settings.tz})"

    def _describe(self, lang: str, settings: ChatSettings) -> str:
        quiet = (
            f"{settings.quiet[0]:02d}-{settings.quiet[1]:02d}"
            if settings.quiet
            else tr(lang, "off")
        )
        text = tr(
            lang,
            "Deadline {deadline} per move; reminders at {reminders}; quiet hours {quiet} "
            "(time zone {tz}); when time is up: {policy}.",
            deadline=format_duration(settings.deadline),
            reminders=", ".join(f"{p}%" for p in settings.reminders) or tr(lang, "none"),
            quiet=quiet,
            tz=settings.tz,
            policy=self._policy_text(lang, settings.policy),
        )
        return text + " " + tr(lang, "Board pictures: {pictures}.", pictures=settings.pictures)

    def _policy_text(self, lang: str, policy: str) -> str:
        return {
            "remind": tr(lang, "remind only (remind)"),
            "skip": tr(lang, "play the default move (skip)"),
            "bot": tr(lang, "a bot plays the seat until the player returns (bot)"),
        }[policy]

    # ------------------------------------------------------------------ /settings
    async def _cmd_settings(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        current = await self.settings(ctx.chat_key)
        if not line.args:
            await self._remember(ctx)
            return self._say(ctx, self._describe(ctx.lang, current), sender_only=True)
        ib = ctx.inbound
        game = ctx.game or await self.store.last_game(ctx.chat_key)
        allowed = ib.is_admin or ib.is_private or (game is not None and ib.user_key == game.creator)
        if not allowed:
            return self._say(
                ctx,
                self._t(ctx, "Only the game's creator or a chat admin can change settings."),
                sender_only=True,  # a refusal: the asker's alone (issue 22)
            )
        new = current
        for item in line.args:
            key, sep, value = item.partition("=")
            key = key.casefold()
            error = None
            if not sep or not value:
                error = self._t(
                    ctx,
                    "Write settings as key=value: deadline, reminders, quiet, tz, policy, "
                    "games, pictures, hints.",
                )
            elif key == "deadline":
                seconds = parse_duration(value)
                if seconds is None or not MIN_DEADLINE <= seconds <= MAX_DEADLINE:
                    error = self._t(
                        ctx, "deadline takes a duration from 10m to 14d, like 90m, 6h or 2d."
                    )
                else:
                    new = replace(new, deadline=seconds)
            elif key == "reminders":
                percents = parse_percents(value)
                if percents is None:
                    error = self._t(
                        ctx,
                        "reminders takes percentages of the deadline from 0 to 99, like "
                        "0,50,90, or off.",
                    )
                else:
                    new = replace(new, reminders=percents)
            elif key == "quiet":
                quiet = parse_quiet(value)
                if isinstance(quiet, str):
                    error = self._t(ctx, "quiet takes two different hours, like 22-08, or off.")
                else:
                    new = replace(new, quiet=quiet)
            elif key in ("tz", "timezone"):
                tz = parse_tz(value)
                if tz is None:
                    error = self._t(
                        ctx,
                        "tz takes an offset like +02:00 or a zone name like Europe/Berlin.",
                    )
                else:
                    new = replace(new, tz=tz)
            elif key == "hints":
                if value.casefold() not in ("on", "off"):
                    error = self._t(ctx, "hints takes on or off.")
                else:
                    new = replace(new, hints=value.casefold() == "on")
            elif key == "policy":
                if value.casefold() not in POLICIES:
                    error = self._t(ctx, "policy takes one of: remind, skip, bot.")
                else:
                    new = replace(new, policy=value.casefold())
            elif key == "games":
                # The games whose commands this chat (a Discord server) offers (issue 22).
                ids = tuple(dict.fromkeys(g for g in value.casefold().split(",") if g))
                if value.casefold() == "all":
                    new = replace(new, games=())
                elif not ids or any(g not in self.table.games for g in ids):
                    error = self._t(
                        ctx,
                        "games takes game ids separated by commas, like {example}, or all.",
                        example=",".join(list(self.table.games)[:2]),
                    )
                else:
                    new = replace(new, games=ids)
            elif key == "pictures":
                if value.casefold() not in PICTURES:
                    error = self._t(ctx, "pictures takes one of: phase, round, turn, off.")
                else:
                    new = replace(new, pictures=value.casefold())
            else:
                error = self._t(
                    ctx,
                    "Unknown setting '{key}'. Settings: deadline, reminders, quiet, tz, policy, "
                    "games, pictures, hints.",
                    key=shorten(key, 24),
                )
            if error:
                return self._say(ctx, error, sender_only=True)
        raw = (await self.store.chat(ctx.chat_key)).settings
        await self.store.set_chat_settings(ctx.chat_key, new.dump(raw))
        await self._remember(ctx)
        if ctx.game is not None:
            # Reminder points and quiet hours apply to the running turn at once; a new
            # deadline applies from the next turn (the running one keeps its promise).
            await self.store.replan_now([ctx.game.id], self.table.clock())
        self.changed()
        return self._say(ctx, self._t(ctx, "Settings saved.") + " " + self._describe(ctx.lang, new))

    # ------------------------------------------------------------------ /away and /back
    async def _cmd_away(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        seconds = parse_duration(line.args[0]) if line.args else None
        if seconds is None or not MIN_AWAY <= seconds <= MAX_AWAY:
            return self._say(
                ctx, self._t(ctx, "Usage: /away <duration>, from 10m to 90d, like 6h or 3d.")
            )
        ib = ctx.inbound
        now = self.table.clock()
        until = now + seconds
        await self.store.set_away(ib.user_key, until)
        await self._remember(ctx)
        touched = []
        for row in await self.store.user_games(ib.user_key, limit=200):
            if row.status != "active":
                continue
            touched.append(row.id)
            settings = await self.settings(row.chat_key)
            game = self._game(row)
            if settings.policy == "bot" and game is not None:
                await self.store.start_autopilot(
                    row.id, ib.user_key, "away", until, bot_kind_for(game)
                )
        await self.store.replan_now(touched, now)
        self.changed()
        settings = await self.settings(ctx.chat_key)
        seat = ctx.seat()
        text = self._t(
            ctx,
            "{name} is away until {when}.",
            name=seat.display_name if seat is not None else ib.display_name,
            when=self._when(ctx.lang, until, settings),
        )
        if ctx.game is not None:
            text += (
                " "
                + {
                    "remind": self._t(ctx, "Here your turns wait for you (policy remind)."),
                    "skip": self._t(ctx, "Here your turns get the default move (policy skip)."),
                    "bot": self._t(ctx, "Here a bot plays your seat (policy bot)."),
                }[settings.policy]
            )
        text += " " + self._t(ctx, "/back ends it early.")
        return self._say(ctx, text)

    async def _cmd_back(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        ib = ctx.inbound
        was_away = await self.store.clear_away(ib.user_key)
        restored = []
        for auto in await self.store.user_autopilots(ib.user_key):
            here = ctx.game is not None and auto.game_id == ctx.game.id
            if (auto.reason != "vote" or here) and await self.store.end_autopilot(
                auto.game_id, ib.user_key
            ):
                restored.append(auto.game_id)
        await self._remember(ctx)
        replan = set(restored)
        if ctx.game is not None:
            ctx.seats = await self.store.seats(ctx.game.id)
            replan.add(ctx.game.id)
        await self.store.replan_now(sorted(replan), self.table.clock())
        self.changed()
        if not was_away and not restored:
            return self._say(ctx, self._t(ctx, "You were not away."))
        return self._say(
            ctx,
            self._t(ctx, "Welcome back, {name}: your seats are yours again.", name=ib.display_name),
        )

    # ------------------------------------------------------------------ /vote replace
    async def _cmd_vote(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        usage = self._t(ctx, "Usage: /vote replace <name>")
        if len(line.args) < 2 or line.args[0].casefold() != "replace":
            return self._say(ctx, usage)
        if row is None or row.status != "active":
            return self._say(ctx, self._t(ctx, "There is no running game here."))
        voter = ctx.seat()
        if voter is None or voter.is_bot:
            return self._say(ctx, self._t(ctx, "Only seated players can vote."))
        wanted = " ".join(line.args[1:]).strip().lstrip("@").casefold()
        target = next((s for s in ctx.seats if s.display_name.casefold() == wanted), None)
        if target is None:
            return self._say(
                ctx,
                self._t(
                    ctx,
                    "Nobody called '{name}' plays here. Players: {names}.",
                    name=shorten(wanted, 24),
                    names=", ".join(s.display_name for s in ctx.seats),
                ),
            )
        if target.user_key == voter.user_key:
            return self._say(ctx, self._t(ctx, "You cannot vote to replace yourself; try /away."))
        if target.is_bot:
            return self._say(
                ctx, self._t(ctx, "{name} is already played by a bot.", name=target.display_name)
            )
        electorate = [s for s in ctx.seats if not s.is_bot and s.user_key != target.user_key]
        need = len(electorate) // 2 + 1
        voters = await self.store.add_vote(row.id, target.user_key, voter.user_key)
        await self._remember(ctx)
        counted = [v for v in voters if any(s.user_key == v for s in electorate)]
        if len(counted) < need:
            return self._say(
                ctx,
                self._t(
                    ctx,
                    "Vote to replace {name} by a bot: {n} of {need} needed. Any command "
                    "from {name} cancels the vote.",
                    name=target.display_name,
                    n=len(counted),
                    need=need,
                ),
            )
        game = self._game(row)
        kind = bot_kind_for(game) if game else ""
        await self.store.start_autopilot(row.id, target.user_key, "vote", None, kind)
        ctx.seats = await self.store.seats(row.id)
        await self.store.replan_now([row.id], self.table.clock())
        self.changed()
        return self._say(
            ctx,
            self._t(
                ctx,
                "The table voted: a bot ({kind}) now plays {name}'s seat. {name} can take it "
                "back with /back here.",
                kind=kind,
                name=target.display_name,
            ),
            mentions=[(target.user_key, target.display_name)],
        )

    # ------------------------------------------------------------------ /digest
    async def _cmd_digest(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        ib = ctx.inbound
        if not ib.is_private:
            return self._say(ctx, self._t(ctx, "Send /digest to me in a private chat."))
        switch = line.args[0].casefold() if line.args else ""
        if switch == "off":
            await self.store.clear_digest(ib.user_key)
            await self._remember(ctx)
            return self._say(ctx, self._t(ctx, "Daily digest off."))
        if switch != "on":
            current = await self.store.digest(ib.user_key)
            await self._remember(ctx)
            if current is None:
                return self._say(
                    ctx, self._t(ctx, "Daily digest is off. /digest on [hour] [tz=+02:00]")
                )
            return self._say(
                ctx,
                self._t(ctx, "Daily digest at {hour}:00 ({tz}).", hour=current.hour, tz=current.tz),
            )
        hour, tz = DEFAULT_DIGEST_HOUR, "UTC"
        existing = await self.store.digest(ib.user_key)
        if existing is not None:
            hour, tz = existing.hour, existing.tz
        for arg in line.args[1:]:
            if arg.casefold().startswith("tz="):
                parsed = parse_tz(arg[3:])
                if parsed is None:
                    return self._say(
                        ctx,
                        self._t(
                            ctx, "tz takes an offset like +02:00 or a zone name like Europe/Berlin."
                        ),
                    )
                tz = parsed
            elif arg.isdigit() and 0 <= int(arg) <= 23:
                hour = int(arg)
            else:
                return self._say(ctx, self._t(ctx, "Usage: /digest on [hour 0-23] [tz=+02:00]"))
        now = self.table.clock()
        await self.store.set_digest(
            ib.user_key, ctx.chat_key, hour, tz, next_local_hour(now, hour, tz)
        )
        await self.store.set_user(ib.user_key, dm_ok=True)
        await self._remember(ctx)
        self.changed()
        return self._say(ctx, self._t(ctx, "Daily digest at {hour}:00 ({tz}).", hour=hour, tz=tz))

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
        if await self.store.votes_against(row.id, seat.user_key):
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
            await self.table.push(
                [
                    Outbound(
                        row.chat_key,
                        self._t(
                            ctx,
                            "Welcome back, {name}: you play your seat again.",
                            name=seat.display_name,
                        ),
                        lang=ctx.lang,
                    )
                ]
            )

    # ================================================================== scheduler work
    async def end_absences(self, now: float) -> int:
        """Absences whose time is over: the seat goes back to its player."""
        done = 0
        for auto in await self.store.ended_autopilots(now):
            if not await self.store.end_autopilot(auto.game_id, auto.user_key):
                continue
            done += 1
            row = await self.store.game(auto.game_id)
            if row is None or row.status != "active":
                continue
            seats = await self.store.seats(row.id)
            name = next((s.display_name for s in seats if s.user_key == auto.user_key), "?")
            lang = await self._lang(row.chat_key)
            await self.store.replan_now([row.id], now)
            await self.table.push(
                [
                    Outbound(
                        row.chat_key,
                        tr(lang, "@{name} is back: the seat is theirs again.", name=name),
                        mentions=[(auto.user_key, name)],
                        lang=lang,
                    )
                ]
            )
        return done

    async def process_turn(self, plan: TurnPlan, now: float) -> None:
        """One due turn: plan it, remind, or apply the expiry policy."""
        row = await self.store.game(plan.game_id)
        game = self._game(row) if row is not None else None
        if row is None or game is None or row.status != "active" or row.state_json is None:
            await self.store.claim_turn(plan, plan.done_until, None)
            return
        state: State = json.loads(row.state_json)
        current = list(game.current_players(state))
        seats = await self.store.seats(row.id)
        waiting = [s for s in seats if s.display_name in plan.players and s.display_name in current]
        # A bot seat that must act (a stand-in flipped mid-turn, a bot chain cut short): play it.
        stuck = [s for s in waiting if s.is_bot]
        if stuck:
            for seat in stuck:
                await self._play(row, game, seat, "bot", None)
            fresh = await self.store.turn_plan(row.id)
            if fresh is None or fresh != plan:
                return  # the turn moved on; it is planned afresh
        settings = await self.settings(row.chat_key)
        humans = [s for s in waiting if not s.is_bot]
        away = await self.store.away_until([s.user_key for s in humans], now)
        decision = decide(plan, settings, now)
        point = decision.point
        acting = settings.policy in ("skip", "bot")
        # Under skip/bot a passed deadline always acts, also when the policy was switched on
        # after the expiry was handled as a reminder.
        expired = out_of_quiet(plan.deadline_at, settings) <= now
        act_on: list[tuple[SeatRow, float | None]] = []
        if acting:
            act_on = [(s, away[s.user_key]) for s in humans if s.user_key in away]
            if expired:
                act_on += [(s, None) for s in humans if s.user_key not in away]
        next_at = decision.next_at
        if acting and expired:
            next_at = None
        if not await self.store.claim_turn(plan, decision.done_until, next_at):
            return
        if act_on:
            played = [
                await self._play(row, game, seat, settings.policy, until, settings)
                for seat, until in act_on
            ]
            if not any(played) and next_at is None:
                # Nothing could be played (no legal move, a failing bot): keep reminding.
                stuck_plan = await self.store.turn_plan(row.id)
                if stuck_plan is not None and stuck_plan.turn_started_at == plan.turn_started_at:
                    later = now + max(NAG_EVERY, plan.deadline_at - plan.turn_started_at)
                    await self.store.claim_turn(stuck_plan, stuck_plan.done_until, later)
            return
        if point is None:
            return
        present = [s for s in humans if s.user_key not in away]
        if present:
            await self._remind(row, game, state, present, point, plan.deadline_at - now, settings)

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
        state: State = json.loads(fresh.state_json)
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
                        kind=kind,
                    )
                )
            else:
                notes.append(
                    tr(
                        lang,
                        "{name} ran out of time: a bot ({kind}) plays the seat until they send "
                        "any command here.",
                        name=seat.display_name,
                        kind=kind,
                    )
                )
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
        await self.table.push(outs)  # those already in the outbox are left to its sender loop
        return True

    def _inbound(self, chat_key: str, seat: SeatRow, lang: str) -> Inbound:
        return Inbound(
            platform=PLATFORM_OF_PREFIX.get(chat_key.split(":", 1)[0], "local"),
            chat_key=chat_key,
            user_key=seat.user_key,
            display_name=seat.display_name,
            lang=lang,
        )

    async def _remind(
        self,
        row: GameRow,
        game: Game,
        state: State,
        seats: list[SeatRow],
        point: Point,
        left: float,
        settings: ChatSettings,
    ) -> None:
        chat_lang = await self._lang(row.chat_key)
        outs: list[Outbound] = []
        for seat in seats:
            user = await self.store.user(seat.user_key)
            private = user.dm_ok
            if point.kind == "start" and not private:
                continue  # the table's prompt already mentioned them in the chat
            # A reminder is addressed to one person: their language, in the chat too. One that
            # must go to the group (the player never wrote to the bot privately) tells the
            # public turn only: their hidden money and standing orders stay theirs (issue 20).
            lang = normalize(user.lang or seat.lang or chat_lang)
            text = reminder_text(
                lang,
                point.kind,
                game,
                state,
                seat.display_name,
                await label_of(self.store, row.chat_key, lang),  # the chat's title and link
                left,
                settings,
                personal=private,
            )
            if private:
                outs.append(
                    Outbound(
                        row.chat_key,
                        text,
                        private_to=seat.user_key,
                        mentions=[(seat.user_key, seat.display_name)],
                        lang=lang,
                    )
                )
            else:
                outs.append(
                    Outbound(
                        row.chat_key,
                        f"@{seat.display_name} " + text,
                        mentions=[(seat.user_key, seat.display_name)],
                        lang=lang,
                    )
                )
        if outs:
            await self.table.push(outs)

    async def send_digest(self, user_key: str, chat_key: str, lang_hint: str | None = None) -> bool:
        """The list of the user's games waiting for them; False (nothing sent) when none."""
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
            state = json.loads(row.state_json)
            if me is None or me.display_name not in game.current_players(state):
                continue
            what = game.describe_turn(state, me.display_name, t).strip()
            lines.append(
                f"- {tr(lang, game.name)} ({await label_of(self.store, row.chat_key, lang)}): "
                f"{shorten(what, 300)}"
            )
        if not lines:
            return False
        text = tr(lang, "Games waiting for you:") + "\n" + "\n".join(lines)
        # The digest names the user's games and their private turn texts: to them alone.
        await self.table.push([Outbound(chat_key, text, private_to=user_key, lang=lang)])
        return True
