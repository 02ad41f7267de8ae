"""The SQLite store: migrations, pragmas, the move transaction, de-duplication, reminders."""

from __future__ import annotations

import sqlite3

import pytest

from bot.store import (
    INBOUND_KEEP_SECONDS,
    MIGRATIONS,
    ChatBusy,
    Due,
    LogEntry,
    Outcome,
    Store,
    unique_name,
)
from bot.store_chats import ChatName
from bot.store_plans import Progress
from bot.store_protocol import Store as AnyStore
from tests.bot.helpers import FakeClock, present


async def lobby(store: AnyStore, chat: str = "tg:1") -> int:
    outcome, pk = await store.create_game(chat, "dicepile", {}, "tg:10", ("tg:10", "Ann", "en"))
    assert outcome is Outcome.OK
    return pk


async def active(store: AnyStore) -> int:
    pk = await lobby(store)
    assert (await store.add_seat(pk, "tg:11", "ann", max_players=4))[1] == "ann 2"
    result = await store.start_game(pk, 5, ["Ann", "ann 2"], '{"x":0}', None)
    assert result.outcome is Outcome.OK and result.version == 1
    return pk


def entry(n: int) -> LogEntry:
    return LogEntry("tg:10", "Ann", f'{{"n":{n}}}', "[]")


async def test_migrations_run_once_and_pragmas_are_set(db_path: str, clock: FakeClock) -> None:
    first = await Store.open(db_path, clock=clock)
    second = await Store.open(db_path, clock=clock)  # a second process: nothing to migrate
    assert await first.schema_version() == len(MIGRATIONS) == await second.schema_version()
    await first.close()
    await second.close()
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"games", "seats", "actions", "inbound", "reminders", "chats", "users"} <= tables
        assert raw.execute("SELECT count(*) FROM schema_version").fetchone()[0] == len(MIGRATIONS)
    store = await Store.open(db_path, clock=clock)
    for pragma, value in (("foreign_keys", 1), ("synchronous", 1), ("busy_timeout", 10000)):
        async with store._r.execute(f"PRAGMA {pragma}") as cur:
            assert present(await cur.fetchone())[0] == value
    # the writer waits for another process's lock only inside `begin`, in its thread
    async with store._w.execute("PRAGMA busy_timeout") as cur:
        assert present(await cur.fetchone())[0] == 0
    await store.close()


async def test_one_open_game_per_chat(store: Store) -> None:
    pk = await lobby(store)
    with pytest.raises(ChatBusy):
        await lobby(store)
    assert (await store.end_game(pk, None, "aborted")).outcome is Outcome.OK
    assert await lobby(store) != pk  # a closed game frees the chat
    assert present(await store.last_game("tg:1")).status == "lobby"


async def test_seats_join_leave_and_full(store: Store) -> None:
    pk = await lobby(store)
    assert await store.add_seat(pk, "tg:10", "Ann", max_players=2) == (Outcome.ALREADY, "Ann")
    assert await store.add_seat(pk, "tg:12", "Bo", max_players=2) == (Outcome.OK, "Bo")
    assert (await store.add_seat(pk, "tg:13", "Cy", max_players=2))[0] is Outcome.FULL
    assert await store.remove_seat(pk, "tg:12") is Outcome.OK
    assert await store.remove_seat(pk, "tg:12") is Outcome.ABSENT
    assert [s.display_name for s in await store.seats(pk)] == ["Ann"]
    assert unique_name("Alex", ["alex", "ALEX 2"]) == "Alex 3"


async def test_a_creator_s_seat_given_up_hands_the_lobby_to_the_first_person(
    store: Store,
) -> None:
    pk = await lobby(store)  # Ann (tg:10) created it
    await store.add_seat(pk, "bot:1", "Bot", max_players=4, is_bot=True, bot_kind="random")
    await store.add_seat(pk, "tg:12", "Bo", max_players=4)
    await store.add_seat(pk, "tg:13", "Cy", max_players=4)
    assert await store.remove_seat(pk, "tg:13") is Outcome.OK  # not the creator: no change
    assert (await store.game(pk)).creator == "tg:10"  # type: ignore[union-attr]
    assert await store.remove_seat(pk, "tg:10") is Outcome.OK
    assert (await store.game(pk)).creator == "tg:12"  # type: ignore[union-attr]  # not the bot
    assert await store.remove_seat(pk, "tg:12") is Outcome.OK
    assert (await store.game(pk)).creator == "tg:12"  # type: ignore[union-attr]  # bots only


