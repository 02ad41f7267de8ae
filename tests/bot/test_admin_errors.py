"""What a server admin meets (found by an admin's test run, 2026-12-04): settings and
databases the bot cannot use are said in one line with an exit status a supervisor can act on
(2: fix the setting; 1: try again), `--help` works whatever the environment holds, a rejected
token never reaches the log, a quiet Telegram bot stays healthy, an imported game keeps its
turn's clock, and `boardchat demo` checks its arguments and plays a fresh game every time."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

from bot import cli, health, ops
from bot.demo import run_demo
from bot.local import run_local
from bot.runner import PlatformsFailed, serve
from bot.service import PlatformError
from bot.settings import Settings, SettingsError
from bot.storage import open_store
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import FakeClock
from tests.bot.test_ops import played_game

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "123456789:AAEsecretsecretsecret"


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No setting from the developer's environment or a .env file."""
    for name in list(os.environ):
        if name.startswith(("BOARDCHAT_", "TELEGRAM_", "DISCORD_")):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ---------------------------------------------------------------------- settings
@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("BOARDCHAT_WORKERS", "two", "BOARDCHAT_WORKERS='two': expected a whole number"),
        ("BOARDCHAT_WORKERS", "0", "BOARDCHAT_WORKERS='0': expected a whole number of at least 1"),
        ("BOARDCHAT_HEALTH_MAX_AGE", "5m", "BOARDCHAT_HEALTH_MAX_AGE='5m'"),
        ("BOARDCHAT_LOG_LEVEL", "loud", "BOARDCHAT_LOG_LEVEL='LOUD': DEBUG, INFO"),
        ("BOARDCHAT_DEFAULT_LANG", "xx", "BOARDCHAT_DEFAULT_LANG='xx': one of en, ru"),
        ("BOARDCHAT_DB", "sqlite://x.db", "BOARDCHAT_DB='sqlite://x.db': write sqlite:///"),
        ("DISCORD_SHARD_COUNT", "many", "DISCORD_SHARD_COUNT='many'"),
    ],
)
def test_a_setting_the_bot_cannot_use_is_one_line_and_status_2(
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    value: str,
    said: str,
) -> None:
    monkeypatch.setenv(name, value)
    assert cli.main(["export"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"boardchat export: {said}") and err.count("\n") == 1
    with pytest.raises(SystemExit) as done:  # --help still answers
        cli.main(["--help"])
    assert done.value.code == 0


def test_shards_outside_the_count_are_refused(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_SHARD_IDS", "5")
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "2")
    with pytest.raises(SettingsError, match="shards are numbered 0 to 1"):
        Settings.from_env()


def test_an_empty_value_is_the_default_and_languages_take_catalog_names(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOARDCHAT_DB", "")  # a blank line of .env: not a nameless database
    monkeypatch.setenv("BOARDCHAT_WORKERS", " ")
    monkeypatch.setenv("BOARDCHAT_DEFAULT_LANG", "zh-TW")
    settings = Settings.from_env()
    assert (settings.db, settings.workers) == ("./boardchat.sqlite3", 1)
    assert settings.default_lang == "zh_Hant"


# ---------------------------------------------------------------------- databases
def test_a_database_in_a_missing_folder_is_said_not_a_traceback(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BOARDCHAT_DB", str(clean_env / "nowhere" / "b.sqlite3"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("alice: /new dicepile\n"))
    db = clean_env / "nowhere" / "b.sqlite3"
    assert cli.main(["local"]) == 2
    assert capsys.readouterr().err == (
        f"boardchat local: BOARDCHAT_DB {db}: the folder {db.parent} does not exist\n"
    )
    assert cli.main(["export", "1"]) == 2
    assert capsys.readouterr().err == f"boardchat export: no database at {db}\n"


def test_export_of_a_mistyped_database_creates_nothing(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BOARDCHAT_DB", "typo.sqlite3")
    assert cli.main(["export", "1"]) == 2
    assert capsys.readouterr().err == "boardchat export: no database at typo.sqlite3\n"
    assert not (clean_env / "typo.sqlite3").exists()


def test_an_unreachable_postgresql_is_status_1_without_its_password(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BOARDCHAT_DB", "postgresql://bot:hunter2@127.0.0.1:1/boardchat")
    assert cli.main(["export"]) == 1  # the server may come back: a supervisor tries again
    err = capsys.readouterr().err
    assert err.startswith("boardchat export: cannot open the database postgresql://bot:***@")
    assert "hunter2" not in err and err.count("\n") == 1


def test_backup_into_a_missing_folder_and_postgresql_default_name(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(clean_env / "b.sqlite3")
    asyncio.run(played_game(db, FakeClock()))
    monkeypatch.setenv("BOARDCHAT_DB", db)
    assert cli.main(["backup", "--out", str(clean_env / "no" / "b.sqlite3")]) == 1
    assert "the folder" in capsys.readouterr().err
    said = ops.backup("postgresql://bot:pw@db/boardchat", None, "20261204-2131")
    assert "--file=boardchat-20261204-2131.dump " in said  # not "….sqlite3.dump"


def test_export_without_a_game_lists_the_games_with_their_numbers(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(clean_env / "b.sqlite3")
    pk = asyncio.run(played_game(db, FakeClock()))
    monkeypatch.setenv("BOARDCHAT_DB", db)
    assert cli.main(["export"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert line.split()[:3] == [str(pk), "dicepile", "active"]
    assert line.endswith("local:test  alice, bob")


async def test_an_imported_game_keeps_its_turns_clock(tmp_path: Path, clock: FakeClock) -> None:
    """The import writes the current turn's reminder row (who must act, the deadline), so the
    scheduler reminds and expires it as at the table; before, it waited for a move."""
    db = str(tmp_path / "a.sqlite3")
    pk = await played_game(db, clock)
    data = await ops.export_game(db, pk)
    clock.advance(3600)
    copy = await ops.import_game(
        db, data, {"dicepile": ChatDicePile()}, chat_key="local:copy", clock=clock
    )
    store = await open_store(db, clock)
    try:
        loaded = await store.load_message("local:copy", "alice")
        original = await store.load_message("local:test", "alice")
    finally:
        await store.close()
    assert loaded.game is not None and loaded.game.id == copy
    assert loaded.reminder is not None and original.reminder is not None
    assert loaded.reminder.players == original.reminder.players == ["bob"]
    assert loaded.reminder.turn_started_at == clock.now
    assert loaded.reminder.due_at == clock.now + 24 * 3600


# ---------------------------------------------------------------------- platforms
async def test_every_platform_failing_stops_run_with_the_reason(tmp_path: Path) -> None:
    settings = Settings(
        telegram_token="",
        telegram_webhook_url="",
        telegram_webhook_listen="",
        telegram_api_base_url="",
        discord_token="",
        discord_guild_id="",
        db=str(tmp_path / "r.sqlite3"),
        log_level="INFO",
        default_lang="en",
    )

    async def rejected(_table: object, _settings: object) -> None:
        raise PlatformError("Telegram rejected TELEGRAM_TOKEN", config=True)

    async def unreachable(_table: object, _settings: object) -> None:
        raise PlatformError("cannot reach Discord: timeout", config=False)

    with pytest.raises(PlatformsFailed) as failed:
        await serve(settings, {"telegram": rejected})
    assert failed.value.config and str(failed.value) == (
        "telegram: Telegram rejected TELEGRAM_TOKEN"
    )
    with pytest.raises(PlatformsFailed) as failed:
        await serve(settings, {"telegram": rejected, "discord": unreachable})
    assert not failed.value.config  # one of them may come back: status 1


class FakeTelegram:
    """The Bot API on 127.0.0.1: `reject` answers 401 to everything (a wrong token), else
    getMe and empty long polls; it keeps the paths it was asked."""

    def __init__(self, reject: bool) -> None:
        self.reject = reject
        self.paths: list[str] = []

    async def handle(self, request: web.Request) -> web.Response:
        self.paths.append(request.path)
        if self.reject:
            body = {"ok": False, "error_code": 401, "description": "Unauthorized"}
            return web.json_response(body, status=401)
        method = request.path.rsplit("/", 1)[-1]
        if method == "getMe":
            me = {"id": 123456789, "is_bot": True, "first_name": "T", "username": "t_bot"}
            return web.json_response({"ok": True, "result": me})
        if method == "getUpdates":
            await asyncio.sleep(0.2)
            return web.json_response({"ok": True, "result": []})
        return web.json_response({"ok": True, "result": True})


async def fake_api(reject: bool) -> AsyncIterator[tuple[FakeTelegram, str]]:
    api = FakeTelegram(reject)
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", api.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield api, f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


async def boardchat(env: dict[str, str], *args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        env={**env, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


def run_env(tmp_path: Path, base_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BOARDCHAT_", "TELEGRAM_"))}
    return env | {
        "TELEGRAM_TOKEN": TOKEN,
        "TELEGRAM_API_BASE_URL": base_url,
        "DISCORD_TOKEN": "",
        "BOARDCHAT_DB": str(tmp_path / "run.sqlite3"),
        "BOARDCHAT_HEALTH_DIR": str(tmp_path / "health"),
    }


async def test_a_rejected_token_is_one_line_status_2_and_never_logged(tmp_path: Path) -> None:
    async for api, url in fake_api(reject=True):
        proc = await boardchat(run_env(tmp_path, url), "run")
        out, err = await asyncio.wait_for(proc.communicate(), 60)
        assert proc.returncode == 2
        text = (out + err).decode()
        assert "boardchat run: telegram: Telegram rejected TELEGRAM_TOKEN" in text
        assert "Traceback" not in text and "secret" not in text  # the token's tail
        assert api.paths  # it did ask


async def test_a_quiet_telegram_bot_beats_after_each_poll_and_logs_no_token(
    tmp_path: Path,
) -> None:
    """No update arrives, yet the health check passes: each answered getUpdates beats
    (before, only an update did, and a quiet bot's container turned unhealthy). httpx's
    request lines, which carry the token in their URL, are not logged at INFO."""
    async for api, url in fake_api(reject=False):
        env = run_env(tmp_path, url)
        proc = await boardchat(env, "run")
        try:
            for _ in range(300):
                if sum(p.endswith("/getUpdates") for p in api.paths) >= 3:
                    break
                await asyncio.sleep(0.1)
            check = await boardchat(env, "health", "--max-age", "60")
            said, _ = await asyncio.wait_for(check.communicate(), 60)
            assert check.returncode == 0 and said.decode().startswith("healthy: telegram")
        finally:
            proc.send_signal(signal.SIGTERM)
            out, err = await asyncio.wait_for(proc.communicate(), 60)
        assert proc.returncode == 0
        assert "secret" not in (out + err).decode()
        assert "getUpdates" not in (out + err).decode()


def test_the_default_health_folder_is_the_databases_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("BOARDCHAT_HEALTH_DIR", raising=False)
    monkeypatch.setenv("BOARDCHAT_DB", "/srv/a.sqlite3")
    first = health.health_dir()
    monkeypatch.setenv("BOARDCHAT_DB", "/srv/b.sqlite3")
    assert health.health_dir() != first and health.health_dir().parent == first.parent


# ---------------------------------------------------------------------- demo, local
async def test_demo_refuses_arguments_the_game_does_not_take_before_touching_files(
    tmp_path: Path,
) -> None:
    keep = tmp_path / "001-kept.png"
    keep.write_bytes(b"an earlier demo's picture")
    for args, said in (
        (("iec", 7, None, "en"), "played by 2 to 4 players, not 7."),
        (("powergrid", 3, "nosuch", "en"), "has no bot 'nosuch'; its bots: "),
        (("powergrid", 3, None, "xx"), "--lang xx: one of en, ru, zh_Hant, pl"),
        (("iec", 7, None, "pl"), "gra od 2 do 4 graczy, nie 7."),
    ):
        game, players, kind, lang = args
        out = io.StringIO()
        code = await run_demo(game, players, 1, str(tmp_path), None, kind, stdout=out, lang=lang)
        assert code == 2 and said in out.getvalue()
    assert keep.exists() and not (tmp_path / "demo.sqlite3").exists()


async def test_demo_in_the_same_database_plays_a_fresh_game_each_time(tmp_path: Path) -> None:
    """`make demo` run twice (its --db kept): the second run's updates are its own, so it
    plays and reports a new game, not the first one's dropped as duplicates."""
    db = str(tmp_path / "kept.sqlite3")
    said = []
    for _ in range(2):
        out = io.StringIO()
        code = await run_demo("powergrid", 2, 5, str(tmp_path), db, None, stdout=out)
        assert code == 0
        said.append(out.getvalue().splitlines()[0])
        assert (tmp_path / "log.txt").stat().st_size > 0
    assert said[0] == said[1] and " 0 moves" not in said[1], said


async def test_local_speaks_the_default_language_to_a_new_chat(tmp_path: Path) -> None:
    out = io.StringIO()
    await run_local(
        str(tmp_path / "l.sqlite3"),
        str(tmp_path / "pics"),
        stdin=io.StringIO("alice: /new hexania\n"),
        stdout=out,
        default_lang="pl",
    )
    assert "Nowy stół: Heksania" in out.getvalue()  # BOARDCHAT_DEFAULT_LANG=pl
