"""Autocomplete for the platforms (TableService.complete)."""

from __future__ import annotations

import json
import logging

from bot.context import (
    MAX_COMPLETIONS,
    UNIQUE_KINDS,
)
from bot.grammar import (
    arg_at,
)
from bot.service import MAX_COMPLETION, parse_args_kind
from bot.table_base import TableBase
from engine.core.protocol import Game, State

log = logging.getLogger(__name__)


class CompletionMixin(TableBase):
    """Autocomplete of game names, bot kinds and command arguments."""

    async def complete(self, chat_key: str, user_key: str, kind: str, prefix: str) -> list[str]:
        try:
            low = prefix.casefold()
            if kind == "game":
                return [g for g in self.games if g.startswith(low)]
            free = parse_args_kind(kind)
            if free is not None and free[0] in self._table_names:
                return []  # the table's own commands: nothing of a game to complete
            row = await self.store.open_game(chat_key)
            if row is None or row.game_id not in self.games:
                return []
            game = self.games[row.game_id]
            if kind == "bot_kind":
                return [k for k in game.bots if k.startswith(low)]
            state = json.loads(row.state_json) if row.state_json else None
            seats = await self.store.seats(row.id)
            player = next((s.display_name for s in seats if s.user_key == user_key), None)
            if free is not None:
                return self._complete_args(game, state, player, *free, prefix)
            return list(game.complete(state, player, kind, prefix))[:MAX_COMPLETIONS]
        except Exception:
            log.exception("autocomplete failed in chat %s", chat_key)
            return []

    def _complete_args(
        self,
        game: Game,
        state: State | None,
        player: str | None,
        command: str,
        start: int,
        text: str,
    ) -> list[str]:
        """Whole-text completions of the words typed after `/command`, by the position of the
        last word in this game's spec of the command (see TableService.complete)."""
        spec = next((s for s in game.commands if s.name == command), None)
        if spec is None:
            return []
        at = arg_at(spec.args[start:], text)
        if at is None:
            return []
        done, partial, arg = list(at.done), at.partial, at.arg
        # A name may have several words ("New Yo"): a repeated argument tries the longest
        # tail of its own words first (at most three words, no key=value among them).
        tails = [len(done)]
        if partial and (arg.repeated or arg.kind == "rest"):
            first = max(at.start, len(done) - 2)
            tails = [i for i in range(first, len(done) + 1) if not any("=" in w for w in done[i:])]
        # A repeated list of places or plants names each once (/build Berlin Berlin is never
        # meant); numbers and choices may repeat.
        unique = arg.repeated and arg.kind in UNIQUE_KINDS
        given = {w.casefold() for w in done[at.start :]} if unique else set()
        for tail in tails:
            typed = " ".join([*done[tail:], partial])
            if arg.choices:
                low = typed.casefold()
                found = [c for c in arg.choices if c.casefold().startswith(low)]
            else:
                found = list(game.complete(state, player, arg.kind, typed))
            if not found:
                continue
            out: list[str] = []
            for value in found:
                if value.casefold() in given:
                    continue
                line = " ".join([*done[:tail], value])
                if len(line) <= MAX_COMPLETION and line not in out:
                    out.append(line)
                if len(out) == MAX_COMPLETIONS:
                    break
            if out:
                return out
        return []
