"""The table service with the dice-pile toy game: lobby, moves, permissions, undo, buttons."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import pytest

from bot.grammar import arg_at, parse_command, split_text
from bot.messages import MAX_PAYLOAD_BYTES, Outbound
from bot.store import Store
from bot.table import Table, _fit, clean_name
from engine.core import canonical_json, replay
from engine.core.protocol import Translator
from tests.bot.chatgame import PNG_MAGIC, ChatDicePile
from tests.bot.helpers import Chat, FakeClock, joined, payloads, present


async def started(chat: Chat, *more: str) -> int:
    """alice opens a table, `more` join, alice starts; returns the game's id."""
    await chat.say("alice", "/new dicepile")
    for name in more:
        await chat.say(name, "/join")
    outs = await chat.say("alice", "/start")
    assert "begins" in joined(outs), joined(outs)
    row = await chat.table.store.open_game(chat.chat_key)
    assert row is not None and row.status == "active"
    return row.id


async def game_state(table: Table, chat_key: str = "local:test") -> tuple[int, dict]:
    row = await table.store.open_game(chat_key) or await table.store.last_game(chat_key)
    assert row is not None and row.state_json is not None
    return row.version, json.loads(row.state_json)


async def test_lobby_start_and_first_move(chat: Chat) -> None:
    outs = await chat.say("alice", "/new dicepile")
    assert "Dice pile" in outs[0].text and "@alice" in outs[0].text
    assert outs[0].mentions == [("local:alice", "alice")]
    assert any(p.endswith(":0:/join") for p in payloads(outs))
    assert "bob joins" in await chat.text("bob", "/join")
    assert "already seated" in await chat.text("bob", "/join")
    assert "Only the creator" in await chat.text("bob", "/start")
    outs = await chat.say("alice", "/start")
    text = joined(outs)
    assert "begins" in text and "alice, bob" in text
    assert outs[1].png is not None and outs[1].png.startswith(PNG_MAGIC)
    assert outs[-1].mentions == [("local:alice", "alice")]
    assert "@alice" in outs[-1].text
    version, state = await game_state(chat.table)
    assert version == 1 and state["players"] == ["alice", "bob"]
    row = await chat.table.store.open_game(chat.chat_key)
    assert row is not None and row.seed == 12345
    pile = state["pile"]
    outs = await chat.say("alice", "/take 2")
    assert "alice takes 2." in joined(outs)
    version, state = await game_state(chat.table)
    assert version == 2 and state["pile"] in (pile - 2, pile - 1)


async def test_start_needs_enough_players(chat: Chat) -> None:
    await chat.say("alice", "/new dicepile")
    assert "needs 2-4 players; 1 seated" in await chat.text("alice", "/start")
    for name in ("b", "c", "d"):
        await chat.say(name, "/join")
    assert "full" in await chat.text("e", "/join")


async def test_not_your_turn_and_illegal_moves_change_nothing(chat: Chat) -> None:
    await started(chat, "bob")
    before = await game_state(chat.table)
    assert "Not your turn — waiting for alice." in await chat.text("bob", "/take 1")
    assert await chat.text("alice", "/take 5") == "Take 1 to 3 stones. (TOY-2)"
    assert "How many?" in await chat.text("alice", "/take")
    assert "not playing" in await chat.text("carol", "/take 1")
    # several actions: the second fails, so the first is not applied either
    assert "(TOY-2)" in await chat.text("alice", "/takes 1 9")
    assert await game_state(chat.table) == before
    assert (
        await chat.table.store.actions(present(await chat.table.store.open_game(chat.chat_key)).id)
        == []
    )


async def test_several_actions_commit_together(chat: Chat) -> None:
    pk = await started(chat, "bob")
    await chat.say("alice", "/takes 1 1")
    rows = await chat.table.store.actions(pk)
    assert [(r.seq, r.version, r.player) for r in rows] == [(1, 2, "alice"), (2, 2, "alice")]
    version, state = await game_state(chat.table)
    assert version == 2 and state["turn"] == 1


