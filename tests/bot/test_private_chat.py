"""The table's questions and /undo sent in a private chat, about the sender's game in a group
(found playing, 2026-12-03: a move sent privately was played, but /status, /board, /log,
/hint and /rules there answered "No game here yet"), and /start's welcome there."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest

from bot.i18n import tr
from bot.messages import Outbound
from bot.store import Store
from bot.table import Table, discover_games
from tests.bot.helpers import FakeClock, joined
from tests.bot.test_table_integration import Pushed, inbound, open_game, say, state_of

GROUP = "tg:-1001"
DM = "tg:dm-alice"
GAMES = discover_games()


@pytest.fixture
async def table(db_path: str, clock: FakeClock) -> AsyncIterator[Table]:
    store = await Store.open(db_path, clock=clock)
    yield Table(store, games=GAMES, clock=clock, render=False, seeder=lambda: 7)
    await store.close()


@pytest.fixture
def pushed(table: Table) -> Pushed:
    sender = Pushed()
    table.register_sender("telegram", sender)
    return sender


async def ask(table: Table, text: str, user: str = "alice", **kw: object) -> list[Outbound]:
    return await say(table, user, text, chat=f"tg:dm-{user}", private=True, **kw)


def only_here(outs: list[Outbound], chat: str = DM) -> bool:
    return bool(outs) and all(o.chat_key == chat for o in outs)


async def test_status_in_a_private_chat_answers_about_the_game_in_the_group(
    table: Table, pushed: Pushed
) -> None:
    await open_game(table, "powergrid", ["alice", "bob", "carol"])
    in_group = joined(await say(table, "alice", "/status"))
    outs = await ask(table, "/status")
    assert only_here(outs) and pushed.outs == []
    assert "No game here" not in joined(outs)
    assert all(o.silent for o in outs)  # the answer to what he has just asked: no ping
    # the same turn as in the group: bob chooses a plant first (PG-12)
    assert "bob" in joined(outs) and "bob" in in_group
    # in the asker's own language, not the group's
    ru = await ask(table, "/status", lang="ru")
    assert only_here(ru) and joined(ru) != joined(outs)


async def test_log_in_a_private_chat_is_the_senders_own_page(table: Table, pushed: Pushed) -> None:
    await open_game(table, "powergrid regions=random", ["alice", "bob", "carol"])
    await say(table, "bob", "/bid 3 3")
    outs = await ask(table, "/log")
    assert only_here(outs) and pushed.outs == []
    assert "bob puts plant 3" in joined(outs)
    # nobody else's private copy reaches this chat
    assert all(o.private_to is None for o in outs)


async def test_rules_and_hint_in_a_private_chat(table: Table, pushed: Pushed) -> None:
    await open_game(table, "powergrid", ["alice", "bob", "carol"])
    rules = await ask(table, "/rules PG-12")
    assert only_here(rules) and "PG-12" in joined(rules)
    hint = await ask(table, "/hint", user="bob")
    assert only_here(hint, "tg:dm-bob") and "No game here" not in joined(hint)
    assert pushed.outs == []


async def test_undo_in_a_private_chat_takes_back_the_move_in_the_group(
    table: Table, pushed: Pushed
) -> None:
    await open_game(table, "powergrid regions=random", ["alice", "bob", "carol"])
    before = await state_of(table)
    await say(table, "bob", "/bid 3 3")
    assert await state_of(table) != before
    outs = await ask(table, "/undo", user="bob")
    assert outs and all(o.chat_key == "tg:dm-bob" or o.private_to for o in outs)
    done = [o for o in outs if "Done in" in o.text]
    assert done and all(o.silent for o in done)  # he has just sent it: no ping
    assert await state_of(table) == before
    # the group hears that the move was taken back
    assert [o for o in pushed.outs if o.chat_key == GROUP and o.private_to is None]


async def test_a_private_question_names_the_game_when_the_player_has_several(
    table: Table, pushed: Pushed
) -> None:
    first = await open_game(table, "powergrid", ["alice", "bob", "carol"])
    second = await open_game(table, "hexania", ["alice", "bob"], chat="tg:-1002")
    outs = await ask(table, "/status")
    text = joined(outs)
    assert f"g{first}" in text and f"g{second}" in text and "/status g" in text
    outs = await ask(table, f"/status g{second}")
    assert only_here(outs) and f"g{first}" not in joined(outs)
    assert pushed.outs == []


async def test_a_private_question_without_a_game_keeps_the_tables_answer(table: Table) -> None:
    outs = await ask(table, "/status")
    assert "No game here" in joined(outs)


async def test_start_in_a_private_chat_greets(table: Table) -> None:
    outs = await ask(table, "/start")
    assert only_here(outs) and "/new" in joined(outs) and "powergrid" in joined(outs)
    ru = joined(await ask(table, "/start", lang="ru"))
    assert ru != joined(outs) and ru == tr("ru", _welcome_msgid(), games=", ".join(GAMES))


def _welcome_msgid() -> str:
    return (
        "Hello! I run board games in group chats, one move at a time: add me to a "
        "group and send /new <game> there ({games}). Here, in private, I tell you what "
        "only you may know and remind you when the table waits for you; your moves and "
        "/status, /board, /log, /hint work here too. /games lists your games, /digest "
        "on sends a daily list, /lang sets your language."
    )


async def test_board_in_a_private_chat_is_the_groups_picture(
    db_path: str, clock: FakeClock
) -> None:
    store = await Store.open(db_path, clock=clock)
    try:
        table = Table(store, games=GAMES, clock=clock, render=True, seeder=lambda: 7)
        await open_game(table, "powergrid", ["alice", "bob", "carol"])
        outs = await ask(table, "/board")
        assert only_here(outs) and any(o.png or o.picture for o in outs)
        # Hexania words its board on request there too (HEX-G-6)
        await open_game(table, "hexania", ["dave", "erin"], chat="tg:-1002")
        words = await ask(table, "/board text", user="dave")
        assert only_here(words, "tg:dm-dave") and not any(o.png or o.picture for o in words)
        assert " A " in joined(words) or "A ." in joined(words)
    finally:
        await store.close()


async def test_help_in_a_private_chat_lists_the_commands_of_the_senders_game(
    table: Table, pushed: Pushed
) -> None:
    outs = await ask(table, "/help")  # no game: the table's list and the games
    assert only_here(outs) and "/bid" not in joined(outs)
    await open_game(table, "powergrid", ["alice", "bob", "carol"])
    outs = await ask(table, "/help")
    assert only_here(outs) and "/bid" in joined(outs) and "/build" in joined(outs)
    bid = await ask(table, "/help bid")
    assert only_here(bid) and "max=" in joined(bid)
    await open_game(table, "hexania", ["alice", "bob"], chat="tg:-1002")
    several = joined(await ask(table, "/help"))  # several games: the general list, no question
    assert "several games" not in several and "/status" in several
    assert pushed.outs == []


async def test_rules_in_a_private_chat_of_another_game_or_of_several(table: Table) -> None:
    await open_game(table, "powergrid", ["alice", "bob", "carol"])
    hexania = joined(await ask(table, "/rules hexania"))  # another game's, by its name
    assert "Nothing about" not in hexania and "HEX-" in hexania
    await open_game(table, "hexania", ["alice", "bob"], chat="tg:-1002")
    several = joined(await ask(table, "/rules"))
    assert "several games" not in several and "/rules <game>" in several


async def test_a_private_answer_keeps_the_buttons_only_for_the_player_asked(
    table: Table, pushed: Pushed
) -> None:
    """Found playing Hexania, 2026-12-03: the opponent's /spawn buttons came with /status."""
    await open_game(table, "hexania", ["alice", "bob"])
    state = await state_of(table)
    (mover,) = GAMES["hexania"].current_players(state)
    waiter = "bob" if mover == "alice" else "alice"
    theirs = await ask(table, "/status", user=waiter)
    assert only_here(theirs, f"tg:dm-{waiter}") and not any(o.buttons for o in theirs)
    mine = await ask(table, "/status", user=mover)
    assert any(o.buttons for o in mine)
    # pressed there, the button plays in the group (bot/dm_press.py)
    payload = next(b.payload for o in mine for row in o.buttons for b in row)
    before = await state_of(table)
    pressed = await table.handle(
        replace(inbound(mover, "", chat=f"tg:dm-{mover}", private=True), text=None, payload=payload)
    )
    assert pressed and await state_of(table) != before
    assert [o for o in pushed.outs if o.chat_key == GROUP and o.private_to is None]


