"""A move's commit on PostgreSQL as one statement (bot/store_pg.py `commit_moves`, issue 23).

Until migration 8 the commit called `boardchat_commit_moves`, a PL/pgSQL function running six
statements, each with its own snapshot, plan-cache check, executor start and end; the server
spent about as much CPU on that machinery as on the work. Here the same work is one statement
of data-modifying CTEs, prepared once per connection, in one of a few shapes chosen by what
the move does (the game ends, a reminder is kept or dropped, messages are written), so no
shape carries work or parameters it does not use:

- `held`: the game's advisory lock as a transaction lock (`game_lock`), taken before the game
  row is updated (the update's condition needs it);
- `claim`: the inbound update's de-duplication row (`ON CONFLICT DO NOTHING`);
- `moved`: the version-checked update of the game (only after a claim that inserted);
- `logged`: the log rows; `due`: the reminder kept, replaced or dropped; all of them only
  for a game that `moved`;
- `pressed` (a move made by a button of the prompt that stands now): the button's key noted
  beside the update's, so a second tap on it, wherever it lands, claims a taken key.
The answer is NULL for a duplicate (nothing changed), else the outbox row ids; a stale version
calls `boardchat_stale()` (migration 8), whose error rolls the claim back as before.

The statement's snapshot is taken before it waits for the lock, but that changes nothing: a
game row changed since is re-read by the update (read committed re-checks the condition on
the newest row), so a move that lost the race finds another version and is stale; and when
the update holds, no other move of the game committed since the snapshot, so its log's
`max(seq)` is current. `ON CONFLICT` (claim, reminder) always sees the newest rows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from bot.store import Due, LogEntry, OutRow
from bot.store_pg_timed import outbox_arrays
from bot.store_sql import players_json

# Each parameter's name and type, in the order of the arguments `commit_args` builds.
_MOVE = (
    ("game", "bigint"),
    ("expected", "integer"),
    ("version", "integer"),
    ("state", "text"),
    ("now", "double precision"),
    ("platform", "text"),
    ("update", "text"),
    ("ns", "integer"),
    ("steps", "integer[]"),
    ("users", "text[]"),
    ("players", "text[]"),
    ("actions", "text[]"),
    ("events", "text[]"),
)
_DUE = (
    ("due_at", "double precision"),
    ("started", "double precision"),
    ("waiting", "text"),
    ("told", "boolean"),
)
_OUTBOX = tuple(
    (f"o_{name}", kind)
    for name, kind in (
        ("platform", "text[]"),
        ("chat", "text[]"),
        ("audience", "text[]"),
        ("lang", "text[]"),
        ("kind", "text[]"),
        ("silent", "boolean[]"),
        ("body", "text[]"),
        ("png", "bytea[]"),
        ("game", "bigint[]"),
        ("sent", "boolean[]"),
        ("delay", "double precision[]"),
        ("notify", "text[]"),
    )
)

_CLAIM = """claim AS (
    INSERT INTO inbound (platform, update_id, seen_at)
    SELECT {platform}, {update}, {now} WHERE {platform} IS NOT NULL
    ON CONFLICT DO NOTHING RETURNING 1)"""
_MOVED = """moved AS (
    UPDATE games SET state_json = {state}, version = {version}, updated_at = {now}{status}
    WHERE id = {game} AND version = {expected} AND status = 'active'
        AND EXISTS (SELECT FROM held)
        AND ({platform} IS NULL OR EXISTS (SELECT FROM claim))
    RETURNING id)"""
_LOGGED = """logged AS (
    INSERT INTO actions (game_id, seq, version, user_key, player, action_json, events_json,
        created_at, step)
    SELECT m.id, last.seq + e.n, {expected} + 1 + e.st, e.u, e.p, e.a, e.v, {now}, e.st
    FROM moved AS m,
        (SELECT coalesce(max(seq), 0) AS seq FROM actions WHERE game_id = {game}) AS last,
        unnest({steps}, {users}, {players}, {actions}, {events})
            WITH ORDINALITY AS e (st, u, p, a, v, n))"""
# The same players still waiting (a simultaneous phase where one of them acted) keep their
# due time, attempt and whether their ask notified them (bot/store.py `Due`); others start a
# new turn.
_KEEP_DUE = """due AS (
    INSERT INTO reminders AS r (game_id, due_at, attempt, turn_started_at, players_json,
        ask_notified)
    SELECT id, {due_at}, 0, {started}, {waiting}, {told} FROM moved
    ON CONFLICT (game_id) DO UPDATE SET
        (due_at, attempt, turn_started_at, ask_notified) = (SELECT
            CASE WHEN k.same THEN r.due_at ELSE excluded.due_at END,
            CASE WHEN k.same THEN r.attempt ELSE 0 END,
            CASE WHEN k.same THEN r.turn_started_at ELSE excluded.turn_started_at END,
            CASE WHEN k.same THEN r.ask_notified ELSE excluded.ask_notified END
            FROM (SELECT excluded.players_json <> '[]'
                AND r.players_json::jsonb @> excluded.players_json::jsonb AS same) AS k),
        players_json = excluded.players_json
    -- the very same list keeps every column: no new row version (bot/store_queries.py)
    WHERE r.players_json IS DISTINCT FROM excluded.players_json
        OR excluded.players_json = '[]')"""
_PRESSED = """pressed AS (
    INSERT INTO inbound (platform, update_id, seen_at)
    SELECT {platform}, {pressed}, {now} FROM moved
    ON CONFLICT DO NOTHING)"""
# One of the players still waiting is asked again after others moved: a new turn all the same.
_NEW_DUE = """due AS (
    INSERT INTO reminders AS r (game_id, due_at, attempt, turn_started_at, players_json,
        ask_notified)
    SELECT id, {due_at}, 0, {started}, {waiting}, {told} FROM moved
    ON CONFLICT (game_id) DO UPDATE SET due_at = excluded.due_at, attempt = 0,
        turn_started_at = excluded.turn_started_at, players_json = excluded.players_json,
        ask_notified = excluded.ask_notified)"""
_DROP_DUE = "due AS (DELETE FROM reminders WHERE game_id = (SELECT id FROM moved))"
_ANSWER = """SELECT CASE
    WHEN NOT EXISTS (SELECT FROM moved) THEN
        CASE WHEN {platform} IS NOT NULL AND NOT EXISTS (SELECT FROM claim) THEN NULL
        ELSE boardchat_stale() END
    ELSE {ids}
    END"""
_OUTBOX_IDS = (
    "boardchat_outbox_put({now}, {o_platform}, {o_chat}, {o_audience}, {o_lang}, {o_kind}, "
    "{o_silent}, {o_body}, {o_png}, {o_game}, {o_sent}, {o_delay}, {o_notify})"
)


@cache
def commit_sql(
    *, over: bool, waiting: bool, outbox: bool, anew: bool = False, pressed: bool = False
) -> str:
    """The commit statement of this shape (a game that ends drops its reminder; `anew`: the
    players waiting start a new turn, bot/store.py `Due.anew`; `pressed`: a button's key is
    noted)."""
    params = (
        _MOVE
        + (_DUE if waiting else ())
        + (_OUTBOX if outbox else ())
        + ((("pressed", "text"),) if pressed else ())
    )
    due = (_NEW_DUE if anew else _KEEP_DUE) if waiting else _DROP_DUE
    text = (
        "WITH held AS MATERIALIZED (SELECT pg_advisory_xact_lock({ns}, {game}::integer)),\n"
        + ",\n".join(
            [_CLAIM, _MOVED, _LOGGED, due] + ([_PRESSED] if pressed else []),
        )
        + "\n"
        + _ANSWER.replace("{ids}", _OUTBOX_IDS if outbox else "'{{}}'::bigint[]")
    )
    text = text.replace("{status}", ", status = 'over'" if over else "")
    numbered = {name: f"(${i}::{kind})" for i, (name, kind) in enumerate(params, start=1)}
    used = set(re.findall(r"\{(\w+)\}", text))
    assert used == set(numbered), used ^ set(numbered)  # every parameter typed and used
    return text.format(**numbered)


def log_arrays(entries: Sequence[LogEntry]) -> list[list[Any]]:
    """The log entries as the column arrays an `unnest` appends: step, user, player, action,
    events."""
    return [
        [e.step for e in entries],
        [e.user_key for e in entries],
        [e.player for e in entries],
        [e.action_json for e in entries],
        [e.events_json for e in entries],
    ]


def commit_args(
    pk: int,
    expected_version: int,
    new_version: int,
    entries: Sequence[LogEntry],
    state_json: str,
    now: float,
    inbound: tuple[str, str] | None,
    lock_ns: int,
    due: Due | None,
    outbox: Sequence[OutRow],
    notify: Sequence[str] = (),
    pressed: str | None = None,
) -> list[Any]:
    """The arguments of `commit_sql` of the same shape (`due` None: the reminder is dropped;
    `notify`: the platforms whose sender loops in other workers are told of the rows;
    `pressed`: the button's key, noted with the move)."""
    args: list[Any] = [
        pk,
        expected_version,
        new_version,
        state_json,
        now,
        inbound[0] if inbound else None,
        inbound[1] if inbound else None,
        lock_ns,
        *log_arrays(entries),
    ]
    if due is not None:
        players = players_json(due.players)
        args += [due.due_at, due.turn_started_at, players, due.ask_notified]
    if outbox:
        args += [*outbox_arrays(outbox), list(notify)]
    if pressed is not None:
        args.append(pressed)
    return args