async def test_quotes_answer_without_a_move(chat: Chat) -> None:
    await started(chat, "bob")
    before = await game_state(chat.table)
    outs = await chat.say("bob", "/pile")  # quotes need no turn
    assert outs[0].text.endswith("stones left.") and outs[0].private_to is None
    outs = await chat.say("alice", "/peek")
    assert outs[0].private_to == "local:alice" and "Psst alice" in outs[0].text
    assert await game_state(chat.table) == before


async def test_command_spelling_variants(chat: Chat) -> None:
    await started(chat, "bob")
    assert "alice takes 1." in await chat.text("alice", "/TAKE@boardchat_bot 1")
    assert "bob takes 1." in await chat.text("bob", "take 1")
    assert parse_command("  /Help@x  bid ") is not None
    line = parse_command("/Help@x  bid")
    assert line is not None and (line.name, line.args, line.slash) == ("help", ["bid"], True)
    assert parse_command("   ") is None and parse_command("/@bot") is None


async def test_group_chatter_without_slash_is_ignored(table: Table) -> None:
    group = Chat(table, chat_key="tg:-100", platform="telegram")
    assert await group.say("alice", "hello everyone") == []
    assert "Unknown command /hello" in await group.text("alice", "/hello")


async def test_a_mistyped_command_gets_the_nearest_one(chat: Chat) -> None:
    """Found playing, 2026-12-03: "/stauts" only said "Unknown command"."""
    assert "Did you mean /status?" in await chat.text("alice", "/stauts")
    hello = await chat.text("alice", "/hello")
    assert "Unknown command /hello" in hello and "Did you mean" not in hello
    await started(chat, "bob")  # seated in a running game: the game's commands and the table's
    assert "Did you mean /status?" in await chat.text("alice", "/stauts")
    takr = await chat.text("alice", "/takr 1")  # near a game command: the game's own refusal
    assert "Unknown command /takr" in takr and "/help" not in takr


async def test_buttons_apply_once_and_go_stale(chat: Chat) -> None:
    await started(chat, "bob")
    prompt = await chat.say("alice", "/status")
    buttons = payloads(prompt)
    assert buttons and all(len(p.encode()) <= MAX_PAYLOAD_BYTES for p in buttons)
    take1 = next(p for p in buttons if p.endswith("/take 1"))
    assert "Not your turn" in joined(await chat.press("bob", take1))
    outs = await chat.press("alice", take1)
    assert "alice takes 1." in joined(outs)
    version, state = await game_state(chat.table)
    outs = await chat.press("alice", take1)  # same button again: stale
    assert outs[0].toast and "out of date" in outs[0].toast and outs[0].private_to == "local:alice"
    assert "out of date" in joined(await chat.press("alice", "garbage"))
    assert "out of date" in joined(await chat.press("alice", "999:2:/take 1"))
    assert await game_state(chat.table) == (version, state)


async def test_long_button_commands_are_dropped(
    make_table: Callable[..., Table], clock: FakeClock
) -> None:
    class Wordy(ChatDicePile):
        def buttons(
            self, state: dict[str, Any], player: str, t: Translator | None = None
        ) -> list[tuple[str, str]]:
            return [("ok", "/take 1"), ("long", "/take 1 " + "x" * 80)]

    chat = Chat(make_table(game=Wordy()))
    await started(chat, "bob")
    assert [p.split(":", 2)[2] for p in payloads(await chat.say("alice", "/status"))] == ["/take 1"]


async def test_duplicate_update_ids_apply_once(chat: Chat) -> None:
    await started(chat, "bob")
    first = await chat.say("alice", "/take 1", update_id="same")
    assert "alice takes 1." in joined(first)
    assert await chat.say("alice", "/take 1", update_id="same") == []
    version, _ = await game_state(chat.table)
    assert version == 2
    # an info command's id is remembered too
    assert await chat.say("bob", "/status", update_id="s1")
    assert await chat.say("bob", "/status", update_id="s1") == []


