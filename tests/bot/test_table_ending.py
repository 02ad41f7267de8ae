"""Issues 24 and 25 through the table service: /rules in every language for the rule a real
refusal names (and the refusal's "See /rules" line), /log in words, /stats over finished
games, /hint told privately (and off at tables that say so), /replay during a game."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable

import pytest

from bot.ending import hint_budget, hint_function
from bot.i18n import translator
from bot.messages import Inbound, Outbound
from bot.store import Store
from bot.table import Table, discover_games
from engine.core import canonical_json
from tests.bot.helpers import Chat, FakeClock, joined

GROUP = "tg:-1001"
GAMES = discover_games()
PG = GAMES["powergrid"]
RULE_ID = re.compile(r"\(((?:EX-)?[A-Z]+-\d+[a-z]?)\)")


@pytest.fixture
async def table(db_path: str, clock: FakeClock) -> AsyncIterator[Table]:
    store = await Store.open(db_path, clock=clock)
    yield Table(store, games=GAMES, clock=clock, render=False, seeder=lambda: 7)
    await store.close()


def inbound(user: str, text: str, chat: str = GROUP, lang: str | None = None) -> Inbound:
    return Inbound(
        platform="telegram",
        chat_key=chat,
        user_key=f"tg:{user}",
        display_name=user,
        lang=lang,
        text=text,
    )


async def say(table: Table, user: str, text: str, lang: str | None = None) -> list[Outbound]:
    return await table.handle(inbound(user, text, lang=lang))


async def open_game(table: Table, game: str, players: list[str], bots: int = 0) -> int:
    await say(table, players[0], f"/new {game}")
    for name in players[1:]:
        await say(table, name, "/join")
    for _ in range(bots):
        await say(table, players[0], "/addbot heuristic")
    outs = await say(table, players[0], "/start")
    assert "begins" in joined(outs), joined(outs)
    row = await table.store.open_game(GROUP)
    assert row is not None
    return row.id


async def state_of(table: Table) -> dict:
    row = await table.store.open_game(GROUP)
    assert row is not None and row.state_json is not None
    return json.loads(row.state_json)


# ------------------------------------------------------------------ /rules and refusals
async def test_pg21_a_refusal_names_its_rule_and_rules_explains_it_in_every_language(
    table: Table,
) -> None:
    await open_game(table, "powergrid", ["alice", "bob"])
    state = await state_of(table)
    first = PG.current_players(state)[0]
    refusal = joined(await say(table, first, "/bid 3 1"))  # below the plant's number
    found = RULE_ID.search(refusal)
    assert found, refusal
    rule = found.group(1)
    assert refusal.endswith(f"See /rules {rule}.")  # the hint line on the refusal
    answers = {}
    for lang in ("en", "ru", "zh-hant", "pl"):
        await say(table, first, f"/lang {lang}")
        text = joined(await say(table, first, f"/rules {rule}"))
        assert text.startswith(f"{rule} · "), (lang, text)
        assert "Nothing about" not in text
        answers[lang] = text
        refused = joined(await say(table, first, "/bid 3 1"))
        assert refused.endswith(translator(lang).gettext("See /rules {rule}.").format(rule=rule)), (
            lang,
            refused,
        )
    assert len(set(answers.values())) == 4  # each language its own text


async def test_rules_without_a_game_lists_the_games_and_explains_one(table: Table) -> None:
    text = joined(await say(table, "alice", "/rules"))
    assert "powergrid" in text and "/rules <game>" in text
    howto = joined(await say(table, "alice", "/rules hexania"))
    assert "how to play" in howto
    assert joined(await say(table, "alice", "/rules iec IEC-10")).startswith("IEC-10 · ")


async def test_rules_in_a_game_how_to_play_and_a_word(table: Table) -> None:
    await open_game(table, "powergrid", ["alice", "bob"])
    assert "how to play" in joined(await say(table, "alice", "/rules"))
    found = joined(await say(table, "alice", "/rules build"))
    assert found.startswith("“build” in the rules of Power Grid") and "PG-36 · " in found


# ------------------------------------------------------------------ /log
async def test_log_in_words_names_the_actor_of_bot_played_moves(table: Table) -> None:
    pk = await open_game(table, "powergrid", ["alice"], bots=2)
    for _ in range(6):  # alice passes or plays her bot's move; the bots answer
        state = await state_of(table)
        if "alice" not in PG.current_players(state):
            break
        from bot.bots import bot_action, bot_rng

        action = bot_action(PG, state, "alice", "heuristic", bot_rng(1, len(state)))
        assert action is not None
        await table.act(inbound("alice", ""), action)
    actions = await table.store.actions(pk)
    assert any(a.player != "alice" for a in actions)  # moves the bots played
    text = joined(await say(table, "alice", "/log"))
    assert "{" not in text and '"type"' not in text
    lines = text.splitlines()
    for entry in actions[-10:]:
        line = next(x for x in lines if x.startswith(f"#{entry.seq} "))
        assert entry.player in line, (entry.player, line)
    assert "Usage: /log" in joined(await say(table, "alice", "/log x"))


# ------------------------------------------------------------------ /stats
async def finish_dice_game(chat: Chat, players: list[str]) -> None:
    await chat.say(players[0], "/new dicepile start=5")
    for name in players[1:]:
        await chat.say(name, "/join")
    await chat.say(players[0], "/start")
    for _ in range(60):
        row = await chat.table.store.open_game(chat.chat_key)
        if row is None:
            return
        state = json.loads(row.state_json or "{}")
        who = state["players"][state["turn"]]
        await chat.say(who, f"/take {min(3, state['pile'])}")
    raise AssertionError("the dice game did not end")


async def test_stats_after_two_finished_games(
    make_table: Callable[..., Table], clock: FakeClock
) -> None:
    chat = Chat(make_table())
    assert "No finished games yet" in await chat.text("alice", "/stats")
    await finish_dice_game(chat, ["alice", "bob"])
    await finish_dice_game(chat, ["alice", "bob"])
    rows = await chat.table.store.finished_games(chat_key=chat.chat_key)
    assert len(rows) == 2 and all(len(r.seats) == 2 for r in rows)
    mine = await chat.table.store.finished_games(user_key="local:bob")
    assert [r.row.id for r in mine] == [r.row.id for r in rows]
    winners = [
        chat.table.games["dicepile"].result(json.loads(r.row.state_json or "{}"))[0][0]
        for r in rows
    ]
    board = await chat.text("alice", "/stats")
    for name in ("alice", "bob"):
        wins = winners.count(name)
        assert f"{name}: 2 games, {wins} win{'' if wins == 1 else 's'}, average rank" in board
    one = await chat.text("alice", "/stats @bob")
    assert one.startswith("bob: 2 games") and "Dice pile: 2 games" in one
    assert "has not finished a game" in await chat.text("alice", "/stats @nobody")


# ------------------------------------------------------------------ /hint
async def test_hint_is_told_to_the_asker_alone_and_is_a_legal_move(table: Table) -> None:
    await open_game(table, "powergrid", ["alice", "bob"])
    state = await state_of(table)
    first = PG.current_players(state)[0]
    outs = await say(table, first, "/hint")
    assert len(outs) == 1 and outs[0].private_to == f"tg:{first}", outs
    assert outs[0].text.startswith("Hint: ") and len(outs[0].text) > len("Hint: ")
    fn = hint_function(PG)
    assert fn is not None
    hint = fn(state, first, translator("en"), budget=hint_budget())
    assert hint is not None
    action, why = hint
    PG.apply(json.loads(canonical_json(state)), first, action)  # legal: no IllegalAction
    # with the command that plays it, as Hexania's and IEC's hints begin (found playing);
    # the engine leads with it (commands.command_text), so the table adds none
    assert action["type"] == "choose_region"
    assert why.startswith(f"/region {action['region']} — ")
    assert outs[0].text == f"Hint: {why}"
    other = "bob" if first == "alice" else "alice"
    assert "Not your turn" in joined(await say(table, other, "/hint"))
    assert (await say(table, other, "/hint"))[0].private_to == f"tg:{other}"


async def test_a_player_out_of_the_game_is_told_so(table: Table) -> None:
    """HEX-2.4: the player who ends his turn with nothing done is eliminated. Found playing,
    2026-12-03: his next move and /hint answered "Not your turn", as if it would come; now
    he is told he is out, in his own language, and the game goes on without him."""
    await open_game(table, "hexania", ["ann", "bo", "cyd"])
    first = GAMES["hexania"].current_players(await state_of(table))[0]
    assert (await say(table, first, "/end yes"))[0].sender_only is False  # announced
    state = await state_of(table)
    assert GAMES["hexania"].eliminated(state) == [first]
    refused = await say(table, first, "/spawn A1")
    assert joined(refused) == "You are out of this game; /status shows how it goes on."
    assert refused[0].sender_only and refused[0].silent
    hint = await say(table, first, "/hint", lang="ru")
    assert "Вы выбыли из этой игры" in joined(hint) and hint[0].sender_only and hint[0].silent
    assert await state_of(table) == state  # nothing changed
    now = GAMES["hexania"].current_players(state)[0]
    waiting = next(p for p in ("ann", "bo", "cyd") if p not in (first, now))
    assert "Not your turn" in joined(await say(table, waiting, "/spawn A1"))


async def test_hints_off_refuses(table: Table) -> None:
    await open_game(table, "powergrid", ["alice", "bob"])
    assert "Settings saved" in joined(await say(table, "alice", "/settings hints=off"))
    assert "Hints are switched off" in joined(await say(table, "bob", "/hint"))
    assert "hints takes on or off" in joined(await say(table, "alice", "/settings hints=maybe"))
    await say(table, "alice", "/settings hints=on")
    first = PG.current_players(await state_of(table))[0]
    assert joined(await say(table, first, "/hint")).startswith("Hint: ")


# ------------------------------------------------------------------ /replay
async def test_replay_during_a_game_sends_the_animation_so_far(
    db_path: str, clock: FakeClock
) -> None:
    store = await Store.open(db_path, clock=clock)
    try:
        table = Table(store, games=GAMES, clock=clock, render=True, seeder=lambda: 7)
        await say(table, "alice", "/new iec")
        await say(table, "bob", "/join")
        await say(table, "alice", "/start")
        outs = await say(table, "bob", "/replay")
        assert len(outs) == 1 and outs[0].file is not None, joined(outs)
        assert outs[0].filename in ("replay.mp4", "replay.gif")
        assert "replay" in outs[0].text
        assert "Pictures are switched off" in joined(
            await Table(store, games=GAMES, clock=clock, render=False).handle(
                inbound("bob", "/replay")
            )
        )
    finally:
        await store.close()
