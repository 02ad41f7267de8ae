"""The SQL both stores send, written once (issue 26): SQLite's store (bot/store.py) and the
PostgreSQL one (bot/store_pg.py) run the same statements, with two differences of dialect
that live here and nowhere else:

- placeholders: written `?` (SQLite); `postgres()` numbers them `$1, $2, ...` once, at import,
  so the hot path pays nothing for it;
- a few statements of another shape on one backend (`FOR UPDATE`, `RETURNING`, the subset
  test of the reminder upsert: `json_each` on SQLite, `jsonb @>` on PostgreSQL), given as
  overrides of the same named query.

Both dialects accept `ON CONFLICT ... DO NOTHING / DO UPDATE SET x = excluded.x` (SQLite 3.24+)
and `TRUE`/`FALSE`, so upserts are written once too. Statements only one backend sends (the
PostgreSQL move function, array parameters, SQLite's `executemany`) stay in their store.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, TypeVar

Q = TypeVar("Q")

GAME_COLUMNS = (
    "id, chat_key, game_id, options, seed, state_json, version, status, created_at, updated_at, "
    "creator"
)
SEAT_COLUMNS = "game_id, seat, user_key, display_name, is_bot, bot_kind, lang"
OPEN = "status IN ('lobby', 'active')"
# A migration both backends run (SQLite's 8th, PostgreSQL's 11th): each logged move's place
# in its run of moves (bot/store.py ActionRow.step).
ACTIONS_STEP = "ALTER TABLE actions ADD COLUMN step INTEGER NOT NULL DEFAULT 0"

# The reminder upsert: when nobody new must act (one of several simultaneous players moved),
# the clock of those still waiting keeps running and only the list shrinks; otherwise a new
# turn starts (attempt 0). `{same}` is the dialect's "the new list is a non-empty subset".
# `ask_notified` (migration 11 on SQLite, 14 on PostgreSQL): whether the ask of the turn
# notified every player it asked (bot/store.py `Due`), kept while the turn goes on.
_DUE_UPSERT = (
    "INSERT INTO reminders (game_id, due_at, attempt, turn_started_at, players_json, "
    "ask_notified) VALUES (?, ?, 0, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
    "due_at = CASE WHEN {same} THEN reminders.due_at ELSE excluded.due_at END, "
    "attempt = CASE WHEN {same} THEN reminders.attempt ELSE 0 END, "
    "turn_started_at = CASE WHEN {same} THEN reminders.turn_started_at "
    "ELSE excluded.turn_started_at END, "
    "ask_notified = CASE WHEN {same} THEN reminders.ask_notified "
    "ELSE excluded.ask_notified END, "
    "players_json = excluded.players_json"
)
# SQLite: the same upsert with the subset test evaluated once, not three times (two
# `json_each` scans each; issue 23: a third of the move's commit), and skipped when the list
# is the stored one (then every column would keep its value).
_SQLITE_DUE_UPSERT = (
    "INSERT INTO reminders (game_id, due_at, attempt, turn_started_at, players_json, "
    "ask_notified) VALUES (?, ?, 0, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
    "(due_at, attempt, turn_started_at, ask_notified) = (SELECT "
    "CASE WHEN k.same THEN reminders.due_at ELSE excluded.due_at END, "
    "CASE WHEN k.same THEN reminders.attempt ELSE 0 END, "
    "CASE WHEN k.same THEN reminders.turn_started_at ELSE excluded.turn_started_at END, "
    "CASE WHEN k.same THEN reminders.ask_notified ELSE excluded.ask_notified END "
    "FROM (SELECT {same} AS same) AS k), "
    "players_json = excluded.players_json "
    # the very same list (a third of the moves in bench/table_latency.py: one more bid, a
    # player still building) changes nothing: no row or index write, no `json_each` scans
    "WHERE reminders.players_json IS NOT excluded.players_json "
    "OR excluded.players_json = '[]'"
)
# A new turn for the players asked though they are (some of) those the stored turn waited for:
# one of them was asked again after others moved (bot/store.py `Due.anew`).
_NEW_TURN_UPSERT = (
    "INSERT INTO reminders (game_id, due_at, attempt, turn_started_at, players_json, "
    "ask_notified) VALUES (?, ?, 0, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
    "due_at = excluded.due_at, attempt = 0, turn_started_at = excluded.turn_started_at, "
    "players_json = excluded.players_json, ask_notified = excluded.ask_notified"
)
_SQLITE_SUBSET = (
    "(excluded.players_json <> '[]' AND NOT EXISTS (SELECT 1 FROM "
    "json_each(excluded.players_json) AS n WHERE n.value NOT IN "
    "(SELECT o.value FROM json_each(reminders.players_json) AS o)))"
)
_PG_SUBSET = (
    "(excluded.players_json <> '[]' AND "
    "reminders.players_json::jsonb @> excluded.players_json::jsonb)"
)
_ACTIONS = (
    "SELECT game_id, seq, version, user_key, player, action_json, events_json, created_at, "
    "step FROM actions WHERE game_id = ?"
)
_END_GAME = (
    f"UPDATE games SET status = ?, version = version + 1, updated_at = ? WHERE id = ? AND {OPEN}"
)


@dataclass(frozen=True)
class Queries:
    """One backend's statements, by name. Defaults: the SQLite text."""

    seen: str = "SELECT 1 FROM inbound WHERE platform = ? AND update_id = ?"
    claim_inbound: str = (
        "INSERT INTO inbound (platform, update_id, seen_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
    )
    prune_inbound: str = "DELETE FROM inbound WHERE seen_at < ?"
    chat: str = "SELECT lang, settings_json FROM chats WHERE chat_key = ?"
    set_chat_lang: str = (
        "INSERT INTO chats (chat_key, lang) VALUES (?, ?) "
        "ON CONFLICT (chat_key) DO UPDATE SET lang = excluded.lang"
    )
    set_chat_settings: str = (
        "INSERT INTO chats (chat_key, settings_json) VALUES (?, ?) "
        "ON CONFLICT (chat_key) DO UPDATE SET settings_json = excluded.settings_json"
    )
    user: str = "SELECT lang, dm_ok FROM users WHERE user_key = ?"
    open_game: str = f"SELECT {GAME_COLUMNS} FROM games WHERE chat_key = ? AND {OPEN}"
    game: str = f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?"
    last_game: str = f"SELECT {GAME_COLUMNS} FROM games WHERE chat_key = ? ORDER BY id DESC LIMIT 1"
    seats: str = f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat"
    user_games: str = (
        f"SELECT {', '.join('g.' + c.strip() for c in GAME_COLUMNS.split(','))} "
        "FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_key = ? "
        "AND g.status IN ('lobby', 'active') ORDER BY g.updated_at DESC LIMIT ?"
    )
    # `boardchat export` without a game: the admin's list (no index: an admin's rare read)
    recent_games: str = (
        f"SELECT {GAME_COLUMNS} FROM games ORDER BY updated_at DESC, id DESC LIMIT ?"
    )
    new_game: str = (
        "INSERT INTO games (chat_key, game_id, options, version, status, created_at, "
        "updated_at, creator) VALUES (?, ?, ?, 0, 'lobby', ?, ?, ?)"
    )
    first_seat: str = (
        "INSERT INTO seats (game_id, seat, user_key, display_name, is_bot, lang) "
        "VALUES (?, 1, ?, ?, FALSE, ?)"
    )
    # The lobby's status, read before its seats change (PostgreSQL: locking the game's row,
    # which serialises joins of one lobby; SQLite: the one writer already does).
    lobby_status: str = "SELECT status FROM games WHERE id = ?"
    lobby_seats: str = "SELECT seat, user_key, display_name FROM seats WHERE game_id = ?"
    add_seat: str = f"INSERT INTO seats ({SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
    remove_seat: str = "DELETE FROM seats WHERE game_id = ? AND user_key = ?"
    # A lobby whose creator leaves passes to the first person still seated (so somebody
    # may /start it); params: game, game, the seat's user, game.
    pass_creator: str = (
        "UPDATE games SET creator = (SELECT user_key FROM seats WHERE game_id = ? "
        "AND is_bot = FALSE ORDER BY seat LIMIT 1) WHERE id = ? AND creator = ? "
        "AND EXISTS (SELECT 1 FROM seats WHERE game_id = ? AND is_bot = FALSE)"
    )
    touch_game: str = "UPDATE games SET updated_at = ? WHERE id = ?"
    seat_names: str = "SELECT display_name FROM seats WHERE game_id = ? ORDER BY seat"
    start_game: str = (
        "UPDATE games SET status = ?, seed = ?, state_json = ?, version = ?, updated_at = ? "
        "WHERE id = ? AND status = 'lobby' AND version = 0"
    )
    undo_state: str = (
        "UPDATE games SET state_json = ?, version = ?, updated_at = ? "
        "WHERE id = ? AND version = ? AND status = 'active'"
    )
    end_game: str = _END_GAME
    end_game_at: str = _END_GAME + " AND version = ?"
    drop_reminder: str = "DELETE FROM reminders WHERE game_id = ?"
    due_upsert: str = _SQLITE_DUE_UPSERT.format(same=_SQLITE_SUBSET)
    new_turn_upsert: str = _NEW_TURN_UPSERT
    # an undo's turn (bot/store_sql.py `carried_players`): the waiting list read, then widened
    # with every other column kept
    reminder_players: str = "SELECT players_json FROM reminders WHERE game_id = ?"
    widen_reminder: str = "UPDATE reminders SET players_json = ? WHERE game_id = ?"
    actions: str = _ACTIONS + " ORDER BY seq"
    last_actions: str = _ACTIONS + " ORDER BY seq DESC LIMIT ?"


