"""Refusals and quotes that tell what only the mover may know (PG-9 hidden money, PG-22):
from a group they reach him alone; with money open they stay ordinary replies in the chat.
On Telegram a sender-only reply is an ordinary group message, so a refusal saying "you have
39 E" in the group told everyone the hidden money (found playing, 2026-11-29)."""

from __future__ import annotations

import dataclasses
import json

from bot.messages import Outbound
from bot.store import Store
from bot.table import Table
from engine.powergrid import GAME
from engine.powergrid.data import game_map
from tests.bot.helpers import Chat, FakeClock, present

PLAYERS = ("ann", "bob", "cyd")


async def _started(
    store: Store, clock: FakeClock, hidden: bool, chat_key: str = "local:group"
) -> tuple[Chat, str, int]:
    """A three-player game in a group chat, in round 1's auction; (chat, the chooser, his
    money)."""
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False, seeder=lambda: 7)
    chat = Chat(table, chat_key=chat_key)
    await chat.say("ann", "/new powergrid regions=random" + (" hidden_money=yes" if hidden else ""))
    for name in PLAYERS[1:]:
        await chat.say(name, "/join")
    await chat.say("ann", "/start")
    state = json.loads(present(present(await store.open_game(chat.chat_key)).state_json))
    chooser = GAME.current_players(state)[0]
    return chat, chooser, state["players"][chooser]["money"]


async def _a_city_in_play(store: Store, chat: Chat) -> str:
    state = json.loads(present(present(await store.open_game(chat.chat_key)).state_json))
    gm = game_map(state["map"])
    return next(c for c, r in zip(gm.cities, gm.city_region) if r in state["regions"])


def _in_group(outs: list[Outbound]) -> str:
    """What everybody in the chat reads of these replies (sender-only ones too)."""
    return "\n".join(o.text for o in outs if o.private_to is None)


async def test_pg22_a_bid_beyond_hidden_money_is_refused_to_the_bidder_alone(
    store: Store, clock: FakeClock
) -> None:
    chat, chooser, money = await _started(store, clock, hidden=True)
    before = present(await store.open_game(chat.chat_key)).version
    outs = await chat.say(chooser, "/bid 3 999")
    assert [o.private_to for o in outs] == [f"local:{chooser}"]
    assert f"{money} E" in outs[0].text and "PG-22" in outs[0].text
    assert str(money) not in _in_group(outs)
    assert present(await store.open_game(chat.chat_key)).version == before  # nothing changed


async def test_pg22_with_money_open_the_refusal_stays_in_the_chat(
    store: Store, clock: FakeClock
) -> None:
    chat, chooser, money = await _started(store, clock, hidden=False)
    outs = await chat.say(chooser, "/bid 3 999")
    assert [(o.private_to, o.sender_only) for o in outs] == [(None, True)]
    assert f"{money} E" in outs[0].text


async def test_pg22_a_refusal_in_a_private_chat_is_answered_there(
    store: Store, clock: FakeClock
) -> None:
    """A move sent privately for the group's game: the refusal comes back privately anyway."""
    chat, chooser, money = await _started(store, clock, hidden=True)
    private = Chat(chat.table, chat_key=f"local:dm-{chooser}")
    inbound = private.inbound(chooser, text="/bid 3 999")
    outs = await chat.table.handle(dataclasses.replace(inbound, is_private=True))
    assert outs and all(o.chat_key == private.chat_key for o in outs), outs
    assert any(f"{money} E" in o.text for o in outs)


async def test_pg9_cost_quotes_under_hidden_money_go_to_the_asker_alone(
    store: Store, clock: FakeClock
) -> None:
    chat, chooser, _money = await _started(store, clock, hidden=True)
    outs = await chat.say(chooser, f"/cost {await _a_city_in_play(store, chat)}")
    assert outs and all(o.private_to == f"local:{chooser}" for o in outs)
    # with money open the quote is the chat's to read, as before
    chat, chooser, _money = await _started(store, clock, hidden=False, chat_key="local:open")
    outs = await chat.say(chooser, f"/cost {await _a_city_in_play(store, chat)}")
    assert outs and all(o.private_to is None for o in outs)
    assert "10 E" in outs[0].text  # a first house, no connection (PG-36)


async def test_pg9_plants_shows_the_asker_his_own_hidden_money_alone(
    store: Store, clock: FakeClock
) -> None:
    """PG-9: /plants under hidden money. In the group everybody reads nobody's money; the
    asker gets his own copy, privately, with his money; in his private chat he reads only
    that (found playing, 2026-12-04: "bo (?, 0 cities)" in bo's own private chat)."""
    chat, chooser, money = await _started(store, clock, hidden=True)
    outs = await chat.say(chooser, "/plants")
    assert f"{money} E" not in _in_group(outs) and "(?, 0 cities)" in _in_group(outs)
    mine = [o for o in outs if o.private_to == f"local:{chooser}"]
    assert len(mine) == 1 and f"{chooser} ({money} E, 0 cities)" in mine[0].text
    private = Chat(chat.table, chat_key=f"local:dm-{chooser}")
    inbound = private.inbound(chooser, text="/plants")
    outs = await chat.table.handle(dataclasses.replace(inbound, is_private=True))
    assert len(outs) == 1 and outs[0].chat_key == private.chat_key
    assert f"{chooser} ({money} E, 0 cities)" in outs[0].text
    others = [p for p in PLAYERS if p != chooser]
    assert all(f"{p} (?, 0 cities)" in outs[0].text for p in others)


async def test_pg9_plants_with_money_open_is_one_post(store: Store, clock: FakeClock) -> None:
    chat, chooser, _money = await _started(store, clock, hidden=False)
    outs = await chat.say(chooser, "/plants")
    assert len(outs) == 1 and outs[0].private_to is None
    assert all(f"{p} (50 E, 0 cities)" in outs[0].text for p in PLAYERS)
