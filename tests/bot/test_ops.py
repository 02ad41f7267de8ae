"""Operations (issue 23): backup, export and import by replay, the health check, `.env` read
with python-dotenv, and the worker supervisor's plan (sockets, Discord shard slices)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot import cli, health, ops
from bot import supervisor as workers
from bot.settings import Settings, load_dotenv
from bot.store import Store
from bot.table import Table
from engine.core import canonical_json
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock
from tests.pg import pg_server, pg_url  # noqa: F401  (fixtures)

ROOT = Path(__file__).resolve().parents[2]


async def played_game(db: str, clock: FakeClock, chat_key: str = "local:test") -> int:
    """A dice-pile game with a few moves (one of them two takes in one commit)."""
    from bot.storage import open_store

    store = await open_store(db, clock)
    table = Table(store, games={"dicepile": ChatDicePile()}, clock=clock, seeder=lambda: 99)
    chat = Chat(table, chat_key=chat_key)
    await chat.say("alice", "/new dicepile")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    for user, line in (("alice", "/take 2"), ("bob", "/takes 1 2"), ("alice", "/take 1")):
        await chat.say(user, line)
    row = await store.open_game(chat_key)
    assert row is not None
    await store.close()
    return row.id


# ---------------------------------------------------------------------- backup
async def test_backup_copies_a_live_sqlite_database(tmp_path: Path, clock: FakeClock) -> None:
    db = str(tmp_path / "live.sqlite3")
    pk = await played_game(db, clock)
    live = await Store.open(db, clock=clock)  # the bot keeps it open (WAL) meanwhile
    out = tmp_path / "copy.sqlite3"
    said = ops.backup(db, str(out), "0")
    await live.close()
    assert "backed up" in said
    with sqlite3.connect(out) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        copied = copy.execute("SELECT seq FROM actions WHERE game_id = ?", (pk,)).fetchall()
        assert copied == saved_actions(db, pk) and len(copied) == 4
    with pytest.raises(ops.OpsError):
        ops.backup(db, str(out), "0")  # never overwrites


def saved_actions(db: str, pk: int) -> list[tuple[int]]:
    with sqlite3.connect(db) as raw:
        return raw.execute("SELECT seq FROM actions WHERE game_id = ?", (pk,)).fetchall()


def test_backup_on_postgresql_prints_pg_dump_without_the_password() -> None:
    said = ops.backup("postgresql://bot:secret@db/boardchat", "nightly", "0")
    assert said.startswith("pg_dump --format=custom") and "nightly.dump" in said
    assert "secret" not in said and "pg_restore" in said


# ---------------------------------------------------------------------- export / import
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_export_then_import_replays_the_game(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path, clock: FakeClock
) -> None:
    db = str(tmp_path / "a.sqlite3") if backend == "sqlite" else request.getfixturevalue("pg_url")
    pk = await played_game(db, clock)
    data = await ops.export_game(db, pk)
    assert data["game"] == "dicepile" and data["seed"] is not None
    assert [s["display_name"] for s in data["seats"]] == ["alice", "bob"]
    assert [(a["player"], a["action"], a["version"]) for a in data["actions"]] == [
        ("alice", {"take": 2}, 2),
        ("bob", {"again": True, "take": 1}, 3),  # /takes 1 2: two actions, one commit
        ("bob", {"take": 2}, 3),
        ("alice", {"take": 1}, 4),
    ]
    text = json.dumps(data)  # what `boardchat export` writes
    games = {"dicepile": ChatDicePile()}
    with pytest.raises(ops.OpsError, match="open game"):
        await ops.import_game(db, json.loads(text), games)  # its chat is still playing it
    copy = await ops.import_game(db, json.loads(text), games, chat_key="local:copy")
    again = await ops.export_game(db, copy)
    assert canonical_json(again["state"]) == canonical_json(data["state"])
    strip = ("seq", "version", "created_at")
    assert [{k: v for k, v in a.items() if k not in strip} for a in again["actions"]] == [
        {k: v for k, v in a.items() if k not in strip} for a in data["actions"]
    ]
    # moves committed together stay together: the same grouping of the log into versions
    assert [a["version"] - again["actions"][0]["version"] for a in again["actions"]] == [
        a["version"] - data["actions"][0]["version"] for a in data["actions"]
    ]


async def test_import_keeps_each_run_of_moves_one_commit(tmp_path: Path, clock: FakeClock) -> None:
    """A person's move and the bot's after it were one commit (steps 0 and 1): the import
    commits them together again, so the runs (where a run's picture stands) survive it; a
    file from before the log kept steps imports one version per commit, as it did."""
    db = str(tmp_path / "bots.sqlite3")
    from bot.storage import open_store

    store = await open_store(db, clock)
    table = Table(store, games={"dicepile": ChatDicePile()}, clock=clock, seeder=lambda: 99)
    chat = Chat(table, chat_key="local:bots")
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/addbot")
    await chat.say("alice", "/start")
    for _ in range(2):
        await chat.say("alice", "/take 1")
    row = await store.open_game("local:bots")
    assert row is not None
    await store.close()
    data = await ops.export_game(db, row.id)
    steps = [a["step"] for a in data["actions"]]
    assert steps == [0, 1, 0, 1]  # alice's take and the bot's reply, twice
    games = {"dicepile": ChatDicePile()}
    copy = await ops.import_game(db, json.loads(json.dumps(data)), games, chat_key="local:c")
    again = await ops.export_game(db, copy)
    assert [a["step"] for a in again["actions"]] == steps
    old = json.loads(json.dumps(data))
    for a in old["actions"]:
        del a["step"]
    legacy = await ops.export_game(db, await ops.import_game(db, old, games, chat_key="local:o"))
    assert [a["step"] for a in legacy["actions"]] == [0] * len(steps)
    assert canonical_json(legacy["state"]) == canonical_json(data["state"])


async def test_import_refuses_a_log_that_does_not_replay_to_its_state(
    tmp_path: Path, clock: FakeClock
) -> None:
    db = str(tmp_path / "a.sqlite3")
    data = await ops.export_game(db, await played_game(db, clock))
    data["actions"][0]["action"] = {"take": 3}  # edited by hand
    with pytest.raises(ops.OpsError, match="does not replay"):
        await ops.import_game(db, data, {"dicepile": ChatDicePile()}, chat_key="local:x")
    with pytest.raises(ops.OpsError, match="not a boardchat-game"):
        await ops.import_game(db, {"format": "x"}, {})


async def test_import_names_an_action_the_rules_refuse(tmp_path: Path, clock: FakeClock) -> None:
    """A hand-edited log with an illegal move is a refusal naming that move, not a crash of
    `boardchat import` with the engine's traceback."""
    db = str(tmp_path / "a.sqlite3")
    data = await ops.export_game(db, await played_game(db, clock))
    data["actions"][1]["action"] = {"take": 7}  # dicepile takes 1-3 at a time
    with pytest.raises(ops.OpsError, match=r"action \d+ \(bob: .*refused by the rules"):
        await ops.import_game(db, data, {"dicepile": ChatDicePile()}, chat_key="local:x")


async def test_trust_log_imports_the_replay_of_a_log_whose_state_differs(
    tmp_path: Path, clock: FakeClock
) -> None:
    """An export written before an engine change to its events' wording no longer matches
    its log's replay (found 2026-12-03: PG-42's dropped orders after 19e54dc). The refusal
    names the first difference; --trust-log imports the replay, which is the game."""
    db = str(tmp_path / "a.sqlite3")
    data = await ops.export_game(db, await played_game(db, clock))
    replayed = canonical_json(data["state"])
    data["state"]["worded_by"] = "an older engine"
    games = {"dicepile": ChatDicePile()}
    with pytest.raises(ops.OpsError, match=r"state\.worded_by: only in the file.*--trust-log"):
        await ops.import_game(db, data, games, chat_key="local:x")
    pk = await ops.import_game(db, data, games, chat_key="local:x", trust_log=True)
    again = await ops.export_game(db, pk)
    assert canonical_json(again["state"]) == replayed
    assert len(again["actions"]) == len(data["actions"])


def test_first_difference_names_the_path_and_both_values() -> None:
    ours = {"players": {"ann": {"money": 15, "plants": [3, 4]}}, "round": 2}
    assert ops.first_difference(ours, ours) is None
    theirs = {"players": {"ann": {"money": 12, "plants": [3, 4]}}, "round": 2}
    assert (
        ops.first_difference(ours, theirs) == "state.players.ann.money: 12 in the file, 15 replayed"
    )
    theirs = {"players": {"ann": {"money": 15, "plants": [3]}}, "round": 2}
    assert ops.first_difference(ours, theirs) == (
        "state.players.ann.plants: 1 items in the file, 2 replayed"
    )


def test_cli_export_and_import_through_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    db = str(tmp_path / "cli.sqlite3")
    pk = asyncio.run(played_game(db, FakeClock()))
    monkeypatch.setenv("BOARDCHAT_DB", db)
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "game.json"
    assert cli.main(["export", str(pk), "--out", str(out)]) == 0
    assert json.loads(out.read_text())["id"] == pk
    assert cli.main(["export", "999"]) == 1
    assert "no game 999" in capsys.readouterr().err
    import bot.table

    monkeypatch.setattr(bot.table, "discover_games", lambda: {"dicepile": ChatDicePile()})
    data = json.loads(out.read_text())
    data["state"]["worded_by"] = "an older engine"
    out.write_text(json.dumps(data))
    assert cli.main(["import", str(out), "--chat", "local:cli2"]) == 1
    assert "first difference: state.worded_by" in capsys.readouterr().err
    assert cli.main(["import", str(out), "--chat", "local:cli2", "--trust-log"]) == 0
    assert capsys.readouterr().out.startswith("imported as game ")
    assert cli.main(["backup", "--out", str(tmp_path / "b.sqlite3")]) == 0
    assert (tmp_path / "b.sqlite3").is_file()


# ---------------------------------------------------------------------- health
def test_health_is_a_recent_beat_of_some_platform(tmp_path: Path) -> None:
    ok, said = health.check(300, now=1000.0, directory=tmp_path)
    assert not ok and "no heartbeat" in said
    health.beat("telegram", now=1000.0, directory=tmp_path)
    health.beat("discord", now=500.0, directory=tmp_path)
    assert health.last_beats(tmp_path) == {"telegram": 1000.0, "discord": 500.0}
    assert health.check(300, now=1200.0, directory=tmp_path) == (
        True,
        "healthy: discord 700 s ago, telegram 200 s ago",
    )
    ok, said = health.check(300, now=1400.0, directory=tmp_path)
    assert not ok and "nothing within 300 s" in said
    health.beat("telegram", now=1400.5, directory=tmp_path)
    health.beat("telegram", now=1401.0, directory=tmp_path)  # within a second: not written
    assert health.last_beats(tmp_path)["telegram"] == 1400.5
    with pytest.raises(ValueError):
        health.beat("../etc", directory=tmp_path)


def test_health_command_exit_code_for_the_healthcheck(tmp_path: Path) -> None:
    env = {**os.environ, "BOARDCHAT_HEALTH_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "bot", "health", "--max-age", "1e12"]
    assert subprocess.run(cmd, env=env, capture_output=True, cwd=tmp_path).returncode == 1
    health.beat("discord", directory=tmp_path)  # the adapters' one-function API
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("healthy: discord")


# ---------------------------------------------------------------------- .env
def test_dotenv_drops_inline_comments_and_reads_export_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "export TELEGRAM_TOKEN=123:abc\n"
        "BOARDCHAT_DB=/data/b.sqlite3  # the volume\n"
        'BOARDCHAT_DEFAULT_LANG="pl" # quoted\n'
        "DISCORD_GUILD_ID='#1 not a comment'\n"
        "DISCORD_SHARD_IDS=0-2,5\n"
        "DISCORD_SHARD_COUNT=8\n"
    )
    for name in (
        "TELEGRAM_TOKEN",
        "BOARDCHAT_DB",
        "BOARDCHAT_DEFAULT_LANG",
        "DISCORD_GUILD_ID",
        "DISCORD_SHARD_IDS",
        "DISCORD_SHARD_COUNT",
    ):
        monkeypatch.setenv(name, "")  # so that monkeypatch restores them afterwards
        monkeypatch.delenv(name)
    load_dotenv(env)
    s = Settings.from_env()
    assert (s.telegram_token, s.db, s.default_lang) == ("123:abc", "/data/b.sqlite3", "pl")
    assert s.discord_guild_id == "#1 not a comment"
    assert (s.discord_shard_ids, s.discord_shard_count) == ((0, 1, 2, 5), 8)


# ---------------------------------------------------------------------- workers
def settings(**kw: object) -> Settings:
    base = Settings.from_env()
    values = {**base.__dict__, "telegram_token": "", "discord_token": "", **kw}
    return Settings(**values)


def test_workers_deal_discord_shards_and_share_the_webhook_socket() -> None:
    assert workers.shard_slices(5, 2) == [[0, 2, 4], [1, 3]]
    s = settings(discord_token="t", telegram_token="x", telegram_webhook_url="https://h/tg")
    envs = workers.worker_envs(s, 3, listen_fd=7)
    assert [e["DISCORD_SHARD_IDS"] for e in envs] == ["0", "1", "2"]
    assert {e["DISCORD_SHARD_COUNT"] for e in envs} == {"3"}
    assert {e[workers.LISTEN_FD] for e in envs} == {"7"}
    one = settings(discord_shard_ids=(1, 3), discord_shard_count=4)
    assert workers.discord_shard_options(one) == {"shard_ids": [1, 3], "shard_count": 4}
    assert workers.discord_shard_options(settings()) == {}
    with pytest.raises(workers.WorkersError, match="webhook"):
        workers.worker_envs(settings(telegram_token="x"), 2, None)
    with pytest.raises(workers.WorkersError, match="smaller"):
        workers.worker_envs(settings(discord_token="t", discord_shard_count=1), 2, None)


def test_workers_accept_on_one_inherited_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    server = socket.create_server(("127.0.0.1", 0))
    monkeypatch.setenv(workers.LISTEN_FD, str(server.fileno()))
    inherited = workers.listen_socket()
    assert inherited is not None and inherited.getsockname() == server.getsockname()
    inherited.detach()
    server.close()
    monkeypatch.delenv(workers.LISTEN_FD)
    assert workers.listen_socket() is None
