"""/board of a game that words its board too (Hexania's text board, HEX-G-6): the picture by
default, the words on `/board text` or where the chat has no pictures (found playing,
2026-11-29: the table's /board hid the game's own command)."""

from __future__ import annotations

import json

from bot.store import Store
from bot.table import Table
from engine.hexania import GAME as HEXANIA
from engine.hexania.commands import text_board
from tests.bot.helpers import Chat, FakeClock, present


async def _started(store: Store, clock: FakeClock, render: bool) -> tuple[Chat, str]:
    table = Table(store, games={"hexania": HEXANIA}, clock=clock, render=render, seeder=lambda: 5)
    chat = Chat(table, chat_key=f"local:board-{render}")
    await chat.say("ann", "/new hexania")
    await chat.say("bob", "/join")
    await chat.say("ann", "/start")
    row = present(await store.open_game(chat.chat_key))
    return chat, text_board(json.loads(present(row.state_json)))


async def test_hex_g6_board_text_gives_the_words_and_board_the_picture(
    store: Store, clock: FakeClock
) -> None:
    chat, words = await _started(store, clock, render=True)
    outs = await chat.say("ann", "/board text")
    assert [o.text for o in outs] == [words.rstrip()] and outs[0].monospace
    assert words.startswith(" ")  # the first row's indent is kept (HEX-G-6)
    outs = await chat.say("ann", "/board")
    assert outs and (outs[0].png is not None or outs[0].picture is not None)
    await chat.say("ann", "/settings pictures=off")
    assert [o.text for o in await chat.say("ann", "/board")] == [words.rstrip()]


async def test_hex_g6_without_rendering_board_is_the_words(store: Store, clock: FakeClock) -> None:
    chat, words = await _started(store, clock, render=False)
    assert [o.text for o in await chat.say("bob", "/board")] == [words.rstrip()]


def test_discord_shows_a_board_in_words_in_a_code_block() -> None:
    from bot.messages import Outbound
    from bot.platforms.discord_pieces import CODE_FENCE, pieces

    [piece] = pieces(Outbound("dc:1:2", "  A . 1\n B . .", monospace=True))
    assert piece.content == f"{CODE_FENCE}\n  A . 1\n B . .\n{CODE_FENCE}"


async def test_help_lists_board_once_for_the_table_and_once_as_board_text(
    store: Store, clock: FakeClock
) -> None:
    """Found playing (2026-12-03): /help listed "/board" twice in a Hexania chat (the table's
    picture and the game's words), and each description repeated its usage ("/log [page] —
    The moves in words, newest first: /log [page]")."""
    chat, _ = await _started(store, clock, render=True)
    lines = (await chat.text("ann", "/help")).splitlines()
    assert [ln for ln in lines if ln.startswith("/board")] == [
        "/board — Show the board picture",
        "/board text — The board as text",
    ]
    assert "/log [page] — The moves in words, newest first" in lines
    assert "/settings [settings...] — Settings of this chat" in lines
    # a description that goes on after its usage keeps it
    assert any(ln.startswith("/lang") and ln.endswith("/lang chat <code>") for ln in lines)
    # an example already in the description is not added again
    cost = next(ln for ln in lines if ln.startswith("/cost"))
    assert cost.count("/cost move L12 SE 3") == 1
    await chat.say("ann", "/lang zh-hant")
    assert (
        "/log [頁] — 以文字列出的走步，最新的在前" in (await chat.text("ann", "/help")).splitlines()
    )