async def test_the_confirmation_of_a_private_move_is_committed_with_the_move(
    db_path: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The confirmation "Done in ...; announced in ..." is one of the move's messages: queued
    in the move's own transaction, so a crash right after the commit cannot lose it (it used
    to be written after the commit, by a second write)."""
    store = await Store.open(db_path, clock=clock)
    durable = Table(
        store, games=GAMES, clock=clock, render=False, seeder=lambda: 7, durable=("telegram",)
    )
    try:
        await open_game(durable, "powergrid regions=random", ["alice", "bob", "carol"])
        before = await state_of(durable)

        async def crashed(rows: object) -> list[int]:
            raise RuntimeError("the process died after the move's commit")

        monkeypatch.setattr(store, "outbox_add", crashed)  # any write after the commit fails
        outs = await say(durable, "bob", "/bid 3 3", chat="tg:dm-bob", private=True)
        assert await state_of(durable) != before
        [done] = [o for o in outs if "Done in" in o.text]
        assert done.chat_key == "tg:dm-bob" and done.silent and done.outbox_id is not None
        [row] = [r for r in await store.outbox() if r.id == done.outbox_id]
        assert "announced in" in row.body["text"] and row.status == "pending"
        # the group's part is in the same transaction: queued, not sent by the caller
        group = [r for r in await store.outbox() if r.chat_key == GROUP]
        assert group and max(r.id for r in group) < done.outbox_id
    finally:
        await store.close()


async def test_status_in_a_private_chat_keeps_the_head_and_the_deadline(
    table: Table, pushed: Pushed
) -> None:
    """Found playing, 2026-12-03: a private /status came back as the asker's turn alone,
    without the game, whom the table waits for, or the deadline the group's answer has."""
    await open_game(table, "powergrid", ["alice", "bob", "carol"])
    in_group = (await say(table, "alice", "/status"))[0].text
    outs = await ask(table, "/status")
    text = joined(outs)
    assert len(outs) == 1 and only_here(outs) and outs[0].silent
    assert text.startswith("Power Grid, waiting for bob.") and in_group.startswith(text[:27])
    assert "Deadline: in " in text and "Deadline: in " in in_group
    assert "You have 50 E" in text  # his own figures, which the group's answer has not
    assert "You have 50 E" not in in_group
    ru = joined(await ask(table, "/status", lang="ru"))
    assert "Крайний срок" in ru or "Срок" in ru, ru


