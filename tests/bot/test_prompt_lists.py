"""The prompt names everybody it asks as its language lists them: "@ann, @bo: …" in English,
"@ann、@bo：…" in Chinese (found playing IEC in Chinese, 2026-12-03: "@ann, @bo: 第 1/20
回合…", an ASCII comma and colon in a Chinese line). IEC's phase 5 asks everyone at once."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store import Store
from bot.table import Table, discover_games
from tests.bot.helpers import FakeClock, joined
from tests.bot.test_table_integration import say


@pytest.fixture
async def table(db_path: str, clock: FakeClock) -> AsyncIterator[Table]:
    store = await Store.open(db_path, clock=clock)
    yield Table(store, games=discover_games(), clock=clock, render=False, seeder=lambda: 7)
    await store.close()


async def started(table: Table, lang: str) -> str:
    await say(table, "ann", f"/lang {lang}")  # the first table's creator sets the chat's
    await say(table, "ann", "/new iec")
    await say(table, "bo", "/join")
    return joined(await say(table, "ann", "/start"))


async def test_the_prompt_lists_the_players_it_asks_in_english(table: Table) -> None:
    assert "@ann, @bo: Turn 1/20" in await started(table, "en")


async def test_the_prompt_lists_the_players_it_asks_in_chinese(table: Table) -> None:
    text = await started(table, "zh-hant")
    assert "@ann、@bo：第 1/20 回合" in text
    assert "@ann, @bo" not in text
