"""Settings from environment variables, optionally loaded from a `.env` file first
(python-dotenv: quotes, `export KEY=value` lines and inline `# comments` as a shell reads them)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import dotenv

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
    "BOARDCHAT_DEFAULT_LANG": ("en", "Language of a chat nobody has chosen one for"),
}


def load_dotenv(path: Path = Path(".env")) -> None:
    """Read KEY=VALUE lines into os.environ without overriding what is already set."""
    if path.is_file():
        dotenv.load_dotenv(path, override=False, encoding="utf-8")


def _shard_ids(text: str) -> tuple[int, ...]:
    """ "0,1, 4" -> (0, 1, 4); "2-5" ranges too; empty -> ()."""
    ids: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        low, dash, high = part.partition("-")
        ids += range(int(low), int(high) + 1) if dash else [int(part)]
    return tuple(ids)


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
        def get(name: str) -> str:
            return os.environ.get(name, SETTINGS[name][0])

        return cls(
            telegram_token=get("TELEGRAM_TOKEN"),
            telegram_webhook_url=get("TELEGRAM_WEBHOOK_URL"),
            telegram_webhook_listen=get("TELEGRAM_WEBHOOK_LISTEN"),
            telegram_api_base_url=get("TELEGRAM_API_BASE_URL"),
            discord_token=get("DISCORD_TOKEN"),
            discord_guild_id=get("DISCORD_GUILD_ID"),
            db=get("BOARDCHAT_DB"),
            log_level=get("BOARDCHAT_LOG_LEVEL").upper(),
            default_lang=get("BOARDCHAT_DEFAULT_LANG"),
            discord_shard_ids=_shard_ids(get("DISCORD_SHARD_IDS")),
            discord_shard_count=int(get("DISCORD_SHARD_COUNT") or 0) or None,
            workers=max(1, int(get("BOARDCHAT_WORKERS") or 1)),
            health_dir=get("BOARDCHAT_HEALTH_DIR"),
            health_max_age=float(get("BOARDCHAT_HEALTH_MAX_AGE") or 300),
            loop=get("BOARDCHAT_LOOP").strip().lower() or "auto",
        )