async def test_a_cell_written_like_a_game_is_the_moves_own_word(
    table: Table, pushed: Pushed
) -> None:
    """Found play-testing, 2026-12-03: "/spawn G5" sent privately answered "You play in no
    running game g5", and "/spawn G1" in game g1 "Usage: /spawn <cell>": a move's first word
    is his game only as the table writes one ("g1"), and not when it is the move's only word."""
    pk = await open_game(table, "hexania", ["alice", "bob"])
    (mover,) = GAMES["hexania"].current_players(await state_of(table))
    for words in ("G5", f"G{pk}", f"g{pk}", f"g{pk} G5"):
        text = joined(await ask(table, f"/spawn {words}", user=mover))
        assert "running game" not in text and "Usage: /spawn" not in text, (words, text)
    # a move without words takes "g<id>" as its game (a button pressed here sends that)
    text = joined(await ask(table, f"/end g{pk}", user=mover))
    assert "running game" not in text and "Usage" not in text, text


async def test_a_move_whose_words_are_optional_takes_g_id_as_its_game(
    table: Table, pushed: Pushed
) -> None:
    """Found play-testing through Telegram, 2026-12-04: a private prompt's Pass button
    (pressed as "/pass g1", bot/dm_press.py) and its Power button were refused with the
    usage, "g1" read as the move's optional word (PG-8 pass, PG-36 power)."""
    pk = await open_game(table, "powergrid", ["alice", "bob", "carol"])
    (mover,) = GAMES["powergrid"].current_players(await state_of(table))
    for command in ("/pass", "/power"):
        text = joined(await ask(table, f"{command} g{pk}", user=mover))
        assert "Usage" not in text and "running game" not in text, (command, text)
        assert "(PG-" in text, text  # the rules' answer to the move itself


