"""The deadline commands of a table: /settings, /away, /back, /vote replace and /digest
(what they do: bot/reminders.py's module doc). `DeadlineCommands` is the base of
`bot.reminders.Reminders`, which adds the hook on every command and the scheduled work."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot.bots import bot_kind_for
from bot.context import Ctx, Pipeline
from bot.deadlines import (
    MAX_AWAY,
    MAX_DEADLINE,
    MIN_AWAY,
    MIN_DEADLINE,
    PICTURES,
    POLICIES,
    ChatSettings,
    human_duration,
    human_when,
    next_local_hour,
    parse_duration,
    parse_percents,
    parse_quiet,
    parse_tz,
    valid_clock,
)
from bot.grammar import TABLE_KIND, CommandLine, shorten
from bot.i18n import listed, normalize, tr
from bot.messages import Outbound
from bot.no_show import is_chronic
from bot.placeholders import choice_label
from bot.quiet import EPHEMERAL_PLATFORMS
from bot.store import GameRow
from bot.store_protocol import Store
from engine.core import N_, load_state
from engine.core.protocol import ArgSpec, CommandSpec, Game
from engine.core.sentences import join_sentences, sentence_gap

DEFAULT_DIGEST_HOUR = 9
WELCOME_BACK = N_("Welcome back, {name}: your seats are yours again.")


# ====================================================================== commands
def deadline_commands() -> tuple[CommandSpec, ...]:
    return (
        CommandSpec(
            "settings",
            N_(
                "Settings of this chat: /settings [deadline=24h] [reminders=0,50,90] "
                "[quiet=22-08] [tz=+02:00] [policy=remind|skip|bot] [games=all|<game>,<game>] "
                "[pictures=phase|round|turn|off] [hints=on|off] [clock=deadline|bank:3d+12h]"
            ),
            (
                ArgSpec(
                    "settings",
                    "rest",
                    N_(
                        "key=value: deadline, reminders, quiet, tz, policy, games, pictures, "
                        "hints, clock"
                    ),
                    required=False,
                ),
            ),
            (
                "/settings",
                "/settings deadline=6h policy=skip",
                "/settings quiet=23-07 tz=Europe/Berlin",
                "/settings games=powergrid,hexania pictures=round hints=off",
                "/settings clock=bank:3d+12h",
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


Handler = Callable[["Ctx", CommandLine], Awaitable[list[Outbound]]]


class DeadlineCommands:
    """The deadline commands and the helpers they share with the scheduled work."""

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
        """An answer in the chat, silent unless told otherwise, as the table's (issue 17: only
        a message that asks someone to act notifies)."""
        kw.setdefault("silent", True)
        return [Outbound(ctx.chat_key, text, **kw)]

    def _refuse(self, ctx: Ctx, text: str) -> list[Outbound]:
        """A reply only the sender needs (a refusal, a usage line), as the table's: to him
        alone where the platform can, silent."""
        return [Outbound(ctx.reply_key or ctx.chat_key, text, sender_only=True, silent=True)]

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
        none = tr(lang, "none")  # no reminders
        text = tr(
            lang,
            "Deadline {deadline} per move; reminders at {reminders}; quiet hours {quiet} "
            "(time zone {tz}); when time is up: {policy}.",
            deadline=human_duration(settings.deadline, lang),  # "1 день", not "1d"
            reminders=listed((f"{p}%" for p in settings.reminders), none),
            quiet=quiet,
            tz=settings.tz,
            policy=self._policy_text(lang, settings.policy),
        )
        text += sentence_gap(text) + tr(
            lang, "Board pictures: {pictures}.", pictures=self._pictures_text(lang, settings)
        )
        # every setting /settings takes is shown (found playing: hints= and games= were not)
        state = tr(lang, "on") if settings.hints else tr(lang, "off")
        text += sentence_gap(text) + tr(lang, "Hints (/hint): {state}.", state=state)
        names = [self._game_name(lang, g) for g in settings.games]
        every = tr(lang, "all")  # no games= setting: every game is offered
        text += sentence_gap(text) + tr(
            lang, "Games offered here: {games}.", games=listed(names, every)
        )
        bank = settings.bank
        if bank is not None:
            text += sentence_gap(text) + tr(
                lang,
                "Time bank per player: {start} to start, {add} more after each move; the "
                "per-move deadline does not apply.",
                start=human_duration(bank.start, lang),
                add=human_duration(bank.add, lang),
            )
        return text

    def _pictures_text(self, lang: str, settings: ChatSettings) -> str:
        return {
            "phase": tr(lang, "after each phase (phase)"),
            "round": tr(lang, "after each round (round)"),
            "turn": tr(lang, "after each move (turn)"),
            "off": tr(lang, "only when asked with /board (off)"),
        }[settings.pictures]

    def _game_name(self, lang: str, game_id: str) -> str:
        game = self.table.games.get(game_id)
        return tr(lang, game.name) if game is not None else game_id

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
                    "games, pictures, hints, clock.",
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
            elif key == "clock":
                clock = valid_clock(value)
                if clock is None:
                    error = self._t(
                        ctx,
                        "clock takes deadline (one deadline per move) or a time bank per "
                        "player, like bank:3d+12h (3 days to start, 12 hours more after each "
                        "move).",
                    )
                else:
                    new = replace(new, clock=clock)
            elif key == "pictures":
                if value.casefold() not in PICTURES:
                    error = self._t(ctx, "pictures takes one of: phase, round, turn, off.")
                else:
                    new = replace(new, pictures=value.casefold())
            else:
                error = self._t(
                    ctx,
                    "Unknown setting '{key}'. Settings: deadline, reminders, quiet, tz, policy, "
                    "games, pictures, hints, clock.",
                    key=shorten(key, 24),
                )
            if error:
                return self._say(ctx, error, sender_only=True)
        # the status message as it reads now, to edit if the change moves its deadline
        shown = await self.table.live_statuses([ctx.game.id] if ctx.game else [], ib.user_key)
        raw = (await self.store.chat(ctx.chat_key)).settings
        await self.store.set_chat_settings(ctx.chat_key, new.dump(raw))
        await self._remember(ctx)
        if ctx.game is not None:
            # Reminder points and quiet hours apply to the running turn at once; a new
            # deadline applies from the next turn (the running one keeps its promise).
            await self.store.replan_now([ctx.game.id], self.table.clock())
            await self.table.refresh_statuses(shown, ib.user_key)  # bot/status_refresh.py
        self.changed()

        running = ctx.game is not None and ctx.game.status == "active"
        later = running and new.deadline != current.deadline

        def saved(lang: str) -> str:
            text = join_sentences(tr(lang, "Settings saved."), self._describe(lang, new))
            if later:  # said, not left to be found on the turn's reminder (play-testing)
                text = join_sentences(
                    text,
                    tr(
                        lang,
                        "The turn under way keeps its deadline; the new one applies from "
                        "the next turn.",
                    ),
                )
            return text

        # news for everybody in the chat: its language (found play-testing, 2026-12-03: the
        # group read it in the language of whoever changed them); his copy in his own where
        # only he sees it (a Discord ephemeral reply; in a Telegram group it was a second post,
        # found re-testing, 2026-12-05)
        if ctx.inbound.is_private or ctx.lang == ctx.post_lang:
            return self._say(ctx, saved(ctx.lang))
        if ctx.inbound.platform not in EPHEMERAL_PLATFORMS:
            return self._say(ctx, saved(ctx.post_lang), lang=ctx.post_lang)
        return [
            *self._say(ctx, saved(ctx.post_lang), lang=ctx.post_lang),
            Outbound(ctx.chat_key, saved(ctx.lang), sender_only=True, lang=ctx.lang, silent=True),
        ]

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
        waits_here = False  # nobody else plays here: his turns wait (bot/reminders.py)
        games = await self.store.user_games(ib.user_key, limit=200)
        rows = [r for r in games if r.status == "active"]  # the latest first
        for row in rows:
            touched.append(row.id)
            settings = await self.settings(row.chat_key)
            game = self._game(row)
            if settings.policy == "bot" and game is not None:
                seats = await self.store.seats(row.id)
                people = [s.user_key for s in seats if not s.is_bot]
                away = await self.store.away_until(people, now)
                if not any(k not in away for k in people):
                    waits_here = waits_here or row.id == (ctx.game.id if ctx.game else None)
                    continue  # `unattended`: no bot takes the last person's seat
                await self.store.start_autopilot(
                    row.id, ib.user_key, "away", until, bot_kind_for(game)
                )
        await self.store.replan_now(touched, now)
        self.changed()
        settings = await self.settings(ctx.chat_key)
        if ib.is_private:  # the end in his own time zone, else in his game chat's
            settings = replace(settings, tz=await self._his_zone(ctx, rows))
        # the chats he plays in hear it wherever he said it, as the one he said it in does
        await self._tell_his_chats(ctx, rows, "{name} is away until {when}.", until)
        seat = ctx.seat()
        name = seat.display_name if seat is not None else ib.display_name
        # what only the sender needs: what happens to his seat here, and how to end it early
        mine = self._t(ctx, "/back ends it early.")
        if ctx.game is not None:
            # in words, not the setting's id ("(policy bot)" was what a player read)
            policy = {
                "remind": self._t(
                    ctx, "Here your turns wait for you, as this chat's settings say."
                ),
                "skip": self._t(
                    ctx, "Here your turns get the default move, as this chat's settings say."
                ),
                "bot": self._t(
                    ctx,
                    "Here a bot plays your seat until you are back, as this chat's settings say.",
                ),
            }[settings.policy]
            if waits_here:
                policy = self._t(
                    ctx, "Here your turns wait for you: every other seat is played by a bot."
                )
            mine = policy + sentence_gap(policy) + mine
        lang = ctx.lang if ib.is_private else ctx.post_lang  # the news: the chat's language
        news = tr(
            lang,
            "{name} is away until {when}.",
            name=name,
            when=self._when(lang, until, settings),
        )
        if lang == ctx.lang:
            return self._say(ctx, news + sentence_gap(news) + mine)
        # his part privately (a DM on Telegram, whose groups have no reply for one reader; an
        # ephemeral reply on Discord): in a group it read as a post in his language (found
        # play-testing through Telegram, 2026-12-05)
        own = Outbound(
            ctx.chat_key,
            mine,
            private_to=ib.user_key,
            mentions=[(ib.user_key, ib.display_name)],  # named, should his DMs be closed
            sender_only=True,
            lang=ctx.lang,
            silent=True,
        )
        return [*self._say(ctx, news, lang=lang), own]

    async def _his_zone(self, ctx: Ctx, rows: list[GameRow]) -> str:
        """The time zone of an answer about him in his private chat: his own (/me tz=), else
        the chat's of his latest running game (`rows`); before, the private chat's, UTC."""
        own = ctx.prefs.get(ctx.inbound.user_key, {}).get("tz")
        if isinstance(own, str) and parse_tz(own):
            return own
        return (await self.settings(rows[0].chat_key)).tz if rows else "UTC"

    async def _tell_his_chats(
        self, ctx: Ctx, rows: list[GameRow], news: str, until: float | None = None
    ) -> None:
        """`news` ("{name} is away until {when}.") silently in the chats of his running games
        (`rows`) but the one he wrote in, which has its answer: each in its language, his
        name there and its time zone (found by a play-tester: a private /away told the table
        nothing, while the same /away in the group told it)."""
        outs = []
        for row in rows:
            if row.chat_key == ctx.chat_key:
                continue
            seats = await self.store.seats(row.id)
            name = next((s.display_name for s in seats if s.user_key == ctx.inbound.user_key), "")
            lang = await self._lang(row.chat_key)
            settings = await self.settings(row.chat_key)
            when = self._when(lang, until, settings) if until is not None else ""
            text = tr(lang, news, name=name or ctx.inbound.display_name, when=when)
            outs.append(Outbound(row.chat_key, text, lang=lang, silent=True))
        if outs:
            await self.table.push(outs)

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
        # the chats that heard of his absence, or whose seat a bot gave back, hear he is back
        games = await self.store.user_games(ib.user_key, limit=200)
        rows = [r for r in games if r.status == "active" and (was_away or r.id in restored)]
        await self._tell_his_chats(ctx, rows, WELCOME_BACK)
        replan = set(restored)
        if ctx.game is not None:
            ctx.seats = await self.store.seats(ctx.game.id)
            replan.add(ctx.game.id)
        await self.store.replan_now(sorted(replan), self.table.clock())
        self.changed()
        if not was_away and not restored:
            return self._say(ctx, self._t(ctx, "You were not away."), sender_only=True)
        lang = ctx.post_lang  # news for everybody in the chat: its language
        return self._say(
            ctx,
            tr(lang, WELCOME_BACK, name=ib.display_name),
            lang=lang,
        )

    # ------------------------------------------------------------------ /vote replace
    async def _cmd_vote(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        usage = self._t(ctx, "Usage: /vote replace <name>")
        if len(line.args) < 2 or line.args[0].casefold() != "replace":
            return self._refuse(ctx, usage)
        if row is None or row.status != "active":
            return self._refuse(ctx, self._t(ctx, "There is no running game here."))
        voter = ctx.seat()
        if voter is None or voter.is_bot:
            return self._refuse(ctx, self._t(ctx, "Only seated players can vote."))
        wanted = " ".join(line.args[1:]).strip().lstrip("@").casefold()
        target = next((s for s in ctx.seats if s.display_name.casefold() == wanted), None)
        if target is None:
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "Nobody called '{name}' plays here. Players: {names}.",
                    name=shorten(wanted, 24),
                    names=listed(s.display_name for s in ctx.seats),
                ),
            )
        if target.user_key == voter.user_key:
            return self._refuse(
                ctx, self._t(ctx, "You cannot vote to replace yourself; try /away.")
            )
        if target.is_bot:
            return self._refuse(
                ctx, self._t(ctx, "{name} is already played by a bot.", name=target.display_name)
            )
        game = self._game(row)
        state = load_state(row.state_json) if game and row.state_json else None
        awaited = list(game.current_players(state)) if game and state is not None else []
        # one who keeps running out of time may be voted out at any time: the default move
        # has just ended the turn that held the table up (bot/no_show.py)
        chronic = is_chronic(ctx.prefs.get(target.user_key, {}), row.id)
        if state is not None and target.display_name not in awaited and not chronic:
            # a vote is for a player who holds up the table: one who is not asked to act
            # is not silent, whatever his last word was (found playing, 2026-12-03: a
            # player back from /away lost his seat to two votes at once)
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "{name} is not holding up the table: the game waits for {names}.",
                    name=target.display_name,
                    names=listed(awaited),
                ),
            )
        wait = 0.0 if chronic else await self._silent_for(ctx, row, target.user_key)
        if wait > 0:
            # silent: the table has waited for him half the move's deadline (issue 8: "a
            # silent player's seat"; found playing, 2026-12-04: one vote took a seat the
            # moment its turn began)
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "{name}'s turn began only recently: a vote to replace this player opens "
                    "in {wait}.",
                    name=target.display_name,
                    wait=human_duration(wait, ctx.lang),
                ),
            )
        electorate = [s for s in ctx.seats if not s.is_bot and s.user_key != target.user_key]
        need = len(electorate) // 2 + 1
        voters = await self.store.add_vote(row.id, target.user_key, voter.user_key)
        await self._remember(ctx)
        counted = [v for v in voters if any(s.user_key == v for s in electorate)]
        lang = ctx.post_lang  # the vote is news for everybody in the chat: its language
        if len(counted) < need:
            return self._say(  # it asks the others to vote, and him to answer: it notifies
                ctx,
                tr(
                    lang,
                    "Vote to replace {name} by a bot: {n} of {need} needed. Any command "
                    "from {name} cancels the vote.",
                    name=target.display_name,
                    n=len(counted),
                    need=need,
                ),
                lang=lang,
                silent=False,
            )
        kind = bot_kind_for(game) if game else ""
        await self.store.start_autopilot(row.id, target.user_key, "vote", None, kind)
        ctx.seats = await self.store.seats(row.id)
        await self.store.replan_now([row.id], self.table.clock())
        self.changed()
        return self._say(  # it tells him how to take his seat back: it notifies
            ctx,
            tr(
                lang,
                "The table voted: a bot ({kind}) now plays {name}'s seat. {name} can take it "
                "back with /back here.",
                kind=tr(lang, choice_label(kind)),  # "strong bot", translated
                name=target.display_name,
            ),
            mentions=[(target.user_key, target.display_name)],
            lang=lang,
            silent=False,
        )

    async def _silent_for(self, ctx: Ctx, row: GameRow, user_key: str) -> float:
        """How long until a vote may replace `user_key`, who is waited for: half the chat's
        deadline after his turn began (0: he may be replaced now)."""
        settings = await self.settings(row.chat_key)
        kept = ctx.reminder if ctx.loaded_for == row.id else await self.store.reminder(row.id)
        began = kept.turn_started_at if kept is not None else row.updated_at
        return max(0.0, began + settings.deadline / 2 - self.table.clock())

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
        else:  # his own time zone (/me tz=), which he set "for every table" (play-testing)
            prefs = (await self.store.user_prefs([ib.user_key])).get(ib.user_key, {})
            tz = prefs["tz"] if isinstance(prefs.get("tz"), str) else tz
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
