"""The terminal REPL, the bot demo and the platform runner."""

from __future__ import annotations

import asyncio
import io
import re
import signal
from pathlib import Path
from typing import Any

import pytest

from bot import gctune
from bot.demo import run_demo
from bot.local import run_local, split_line
from bot.runner import PlatformsFailed, Serve, serve
from bot.settings import Settings
from bot.table import Table
from tests.bot.helpers import skip_end_pictures


def test_split_line_names_the_speaker() -> None:
    assert split_line("alice: /bid 13 20", None) == ("alice", "/bid 13 20")
    assert split_line("  Bob Smith :  /join", "x") == ("Bob Smith", "/join")
    assert split_line("/pass", "carol") == ("carol", "/pass")
    assert split_line("/new powergrid", None) == (None, "/new powergrid")


async def test_local_hot_seat_session(tmp_path: Path) -> None:
    script = (
        "\n".join(
            [
                "/status",
                "alice: /new powergrid",
                "bob: /join",
                "alice: /start",
                "/board",
                "carol: /join",
                "quit",
                "alice: /status",
            ]
        )
        + "\n"
    )
    out = io.StringIO()
    code = await run_local(
        str(tmp_path / "db.sqlite3"), str(tmp_path / "pics"), stdin=io.StringIO(script), stdout=out
    )
    text = out.getvalue()
    assert code == 0
    assert "Who is speaking?" in text
    assert "bob joins" in text and "Power Grid begins!" in text
    assert "Player order, drawn at random (PG-10): " in text  # in the same post (PG-10)
    assert "already started" in text  # carol came too late
    pictures = sorted((tmp_path / "pics").glob("*.png"))
    assert pictures and str(pictures[0]) in text
    assert pictures[0].read_bytes().startswith(b"\x89PNG")
    # every picture of a set (map and panel) is saved and named in the transcript
    assert all(str(p) in text for p in pictures)
    assert len(pictures) > text.count("[picture]") > 0
    # a second session on the same folder numbers on: the first one's pictures stay
    first = {p.name: p.read_bytes() for p in pictures}
    again = io.StringIO()
    code = await run_local(
        str(tmp_path / "db.sqlite3"),
        str(tmp_path / "pics"),
        stdin=io.StringIO("alice: /board\nalice: /replay\nquit\n"),
        stdout=again,
    )
    assert code == 0
    after = sorted((tmp_path / "pics").glob("*.png"))
    assert {p.name: p.read_bytes() for p in after if p.name in first} == first
    new = [p for p in after if p.name not in first]
    assert new and all(str(p) in again.getvalue() for p in new)
    assert int(new[0].stem) == len(first) + 1
    # the replay's animation is saved as a chat would attach it, numbered on as well
    (replay,) = [p for p in (tmp_path / "pics").iterdir() if "-replay." in p.name]
    assert "[file] " in again.getvalue() and str(replay) in again.getvalue()
    assert int(replay.name.split("-")[0]) == int(new[-1].stem) + 1 and replay.stat().st_size


async def test_local_private_chat_lines(tmp_path: Path) -> None:
    """`dm name: /command` is said in that person's private chat: a question answered there,
    a move played at the table with the table's part shown as the group's."""
    script = "\n".join(
        [
            "alice: /new powergrid regions=random",  # from the auction on
            "bob: /join",
            "alice: /start",  # bob, then alice: the order is drawn (PG-10)
            "dm bob: /status",
            "dm carol: /status",
            "dm alice: /start",
            "dm bob: /orders",  # a reply only he reads, in his private chat
            "quit",
        ]
    )
    out = io.StringIO()
    code = await run_local(
        str(tmp_path / "db.sqlite3"), str(tmp_path / "p"), stdin=io.StringIO(script), stdout=out
    )
    text = out.getvalue()
    assert code == 0
    status = next(line for line in text.splitlines() if line.startswith("(private, bob) "))
    assert status.startswith("(private, bob) Power Grid, waiting for ")
    assert "auction" in text.split(status, 1)[1].split("\n\n", 1)[0]  # the turn follows
    assert "(private, carol) No game here yet" in text
    assert "(private, alice) Hello! I run board games" in text
    assert "(private, bob) You have no standing orders." in text  # not "(to bob)" again
    first = next(line for line in text.splitlines() if "choose a plant to auction" in line)
    mover = "alice" if "alice: choose" in first else "bob"
    again = io.StringIO()
    await run_local(
        str(tmp_path / "db.sqlite3"),
        str(tmp_path / "p"),
        stdin=io.StringIO(f"dm {mover}: /bid 3\nquit\n"),
        stdout=again,
    )
    played = again.getvalue()
    assert f"{mover} puts plant 3 up for auction" in played  # the group's part, pushed
    assert f"(private, {mover}) Done in Power Grid; announced in" in played