async def test_a_player_with_no_language_of_his_own_reads_his_game_chats_privately(
    table: Table, pushed: Pushed
) -> None:
    """Found play-testing, 2026-12-03: bob never chose a language and his client told none;
    his private /status came in English (the private chat's default) while the notices of
    the others' moves came in his Russian chat's language."""
    await open_game(table, "powergrid", ["alice", "bob", "carol"])
    set_lang = replace(inbound("alice", "/lang chat ru"), is_admin=True)  # a group admin
    assert "русский" in joined(await table.handle(set_lang)).lower()
    status = await ask(table, "/status", user="bob")
    assert only_here(status, "tg:dm-bob")
    assert joined(status).startswith(tr("ru", "Power Grid"))
    # his own choice, or his client's language, still comes first
    assert joined(await ask(table, "/status", user="bob", lang="pl")).startswith(
        tr("pl", "Power Grid")
    )
    await ask(table, "/lang zh_Hant", user="bob")
    assert joined(await ask(table, "/status", user="bob")).startswith(tr("zh_Hant", "Power Grid"))


async def spawn_privately(table: Table, pk: int, mover: str) -> list[Outbound]:
    """The Hexania mover's first /spawn button, sent as a command in his private chat."""
    state = await state_of(table)
    spawn = next(
        c for _label, c in GAMES["hexania"].buttons(state, mover) if c.startswith("/spawn")
    )
    name, cell = spawn.split()
    return await ask(table, f"{name} g{pk} {cell}", user=mover)


async def finished_dicepile(store: Store, clock: FakeClock) -> Table:
    """A dice pile alice played to its end against a bot, in the group."""
    from tests.bot.chatgame import ChatDicePile

    table = Table(store, games={"dicepile": ChatDicePile()}, clock=clock, seeder=lambda: 7)
    await say(table, "alice", "/new dicepile start=5")
    await say(table, "alice", "/addbot greedy")
    await say(table, "alice", "/start")
    for _ in range(20):
        row = await store.last_game(GROUP)
        if row is None or row.status != "active":
            break
        await say(table, "alice", "/take 1")
    assert getattr(await store.last_game(GROUP), "status", None) == "over"
    return table


async def test_a_private_move_after_which_he_decides_again_brings_his_prompt(
    table: Table, pushed: Pushed
) -> None:
    """Found through Telegram, 2026-12-04: a Hexania move sent privately (points left), or a
    Power Grid pass after which the same player opens the next auction, answered only "Done
    …": the group heard a silent edit, and he was not asked. His new prompt comes where he
    played, silent, with its buttons."""
    pk = await open_game(table, "hexania", ["alice", "bob"])
    (mover,) = GAMES["hexania"].current_players(await state_of(table))
    outs = await spawn_privately(table, pk, mover)
    mine = [o for o in outs if o.chat_key == f"tg:dm-{mover}"]
    assert GAMES["hexania"].current_players(await state_of(table)) == [mover], "points left"
    prompts = [o for o in mine if o.buttons]
    assert len(prompts) == 1 and prompts[0].silent, [o.text for o in mine]
    assert all(b.payload.startswith(f"{pk}:") for row in prompts[0].buttons for b in row)


async def test_his_own_private_status_says_the_table_waits_for_him(
    table: Table, pushed: Pushed
) -> None:
    """Found re-testing through Telegram, 2026-12-05: Bob's private /status said "waiting for
    Bob" to Bob; it says "you", and names the others it waits for as ever."""
    await open_game(table, "powergrid", ["alice", "bob", "carol"])
    (mover,) = GAMES["powergrid"].current_players(await state_of(table))
    other = next(n for n in ("alice", "bob", "carol") if n != mover)
    mine = joined(await ask(table, "/status", user=mover))
    assert mine.startswith(f"{tr('en', 'Power Grid')}, waiting for you."), mine
    theirs = joined(await ask(table, "/status", user=other))
    assert theirs.startswith(f"{tr('en', 'Power Grid')}, waiting for {mover}."), theirs
    await ask(table, "/lang ru", user=mover)
    assert joined(await ask(table, "/status", user=mover)).startswith(
        tr("ru", "{game}, waiting for you.", game=tr("ru", "Power Grid"))
    )


