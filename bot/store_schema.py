"""The SQLite schema of bot/store.py: numbered migrations, applied at start-up inside one
`BEGIN IMMEDIATE` transaction, so two processes starting together migrate once.
bot/store_pg_schema.py is PostgreSQL's twin."""

from __future__ import annotations

import aiosqlite

from bot import store_chats, store_outbox, store_plans
from bot.store_base import fetch, rollback
from bot.store_queries import ACTIONS_STEP

# Numbered migrations, applied in order at start-up; each is a tuple of statements run in one
# transaction together with the schema_version bump. Never edit a shipped migration: add one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            chat_key TEXT NOT NULL,
            game_id TEXT NOT NULL,
            options TEXT NOT NULL DEFAULT '{}',
            seed INTEGER,
            state_json TEXT,
            version INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'over', 'aborted')),
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            creator TEXT NOT NULL
        )""",
        # One open game per chat, enforced by the database even across processes.
        """CREATE UNIQUE INDEX games_one_open_per_chat ON games (chat_key)
            WHERE status IN ('lobby', 'active')""",
        """CREATE TABLE seats (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            user_key TEXT NOT NULL,
            display_name TEXT NOT NULL COLLATE NOCASE,
            is_bot INTEGER NOT NULL DEFAULT 0,
            bot_kind TEXT,
            lang TEXT,
            PRIMARY KEY (game_id, seat),
            UNIQUE (game_id, user_key),
            UNIQUE (game_id, display_name)
        )""",
        "CREATE INDEX seats_by_user ON seats (user_key)",
        """CREATE TABLE actions (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            version INTEGER NOT NULL,
            user_key TEXT NOT NULL,
            player TEXT NOT NULL,
            action_json TEXT NOT NULL,
            events_json TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID""",
        """CREATE TABLE inbound (
            platform TEXT NOT NULL,
            update_id TEXT NOT NULL,
            seen_at REAL NOT NULL,
            PRIMARY KEY (platform, update_id)
        ) WITHOUT ROWID""",
        """CREATE TABLE reminders (
            game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            due_at REAL NOT NULL,
            attempt INTEGER NOT NULL DEFAULT 0,
            turn_started_at REAL NOT NULL,
            players_json TEXT NOT NULL DEFAULT '[]'
        )""",
        "CREATE INDEX reminders_by_due ON reminders (due_at)",
        """CREATE TABLE chats (
            chat_key TEXT PRIMARY KEY,
            lang TEXT,
            settings_json TEXT NOT NULL DEFAULT '{}'
        )""",
        """CREATE TABLE users (
            user_key TEXT PRIMARY KEY,
            lang TEXT,
            dm_ok INTEGER NOT NULL DEFAULT 0
        )""",
    ),
    # 2: the reminder plan of a turn (bot/reminders.py), absences, votes, daily digests.
    # A reminders row with attempt = 0 is a turn nobody has planned yet (the move transaction
    # resets attempt); once planned, next_at is when the scheduler looks again and done_until
    # the latest reminder point (unshifted) already handled.
    (
        "ALTER TABLE reminders ADD COLUMN next_at REAL",
        "ALTER TABLE reminders ADD COLUMN done_until REAL",
        """CREATE INDEX reminders_by_next ON reminders
            ((CASE WHEN attempt = 0 THEN turn_started_at ELSE next_at END))""",
        """CREATE TABLE away (
            user_key TEXT PRIMARY KEY,
            since REAL NOT NULL,
            until REAL NOT NULL
        ) WITHOUT ROWID""",
        # A human seat played by a bot for now: seats.is_bot is set while the row exists.
        """CREATE TABLE autopilot (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            user_key TEXT NOT NULL,
            reason TEXT NOT NULL CHECK (reason IN ('expired', 'away', 'vote')),
            since REAL NOT NULL,
            until REAL,
            PRIMARY KEY (game_id, user_key)
        ) WITHOUT ROWID""",
        "CREATE INDEX autopilot_by_until ON autopilot (until) WHERE until IS NOT NULL",
        """CREATE TABLE votes (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            target TEXT NOT NULL,
            voter TEXT NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (game_id, target, voter)
        ) WITHOUT ROWID""",
        """CREATE TABLE digests (
            user_key TEXT PRIMARY KEY,
            chat_key TEXT NOT NULL,
            hour INTEGER NOT NULL,
            tz TEXT NOT NULL,
            next_at REAL NOT NULL
        ) WITHOUT ROWID""",
        "CREATE INDEX digests_by_next ON digests (next_at)",
    ),
    # 3: the durable message path: inbox and outbox (bot/store_outbox.py).
    store_outbox.MIGRATION,
    # 4: `last_game` without scanning every game (a chat's games, newest first).
    ("CREATE INDEX games_by_chat ON games (chat_key, id)",),
    # 5: chat titles and links (bot/store_chats.py).
    store_chats.MIGRATION,
    # 6: time that fits real lives (bot/store_plans.py): when a game started (its first turn's
    # clock, bot/clock.py; set by the status change itself) and each person's /me settings.
    store_plans.MIGRATION,
    # 7: each game's live status message (bot/store_outbox.py, issue 17).
    store_outbox.STATUS_MIGRATION,
    # 8: each logged move's place in its run (ActionRow.step): where a run's pictures stand.
    (ACTIONS_STEP,),
    # 9: chats that refused the bot's pictures (bot/store_chats.py, bot/outbox.py).
    store_chats.PICTURES_MIGRATION,
    # 10: when a turn's first notifying reminder went out (bot/expiry.py, bot/store_plans.py).
    store_plans.NOTIFIED_MIGRATION,
    # 11: whether a turn's ask notified its players (bot/expiry.py, bot/store_plans.py).
    store_plans.ASK_NOTIFIED_MIGRATION,
    # 12: each player's reminders in a turn (bot/expiry.py, bot/store_plans.py `Progress`).
    store_plans.PROGRESS_MIGRATION,
)


async def migrate(db: aiosqlite.Connection) -> None:
    await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    await db.execute("BEGIN IMMEDIATE")  # two processes starting at once: one migrates
    try:
        _rows = await fetch(db, "SELECT max(version) FROM schema_version")
        row = _rows[0] if _rows else None
        current = int(row[0] or 0) if row else 0
        for number, statements in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue
            for sql in statements:
                await db.execute(sql)
            await db.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
        await db.execute("COMMIT")
    except BaseException:
        await rollback(db)
        raise
