"""Durable storage of tables, seats, the action log and chat settings (SQLite via aiosqlite).

Everything the bot knows lives here; nothing is kept only in memory, so a restart or a second
process sees the same tables. Two connections per store: one writer, used only inside
`BEGIN IMMEDIATE` transactions under an asyncio lock (SQLite has one writer anyway), and one
reader in autocommit mode, which in WAL mode sees only committed data.

One move is one transaction: the version check (an `UPDATE ... WHERE version = ?`), the action
log rows, the new state, version + 1, the inbound update id (de-duplication) and the next
reminder due time commit together or not at all.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass
from enum import Enum
from typing import Any

import aiosqlite

from bot.store_base import (
    Clock,
    connect,
    connect_inline,
    fetch,
    impatient,
    yield_once,
)
from bot.store_chats import ChatNamesMixin
from bot.store_load import Loaded, load_sync
from bot.store_outbox import OutboxItem, OutboxMixin, OutRow, write_outbox, write_outbox_sync
from bot.store_plans import (
    _NEVER,
    AutopilotRow,
    DigestRow,
    PlansMixin,
    ReminderRow,
    TurnPlan,
    load_progress,
)
from bot.store_queries import GAME_COLUMNS as _GAME_COLUMNS
from bot.store_queries import SQLITE as Q
from bot.store_records import FinishedGame, RecordsMixin
from bot.store_schema import MIGRATIONS, migrate
from bot.store_sql import append_sql, append_sync, carried_players, claimed, due_sql
from engine.core.jsonstate import load_state  # orjson: a move reads these each time

__all__ = [
    "MIGRATIONS",
    "NEVER",
    "AutopilotRow",
    "Clock",
    "DigestRow",
    "FinishedGame",
    "OutRow",
    "OutboxItem",
    "ReminderRow",
    "TurnPlan",
    "TurnReads",
]
NEVER = _NEVER

DEFAULT_DEADLINE_HOURS = 24.0
# Update ids older than this are forgotten: platforms redeliver within minutes, not days.
INBOUND_KEEP_SECONDS = 3 * 24 * 3600.0

OPEN_STATUSES = ("lobby", "active")

# A move's state write. The status is set only when the game ends: an UPDATE that names the
# column runs the `games_started` trigger's program (store_plans.MIGRATION) on every move.
_MOVE = (
    "UPDATE games SET state_json = ?, version = ?, updated_at = ? "
    "WHERE id = ? AND version = ? AND status = 'active'"
)
_MOVE_OVER = (
    "UPDATE games SET state_json = ?, version = ?, updated_at = ?, status = 'over' "
    "WHERE id = ? AND version = ? AND status = 'active'"
)


class StoreError(Exception):
    """A storage-level refusal the table turns into a chat answer."""


class ChatBusy(StoreError):
    """The chat already has an open (lobby or active) game."""


class Outcome(Enum):
    OK = "ok"
    STALE = "stale"  # the game's version changed (another move won the race)
    DUPLICATE = "duplicate"  # this platform update was already applied
    GONE = "gone"  # the game is no longer in the expected status
    FULL = "full"
    ALREADY = "already"
    ABSENT = "absent"


@dataclass(frozen=True)
class GameRow:
    id: int
    chat_key: str
    game_id: str
    options: dict[str, str]
    seed: int | None
    state_json: str | None
    version: int
    status: str
    created_at: float
    updated_at: float
    creator: str


@dataclass(frozen=True)
class SeatRow:
    game_id: int
    seat: int
    user_key: str
    display_name: str
    is_bot: bool
    bot_kind: str | None
    lang: str | None


@dataclass(frozen=True)
class ActionRow:
    game_id: int
    seq: int
    version: int
    user_key: str
    player: str
    action: Any
    events: list[Any]
    created_at: float
    # 0 where a run of moves began (a person's command, or the first move of a run the table
    # started itself), else the bot or forced move's place in that run (LogEntry.step); rows
    # logged before runs were kept all read 0, one run each.
    step: int = 0


@dataclass(frozen=True)
class LogEntry:
    """One action to append: who did it and what happened."""

    user_key: str
    player: str
    action_json: str
    events_json: str
    # Which of the commit's versions it belongs to: 0 for the first (a human's command), 1, 2,
    # ... for the bot moves that followed it in the same transaction (undo takes back one).
    step: int = 0


@dataclass(frozen=True)
class ChatRow:
    chat_key: str
    lang: str | None
    settings: dict[str, Any]


@dataclass(frozen=True)
class UserRow:
    user_key: str
    lang: str | None
    dm_ok: bool


@dataclass(frozen=True)
class TurnReads:
    """What the scheduler reads to look at a due turn (bot/reminders.py `process_turn`), in
    one store call: the game, its seats, its chat, and of the seated users those away at
    the time asked and everybody's /me settings (an empty dict for users without any)."""

    game: GameRow | None
    seats: list[SeatRow]
    chat: ChatRow
    away: dict[str, float]
    prefs: dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Due:
    """The next reminder: who must act, since when. The stored turn goes on (its start, due
    time and reminders) while the players asked are some of those it waited for (a
    simultaneous phase where one of them acted), unless `anew`: one of them is asked again
    after others moved (`Played.asked_anew`), a new turn. `ask_notified`: the message that
    asked them notified every one of them (bot/quiet.py `ask_notified`), kept with the turn
    (bot/expiry.py: a turn nobody was told of gets its reminder before it expires)."""

    players: list[str]
    turn_started_at: float
    due_at: float
    anew: bool = False
    ask_notified: bool = False


