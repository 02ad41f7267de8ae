"""IEC standing orders sent to the bot privately, through the real table and the real Telegram
Application over the fake Bot API. Found play-testing: each order's acknowledgement was folded
into one edited message, but each also brought a new "Done in Interplanetary Exploitation
Companies (g1); the others are not told of it." message, five in a row, naming the game by its
row id. The confirmation ends the folded message once, and names the game's chat."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.store import Store
from bot.table import Table
from engine.iec import GAME
from tests.bot.helpers import FakeClock, present
from tests.bot.platforms.test_chat_names import ANN, BOB, FRIDAY, World, running_world

pytestmark = pytest.mark.timeout(60)

DONE = "Done in Interplanetary Exploitation Companies"


@pytest.fixture
async def iec_world(store: Store, clock: FakeClock) -> AsyncIterator[World]:
    """The chat-names World (group "Friday games"), its table playing IEC."""
    table = Table(store, games={"iec": GAME}, clock=clock, seeder=lambda: 7, render=False)
    async with running_world(store, clock, table) as world:
        yield world


def private_texts(world: World, mark: int, chat: int) -> dict[str, str]:
    """Each private message's last text since `mark` (message id -> text): edits included."""
    texts: dict[str, str] = {}
    for call in world.api.calls[mark:]:
        if call.method not in ("sendMessage", "editMessageText"):
            continue
        if call.params.get("chat_id") != str(chat):
            continue
        key = call.params.get("message_id") or str(call.result["message_id"])
        texts[str(key)] = call.params["text"]
    return texts


async def test_private_standing_orders_are_confirmed_once_naming_the_chat(
    iec_world: World, store: Store
) -> None:
    world = iec_world
    for who in ("Ann", "Bob"):
        await world.say(who, "/help", chat=world.users[who]["id"])
    await world.say("Ann", "/new iec rules_version=1")
    await world.say("Bob", "/join")
    await world.say("Ann", "/start")
    row = present(await store.open_game(f"tg:{FRIDAY}"))
    state: dict[str, Any] = json.loads(present(row.state_json))
    idle = next(p for p in ("Ann", "Bob") if p not in GAME.current_players(state))
    me = ANN if idle == "Ann" else BOB
    mark = len(world.api.calls)
    for order in ("/mix BC AB", "/mix AB BC", "/mix BC AB"):
        await world.say(idle, order, chat=me)
    texts = private_texts(world, mark, me)
    [text] = [t for t in texts.values() if "mixers" in t.casefold()]  # one message, edited
    assert len(texts) == 1, texts
    assert text.count("Standing order saved") == 3
    assert text.count(DONE) == 1 and text.endswith("the others are not told of it.")
    assert "(g1)" not in text and "Friday games" in text
