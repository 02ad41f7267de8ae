"""The event loop `boardchat run` turns on (bot/eventloop.py, BOARDCHAT_LOOP): by default
uvloop on PostgreSQL and asyncio's own on SQLite, either on request, a clear refusal for
anything else."""

from __future__ import annotations

import asyncio
import sys
from types import CoroutineType
from typing import Any, cast

import pytest

from bot import cli, eventloop
from bot.settings import Settings, SettingsError


async def _loop_module() -> str:
    await asyncio.sleep(0)
    return type(asyncio.get_running_loop()).__module__.split(".")[0]


PG = "postgresql://boardchat@127.0.0.1/boardchat"


def test_auto_runs_postgresql_on_uvloop_which_the_package_installs_on_linux() -> None:
    if sys.platform == "win32":  # pragma: no cover - the dependency's marker leaves it out
        pytest.skip("uvloop is not a dependency on Windows")
    assert eventloop.uvloop_installed()  # pyproject's dependency, not an optional extra
    assert eventloop.run(_loop_module(), "auto", PG) == "uvloop"
    assert eventloop.loop_name("auto", "postgres://x/y") == "uvloop"


def test_auto_runs_sqlite_on_asyncio_and_either_loop_on_request() -> None:
    for db in ("./boardchat.sqlite3", "sqlite:///x.db", None):
        assert eventloop.run(_loop_module(), "auto", db) == "asyncio"
    assert eventloop.run(_loop_module(), "uvloop", "./boardchat.sqlite3") == "uvloop"
    assert eventloop.run(_loop_module(), "asyncio", PG) == "asyncio"


def test_asyncio_is_chosen_on_request() -> None:
    assert eventloop.run(_loop_module(), "asyncio") == "asyncio"
    assert eventloop.run(_loop_module(), " AsyncIO ") == "asyncio"
    assert eventloop.loop_name("asyncio") == "asyncio"


def test_auto_falls_back_to_asyncio_without_uvloop_but_uvloop_refuses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop now raises ImportError
    assert not eventloop.uvloop_installed()
    assert eventloop.run(_loop_module(), "auto", PG) == "asyncio"
    coro = _loop_module()
    with pytest.raises(eventloop.LoopError, match="not installed"):
        eventloop.run(coro, "uvloop")
    # closed, not left to warn "never awaited"
    assert cast("CoroutineType[Any, Any, str]", coro).cr_frame is None


def test_an_unknown_loop_is_refused_before_anything_starts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TELEGRAM_TOKEN", "1:x")
    monkeypatch.setenv("BOARDCHAT_LOOP", "trio")
    monkeypatch.setenv("BOARDCHAT_WORKERS", "1")
    with pytest.raises(SettingsError, match="BOARDCHAT_LOOP='trio': auto, uvloop, asyncio"):
        Settings.from_env()
    assert cli.main(["run"]) == 2
    assert "BOARDCHAT_LOOP='trio'" in capsys.readouterr().err


def test_the_setting_defaults_to_auto(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOARDCHAT_LOOP", raising=False)
    assert Settings.from_env().loop == "auto"
    monkeypatch.setenv("BOARDCHAT_LOOP", "")
    assert Settings.from_env().loop == "auto"
