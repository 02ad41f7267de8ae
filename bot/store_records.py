"""Finished games for `/stats` (issue 25): a mixin of `bot.store.Store`.

The final ranking of a game is its `result` of the final state, which the move that ended the
game stored in the same transaction as the status 'over' (bot/store.py `commit_moves`); the
records (bot/records.py) are computed from these rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.store_base import StoreBase

if TYPE_CHECKING:
    from bot.store import GameRow, SeatRow


@dataclass(frozen=True)
class FinishedGame:
    """A finished game (status 'over') with its seats."""

    row: GameRow
    seats: list[SeatRow]


class RecordsMixin(StoreBase):
    # Set by bot.store.Store: its row converters and the games table's columns.
    _game_row: Callable[[Sequence[Any]], GameRow]
    _seat_row: Callable[[Sequence[Any]], SeatRow]
    _game_columns: str

    async def finished_games(
        self, chat_key: str | None = None, user_key: str | None = None, limit: int = 1000
    ) -> list[FinishedGame]:
        """The finished games of a chat, or those a user played in (in that chat, when both
        are given), newest first, with their seats."""
        cols = ", ".join("g." + c.strip() for c in self._game_columns.split(","))
        sql = f"SELECT {cols} FROM games g WHERE g.status = 'over'"
        params: list[Any] = []
        if user_key is not None:
            sql += " AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_key = ?)"
            params.append(user_key)
        if chat_key is not None:
            sql += " AND g.chat_key = ?"
            params.append(chat_key)
        rows = await self._all(sql + " ORDER BY g.id DESC LIMIT ?", (*params, limit))
        games = [self._game_row(r) for r in rows]
        if not games:
            return []
        marks = ", ".join("?" for _ in games)
        found = await self._all(
            "SELECT game_id, seat, user_key, display_name, is_bot, bot_kind, lang FROM seats "
            f"WHERE game_id IN ({marks}) ORDER BY game_id, seat",
            tuple(g.id for g in games),
        )
        seats: dict[int, list[SeatRow]] = {}
        for r in found:
            seat = self._seat_row(r)
            seats.setdefault(seat.game_id, []).append(seat)
        return [FinishedGame(g, seats.get(g.id, [])) for g in games]
