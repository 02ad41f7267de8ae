"""Settings from environment variables, optionally loaded from a `.env` file first
(python-dotenv: quotes, `export KEY=value` lines and inline `# comments` as a shell reads them)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import dotenv

from bot.i18n import LANGUAGES, supported
from bot.storage import parse_db

# name -> (default, description); .env.example lists exactly these.
SETTINGS: dict[str, tuple[str, str]] = {
    "TELEGRAM_TOKEN": ("", "Bot token from @BotFather; Telegram starts when set"),
    "TELEGRAM_WEBHOOK_URL": ("", "Public HTTPS URL for webhook mode; long polling when empty"),
    "TELEGRAM_WEBHOOK_LISTEN": ("0.0.0.0:8443", "host:port the webhook server listens on"),
    "TELEGRAM_API_BASE_URL": ("", "Self-hosted Bot API server, e.g. http://localhost:8081/bot"),
    "DISCORD_TOKEN": ("", "Bot token from the Discord developer portal; Discord starts when set"),
    "DISCORD_GUILD_ID": ("", "Sync slash commands to this guild only (fast, for testing)"),
    "DISCORD_SHARD_IDS": ("", "Shards this process runs, e.g. 0,1 (all when empty)"),
    "DISCORD_SHARD_COUNT": ("", "Total Discord shards when sharding (Discord decides when empty)"),
    "BOARDCHAT_DB": (
        "./boardchat.sqlite3",
        "SQLite file (a path or sqlite:///path) or postgresql://user:pass@host/db",
    ),
    "BOARDCHAT_WORKERS": ("1", "Worker processes of `boardchat run` (webhook mode or shards)"),
    "BOARDCHAT_LOOP": (
        "auto",
        "Event loop: auto (uvloop on PostgreSQL, asyncio on SQLite), uvloop or asyncio",
    ),
    "BOARDCHAT_HEALTH_DIR": ("", "Heartbeat files of `boardchat health` (default: temp dir)"),
    "BOARDCHAT_HEALTH_MAX_AGE": ("300", "Seconds without a poll or heartbeat before unhealthy"),
    "BOARDCHAT_LOG_LEVEL": ("INFO", "DEBUG, INFO, WARNING or ERROR"),
    "BOARDCHAT_DEFAULT_LANG": (
        "en",
        "Language for people whose app language has no catalog (en, ru, zh_Hant, pl)",
    ),
}


def load_dotenv(path: Path = Path(".env")) -> None:
    """Read KEY=VALUE lines into os.environ without overriding what is already set."""
    if path.is_file():
        dotenv.load_dotenv(path, override=False, encoding="utf-8")


class SettingsError(ValueError):
    """A setting's value the bot cannot use; the message names the setting and the value."""

    def __init__(self, name: str, value: str, expected: str) -> None:
        super().__init__(f"{name}={value!r}: {expected}")


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
LOOPS = ("auto", "uvloop", "asyncio")


def _shard_ids(text: str) -> tuple[int, ...]:
    """ "0,1, 4" -> (0, 1, 4); "2-5" ranges too; empty -> ()."""
    ids: list[int] = []
    try:
        for part in text.replace(" ", "").split(","):
            if not part:
                continue
            low, dash, high = part.partition("-")
            ids += range(int(low), int(high) + 1) if dash else [int(part)]
    except ValueError:
        raise SettingsError("DISCORD_SHARD_IDS", text, "shard numbers such as 0,1 or 0-3") from None
    return tuple(ids)


def _number(name: str, text: str, kind: type[int] | type[float], low: float) -> float:
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or value < low:
        what = "a whole number" if kind is int else "a number of seconds"
        raise SettingsError(name, text, f"expected {what} of at least {low:g}")
    return value


@dataclass(frozen=True)
class Settings:
    telegram_token: str
    telegram_webhook_url: str
    telegram_webhook_listen: str
    telegram_api_base_url: str
    discord_token: str
    discord_guild_id: str
    db: str
    log_level: str
    default_lang: str
    discord_shard_ids: tuple[int, ...] = ()
    discord_shard_count: int | None = None
    workers: int = 1
    health_dir: str = ""
    health_max_age: float = 300.0
    loop: str = "auto"

    @classmethod
    def from_env(cls) -> Settings:
        """The settings of the environment; an empty value means the default (a `.env`
        line `BOARDCHAT_DB=` left blank). Raises SettingsError on a value it cannot use."""

        def get(name: str) -> str:
            return os.environ.get(name, "").strip() or SETTINGS[name][0]

        shards = get("DISCORD_SHARD_COUNT")
        lang = get("BOARDCHAT_DEFAULT_LANG")
        settings = cls(
            telegram_token=get("TELEGRAM_TOKEN"),
            telegram_webhook_url=get("TELEGRAM_WEBHOOK_URL"),
            telegram_webhook_listen=get("TELEGRAM_WEBHOOK_LISTEN"),
            telegram_api_base_url=get("TELEGRAM_API_BASE_URL"),
            discord_token=get("DISCORD_TOKEN"),
            discord_guild_id=get("DISCORD_GUILD_ID"),
            db=get("BOARDCHAT_DB"),
            log_level=get("BOARDCHAT_LOG_LEVEL").upper(),
            # "zh-TW" or "pl-PL" as a platform would say it: the catalog's name
            default_lang=supported(lang) or lang,
            discord_shard_ids=_shard_ids(get("DISCORD_SHARD_IDS")),
            discord_shard_count=int(_number("DISCORD_SHARD_COUNT", shards, int, 1))
            if shards
            else None,
            workers=int(_number("BOARDCHAT_WORKERS", get("BOARDCHAT_WORKERS"), int, 1)),
            health_dir=get("BOARDCHAT_HEALTH_DIR"),
            health_max_age=_number(
                "BOARDCHAT_HEALTH_MAX_AGE", get("BOARDCHAT_HEALTH_MAX_AGE"), float, 1
            ),
            loop=get("BOARDCHAT_LOOP").lower(),
        )
        settings.check()
        return settings

    def check(self) -> None:
        """The values that only make sense together or from a short list."""
        try:
            parse_db(self.db)
        except ValueError as err:
            raise SettingsError("BOARDCHAT_DB", self.db, str(err).split(": ", 1)[-1]) from None
        if self.log_level not in LOG_LEVELS:
            raise SettingsError("BOARDCHAT_LOG_LEVEL", self.log_level, ", ".join(LOG_LEVELS))
        if self.loop not in LOOPS:
            raise SettingsError("BOARDCHAT_LOOP", self.loop, ", ".join(LOOPS))
        if self.default_lang not in LANGUAGES:
            raise SettingsError(
                "BOARDCHAT_DEFAULT_LANG", self.default_lang, "one of " + ", ".join(LANGUAGES)
            )
        if self.discord_shard_count is not None:
            bad = [i for i in self.discord_shard_ids if not 0 <= i < self.discord_shard_count]
            if bad:
                raise SettingsError(
                    "DISCORD_SHARD_IDS",
                    ",".join(map(str, self.discord_shard_ids)),
                    f"shards are numbered 0 to {self.discord_shard_count - 1} "
                    f"(DISCORD_SHARD_COUNT={self.discord_shard_count})",
                )
