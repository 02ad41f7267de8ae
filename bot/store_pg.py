"""The store on PostgreSQL (asyncpg): the same public methods and semantics as bot/store.py's
SQLite `Store`, for several worker processes sharing one database.

Across processes:
- Migrations are numbered (MIGRATIONS) and applied at start-up inside one transaction that
  first takes an advisory transaction lock, so workers starting together migrate once.
- Moves of one game are serial: the version-checked `UPDATE games ... WHERE version = $n`
  locks the row until commit, and a second worker's update then finds the new version
  (STALE). `game_lock(pk)` (an advisory lock, plus an asyncio lock per game in this process)
  lets a caller hold the game across read, apply and commit, so a race is waited out
  instead of retried; the lock is taken by the first read inside it, and every
  `commit_moves` waits for it in its own statement (no round trip of its own).
- Inbound de-duplication is the `inbound` primary key, claimed inside the move transaction.
- `lease_due_turns` claims due reminder rows with `FOR UPDATE SKIP LOCKED` and a short lease,
  so each due turn goes to one worker; `claim_turn` stays the compare-and-set that makes a
  reminder fire once.
- Every transaction that changes a due time outside a move (settings, absences, seats
  handed to bots, replanned turns) sends `NOTIFY boardchat_wake`; `listen_wake` calls back
  on it, so a worker's scheduler wakes when another worker changed one. A move's new turn is
  planned by the worker that made it (bot/scheduler.py `SHARED_MAX_SLEEP`).
"""

from __future__ import annotations

import asyncio
import json
import time
import weakref
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.store import (
    INBOUND_KEEP_SECONDS,
    ActionRow,
    ChatBusy,
    ChatRow,
    Clock,
    CommitResult,
    Due,
    GameRow,
    LogEntry,
    Outcome,
    SeatRow,
    TurnReads,
    UserRow,
    options_of,
    reminder_row,
    unique_name,
)
from bot.store_chats import ChatName
from bot.store_load import Loaded
from bot.store_outbox import OutRow
from bot.store_pg_move import commit_args, commit_sql, log_arrays
from bot.store_pg_outbox import OUTBOX_CHANNEL, PgOutbox
from bot.store_pg_schema import MIGRATIONS, migrate
from bot.store_pg_timed import LEASE_SECONDS, WAKE_CHANNEL, PgTimed, count, write_outbox
from bot.store_queries import GAME_COLUMNS as _GAME_COLUMNS
from bot.store_queries import MESSAGE_POSTGRES as M
from bot.store_queries import POSTGRES as Q
from bot.store_records import FinishedGame
from bot.store_sql import carried_players, players_json
from engine.core.jsonstate import load_state  # orjson: a move reads these each time

__all__ = ["LEASE_SECONDS", "MIGRATIONS", "OUTBOX_CHANNEL", "WAKE_CHANNEL", "PgStore"]

# Advisory lock namespace of `game_lock` (two-int form: namespace, game id).
_GAME_LOCK_NS = 0x64636874  # "dcht"


class _Abort(Exception):
    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.value)
        self.outcome = outcome


# `load_message`: seen?, the chat, the sender, the open game (its id again last) and its seats
# with their users' language ([seat, user_key, name, is_bot, bot_kind, lang, user lang, dm_ok,
# user known]), a vote against the sender — one round trip.
_LOAD_SQL = f"""
SELECT
    EXISTS (SELECT 1 FROM inbound WHERE platform = $3 AND update_id = $4),
    c.lang, c.settings_json, u.lang, u.dm_ok, u.user_key IS NOT NULL,
    {", ".join("g." + c.strip() for c in _GAME_COLUMNS.split(","))}, g.id,
    (SELECT json_agg(json_build_array(s.seat, s.user_key, s.display_name, s.is_bot,
            s.bot_kind, s.lang, su.lang, su.dm_ok, su.user_key IS NOT NULL, su.prefs_json)
            ORDER BY s.seat)
        FROM seats s LEFT JOIN users su ON su.user_key = s.user_key WHERE s.game_id = g.id),
    EXISTS (SELECT 1 FROM votes v WHERE v.game_id = g.id AND v.target = $2),
    r.due_at, r.attempt, r.turn_started_at, r.players_json, u.prefs_json,
    r.done_until, r.notified_at, r.ask_notified, r.progress_json
FROM (VALUES (1)) AS one (x)
LEFT JOIN chats c ON c.chat_key = $1
LEFT JOIN users u ON u.user_key = $2
LEFT JOIN games g ON g.chat_key = $1 AND g.status IN ('lobby', 'active')
LEFT JOIN reminders r ON r.game_id = g.id
"""