async def test_undo_own_last_move(chat: Chat) -> None:
    pk = await started(chat, "bob")
    store = chat.table.store
    assert "nothing to undo" in await chat.text("alice", "/undo")
    before = await game_state(chat.table)
    # find a seed-determined first move without a bonus (the die is the game's rng)
    await chat.say("alice", "/take 1")
    rows = await store.actions(pk)
    if any(e["type"] == "bonus" for e in rows[-1].events):
        assert "cannot be undone" in await chat.text("alice", "/undo")
        return
    assert "Only your own" in await chat.text("bob", "/undo")
    outs = await chat.say("alice", "/undo")
    assert "alice takes back their last move." in joined(outs)
    version, state = await game_state(chat.table)
    assert version == before[0] + 2 and state == before[1]
    assert await store.actions(pk) == []


async def test_undo_refused_after_someone_acted_and_after_randomness(chat: Chat) -> None:
    pk = await started(chat, "bob")
    store = chat.table.store
    saw_bonus = saw_plain = False
    for _ in range(40):
        version, state = await game_state(chat.table)
        if state["winner"] is not None:
            break
        who = state["players"][state["turn"]]
        other = next(p for p in state["players"] if p != who)
        await chat.say(who, "/take 1")
        last = (await store.actions(pk))[-1]
        assert "Only your own" in await chat.text(other, "/undo")
        if any(e["type"] == "bonus" for e in last.events):
            saw_bonus = True
            assert "cannot be undone" in await chat.text(who, "/undo")
            assert (await game_state(chat.table))[0] == version + 1
        elif not saw_plain:
            saw_plain = True
            assert "takes back" in await chat.text(who, "/undo")
            replayed = replay(
                chat.table.games["dicepile"],
                ["alice", "bob"],
                {"start": "10"},
                12345,
                [(a.player, a.action) for a in await store.actions(pk)],
            )
            assert canonical_json(replayed) == canonical_json((await game_state(chat.table))[1])
            await chat.say(who, "/take 1")
        if saw_bonus and saw_plain:
            break
    assert saw_bonus and saw_plain


async def test_options_are_validated(chat: Chat) -> None:
    assert "Unknown option 'speed=9'" in await chat.text("alice", "/new dicepile speed=9")
    assert "takes one of: 5, 10, 20" in await chat.text("alice", "/new dicepile start=7")
    assert "do not know the game" in await chat.text("alice", "/new chess")
    assert "Which game?" in await chat.text("alice", "/new")
    assert "start=20" in await chat.text("alice", "/new dicepile start=20")
    assert "already has a game" in await chat.text("bob", "/new dicepile")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    row = await chat.table.store.open_game(chat.chat_key)
    assert row is not None and row.options == {"start": "20"}
    _, state = await game_state(chat.table)
    assert state["pile"] >= 21


async def test_leave_only_before_start(chat: Chat) -> None:
    await chat.say("alice", "/new dicepile")
    await chat.say("bob", "/join")
    assert "bob leaves. Seated: alice." in await chat.text("bob", "/leave")
    assert "not seated" in await chat.text("bob", "/leave")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    refused = await chat.text("bob", "/leave")
    assert "cannot be given up" in refused
    # a player's own ways out, not only the creator's /abort (found play-testing)
    assert "/away <duration>" in refused and "/vote replace bob" in refused
    assert "/abort" in refused
    assert "already started" in await chat.text("carol", "/join")
    # found play-testing (2026-12-03): one who never sat was told the seats are fixed now
    assert await chat.text("carol", "/leave") == "You are not seated at this table."


