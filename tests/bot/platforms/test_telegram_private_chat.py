"""The private chat on Telegram, through the real table (dice pile) and the real Application
over the fake Bot API: /status, /log and /undo sent to the bot privately are about the
sender's game in the group and answered in his private chat; a move sent there is played in
the group; /start there greets (found playing, 2026-12-03: they said "No game here yet")."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.store import Store
from tests.bot.helpers import FakeClock
from tests.bot.platforms.test_chat_names import ANN, BOB, FRIDAY, World, running_world

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
async def world(store: Store, clock: FakeClock) -> AsyncIterator[World]:
    async with running_world(store, clock) as w:
        yield w


def into(sent: list[Any], chat: int) -> list[str]:
    return [c.text for c in sent if c.chat_id == chat]


async def test_questions_moves_and_undo_in_a_private_chat(world: World, store: Store) -> None:
    welcome = await world.say("Ann", "/start", chat=ANN)
    assert welcome and all(c.chat_id == ANN for c in welcome)
    assert "/new" in welcome[0].text and "dicepile" in welcome[0].text

    await world.say("Ann", "/new dicepile")
    await world.say("Bob", "/join")
    await world.say("Ann", "/start")
    row = await store.open_game(f"tg:{FRIDAY}")
    assert row is not None and row.state_json is not None
    (first,) = world.table.games["dicepile"].current_players(json.loads(row.state_json))
    me = ANN if first == "Ann" else BOB

    status = await world.say(first, "/status", chat=me)
    assert into(status, me) and not into(status, FRIDAY)
    assert "No game here" not in " ".join(into(status, me))

    played = await world.say(first, "/take 1", chat=me)
    assert any("takes 1" in text for text in into(played, FRIDAY))  # the group hears it
    assert any("Done in" in text for text in into(played, me))
    log = await world.say(first, "/log", chat=me)
    assert any("takes 1" in text for text in into(log, me)) and not into(log, FRIDAY)

    before = (await store.open_game(f"tg:{FRIDAY}")) or row
    mark = len(world.api.calls)
    undone = await world.say(first, "/undo", chat=me)
    assert any("Done in" in text for text in into(undone, me))
    # the group's post, folded into its last message (a quiet chat edits, issue 17)
    group = [
        c.params["text"]
        for c in world.api.calls[mark:]
        if c.method in ("sendMessage", "editMessageText") and c.params["chat_id"] == str(FRIDAY)
    ]
    assert any(f"{first} takes back their last move" in text for text in group)
    after = await store.open_game(f"tg:{FRIDAY}")
    assert after is not None and after.state_json != before.state_json
