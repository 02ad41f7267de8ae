"""The table plays a move through the game's one result object (`play`, issue 26): a move
whose later question fails (a game's `forced_action` raising) still stands, and the player
is asked instead of being played for; the state's answers are remembered for the next
message only while its stored state is that very text."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from bot.moment import Moment, Recent
from bot.table import Table
from engine.core.protocol import Capabilities
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, joined


class BrokenForced(ChatDicePile):
    """The dice pile whose `forced_action` is broken (a game bug the table survives)."""

    capabilities = Capabilities(rules_index=True, forced_moves=True)

    def forced_action(self, state: dict[str, Any], player: str) -> dict[str, Any] | None:
        raise RuntimeError("forced_action is broken")


async def current(table: Table, chat: Chat) -> str:
    row = await table.store.open_game(chat.chat_key)
    assert row is not None and row.state_json is not None
    return ChatDicePile().current_players(json.loads(row.state_json))[0]


async def test_a_failing_forced_action_leaves_the_move_standing(
    make_table: Callable[..., Table],
) -> None:
    table = make_table(game=BrokenForced(), render=False)
    chat = Chat(table)
    await chat.say("ann", "/new dicepile")
    await chat.say("bob", "/join")
    await chat.say("ann", "/start")
    who = await current(table, chat)
    before = await table.store.open_game(chat.chat_key)
    assert before is not None
    outs = await chat.say(who, "/take 1")
    after = await table.store.open_game(chat.chat_key)
    assert after is not None and after.version == before.version + 1
    assert "went wrong" not in joined(outs)
    nxt = await current(table, chat)
    assert nxt != who and f"@{nxt}" in joined(outs)  # asked, not played for


def test_recent_answers_only_for_the_same_state_text() -> None:
    game = ChatDicePile()
    state = game.setup(["ann", "bob"], {}, 3)
    text = json.dumps(state)
    recent = Recent(size=1)
    now = Moment(game, state)
    mark = now.mark
    recent.keep(7, text, now)
    kept = recent.moment(7, game, text, json.loads(text))
    assert kept.known_mark == mark and kept.current == now.current
    other = dict(state, turn=1 - state["turn"])
    fresh = recent.moment(7, game, json.dumps(other), other)
    assert fresh.known_mark is None
    assert fresh.current == tuple(game.current_players(other))
    recent.keep(8, text, now)  # size 1: game 7 is forgotten
    assert recent.moment(7, game, text, json.loads(text)).known_mark is None