async def test_kick_takes_a_seat_off_and_leave_names_only_oneself(chat: Chat) -> None:
    """Found playing (2026-12-03): "/leave Bot" unseated the creator who sent it, and nothing
    took a bot or a player who went quiet off a table that had not started."""
    await chat.say("alice", "/new dicepile")
    await chat.say("bob", "/join")
    await chat.say("bob", "/addbot")
    await chat.say("bob", "/addbot")
    assert "/kick <name>" in await chat.text("alice", "/leave Bot")
    assert "Only the creator or a chat admin" in await chat.text("bob", "/kick Bot 2")
    assert await chat.text("alice", "/kick bot 2") == (
        "alice takes Bot 2 off the table. Seated: alice, bob, Bot."
    )
    assert "Nobody called 'zed' is seated" in await chat.text("alice", "/kick @zed")
    chat.admins.add("carol")
    assert await chat.text("carol", "/kick @bob") == (
        "carol takes bob off the table. Seated: alice, Bot."
    )
    # a bot is named in the chat's language; "bot" in any of ours names it (play-testing,
    # 2026-12-03: a Polish player could not type the Russian chat's "Бот")
    await chat.say("alice", "/lang chat ru")
    await chat.say("alice", "/addbot")
    assert "Бот" in await chat.text("alice", "/kick bot")
    assert "Bot" not in await chat.text("alice", "/kick Bot")  # "Bot", the English one, next


async def test_a_creator_who_leaves_the_lobby_hands_the_start_on(chat: Chat) -> None:
    """Found playing (2026-12-03): the creator left, and nobody seated could /start."""
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/addbot")
    await chat.say("bob", "/join")
    [handed] = await chat.say("alice", "/leave")
    assert handed.text == "alice leaves. Seated: Bot, bob. @bob now starts the game."
    assert handed.mentions == [("local:bob", "bob")] and not handed.silent  # asks him to act
    assert "begins" in await chat.text("bob", "/start")
    other = Chat(chat.table, chat_key="local:bots-only")
    await other.say("carol", "/new dicepile")
    await other.say("carol", "/addbot")
    # no person left to hand it to: the creator keeps it, to start a game of bots
    assert await other.text("carol", "/leave") == "carol leaves. Seated: Bot."
    await other.say("carol", "/addbot")
    assert "Game over" in await other.text("carol", "/start")


async def test_status_after_the_game_tells_how_it_ended(chat: Chat) -> None:
    """Found play-testing, 2026-12-03: /status right after a game's result said "No game
    here yet", while /log still showed the game."""
    assert "No game here yet" in await chat.text("carol", "/status")
    await chat.say("carol", "/new dicepile")
    await chat.say("carol", "/addbot")
    await chat.say("carol", "/leave")
    await chat.say("carol", "/addbot")
    assert "Game over" in await chat.text("carol", "/start")
    assert await chat.text("carol", "/status") == (
        "Last game here: Dice pile (g1). /new starts another.\nGame over: Bot wins."
    )


async def test_equal_names_are_made_unique(table: Table) -> None:
    chat = Chat(table)
    await chat.say("Alex", "/new dicepile")
    inbound = chat.inbound("someone", text="/join")
    other = type(inbound)(**{**inbound.__dict__, "user_key": "tg:2", "display_name": "alex"})
    outs = await table.handle(other)
    assert "alex 2 joins" in joined(outs)
    assert clean_name("  @Bob\n\x00 the  builder ") == "Bob the builder"
    assert clean_name("") == "Player"


async def test_abort_needs_creator_or_admin_and_confirmation(chat: Chat) -> None:
    await started(chat, "bob")
    refused = await chat.say("bob", "/abort")
    assert "Only the creator or a chat admin" in joined(refused)
    outs = await chat.say("alice", "/abort")
    # the refusal and the question are the sender's alone (found playing, 2026-12-03)
    assert all(o.sender_only for o in refused + outs)
    (confirm,) = payloads(outs)
    assert confirm.endswith("/abort confirm")
    await chat.say("alice", "/take 1")  # the game moves on: the confirm button is stale
    assert "out of date" in joined(await chat.press("alice", confirm))
    chat.admins.add("bob")
    assert "ended without a result" in await chat.text("bob", "/abort confirm")
    assert await chat.table.store.open_game(chat.chat_key) is None
    assert "was ended without a result" in await chat.text("alice", "/status")


