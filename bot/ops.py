"""What an admin runs beside the bot: `boardchat backup`, `boardchat export`, `boardchat import`.

- backup: an online copy of the SQLite database (sqlite3's backup API: consistent while the
  bot keeps writing); for PostgreSQL, the pg_dump / pg_restore commands to use.
- export: one game as JSON — its setup (game, options, seed, seats), the action log and the
  version and state it had; import: the same file replayed through the engine (the replay
  law: setup + log = state) into a new game of the database, checked against the exported
  state before anything is written. A file whose log no longer replays to its state (edited,
  or written by an engine whose events have changed since) is refused, naming the first
  difference; `--trust-log` imports the replay instead: the log is the game, the exported
  state only its check.
"""

from __future__ import annotations

import os
import shlex
import sqlite3
import time
from collections.abc import Mapping, Sequence
from itertools import groupby
from pathlib import Path
from typing import Any

from bot.deadlines import deadline_hours, turn_due
from bot.moment import Moment
from bot.storage import open_store, parse_db
from bot.store import ChatBusy, Clock, Due, LogEntry, Outcome
from engine.core import canonical_json, load_state
from engine.core.errors import IllegalAction
from engine.core.protocol import Game

FORMAT = "boardchat-game"
FORMAT_VERSION = 1


class OpsError(Exception):
    """A refusal with a message for the admin."""


# ---------------------------------------------------------------------- backup
def backup_sqlite(db_path: str, out: str) -> int:
    """Copy the live database to `out` page by page; returns the pages copied."""
    if not Path(db_path).is_file():
        raise OpsError(f"no SQLite database at {db_path}")
    if Path(out).exists():
        raise OpsError(f"{out} exists; choose another --out")
    folder = Path(out).parent
    if not folder.is_dir():
        raise OpsError(f"--out {out}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OpsError(f"--out {out}: cannot create a file in {folder}")
    pages = 0

    def progress(_status: int, _remaining: int, total: int) -> None:
        nonlocal pages
        pages = total

    try:
        src = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(out)
            try:
                with dst:
                    src.backup(dst, pages=1024, progress=progress)
            finally:
                dst.close()
        finally:
            src.close()
    except sqlite3.Error as err:
        raise OpsError(f"backup of {db_path} to {out} failed: {err}") from err
    return pages


def pg_dump_commands(out: str) -> str:
    """The commands that dump and restore a PostgreSQL database (the URL stays in the
    environment, so no password is printed)."""
    file = shlex.quote(out)
    return (
        f'pg_dump --format=custom --no-owner --file={file} --dbname="$BOARDCHAT_DB"\n'
        f'# restore: pg_restore --clean --if-exists --no-owner --dbname="$BOARDCHAT_DB" {file}'
    )


def backup(db: str, out: str | None, stamp: str) -> str:
    """Back up `db` (BOARDCHAT_DB) to `out` (default: boardchat-<stamp> with the backend's
    suffix): what was done, or what to run, as text."""
    backend, target = parse_db(db)
    if backend == "postgresql":
        out = out or f"boardchat-{stamp}.dump"
        return pg_dump_commands(out if out.endswith(".dump") else out + ".dump")
    out = out or f"boardchat-{stamp}.sqlite3"
    pages = backup_sqlite(target, out)
    return f"backed up {target} to {out} ({pages} pages)"


# ---------------------------------------------------------------------- export / import
async def list_games(db: str, limit: int = 50) -> list[str]:
    """One line a game, the last changed first: what `boardchat export GAME_ID` takes."""
    store = await open_store(db, existing=True)
    try:
        rows = await store.recent_games(limit)
        seats = {row.id: await store.seats(row.id) for row in rows}
    finally:
        await store.close()
    when = "%Y-%m-%d %H:%M"
    return [
        f"{row.id:>6}  {row.game_id:<14} {row.status:<8} "
        f"{time.strftime(when, time.gmtime(row.updated_at))} UTC  {row.chat_key}  "
        + ", ".join(s.display_name for s in seats[row.id])
        for row in rows
    ]


async def export_game(db: str, pk: int, clock: Clock | None = None) -> dict[str, Any]:
    store = await open_store(db, clock, existing=True)
    try:
        row = await store.game(pk)
        if row is None:
            raise OpsError(f"no game {pk} in {db}")
        seats = await store.seats(pk)
        actions = await store.actions(pk)
    finally:
        await store.close()
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "id": row.id,
        "chat_key": row.chat_key,
        "game": row.game_id,
        "options": row.options,
        "seed": row.seed,
        "status": row.status,
        "creator": row.creator,
        "created_at": row.created_at,
        "version": row.version,
        "seats": [
            {
                "seat": s.seat,
                "user_key": s.user_key,
                "display_name": s.display_name,
                "is_bot": s.is_bot,
                "bot_kind": s.bot_kind,
                "lang": s.lang,
            }
            for s in seats
        ],
        "actions": [
            {
                "seq": a.seq,
                "version": a.version,
                "user_key": a.user_key,
                "player": a.player,
                "action": a.action,
                "created_at": a.created_at,
                "step": a.step,
            }
            for a in actions
        ],
        "state": load_state(row.state_json) if row.state_json else None,
    }