async def test_demo_plays_a_power_grid_game_to_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    skip_end_pictures(monkeypatch)  # this test reads the log, the board pictures, the summary
    out = io.StringIO()
    code = await run_demo("powergrid", 3, 11, str(tmp_path), None, "heuristic", stdout=out)
    assert code == 0, out.getvalue()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Power Grid: 3 × heuristic bot, seed 11, ")
    assert lines[1].startswith("1. Bot")
    log = (tmp_path / "log.txt").read_text(encoding="utf-8")
    assert "Power Grid begins!" in log and "Game over after round" in log
    pngs = sorted(p.name for p in tmp_path.glob("*.png"))
    assert pngs[0].startswith("001-") and any("auction" in p for p in pngs)
    assert any(p.endswith("-2.png") for p in pngs)  # the second picture of a set is kept too
    # the same seed plays the same game
    again = io.StringIO()
    assert await run_demo("powergrid", 3, 11, str(tmp_path), None, "heuristic", stdout=again) == 0
    assert again.getvalue() == out.getvalue()
    assert await run_demo("nogame", 3, 1, str(tmp_path), None, "heuristic", stdout=again) == 2


def settings(tmp_path: Path, **kw: str) -> Settings:
    base: dict[str, Any] = dict(
        telegram_token="",
        telegram_webhook_url="",
        telegram_webhook_listen="",
        telegram_api_base_url="",
        discord_token="",
        discord_guild_id="",
        db=str(tmp_path / "run.sqlite3"),
        log_level="INFO",
        default_lang="en",
    )
    base.update(kw)
    return Settings(**base)


@pytest.fixture(autouse=True)
def settled(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """`serve` settles the collector of the whole process (bot/gctune.py): here it only
    records that it did, so the test process's collector stays as it was."""
    calls: list[bool] = []
    monkeypatch.setattr(gctune, "settle", lambda: calls.append(True))
    return calls


async def test_runner_serves_platforms_until_a_signal(tmp_path: Path, settled: list[bool]) -> None:
    started: list[str] = []
    cancelled: list[str] = []
    both = asyncio.Event()

    def platform(name: str) -> Serve:
        async def serve_platform(table: Table, settings: Settings) -> None:
            started.append(name)
            if len(started) == 2:
                both.set()
            assert table.command_specs()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.append(name)
                raise

        return serve_platform

    runner = asyncio.create_task(
        serve(settings(tmp_path), {"telegram": platform("tg"), "discord": platform("dc")})
    )
    await asyncio.wait_for(both.wait(), 10)
    assert sorted(started) == ["dc", "tg"]
    assert settled == [True]  # once the table is open
    signal.raise_signal(signal.SIGTERM)
    await asyncio.wait_for(runner, 5)
    assert sorted(cancelled) == ["dc", "tg"]


async def test_runner_keeps_going_when_one_platform_fails(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(table: Table, settings: Settings) -> None:
        raise RuntimeError("bad token")

    async def quick(table: Table, settings: Settings) -> None:
        await asyncio.sleep(0)

    await asyncio.wait_for(serve(settings(tmp_path), {"telegram": broken, "discord": quick}), 5)
    assert "telegram" in caplog.text or "platform:telegram" in caplog.text


async def test_runner_without_platforms_stops_with_a_configuration_error(
    tmp_path: Path,
) -> None:
    """Tokens set but no platform module loads (a missing optional dependency, logged):
    `boardchat run` says so and exits 2 (before, it returned as if stopped on purpose)."""
    with pytest.raises(PlatformsFailed, match="no platform could load") as failed:
        await serve(settings(tmp_path), {})
    assert failed.value.config


@pytest.mark.parametrize("token", ["telegram_token", "discord_token"])
def test_platform_modules_are_imported_only_with_a_token(tmp_path: Path, token: str) -> None:
    from bot.runner import platform_servers

    assert platform_servers(settings(tmp_path)) == {}
    found = platform_servers(settings(tmp_path, **{token: "x"}))
    assert list(found) in (["telegram"], ["discord"], [])


async def test_local_runs_the_tables_timed_work_after_each_line(tmp_path: Path) -> None:
    """`boardchat local` runs the scheduler's due work after each line, as `boardchat run`
    does in the background: a seat a bot plays for someone /away is played (found playing,
    2026-12-04: "a bot plays for you here", and then the table waited for her forever) while
    another person is at the table; alone with bots, the table says at once that the game
    waits for her (bot/reminders.py `unattended`). Once the game is over, a game command
    says so, not "No game here yet"."""
    script = "\n".join(
        [
            "alice: /settings policy=bot",
            "alice: /new hexania rounds=5",
            "alice: /addbot",
            "alice: /start",
            "alice: /away 1h",
            "alice: /back",
            "alice: /settings policy=skip",
            "alice: /away 1h",
            "alice: /abort confirm",
            "alice: /hint",
            "dm alice: /status",
            "dm alice: /log",
        ]
    )
    text = await _session(tmp_path, script)
    alone = text.split("Here your turns wait for you", 1)[1].split("Welcome back", 1)[0]
    assert "the game waits for alice instead of playing itself out" in alone
    assert not re.search(r"^alice: ", alone.split("the game waits", 1)[1], re.MULTILINE)
    after = text.split("Here your turns get the default move", 1)[1]
    # under skip, alone too: nothing is played for her; the game ended by /abort, a game
    # command says so (the end of a played game in private: test_private_chat.py)
    assert "Ranking: 1." not in after
    assert "This game is over. /new starts another." in after


async def _session(tmp_path: Path, script: str) -> str:
    """What `boardchat local` prints for `script` (its lines, then EOF) on tmp_path's files."""
    out = io.StringIO()
    code = await run_local(
        str(tmp_path / "db.sqlite3"), str(tmp_path / "p"), stdin=io.StringIO(script), stdout=out
    )
    assert code == 0
    return out.getvalue()