async def test_bots_play_after_humans(chat: Chat) -> None:
    await chat.say("alice", "/new dicepile")
    assert "Bot joins" in await chat.text("alice", "/addbot greedy")
    assert "Bot kinds: random, greedy" in await chat.text("alice", "/addbot clever")
    outs = await chat.say("alice", "/start")
    _, state = await game_state(chat.table)
    assert state["turn"] == 0
    outs = await chat.say("alice", "/take 1")
    text = joined(outs)
    assert "alice takes 1." in text
    _, state = await game_state(chat.table)
    assert state["winner"] == "Bot" or "Bot takes" in text
    if state["winner"] is None:
        assert state["turn"] == 0 and outs[-1].mentions == [("local:alice", "alice")]


async def test_an_all_bot_game_plays_to_the_end(chat: Chat) -> None:
    await chat.say("host", "/new dicepile")
    await chat.say("host", "/leave")
    for kind in ("random", "greedy", "random"):
        await chat.say("host", f"/addbot {kind}")
    outs = await chat.say("host", "/start")
    assert joined(outs).endswith("Game over: Bot wins.")  # the game's own words, said once
    row = await chat.table.store.last_game(chat.chat_key)
    assert row is not None and row.status == "over"
    assert await chat.table.store.reminder(row.id) is None
    assert all(len(o.text) <= 2000 and o.text for o in outs)


async def test_render_failure_still_sends_text(
    make_table: Callable[..., Table], caplog: pytest.LogCaptureFixture
) -> None:
    chat = Chat(make_table(game=ChatDicePile(fail_render=True)))
    with caplog.at_level(logging.ERROR):
        await chat.say("alice", "/new dicepile")
        outs = await started_again(chat)
    assert all(o.png is None for o in outs)
    assert "begins" in joined(outs)
    assert "render failed" in caplog.text
    assert "could not draw" in await chat.text("alice", "/board")


async def started_again(chat: Chat) -> list[Outbound]:
    await chat.say("bob", "/join")
    return await chat.say("alice", "/start")


