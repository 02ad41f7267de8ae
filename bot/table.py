"""The table service: every chat message and button press of every platform comes here.

`Table.handle(inbound)` routes a command: the table's own (/new, /join, /start, /status, ...)
or a move of the chat's game, which goes through `game.parse` and `game.apply` and is
committed with its log entry in one store transaction. After a move the table announces the
events, posts the board picture when a phase ends, lets bot seats play, and prompts the next
player with buttons. `handle` never raises: refusals are one-line answers, and unexpected
errors are logged with the game id and answered with an apology.

Concurrency: an asyncio.Lock per game keeps the moves of one game serial in this process;
the store's version check catches a second process (a lost race re-runs once on fresh state).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.bots import default_bot_kind
from bot.buttons import holds_later, posted_now
from bot.completion import CompletionMixin
from bot.context import (
    MAX_COMMAND,
    Clock,
    Ctx,
    clean_name,
    discover_games,
    fit,
)
from bot.deadlines import ChatSettings
from bot.dm_press import press_in_private
from bot.grammar import (
    CommandLine,
    merge_specs,
    parse_command,
    shorten,
    valid_menu_name,
)
from bot.i18n import resolve_lang, spec_help, tr
from bot.info import InfoMixin
from bot.lobby import LobbyMixin
from bot.messages import Inbound, Outbound
from bot.moment import press_key
from bot.outbox import DM_CLOSED
from bot.private_chat import PRIVATE_QUESTIONS, Handler, PrivateChatMixin
from bot.reminders import Reminders
from bot.status_refresh import StatusRefreshMixin
from bot.storage import open_store
from bot.undo import UndoMixin
from engine.core.protocol import CommandSpec

log = logging.getLogger(__name__)

# Re-exported: what callers import from the table module.
__all__ = [
    "MAX_COMMAND",
    "Ctx",
    "Table",
    "clean_name",
    "default_bot_kind",
    "discover_games",
    "fit",
    "open_table",
]
_fit = fit  # the old name, for callers that still use it


class Table(
    LobbyMixin, UndoMixin, PrivateChatMixin, InfoMixin, CompletionMixin, StatusRefreshMixin
):
    """bot.service.TableService over a Store and the registered games. The parts: lobby
    (bot/lobby.py), the move pipeline (bot/moves.py), announcements (bot/announce.py),
    information (bot/info.py), undo and abort (bot/undo.py), autocomplete
    (bot/completion.py), the status message after a setting (bot/status_refresh.py), shared
    state and helpers (bot/table_base.py); deadlines and their
    commands are bot/reminders.py, a client of the pipeline."""

    def _wire(self) -> None:
        """The table's own parts, once TableBase's constructor has set the shared state (a hook,
        not an `__init__` of our own: every Table(...) call is checked against TableBase's)."""
        # Deadlines, /settings, /away, /vote: a client of the move pipeline (bot/reminders.py).
        self.reminders = Reminders(self, self.store)
        # The command registry: every table command's handler, registered once.
        self.handlers: dict[str, Handler] = {
            "new": self._cmd_new,
            "join": self._cmd_join,
            "addbot": self._cmd_addbot,
            "leave": self._cmd_leave,
            "kick": self._cmd_kick,
            "start": self._cmd_start,
            "status": self._cmd_status,
            "board": self._cmd_board,
            "log": self._cmd_log,
            "help": self._cmd_help,
            "rules": self._cmd_rules,
            "stats": self._cmd_stats,
            "hint": self._cmd_hint,
            "replay": self._cmd_replay,
            "games": self._cmd_games,
            "lang": self._cmd_lang,
            "undo": self._cmd_undo,
            "abort": self._cmd_abort,
            **self.reminders.handlers(),
        }

    async def handle(self, inbound: Inbound) -> list[Outbound]:
        ctx = Ctx(inbound, resolve_lang(None, inbound.lang, self.default_lang))
        try:
            if inbound.text is not None and len(inbound.text) > MAX_COMMAND:
                return self._too_long(ctx)
            outs = fit(await self._handle(ctx))
            if not ctx.claimed and inbound.update_id is not None:
                # a refusal or an answer: a redelivery of the same update stays silent
                await self.store.record_inbound(inbound.platform, inbound.update_id)
            return outs
        except Exception:
            log.exception(
                "table error in chat %s, game %s, on %r",
                inbound.chat_key,
                ctx.game.id if ctx.game else None,
                inbound.text if inbound.text is not None else inbound.payload,
            )
            return [
                Outbound(
                    inbound.chat_key,
                    tr(
                        ctx.lang,
                        "Sorry, something went wrong on my side. Nothing was changed "
                        "unless I said so; please try again.",
                    ),
                )
            ]
        finally:
            self.reminders.changed()  # a move or a setting may have moved the next due time

    def command_specs(self) -> Sequence[CommandSpec]:
        return merge_specs([self._table_specs, *(g.commands for g in self.games.values())])

    def table_command_specs(self) -> Sequence[CommandSpec]:
        """The table's own commands (offered with every game)."""
        return self._table_specs

    def game_command_specs(self) -> dict[str, Sequence[CommandSpec]]:
        """Each game's commands, by game id (a platform offers those of the enabled games)."""
        return {gid: tuple(g.commands) for gid, g in self.games.items()}

    async def enabled_games(self, chat_key: str) -> tuple[str, ...]:
        """The games enabled in a chat or server (/settings games=...); all by default."""
        chosen = (await self.reminders.settings(chat_key)).games
        return tuple(g for g in chosen if g in self.games) or tuple(self.games)

    async def enable_games(self, chat_key: str, games: Sequence[str]) -> None:
        """Set the games of `chat_key` (a Discord server's key: its channels' last choice)."""
        raw = (await self.store.chat(chat_key)).settings
        settings = replace(ChatSettings.load(raw), games=tuple(games))
        await self.store.set_chat_settings(chat_key, settings.dump(raw))

    def command_menu(self, lang: str | None) -> list[tuple[str, str]]:
        menu: list[tuple[str, str]] = []
        for spec in self.command_specs():
            if not valid_menu_name(spec.name):
                continue
            menu.append((spec.name, shorten(self._help(lang, spec), 256) or spec.name))
        return menu[:100]

    def _help(self, lang: str | None, spec: CommandSpec) -> str:
        """A spec's help translated; a merged spec's: one game-neutral description."""
        return spec_help(lang, spec)

    # ================================================================== routing
    async def _handle(self, ctx: Ctx) -> list[Outbound]:
        ib = ctx.inbound
        if await self._load(ctx, dedup=True):  # one store call: seen?, chat, user, game, seats
            ctx.claimed = True
            return []

        text = ib.text
        pressed = await press_in_private(self, ctx, ib.payload) if ib.is_private else None
        if pressed is not None:  # a private reminder's button (bot/dm_press.py)
            return pressed
        if ib.payload is not None:
            text = self._unpack_payload(ctx, ib.payload)
            if text is None:
                return self._out_of_date(ctx)
            ctx.from_button = True
        if not text:
            return []
        line = parse_command(text)
        if line is None:
            return []
        await self.reminders.on_command(ctx, line)  # a returning player, votes, DM reach
        if ctx.game is not None and line.name not in self._move_names.get(ctx.game.game_id, ()):
            # he has read the game since the table passed him (/status, a question): a move
            # he sends now is meant for the turn he reads (found playing, 2026-12-04)
            self._passed.forget(ctx.game.id, ib.user_key)
        if ib.platform in self.deliveries:  # the user interacts: his DMs may be open again
            refused = bool(ctx.prefs.get(ib.user_key, {}).get(DM_CLOSED))
            self.deliveries[ib.platform].dm_reopened(ib.user_key, ib.is_private, refused)
            if ib.files_allowed is not None and not ib.is_private:
                # before the move: its pictures go where the chat takes them again
                await self.deliveries[ib.platform].pictures_seen(ib.chat_key, ib.files_allowed)
        if (
            ib.is_private
            and ctx.game is None
            and line.name not in self._table_names
            and line.name in self._game_names
        ):
            return await self._private_command(ctx, line)
        handler = self.handlers.get(line.name)
        if ib.is_private and ctx.game is None and handler is not None:
            answered = await self._private_table_line(ctx, line, handler)
            if answered is not None:
                return answered
        words = self._board_in_words(ctx, line)
        if words is not None:
            return await self._game_command(ctx, words)
        if line.name in self._table_names and handler is not None:
            return list(await handler(ctx, line))
        return await self._game_command(ctx, line)

    async def _private_table_line(
        self, ctx: Ctx, line: CommandLine, handler: Handler
    ) -> list[Outbound] | None:
        """A table command sent in a private chat that has no game of its own, about the
        sender's game in a group: a question answered here, /undo played there like a move,
        /start welcomed; None for the others (and when he plays nowhere)."""
        if line.name in PRIVATE_QUESTIONS:
            return await self._private_table_command(ctx, line, handler)
        if line.name == "undo":
            return await self._private_command(ctx, line, run=handler)
        if line.name == "start" and not line.args:
            return self._welcome(ctx)
        return None

    def _unpack_payload(self, ctx: Ctx, payload: str) -> str | None:
        """ "<game_pk>:<version or public mark>:<command>" -> the command, if it still applies
        to the chat's open game: at exactly that moment, or (a game move) later as long as the
        move is still legal for the presser; None when stale or malformed."""
        parts = payload.split(":", 2)
        if len(parts) != 3 or ctx.game is None:
            return None
        pk, version, command = parts
        if pk != str(ctx.game.id) or not command.strip():
            return None
        # At its public moment (bot/buttons.py), or while its move is still legal, unless he
        # pressed this very button before (a double tap: bot/moment.py `Pressed`).
        user = ctx.inbound.user_key
        ctx.pressed_now = posted_now(self, ctx, version)
        ctx.press_key = press_key(ctx.game.id, user, version, command)
        if not ctx.pressed_now and (
            self._pressed.seen(ctx.game.id, user, version, command)
            or not holds_later(self, ctx, version, command)
        ):
            return None
        self._pressed.note(ctx.game.id, user, version, command)
        return command


async def open_table(db_path: str, clock: Clock | None = None, **kwargs: Any) -> Table:
    """Open (and migrate) the database and build the table over the registered games."""
    store = await open_store(db_path, clock=clock)  # SQLite or PostgreSQL (BOARDCHAT_DB)
    return Table(store, clock=clock, **kwargs)
