"""Choose the store by `BOARDCHAT_DB`: `sqlite:///path`, a bare path (SQLite, the embedded
default) or `postgresql://user:password@host:port/database` (several workers, bot/store_pg.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from bot.store import Clock, Store

if TYPE_CHECKING:
    from bot import store_protocol

Backend = Literal["sqlite", "postgresql"]
_PG_SCHEMES = ("postgresql://", "postgres://")


def parse_db(url: str) -> tuple[Backend, str]:
    """("sqlite", file path) or ("postgresql", connection URL)."""
    if url.startswith(_PG_SCHEMES):
        return "postgresql", url
    if url.startswith("sqlite:///"):
        return "sqlite", url[len("sqlite:///") :]  # sqlite:////abs/path keeps its "/"
    if url.startswith("sqlite://"):
        raise ValueError(
            f"BOARDCHAT_DB: write sqlite:///relative/path or sqlite:////abs, not {url}"
        )
    if "://" in url:
        raise ValueError(f"BOARDCHAT_DB: unknown database URL scheme in {url.split('://')[0]!r}")
    return "sqlite", url


async def open_store(url: str, clock: Clock | None = None) -> store_protocol.Store:
    """Open (and migrate) the store `url` names (either backend implements the `Store`
    protocol; mypy checks both against it here)."""
    backend, target = parse_db(url)
    if backend == "postgresql":
        from bot.store_pg import PgStore  # asyncpg only when PostgreSQL is used

        return await PgStore.open(target, clock=clock)
    return await Store.open(target, clock=clock)
