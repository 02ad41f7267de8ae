"""Games keep the name their edition has in the reader's language (issue 18) wherever the table
names them: /status, /help's command list, /games."""

from __future__ import annotations

import pytest

from bot.i18n import tr
from bot.store import Store
from bot.table import Table
from tests.bot.helpers import Chat, FakeClock

pg = pytest.importorskip("engine.powergrid")


@pytest.mark.parametrize("lang", ["ru", "pl", "zh_Hant"])
async def test_status_and_help_name_the_game_as_its_edition_is_called(
    store: Store, clock: FakeClock, lang: str
) -> None:
    table = Table(store, games={"powergrid": pg.GAME}, clock=clock, render=False)
    chat = Chat(table)
    await chat.say("alice", f"/lang {lang}")
    await chat.say("alice", "/new powergrid")
    await chat.say("bob", f"/lang {lang}")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    local = tr(lang, pg.GAME.name)
    assert local != pg.GAME.name  # the catalog names the edition
    status = "\n".join(o.text for o in await chat.say("alice", "/status"))
    help_text = "\n".join(o.text for o in await chat.say("alice", "/help"))
    for text in (status, help_text):
        assert local in text
        assert pg.GAME.name not in text