@dataclass(frozen=True)
class CommitResult:
    outcome: Outcome
    version: int = 0
    outbox_ids: tuple[int, ...] = ()


class _Abort(Exception):
    """Raised inside `Store._tx` to roll the transaction back and answer `outcome`."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.value)
        self.outcome = outcome


# Decoded game options by their JSON text: a move reads its game's options each time and
# nearly every game has the same few ("{}" mostly). Bounded: cleared when full.
_OPTIONS: dict[str, dict[str, str]] = {}
_OPTIONS_KEPT = 512


def options_of(text: str) -> dict[str, str]:
    """The options in `text` (a fresh dict: a caller may change its copy)."""
    found = _OPTIONS.get(text)
    if found is None:
        if len(_OPTIONS) >= _OPTIONS_KEPT:
            _OPTIONS.clear()
        found = _OPTIONS[text] = json.loads(text)
    return dict(found)


def _game(row: Sequence[Any]) -> GameRow:
    return GameRow(
        id=row[0],
        chat_key=row[1],
        game_id=row[2],
        options=options_of(row[3]),
        seed=row[4],
        state_json=row[5],
        version=row[6],
        status=row[7],
        created_at=row[8],
        updated_at=row[9],
        creator=row[10],
    )


def reminder_row(pk: int, kept: Sequence[Any]) -> ReminderRow:
    """The reminder row read with a message: (due_at, attempt, turn_started_at, players,
    done_until, notified_at, ask_notified, progress)."""
    return ReminderRow(
        pk,
        kept[0],
        kept[1],
        kept[2],
        load_state(kept[3]),
        kept[4],
        kept[5],
        bool(kept[6]),
        load_progress(kept[7]),
    )


def _seat(row: Sequence[Any]) -> SeatRow:
    return SeatRow(row[0], row[1], row[2], row[3], bool(row[4]), row[5], row[6])


def unique_name(wanted: str, taken: Sequence[str]) -> str:
    """`wanted`, or "wanted 2", "wanted 3", ... — unique ignoring case among `taken`."""
    lowered = {t.casefold() for t in taken}
    if wanted.casefold() not in lowered:
        return wanted
    n = 2
    while f"{wanted} {n}".casefold() in lowered:
        n += 1
    return f"{wanted} {n}"


class Store(OutboxMixin, PlansMixin, RecordsMixin, ChatNamesMixin):
    """The database. Create with `await Store.open(path)`; close with `await store.close()`."""

    _game_row, _seat_row, _game_columns = staticmethod(_game), staticmethod(_seat), _GAME_COLUMNS

    # ------------------------------------------------------------------ life cycle
    @classmethod
    async def open(cls, path: str, clock: Clock | None = None, *, inline: bool = True) -> Store:
        """`inline`: the move's reads and commit on the loop's thread (bot/store_base.py)."""
        clock = clock or time.time
        writer = await connect(path)
        try:
            await migrate(writer)
            reader = await connect(path)
        except BaseException:
            await writer.close()
            raise
        await writer._execute(impatient, writer._conn)  # only `begin` waits for the lock
        if inline:
            await writer.execute("PRAGMA wal_autocheckpoint = 0")  # StoreBase checkpoints
        store = cls(writer, reader, clock, connect_inline(path) if inline else None)
        store.path = path
        await store.prune_inbound()
        await store.prune_messages()
        return store

    async def close(self) -> None:
        await self._close_connections()

    def game_lock(self, pk: int) -> AbstractAsyncContextManager[None]:
        """Hold game `pk` against other processes: nothing to do on SQLite, where one process
        serves a database and the version check catches the rare second one (a plain null
        context: a generator-based one costs three frames per move)."""
        return nullcontext()

    async def schema_version(self) -> int:
        _rows = await fetch(self._r, "SELECT max(version) FROM schema_version")
        row = _rows[0] if _rows else None
        return int(row[0] or 0) if row else 0

    # ------------------------------------------------------------------ inbound de-duplication
    async def seen(self, platform: str, update_id: str) -> bool:
        row = await self._key_one(Q.seen, (platform, update_id))
        return row is not None

    async def record_inbound(self, platform: str, update_id: str) -> bool:
        """Remember an update that changed nothing; False when it was already recorded."""
        async with self._tx() as db:
            cur = await db.execute(Q.claim_inbound, (platform, update_id, self._clock()))
            return cur.rowcount == 1

    async def prune_inbound(self) -> None:
        async with self._tx() as db:
            await db.execute(Q.prune_inbound, (self._clock() - INBOUND_KEEP_SECONDS,))

    async def _claim_or_abort(
        self, db: aiosqlite.Connection, inbound: tuple[str, str] | None, now: float
    ) -> None:
        """Record the platform update id, or roll back: it was applied already."""
        if not await self._claim_inbound(db, inbound, now):
            raise _Abort(Outcome.DUPLICATE)

    @staticmethod
    async def _claim_inbound(
        db: aiosqlite.Connection, inbound: tuple[str, str] | None, now: float
    ) -> bool:
        if inbound is None:
            return True
        cur = await db.execute(Q.claim_inbound, (inbound[0], inbound[1], now))
        return cur.rowcount == 1

    # ------------------------------------------------------------------ chats and users
    async def chat(self, chat_key: str) -> ChatRow:
        row = await self._key_one(Q.chat, (chat_key,))
        if row is None:
            return ChatRow(chat_key, None, {})
        return ChatRow(chat_key, row[0], json.loads(row[1]))

    async def set_chat_lang(self, chat_key: str, lang: str | None) -> None:
        async with self._tx() as db:
            await db.execute(Q.set_chat_lang, (chat_key, lang))

    async def set_chat_settings(self, chat_key: str, settings: dict[str, Any]) -> None:
        async with self._tx() as db:
            await db.execute(Q.set_chat_settings, (chat_key, json.dumps(settings, sort_keys=True)))

    async def user(self, user_key: str) -> UserRow:
        row = await self._key_one(Q.user, (user_key,))
        if row is None:
            return UserRow(user_key, None, False)
        return UserRow(user_key, row[0], bool(row[1]))

    async def users(self, user_keys: Sequence[str]) -> dict[str, UserRow]:
        """Several users in one query (unknown users get the defaults)."""
        keys = sorted(set(user_keys))
        found = {k: UserRow(k, None, False) for k in keys}
        if keys:
            marks = ", ".join("?" for _ in keys)
            for r in await self._all(
                f"SELECT user_key, lang, dm_ok FROM users WHERE user_key IN ({marks})", keys
            ):
                found[r[0]] = UserRow(r[0], r[1], bool(r[2]))
        return found

    async def set_user(
        self, user_key: str, lang: str | None = None, dm_ok: bool | None = None
    ) -> None:
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO users (user_key, lang, dm_ok) VALUES (?, ?, ?) "
                "ON CONFLICT (user_key) DO UPDATE SET lang = coalesce(excluded.lang, users.lang), "
                "dm_ok = CASE WHEN ? IS NULL THEN users.dm_ok ELSE excluded.dm_ok END",
                (user_key, lang, int(bool(dm_ok)), dm_ok),
            )

    # ------------------------------------------------------------------ games
    async def load_message(
        self, chat_key: str, user_key: str, inbound: tuple[str, str] | None = None
    ) -> Loaded:
        """An inbound message's reads at once (bot/store_load.py): on the loop's thread
        (inline), else in one hand-off to the reader's thread."""
        if self._inline is not None and self._go_inline():
            raw = load_sync(self._inline, chat_key, user_key, inbound)
            await yield_once()
        else:
            con = self._r._conn  # aiosqlite's connection, used in its own thread
            raw = await self._r._execute(load_sync, con, chat_key, user_key, inbound)
        seats = [_seat(r) for r in raw.seats]
        users = {r[0]: UserRow(r[0], r[1], bool(r[2])) for r in raw.users}
        for key in (user_key, *(s.user_key for s in seats)):
            if key not in users:  # a user the store does not know: the defaults
                users[key] = UserRow(key, None, False)
        chat = ChatRow(chat_key, raw.chat[0], load_state(raw.chat[1])) if raw.chat else None
        chat = chat or ChatRow(chat_key, None, {})
        game = _game(raw.game) if raw.game else None
        kept, pk = raw.reminder, game.id if game else 0
        reminder = None if kept is None else reminder_row(pk, kept)
        prefs = {key: load_state(text) for key, text in raw.prefs}
        return Loaded(
            raw.seen, chat, users[user_key], game, seats, users, raw.voted, reminder, prefs
        )

    async def open_game(self, chat_key: str) -> GameRow | None:
        """The chat's lobby or running game, if any."""
        row = await self._key_one(Q.open_game, (chat_key,))
        return _game(row) if row else None

    async def game(self, pk: int) -> GameRow | None:
        row = await self._key_one(Q.game, (pk,))
        return _game(row) if row else None

    async def last_game(self, chat_key: str) -> GameRow | None:
        row = await self._key_one(Q.last_game, (chat_key,))
        return _game(row) if row else None

    async def seats(self, pk: int) -> list[SeatRow]:
        rows = await self._key_all(Q.seats, (pk,))
        return [_seat(r) for r in rows]

    async def turn_reads(self, pk: int, now: float) -> TurnReads:
        """A due turn's reads (`TurnReads`), each by key on the loop's thread when inline."""
        game = await self.game(pk)
        if game is None:
            return TurnReads(None, [], ChatRow("", None, {}), {}, {})
        seats = await self.seats(pk)
        keys = [s.user_key for s in seats]
        chat = await self.chat(game.chat_key)
        return TurnReads(
            game, seats, chat, await self.away_until(keys, now), await self.user_prefs(keys)
        )

    async def user_games(self, user_key: str, limit: int = 20) -> list[GameRow]:
        rows = await self._all(Q.user_games, (user_key, limit))
        return [_game(r) for r in rows]

    async def recent_games(self, limit: int = 50) -> list[GameRow]:
        return [_game(r) for r in await self._all(Q.recent_games, (limit,))]

    async def create_game(
        self,
        chat_key: str,
        game_id: str,
        options: dict[str, str],
        creator: str,
        first_seat: tuple[str, str, str | None] | None,
        inbound: tuple[str, str] | None = None,
    ) -> tuple[Outcome, int]:
        """A new lobby; `first_seat` = (user_key, display_name, lang) seats the creator.
        Raises ChatBusy when the chat already has an open game."""
        now = self._clock()
        try:
            async with self._tx() as db:
                if not await self._claim_inbound(db, inbound, now):
                    return Outcome.DUPLICATE, 0
                cur = await db.execute(
                    Q.new_game,
                    (chat_key, game_id, json.dumps(options, sort_keys=True), now, now, creator),
                )
                pk = int(cur.lastrowid or 0)
                if first_seat is not None:
                    user_key, name, lang = first_seat
                    await db.execute(Q.first_seat, (pk, user_key, name, lang))
        except sqlite3.IntegrityError as err:
            raise ChatBusy(chat_key) from err
        return Outcome.OK, pk

    async def add_seat(
        self,
        pk: int,
        user_key: str,
        wanted_name: str,
        *,
        max_players: int,
        is_bot: bool = False,
        bot_kind: str | None = None,
        lang: str | None = None,
        inbound: tuple[str, str] | None = None,
    ) -> tuple[Outcome, str]:
        """Seat a player in a lobby; returns the (de-duplicated) name they play under."""
        now = self._clock()
        async with self._tx() as db:
            _rows = await fetch(db, Q.lobby_status, (pk,))
            row = _rows[0] if _rows else None
            if row is None or row[0] != "lobby":
                return Outcome.GONE, ""
            seats = list(await fetch(db, Q.lobby_seats, (pk,)))
            if any(s[1] == user_key for s in seats):
                return Outcome.ALREADY, next(s[2] for s in seats if s[1] == user_key)
            if len(seats) >= max_players:
                return Outcome.FULL, ""
            if not await self._claim_inbound(db, inbound, now):
                return Outcome.DUPLICATE, ""
            name = unique_name(wanted_name, [s[2] for s in seats])
            seat = max((s[0] for s in seats), default=0) + 1
            await db.execute(Q.add_seat, (pk, seat, user_key, name, int(is_bot), bot_kind, lang))
            await db.execute(Q.touch_game, (now, pk))
        return Outcome.OK, name

    async def remove_seat(
        self, pk: int, user_key: str, inbound: tuple[str, str] | None = None
    ) -> Outcome:
        now = self._clock()
        async with self._tx() as db:
            _rows = await fetch(db, Q.lobby_status, (pk,))
            row = _rows[0] if _rows else None
            if row is None or row[0] != "lobby":
                return Outcome.GONE
            if not await self._claim_inbound(db, inbound, now):
                return Outcome.DUPLICATE
            cur = await db.execute(Q.remove_seat, (pk, user_key))
            if cur.rowcount == 0:
                return Outcome.ABSENT
            await db.execute(Q.pass_creator, (pk, pk, user_key, pk))
            await db.execute(Q.touch_game, (now, pk))
        return Outcome.OK

    async def start_game(
        self,
        pk: int,
        seed: int,
        seat_names: list[str],
        state_json: str,
        due: Due | None,
        inbound: tuple[str, str] | None = None,
        *,
        entries: Sequence[LogEntry] = (),
        over: bool = False,
        outbox: Sequence[OutRow] = (),
    ) -> CommitResult:
        """Lobby -> active (version 1), if the seats are still exactly `seat_names`; with
        `entries` (bot moves right after the start, `state_json` after them) and the messages
        the start causes, in the same transaction."""
        now = self._clock()
        version = 1 + (max(e.step for e in entries) + 1 if entries else 0)
        try:
            async with self._tx() as db:
                async with db.execute(Q.seat_names, (pk,)) as cur:
                    names = [r[0] for r in await cur.fetchall()]
                if names != seat_names:
                    raise _Abort(Outcome.STALE)
                await self._claim_or_abort(db, inbound, now)
                cur = await db.execute(
                    Q.start_game, ("over" if over else "active", seed, state_json, version, now, pk)
                )
                if cur.rowcount != 1:
                    raise _Abort(Outcome.GONE)
                await _append(db, pk, 1, entries, now)
                await self._write_due(db, pk, None if over else due)
                ids = await write_outbox(db, outbox, now)
        except _Abort as abort:
            return CommitResult(abort.outcome)
        return CommitResult(Outcome.OK, version, tuple(ids))

    async def commit_moves(
        self,
        pk: int,
        expected_version: int,
        entries: Sequence[LogEntry],
        state_json: str,
        *,
        over: bool,
        due: Due | None,
        inbound: tuple[str, str] | None = None,
        outbox: Sequence[OutRow] = (),
        pressed: str | None = None,
    ) -> CommitResult:
        """Append `entries` and write the new state, if the game is still at `expected_version`,
        with the messages the moves cause (`outbox`) in the same transaction. Entries of step k
        get version expected + 1 + k; the game ends at the last step's version. `pressed`: the
        key of the button that made the move, noted beside `inbound` (bot/moment.py
        `press_key`), so a second tap on it is a duplicate in every worker."""
        now = self._clock()
        new_version = expected_version + 1 + max((e.step for e in entries), default=0)

        def work(con: sqlite3.Connection) -> list[int]:  # in the writer's thread: one hop
            if inbound is not None and not claimed(con, inbound, now):
                raise _Abort(Outcome.DUPLICATE)
            if pressed is not None and inbound is not None:
                claimed(con, (inbound[0], pressed), now)  # pressed again after an undo: kept
            cur = con.execute(
                _MOVE_OVER if over else _MOVE,
                (state_json, new_version, now, pk, expected_version),
            )
            if cur.rowcount != 1:
                raise _Abort(Outcome.STALE)
            if entries:
                append_sync(con, pk, expected_version, entries, now)
            con.execute(*due_sql(pk, None if over else due))
            return write_outbox_sync(con, outbox, now)

        try:
            ids = await self._tx_sync(work)
        except _Abort as abort:
            return CommitResult(abort.outcome)
        return CommitResult(Outcome.OK, new_version, tuple(ids))

    async def undo_last(
        self,
        pk: int,
        expected_version: int,
        from_seq: int,
        state_json: str,
        due: Due | None,
        inbound: tuple[str, str] | None = None,
        outbox: Sequence[OutRow] = (),
        keep: Sequence[int] = (),
    ) -> CommitResult:
        """Drop the log from `from_seq` on (but the seqs in `keep`) and store the replayed
        state (version + 1)."""
        now = self._clock()
        new_version = expected_version + 1
        try:
            async with self._tx() as db:
                await self._claim_or_abort(db, inbound, now)
                cur = await db.execute(
                    Q.undo_state, (state_json, new_version, now, pk, expected_version)
                )
                if cur.rowcount != 1:
                    raise _Abort(Outcome.STALE)
                await db.execute(
                    "DELETE FROM actions WHERE game_id = ? AND seq >= ? AND seq NOT IN "
                    f"({', '.join('?' * len(keep))})",
                    (pk, from_seq, *keep),
                )
                await self._carry_due(db, pk, due)
                ids = await write_outbox(db, outbox, now)
        except _Abort as abort:
            return CommitResult(abort.outcome)
        return CommitResult(Outcome.OK, new_version, tuple(ids))

    async def end_game(
        self,
        pk: int,
        expected_version: int | None,
        status: str,
        inbound: tuple[str, str] | None = None,
        outbox: Sequence[OutRow] = (),
    ) -> CommitResult:
        """Close an open game (`aborted`); `expected_version` None skips the version check."""
        now = self._clock()
        sql, params = Q.end_game, [status, now, pk]
        if expected_version is not None:
            sql, params = Q.end_game_at, [status, now, pk, expected_version]
        try:
            async with self._tx() as db:
                await self._claim_or_abort(db, inbound, now)
                cur = await db.execute(sql, params)
                if cur.rowcount != 1:
                    raise _Abort(Outcome.STALE)
                await db.execute(Q.drop_reminder, (pk,))
                ids = await write_outbox(db, outbox, now)
        except _Abort as abort:
            return CommitResult(abort.outcome)
        return CommitResult(Outcome.OK, outbox_ids=tuple(ids))

    async def actions(self, pk: int, last: int | None = None) -> list[ActionRow]:
        if last is not None:
            rows = await self._all(Q.last_actions, (pk, last))
            rows.reverse()
        else:
            rows = await self._all(Q.actions, (pk,))
        return [
            ActionRow(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), json.loads(r[6]), r[7], r[8])
            for r in rows
        ]

    # ------------------------------------------------------------------ reminders
    @staticmethod
    async def _write_due(db: aiosqlite.Connection, pk: int, due: Due | None) -> None:
        await db.execute(*due_sql(pk, due))

    @staticmethod
    async def _carry_due(db: aiosqlite.Connection, pk: int, due: Due | None) -> None:
        """An undo's reminder row: the running turn goes on (`carried_players`)."""
        if due is not None:
            cur = await db.execute(Q.reminder_players, (pk,))
            stored = await cur.fetchone()
            players = carried_players(stored[0] if stored else None, due)
            if players is not None:
                await db.execute(Q.widen_reminder, (players, pk))
                return
        await db.execute(*due_sql(pk, due))


async def _append(
    db: aiosqlite.Connection, pk: int, base: int, entries: Sequence[LogEntry], now: float
) -> None:
    """Append log entries (see `bot.store_sql.append_sql`) in one round trip."""
    if entries:
        await db.executemany(*append_sql(pk, base, entries, now))
