"""What an inbound message needs from the store before anything happens, read in one call
(issue 23): whether the update was seen already, the chat's settings, the sender's language,
the chat's open game, its seats, the seated users and whether votes stand against the sender.
On SQLite this is one hand-off to the reader's thread (the statements run there
synchronously); on PostgreSQL one query (bot/store_pg.py). The move pipeline (bot/moves.py)
then needs one more call: the commit."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the row types live in bot/store.py, which imports this module
    from bot.store import ChatRow, GameRow, SeatRow, UserRow


@dataclass(frozen=True)
class Loaded:
    """One message's reads. `users`: every seated human's and the sender's row (defaults for a
    user the store does not know), by user key."""

    seen: bool
    chat: ChatRow
    user: UserRow
    game: GameRow | None
    seats: list[SeatRow] = field(default_factory=list)
    users: dict[str, UserRow] = field(default_factory=dict)
    voted: bool = False  # a vote against the sender stands in the open game (/kick)


@dataclass(frozen=True)
class RawLoad:
    """The rows `load_sync` read, for the store to turn into its row types."""

    seen: bool
    chat: Sequence[Any] | None
    game: Sequence[Any] | None
    seats: list[Sequence[Any]]
    users: list[Sequence[Any]]  # (user_key, lang, dm_ok) of the sender and the seated
    voted: bool


def load_sync(
    con: sqlite3.Connection,
    game_columns: str,
    chat_key: str,
    user_key: str,
    inbound: tuple[str, str] | None,
) -> RawLoad:
    """The reads of `Loaded`, synchronously on the raw connection (in its own thread)."""
    seen = (
        inbound is not None
        and con.execute(
            "SELECT 1 FROM inbound WHERE platform = ? AND update_id = ?", inbound
        ).fetchone()
        is not None
    )
    chat = con.execute(
        "SELECT lang, settings_json FROM chats WHERE chat_key = ?", (chat_key,)
    ).fetchone()
    users: list[Sequence[Any]] = con.execute(
        "SELECT user_key, lang, dm_ok FROM users WHERE user_key = ?", (user_key,)
    ).fetchall()
    game = con.execute(
        f"SELECT {game_columns} FROM games WHERE chat_key = ? AND status IN ('lobby', 'active')",
        (chat_key,),
    ).fetchone()
    seats: list[Sequence[Any]] = []
    voted = False
    if game is not None:
        seats = con.execute(
            "SELECT game_id, seat, user_key, display_name, is_bot, bot_kind, lang FROM seats "
            "WHERE game_id = ? ORDER BY seat",
            (game[0],),
        ).fetchall()
        users += con.execute(
            "SELECT u.user_key, u.lang, u.dm_ok FROM seats s JOIN users u "
            "ON u.user_key = s.user_key WHERE s.game_id = ?",
            (game[0],),
        ).fetchall()
        voted = (
            con.execute(
                "SELECT 1 FROM votes WHERE game_id = ? AND target = ? LIMIT 1", (game[0], user_key)
            ).fetchone()
            is not None
        )
    return RawLoad(seen, chat, game, seats, users, voted)
