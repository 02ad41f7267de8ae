from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest

from bot.store import Store
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path) -> str:
    return str(tmp_path / "boardchat.sqlite3")


@pytest.fixture
async def store(db_path: str, clock: FakeClock) -> AsyncIterator[Store]:
    s = await Store.open(db_path, clock=clock)
    yield s
    await s.close()


@pytest.fixture
def make_table(store: Store, clock: FakeClock) -> Callable[..., Table]:
    def make(**kw: object) -> Table:
        game = kw.pop("game", None) or ChatDicePile()
        kw.setdefault("seeder", lambda: 12345)
        return Table(store, games={"dicepile": game}, clock=clock, **kw)  # type: ignore[arg-type]

    return make


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    return make_table()


@pytest.fixture
def chat(table: Table) -> Chat:
    return Chat(table)