def _runs(actions: Sequence[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """The exported log cut into the table's commits: a run of moves begins at a step 0 (a
    person's command and the bots' moves after it were one commit). A file written before
    the log kept steps has none: each version its own commit, as it was imported then."""
    runs: list[list[Mapping[str, Any]]] = []
    last = None
    for a in actions:
        if not runs or (a.get("step", 0) == 0 and a["version"] != last):
            runs.append([])
        runs[-1].append(a)
        last = a["version"]
    return runs


def _check_file(data: Mapping[str, Any]) -> None:
    if data.get("format") != FORMAT or data.get("format_version") != FORMAT_VERSION:
        raise OpsError(f"not a {FORMAT} file (version {FORMAT_VERSION})")
    if data["status"] == "lobby" or data["seed"] is None:
        raise OpsError("the game never started: nothing to replay")


def first_difference(ours: Any, theirs: Any, path: str = "state") -> str | None:
    """Where two plain-JSON values first differ ("state.players.ann.money: 12 against 15"),
    keys in sorted order; None when they are equal."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for key in sorted(set(ours) | set(theirs), key=str):
            if key not in ours or key not in theirs:
                return f"{path}.{key}: only in the {'replay' if key in ours else 'file'}"
            found = first_difference(ours[key], theirs[key], f"{path}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(ours, list) and isinstance(theirs, list):
        for i, (a, b) in enumerate(zip(ours, theirs, strict=False)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found is not None:
                return found
        if len(ours) != len(theirs):
            return f"{path}: {len(theirs)} items in the file, {len(ours)} replayed"
        return None
    if canonical_json(ours) == canonical_json(theirs):
        return None

    def short(value: Any) -> str:
        text = canonical_json(value)
        return text if len(text) <= 60 else text[:57] + "..."

    return f"{path}: {short(theirs)} in the file, {short(ours)} replayed"


def _replayed(
    game: Game, names: list[str], options: dict[str, Any], seed: int, actions: Sequence[Any]
) -> dict[str, Any]:
    """The log applied to the setup, as the table applied it; an action the rules refuse
    (a hand-edited file) is named, not raised as a crash."""
    state = game.setup(names, options, seed)
    for a in actions:
        try:
            state, _events = game.apply(state, a["player"], a["action"])
        except IllegalAction as err:
            raise OpsError(
                f"action {a.get('seq', '?')} ({a['player']}: {canonical_json(a['action'])}) "
                f"is refused by the rules: {err}; not imported"
            ) from err
    return state


def _due(game: Game, state: dict[str, Any], hours: float, clock: Clock | None) -> Due | None:
    """The imported turn's deadline row, so its reminders and expiry run as at the table."""
    return turn_due(Moment(game, state), (clock or time.time)(), hours)


async def import_game(
    db: str,
    data: Mapping[str, Any],
    games: Mapping[str, Game],
    *,
    chat_key: str | None = None,
    clock: Clock | None = None,
    trust_log: bool = False,
) -> int:
    """Replay an exported game into `db` as a new game of `chat_key` (default: the chat it
    came from); returns its id. Refuses a file whose log does not replay to its state,
    unless `trust_log`: then the replay is the game (an export written before an engine
    change to its events' wording replays to a state that differs in them only)."""
    _check_file(data)
    game = games.get(data["game"])
    if game is None:
        raise OpsError(f"unknown game {data['game']!r}")
    seats = sorted(data["seats"], key=lambda s: s["seat"])
    names = [s["display_name"] for s in seats]
    options = dict(data["options"])
    seed = int(data["seed"])
    actions = data["actions"]
    final = _replayed(game, names, options, seed, actions)
    exported = data.get("state")
    differs = first_difference(final, exported) if exported is not None else None
    if differs is not None and not trust_log:
        raise OpsError(
            f"the action log does not replay to the exported state (first difference: "
            f"{differs}): the file was edited, or written by another version of the engine; "
            "not imported (--trust-log imports the log's replay instead)"
        )
    chat = chat_key or data["chat_key"]
    store = await open_store(db, clock)
    try:
        try:
            outcome, pk = await store.create_game(
                chat, data["game"], options, data["creator"], None
            )
        except ChatBusy as err:
            raise OpsError(f"chat {chat} has an open game; import with --chat OTHER") from err
        assert outcome is Outcome.OK
        for s in seats:
            await store.add_seat(
                pk,
                s["user_key"],
                s["display_name"],
                max_players=len(seats),
                is_bot=bool(s["is_bot"]),
                bot_kind=s["bot_kind"],
                lang=s["lang"],
            )
        state = game.setup(names, options, seed)
        state_json = canonical_json(state)
        hours = deadline_hours((await store.chat(chat)).settings)
        result = await store.start_game(
            pk, seed, names, state_json, None if actions else _due(game, state, hours, clock)
        )
        if result.outcome is not Outcome.OK:
            raise OpsError(f"could not start the imported game: {result.outcome.value}")
        version = result.version
        # One commit per run: the moves the table committed together stay together.
        for run in _runs(actions):
            state = load_state(state_json)
            entries = []
            for step, (_v, group) in enumerate(groupby(run, key=lambda a: a["version"])):
                for a in group:
                    state, events = game.apply(state, a["player"], a["action"])
                    entries.append(
                        LogEntry(
                            a["user_key"],
                            a["player"],
                            canonical_json(a["action"]),
                            canonical_json(events),
                            step,
                        )
                    )
            state_json = canonical_json(state)
            result = await store.commit_moves(
                pk,
                version,
                entries,
                state_json,
                over=game.is_over(state),
                due=_due(game, state, hours, clock),  # the turn's clock starts at the import
            )
            if result.outcome is not Outcome.OK:
                raise OpsError(f"could not store the replayed log: {result.outcome.value}")
            version = result.version
        if data["status"] == "aborted":
            await store.end_game(pk, None, "aborted")
    finally:
        await store.close()
    return pk