# `turn_reads`: the game, its seats, its chat, the seated users' absences and /me settings.
_TURN_READS_SQL = f"""
SELECT {", ".join("g." + c for c in _GAME_COLUMNS.split(", "))},
    (SELECT coalesce(json_agg(json_build_array(s.seat, s.user_key, s.display_name, s.is_bot,
            s.bot_kind, s.lang) ORDER BY s.seat), '[]')
        FROM seats s WHERE s.game_id = g.id),
    c.lang, c.settings_json,
    (SELECT coalesce(json_agg(json_build_array(a.user_key, a.until)), '[]')
        FROM away a WHERE a.until > $2
        AND a.user_key IN (SELECT s.user_key FROM seats s WHERE s.game_id = g.id)),
    (SELECT coalesce(json_agg(json_build_array(u.user_key, u.prefs_json)), '[]')
        FROM users u WHERE u.user_key IN (SELECT s.user_key FROM seats s WHERE s.game_id = g.id))
FROM games g LEFT JOIN chats c ON c.chat_key = g.chat_key
WHERE g.id = $1
"""


def _game(r: Any) -> GameRow:
    return GameRow(
        id=r[0],
        chat_key=r[1],
        game_id=r[2],
        options=options_of(r[3]),
        seed=r[4],
        state_json=r[5],
        version=r[6],
        status=r[7],
        created_at=r[8],
        updated_at=r[9],
        creator=r[10],
    )


async def _init_connection(con: asyncpg.Connection) -> None:
    # Plain read committed; a statement that waits on a lock longer than this has a bug.
    await con.execute("SET lock_timeout = '30s'")


async def _reset_connection(con: asyncpg.Connection) -> None:
    """A connection back in the pool. asyncpg has already rolled back a transaction left
    open; its default reset query (unlock all, close cursors, unlisten, reset settings) would
    cost a round trip on every release, twice per move (issue 23), and is not needed here:
    pooled connections never LISTEN (`listen_wake` has its own), hold no cursor outside a
    transaction, change no setting after `_init_connection` (which RESET ALL would undo), and
    `game_lock` releases its advisory lock itself or closes the connection."""


