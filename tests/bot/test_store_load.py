"""Issue 23: the SQLite store reads a message's needs in one statement (bot/store_load.py's
`LOAD_SQL`). On a populated store it returns exactly what the seven statements it replaced
returned, for every chat and sender: lobbies, running games, ended ones, chats without a
game, seats with gaps, seated users the store knows and does not know, votes, seen updates."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from bot.store import Store
from bot.store_load import RawLoad, load_sync
from bot.store_queries import GAME_COLUMNS
from tests.bot.helpers import FakeClock


def seven_statements(
    con: sqlite3.Connection, chat_key: str, user_key: str, inbound: tuple[str, str] | None
) -> RawLoad:
    """The reads as they were before one statement did them all (the reference)."""
    seen = (
        inbound is not None
        and con.execute(
            "SELECT 1 FROM inbound WHERE platform = ? AND update_id = ?", inbound
        ).fetchone()
        is not None
    )
    chat = con.execute(
        "SELECT lang, settings_json FROM chats WHERE chat_key = ?", (chat_key,)
    ).fetchone()
    users: list[Sequence[Any]] = con.execute(
        "SELECT user_key, lang, dm_ok FROM users WHERE user_key = ?", (user_key,)
    ).fetchall()
    game = con.execute(
        f"SELECT {GAME_COLUMNS} FROM games WHERE chat_key = ? AND status IN ('lobby', 'active')",
        (chat_key,),
    ).fetchone()
    seats: list[Sequence[Any]] = []
    voted = False
    if game is not None:
        seats = con.execute(
            "SELECT game_id, seat, user_key, display_name, is_bot, bot_kind, lang FROM seats "
            "WHERE game_id = ? ORDER BY seat",
            (game[0],),
        ).fetchall()
        users += con.execute(
            "SELECT u.user_key, u.lang, u.dm_ok FROM seats s JOIN users u "
            "ON u.user_key = s.user_key WHERE s.game_id = ?",
            (game[0],),
        ).fetchall()
        voted = (
            con.execute(
                "SELECT 1 FROM votes WHERE game_id = ? AND target = ? LIMIT 1", (game[0], user_key)
            ).fetchone()
            is not None
        )
    return RawLoad(seen, chat, game, seats, users, voted)


def same(a: RawLoad, b: RawLoad) -> bool:
    """Equal reads: rows compared as tuples, the users as a set (their order never counted)."""
    return (
        a.seen == b.seen
        and (tuple(a.chat) if a.chat else None) == (tuple(b.chat) if b.chat else None)
        and (tuple(a.game) if a.game else None) == (tuple(b.game) if b.game else None)
        and [tuple(s) for s in a.seats] == [tuple(s) for s in b.seats]
        and sorted(map(tuple, a.users)) == sorted(map(tuple, b.users))
        and a.voted == b.voted
    )


async def populate(store: Store, clock: FakeClock) -> None:
    # tg:1: a running game of four, the second seat left in the lobby (a gap), one bot
    _, pk = await store.create_game("tg:1", "dicepile", {"map": "de"}, "tg:10", None)
    for user, name in (("tg:13", "Dee"), ("tg:11", "Bob"), ("tg:12", "Cy"), ("tg:10", "Ann")):
        await store.add_seat(pk, user, name, max_players=5, lang="en")
    await store.add_seat(pk, "bot:1", "Robo", max_players=5, is_bot=True, bot_kind="easy")
    await store.remove_seat(pk, "tg:11")
    names = [s.display_name for s in await store.seats(pk)]
    assert (await store.start_game(pk, 7, names, '{"s":1}', None)).version == 1
    await store.add_vote(pk, "tg:12", "tg:10")
    # tg:2: a lobby; an ended game before it
    _, old = await store.create_game("tg:2", "dicepile", {}, "tg:20", ("tg:20", "Eve", None))
    await store.end_game(old, None, "aborted")
    await store.create_game("tg:2", "dicepile", {}, "tg:21", ("tg:21", "Fay", "pl"))
    # tg:3: only an ended game; tg:4: settings and a language but never a game
    _, gone = await store.create_game("tg:3", "dicepile", {}, "tg:10", ("tg:10", "Ann", None))
    await store.end_game(gone, None, "aborted")
    await store.set_chat_settings("tg:4", {"deadline_hours": 6})
    await store.set_chat_lang("tg:1", "ru")
    for user, lang, dm_ok in (("tg:10", "pl", True), ("tg:12", None, True), ("tg:21", "ru", None)):
        await store.set_user(user, lang=lang, dm_ok=dm_ok)
    assert await store.record_inbound("telegram", "5")


async def test_one_statement_reads_what_seven_did(store: Store, clock: FakeClock) -> None:
    await populate(store, clock)
    con = store._inline
    assert con is not None
    checked = 0
    for chat in ("tg:1", "tg:2", "tg:3", "tg:4", "tg:5"):
        for user in ("tg:10", "tg:11", "tg:12", "tg:13", "tg:20", "tg:21", "tg:99"):
            for inbound in (None, ("telegram", "5"), ("telegram", "6"), ("discord", "5")):
                want = seven_statements(con, chat, user, inbound)
                got = load_sync(con, chat, user, inbound)
                assert same(got, want), (chat, user, inbound, got, want)
                checked += 1
    assert checked == 140
    # the cases the store holds are all there: seen, voted, a game, seats with a gap
    head = load_sync(con, "tg:1", "tg:12", ("telegram", "5"))
    assert head.seen and head.voted and head.game is not None
    assert [s[1] for s in head.seats] == [1, 3, 4, 5]
    assert load_sync(con, "tg:3", "tg:10", None).game is None


async def test_the_store_s_rows_are_the_same_inline_and_in_the_reader_s_thread(
    store: Store, clock: FakeClock
) -> None:
    await populate(store, clock)
    inline = await store.load_message("tg:1", "tg:10", ("telegram", "5"))
    con, store._inline = store._inline, None  # every call hands off to aiosqlite's threads
    try:
        threaded = await store.load_message("tg:1", "tg:10", ("telegram", "5"))
    finally:
        store._inline = con
    assert inline == threaded
    assert inline.game is not None and inline.game.options == {"map": "de"}
    inline.game.options["map"] = "us"  # decoded options are cached: each row has its own copy
    again = await store.load_message("tg:1", "tg:10")
    assert again.game is not None and again.game.options == {"map": "de"}
    assert inline.chat.lang == "ru" and inline.user.lang == "pl"
    assert [s.display_name for s in inline.seats] == ["Dee", "Cy", "Ann", "Robo"]