async def test_start_checks_the_seats_it_saw(store: Store) -> None:
    pk = await lobby(store)
    await store.add_seat(pk, "tg:12", "Bo", max_players=4)
    assert (await store.start_game(pk, 1, ["Ann"], "{}", None)).outcome is Outcome.STALE
    assert (await store.start_game(pk, 1, ["Ann", "Bo"], "{}", None)).outcome is Outcome.OK
    assert (await store.start_game(pk, 1, ["Ann", "Bo"], "{}", None)).outcome is Outcome.GONE
    assert (await store.add_seat(pk, "tg:13", "Cy", max_players=4))[0] is Outcome.GONE


async def test_commit_checks_version_and_update_id(store: Store, clock: FakeClock) -> None:
    pk = await active(store)
    ok = await store.commit_moves(
        pk, 1, [entry(1), entry(2)], '{"x":1}', over=False, due=None, inbound=("telegram", "u1")
    )
    assert ok.outcome is Outcome.OK and ok.version == 2
    stale = await store.commit_moves(pk, 1, [entry(3)], '{"x":9}', over=False, due=None)
    assert stale.outcome is Outcome.STALE
    dup = await store.commit_moves(
        pk, 2, [entry(3)], '{"x":9}', over=False, due=None, inbound=("telegram", "u1")
    )
    assert dup.outcome is Outcome.DUPLICATE
    assert await store.seen("telegram", "u1") and not await store.seen("discord", "u1")
    row = await store.game(pk)
    assert row is not None and (row.version, row.state_json) == (2, '{"x":1}')
    assert [(a.seq, a.version, a.action) for a in await store.actions(pk)] == [
        (1, 2, {"n": 1}),
        (2, 2, {"n": 2}),
    ]
    assert [a.seq for a in await store.actions(pk, last=1)] == [2]
    done = await store.commit_moves(pk, 2, [entry(3)], '{"x":2}', over=True, due=None)
    assert done.outcome is Outcome.OK
    assert present(await store.game(pk)).status == "over"
    assert await store.open_game("tg:1") is None


async def test_undo_drops_the_tail_of_the_log(store: Store) -> None:
    pk = await active(store)
    await store.commit_moves(pk, 1, [entry(1)], '{"x":1}', over=False, due=None)
    await store.commit_moves(pk, 2, [entry(2), entry(3)], '{"x":3}', over=False, due=None)
    assert (await store.undo_last(pk, 2, 2, '{"x":1}', None)).outcome is Outcome.STALE
    result = await store.undo_last(pk, 3, 2, '{"x":1}', None)
    assert result.outcome is Outcome.OK and result.version == 4
    assert [a.seq for a in await store.actions(pk)] == [1]
    again = await store.commit_moves(pk, 4, [entry(4)], '{"x":4}', over=False, due=None)
    assert again.outcome is Outcome.OK and [a.seq for a in await store.actions(pk)] == [1, 2]


async def test_undo_keeps_the_seqs_it_is_told_to_keep(store: Store) -> None:
    """A rival's hidden order placed after the undone move stays in the log (issue 20)."""
    pk = await active(store)
    await store.commit_moves(pk, 1, [entry(1), entry(2), entry(3)], '{"x":3}', over=False, due=None)
    result = await store.undo_last(pk, 2, 2, '{"x":1}', None, keep=[3])
    assert result.outcome is Outcome.OK
    assert [a.seq for a in await store.actions(pk)] == [1, 3]
    again = await store.commit_moves(pk, 3, [entry(4)], '{"x":4}', over=False, due=None)
    assert again.outcome is Outcome.OK and [a.seq for a in await store.actions(pk)] == [1, 3, 4]


async def test_reminder_clock_keeps_running_for_those_still_waiting(
    store: Store, clock: FakeClock
) -> None:
    pk = await active(store)
    due = Due(["Ann", "Bo"], clock.now, clock.now + 100)
    await store.commit_moves(pk, 1, [entry(1)], "{}", over=False, due=due)
    clock.advance(50)
    shrink = Due(["Bo"], clock.now, clock.now + 100)  # Ann acted, Bo still owes his move
    await store.commit_moves(pk, 2, [entry(2)], "{}", over=False, due=shrink)
    rem = await store.reminder(pk)
    assert rem is not None and rem.players == ["Bo"] and rem.due_at == clock.now + 50
    assert rem.turn_started_at == clock.now - 50  # the same turn: its start stays too
    clock.advance(10)
    same = Due(["Bo"], clock.now, clock.now + 100)  # the very same list: nothing is written
    await store.commit_moves(pk, 3, [entry(3)], "{}", over=False, due=same)
    assert await store.reminder(pk) == rem
    fresh = Due(["Ann"], clock.now, clock.now + 100)
    await store.commit_moves(pk, 4, [entry(4)], "{}", over=False, due=fresh)
    rem = await store.reminder(pk)
    assert rem is not None and rem.due_at == clock.now + 100 and rem.attempt == 0
    assert [r.game_id for r in await store.due_reminders(clock.now + 100)] == [pk]
    assert await store.due_reminders(clock.now + 99) == []
    await store.commit_moves(pk, 5, [entry(5)], "{}", over=True, due=fresh)
    assert await store.reminder(pk) is None


