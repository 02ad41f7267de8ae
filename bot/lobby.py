"""The lobby: opening a table, seats, bots, the start (with the first bot moves)."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.bots import default_bot_kind
from bot.chatnames import ChatNamer
from bot.context import (
    Ctx,
    clean_name,
)
from bot.deadlines import ChatSettings
from bot.grammar import (
    CommandLine,
    shorten,
)
from bot.i18n import (
    LANGUAGES,
    explain,
    language_label,
    language_named,
    listed,
    tr,
    translator,
    trn,
)
from bot.messages import Outbound
from bot.moves import MovesMixin
from bot.quiet import ask_notified
from bot.store import (
    ChatBusy,
    GameRow,
    Outcome,
    SeatRow,
)
from bot.store_load import Loaded
from engine.core import N_, IllegalAction, canonical_json
from engine.core.sentences import sentence_gap

log = logging.getLogger(__name__)


class LobbyMixin(MovesMixin):
    """/new, /join, /addbot, /leave, /start; the chat's name on the way in."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.chat_namer = ChatNamer(self.store)

    async def _pick_lang(self, ctx: Ctx, loaded: Loaded | None = None) -> None:
        """The sender's language (TableBase); and the chat's title and link, kept up to date
        from what the platform says (bot/chatnames.py)."""
        await super()._pick_lang(ctx, loaded)
        await self.chat_namer.note(ctx.inbound)

    async def open_games(self, chat_keys: Sequence[str]) -> dict[str, str]:
        """The game id of each of these chats' open table (chats without one left out)."""
        found: dict[str, str] = {}
        for key in chat_keys:
            row = await self.store.open_game(key)
            if row is not None:
                found[key] = row.game_id
        return found

    async def _cmd_new(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        ib = ctx.inbound
        if not line.args:
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "Which game? /new <game>, one of: {games}.",
                    games=self._game_list(ctx),
                ),
            )
        wanted = line.args[0].casefold()
        # A game by its id, its name, or its name in any catalog language ("Энергосеть").
        game = self.games.get(wanted) or next(
            (
                g
                for g in self.games.values()
                if any(tr(lang, g.name).casefold() == wanted for lang in LANGUAGES)
            ),
            None,
        )
        if game is None:
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "I do not know the game '{game}'. Games: {games}.",
                    game=shorten(line.args[0], 40),
                    games=self._game_list(ctx),
                ),
            )
        enabled = ChatSettings.load(ctx.chat_settings or {}).games
        if enabled and game.id not in enabled:
            # The chat (a Discord server) plays only these games: /new offers only them, so
            # their commands are the ones on the menu (issue 22).
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "This chat plays {games}; /settings games=... changes that.",
                    games=listed(
                        tr(ctx.lang, self.games[g].name) for g in enabled if g in self.games
                    ),
                ),
            )
        if ctx.game is not None:
            return self._busy(ctx)
        options: dict[str, str] = {o.key: o.default for o in game.options}
        for item in line.args[1:]:
            key, sep, value = item.partition("=")
            spec = next((o for o in game.options if o.key == key.casefold()), None)
            if not sep or spec is None:
                known = listed(
                    f"{o.key}=<{'|'.join(o.choices) or o.default}>" for o in game.options
                )
                return self._refuse(
                    ctx,
                    self._t(
                        ctx,
                        "Unknown option '{item}'. Options of {game}: {known}.",
                        item=shorten(item, 40),
                        game=tr(ctx.lang, game.name),
                        known=known or "-",
                    ),
                )
            # Option values are matched without regard to case: map=USA is map=usa.
            value = next((c for c in spec.choices if c.casefold() == value.casefold()), value)
            if spec.choices and value not in spec.choices:
                return self._refuse(
                    ctx,
                    self._t(
                        ctx,
                        "Option {key} takes one of: {choices}.",
                        key=spec.key,
                        choices=listed(spec.choices),
                    ),
                )
            if not value:
                return self._refuse(ctx, self._t(ctx, "Option {key} needs a value.", key=spec.key))
            options[spec.key] = value
        try:
            outcome, pk = await self.store.create_game(
                ib.chat_key,
                game.id,
                options,
                ib.user_key,
                (ib.user_key, clean_name(ib.display_name), ib.lang),
                self._inbound_key(ctx),
            )
        except ChatBusy:
            ctx.game = await self.store.open_game(ib.chat_key)
            return self._busy(ctx)
        if outcome is Outcome.DUPLICATE:
            return []
        # A new table: the chat's link points at the message that opened it.
        await self.chat_namer.note(ib, refresh=True)
        if (await self.store.chat(ib.chat_key)).lang is None:
            # The chat's language, until its creator or an admin sets one: the language of
            # the person who opened its first table.
            await self.store.set_chat_lang(ib.chat_key, ctx.lang)
            ctx.chat_lang = ctx.lang
        shown = ", ".join(f"{k}={v}" for k, v in options.items())
        text = trn(
            ctx.post_lang,
            "New table: {game} ({low}-{high} player{opts}). @{name} is seated. Others: /join "
            "(or /addbot); then @{name} sends /start.",
            "New table: {game} ({low}-{high} players{opts}). @{name} is seated. Others: /join "
            "(or /addbot); then @{name} sends /start.",
            game.max_players,
            game=tr(ctx.post_lang, game.name),
            low=game.min_players,
            high=game.max_players,
            opts=f"; {shown}" if shown else "",
            name=clean_name(ib.display_name),
        )
        return self._say(
            ctx,
            text,
            buttons=self._lobby_buttons(ctx, pk),
            mentions=[(ib.user_key, clean_name(ib.display_name))],
            lang=ctx.post_lang,
        )

    def _busy(self, ctx: Ctx) -> list[Outbound]:
        row = ctx.game
        if row is None:
            return self._refuse(ctx, self._t(ctx, "Please try again."))
        name = (
            tr(ctx.lang, self.games[row.game_id].name) if row.game_id in self.games else row.game_id
        )
        status = (
            self._t(ctx, "waiting for players")
            if row.status == "lobby"
            else self._t(ctx, "in play")
        )
        return self._refuse(
            ctx,
            self._t(
                ctx,
                "This chat already has a game ({game}, {status}). One game per chat: finish it "
                "or /abort it first.",
                game=name,
                status=status,
            ),
        )

    def _lobby(self, ctx: Ctx, started: str) -> GameRow | list[Outbound]:
        """The chat's table while it waits for /start; else the refusal: no table, or the
        command's own words (`started`, an msgid) for a game already under way."""
        row = ctx.game
        if row is None:
            return self._no_game(ctx)
        if row.status != "lobby":
            return self._refuse(ctx, self._t(ctx, started))
        return row

    async def _cmd_join(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = self._lobby(ctx, N_("The game has already started; seats are fixed."))
        if not isinstance(row, GameRow):
            return row
        game = self._game_of(row)
        ib = ctx.inbound
        outcome, name = await self.store.add_seat(
            row.id,
            ib.user_key,
            clean_name(ib.display_name),
            max_players=game.max_players,
            lang=ib.lang,
            inbound=self._inbound_key(ctx),
        )
        return await self._seat_answer(ctx, row, outcome, name, ib.user_key)

    async def _seat_answer(
        self, ctx: Ctx, row: GameRow, outcome: Outcome, name: str, user_key: str
    ) -> list[Outbound]:
        game = self._game_of(row)
        if outcome is Outcome.DUPLICATE:
            return []
        if outcome is Outcome.ALREADY:
            return self._refuse(ctx, self._t(ctx, "You are already seated as {name}.", name=name))
        if outcome is Outcome.FULL:
            return self._refuse(
                ctx,
                trn(
                    ctx.lang,
                    "The table is full ({n} player).",
                    "The table is full ({n} players).",
                    game.max_players,
                ),
            )
        if outcome is Outcome.GONE:
            return self._refuse(ctx, self._t(ctx, "The game has already started; seats are fixed."))
        seats = await self.store.seats(row.id)
        names = listed(s.display_name for s in seats)
        text = tr(
            ctx.post_lang,
            "{name} joins. Seated ({n}/{high}): {names}.",
            name=name,
            n=len(seats),
            high=game.max_players,
            names=names,
        )
        if len(seats) >= game.min_players:
            text += sentence_gap(text) + tr(ctx.post_lang, "Ready: the creator may /start.")
        return self._say(
            ctx,
            text,
            buttons=self._lobby_buttons(ctx, row.id),
            mentions=[] if user_key.startswith("bot:") else [(user_key, name)],
            lang=ctx.post_lang,
        )

    async def _cmd_addbot(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = self._lobby(ctx, N_("The game has already started; seats are fixed."))
        if not isinstance(row, GameRow):
            return row
        game = self._game_of(row)
        kinds = list(game.bots)
        if not kinds:
            return self._refuse(
                ctx, self._t(ctx, "{game} has no computer players.", game=tr(ctx.lang, game.name))
            )
        kind = line.args[0].casefold() if line.args else default_bot_kind(kinds)
        if kind not in game.bots:
            return self._refuse(ctx, self._t(ctx, "Bot kinds: {kinds}.", kinds=listed(kinds)))
        if ctx.seat() is None and not self._can_manage(ctx):
            return self._refuse(ctx, self._t(ctx, "Only seated players or the creator add bots."))
        user_key = f"bot:{secrets.token_hex(6)}"
        outcome, name = await self.store.add_seat(
            row.id,
            user_key,
            # TRANSLATORS: a computer player's name at the table ("Bot", "Bot 2", ...), in the
            # chat's language; one short word.
            tr(ctx.post_lang, N_("Bot")),
            max_players=game.max_players,
            is_bot=True,
            bot_kind=kind,
            inbound=self._inbound_key(ctx),
        )
        return await self._seat_answer(ctx, row, outcome, name, user_key)

    async def _cmd_leave(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        if ctx.game is not None and ctx.game.status != "lobby" and ctx.seat() is None:
            # not his table to leave (found play-testing, 2026-12-03: he was told seats
            # cannot be given up now, as if he had one)
            return self._refuse(ctx, self._t(ctx, "You are not seated at this table."))
        seat = ctx.seat()
        if ctx.game is not None and ctx.game.status == "active" and seat is not None:
            # the ways out a player has himself, not only the creator's /abort (found
            # play-testing: /leave pointed a player who had to go to the creator alone)
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "The game has started: seats cannot be given up now. To step out for a "
                    "while, send /away <duration> (this chat's settings say what happens to "
                    "your turns); the others can let a bot play your seat with /vote replace "
                    "{name}; the creator or a chat admin can end the game with /abort.",
                    name=seat.display_name,
                ),
            )
        row = self._lobby(
            ctx,
            N_(
                "The game has started: seats cannot be given up now. The creator or a chat "
                "admin can end it with /abort."
            ),
        )
        if not isinstance(row, GameRow):
            return row
        named = _named_seat(ctx, line.args)
        if line.args and (named is None or named.user_key != ctx.inbound.user_key):
            # "/leave Bot" gave up the sender's own seat (found playing, 2026-12-03)
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "/leave gives up your own seat; the creator or a chat admin takes "
                    "another off the table with /kick <name>.",
                ),
            )
        return await self._unseat(ctx, row, ctx.inbound.user_key, None)

    async def _cmd_kick(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        """/kick <name>: the creator or a chat admin takes a seat (a bot, or a player who
        joined and went quiet) off a table that has not started."""
        row = self._lobby(
            ctx,
            N_("The game has started: a bot takes a silent player's seat by /vote replace <name>."),
        )
        if not isinstance(row, GameRow):
            return row
        if not self._can_manage(ctx):
            return self._refuse(
                ctx, self._t(ctx, "Only the creator or a chat admin takes seats away.")
            )
        if not line.args:
            return self._refuse(ctx, self._t(ctx, "Usage: /kick <name>"))
        seat = _named_seat(ctx, line.args)
        if seat is None:
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "Nobody called '{name}' is seated. Seated: {names}.",
                    name=shorten(" ".join(line.args).lstrip("@"), 24),
                    names=listed(s.display_name for s in ctx.seats),
                ),
            )
        return await self._unseat(ctx, row, seat.user_key, clean_name(ctx.inbound.display_name))

    async def _unseat(
        self, ctx: Ctx, row: GameRow, user_key: str, by: str | None
    ) -> list[Outbound]:
        """Takes `user_key`'s seat away (his own /leave when `by` is None) and tells the chat
        who sits now, and who starts the game when its creator left."""
        gone = next((s.display_name for s in ctx.seats if s.user_key == user_key), None)
        outcome = await self.store.remove_seat(row.id, user_key, self._inbound_key(ctx))
        if outcome is Outcome.DUPLICATE:
            return []
        if outcome is Outcome.ABSENT:
            return self._refuse(ctx, self._t(ctx, "You are not seated at this table."))
        if outcome is Outcome.GONE:
            return self._refuse(ctx, self._t(ctx, "The game has already started; seats are fixed."))
        seats = await self.store.seats(row.id)
        lang = ctx.post_lang
        names = listed(s.display_name for s in seats)
        name = gone or clean_name(ctx.inbound.display_name)
        if by is None:
            text = tr(lang, "{name} leaves. Seated: {names}.", name=name, names=names)
        else:
            text = tr(
                lang,
                "{by} takes {name} off the table. Seated: {names}.",
                by=by,
                name=name,
                names=names,
            )
        fresh = await self.store.game(row.id) if user_key == row.creator else None
        if fresh is None or fresh.creator == row.creator:
            return self._say(ctx, text, lang=lang)
        ctx.game = fresh
        starter = next(s.display_name for s in seats if s.user_key == fresh.creator)
        mention = f"@{starter}"
        text += sentence_gap(text) + tr(lang, "{name} now starts the game.", name=mention)
        # it gives him something to do (/start): it notifies him
        return self._say(ctx, text, lang=lang, mentions=[(fresh.creator, starter)], silent=False)

    async def _cmd_start(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = self._lobby(ctx, N_("The game is already running. /status"))
        if not isinstance(row, GameRow):
            return row
        if not self._can_manage(ctx):
            return self._refuse(
                ctx, self._t(ctx, "Only the creator (or a chat admin) starts the game.")
            )
        game = self._game_of(row)
        seats = ctx.seats
        if not game.min_players <= len(seats) <= game.max_players:
            return self._refuse(
                ctx,
                trn(
                    ctx.lang,
                    "{game} needs {low}-{high} player; {n} seated. /join or /addbot.",
                    "{game} needs {low}-{high} players; {n} seated. /join or /addbot.",
                    game.max_players,
                    game=tr(ctx.lang, game.name),
                    low=game.min_players,
                    high=game.max_players,
                    n=len(seats),
                ),
            )
        names = [s.display_name for s in seats]
        seed = int(self.seeder()) & ((1 << 63) - 1)
        try:
            state = game.setup(names, dict(row.options), seed)
        except IllegalAction as err:
            return self._refuse(ctx, explain(ctx.lang, err))
        state_json = canonical_json(state)
        hours = await self._deadline_hours(row.chat_key, ctx)
        async with self._lock(row.id):
            langs = await self._langs_of(ctx, seats)
            played = await self._run_bots(
                replace(row, seed=seed),
                seats,
                state,
                state_json,
                1,
                ctx.post_lang,
                langs,
                own=self._own_lang(ctx),
            )
            begins = tr(
                ctx.post_lang,
                "{game} begins! Players in seat order: {names}.",
                game=tr(ctx.post_lang, game.name),
                names=listed(names),
            )
            # What setup drew (turn order, sides and the rolls behind them), in the same post:
            # the first turn is often not the first seat's, and nobody made a move to say why.
            drawn = game.describe_start(state, translator(ctx.post_lang))
            out = self._say(ctx, begins + ("\n" + drawn if drawn else ""), lang=ctx.post_lang)
            pic = await self._picture(
                ctx, game, state_json, tr(ctx.post_lang, "The board at the start")
            )
            if pic is not None:
                out.append(pic)
            out += await self._announce(
                ctx, replace(row, version=played.version, seed=seed), seats, played
            )
            now = played.now(game)
            out += self._game_over(ctx, row, game, played.state, now.over)  # all bots (issue 25)
            told = ask_notified(out, seats, now.current)  # kept with the turn (bot/expiry.py)
            out, rows = self._rows(ctx, out, row.id)
            # The chain numbers its moves from 1 (after a person's move, step 0); here no
            # person moved, so its first move is the run's step 0: the start is version 1 and
            # the moves 2, 3, ..., as `_announce` and its picture instructions count them.
            entries = [replace(e, step=e.step - 1) for e in played.entries]
            result = await self.store.start_game(
                row.id,
                seed,
                names,
                played.state_json,
                self._due(game, played.state, hours, now, told),
                self._inbound_key(ctx),
                entries=entries,
                over=now.over,
                outbox=rows,
            )
            if result.outcome is Outcome.DUPLICATE:
                return []
            if result.outcome is not Outcome.OK:
                return self._refuse(ctx, self._t(ctx, "The seats changed meanwhile; /start again."))
            self._recent.keep(row.id, played.state_json, now)
        ctx.game = replace(row, status="active", seed=seed, version=result.version)
        self.wake_senders()
        return self._queued(out, result.outbox_ids)

    async def _cmd_lang(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        """/lang: show the languages; /lang <code>: the sender's own language (it beats their
        platform's); /lang chat <code>: the chat's language (its group posts), set by the
        creator of its table or a chat admin."""
        args = list(line.args)
        for_chat = bool(args) and args[0].casefold() == "chat"
        if for_chat:
            args = args[1:]
        if not args:
            await self._remember(ctx)
            return self._refuse(
                ctx,
                tr(
                    ctx.lang,
                    "Your language: {code}; this chat's: {chat}. Available: {all}.",
                    code=language_label(ctx.lang),
                    chat=language_label(ctx.chat_lang or self.default_lang),
                    all=listed(map(language_label, LANGUAGES)),
                ),
            )
        code = " ".join(args)
        name = language_named(code)
        if name is None:
            return self._refuse(
                ctx,
                tr(
                    ctx.lang,
                    "Unknown language '{code}'. Available: {all}.",
                    code=shorten(code, 16),
                    all=listed(map(language_label, LANGUAGES)),
                ),
            )
        if not for_chat:
            await self.store.set_user(ctx.inbound.user_key, lang=name)
            await self._remember(ctx)
            ctx.lang = name
            return self._refuse(ctx, tr(name, "Your language: {code}.", code=language_label(name)))
        if not await self._may_set_chat_lang(ctx):
            return self._refuse(
                ctx,
                tr(
                    ctx.lang,
                    "Only the creator of this chat's table or a chat admin sets its language.",
                ),
            )
        await self.store.set_chat_lang(ctx.chat_key, name)
        await self._remember(ctx)
        ctx.chat_lang = name
        return self._say(
            ctx, tr(name, "This chat's language: {code}.", code=language_label(name)), lang=name
        )

    async def _may_set_chat_lang(self, ctx: Ctx) -> bool:
        """A chat admin, anyone in their own one-to-one chat, or whoever created the chat's
        open table (else its most recent one)."""
        ib = ctx.inbound
        if ib.is_admin or ib.is_private:
            return True
        row = ctx.game
        if row is None:
            row = await self.store.last_game(ib.chat_key)
        return row is not None and row.creator == ib.user_key


def _named_seat(ctx: Ctx, args: Sequence[str]) -> SeatRow | None:
    """The seat whose name the words are ("Bot 2", "@bob"), case aside. A bot is named in the
    chat's language ("Бот 2"): "bot 2" in any of ours names it too (found play-testing,
    2026-12-03: a Polish player could not /kick the Russian chat's "Бот")."""
    wanted = " ".join(args).strip().lstrip("@").casefold()
    found = next((s for s in ctx.seats if s.display_name.casefold() == wanted), None)
    if found is not None:
        return found
    here = tr(ctx.post_lang, N_("Bot")).casefold()
    word, _, rest = wanted.partition(" ")
    if word not in {tr(lang, N_("Bot")).casefold() for lang in LANGUAGES}:
        return None
    bot = f"{here} {rest}".strip()
    return next((s for s in ctx.seats if s.is_bot and s.display_name.casefold() == bot), None)