@dataclass(frozen=True)
class TimedQueries:
    """The scheduler's statements (bot/store_plans.py, bot/store_pg_timed.py): reminders,
    seats played by bots, absences, votes, digests. Defaults: the SQLite text."""

    reminder: str = (
        "SELECT game_id, due_at, attempt, turn_started_at, players_json, done_until, "
        "notified_at, ask_notified, progress_json FROM reminders WHERE game_id = ?"
    )
    due_reminders: str = (
        "SELECT game_id, due_at, attempt, turn_started_at, players_json FROM reminders "
        "WHERE due_at <= ? ORDER BY due_at LIMIT ?"
    )
    set_seat_bot: str = (
        "UPDATE seats SET is_bot = ?, bot_kind = ? WHERE game_id = ? AND user_key = ?"
    )
    seat_to_bot: str = (
        "UPDATE seats SET is_bot = TRUE, bot_kind = ? "
        "WHERE game_id = ? AND user_key = ? AND NOT is_bot"
    )
    seat_back: str = (
        "UPDATE seats SET is_bot = FALSE, bot_kind = NULL WHERE game_id = ? AND user_key = ?"
    )
    autopilot_exists: str = "SELECT 1 FROM autopilot WHERE game_id = ? AND user_key = ?"
    start_autopilot: str = (
        "INSERT INTO autopilot (game_id, user_key, reason, since, until) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, user_key) DO UPDATE SET "
        "reason = excluded.reason, until = excluded.until"
    )
    end_autopilot: str = "DELETE FROM autopilot WHERE game_id = ? AND user_key = ?"
    autopilots: str = (
        "SELECT game_id, user_key, reason, since, until FROM autopilot WHERE game_id = ?"
    )
    user_autopilots: str = (
        "SELECT a.game_id, a.user_key, a.reason, a.since, a.until FROM autopilot a "
        f"JOIN games g ON g.id = a.game_id WHERE a.user_key = ? AND g.{OPEN}"
    )
    ended_autopilots: str = (
        "SELECT game_id, user_key, reason, since, until FROM autopilot "
        "WHERE until IS NOT NULL AND until <= ? ORDER BY until LIMIT ?"
    )
    set_away: str = (
        "INSERT INTO away (user_key, since, until) VALUES (?, ?, ?) "
        "ON CONFLICT (user_key) DO UPDATE SET until = excluded.until"
    )
    clear_away: str = "DELETE FROM away WHERE user_key = ?"
    add_vote: str = (
        "INSERT INTO votes (game_id, target, voter, at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"
    )
    votes_against: str = (
        "SELECT voter FROM votes WHERE game_id = ? AND target = ? ORDER BY at, voter"
    )
    clear_votes: str = "DELETE FROM votes WHERE game_id = ? AND target = ?"
    set_digest: str = (
        "INSERT INTO digests (user_key, chat_key, hour, tz, next_at) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (user_key) DO UPDATE SET chat_key = excluded.chat_key, "
        "hour = excluded.hour, tz = excluded.tz, next_at = excluded.next_at"
    )
    clear_digest: str = "DELETE FROM digests WHERE user_key = ?"
    digest: str = "SELECT user_key, chat_key, hour, tz, next_at FROM digests WHERE user_key = ?"
    due_digests: str = (
        "SELECT user_key, chat_key, hour, tz, next_at FROM digests WHERE next_at <= ? "
        "ORDER BY next_at LIMIT ?"
    )
    claim_digest: str = "UPDATE digests SET next_at = ? WHERE user_key = ? AND next_at = ?"
    started_at: str = "SELECT started_at FROM games WHERE id = ?"
    # A person's prefs are changed in the transaction that holds his row (bot/store_plans.py
    # `update_user_prefs`): read (locked, on PostgreSQL), then written, or added.
    user_prefs_locked: str = "SELECT prefs_json FROM users WHERE user_key = ?"
    set_user_prefs: str = "UPDATE users SET prefs_json = ? WHERE user_key = ?"
    add_user_prefs: str = (
        "INSERT INTO users (user_key, prefs_json) VALUES (?, ?) ON CONFLICT (user_key) DO NOTHING"
    )


