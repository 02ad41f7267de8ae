"""/board after a chat's game has ended shows that game as it ended (found play-testing,
2026-12-03: "No game here yet" one message after the game's result, or after /abort, while
/status and /log still told of the game)."""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import tr
from bot.info import LAST_GAME
from bot.store import Store
from bot.table import Table
from engine.hexania import GAME as HEXANIA
from tests.bot.helpers import Chat, FakeClock


def _table(store: Store, clock: FakeClock, render: bool = True) -> Table:
    return Table(store, games={"hexania": HEXANIA}, clock=clock, render=render, seeder=lambda: 5)


async def test_board_after_abort_is_the_last_board_with_how_it_ended(
    store: Store, clock: FakeClock
) -> None:
    chat = Chat(_table(store, clock), chat_key="local:after")
    assert "No game here yet" in await chat.text("ann", "/board")  # no game ever here
    await chat.say("ann", "/new hexania")
    await chat.say("bob", "/join")
    await chat.say("ann", "/start")
    assert "ended without a result" in await chat.text("ann", "/abort confirm")
    [pic] = await chat.say("bob", "/board")
    assert pic.png is not None and not pic.sender_only
    assert pic.text == "Hexania was ended without a result. /new starts another."


async def test_board_after_a_result_says_last_game_here_in_the_chats_language(
    make_table: Callable[..., Table],
) -> None:
    chat = Chat(make_table(render=True), chat_key="local:over", admins={"carol"})
    assert "русский" in (await chat.text("carol", "/lang chat ru")).lower()
    await chat.say("carol", "/new dicepile")
    await chat.say("carol", "/addbot")
    await chat.say("carol", "/leave")
    await chat.say("carol", "/addbot")
    await chat.say("carol", "/start")  # two bots play it to the end at once
    assert await chat.table.store.open_game(chat.chat_key) is None
    [pic] = await chat.say("carol", "/board")
    assert pic.png is not None and not pic.sender_only
    head = tr("ru", LAST_GAME, game=tr("ru", "Dice pile"), id=1)
    assert head.startswith("Последняя игра здесь")
    assert pic.text.startswith(head + "\n") and len(pic.text.splitlines()) == 2  # the result
    # pictures off: the words /status gives
    off = Chat(make_table(render=False), chat_key="local:over")
    [words] = await off.say("carol", "/board")
    assert words.png is None and words.text == pic.text
    assert [o.text for o in await off.say("carol", "/status")] == [pic.text]