class PgStore(PgOutbox, PgTimed):
    """The database on PostgreSQL. `await PgStore.open(url)`; `await store.close()`."""

    def __init__(self, pool: asyncpg.Pool, clock: Clock, url: str) -> None:
        super().__init__(pool, clock, url)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._listener: asyncpg.Connection | None = None

    # ------------------------------------------------------------------ life cycle
    @classmethod
    async def open(
        cls, url: str, clock: Clock | None = None, *, min_size: int = 2, max_size: int = 10
    ) -> PgStore:
        pool = await asyncpg.create_pool(
            url,
            min_size=min_size,
            max_size=max_size,
            init=_init_connection,
            reset=_reset_connection,
        )
        try:
            async with pool.acquire() as con:
                await migrate(con)
        except BaseException:
            await pool.close()
            raise
        store = cls(pool, clock or time.time, url)
        await store.prune_inbound()
        await store.prune_messages()
        return store

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        await self._release_idle()
        await self._pool.close()

    async def schema_version(self) -> int:
        value = await self._fetchval("SELECT max(version) FROM schema_version")
        return int(value or 0)

    @asynccontextmanager
    async def game_lock(self, pk: int) -> AsyncIterator[None]:
        """Hold game `pk` against every worker (read, apply, commit without a lost race).
        Within one process an asyncio lock queues the callers, so a game waits on the
        advisory lock with one connection at most; the store calls inside the lock use that
        connection (a held lock never needs a second one from the pool).

        The advisory lock costs no round trip of its own on a move's fast path (issue 23):
        it is taken by the first call inside that is not `commit_moves` — the re-read after
        a lost race, or any read — and `commit_moves` takes it as a transaction lock inside
        its own statement. So every commit of the game waits for a worker holding it, and
        the move that read under it commits at its next try; a move that read the game
        before the lock (the table reads it with the message) and commits at once needs
        two round trips in all, not four."""
        lock = self._locks.get(pk)
        if lock is None:
            lock = self._locks[pk] = asyncio.Lock()
        async with lock, self._borrow() as con:
            with self._holding(con, (_GAME_LOCK_NS, pk)) as held:
                try:
                    yield
                finally:
                    if held.locked and not con.is_closed():
                        try:
                            await con.execute(
                                "SELECT pg_advisory_unlock($1, $2)", _GAME_LOCK_NS, pk
                            )
                        except BaseException:
                            con.terminate()
                            raise

    # ------------------------------------------------------------------ wake-ups
    async def listen_wake(self, callback: Callable[[], None]) -> None:
        """Call `callback` whenever any worker committed a change to a due time."""
        if self._listener is None:
            self._listener = await asyncpg.connect(self.path)
        await self._listener.add_listener(WAKE_CHANNEL, lambda *_: callback())

    # ------------------------------------------------------------------ inbound de-duplication
    async def seen(self, platform: str, update_id: str) -> bool:
        row = await self._one(Q.seen, platform, update_id)
        return row is not None

    async def record_inbound(self, platform: str, update_id: str) -> bool:
        """Remember an update that changed nothing; False when it was already recorded."""
        status = await self._execute(Q.claim_inbound, platform, update_id, self._clock())
        return count(status) == 1

    async def prune_inbound(self) -> None:
        await self._execute(Q.prune_inbound, self._clock() - INBOUND_KEEP_SECONDS)

    @staticmethod
    async def _claim_inbound(
        con: asyncpg.Connection, inbound: tuple[str, str] | None, now: float
    ) -> bool:
        if inbound is None:
            return True
        status = await con.execute(Q.claim_inbound, inbound[0], inbound[1], now)
        return count(status) == 1

    async def _claim_or_abort(
        self, con: asyncpg.Connection, inbound: tuple[str, str] | None, now: float
    ) -> None:
        if not await self._claim_inbound(con, inbound, now):
            raise _Abort(Outcome.DUPLICATE)

    # ------------------------------------------------------------------ chats and users
    async def chat(self, chat_key: str) -> ChatRow:
        row = await self._one(Q.chat, chat_key)
        if row is None:
            return ChatRow(chat_key, None, {})
        return ChatRow(chat_key, row[0], json.loads(row[1]))

    async def set_chat_lang(self, chat_key: str, lang: str | None) -> None:
        await self._execute(Q.set_chat_lang, chat_key, lang)

    async def set_chat_settings(self, chat_key: str, settings: dict[str, Any]) -> None:
        async with self._tx() as con:
            await con.execute(Q.set_chat_settings, chat_key, json.dumps(settings, sort_keys=True))
            await self._notify(con)

    async def chat_names(self, chat_keys: Sequence[str]) -> dict[str, ChatName]:
        """The known names of these chats (a chat never named is left out)."""
        keys = sorted(set(chat_keys))
        if not keys:
            return {}
        rows = await self._all(
            "SELECT chat_key, title, link FROM chats WHERE chat_key = ANY($1::text[]) "
            "AND (title IS NOT NULL OR link IS NOT NULL)",
            keys,
        )
        return {r[0]: ChatName(r[1], r[2]) for r in rows}

    async def set_chat_name(self, chat_key: str, title: str | None, link: str | None) -> None:
        await self._execute(
            M.set_chat_name,
            chat_key,
            title,
            link,
        )

    async def pictures_refused(self, chat_key: str) -> float | None:
        """When the chat last refused the bot's pictures; None when they go."""
        at = await self._one(M.pictures_refused, chat_key)
        return None if at is None or at[0] is None else float(at[0])

    async def set_pictures_refused(
        self, chat_key: str, at: float | None, note: OutRow | None = None
    ) -> bool:
        """As bot/store_chats.py: the refusal and, at the first, its note in one transaction
        (the chat's row locked, so two workers refused at once queue one note)."""
        if note is None or at is None:
            await self._execute(M.set_pictures_refused, chat_key, at)
            return False
        async with self._tx() as con:
            before = await con.fetchval(M.pictures_refused + " FOR UPDATE", chat_key)
            await con.execute(M.set_pictures_refused, chat_key, at)
            if before is not None:
                return False
            await write_outbox(con, [note], self._clock())
            return True

    async def user(self, user_key: str) -> UserRow:
        row = await self._one(Q.user, user_key)
        if row is None:
            return UserRow(user_key, None, False)
        return UserRow(user_key, row[0], bool(row[1]))

    async def users(self, user_keys: Sequence[str]) -> dict[str, UserRow]:
        """Several users in one query (unknown users get the defaults)."""
        keys = sorted(set(user_keys))
        found = {k: UserRow(k, None, False) for k in keys}
        if keys:
            for r in await self._all(
                "SELECT user_key, lang, dm_ok FROM users WHERE user_key = ANY($1::text[])", keys
            ):
                found[r[0]] = UserRow(r[0], r[1], bool(r[2]))
        return found

    async def set_user(
        self, user_key: str, lang: str | None = None, dm_ok: bool | None = None
    ) -> None:
        await self._execute(
            "INSERT INTO users (user_key, lang, dm_ok) VALUES ($1, $2, $3) "
            "ON CONFLICT (user_key) DO UPDATE SET lang = coalesce(excluded.lang, users.lang), "
            "dm_ok = CASE WHEN $4::boolean IS NULL THEN users.dm_ok ELSE excluded.dm_ok END",
            user_key,
            lang,
            bool(dm_ok),
            dm_ok,
        )

    # ------------------------------------------------------------------ games
    async def load_message(
        self, chat_key: str, user_key: str, inbound: tuple[str, str] | None = None
    ) -> Loaded:
        """An inbound message's reads in one query (bot/store_load.py): the seats and their
        users come as one JSON array."""
        row = tuple(await self._one(_LOAD_SQL, chat_key, user_key, *(inbound or (None, None))))
        listed = load_state(row[18]) if row[18] else []
        seats = [SeatRow(row[17], s[0], s[1], s[2], s[3], s[4], s[5]) for s in listed]
        users = {k: UserRow(k, None, False) for k in [user_key, *(s.user_key for s in seats)]}
        users.update({s[1]: UserRow(s[1], s[6], bool(s[7])) for s in listed if s[8]})
        if row[5]:
            users[user_key] = UserRow(user_key, row[3], bool(row[4]))
        chat = ChatRow(chat_key, row[1], load_state(row[2])) if row[2] is not None else None
        # /me prefs set (those of the seated come inside the seats' array)
        prefs = [(s[1], s[9]) for s in listed if s[8] and s[9] and s[9] != "{}"]
        if row[5] and row[24] and row[24] != "{}":
            prefs.append((user_key, row[24]))
        return Loaded(
            bool(row[0]),
            chat or ChatRow(chat_key, None, {}),
            users[user_key],
            _game(row[6:17]) if row[17] is not None else None,
            seats,
            users,
            bool(row[19]),
            reminder_row(row[17], (*row[20:24], *row[25:29])) if row[20] is not None else None,
            {k: load_state(text) for k, text in prefs},
        )

    async def open_game(self, chat_key: str) -> GameRow | None:
        row = await self._one(Q.open_game, chat_key)
        return _game(row) if row else None

    async def game(self, pk: int) -> GameRow | None:
        row = await self._one(Q.game, pk)
        return _game(row) if row else None

    async def last_game(self, chat_key: str) -> GameRow | None:
        row = await self._one(Q.last_game, chat_key)
        return _game(row) if row else None

    async def seats(self, pk: int) -> list[SeatRow]:
        rows = await self._all(Q.seats, pk)
        return [SeatRow(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6]) for r in rows]

    async def turn_reads(self, pk: int, now: float) -> TurnReads:
        """A due turn's reads (`TurnReads`) in one query: the seats, the absences and the
        /me settings of the seated come as JSON arrays (one round trip for five)."""
        row = await self._one(_TURN_READS_SQL, pk, now)
        if row is None:
            return TurnReads(None, [], ChatRow("", None, {}), {}, {})
        game = _game(row[:11])
        seats = [SeatRow(pk, s[0], s[1], s[2], bool(s[3]), s[4], s[5]) for s in json.loads(row[11])]
        chat = ChatRow(game.chat_key, row[12], json.loads(row[13]) if row[13] else {})
        away = {k: float(t) for k, t in json.loads(row[14])}
        prefs = {s.user_key: {} for s in seats} | {
            k: json.loads(text or "{}") for k, text in json.loads(row[15])
        }
        return TurnReads(game, seats, chat, away, prefs)

    async def user_games(self, user_key: str, limit: int = 20) -> list[GameRow]:
        rows = await self._all(Q.user_games, user_key, limit)
        return [_game(r) for r in rows]

    async def recent_games(self, limit: int = 50) -> list[GameRow]:
        return [_game(r) for r in await self._all(Q.recent_games, limit)]

    async def create_game(
        self,
        chat_key: str,
        game_id: str,
        options: dict[str, str],
        creator: str,
        first_seat: tuple[str, str, str | None] | None,
        inbound: tuple[str, str] | None = None,
    ) -> tuple[Outcome, int]:
        """A new lobby; raises ChatBusy when the chat already has an open game."""
        now = self._clock()
        try:
            async with self._tx() as con:
                if not await self._claim_inbound(con, inbound, now):
                    return Outcome.DUPLICATE, 0
                pk = int(
                    await con.fetchval(
                        Q.new_game,
                        chat_key,
                        game_id,
                        json.dumps(options, sort_keys=True),
                        now,
                        now,
                        creator,
                    )
                )
                if first_seat is not None:
                    user_key, name, lang = first_seat
                    await con.execute(Q.first_seat, pk, user_key, name, lang)
        except asyncpg.UniqueViolationError as err:
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
        now = self._clock()
        async with self._tx() as con:
            # The game row lock serialises joins of one lobby (SQLite: the one writer).
            status = await con.fetchval(Q.lobby_status, pk)
            if status != "lobby":
                return Outcome.GONE, ""
            seats = await con.fetch(Q.lobby_seats, pk)
            if any(s[1] == user_key for s in seats):
                return Outcome.ALREADY, next(s[2] for s in seats if s[1] == user_key)
            if len(seats) >= max_players:
                return Outcome.FULL, ""
            if not await self._claim_inbound(con, inbound, now):
                return Outcome.DUPLICATE, ""
            name = unique_name(wanted_name, [s[2] for s in seats])
            seat = max((s[0] for s in seats), default=0) + 1
            await con.execute(Q.add_seat, pk, seat, user_key, name, is_bot, bot_kind, lang)
            await con.execute(Q.touch_game, now, pk)
        return Outcome.OK, name

    async def remove_seat(
        self, pk: int, user_key: str, inbound: tuple[str, str] | None = None
    ) -> Outcome:
        now = self._clock()
        async with self._tx() as con:
            status = await con.fetchval(Q.lobby_status, pk)
            if status != "lobby":
                return Outcome.GONE
            if not await self._claim_inbound(con, inbound, now):
                return Outcome.DUPLICATE
            done = await con.execute(Q.remove_seat, pk, user_key)
            if count(done) == 0:
                return Outcome.ABSENT
            await con.execute(Q.pass_creator, pk, pk, user_key, pk)
            await con.execute(Q.touch_game, now, pk)
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
        `entries` (bot moves right after the start) and the start's messages, in one
        transaction."""
        now = self._clock()
        version = 1 + (max(e.step for e in entries) + 1 if entries else 0)
        try:
            async with self._tx() as con:
                await con.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", pk)
                names = [r[0] for r in await con.fetch(Q.seat_names, pk)]
                if names != seat_names:
                    raise _Abort(Outcome.STALE)
                await self._claim_or_abort(con, inbound, now)
                done = await con.execute(
                    Q.start_game,
                    "over" if over else "active",
                    seed,
                    state_json,
                    version,
                    now,
                    pk,
                )
                if count(done) != 1:
                    raise _Abort(Outcome.GONE)
                await _append(con, pk, 1, entries, now)
                await self._write_due(con, pk, None if over else due)
                ids = await write_outbox(con, outbox, now)
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
        with the moves' messages (`outbox`) in the same transaction. Entries of step k get
        version expected + 1 + k; the game ends at the last step's version. `pressed`: the
        button's key noted beside `inbound` (bot/store.py)."""
        # One round trip, one statement (bot/store_pg_move.py): the version-checked UPDATE
        # locks the row to commit, so another worker's move of this game waits, then finds
        # the new version (STALE).
        live = None if over else due
        new_version = expected_version + 1 + max((e.step for e in entries), default=0)
        pressed = pressed if inbound is not None else None  # noted under the update's platform
        sql = commit_sql(
            over=over,
            waiting=live is not None,
            outbox=bool(outbox),
            anew=live is not None and live.anew,
            pressed=pressed is not None,
        )
        args = commit_args(
            pk,
            expected_version,
            new_version,
            entries,
            state_json,
            self._clock(),
            inbound,
            _GAME_LOCK_NS,
            live,
            outbox,
            self.to_notify(outbox),
            pressed,
        )
        try:
            async with self._con(lock=False) as con:
                ids = await con.fetchval(sql, *args)
        except asyncpg.PostgresError as err:
            if err.sqlstate == "BC001":
                return CommitResult(Outcome.STALE)
            raise
        if ids is None:
            return CommitResult(Outcome.DUPLICATE)
        return CommitResult(Outcome.OK, new_version, tuple(int(i) for i in ids))

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
            async with self._tx() as con:
                await self._claim_or_abort(con, inbound, now)
                done = await con.execute(
                    Q.undo_state,
                    state_json,
                    new_version,
                    now,
                    pk,
                    expected_version,
                )
                if count(done) != 1:
                    raise _Abort(Outcome.STALE)
                await con.execute(
                    "DELETE FROM actions WHERE game_id = $1 AND seq >= $2 AND seq <> ALL($3)",
                    pk,
                    from_seq,
                    list(keep),
                )
                await self._carry_due(con, pk, due)
                ids = await write_outbox(con, outbox, now)
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
        sql, args = Q.end_game, [status, now, pk]
        if expected_version is not None:
            sql, args = Q.end_game_at, [status, now, pk, expected_version]
        try:
            async with self._tx() as con:
                await self._claim_or_abort(con, inbound, now)
                if count(await con.execute(sql, *args)) != 1:
                    raise _Abort(Outcome.STALE)
                await con.execute(Q.drop_reminder, pk)
                await self._notify(con, pk)
                ids = await write_outbox(con, outbox, now)
        except _Abort as abort:
            return CommitResult(abort.outcome)
        return CommitResult(Outcome.OK, outbox_ids=tuple(ids))

    async def actions(self, pk: int, last: int | None = None) -> list[ActionRow]:
        if last is not None:
            rows = await self._all(Q.last_actions, pk, last)
            rows.reverse()
        else:
            rows = await self._all(Q.actions, pk)
        return [
            ActionRow(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), json.loads(r[6]), r[7], r[8])
            for r in rows
        ]

    # ------------------------------------------------------------------ reminders
    async def _write_due(self, con: asyncpg.Connection, pk: int, due: Due | None) -> None:
        if due is None:
            await con.execute(Q.drop_reminder, pk)
            await self._notify(con, pk)
            return
        players = players_json(due.players)
        await con.execute(
            Q.new_turn_upsert if due.anew else Q.due_upsert,
            pk,
            due.due_at,
            due.turn_started_at,
            players,
            due.ask_notified,
        )
        await self._notify(con, pk)

    async def _carry_due(self, con: asyncpg.Connection, pk: int, due: Due | None) -> None:
        """An undo's reminder row: the running turn goes on (bot/store_sql.py
        `carried_players`)."""
        if due is not None:
            stored = await con.fetchval(Q.reminder_players, pk)
            players = carried_players(stored, due)
            if players is not None:
                await con.execute(Q.widen_reminder, players, pk)
                await self._notify(con, pk)
                return
        await self._write_due(con, pk, due)

    async def finished_games(
        self, chat_key: str | None = None, user_key: str | None = None, limit: int = 1000
    ) -> list[FinishedGame]:
        """As bot/store.py: finished games of a chat or of a user, newest first, with seats."""
        cols = ", ".join("g." + c.strip() for c in _GAME_COLUMNS.split(","))
        where = ["g.status = 'over'"]
        params: list[Any] = []
        if user_key is not None:
            params.append(user_key)
            where.append(
                "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id "
                f"AND s.user_key = ${len(params)})"
            )
        if chat_key is not None:
            params.append(chat_key)
            where.append(f"g.chat_key = ${len(params)}")
        params.append(limit)
        rows = await self._all(
            f"SELECT {cols} FROM games g WHERE {' AND '.join(where)} "
            f"ORDER BY g.id DESC LIMIT ${len(params)}",
            *params,
        )
        games = [_game(r) for r in rows]
        if not games:
            return []
        found = await self._all(
            "SELECT game_id, seat, user_key, display_name, is_bot, bot_kind, lang FROM seats "
            "WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, seat",
            [g.id for g in games],
        )
        seats: dict[int, list[SeatRow]] = {}
        for r in found:
            seats.setdefault(r[0], []).append(
                SeatRow(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6])
            )
        return [FinishedGame(g, seats.get(g.id, [])) for g in games]


async def _append(
    con: asyncpg.Connection, pk: int, base: int, entries: Sequence[LogEntry], now: float
) -> None:
    """Append log entries (one statement); an entry of step k belongs to version base + 1 + k."""
    if not entries:
        return
    await con.execute(
        "INSERT INTO actions (game_id, seq, version, user_key, player, action_json, "
        "events_json, created_at, step) "
        "SELECT $1, m.s + e.n, $2 + 1 + e.st, e.u, e.p, e.a, e.v, $3, e.st "
        "FROM unnest($4::int[], $5::text[], $6::text[], $7::text[], $8::text[]) "
        "WITH ORDINALITY AS e (st, u, p, a, v, n), "
        "(SELECT coalesce(max(seq), 0) AS s FROM actions WHERE game_id = $1) AS m",
        pk,
        base,
        now,
        *log_arrays(entries),
    )