async def test_unexpected_errors_are_answered_and_logged(
    make_table: Callable[..., Table], caplog: pytest.LogCaptureFixture
) -> None:
    class Broken(ChatDicePile):
        def parse(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
            raise RuntimeError("boom")

    chat = Chat(make_table(game=Broken()))
    await started(chat, "bob")
    with caplog.at_level(logging.ERROR):
        outs = await chat.say("alice", "/take 1")
    assert "Sorry, something went wrong" in joined(outs)
    assert "game 1" in caplog.text and "boom" in caplog.text


async def test_board_status_log_help_rules(chat: Chat, clock: FakeClock) -> None:
    assert "No game here" in await chat.text("alice", "/board")
    assert "Games: dicepile (Dice pile)" in await chat.text("alice", "/help")
    await started(chat, "bob")
    outs = await chat.say("bob", "/board")
    assert outs[0].png is not None
    clock.advance(3600)
    status = await chat.text("bob", "/status")
    assert "waiting for alice" in status and "Deadline: in 23 hours." in status
    await chat.say("alice", "/take 1")
    assert "#1 alice takes 1." in await chat.text("bob", "/log")
    assert "Usage: /log" in await chat.text("bob", "/log x")
    helptext = await chat.text("bob", "/help")
    assert "/new <game> [options...]" in helptext and "/take <n>" in helptext
    assert "Examples: /takes 1 2" in await chat.text("bob", "/help takes")
    assert "Unknown command /nope" in await chat.text("bob", "/help nope")
    assert "TOY-1: Turn order" in await chat.text("bob", "/rules toy-1")
    assert "no title for X-9" in await chat.text("bob", "/rules x-9")
    assert "Rule ids: TOY-1, TOY-2" in await chat.text("bob", "/rules")


async def test_reminder_due_time_follows_the_turn(chat: Chat, clock: FakeClock) -> None:
    pk = await started(chat, "bob")
    store = chat.table.store
    rem = await store.reminder(pk)
    assert rem is not None and rem.due_at == clock.now + 24 * 3600 and rem.players == ["alice"]
    await store.set_chat_settings(chat.chat_key, {"deadline_hours": 2})
    clock.advance(100)
    await chat.say("alice", "/take 1")
    rem = await store.reminder(pk)
    _, state = await game_state(chat.table)
    assert rem is not None and rem.due_at == clock.now + 2 * 3600
    assert rem.players == [state["players"][state["turn"]]]


async def test_games_across_chats_and_language(table: Table) -> None:
    one, two = Chat(table, chat_key="local:one"), Chat(table, chat_key="local:two")
    await one.say("alice", "/new dicepile")
    await one.say("bob", "/join")
    await one.say("alice", "/start")
    await two.say("bob", "/new dicepile")
    # Chats are named by their titles (issue 17), never by their keys.
    await table.store.set_chat_name("local:one", "Kitchen", None)
    await table.store.set_chat_name("local:two", "Garden", None)
    text = await one.text("alice", "/games")
    assert "Dice pile @ Kitchen: your move" in text and "Garden" not in text
    text = await two.text("bob", "/games")
    assert "Kitchen: waiting for alice" in text and "Garden: waiting for players" in text
    assert "local:" not in text
    assert (await one.text("alice", "/lang ru-RU")).endswith(": русский (ru).")  # said in Russian
    # /lang is personal (issue 18): the chat keeps the language its first table opened in
    assert (await table.store.user("local:alice")).lang == "ru"
    assert (await table.store.chat("local:one")).lang == "en"
    assert "xx" in await one.text("alice", "/lang xx")
    assert (await table.store.user("local:alice")).lang == "ru"
    assert "Unknown language" in await one.text("alice", "/lang en") + await one.text(
        "a", "/lang xx"
    )


async def test_command_specs_menu_and_complete(chat: Chat) -> None:
    table = chat.table
    names = [s.name for s in table.command_specs()]
    assert names[:3] == ["new", "join", "leave"] and "take" in names
    assert len(names) == len(set(names))
    menu = dict(table.command_menu("en"))
    assert menu["take"] == "Take 1 to 3 stones"
    assert await table.complete(chat.chat_key, "local:alice", "game", "di") == ["dicepile"]
    await started(chat, "bob")
    assert await table.complete(chat.chat_key, "local:alice", "int", "") == ["1", "2", "3"]
    sent: list[Outbound] = []

    async def send(out: Outbound) -> None:
        sent.append(out)

    table.register_sender("local", send)
    assert await table.push([Outbound("local:test", "ping"), Outbound("tg:1", "lost")]) == 1
    assert [o.text for o in sent] == ["ping"]


def test_arg_at_finds_the_argument_of_the_last_word() -> None:
    from engine.core.protocol import ArgSpec

    bid = (ArgSpec("plant", "plant"), ArgSpec("amount", "int"), ArgSpec("max", "rest"))
    at = arg_at(bid, "1")
    assert at is not None and (at.arg.name, at.done, at.start, at.partial) == ("plant", (), 0, "1")
    at = arg_at(bid, "13 ")
    assert at is not None and (at.arg.name, at.partial) == ("amount", "")
    at = arg_at(bid, "13 15 max=20 x")
    assert at is not None and (at.arg.name, at.start) == ("max", 2)
    assert arg_at(bid, "13 max=2") is None  # a key=value word is not completed
    assert arg_at((ArgSpec("n", "int"),), "1 2") is None  # past the last argument
    power = (ArgSpec("plants", "plant", repeated=True), ArgSpec("fuel", "rest"))
    at = arg_at(power, "4 coal=1 7 1")
    assert at is not None and (at.arg.name, at.done, at.start) == (
        "plants",
        ("4", "coal=1", "7"),
        0,
    )
    move = (ArgSpec("figure", "cell"), ArgSpec("direction", "choice", choices=("E", "SE")))
    at = arg_at(move, "  L12   S")
    assert at is not None and (at.arg.name, at.done, at.start) == ("direction", ("L12",), 1)


async def test_complete_free_text_by_the_chat_s_game(chat: Chat) -> None:
    table = chat.table
    assert await table.complete(chat.chat_key, "local:alice", "args:takes", "") == []  # no game
    await started(chat, "bob")
    complete = table.complete
    assert await complete(chat.chat_key, "local:alice", "args:takes", "") == ["1", "2", "3"]
    assert await complete(chat.chat_key, "local:alice", "args:takes", "1 ") == [
        "1 1",
        "1 2",
        "1 3",
    ]
    assert await complete(chat.chat_key, "local:alice", "args:take", "2") == ["2"]
    assert await complete(chat.chat_key, "local:alice", "args:take", "2 1") == []
    assert await complete(chat.chat_key, "local:alice", "args:pile", "") == []  # no arguments
    assert await complete(chat.chat_key, "local:alice", "args:build", "") == []  # not this game
    # the table's /new: the games, then the chosen game's options (issue 22.5)
    assert await complete(chat.chat_key, "local:alice", "args:new", "") == ["dicepile"]
    assert await complete(chat.chat_key, "local:alice", "args:new", "dicepile st") == [
        "dicepile start="
    ]
    assert await complete(chat.chat_key, "local:alice", "args:new", "dicepile start=2") == [
        "dicepile start=20"
    ]
    assert await complete(chat.chat_key, "local:alice", "args:takes:5", "") == []


def test_fit_splits_long_texts_and_keeps_buttons_last() -> None:
    from bot.messages import Button

    text = "\n".join(f"line {i} " + "x" * 50 for i in range(200))
    outs = _fit([Outbound("c", text, buttons=[[Button("a", "p")]], mentions=[("u", "line 0")])])
    assert len(outs) > 5 and all(0 < len(o.text) <= 2000 for o in outs)
    assert outs[-1].buttons and not any(o.buttons for o in outs[:-1])
    assert "\n".join(o.text for o in outs) == text
    assert split_text("y" * 4500, 2000) == ["y" * 2000, "y" * 2000, "y" * 500]
    assert _fit([Outbound("c", "   ")]) == []


async def test_restart_continues_and_replays(db_path: str, clock: FakeClock) -> None:
    game = ChatDicePile()
    store = await Store.open(db_path, clock=clock)
    chat = Chat(Table(store, games={"dicepile": game}, clock=clock, seeder=lambda: 99))
    pk = await started(chat, "bob", "carol")
    await chat.say("alice", "/take 1")
    await store.close()
    store = await Store.open(db_path, clock=clock)
    chat = Chat(Table(store, games={"dicepile": game}, clock=clock))
    for _ in range(200):
        _, state = await game_state(chat.table)
        if state["winner"] is not None:
            break
        await chat.say(state["players"][state["turn"]], "/take 2")
    row = await store.game(pk)
    assert row is not None and row.status == "over" and row.state_json is not None
    log = [(a.player, a.action) for a in await store.actions(pk)]
    replayed = replay(game, ["alice", "bob", "carol"], row.options, 99, log)
    assert canonical_json(replayed) == row.state_json
    assert await store.schema_version() >= 1
    await store.close()


def test_split_text_keeps_a_heading_with_its_indented_lines() -> None:
    """/help new lists each game's options under a heading: a piece ends before a heading,
    never between it and its options, and an option's indent survives the cut."""
    games = [
        f"Game {g} options:\n" + "\n".join(f"  opt{i}: " + "x" * 60 for i in range(6))
        for g in range(8)
    ]
    text = "\n".join(games)
    pieces = split_text(text, 1000)
    assert len(pieces) > 2 and all(len(p) <= 1000 for p in pieces)
    assert all(p.startswith("Game ") for p in pieces)
    assert "\n".join(pieces) == text
    # one long indented block: cut at a line break, indent kept
    block = "Items:\n" + "\n".join("  item " + "y" * 40 for _ in range(60))
    assert "\n".join(split_text(block, 1000)) == block