async def test_a_player_asked_again_after_the_others_moved_starts_a_new_turn(
    store: Store, clock: FakeClock
) -> None:
    """`Due.anew`: the players asked are those the stored turn waited for, but one of them was
    asked again after others moved (the bots answered him): a new turn, fresh due time."""
    pk = await active(store)
    await store.commit_moves(pk, 1, [entry(1)], "{}", over=False, due=Due(["Ann"], 0.0, 100.0))
    clock.advance(50)
    again = Due(["Ann"], clock.now, clock.now + 100, anew=True)
    await store.commit_moves(pk, 2, [entry(2)], "{}", over=False, due=again)
    rem = await store.reminder(pk)
    assert rem is not None and (rem.turn_started_at, rem.due_at) == (clock.now, clock.now + 100)
    assert rem.attempt == 0 and rem.players == ["Ann"]


async def test_each_player_s_progress_is_kept_with_the_turn(store: Store, clock: FakeClock) -> None:
    """A turn's claim records each player's reminders (bot/expiry.py): read back by
    `turn_plan`, `reminder` and a message's load; kept by a claim that says nothing of it and
    while the turn goes on for fewer players; not read for a new turn, cleared by its first
    claim. A player with none recorded has the turn's own (a row planned before it existed)."""
    pk = await active(store)
    t = clock.now
    await store.commit_moves(
        pk, 1, [entry(1)], "{}", over=False, due=Due(["Ann", "ann 2"], t, t + 100)
    )
    plan = present(await store.turn_plan(pk))
    assert plan.progress_of("Ann") == Progress() and plan.progress == {}
    mine = {"Ann": Progress(t + 50, t + 50), "ann 2": Progress(t + 10, None)}
    assert await store.claim_turn(plan, t + 50, t + 60, notified_at=t + 50, progress=mine)
    plan = present(await store.turn_plan(pk))
    assert plan.progress == mine and plan.progress_of("Bo") == Progress(t + 50, t + 50)
    kept = present(await store.reminder(pk))
    loaded = present((await store.load_message("tg:1", "tg:10")).reminder)
    assert kept == loaded and loaded.plan().progress == mine
    assert (loaded.attempt, loaded.done_until, loaded.notified_at) == (1, t + 50, t + 50)
    assert await store.claim_turn(plan, plan.done_until, t + 70)  # says nothing of it
    assert present(await store.turn_plan(pk)).progress == mine
    ann_moved = Due(["ann 2"], t, t + 100)  # the turn goes on for ann 2
    await store.commit_moves(pk, 2, [entry(2)], "{}", over=False, due=ann_moved)
    assert present(await store.turn_plan(pk)).progress_of("ann 2") == mine["ann 2"]
    await store.commit_moves(pk, 3, [entry(3)], "{}", over=False, due=Due(["Ann"], t, t + 100))
    fresh = present(await store.turn_plan(pk))
    assert fresh.attempt == 0 and fresh.progress_of("Ann") == Progress()
    assert await store.claim_turn(fresh, None, t + 10)
    assert present(await store.turn_plan(pk)).progress == {}


async def test_inbound_ids_are_pruned_after_days(db_path: str, clock: FakeClock) -> None:
    store = await Store.open(db_path, clock=clock)
    assert await store.record_inbound("telegram", "1")
    assert not await store.record_inbound("telegram", "1")
    await store.close()
    clock.advance(INBOUND_KEEP_SECONDS + 1)
    store = await Store.open(db_path, clock=clock)
    assert not await store.seen("telegram", "1")
    await store.close()


async def test_chat_and_user_settings(store: Store) -> None:
    assert (await store.chat("tg:5")).lang is None
    await store.set_chat_lang("tg:5", "pl")
    await store.set_chat_settings("tg:5", {"deadline_hours": 12})
    chat = await store.chat("tg:5")
    assert (chat.lang, chat.settings) == ("pl", {"deadline_hours": 12})
    await store.set_user("tg:7", lang="ru")
    await store.set_user("tg:7", dm_ok=True)
    user = await store.user("tg:7")
    assert (user.lang, user.dm_ok) == ("ru", True)


