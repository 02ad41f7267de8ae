import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot import cli
from bot.i18n import explain, normalize, tr
from bot.settings import SETTINGS, Settings, load_dotenv
from engine.core import IllegalAction

ROOT = Path(__file__).resolve().parents[2]


def test_run_without_tokens_exits_2_and_says_why(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TELEGRAM_TOKEN", raising=False)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(ROOT / "tests")  # no .env here
    assert cli.main(["run"]) == 2
    assert "TELEGRAM_TOKEN" in capsys.readouterr().err


def test_version_flag() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bot", "--version"], capture_output=True, text=True, check=True
    )
    assert out.stdout.startswith("boardchat ")


def test_dotenv_fills_only_unset_variables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = tmp_path / ".env"
    env.write_text("# comment\nBOARDCHAT_DB=/tmp/x.sqlite3\nBOARDCHAT_LOG_LEVEL='debug'\n")
    monkeypatch.delenv("BOARDCHAT_DB", raising=False)
    monkeypatch.setenv("BOARDCHAT_LOG_LEVEL", "WARNING")
    load_dotenv(env)
    settings = Settings.from_env()
    assert settings.db == "/tmp/x.sqlite3"
    assert settings.log_level == "WARNING"
    os.environ.pop("BOARDCHAT_DB", None)


def test_env_example_lists_every_setting_with_its_default() -> None:
    lines = (ROOT / ".env.example").read_text().splitlines()
    pairs = dict(
        line.removeprefix("# ").split("=", 1)
        for line in lines
        if re.fullmatch(r"(# )?[A-Z_]+=.*", line)
    )
    assert pairs == {name: default for name, (default, _help) in SETTINGS.items()}
    # Only the tokens are set: a line left as it is must not override an image's own
    # default (BOARDCHAT_DB=/data/... in the Dockerfile, the compose file's worker count).
    live = [line.split("=")[0] for line in lines if line and not line.startswith("#")]
    assert live == ["TELEGRAM_TOKEN", "DISCORD_TOKEN"]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("ru-RU", "ru"),
        ("pl", "pl"),
        ("zh-TW", "zh_Hant"),
        ("zh-hant", "zh_Hant"),
        ("de", "en"),
        (None, "en"),
    ],
)
def test_language_codes_map_to_catalogs(code: str | None, expected: str) -> None:
    assert normalize(code) == expected


def test_english_message_names_the_rule() -> None:
    error = IllegalAction("PG-22", "You cannot bid more than your money ({money} E).", money=12)
    assert explain("en", error) == "You cannot bid more than your money (12 E). (PG-22)"
    assert tr(None, "{n} cities", n=3) == "3 cities"
