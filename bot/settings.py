"""Settings from environment variables, optionally loaded from a `.env` file first."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

# name -> (default, description); .env.example lists exactly these.
SETTINGS: dict[str, tuple[str, str]] = {
    "TELEGRAM_TOKEN": ("", "Bot token from @BotFather; Telegram starts when set"),
    "TELEGRAM_WEBHOOK_URL": ("", "Public HTTPS URL for webhook mode; long polling when empty"),
    "TELEGRAM_WEBHOOK_LISTEN": ("0.0.0.0:8443", "host:port the webhook server listens on"),
    "TELEGRAM_API_BASE_URL": ("", "Self-hosted Bot API server, e.g. http://localhost:8081/bot"),
    "DISCORD_TOKEN": ("", "Bot token from the Discord developer portal; Discord starts when set"),
    "DISCORD_GUILD_ID": ("", "Sync slash commands to this guild only (fast, for testing)"),
    "BOARDCHAT_DB": ("./boardchat.sqlite3", "SQLite database file"),
    "BOARDCHAT_LOG_LEVEL": ("INFO", "DEBUG, INFO, WARNING or ERROR"),
    "BOARDCHAT_DEFAULT_LANG": ("en", "Language of a chat nobody has chosen one for"),
}


def load_dotenv(path: Path = Path(".env")) -> None:
    """Read KEY=VALUE lines into os.environ without overriding what is already set."""
    if not path.is_file():
        return
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        os.environ.setdefault(key.strip(), value.strip().strip("\"'"))


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
        )
