"""A player's own quiet hours (/me quiet=) keep every message of the table from pinging him, as
the chat's keep it from pinging anybody: the ask of a move sent privately, the game's result
(bot/quiet.py); in virtual time, at a Telegram table whose messages go through the outbox."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.store import Store
from bot.store_outbox import OutboxItem
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock, present
from tests.bot.test_quiet_table import mentioned, quiet_table, start

TG = "tg:-100"


def loud(rows: list[OutboxItem]) -> list[list[str]]:
    """Who the rows that notify mention."""
    return [mentioned(r) for r in rows if not r.silent]


async def say_privately(table: Table, user: str, text: str) -> None:
    """`user` sends `text` in his private chat with the bot."""
    dm = Chat(table, chat_key=f"tg:{sum(map(ord, user))}", platform="telegram")
    await table.handle(replace(dm.inbound(user, text), is_private=True))


async def test_a_move_sent_privately_does_not_ping_a_player_in_his_quiet_hours(
    store: Store, clock: FakeClock
) -> None:
    """Found while fixing the result's pings: a move sent to the bot privately was announced
    without the players' /me settings (the game's chat was read for it, not their prefs), so
    it pinged bob at 22:13 inside his quiet hours 22-07, where the same move sent in the group
    names him silently (test_quiet_table.py). Now both read them; cyd, awake, is pinged."""
    table = quiet_table(store, clock)
    chat = Chat(table, chat_key=TG, platform="telegram")
    await chat.say("bob", "/me quiet=22-07 tz=UTC")  # FakeClock begins at 22:13 UTC
    await start(chat, "ann", "bob", "cyd")
    mark = len(await store.outbox())
    await say_privately(table, "ann", "/take 1")
    rows = (await store.outbox())[mark:]
    assert loud(rows) == []
    assert "bob" in [r for r in rows if r.kind == "edit"][-1].body["text"]
    mark = len(await store.outbox())
    await say_privately(table, "bob", "/take 1")
    assert loud((await store.outbox())[mark:]) == [["cyd"]]


@pytest.mark.parametrize("privately", [False, True])
async def test_the_games_result_does_not_ping_a_player_in_his_quiet_hours(
    store: Store, clock: FakeClock, privately: bool
) -> None:
    """Found by a play-tester: the game's result mentioned bob with a sound at 03:00 his time,
    inside his own quiet hours (the chat has none). It names those it notifies: the others
    but the one who ended it, and not bob while his quiet hours last, whether the last move
    came in the group or privately; the result waits in the chat for him, as an ask would."""
    table = quiet_table(store, clock)
    chat = Chat(table, chat_key=TG, platform="telegram")
    await chat.say("bob", "/me quiet=22-07 tz=UTC")  # FakeClock begins at 22:13 UTC
    await start(chat, "ann", "bob", "cyd")
    while True:  # one stone a move, until ann can take the last ones
        state = json.loads(present(present(await store.open_game(TG)).state_json))
        (player,) = ChatDicePile().current_players(state)
        if player == "ann" and state["pile"] <= 3:
            break
        await chat.say(player, "/take 1")
    mark = len(await store.outbox())
    last = f"/take {state['pile']}"
    if privately:
        await say_privately(table, "ann", last)
    else:
        await chat.say("ann", last)
    assert present(await store.last_game(TG)).status == "over"
    rows = (await store.outbox())[mark:]
    (result,) = [r for r in rows if "ann wins" in r.body.get("text", "") and r.kind != "edit"]
    assert not result.silent and mentioned(result) == ["cyd"]
    assert (
        "\n@cyd: Game over: ann wins." in result.body["text"] and "@bob" not in result.body["text"]
    )