async def test_chat_titles_and_links_are_kept_apart_from_the_settings(store: Store) -> None:
    """Issue 17: the title and link an adapter saw, per chat; language and settings stay."""
    assert await store.chat_names(["tg:-1005", "dc:9"]) == {}
    await store.set_chat_lang("tg:-1005", "pl")
    await store.set_chat_name("tg:-1005", "Game night", "https://t.me/c/5/10")
    await store.set_chat_name("dc:9", "Server #games", "https://discord.com/channels/1/9")
    await store.set_chat_name("tg:-1005", "Game night!", "https://t.me/c/5/12")
    names = await store.chat_names(["tg:-1005", "dc:9", "tg:404"])
    assert names == {
        "tg:-1005": ChatName("Game night!", "https://t.me/c/5/12"),
        "dc:9": ChatName("Server #games", "https://discord.com/channels/1/9"),
    }
    assert (await store.chat("tg:-1005")).lang == "pl"


async def test_a_chat_s_refused_pictures_are_kept_apart_from_its_settings(store: Store) -> None:
    """A Discord channel without Attach Files (bot/outbox.py `PictureMemory`): when it last
    refused the pictures, until they go again; its language, settings and name stay."""
    assert await store.pictures_refused("dc:9") is None
    await store.set_chat_settings("dc:9", {"deadline_hours": 12})
    await store.set_chat_name("dc:9", "Server #games", None)
    await store.set_pictures_refused("dc:9", 1_700_000_000.5)
    await store.set_pictures_refused("dc:10", 1_700_000_001.0)  # a chat never seen before
    assert await store.pictures_refused("dc:9") == 1_700_000_000.5
    assert await store.pictures_refused("dc:10") == 1_700_000_001.0
    assert (await store.chat("dc:9")).settings == {"deadline_hours": 12}
    assert await store.chat_names(["dc:9"]) == {"dc:9": ChatName("Server #games", None)}
    await store.set_pictures_refused("dc:9", None)
    assert await store.pictures_refused("dc:9") is None
    assert await store.pictures_refused("dc:10") == 1_700_000_001.0


async def test_user_games_lists_open_games(store: Store) -> None:
    one = await lobby(store, "tg:1")
    two = await lobby(store, "tg:2")
    await store.end_game(two, None, "aborted")
    assert [g.id for g in await store.user_games("tg:10")] == [one]


async def test_finished_games_of_a_chat_and_of_a_player(store: Store) -> None:
    """Issue 25 (/stats): games that ended ('over'), with their seats; not the aborted or the
    running ones; per chat, per player, and both."""
    done = []
    for chat in ("tg:1", "tg:2"):
        pk = await active_in(store, chat)
        ok = await store.commit_moves(pk, 1, [entry(1)], '{"x":1}', over=True, due=None)
        assert ok.outcome is Outcome.OK
        done.append(pk)
    running = await active_in(store, "tg:3")
    aborted = await lobby(store, "tg:4")
    await store.end_game(aborted, None, "aborted")
    every = await store.finished_games()
    assert [f.row.id for f in every] == done[::-1]  # newest first
    assert running not in [f.row.id for f in every]
    (one,) = await store.finished_games(chat_key="tg:1")
    assert one.row.id == done[0] and one.row.status == "over" and one.row.state_json == '{"x":1}'
    assert [s.display_name for s in one.seats] == ["Ann", "ann 2"]
    assert [f.row.id for f in await store.finished_games(user_key="tg:11")] == done[::-1]
    assert [f.row.id for f in await store.finished_games("tg:2", "tg:11")] == [done[1]]
    assert await store.finished_games(user_key="tg:99") == []


async def active_in(store: AnyStore, chat: str) -> int:
    pk = await lobby(store, chat)
    await store.add_seat(pk, "tg:11", "ann", max_players=4)
    assert (await store.start_game(pk, 5, ["Ann", "ann 2"], "{}", None)).outcome is Outcome.OK
    return pk


