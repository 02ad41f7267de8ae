"""Information commands: answers that change no game."""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import TypeVar

from bot import logtext, rulebook
from bot.announce import ENDED_WITHOUT_RESULT, AnnounceMixin
from bot.chatnames import chat_labels
from bot.context import Ctx
from bot.deadlines import ChatSettings, human_duration
from bot.grammar import (
    MAX_CAPTION,
    CommandLine,
    listed_example,
    listed_help,
    placeholder,
    shorten,
    usage,
)
from bot.i18n import listed, tr, translator, trn
from bot.messages import Outbound
from bot.placeholders import arg_help
from bot.seat_notes import absence_line
from bot.store import GameRow
from bot.table_base import TableBase
from engine.core import N_, join_list, load_state
from engine.core.protocol import CommandSpec, Game
from engine.core.sentences import WHO_DOES

log = logging.getLogger(__name__)

M = TypeVar("M", bound=TableBase)
LAST_GAME = N_("Last game here: {game} (g{id}). /new starts another.")
YOUR_LAST_GAME = N_("Your last game, {game} (g{id}), is over. /games lists your games.")
Answer = Callable[[M, Ctx, CommandLine], Awaitable[list[Outbound]]]


def in_chat_lang(handler: Answer[M]) -> Answer[M]:
    """Who reads what (issue 18): an answer posted in a group is a group post, written in the
    chat's language for everybody there. The asker, when he reads another language, gets it
    in his own too, to him alone (a DM on Telegram, an ephemeral reply on Discord), and what
    only he sees (a refusal, his private part) is in his language. In a private chat with the
    bot, or when both languages are the same, the handler runs once."""

    @functools.wraps(handler)
    async def answer(self: M, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        group = ctx.post_lang
        if ctx.lang == group:
            return [_in_lang(o, group) for o in await handler(self, ctx, line)]
        posted = await handler(self, replace(ctx, lang=group), line)
        own = await handler(self, ctx, line)
        out = [_in_lang(o, group) for o in posted if _posted(ctx, o)]
        for o in own:
            if _posted(ctx, o):  # the asker's copy, in his language, without the buttons
                copy = self._to_sender(ctx, o.text)
                o = replace(o, private_to=copy.private_to, mentions=copy.mentions, buttons=[])
            out.append(_in_lang(o, ctx.lang))
        return out

    return answer


def _posted(ctx: Ctx, out: Outbound) -> bool:
    """A post everybody in the chat reads (not a private or sender-only reply)."""
    return out.chat_key == ctx.chat_key and out.private_to is None and not out.sender_only


def _in_lang(out: Outbound, lang: str) -> Outbound:
    if out.lang is None:
        out.lang = lang
    return out


class InfoMixin(AnnounceMixin):
    """/status, /board, /log, /help, /rules, /games, /lang."""

    @in_chat_lang
    async def _cmd_status(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        if row is None:
            return await self._after_the_last_game(ctx)
        await self._remember(ctx)
        game = self._game_of(row)
        if row.status == "lobby":
            return self._say(
                ctx,
                self._t(
                    ctx,
                    "{game}: waiting for players ({n}/{low}-{high}): {names}. The creator "
                    "sends /start.",
                    game=tr(ctx.lang, game.name),
                    n=len(ctx.seats),
                    low=game.min_players,
                    high=game.max_players,
                    names=listed(s.display_name for s in ctx.seats),
                ),
                buttons=self._lobby_buttons(ctx, row.id),
            )
        state = load_state(row.state_json or "{}")
        seat = ctx.seat()
        # /status is a group post in the chat's language (in_chat_lang), prompting as a move does.
        langs = await self._langs_of(ctx, ctx.seats)  # a prompted player's line in his language
        prompt = self._mention_prompt(ctx, row, state, row.version, ctx.seats, langs, ctx.lang)
        t = translator(ctx.lang)
        # The group sees the public turn only (issue 20): what the asker alone may know (their
        # hidden money, their standing orders) goes to them alone.
        public = game.describe_turn(state, None, t).strip()
        current = list(game.current_players(state))
        head = self._t(
            ctx,
            "{game}, waiting for {who}.",
            game=tr(ctx.lang, game.name),
            who=listed(current),
        )
        tail = ""
        plan = await self.store.turn_plan(row.id)
        # Under a time bank each player's own bank stands for the deadline (the pace line).
        banked = ChatSettings.load(ctx.chat_settings or {}).bank is not None
        if plan is not None and not banked:
            # when the bot acts, as the status message and the reminders say (bot/expiry.py)
            left = await self._stored_acts_at(ctx, plan) - self.clock()
            tail += "\n" + self._t(ctx, "Deadline: {left}.", left=self._left(ctx, left))
        # a group's post is dated in the chat's time zone, whoever asked (found by a
        # play-tester: "ends about today" to one, "tomorrow" to another, the same minute);
        # asked privately, in the reader's own (/me tz=)
        reader = ctx.inbound.user_key if ctx.inbound.is_private else None
        pace = await self.reminders.pace(row, ctx.lang, reader)
        if pace:
            tail += "\n" + pace
        absent = await self._own_seat(ctx, row)  # he is away, or a bot plays his seat

        def status(turn: str, reader: str | None = None) -> str:
            """The answer; `reader`: the one player it goes to alone, told "you" when the
            table waits for him (found re-testing through Telegram, 2026-12-05: his own
            private /status said "waiting for Bob" to Bob)."""
            top = head
            if reader is not None and reader in current:
                others = [p for p in current if p != reader]
                name = tr(ctx.lang, game.name)
                top = (
                    self._t(
                        ctx,
                        "{game}, waiting for you and {others}.",
                        game=name,
                        others=listed(others),
                    )
                    if others
                    else self._t(ctx, "{game}, waiting for you.", game=name)
                )
            own = absent
            if absent and reader is None:  # in the group's post: named, as a prompt names
                own = self._t(ctx, WHO_DOES, players=seat.display_name if seat else "", what=absent)
            return top + ("\n" + turn if turn else "") + tail + ("\n" + own if own else "")

        # An answer to the asker: silent, and it names who must act without mentioning them
        # (issue 17: only the message that asks a person to act notifies).
        out = [Outbound(ctx.chat_key, status(public), buttons=prompt.buttons, silent=True)]
        if seat is not None:
            mine = game.describe_turn(state, seat.display_name, t).strip()
            if ctx.inbound.is_private:
                # asked in his private chat (bot/private_chat.py): one answer, the table's
                # head and deadline around his own turn (found 2026-12-03: his turn alone
                # came back, without whom the table waits for or the deadline)
                # (the buttons: bot/private_chat.py keeps them only if he is asked)
                mine_out = self._to_sender(ctx, status(mine or public, seat.display_name))
                return [replace(mine_out, silent=True, buttons=prompt.buttons)]
            if mine and mine != public:
                if ctx.lang != ctx.post_lang:
                    # `in_chat_lang`'s run in the asker's own language: the group has its
                    # post; his copy carries his own turn in place of the table's, one
                    # private message, not two (as /log; found playing, 2026-12-02)
                    return [
                        replace(self._to_sender(ctx, status(mine, seat.display_name)), silent=True)
                    ]
                # silent as the group's answer: it tells, it asks nothing (issue 17)
                out.append(replace(self._to_sender(ctx, mine), silent=True))
        return out

    async def _own_seat(self, ctx: Ctx, row: GameRow) -> str:
        """The asker's own seat in a word when he is away or a bot plays it, for his /status
        (found play-testing: his /status while away did not say so); "" otherwise."""
        seat = ctx.seat()
        if seat is None:
            return ""
        away = (await self.store.away_until([seat.user_key], self.clock())).get(seat.user_key)
        autos = await self.store.autopilots(row.id) if seat.is_bot else []
        mine = next((a for a in autos if a.user_key == seat.user_key), None)
        return absence_line(ctx.lang, away, mine, ChatSettings.load(ctx.chat_settings or {}))

    async def _last_board(self, ctx: Ctx) -> list[Outbound]:
        """/board with no game open: the chat's last game as it ended, captioned with how it
        ended (found play-testing, 2026-12-03: "No game here yet" one message after the
        result, while /status and /log still told of the game); else how to open one."""
        last = await self.store.last_game(ctx.chat_key)
        if last is None or last.game_id not in self.games or last.state_json is None:
            return [replace(o, sender_only=True) for o in self._no_game(ctx)]
        if not self.render:
            return await self._after_the_last_game(ctx)
        await self._remember(ctx)
        game = self._game_of(last)
        words = self._how_it_ended(last, game, ctx.post_lang)
        pic = await self._picture(ctx, game, last.state_json, words)
        if pic is None:
            return self._refuse(ctx, self._t(ctx, "Sorry, I could not draw the board just now."))
        # the game's own caption of its last picture would read as news ("Round 1 — ann is
        # next." after /abort): the words of how it ended instead
        return [replace(pic, text=shorten(words, MAX_CAPTION))]

    async def _after_the_last_game(self, ctx: Ctx) -> list[Outbound]:
        """/status with no game open: how the chat's last game ended, when one did (found
        play-testing, 2026-12-03: "No game here yet" right after a game's result, while /log
        still showed it); else how to open one."""
        last = await self.store.last_game(ctx.chat_key)
        if last is None and ctx.inbound.is_private:
            # asked privately about a game played in a group: his last one, when it is over
            # (found play-testing, 2026-12-04: "No game here yet" just after its result)
            return await self._his_last_game(ctx)
        if last is None or last.game_id not in self.games or last.state_json is None:
            return self._no_game(ctx)
        words = self._how_it_ended(last, self._game_of(last), ctx.lang)
        return self._say(ctx, words, silent=True)

    async def _his_last_game(self, ctx: Ctx) -> list[Outbound]:
        """/status in a private chat when he plays in no running game: how his last game
        ended; else how to open one."""
        finished = await self.store.finished_games(user_key=ctx.inbound.user_key, limit=1)
        last = finished[0].row if finished else None
        if last is None or last.game_id not in self.games or last.state_json is None:
            return self._no_game(ctx)
        game = self._game_of(last)
        result = game.describe_turn(load_state(last.state_json), None, translator(ctx.lang))
        words = tr(ctx.lang, YOUR_LAST_GAME, game=tr(ctx.lang, game.name), id=last.id)
        return self._say(ctx, words + "\n" + result.strip(), silent=True)

    @staticmethod
    def _how_it_ended(last: GameRow, game: Game, lang: str) -> str:
        """ "Last game here: …" and its result, or that it was ended without one (/abort)."""
        name = tr(lang, game.name)
        if last.status != "over" or last.state_json is None:
            return tr(lang, ENDED_WITHOUT_RESULT, game=name)
        result = game.describe_turn(load_state(last.state_json), None, translator(lang)).strip()
        # the result on a line of its own: a game's turn text ends as it likes ("… 45 E)")
        return (tr(lang, LAST_GAME, game=name, id=last.id) + "\n" + result).rstrip()

    def _left(self, ctx: Ctx, seconds: float) -> str:
        if seconds <= 0:
            return self._t(ctx, "passed")
        # the reader's words for the time left (Babel's units and plural forms, issue 18):
        # "in 23 hours", "ещё 23 часа", "jeszcze 23 godziny", "還有 23 小時"
        minutes = max(1, int(seconds // 60))
        # TRANSLATORS: the time left before a deadline; {duration} is in the nominative case
        # ("23 hours 2 minutes", "1 minute"), so phrase it to fit ("ещё 1 минута").
        return self._t(ctx, "in {duration}", duration=human_duration(minutes * 60, ctx.lang))

    async def _cmd_board(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        # The picture is a group post in the chat's language (or, asked privately, the
        # asker's); a reply instead of it is the asker's alone, in his language.
        row = ctx.game
        if row is None:
            return await self._last_board(ctx)
        await self._remember(ctx)
        if row.status != "active" or row.state_json is None:
            return self._refuse(ctx, self._t(ctx, "The game has not started yet."))
        if not self.render:
            return self._refuse(ctx, self._t(ctx, "Pictures are switched off here."))
        game = self._game_of(row)
        pic = await self._picture(ctx, game, row.state_json, tr(ctx.post_lang, game.name))
        if pic is None:
            return self._refuse(ctx, self._t(ctx, "Sorry, I could not draw the board just now."))
        return [pic]

    @in_chat_lang
    async def _cmd_log(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        """/log [page]: the log in words, newest page first (bot/logtext.py): the table's page
        for everybody; the asker's own private lines in his page, to him alone (issue 20)."""
        row = ctx.game or await self.store.last_game(ctx.chat_key)
        if row is None and ctx.inbound.is_private:
            # asked privately after his game in a group ended: that game's log, as /status
            # tells how it ended (found play-testing through Telegram, 2026-12-05: "No game
            # here yet" right after the result)
            finished = await self.store.finished_games(user_key=ctx.inbound.user_key, limit=1)
            row = finished[0].row if finished else None
        if row is None or row.game_id not in self.games:
            return self._no_game(ctx)
        await self._remember(ctx)
        page = 1
        if line.args:
            try:
                page = max(1, int(line.args[0]))
            except ValueError:
                return self._refuse(ctx, self._t(ctx, "Usage: /log [page], a number."))
        game = self._game_of(row)
        rows = await self.store.actions(row.id)
        state = load_state(row.state_json or "{}")
        seats = ctx.seats if ctx.game is not None else await self.store.seats(row.id)
        viewer = next((s.display_name for s in seats if s.user_key == ctx.inbound.user_key), None)
        t = translator(ctx.lang)
        # the days in the chat's time zone: a game of days is read by when things happened
        day = logtext.day_of(ctx.lang, ChatSettings.load(ctx.chat_settings or {}).tz)
        text = logtext.log_page(game, state, rows, t, viewer=None, page=page, day=day)
        out = self._say(ctx, text)
        mine = (
            logtext.log_page(game, state, rows, t, viewer=viewer, page=page, day=day)
            if viewer
            else text
        )
        if mine != text and ctx.inbound.is_private:
            # asked in his private chat (a game over, found through Telegram, 2026-12-05: the
            # table's page and then his own, twice the same moves): his page alone
            return self._say(ctx, mine)
        if mine != text:
            if not ctx.inbound.is_private and ctx.lang != ctx.post_lang:
                # `in_chat_lang`'s run in the asker's own language: the group has its page
                # already, and his own page holds everything the table's does (one copy, not
                # two: found playing IEC, 2026-11-29)
                return [self._to_sender(ctx, mine)]
            out.append(self._to_sender(ctx, mine))
        return out

    @in_chat_lang
    async def _cmd_help(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        await self._remember(ctx)
        game = self._game_of(ctx.game) if ctx.game and ctx.game.game_id in self.games else None
        game_specs = list(game.commands) if game else []
        if line.args:
            name = line.args[0].lstrip("/").casefold()
            spec = next(
                (
                    s
                    for s in [
                        *self._table_specs,
                        *game_specs,
                        *(c for g in self.games.values() for c in g.commands),
                    ]
                    if s.name == name
                ),
                None,
            )
            if spec is None:
                return self._unknown(ctx, CommandLine(name, [], True))
            if spec.name == "addbot" and game is not None and game.bots:
                # the kinds this game seats, not every game's (found playing IEC, 2026-11-29)
                kinds = tuple(game.bots)
                spec = replace(
                    spec,
                    args=tuple(replace(a, choices=kinds) for a in spec.args),
                    examples=("/addbot", f"/addbot {kinds[-1]}"),
                )
            t = translator(ctx.lang)
            parts = [usage(spec, t), tr(ctx.lang, spec.help)]
            for arg in spec.args:
                desc = tr(ctx.lang, arg_help(arg.name, arg.help))  # as the menus say it
                if arg.choices:
                    desc += " (" + join_list(t, arg.choices[:20]) + ")"
                parts.append(f"  {placeholder(arg.name, t)}: {desc}")
            if spec.examples:
                parts.append(self._t(ctx, "Examples: {ex}", ex=listed(spec.examples)))
            if spec.name == "new" and spec in self._table_specs:
                parts += self._options_help(ctx, line.args[1:], game)
            return self._say(ctx, "\n".join(parts))
        lines = [self._t(ctx, "Table commands:")]
        t = translator(ctx.lang)
        lines += [
            f"{usage(s, t)} — {listed_help(s, tr(ctx.lang, s.help))}" for s in self._table_specs
        ]
        if game is not None:
            lines.append("")
            lines.append(self._t(ctx, "{game} commands:", game=tr(ctx.lang, game.name)))
            for spec in game_specs:
                lines.append(self._listed_game_command(ctx, spec))
        else:
            lines.append("")
            lines.append(
                self._t(
                    ctx,
                    "Games: {games}",
                    games=self._game_list(ctx),
                )
            )
        lines.append(self._t(ctx, "Details: /help <command>"))
        return self._say(ctx, "\n".join(lines))

    def _listed_game_command(self, ctx: Ctx, spec: CommandSpec) -> str:
        """One game command in /help's list. A command sharing a table command's name (Hexania's
        text board) is listed as its example, "/board text", and not as a second "/board"
        (found playing, 2026-12-03: the list showed /board twice)."""
        text = listed_help(spec, tr(ctx.lang, spec.help))
        if spec.name in self._table_names and spec.examples:
            return f"{spec.examples[0]} — {text}"
        return f"{usage(spec, translator(ctx.lang))} — {text}{listed_example(spec, text)}"

    def _options_help(self, ctx: Ctx, args: Sequence[str], game: Game | None) -> list[str]:
        """/help new [game]: each option of the named game (else the open one's, else every
        game's) with its values, its default and what it changes (found playing: the games'
        options were told nowhere, and Hexania's round limit must say it is an addition to
        the source rules, HEX-OPT-LIMIT)."""
        named = self.games.get(args[0].casefold()) if args else None
        shown = [named] if named else [game] if game else list(self.games.values())
        lines: list[str] = []
        for g in shown:
            if not g.options:
                continue
            lines.append(
                self._t(
                    ctx, "{game} options (/new {id} key=value):", game=tr(ctx.lang, g.name), id=g.id
                )
            )
            for o in g.options:
                values = join_list(translator(ctx.lang), o.choices) + "; " if o.choices else ""
                default = self._t(ctx, "default {value}", value=o.default)
                lines.append(f"  {o.key}: {tr(ctx.lang, o.help)} — {values}{default}")
        return lines

    @in_chat_lang
    async def _cmd_rules(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        """/rules: how to play; /rules <id>: one rule; /rules <word>: a search (bot/rulebook.py).
        Outside a game: /rules <game> [id or word], else the list of games."""
        await self._remember(ctx)
        t = translator(ctx.lang)
        args = rulebook.picked(list(line.args))  # "PG-21 · Торги", an autocomplete offer
        if ctx.game is None or ctx.game.game_id not in self.games:
            wanted = args[0].casefold() if args else ""
            if wanted in self.games and wanted in rulebook.available():
                return self._say(ctx, rulebook.answer(wanted, " ".join(args[1:]), t))
            return self._say(
                ctx,
                self._t(
                    ctx,
                    "Games: {games}. /rules <game> explains one; /new <game> opens one.",
                    games=self._game_list(ctx),
                ),
            )
        game = self._game_of(ctx.game)
        index = dict(game.rules_index) if game.capabilities.rules_index else None
        listed = bool(args) and isinstance(index, dict) and any(_same_id(k, args[0]) for k in index)
        if game.id in rulebook.available() and not (
            len(args) == 1 and listed and rulebook.find_rule(game.id, args[0]) is None
        ):
            return self._say(ctx, rulebook.answer(game.id, " ".join(args), t))
        return self._index_rules(ctx, game, line)  # an id the rulebook does not explain

    def _index_rules(self, ctx: Ctx, game: Game, line: CommandLine) -> list[Outbound]:
        """/rules for a game without a rulebook: the titles of its `rules_index`."""
        index = dict(game.rules_index) if game.capabilities.rules_index else None
        if line.args:
            wanted = line.args[0].strip("()[].,;:").casefold()
            ids = list(index) if isinstance(index, dict) else []
            rule = next((k for k in ids if k.casefold() == wanted), line.args[0].upper())
            title = index.get(rule) if isinstance(index, dict) else None
            if title:
                text = f"{rule}: {tr(ctx.lang, title)}"
                commands = rule_commands(game, rule)
                if commands:
                    text += "\n" + self._t(
                        ctx,
                        "Commands it concerns: {commands}",
                        commands=listed(f"/{c}" for c in commands),
                    )
                else:
                    text += "\n" + self._t(
                        ctx, "No command of its own: the game applies it by itself."
                    )
                return self._say(ctx, text)
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "I have no title for {rule}; see the rulebook of {game}. Refusals name the "
                    "rule they apply, e.g. (PG-21).",
                    rule=shorten(rule, 20),
                    game=tr(ctx.lang, game.name),
                ),
            )
        text = trn(
            ctx.lang,
            "{game}: {low}-{high} player. Commands: {cmds}. Every refused move "
            "names the rule it breaks; /rules <id> shows its title.",
            "{game}: {low}-{high} players. Commands: {cmds}. Every refused move "
            "names the rule it breaks; /rules <id> shows its title.",
            game.max_players,
            game=self._t(ctx, game.name),
            low=game.min_players,
            high=game.max_players,
            cmds=listed("/" + c.name for c in game.commands),
        )
        if isinstance(index, dict) and index:
            text += "\n" + self._t(ctx, "Rule ids: {ids}", ids=listed(list(index)[:80]))
        return self._say(ctx, text)

    async def _cmd_games(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        await self._remember(ctx)
        rows = await self.store.user_games(ctx.inbound.user_key)
        # The asker's games are theirs to know (issue 20): the list goes to them alone.
        if not rows:
            return [self._to_sender(ctx, self._t(ctx, "You are not in any open game."))]
        lines = [self._t(ctx, "Your games:")]
        chats = await chat_labels(self.store, [r.chat_key for r in rows], ctx.lang)
        for row in rows:
            game = self.games.get(row.game_id)
            name = tr(ctx.lang, game.name) if game else row.game_id
            if row.status == "lobby" or game is None or not row.state_json:
                where = self._t(ctx, "waiting for players")
            else:
                seats = await self.store.seats(row.id)
                me = next(
                    (s.display_name for s in seats if s.user_key == ctx.inbound.user_key), None
                )
                current = list(game.current_players(load_state(row.state_json)))
                where = (
                    self._t(ctx, "your move")
                    if me in current
                    else self._t(ctx, "waiting for {who}", who=listed(current))
                )
            lines.append(f"- {name} @ {chats[row.chat_key]}: {where}")
        return [self._to_sender(ctx, "\n".join(lines))]

    def _board_in_words(self, ctx: Ctx, line: CommandLine) -> CommandLine | None:
        """/board from a game that words its board too (Hexania's text board, HEX-G-6): its
        own command answers when asked for it (`/board text`) or when the chat has no
        pictures (`/settings pictures=off`, or a table without rendering), else the table's
        picture (found playing, 2026-11-29: the text board could not be reached)."""
        row = ctx.game
        if line.name != "board" or row is None or row.game_id not in self.games:
            return None
        if not any(c.name == "board" for c in self.games[row.game_id].commands):
            return None
        asked = bool(line.args) and line.args[0].casefold() in ("text", "txt")
        off = ChatSettings.load(ctx.chat_settings or {}).pictures == "off"
        if asked or off or not self.render:
            return CommandLine("board", line.args[1:] if asked else line.args, line.slash)
        return None


def _same_id(rule: str, text: str) -> bool:
    return rule.casefold() == text.strip("()[].,;:").casefold()


def rule_commands(game: Game, rule: str) -> list[str]:
    """The commands a rule concerns: the game's own `rules_commands` map when it has one,
    else the commands whose help, argument help or examples name the rule."""
    mapping = game.rules_commands if game.capabilities.rules_index else None
    if isinstance(mapping, Mapping) and rule in mapping:
        return [str(c) for c in mapping[rule]]
    pattern = re.compile(re.escape(rule) + r"(?![0-9A-Za-z])", re.IGNORECASE)
    found: list[str] = []
    for spec in game.commands:
        texts = [spec.help, *spec.examples, *(a.help for a in spec.args)]
        if any(pattern.search(text) for text in texts if text) and spec.name not in found:
            found.append(spec.name)
    return found