@dataclass(frozen=True)
class MessageQueries:
    """The durable message path's statements both stores share (bot/store_outbox.py,
    bot/store_pg_outbox.py; the outbox's own rows differ: leases on PostgreSQL) and chat
    names (bot/store_chats.py). Defaults: the SQLite text."""

    prune_inbox: str = "DELETE FROM inbox WHERE handled_at IS NOT NULL AND handled_at < ?"
    prune_outbox: str = "DELETE FROM outbox WHERE status <> 'pending' AND created_at < ?"
    inbox_pending: str = (
        "SELECT update_id, payload FROM inbox WHERE platform = ? AND handled_at IS NULL "
        "ORDER BY received_at, update_id LIMIT ?"
    )
    inbox_done: str = (
        "UPDATE inbox SET handled_at = ? WHERE platform = ? AND update_id = ? "
        "AND handled_at IS NULL"
    )
    status_message: str = "SELECT message_id, lines_json FROM status_messages WHERE game_id = ?"
    set_status_message: str = (
        "INSERT INTO status_messages (game_id, chat_key, message_id, lines_json, "
        "updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
        "chat_key = excluded.chat_key, message_id = excluded.message_id, "
        "lines_json = excluded.lines_json, updated_at = excluded.updated_at"
    )
    set_chat_name: str = (
        "INSERT INTO chats (chat_key, title, link) VALUES (?, ?, ?) "
        "ON CONFLICT (chat_key) DO UPDATE SET title = excluded.title, link = excluded.link"
    )
    pictures_refused: str = "SELECT pictures_refused_at FROM chats WHERE chat_key = ?"
    set_pictures_refused: str = (
        "INSERT INTO chats (chat_key, pictures_refused_at) VALUES (?, ?) "
        "ON CONFLICT (chat_key) DO UPDATE SET pictures_refused_at = excluded.pictures_refused_at"
    )


