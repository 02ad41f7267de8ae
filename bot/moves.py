"""The move pipeline: load once -> turn check -> parse -> apply -> bot moves -> messages ->
one transaction (log, state, reminder, outbox rows). Also game commands sent privately.

Two store calls per move (issue 23; bench/move_calls.py counts them): `load_message` with the
message (`_load`: chat, sender, game, seats, their users) and `commit_moves`. The worker pool
is entered only when a bot or a forced move plays (`_chain_starts`)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot import rulebook
from bot.bots import bot_action, bot_rng
from bot.buttons import unseen
from bot.confirm import close_with, done_text
from bot.context import (
    LONG_PARSE,
    MAX_BOT_MOVES,
    MAX_COMMAND,
    Ctx,
    Played,
    Step,
    confirmation,
)
from bot.ending import OUT_OF_THE_GAME, EndingMixin
from bot.grammar import (
    MAX_CAPTION,
    MAX_TEXT,
    CommandLine,
    shorten,
    usage,
)
from bot.i18n import explain, listed, resolve_lang, tr, translator
from bot.messages import Inbound, Outbound
from bot.moment import Moment
from bot.quiet import ask_notified, starts_a_turn
from bot.store import (
    GameRow,
    LogEntry,
    Outcome,
    SeatRow,
)
from bot.workers import cpu
from engine.core import (
    N_,
    IllegalAction,
    MissingArgument,
    Reply,
    canonical_json,
    copy_state,
    load_state,
)
from engine.core.applied import Applied, event_owner
from engine.core.protocol import Action, CommandSpec, Event, Game, State
from engine.core.sentences import sentence_gap

log = logging.getLogger(__name__)

SECRET_IN_CHAT = N_(
    "That order is secret, and everyone here can read what you typed, so it was not played. "
    "Send it to me in a private chat."
)


class SecretTypedInChat(Exception):
    """A move with a secret part, typed where the whole chat reads it (`_apply_all`)."""


class MovesMixin(EndingMixin):
    """The move pipeline and the game commands that lead to it."""

    async def act(
        self,
        inbound: Inbound,
        actions: Action | list[Action],
        expected_version: int | None = None,
        notes: Sequence[str] = (),
    ) -> list[Outbound]:
        """Apply ready-made actions for the inbound's user exactly as if a chat command had
        parsed to them (same turn check, transaction, announcements and bot moves). For tests,
        benchmarks and tools that drive players with engine actions; never raises.
        With `expected_version`, nothing happens (and [] is returned) unless the game is still
        at that version: the scheduler's default moves never land on a later turn."""
        ctx = Ctx(inbound, resolve_lang(None, inbound.lang, self.default_lang))
        try:
            await self._load(ctx)  # one store call: chat, user, game, seats, their users
            if ctx.game is None or ctx.game.status != "active":
                return self._no_game(ctx)
            seat = ctx.seat()
            if seat is None:
                return self._refuse(ctx, self._t(ctx, "You are not playing in this game."))
            ready = actions if isinstance(actions, list) else [actions]
            line = CommandLine("", [], True)
            return await self._move(ctx, ctx.game, seat, line, None, ready, expected_version, notes)
        except Exception:
            log.exception("table error in game %s", ctx.game.id if ctx.game else None)
            sorry = tr(ctx.lang, "Sorry, something went wrong.")
            return [Outbound(inbound.chat_key, sorry, silent=True)]
        finally:
            self.reminders.changed()

    async def _game_command(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        known = line.name in self._game_names
        if row is None or row.game_id not in self.games:
            if not line.slash and not ctx.inbound.is_private and ctx.inbound.platform != "local":
                return []  # ordinary chat talk, not for us
            if known:
                return await self._no_game_here(ctx)
            return self._unknown(ctx, line)
        game = self._game_of(row)
        spec = next((c for c in game.commands if c.name == line.name), None)
        if (
            spec is None
            and not line.slash
            and not ctx.inbound.is_private
            and ctx.inbound.platform != "local"
        ):
            return []
        if row.status == "lobby":
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "The game has not started yet. Seated: {names}. The creator sends /start.",
                    names=listed(s.display_name for s in ctx.seats),
                ),
            )
        seat = ctx.seat()
        if seat is None:
            if spec is None:
                return self._unknown(ctx, line)
            return self._refuse(ctx, self._t(ctx, "You are not playing in this game."))
        if spec is None and self._nearest_command(ctx, line.name) in self._table_names:
            # a table command mistyped ("/stauts"): the game's refusal lists only its own
            # commands (found playing, 2026-12-03); anything else, aliases too, is the game's
            return self._unknown(ctx, line)
        return await self._move(ctx, row, seat, line, spec)

    async def _move(
        self,
        ctx: Ctx,
        row: GameRow,
        seat: SeatRow,
        line: CommandLine,
        spec: CommandSpec | None,
        ready: list[Action] | None = None,
        expected_version: int | None = None,
        notes: Sequence[str] = (),
    ) -> list[Outbound]:
        """The move pipeline: the state loaded once (the row read with the message; read again
        only after a lost race) -> turn check -> parse -> apply -> bot moves -> the messages
        -> one transaction with the log, the state, the reminder and the outbox rows."""
        game = self._game_of(row)
        player = seat.display_name
        hours = await self._deadline_hours(row.chat_key, ctx)
        async with self._lock(row.id), self.store.game_lock(row.id):
            fresh: GameRow | None = row
            for attempt in range(2):
                if attempt:
                    fresh = await self.store.game(row.id)
                if fresh is None or fresh.status != "active" or fresh.state_json is None:
                    return self._refuse(
                        ctx, self._t(ctx, "This game is over. /new starts another.")
                    )
                if expected_version is not None and fresh.version != expected_version:
                    return []
                state: State = load_state(fresh.state_json)
                # who acts: remembered with the state this process committed, else asked
                current = list(self._recent.moment(row.id, game, fresh.state_json, state).current)
                if (
                    ctx.inbound.seen_by_chat
                    and game.capabilities.secret_commands
                    and line.name
                    and game.secret_command(state, player, line.name, line.args)
                ):
                    # a secret choice typed where the chat reads it: refused before the move
                    # is looked at, whatever he holds (a refusal that depends on his secrets
                    # must not differ from an acceptance; found play-testing IEC, 2026-12-04)
                    return self._refuse(ctx, self._t(ctx, SECRET_IN_CHAT))
                # Games with standing orders accept some actions off turn (`game.anytime`),
                # given by the commands they declare: any other is refused before the parse.
                standing = game.capabilities.standing_orders
                off_turn = spec is not None and spec.kind == "move" and player not in current
                declared = game.capabilities.off_turn_commands
                if off_turn and not (standing and (not declared or line.name in declared)):
                    if self._passed.passed(row.id, ctx.inbound.user_key, fresh.version):
                        return self._passed_already(ctx, current)
                    return self._not_your_turn(ctx, current, game, state, player, line.name)
                try:
                    if ready is not None:
                        parsed: Action | list[Action] | Reply = copy_state(ready)
                    elif sum(len(a) for a in line.args) > LONG_PARSE:
                        parsed = await cpu(self._parse, ctx, game, state, player, line)
                    else:
                        parsed = self._parse(ctx, game, state, player, line)
                except IllegalAction as err:
                    return self._refuse_move(ctx, game, err, line.name)
                if isinstance(parsed, Reply):
                    await self._remember(ctx)
                    return self._reply_for_all(ctx, game, state, player, line, parsed)
                actions = parsed if isinstance(parsed, list) else [parsed]
                # not asked again: a button of the prompt standing now (found playing, 2026-12-04)
                if (
                    len(actions) == 1
                    and not ctx.pressed_now
                    and self._passed.warn(
                        row.id, ctx.inbound.user_key, canonical_json(actions[0]), fresh.version
                    )
                ):
                    return self._refuse(
                        ctx,
                        self._t(
                            ctx,
                            "You had nothing left to decide in the last step, so the table "
                            "passed you; this is your next turn. Send it again if you mean it "
                            "for this one.",
                        ),
                    )
                if player not in current and not (
                    standing and actions and all(game.anytime(a) for a in actions)
                ):
                    return self._not_your_turn(ctx, current, game, state, player, line.name)
                if not actions:
                    return self._refuse(ctx, self._t(ctx, "Nothing to do."))
                langs = await self._langs_of(ctx, ctx.seats)
                own = self._own_lang(ctx)
                try:
                    now, entries, lines, pics, private, mine = self._apply_all(
                        ctx, game, state, seat, actions, langs, own
                    )
                except IllegalAction as err:
                    return self._refuse_move(ctx, game, err)
                except SecretTypedInChat:
                    return self._refuse(ctx, self._t(ctx, SECRET_IN_CHAT))
                except Exception:
                    # the move was legal but a question after it failed (a game's
                    # forced_action): the move stands, played again without that answer
                    log.exception("game %s: play failed after the move; applied plainly", row.id)
                    state = load_state(fresh.state_json)
                    now, entries, lines, pics, private, mine = self._apply_all(
                        ctx, game, state, seat, actions, langs, own, plain=True
                    )
                state = now.state
                state_json = canonical_json(state)
                played = await self._run_bots(
                    fresh,
                    ctx.seats,
                    state,
                    state_json,
                    fresh.version + 1,
                    ctx.post_lang,
                    langs,
                    now,
                    own,
                )
                played.steps.insert(
                    0,
                    Step(
                        [*notes, *lines],
                        state_json,
                        pics,
                        private,
                        player=player,
                        own_lines=None if mine is None else [*notes, *mine],
                        asked=now.current,
                    ),
                )
                played.asked_before = current
                outs = await self._announce(
                    ctx, replace(row, version=played.version), ctx.seats, played
                )
                hidden = unseen(game, fresh.state_json, played)
                if hidden:  # issue 20, PG-O
                    outs = [o for o in outs if o.private_to is not None or o.sender_only]
                    if ctx.reply_key is not None:  # sent privately: say where it went
                        outs += await self._done_unseen(ctx, game, row, outs)
                after = played.now(game)
                outs += self._game_over(ctx, row, game, played.state, after.over)
                outs += await self._said_where(ctx, row, outs)
                if not hidden:
                    outs += self._asked_again(ctx, row, played, after, player, outs)
                told = ask_notified(outs, ctx.seats, after.current)  # kept with the turn
                outs, rows = self._rows(ctx, outs, row.id)
                claim, pressed = self._move_claim(ctx)
                due = self._due(game, played.state, hours, after, told)
                if due is not None and starts_a_turn(played):
                    due = replace(due, anew=True)  # asked again: after others, or a new phase
                result = await self.store.commit_moves(
                    row.id,
                    fresh.version,
                    entries + played.entries,
                    played.state_json,
                    over=after.over,
                    due=due,
                    inbound=claim,
                    outbox=rows,
                    pressed=pressed,
                )
                if result.outcome is Outcome.DUPLICATE:
                    return self._out_of_date(ctx) if claim and claim[1] == ctx.press_key else []
                if result.outcome is Outcome.OK:
                    self._recent.keep(row.id, played.state_json, after)
                    humans = {s.user_key for s in ctx.seats if not s.is_bot}
                    for e in played.entries:  # the chain's moves of humans: forced passes
                        if e.user_key in humans:
                            self._passed.note(row.id, e.user_key, e.action_json, played.version)
                    self.wake_senders()
                    return self._queued(outs, result.outbox_ids)
                log.info(
                    "game %s: lost a race at version %s (attempt %s)",
                    row.id,
                    fresh.version,
                    attempt + 1,
                )
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "The game moved on while I was applying your move; nothing was "
                    "changed. Check /status and send it again.",
                ),
            )

    def _asked_again(
        self,
        ctx: Ctx,
        row: GameRow,
        played: Played,
        after: Moment,
        player: str,
        outs: Sequence[Outbound] = (),
    ) -> list[Outbound]:
        """A move sent privately after which its sender must decide again (a Power Grid pass
        that makes him open the next auction; a Hexania move with points left; IEC's next
        turn waiting on him): his new prompt, silent, where he plays, with its buttons. The
        group's news of it is a silent edit of the status message, so he heard nothing
        (found through Telegram, 2026-12-04). Not after a move the table does not see (a
        standing order): nothing new is asked of him then. The prompt ends the move's
        confirmation among `outs` ("Done in …") where it fits, one message instead of two
        (found through Telegram, 2026-12-05: a Hexania turn of six private moves made nine
        private messages)."""
        if ctx.reply_key is None or after.over or player not in after.current:
            return []
        prompt = self._mention_prompt(
            ctx,
            replace(row, version=played.version),
            played.state,
            played.version,
            ctx.seats,
            lang=ctx.lang,
            only=[player],
            moment=after,
            named=False,  # the Chinese "@Bob：" was left when an English "@Bob: " was cut
        )
        done = confirmation(ctx, outs)
        if done is not None and len(done.text) + 2 + len(prompt.text) <= MAX_TEXT:
            done.text = f"{done.text}\n\n{prompt.text}"
            done.buttons, done.fold_of = prompt.buttons, None  # a message that asks: its own
            return []
        return [
            replace(
                prompt,
                chat_key=ctx.reply_key,
                mentions=[],
                sender_only=True,
                silent=True,
            )
        ]

    async def _done_unseen(
        self, ctx: Ctx, game: Game, row: GameRow, outs: list[Outbound]
    ) -> list[Outbound]:
        """The confirmation of a move sent privately that the group reads nothing of (the
        others are told nothing, not even a line in /log: bot/logtext.py `private_only`): the
        end of his own lines of the move, else a message of its own (bot/confirm.py)."""
        done = await done_text(self.store, ctx, game.name, row.chat_key, False)
        return [] if close_with(ctx, outs, done) else self._refuse(ctx, done)

    def _refuse_move(
        self, ctx: Ctx, game: Game, err: IllegalAction, command: str = ""
    ) -> list[Outbound]:
        """A refused move, to its sender: as any refusal, except one that tells what only he
        may know (`err.secret`: that he cannot pay, under hidden money, PG-9), which goes to
        him privately from a group (a DM on Telegram, whose groups have no reply for one
        reader; ephemeral on Discord), never into the group."""
        text = self._explain(ctx, game, err, command)
        if not err.secret or ctx.inbound.is_private or ctx.reply_key is not None:
            return self._refuse(ctx, text)
        return self._refuse(ctx, text, private_to=ctx.inbound.user_key)

    def _explain(self, ctx: Ctx, game: Game, err: IllegalAction, command: str = "") -> str:
        """A refused move in words; a rule the rulebook explains adds "See /rules PG-38.";
        too few words add the command's signature in the reader's words."""
        text = explain(ctx.lang, err)
        spec = next((c for c in game.commands if c.name == command), None)
        if isinstance(err, MissingArgument) and spec is not None:
            signature = usage(spec, translator(ctx.lang))
            text += sentence_gap(text) + self._t(ctx, "Usage: {usage}", usage=signature)
        if err.rule_id not in ("", "syntax"):
            see = rulebook.hint(game.id, err.rule_id, translator(ctx.lang))
            if see:
                text += sentence_gap(text) + see
        return text

    def _too_long(self, ctx: Ctx) -> list[Outbound]:
        return self._refuse(
            ctx,
            self._t(
                ctx,
                "That message is too long for a command (at most {n} characters); nothing "
                "was changed.",
                n=MAX_COMMAND,
            ),
        )

    def _passed_already(self, ctx: Ctx, current: list[str]) -> list[Outbound]:
        """A move sent just after the table played one for him (nothing was left for him to
        decide: the alternative rules' /done once his plants are full) and nothing since:
        found playing, 2026-12-03, his /done got "Not your turn", as if he had been skipped."""
        return self._refuse(
            ctx,
            self._t(
                ctx,
                "You were passed already: nothing was left for you to decide; waiting for {who}.",
                who=listed(current),
            ),
        )

    def _not_your_turn(
        self,
        ctx: Ctx,
        current: list[str],
        game: Game,
        state: State,
        player: str,
        command: str,
    ) -> list[Outbound]:
        if not current:
            return self._refuse(ctx, self._t(ctx, "Nobody can move now: the game is over."))
        if player in game.eliminated(state):  # found playing Hexania, HEX-2.4, 2026-12-03
            return self._refuse(ctx, self._t(ctx, OUT_OF_THE_GAME))
        if game.capabilities.off_turn_reasons and command:
            # the game's why: "nothing left to decide in phase 5" (found playing IEC)
            why = game.off_turn_reason(state, player, command, translator(ctx.lang))
            if why is not None:
                return self._refuse_move(ctx, game, why, command)
        return self._refuse(
            ctx, self._t(ctx, "Not your turn — waiting for {who}.", who=listed(current))
        )

    def _reply_for_all(
        self, ctx: Ctx, game: Game, state: State, player: str, line: CommandLine, reply: Reply
    ) -> list[Outbound]:
        """A game's public answer (/market, /plants, /price) typed in a group: a post in the
        chat's language, and the asker, when he reads another, his copy privately, as the
        table's answers do (bot/info.py `in_chat_lang`; found play-testing, 2026-12-03: a
        Polish player's /market came to a Russian chat in Polish). A reply only the asker
        reads stays in his language. A reply with an `own` text (his hidden money in /plants,
        PG-9): the group reads the public text, he his own, privately."""
        group_lang = ctx.post_lang
        mine = replace(reply, text=reply.own, own=None) if reply.own is not None else None
        if reply.private or ctx.reply_key is not None:
            return self._reply(ctx, mine or reply)
        if ctx.lang == group_lang and mine is None:
            return self._reply(ctx, reply)
        posted: object = reply
        if ctx.lang != group_lang:
            try:  # the same words in the chat's language (the parse is pure)
                posted = self._parse(replace(ctx, lang=group_lang), game, state, player, line)
            except IllegalAction:
                posted = None  # his words only his own language reads: answered as he asked
        if not isinstance(posted, Reply) or posted.private:
            return self._reply(ctx, mine or reply)
        copy = self._to_sender(ctx, "")
        own = [
            replace(o, private_to=copy.private_to, mentions=copy.mentions, silent=True)
            for o in self._reply(ctx, mine or reply)
        ]
        return self._reply(replace(ctx, lang=group_lang), replace(posted, own=None)) + own

    def _reply(self, ctx: Ctx, reply: Reply) -> list[Outbound]:
        private = ctx.inbound.user_key if reply.private else None
        # a board in words keeps its first line's indent (HEX-G-6)
        text = (reply.text.rstrip() if reply.monospace else reply.text.strip()) or self._t(
            ctx, "(nothing to show)"
        )
        # Asked in a private chat: answered there, whatever the game's chat would have seen.
        where = ctx.reply_key or ctx.chat_key
        mine = ctx.reply_key is not None
        # An answer is silent (issue 17: only a message that asks someone to act notifies;
        # found through Telegram, 2026-12-04: /plants, /price, /market and /cost buzzed
        # every phone in the group).
        if reply.png is not None:
            return [
                Outbound(
                    where,
                    shorten(text, MAX_CAPTION),
                    png=reply.png,
                    private_to=private,
                    sender_only=mine,
                    silent=True,
                )
            ]
        return [
            Outbound(
                where,
                text,
                private_to=private,
                sender_only=mine,
                monospace=reply.monospace,
                silent=True,
            )
        ]

    def _apply_all(
        self,
        ctx: Ctx,
        game: Game,
        state: State,
        seat: SeatRow,
        actions: list[Action],
        langs: Mapping[str, str] | None = None,
        own: str | None = None,
        plain: bool = False,
    ) -> tuple[
        Moment, list[LogEntry], list[str], list[Event], list[tuple[str, str]], list[str] | None
    ]:
        """Play actions in order on a state freshly loaded from JSON: all or nothing (the
        caller drops the state when this raises). One game call per action (`play`), then
        the event lines; the final state's answers come back as its `Moment`. With `own`
        (`_own_lang`), the event lines in the sender's language come last (else None)."""
        t = translator(ctx.post_lang)  # event lines are group posts
        own_t = translator(own) if own is not None else None
        entries: list[LogEntry] = []
        lines: list[str] = []
        mine: list[str] | None = [] if own_t is not None else None
        pics: list[Event] = []
        private: list[tuple[str, str]] = []
        applied: Applied | None = None
        for action in actions:
            applied = played_plainly(game, state, seat.display_name, action, plain)
            if ctx.inbound.seen_by_chat and self._hides_a_choice(game, applied, seat):
                raise SecretTypedInChat
            state = applied.state
            events = list(applied.events)
            entries.append(
                LogEntry(
                    seat.user_key, seat.display_name, canonical_json(action), canonical_json(events)
                )
            )
            for event, owner in zip(events, applied.owners, strict=True):
                line = game.describe_event(state, event, t)
                if line:
                    lines.append(line)
                if own_t is not None and mine is not None:
                    theirs = game.describe_event(state, event, own_t)
                    if theirs:
                        mine.append(theirs)
                private += self._private_lines(game, state, event, owner, ctx.seats, langs or {})
            pics += applied.picture_events
        now = Moment(game, state) if applied is None else Moment.after(game, applied)
        return now, entries, lines, pics, private, mine

    @staticmethod
    def _hides_a_choice(game: Game, applied: Applied, seat: SeatRow) -> bool:
        """Whether the move is a choice the rules keep to its mover (a sealed order, a real
        mine, a technology, a proxy bid's limit: `Capabilities.secret_events`), whose words,
        typed where the chat reads them, would tell it to everyone (IEC-S-26, PG-O). The
        event is the mover's own: private to him, or public and naming him, as a declaration
        the group reads was made, not what it says (ALT-30, version 2: powered cities)."""
        hidden = game.capabilities.secret_events
        me = seat.display_name
        return bool(hidden) and any(
            event.get("type") in hidden
            and (owner == me or (owner is None and event.get("player") == me))
            for event, owner in zip(applied.events, applied.owners, strict=True)
        )

    def _private_lines(
        self,
        game: Game,
        state: State,
        event: Event,
        owner: str | None,
        seats: Sequence[SeatRow],
        langs: Mapping[str, str],
    ) -> list[tuple[str, str]]:
        """[(user key, line)] for the owner of a private event (`owner`, from the move's
        result; none for a public one or a bot's): the game's private line when it has one,
        else its public line."""
        if owner is None:
            return []
        seat = next((s for s in seats if s.display_name == owner and not s.is_bot), None)
        if seat is None:
            return []
        t = translator(langs.get(owner) or self.default_lang)
        private = game.capabilities.private_events
        describe = game.describe_private_event if private else game.describe_event
        try:
            line = describe(state, event, t)
        except Exception:
            log.exception("describing a private %s event failed", event.get("type"))
            return []
        return [(seat.user_key, line)] if line else []

    async def _run_bots(
        self,
        row: GameRow,
        seats: list[SeatRow],
        state: State,
        state_json: str,
        version: int,
        lang: str,
        langs: Mapping[str, str] | None = None,
        now: Moment | None = None,
        own: str | None = None,
    ) -> Played:
        """While a bot seat must act, or a human one has nothing to decide (a forced pass),
        play it (in the worker pool, off the event loop); the moves are committed by the
        caller, with the move that started the chain. `now`: the state's answers when the
        move that led to it gave them; `own`: the language the steps' lines are also worded
        in for the sender alone (`_own_lang`, `Step.own_lines`)."""
        game = self._game_of(row)
        now = now if now is not None and now.state is state else Moment(game, state)
        forced = game.capabilities.forced_moves
        if not forced and not any(s.is_bot for s in seats):
            return Played([], state, state_json, version, moment=now)
        if not self._chain_starts(now, seats, forced):
            # no hand-off to the pool (issue 23)
            return Played([], state, state_json, version, moment=now)
        if not any(s.is_bot for s in seats):
            # Forced passes only (no bot thinks): a few `play` calls, cheaper on the loop
            # than the hand-off, and never queued behind a picture in the pool (issue 23).
            return self._bot_chain(row, seats, now, state_json, version, lang, langs or {}, own)
        return await cpu(
            self._bot_chain, row, seats, now, state_json, version, lang, langs or {}, own
        )

    @staticmethod
    def _chain_starts(now: Moment, seats: list[SeatRow], forced: bool) -> bool:
        """Whether `_bot_chain` would play anything: a bot seat must act, or a human has a
        forced move (the move's result says). Most moves end here, on the loop, without the
        worker pool's hand-off."""
        if now.over:
            return False
        bots = {s.display_name for s in seats if s.is_bot}
        if any(p in bots for p in now.current):
            return True
        humans = {s.display_name for s in seats if not s.is_bot}
        try:
            return forced and any(now.forced_of(p) is not None for p in now.current if p in humans)
        except Exception:
            return True  # the chain logs the failure and asks the player instead

    def _bot_chain(
        self,
        row: GameRow,
        seats: list[SeatRow],
        now: Moment,
        state_json: str,
        version: int,
        lang: str,
        langs: Mapping[str, str],
        own: str | None = None,
    ) -> Played:
        game = self._game_of(row)
        bots = {s.display_name: s for s in seats if s.is_bot}
        humans = {s.display_name: s for s in seats if not s.is_bot}
        forced = game.capabilities.forced_moves
        state = now.state
        played = Played([], state, state_json, version, moment=now)
        t = translator(lang)
        own_t = translator(own) if own is not None else None
        seed = row.seed if row.seed is not None else 0
        for step in range(1, MAX_BOT_MOVES + 1):
            if now.over:
                break
            current = list(now.current)
            seat = next((bots[p] for p in current if p in bots), None)
            action: Action | None = None
            if seat is None and forced:
                seat, action = self._forced(game, now, current, humans)
            if seat is None:
                break
            if action is None:
                action = bot_action(
                    game, state, seat.display_name, seat.bot_kind, bot_rng(seed, version)
                )
            if action is None:
                played.error = "bot"
                break
            try:
                applied = chain_step(row.id, game, state_json, seat.display_name, action)
            except IllegalAction:
                log.exception("game %s: %s's move %r is illegal", row.id, seat.display_name, action)
                if not seat.is_bot:
                    break  # a forced move the rules refuse: the player is asked instead
                played.error = "bot"
                break
            events = list(applied.events)
            now = Moment.after(game, applied)
            state, state_json, version = applied.state, canonical_json(applied.state), version + 1
            played.entries.append(
                LogEntry(
                    seat.user_key,
                    seat.display_name,
                    canonical_json(action),
                    canonical_json(events),
                    step,
                )
            )
            said = [(e, x) for e in events if (x := game.describe_event(state, e, t))]
            lines = [x for _, x in said]
            mine = (
                None
                if own_t is None
                else [x for e in events if (x := game.describe_event(state, e, own_t))]
            )
            if not seat.is_bot and not any(e.get("player") == seat.display_name for e, _ in said):
                # a move played for a human with nothing to decide that no line of the game's
                # speaks of: one line says he was passed. Every line the game gives stays (his
                # income and penalties, his purchases: found playing the alternative rules,
                # 2026-11-29, when every event of his was left out).
                for words, into in ((t, lines), (own_t, mine)):
                    if words is not None and into is not None:
                        passes = words.gettext("{name} passes (nothing to decide).")
                        into.insert(0, passes.format(name=seat.display_name))
            private = [
                p
                for e, owner in zip(events, applied.owners, strict=True)
                for p in self._private_lines(game, state, e, owner, seats, langs)
            ]
            played.steps.append(
                Step(
                    lines,
                    state_json,
                    applied.picture_events,
                    private,
                    player=seat.display_name,
                    own_lines=mine,
                    asked=now.current,
                )
            )
        played.state, played.state_json, played.version = state, state_json, version
        played.moment = now
        return played

    def _forced(
        self, game: Game, now: Moment, current: list[str], humans: Mapping[str, SeatRow]
    ) -> tuple[SeatRow | None, Action | None]:
        """The first human who must act and has nothing to decide, with his forced move."""
        for name in current:
            seat = humans.get(name)
            if seat is None:
                continue
            try:
                action = now.forced_of(name)
            except Exception:
                log.exception("forced_action of %s failed for %s", game.id, name)
                continue
            if action is not None:
                return seat, action
        return None, None


def played_plainly(game: Game, state: State, player: str, action: Action, plain: bool) -> Applied:
    """`game.play`, or with `plain` (after `play` failed on a game's later question, such as
    its `forced_action`) `apply` and the answers that cannot fail the move: no forced moves
    are known, so the player is asked (as when `forced_action` fails before a chain)."""
    if not plain:
        return game.play(state, player, action)
    state, events = game.apply(state, player, action)
    return Applied(
        state,
        tuple(events),
        tuple(game.current_players(state)),
        bool(game.is_over(state)),
        (),
        tuple(event_owner(e) for e in events),
        tuple(bool(game.is_picture_event(e)) for e in events),
    )


def chain_step(pk: int, game: Game, state_json: str, player: str, action: Action) -> Applied:
    """One move of the bot chain on a fresh copy of the state; when a question after the
    move fails (a game's `forced_action`), the move stands, played again plainly."""
    try:
        return game.play(load_state(state_json), player, action)
    except IllegalAction:
        raise
    except Exception:
        log.exception("game %s: play failed after the move; applied plainly", pk)
        return played_plainly(game, load_state(state_json), player, action, True)