async def test_his_own_private_status_in_a_phase_decided_at_once(
    table: Table, pushed: Pushed
) -> None:
    """IEC's first phase is decided by everybody at once: "waiting for you and bob"."""
    await open_game(table, "iec", ["alice", "bob"])
    current = GAMES["iec"].current_players(await state_of(table))
    assert sorted(current) == ["alice", "bob"]
    said = joined(await ask(table, "/status", user="alice"))
    name = tr("en", GAMES["iec"].name)
    assert said.startswith(f"{name}, waiting for you and bob."), said


@pytest.mark.parametrize("lang", ["en", "ru", "pl", "zh_Hant"])
async def test_the_prompt_he_gets_privately_names_nobody(
    table: Table, pushed: Pushed, lang: str
) -> None:
    """Found through Telegram, 2026-12-05: a Chinese player's private prompt began "@Bob：",
    the "@Bob: " cut only in its English form. The prompt sent to the one player it asks
    does not name him in any language."""
    pk = await open_game(table, "hexania", ["alice", "bob"])
    (mover,) = GAMES["hexania"].current_players(await state_of(table))
    await ask(table, f"/lang {lang}", user=mover)
    outs = await spawn_privately(table, pk, mover)
    (prompt,) = [o for o in outs if o.chat_key == f"tg:dm-{mover}" and o.buttons]
    assert "@" not in prompt.text and not prompt.mentions, prompt.text
    # it ends the move's confirmation: one message, not two (found through Telegram, 2026-12-05)
    assert [o for o in outs if o.chat_key == f"tg:dm-{mover}"] == [prompt]
    done, asked = prompt.text.split("\n\n")
    assert done.startswith(tr(lang, "Done in {game}; announced in {chat}.").split("{")[0].strip())
    assert asked.startswith(tr(lang, "Round {round} of {rounds}.").split("{")[0])


async def test_after_the_game_a_private_status_and_log_show_the_last_game(
    store: Store, clock: FakeClock
) -> None:
    """Found play-testing through Telegram, 2026-12-05: a private /status and /log after the
    game's end said "No game here yet" (was checked through `boardchat local`, whose game
    now waits for a player alone with bots, bot/reminders.py `unattended`)."""
    table = await finished_dicepile(store, clock)
    said = joined(await say(table, "alice", "/pile"))
    assert "This game is over. /new starts another." in said
    status = joined(await ask(table, "/status"))
    assert "Your last game, Dice pile (g1), is over." in status
    log = joined(await ask(table, "/log"))
    assert "Moves " in log and "No game here" not in log


async def test_a_private_log_is_his_own_page_alone(
    store: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found play-testing through Telegram, 2026-12-05: /log asked in his private chat after
    the game came twice, the table's page and then his own (with his private lines): the
    same moves twice. Asked privately, his own page alone."""
    from bot import info

    page = info.logtext.log_page

    def with_his_lines(*args: Any, **kw: Any) -> str:
        return page(*args, **kw) + ("\n   ◦ his own line" if kw.get("viewer") else "")

    monkeypatch.setattr(info.logtext, "log_page", with_his_lines)
    table = await finished_dicepile(store, clock)
    answer = await ask(table, "/log")
    assert len(answer) == 1 and "his own line" in answer[0].text, [o.text for o in answer]


async def test_a_private_moves_own_line_and_its_confirmation_are_one_message(
    table: Table, pushed: Pushed
) -> None:
    """IEC-19, a real mine laid in the private chat: "Only you know: real mine on …" and
    "Done in …; announced in …" both reach that chat; they are one message, not two in a
    row (found measuring chat noise, 2026-12-05)."""
    from engine.iec import GAME as IEC

    await open_game(table, "iec", ["alice", "bob"])
    state = await state_of(table)
    assert "alice" in IEC.current_players(state)  # phase 5: everybody lays at once
    lay = next(
        a
        for a in IEC.legal_actions(state, "alice")
        if a.get("type") == "lay" and a.get("real") and not a.get("fake")
    )
    outs = await ask(table, f"/lay {lay['real'][0]}")
    everything = [*outs, *pushed.outs]
    mine = [o for o in everything if o.private_to == "tg:alice" or o.chat_key == DM]
    assert len(mine) == 1, [(o.chat_key, o.private_to, o.text) for o in everything]
    assert "Only you know: real mine on" in mine[0].text and "announced in" in mine[0].text