def postgres(queries: Q, **other_shapes: str) -> Q:
    """The same statements with numbered placeholders, and `other_shapes` (in `?` style) in
    place of those that differ on PostgreSQL."""
    texts: dict[str, Any] = {f.name: getattr(queries, f.name) for f in dataclasses.fields(queries)}  # type: ignore[arg-type]
    texts.update(other_shapes)
    return dataclasses.replace(queries, **{k: numbered(v) for k, v in texts.items()})  # type: ignore[type-var]


def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, ...` (a `?` inside a quoted literal stays)."""
    out: list[str] = []
    n = 0
    quoted = False
    for ch in sql:
        if ch == "'":
            quoted = not quoted
        if ch == "?" and not quoted:
            n += 1
            out.append(f"${n}")
        else:
            out.append(ch)
    return "".join(out)


SQLITE = Queries()
POSTGRES = postgres(
    SQLITE,
    lobby_status=SQLITE.lobby_status + " FOR UPDATE",
    new_game=SQLITE.new_game + " RETURNING id",
    due_upsert=_DUE_UPSERT.format(same=_PG_SUBSET),
)
TIMED_SQLITE = TimedQueries()
TIMED_POSTGRES = postgres(
    TIMED_SQLITE, user_prefs_locked=TIMED_SQLITE.user_prefs_locked + " FOR UPDATE"
)
MESSAGE_SQLITE = MessageQueries()
MESSAGE_POSTGRES = postgres(MESSAGE_SQLITE)
