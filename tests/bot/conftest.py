from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.scheduler import Scheduler
from bot.storage import open_store
from bot.store import Store
from bot.store_protocol import Store as AnyStore
from bot.table import Table
from engine.core import search
from engine.core.protocol import Game
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock, Outbox
from tests.pg import pg_server, pg_url  # noqa: F401  (fixtures)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "boardchat.sqlite3")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, db_path: str) -> str:
    """Both store backends: a SQLite file, and a throwaway PostgreSQL server (tests/pg.py,
    skipped with its reason where no server binary exists)."""
    if request.param == "sqlite":
        return f"sqlite:///{db_path}"
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
async def any_store(db_url: str, clock: FakeClock) -> AsyncIterator[AnyStore]:
    """The store of `db_url`: a test that takes it runs on each backend."""
    s = await open_store(db_url, clock=clock)
    yield s
    await s.close()


@pytest.fixture
async def store(db_path: str, clock: FakeClock) -> AsyncIterator[Store]:
    s = await Store.open(db_path, clock=clock)
    yield s
    await s.close()


@pytest.fixture
def make_table(store: Store, clock: FakeClock) -> Callable[..., Table]:
    def make(**kw: Any) -> Table:
        game: Game = kw.pop("game", None) or ChatDicePile()
        kw.setdefault("seeder", lambda: 12345)
        return Table(store, games={"dicepile": game}, clock=clock, **kw)

    return make


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    return make_table()


@pytest.fixture
def chat(table: Table) -> Chat:
    return Chat(table)


@pytest.fixture(autouse=True)
def _tiny_search_budget() -> Iterator[None]:
    """A seat handed to a bot plays `strong`, and /hint searches (issue 24): on a tiny
    iteration budget here (as in tests/engine/conftest.py), never on the wall clock."""
    before = search.override
    search.override = search.Budget(iterations=2, rollout_cap=2)
    yield
    search.override = before


@pytest.fixture
def outbox(table: Table) -> Outbox:
    """What the scheduler pushes to the "local" platform (tests/bot/helpers.py `Outbox`)."""
    return Outbox(table)


@pytest.fixture
def sched(table: Table, clock: FakeClock) -> Scheduler:
    return Scheduler(table, clock=clock)