async def test_a_message_s_reads_come_in_one_call_and_match_the_single_reads(store: Store) -> None:
    """Issue 23: `load_message` returns what `seen`, `chat`, `user`, `open_game`, `seats` and
    `users` return one by one (the move pipeline's one read before its commit)."""
    empty = await store.load_message("tg:1", "tg:99", ("telegram", "7"))
    assert (empty.seen, empty.game, empty.seats) == (False, None, [])
    assert (empty.chat.lang, empty.chat.settings, empty.user.lang) == (None, {}, None)
    assert set(empty.users) == {"tg:99"}
    pk = await active(store)
    await store.set_chat_lang("tg:1", "pl")
    await store.set_chat_settings("tg:1", {"deadline_hours": 12})
    await store.set_user("tg:11", lang="ru", dm_ok=True)
    await store.set_user("tg:99", lang="zh_Hant")
    assert await store.record_inbound("telegram", "7")
    got = await store.load_message("tg:1", "tg:99", ("telegram", "7"))
    assert got.seen
    got = await store.load_message("tg:1", "tg:99", ("telegram", "8"))
    assert not got.seen
    assert got.chat == await store.chat("tg:1")
    assert got.user == await store.user("tg:99")
    assert got.game == await store.open_game("tg:1") and got.game is not None
    assert got.game.id == pk and got.game.state_json == '{"x":0}'
    assert got.seats == await store.seats(pk)
    assert got.users == await store.users(["tg:10", "tg:11", "tg:99"])
    assert got.users["tg:11"].lang == "ru" and got.users["tg:10"].lang is None
    assert not got.voted
    assert await store.add_vote(pk, "tg:99", "tg:10") == ["tg:10"]
    assert not (await store.load_message("tg:1", "tg:10")).voted
    assert (await store.load_message("tg:1", "tg:99")).voted
    assert (await store.load_message("tg:2", "tg:10")).game is None
    # the open game's reminder row (the deadline a move that asks nobody new keeps)
    assert got.reminder is None and await store.reminder(pk) is None
    due = Due(["Ann", "ann 2"], 100.0, 3700.0)
    done = await store.commit_moves(pk, 1, [entry(1)], '{"x":1}', over=False, due=due)
    assert done.outcome is Outcome.OK
    kept = (await store.load_message("tg:1", "tg:10")).reminder
    assert kept is not None and kept == await store.reminder(pk)
    assert (kept.game_id, kept.due_at, kept.players) == (pk, 3700.0, ["Ann", "ann 2"])
    # the /me prefs of the sender and the seated (those who set any)
    assert got.prefs == {}
    await store.update_user_prefs("tg:11", lambda _: {"quiet": [23, 8], "tz": "Europe/Warsaw"})
    await store.update_user_prefs("tg:99", lambda _: {"tz": "UTC"})
    await store.update_user_prefs("tg:50", lambda _: {"tz": "UTC"})  # neither seated nor the sender
    prefs = (await store.load_message("tg:1", "tg:99")).prefs
    assert prefs == await store.user_prefs(["tg:11", "tg:99"])
    assert prefs == {"tg:11": {"quiet": [23, 8], "tz": "Europe/Warsaw"}, "tg:99": {"tz": "UTC"}}


async def test_a_due_turn_s_reads_come_in_one_call_and_match_the_single_reads(
    store: AnyStore, clock: FakeClock
) -> None:
    """The scheduler looks at every new turn (bot/reminders.py `process_turn`): its reads
    come in one call (one round trip on PostgreSQL, issue 23), the same as read one by one;
    absences and /me settings only of the game's own seated users."""
    pk = await lobby(store)
    await store.add_seat(pk, "tg:11", "bob", max_players=4)
    await store.add_seat(pk, "tg:12", "cyd", max_players=4)
    started = await store.start_game(pk, 5, ["Ann", "bob", "cyd"], "{}", None)
    assert started.outcome is Outcome.OK
    await store.set_chat_settings("tg:1", {"deadline_hours": 6, "reminders": [50]})
    await store.set_away("tg:11", clock.now + 7200.5)
    await store.set_away("tg:12", clock.now - 1.0)  # back already
    await store.set_away("tg:99", clock.now + 60.0)  # not in this game
    await store.update_user_prefs("tg:10", lambda _: {"quiet": "22-7", "tz": "Europe/Warsaw"})
    await store.update_user_prefs("tg:99", lambda _: {"tz": "Asia/Taipei"})
    reads = await store.turn_reads(pk, clock.now)
    assert reads.game == await store.game(pk)
    assert reads.seats == await store.seats(pk) and len(reads.seats) == 3
    assert reads.chat == await store.chat("tg:1")
    keys = [s.user_key for s in reads.seats]
    assert reads.away == await store.away_until(keys, clock.now) == {"tg:11": clock.now + 7200.5}
    assert reads.prefs == await store.user_prefs(keys)
    assert reads.prefs["tg:10"] == {"quiet": "22-7", "tz": "Europe/Warsaw"}
    assert reads.prefs["tg:11"] == {} and "tg:99" not in reads.prefs
    none = await store.turn_reads(pk + 1000, clock.now)
    assert none.game is None and none.seats == [] and none.away == {} and none.prefs == {}
