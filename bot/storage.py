"""Choose the store by `BOARDCHAT_DB`: `sqlite:///path`, a bare path (SQLite, the embedded
default) or `postgresql://user:password@host:port/database` (several workers, bot/store_pg.py).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit, urlunsplit

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


class StoreUnavailable(Exception):
    """The database cannot be opened: one line for the admin, naming it (no password).
    `config`: the setting is wrong (a missing folder, an unknown scheme), so trying again
    cannot help; otherwise the server may come back (`boardchat run` exits 1, not 2)."""

    def __init__(self, message: str, *, config: bool = False) -> None:
        super().__init__(message)
        self.config = config


def shown(url: str) -> str:
    """The database as an admin may see it in a message or a log: a URL's password hidden."""
    if parse_db(url)[0] != "postgresql":
        return url
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def check_target(url: str, *, existing: bool = False) -> None:
    """Refuse, before anything opens it, a SQLite file that cannot be: a missing folder, one
    the bot may not write in, or (`existing`: backup, export) a file that is not there, which
    opening would create empty."""
    try:
        backend, target = parse_db(url)
    except ValueError as err:
        raise StoreUnavailable(str(err), config=True) from None
    if backend != "sqlite":
        return
    path = Path(target)
    if existing and not path.is_file():
        raise StoreUnavailable(f"no database at {target}", config=True)
    folder = path.parent
    if not folder.is_dir():
        raise StoreUnavailable(
            f"BOARDCHAT_DB {target}: the folder {folder} does not exist", config=True
        )
    if not path.exists() and not os.access(folder, os.W_OK | os.X_OK):
        raise StoreUnavailable(
            f"BOARDCHAT_DB {target}: cannot create a file in {folder}", config=True
        )


async def open_store(
    url: str, clock: Clock | None = None, *, existing: bool = False
) -> store_protocol.Store:
    """Open (and migrate) the store `url` names (either backend implements the `Store`
    protocol; mypy checks both against it here). Raises StoreUnavailable, one line, when
    the database cannot be reached or opened."""
    check_target(url, existing=existing)
    backend, target = parse_db(url)
    if backend == "postgresql":
        import asyncpg  # only when PostgreSQL is used

        from bot.store_pg import PgStore

        try:
            return await PgStore.open(target, clock=clock)
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as err:
            raise StoreUnavailable(f"cannot open the database {shown(url)}: {err}") from err
    try:
        return await Store.open(target, clock=clock)
    except (OSError, sqlite3.Error) as err:
        raise StoreUnavailable(f"cannot open the database {target}: {err}") from err
