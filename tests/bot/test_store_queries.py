"""Issue 26: the SQL of both stores is written once (bot/store_queries.py); PostgreSQL's text
is SQLite's with numbered placeholders, but for the few shapes declared as its own."""

from __future__ import annotations

import dataclasses
import sqlite3
from typing import TYPE_CHECKING

from bot.store_pg import PgStore
from bot.store_queries import (
    MESSAGE_POSTGRES,
    MESSAGE_SQLITE,
    POSTGRES,
    SQLITE,
    TIMED_POSTGRES,
    TIMED_SQLITE,
    numbered,
)
from tests.pg import pg_server, pg_url  # noqa: F401  (fixtures)

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

# FOR UPDATE (a lobby, a person's prefs), RETURNING, jsonb @>
OWN_SHAPES = {"lobby_status", "new_game", "due_upsert", "user_prefs_locked"}
PAIRS: list[tuple[DataclassInstance, DataclassInstance]] = [
    (SQLITE, POSTGRES),
    (TIMED_SQLITE, TIMED_POSTGRES),
    (MESSAGE_SQLITE, MESSAGE_POSTGRES),
]


def test_placeholders_are_numbered_outside_quoted_literals() -> None:
    assert (
        numbered("SELECT ? , '?', ? FROM t WHERE a = ?")
        == "SELECT $1 , '?', $2 FROM t WHERE a = $3"
    )
    assert numbered("SELECT 1") == "SELECT 1"


def test_postgres_runs_the_same_statements_but_its_declared_shapes() -> None:
    for sqlite_text, pg_text in PAIRS:
        for field in dataclasses.fields(sqlite_text):
            lite, pg = getattr(sqlite_text, field.name), getattr(pg_text, field.name)
            assert "?" not in pg and "$" not in lite, field.name
            assert pg.count("$") == lite.count("?"), field.name  # the same parameters
            if field.name not in OWN_SHAPES:
                assert pg == numbered(lite), field.name
    assert POSTGRES.lobby_status.endswith("FOR UPDATE")
    assert TIMED_POSTGRES.user_prefs_locked.endswith("FOR UPDATE")
    assert POSTGRES.new_game.endswith("RETURNING id")
    assert "jsonb" in POSTGRES.due_upsert and "json_each" in SQLITE.due_upsert


def test_every_sqlite_statement_compiles_on_the_store_s_schema(db_path: str) -> None:
    """SQLite prepares each shared statement against the migrated schema (a typo in a
    column or in the shared upsert syntax fails here, not in a chat)."""
    from bot.store import MIGRATIONS

    con = sqlite3.connect(db_path)
    con.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    for statements in MIGRATIONS:
        for sql in statements:
            con.execute(sql)
    for queries, _ in PAIRS:
        for field in dataclasses.fields(queries):
            sql = getattr(queries, field.name)
            con.execute("EXPLAIN " + sql, [None] * sql.count("?"))
    con.close()


async def test_every_postgres_statement_prepares_on_the_store_s_schema(
    pg_url: str,  # noqa: F811
) -> None:
    store = await PgStore.open(pg_url)
    try:
        async with store._pool.acquire() as con:
            for _, queries in PAIRS:
                for field in dataclasses.fields(queries):
                    await con.prepare(getattr(queries, field.name))
    finally:
        await store.close()


def test_the_reminders_players_text_is_the_standard_encoders_whatever_the_order() -> None:
    """`players_json` keeps each set of players' text (bot/store_sql.py): byte for byte what
    `json.dumps(sorted(...), ensure_ascii=False)` wrote before, names outside ASCII kept."""
    import json

    from bot.store_sql import players_json

    for players in (["bob", "Ann"], ["Zoë", "ann", "李"], [], ['a"b'], ("cyd", "ann")):
        expected = json.dumps(sorted(players), ensure_ascii=False)
        assert players_json(players) == expected
        assert players_json(list(reversed(list(players)))) == expected  # cached: the same text


def test_sqlites_reminder_upsert_keeps_the_clock_while_no_new_player_waits() -> None:
    """The move's reminder write (SQLITE.due_upsert): the very same list is a no-op (skipped
    by its WHERE: no row write), a shrunk list keeps the clock, the attempt and whether the
    ask notified them, a new player or an empty list starts a new turn."""
    con = sqlite3.connect(":memory:")
    con.execute(
        "CREATE TABLE reminders (game_id INTEGER PRIMARY KEY, due_at REAL NOT NULL, "
        "attempt INTEGER NOT NULL DEFAULT 0, turn_started_at REAL NOT NULL, "
        "players_json TEXT NOT NULL DEFAULT '[]', next_at REAL, "
        "ask_notified INTEGER NOT NULL DEFAULT 0)"
    )

    def upsert(
        due_at: float, started: float, players: str, told: bool = False
    ) -> tuple[object, ...]:
        con.execute(SQLITE.due_upsert, (1, due_at, started, players, told))
        return con.execute(
            "SELECT due_at, attempt, turn_started_at, players_json, ask_notified FROM reminders"
        ).fetchone()

    assert upsert(100.0, 1.0, '["ann", "bob"]', True) == (100.0, 0, 1.0, '["ann", "bob"]', 1)
    con.execute("UPDATE reminders SET attempt = 2")  # the scheduler reminded them twice
    assert upsert(200.0, 2.0, '["ann", "bob"]') == (100.0, 2, 1.0, '["ann", "bob"]', 1)
    assert con.total_changes == 2  # the insert and the scheduler's: the same list wrote nothing
    assert upsert(300.0, 3.0, '["bob"]') == (100.0, 2, 1.0, '["bob"]', 1)  # ann moved
    assert upsert(400.0, 4.0, '["ann"]') == (400.0, 0, 4.0, '["ann"]', 0)  # a new turn
    assert upsert(500.0, 5.0, "[]", True) == (500.0, 0, 5.0, "[]", 1)
    assert upsert(600.0, 6.0, "[]") == (600.0, 0, 6.0, "[]", 0)  # an empty list is never "same"
