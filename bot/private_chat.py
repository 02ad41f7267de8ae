"""Commands sent to the bot in a private chat for a game played in a group: a move (played
in the game's chat, answered here) and the table's questions about it (/status, /board, /log,
/hint, /rules: answered here). The game is the sender's only running one, or the one named
by a first word "g<id>"."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

from bot.chatnames import chat_labels
from bot.context import _GAME_REF, Ctx, fit
from bot.grammar import CommandLine
from bot.i18n import listed, resolve_lang, tr
from bot.info import InfoMixin
from bot.messages import Outbound
from bot.moves import MovesMixin
from bot.store import GameRow
from engine.core import load_state

Handler = Callable[[Ctx, CommandLine], Awaitable[list[Outbound]]]

# The table's commands a private chat answers about the sender's game in a group.
PRIVATE_QUESTIONS = frozenset({"status", "board", "log", "hint", "rules", "help"})
# Those of them that have an answer of their own without a game: given when the sender plays
# several games and names none (/help lists every command, /rules the games, rather than
# asking which game).
GENERAL_TOO = frozenset({"help", "rules"})


class PrivateChatMixin(MovesMixin, InfoMixin):
    """The private-chat path of game and table commands."""

    async def _private_command(
        self, ctx: Ctx, line: CommandLine, run: Handler | None = None
    ) -> list[Outbound]:
        """A game command sent in a private chat: played in the sender's running game (the one
        named by a first argument "g<id>" when they play several). Answers only the sender
        needs come back here; the game's chat hears the public consequences. `run` plays a
        table command so (/undo); a game command by default."""
        ib = ctx.inbound
        picked = await self._private_game(ctx, line, move=run is None)
        if not isinstance(picked, tuple):
            return picked
        pick, args = picked
        sub = await self._in_game_chat(ctx, pick, reply_key=ib.chat_key)
        await self.reminders.on_command(sub, line)
        outs = await (run or self._game_command)(sub, CommandLine(line.name, args, line.slash))
        ctx.claimed = ctx.claimed or sub.claimed
        here: list[Outbound] = []
        there: list[Outbound] = []
        outs = fit(outs)
        for out, pushed in zip(outs, self._pushed(sub, ib.chat_key, outs), strict=True):
            (there if pushed else here).append(out)
        # the confirmation ("Done in ...; announced in ...") came with the move's messages,
        # committed with them (AnnounceMixin._said_where); the group's part is pushed here
        if there and not await self.push(there):
            # no way to reach the game's chat from here (so no confirmation was written): the
            # sender gets its part instead
            here += [replace(o, chat_key=ib.chat_key, buttons=[]) for o in there]
        return here

    def _pushed(self, sub: Ctx, here_key: str, outs: list[Outbound]) -> list[bool]:
        """Which of a move's messages go out with the group's part (pushed, in order): the
        group's own, and on the terminal the private lines that come before the group's last
        message (found play-testing: a buyer's "You plan to buy ..." came after the group had
        read the purchase his move completed, ALT-10). A durable chat's messages are all in
        the outbox already, in order; only the group's part is pushed there."""
        group = [o.private_to is None and o.chat_key != here_key for o in outs]
        last = max((i for i, g in enumerate(group) if g), default=-1)
        if self._is_durable(sub.chat_key):
            return group
        return [
            g or (i < last and o.private_to is not None)
            for i, (g, o) in enumerate(zip(group, outs))
        ]

    async def _private_game(
        self,
        ctx: Ctx,
        line: CommandLine,
        none_ok: bool = False,
        several_ok: bool = False,
        move: bool = False,
    ) -> tuple[GameRow, list[str]] | list[Outbound]:
        """The running game a command sent in a private chat is for, and the command's words
        without its "g<id>": the sender's only game, or the one named; else the refusal that
        says why (with `none_ok`, no refusal when he plays in none, with `several_ok` when he
        plays several and names none: an empty list). A game `move`'s first word "g<id>" is
        his game only as `_names_the_game` judges."""
        rows = [
            r
            for r in await self.store.user_games(ctx.inbound.user_key)
            if r.status == "active" and r.game_id in self.games
        ]
        args = list(line.args)
        ref = _GAME_REF.match(args[0]) if args else None
        if ref is not None and move and not self._names_the_game(args, rows, line.name):
            ref = None  # the move's own word
        if ref is not None:
            pick = next((r for r in rows if r.id == int(ref.group(1))), None)
            if pick is not None:
                return pick, args[1:]
            return self._refuse(
                ctx,
                self._t(ctx, "You play in no running game g{id}.", id=ref.group(1))
                + await self._games_hint(ctx, rows, line.name),
            )
        if len(rows) == 1:
            return rows[0], args
        if not rows:
            if none_ok:
                return []
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "You play in no running game. Moves sent to me privately go to your "
                    "game in a group chat.",
                ),
            )
        if several_ok:
            return []
        return self._refuse(
            ctx,
            self._t(ctx, "You play in several games: say which one.")
            + await self._games_hint(ctx, rows, line.name),
        )

    def _names_the_game(self, args: Sequence[str], rows: Sequence[GameRow], name: str) -> bool:
        """Whether a move's first word names one of the sender's running games: written as
        the table writes a game ("g7": a cell is "G7", found play-testing, 2026-12-03: the
        cell G5 of Hexania or IEC was read as game g5), one of his, and not the move's only
        word when the move needs a word ("/spawn g7" is the cell). A move whose words are
        optional takes "g7" alone as the game: `/pass g1`, and every button of a private
        prompt, pressed as "/pass g1" (bot/dm_press.py; found play-testing through Telegram,
        2026-12-04: every private Pass and Power button was refused with the usage)."""
        word = args[0]
        if not word.startswith("g"):
            return False
        row = next((r for r in rows if word == f"g{r.id}"), None)
        if row is None:  # with several games he must name one: "g999" is one he does not play
            return len(rows) > 1
        spec = next((c for c in self._game_of(row).commands if c.name == name), None)
        if len(args) > 1 or spec is None or not spec.args:
            return True
        first = spec.args[0]
        return not first.required or bool(first.choices and word not in first.choices)

    async def _in_game_chat(self, ctx: Ctx, pick: GameRow, reply_key: str | None) -> Ctx:
        """The private message's context moved to the chat of the game `pick`: its seats,
        settings and language. The sender's language is his own (/lang, else his platform's,
        else his seat's), else the game chat's, as his private lines from others' moves are
        (`_langs_of`), not the private chat's default (found play-testing, 2026-12-03: a
        player who never chose one had his private /status in English, the notices of others'
        moves in his Russian chat's language)."""
        seats = await self.store.seats(pick.id)
        sub = Ctx(
            replace(ctx.inbound, chat_key=pick.chat_key),
            ctx.lang,
            claimed=ctx.claimed,
            game=pick,
            seats=seats,
            reply_key=reply_key,
        )
        chat = await self.store.chat(sub.chat_key)
        sub.chat_settings = chat.settings
        sub.chat_lang = chat.lang or self.default_lang
        user = await self.store.user(ctx.inbound.user_key)
        seat = next((s for s in seats if s.user_key == ctx.inbound.user_key), None)
        platform = ctx.inbound.lang or (seat.lang if seat is not None else None)
        sub.lang = resolve_lang(user.lang, platform, sub.chat_lang)
        # the players' own quiet hours (/me), as a message in the game's chat reads them: a
        # move sent privately pinged a player in his (found fixing the result's pings)
        people = [ctx.inbound.user_key, *(s.user_key for s in seats if not s.is_bot)]
        sub.prefs = {k: p for k, p in (await self.store.user_prefs(people)).items() if p}
        return sub

    async def _private_table_command(
        self, ctx: Ctx, line: CommandLine, handler: Handler
    ) -> list[Outbound] | None:
        """/status, /board, /log, /hint, /rules or /help sent in a private chat: answered
        there, in the sender's language, about his running game (found playing, 2026-12-03:
        a move sent privately was played, but "/status" there said "no game here"). None
        when he plays in no game (or, for /help, names none of several): the table's own
        answer then."""
        general = line.name in GENERAL_TOO
        if line.name == "rules" and line.args and line.args[0].casefold() in self.games:
            return None  # "/rules hexania": that game's rules, as anywhere without a game
        picked = await self._private_game(ctx, line, none_ok=True, several_ok=general)
        if not isinstance(picked, tuple):
            return picked or None
        pick, args = picked
        # no reply key: the answer is the private chat's own post, in the sender's language
        sub = await self._in_game_chat(ctx, pick, reply_key=None)
        asked = CommandLine(line.name, args, line.slash)
        words = self._board_in_words(sub, asked)  # Hexania's "/board text" (HEX-G-6)
        outs = await (self._game_command(sub, words) if words else handler(sub, asked))
        ctx.claimed = ctx.claimed or sub.claimed
        mine = [o for o in outs if o.private_to == ctx.inbound.user_key]
        rows = next((o.buttons for o in reversed(outs) if o.buttons), [])
        if mine and all(o.png is None and o.picture is None for o in outs if o not in mine):
            outs = mine  # his own version of an answer (his /log page) replaces the table's
        # the group's buttons are for whoever is asked: here only if he is, on the last
        # message (found playing Hexania, 2026-12-03: his opponent's /spawn buttons came
        # with his private /status, and his own were lost with the group's post)
        rows = rows if await self._asked_now(sub) else []
        return [
            replace(
                o,
                chat_key=ctx.chat_key,
                private_to=None,
                sender_only=False,
                mentions=[],
                silent=True,  # the answer to what he has just asked
                buttons=rows if o is outs[-1] else [],
            )
            for o in outs
        ]

    async def _asked_now(self, ctx: Ctx) -> bool:
        """Whether the sender is one of the players his game asks to act now."""
        row, seat = ctx.game, ctx.seat()
        if row is None or seat is None or row.state_json is None or row.status != "active":
            return False
        game = self._game_of(row)
        state = load_state(row.state_json)
        current = self._recent.moment(row.id, game, row.state_json, state).current
        return seat.display_name in current  # a seat plays under its display name

    async def _games_hint(self, ctx: Ctx, rows: Sequence[GameRow], command: str) -> str:
        """The sender's games to choose from: id, game and the chat's title and link."""
        lines = [""]
        labels = await chat_labels(self.store, [r.chat_key for r in rows], ctx.lang)
        for row in rows:
            name = tr(ctx.lang, self._game_of(row).name)
            lines.append(f"g{row.id}: {name} @ {labels[row.chat_key]}")
        example = f"/{command} g{rows[0].id} ..." if rows else f"/{command} g<id> ..."
        lines.append(self._t(ctx, "Put the game first, e.g. {example}", example=example))
        return "\n".join(lines)

    def _welcome(self, ctx: Ctx) -> list[Outbound]:
        """/start in a private chat without a game: what a person can do with the bot (on
        Telegram, the Start button of a first private chat sends it)."""
        return self._say(
            ctx,
            self._t(
                ctx,
                "Hello! I run board games in group chats, one move at a time: add me to a "
                "group and send /new <game> there ({games}). Here, in private, I tell you what "
                "only you may know and remind you when the table waits for you; your moves and "
                "/status, /board, /log, /hint work here too. /games lists your games, /digest "
                "on sends a daily list, /lang sets your language.",
                games=listed(self.games),
            ),
        )
