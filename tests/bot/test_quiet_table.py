"""A table you can live with for a week (issue 17), at the table service: the noise budget
(one message per action at most, only the one that asks a person to act notifies), the live
status message as outbox "edit" rows, automatic passes of players with nothing to decide, and
/undo at a table with computer players."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any, cast

import pytest

from bot.announce import previous_version
from bot.context import MAX_BUTTONS
from bot.i18n import translator
from bot.moment import Moment
from bot.store import Store
from bot.store_outbox import OutboxItem
from bot.table import Table
from engine.core.picture import Picture
from engine.core.protocol import Capabilities, Translator
from tests.bot.botgames import bot_game
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock, payloads, present

TG = "tg:-100"


class Stuck(ChatDicePile):
    """The dice pile where "bob" has nothing to decide: his only move is to take one stone
    (a forced pass, as a game declares it through `forced_action`)."""

    capabilities = Capabilities(rules_index=True, forced_moves=True)

    def forced_action(self, state: dict[str, Any], player: str) -> dict[str, Any] | None:
        return {"take": 1} if player.casefold() == "bob" else None

    def describe_event(
        self, state: dict[str, Any], event: dict[str, Any], t: Translator
    ) -> str | None:
        """Bob's forced take has no line of its own (as Power Grid's forced `done`): the
        table says he was passed."""
        if event.get("player", "").casefold() == "bob":
            return None
        return super().describe_event(state, event, t)


class Told(Stuck):
    """Stuck, but the game words bob's forced take ("bob takes 1."), as the alternative
    rules word a forced Phase 5 with its income and penalties."""

    def describe_event(
        self, state: dict[str, Any], event: dict[str, Any], t: Translator
    ) -> str | None:
        return ChatDicePile.describe_event(self, state, event, t)


class Laps(ChatDicePile):
    """The dice pile in rounds of two laps: a lap ends with `phase_started` (a new phase), the
    second with `round_ended`. In a round's first lap Bob has nothing to decide (a forced
    pass); in its second lap he decides himself."""

    capabilities = Capabilities(rules_index=True, forced_moves=True)

    def apply(
        self, state: dict[str, Any], player: str, action: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        turn = state["turn"]
        state, events = super().apply(state, player, action)
        if state["turn"] < turn and not state.get("winner"):  # a lap ended
            state["laps"] = state.get("laps", 0) + 1
            lap_end = "round_ended" if state["laps"] % 2 == 0 else "phase_started"
            events.append({"type": lap_end})
        return state, events

    def is_picture_event(self, event: dict[str, Any]) -> bool:
        return event.get("type") in ("phase_started", "round_ended")

    def forced_action(self, state: dict[str, Any], player: str) -> dict[str, Any] | None:
        first_lap = state.get("laps", 0) % 2 == 0
        return {"take": 1} if player.casefold() == "bob" and first_lap else None


def quiet_table(
    store: Store, clock: FakeClock, game: ChatDicePile | None = None, render: bool = False
) -> Table:
    return Table(
        store,
        games={"dicepile": game or ChatDicePile()},
        clock=clock,
        render=render,
        seeder=lambda: 12345,
        durable=("telegram",),
    )


async def start(chat: Chat, *players: str, bots: int = 0) -> None:
    await chat.say(players[0], "/new dicepile start=20")
    for name in players[1:]:
        await chat.say(name, "/join")
    for _ in range(bots):
        await chat.say(players[0], "/addbot greedy")
    await chat.say(players[0], "/start")


def lines(item: OutboxItem) -> str:
    """What a status edit row says: its lines (added to the phase's) and who is asked."""
    return "\n".join([*item.body.get("status_lines", []), item.body["text"]])


def mentioned(item: OutboxItem) -> list[str]:
    return [str(m[1]) for m in item.body.get("mentions", [])]


async def test_only_the_message_that_asks_notifies_and_each_move_edits_the_status(
    store: Store, clock: FakeClock
) -> None:
    table = quiet_table(store, clock)
    chat = Chat(table, chat_key=TG, platform="telegram")
    await start(chat, "ann", "bob", "cyd")
    mark = len(await store.outbox())
    turns = ["ann", "bob", "cyd", "ann", "bob", "cyd"]
    for name in turns:
        row = await store.open_game(TG)
        assert row is not None and row.state_json is not None
        assert ChatDicePile().current_players(json.loads(row.state_json)) == [name]
        await chat.say(name, "/take 1")
    rows = (await store.outbox())[mark:]
    edits = [r for r in rows if r.kind == "edit"]
    posts = [r for r in rows if r.kind != "edit"]
    # one status edit per move, all for this game's one status message, silent, with buttons
    assert len(edits) == len(turns)
    assert {r.body["status_of"] for r in edits} == {present(await store.last_game(TG)).id}
    assert all(r.silent and r.body.get("buttons") and "@" not in r.body["text"] for r in edits)
    assert "cyd takes 1." in lines(edits[-1]) and "ann takes 1." not in lines(edits[-1])
    # at most one new message per move; a loud one only to ask someone not yet engaged
    # (the first round: bob and cyd had not moved; after that each of them has)
    assert len(posts) <= len(turns)
    assert all(not r.silent for r in posts)  # the only posts here are the asks
    assert [mentioned(r) for r in posts] == [["bob"], ["cyd"]]
    assert all(r.body.get("reply_status") == edits[0].body["status_of"] for r in posts)
    assert "ann takes 1." in posts[0].body["text"]  # the move's lines ride with the ask


async def test_a_forced_pass_is_played_logged_and_announced(
    store: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.moves

    pooled: list[str] = []

    async def pool(fn: Any, *args: Any, **kwargs: Any) -> Any:
        pooled.append(getattr(fn, "__name__", "?"))
        return fn(*args, **kwargs)

    monkeypatch.setattr(bot.moves, "cpu", pool)
    table = quiet_table(store, clock, Stuck())
    chat = Chat(table, chat_key=TG, platform="telegram")
    await start(chat, "ann", "bob", "cyd")
    await chat.say("ann", "/take 2")
    row = await store.open_game(TG)
    assert row is not None and row.state_json is not None
    # bob was passed for: cyd is asked, with both moves' lines in one message
    assert Stuck().current_players(json.loads(row.state_json)) == ["cyd"]
    # forced passes alone (no bot seat thinks) are a few `play` calls, played on the loop
    # instead of queued in the worker pool behind the pictures (issue 23)
    assert "_bot_chain" not in pooled
    log = await store.actions(row.id)
    assert [(a.player, a.user_key, a.action) for a in log[-2:]] == [
        ("ann", "local:ann", {"take": 2}),
        ("bob", "local:bob", {"take": 1}),
    ]
    rows = await store.outbox(TG)
    ask = rows[-1]
    assert mentioned(ask) == ["cyd"] and not ask.silent
    assert "ann takes 2." in ask.body["text"]
    assert "bob passes (nothing to decide)." in ask.body["text"]
    assert "bob takes 1." not in ask.body["text"]  # the pass is said once
    status = [r for r in rows if r.kind == "edit"][-1]
    assert "bob passes (nothing to decide)." in lines(status)


async def test_a_forced_pass_at_the_start_and_on_the_terminal(
    store: Store, clock: FakeClock
) -> None:
    table = Table(store, games={"dicepile": Stuck()}, clock=clock, render=False, seeder=lambda: 1)
    chat = Chat(table)
    await start(chat, "bob", "ann")  # bob sits first: the start passes for him
    row = await store.open_game(chat.chat_key)
    assert row is not None and row.state_json is not None
    assert Stuck().current_players(json.loads(row.state_json)) == ["ann"]
    outs = await chat.say("ann", "/take 1")
    text = "\n".join(o.text for o in outs)
    assert "ann takes 1." in text and "bob passes (nothing to decide)." in text


async def test_a_forced_move_the_game_words_is_told_in_its_own_words(
    store: Store, clock: FakeClock
) -> None:
    """Every line the game gives a forced move stays (his income, penalties, purchases):
    then no extra "passes" line is needed (found playing the alternative rules, 2026-11-29,
    when the table left out every event of the passed player)."""
    table = Table(store, games={"dicepile": Told()}, clock=clock, render=False, seeder=lambda: 1)
    chat = Chat(table)
    await start(chat, "bob", "ann")  # bob sits first: the start passes for him
    outs = await chat.say("ann", "/take 1")
    text = "\n".join(o.text for o in outs)
    assert "ann takes 1." in text and "bob takes 1." in text
    assert "nothing to decide" not in text


class Twice(ChatDicePile):
    """bob's "/take 2" keeps his turn and leaves him a forced take of 1, after which he
    decides again: as Power Grid passes a player whose storage is full, whose next turn (the
    building phase) then comes at once. With `decides_again` False ann's turn comes instead:
    as the alternative rules close a player's buying (her /done) once her plants are full."""

    capabilities = Capabilities(rules_index=True, forced_moves=True)

    def __init__(self, decides_again: bool = True) -> None:
        super().__init__()
        self.decides_again = decides_again

    def apply(
        self, state: dict[str, Any], player: str, action: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        hold = player == "bob" and action == {"take": 2}
        again = bool(state.get("forced")) and self.decides_again
        state, events = super().apply(state, player, action)
        if (hold or again) and not state.get("winner"):
            state["turn"] = state["players"].index("bob")
        state["forced"] = hold
        return state, events

    def forced_action(self, state: dict[str, Any], player: str) -> dict[str, Any] | None:
        return {"take": 1} if player == "bob" and state.get("forced") else None


async def test_the_move_just_played_for_a_passed_player_is_asked_again_once(
    store: Store, clock: FakeClock
) -> None:
    """Found playing Power Grid (2026-11-29): told "then /done", a player sent /done just
    after the table had passed her (nothing left to decide); it ended her next turn, the
    building phase, unbuilt. The same move, with nothing played since, is asked again."""
    table = Table(store, games={"dicepile": Twice()}, clock=clock, render=False, seeder=lambda: 1)
    chat = Chat(table)
    await start(chat, "bob", "ann")
    outs = await chat.say("bob", "/take 2")
    assert "bob takes 1." in "\n".join(o.text for o in outs)  # the forced take
    row = present(await store.open_game(chat.chat_key))
    assert Twice().current_players(json.loads(present(row.state_json))) == ["bob"]
    outs = await chat.say("bob", "/take 1")
    assert len(outs) == 1 and outs[0].sender_only
    assert outs[0].text == (
        "You had nothing left to decide in the last step, so the table passed you; this is "
        "your next turn. Send it again if you mean it for this one."
    )
    assert present(await store.open_game(chat.chat_key)).version == row.version  # nothing
    outs = await chat.say("bob", "/take 1")  # he means it: played
    assert present(await store.open_game(chat.chat_key)).version == row.version + 1


@pytest.mark.parametrize("read", ["/status", "/board", "button"])
async def test_a_passed_player_who_has_read_his_next_turn_is_not_asked_again(
    store: Store, clock: FakeClock, read: str
) -> None:
    """Found playing the alternative rules, 2026-12-04: passed in Phase 3, she asked /status,
    read that the building phase waited for her, sent /done, and was told to send it again.
    A /status or any question since the pass, or a button of the prompt that stands now,
    means the move is for the turn she reads: played at once."""
    table = Table(store, games={"dicepile": Twice()}, clock=clock, render=False, seeder=lambda: 1)
    chat = Chat(table)
    await start(chat, "bob", "ann")
    outs = await chat.say("bob", "/take 2")
    row = present(await store.open_game(chat.chat_key))
    if read == "button":
        pressed = next(p for p in payloads(outs) if p.endswith(":/take 1"))
        assert pressed.split(":")[1] != str(row.version - 1)  # the new prompt's, not the old
        outs = await chat.press("bob", pressed)
    else:
        assert await chat.say("bob", read)
        outs = await chat.say("bob", "/take 1")
    assert "bob takes 1." in "\n".join(o.text for o in outs)
    assert present(await store.open_game(chat.chat_key)).version == row.version + 1


async def test_a_move_sent_just_after_the_table_passed_him_is_not_called_off_turn(
    store: Store, clock: FakeClock
) -> None:
    """Found playing the alternative rules, 2026-12-03: her /done, sent just after the table
    had played it for her, got "Not your turn", as if she had been skipped. With nothing
    played since, she is told the move was made for her; after another move, off turn."""
    game = Twice(decides_again=False)
    table = Table(store, games={"dicepile": game}, clock=clock, render=False, seeder=lambda: 1)
    chat = Chat(table)
    await start(chat, "bob", "ann")
    outs = await chat.say("bob", "/take 2")
    assert "bob takes 1." in "\n".join(o.text for o in outs)  # the forced take
    row = present(await store.open_game(chat.chat_key))
    assert game.current_players(json.loads(present(row.state_json))) == ["ann"]
    outs = await chat.say("bob", "/take 1")
    assert len(outs) == 1 and outs[0].sender_only and outs[0].silent
    assert outs[0].text == (
        "You were passed already: nothing was left for you to decide; waiting for ann."
    )
    assert present(await store.open_game(chat.chat_key)).version == row.version  # nothing
    await chat.say("ann", "/take 1")
    await chat.say("bob", "/take 1")  # his own move: the pass is history now
    text = "\n".join(o.text for o in await chat.say("bob", "/take 1"))
    assert text.startswith("Not your turn")


async def test_undo_takes_back_the_computer_players_replies_too(
    store: Store, clock: FakeClock
) -> None:
    table = quiet_table(store, clock)
    chat = Chat(table, chat_key=TG, platform="telegram")
    await start(chat, "ann", bots=1)
    row = await store.open_game(TG)
    assert row is not None and row.state_json is not None
    before = json.loads(row.state_json)
    clock.advance(5)  # the bot replies at once; undo needs no waiting either
    await chat.say("ann", "/take 1")
    row = await store.open_game(TG)
    assert row is not None and len(await store.actions(row.id)) == 2  # ann's and the bot's
    undone = await chat.say("ann", "/undo")
    text = "\n".join(o.text for o in undone)
    assert "ann takes back their last move." in text or any(
        "ann takes back their last move." in lines(r) for r in await store.outbox(TG)
    )
    row = await store.open_game(TG)
    assert row is not None and row.state_json is not None
    assert await store.actions(row.id) == []
    assert json.loads(row.state_json)["pile"] == before["pile"]
    status = [r for r in await store.outbox(TG) if r.kind == "edit"][-1]
    assert "taken back too" in lines(status)


async def test_undo_is_refused_once_another_human_has_moved(store: Store, clock: FakeClock) -> None:
    table = quiet_table(store, clock)
    chat = Chat(table, chat_key=TG, platform="telegram")
    await start(chat, "ann", "bob")
    await chat.say("ann", "/take 1")
    await chat.say("bob", "/take 1")
    refused = await chat.text("ann", "/undo")
    assert "Only your own last move" in refused
    row = await store.open_game(TG)
    assert row is not None and len(await store.actions(row.id)) == 2


async def test_undo_takes_back_a_forced_pass_that_followed(store: Store, clock: FakeClock) -> None:
    table = quiet_table(store, clock, Stuck())
    chat = Chat(table, chat_key=TG, platform="telegram")
    await start(chat, "ann", "bob", "cyd")
    await chat.say("ann", "/take 2")
    row = await store.open_game(TG)
    assert row is not None and len(await store.actions(row.id)) == 2  # ann's, bob's pass
    await chat.say("ann", "/undo")
    assert await store.actions(row.id) == []


async def test_the_start_picture_respects_pictures_off(store: Store, clock: FakeClock) -> None:
    table = Table(
        store, games={"dicepile": ChatDicePile()}, clock=clock, render=True, seeder=lambda: 1
    )
    chat = Chat(table)
    await chat.say("ann", "/new dicepile")
    await chat.say("bob", "/join")
    assert "Board pictures: only when asked with /board (off)" in await chat.text(
        "ann", "/settings pictures=off"
    )
    started = await chat.say("ann", "/start")
    assert started and not any(o.png is not None for o in started)
    # /board still answers with a picture: it was asked for
    board = await chat.say("ann", "/board")
    assert any(o.png is not None for o in board)


async def test_private_lines_are_silent_and_the_result_tells_the_others(
    store: Store, clock: FakeClock
) -> None:
    table = quiet_table(store, clock)
    chat = Chat(table, chat_key=TG, platform="telegram")
    await start(chat, "ann", "bob")
    mark = len(await store.outbox(TG))
    for _ in range(40):
        row = await store.open_game(TG)
        if row is None:
            break
        assert row.state_json is not None
        state = json.loads(row.state_json)
        who = ChatDicePile().current_players(state)[0]
        await chat.say(who, f"/take {min(3, state['pile'])}")
    rows = (await store.outbox(TG))[mark:]
    over = [r for r in rows if "Game over" in r.body.get("text", "") and r.kind != "edit"]
    # the result tells the other player (test_the_games_result_tells_the_other_players)
    assert len(over) == 1 and mentioned(over[0]) == sorted({"ann", "bob"} - {who})
    assert all(r.silent for r in rows if not mentioned(r))  # nothing else makes a sound


@pytest.mark.parametrize("game_id", ["powergrid", "hexania", "powergrid_alt", "iec"])
def test_captions_are_words_never_event_ids(game_id: str) -> None:
    """ "After the build phase, round 3 — Bob is next": the captions of a game's first two
    pictures name phases and players in words; no event id ("turn_ended") or bare number."""
    played = bot_game(game_id)
    game = played.game
    state = game.setup(played.players, {}, played.seed)
    before = json.loads(json.dumps(state))
    captions: list[str] = []
    for row in played.rows:
        state, events = game.apply(state, row.player, row.action)
        if any(game.is_picture_event(e) for e in events):
            pictures = game.render_set(
                json.loads(json.dumps(state)), None, translator("en"), before
            )
            captions += [str(p.caption) for p in pictures if p.caption]
            before = json.loads(json.dumps(state))
            if len(captions) >= 2:
                break
    assert captions
    for caption in captions:
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", caption), caption
        assert not re.fullmatch(r"(Board: )?\d+", caption), caption
        assert re.search(r"[A-Za-z]{3,}", caption), caption  # words


async def test_one_ping_per_round_holds_across_a_restart(db_path: str, clock: FakeClock) -> None:
    """The players who acted in the round are read from the log when the process does not
    remember them (a restart): a player asked again later in the round stays unpinged."""
    store = await Store.open(db_path, clock=clock)
    table = quiet_table(store, clock, Laps())
    chat = Chat(table, chat_key=TG, platform="telegram")
    await start(chat, "ann", "bob", "cyd")
    for name in ["ann", "cyd", "ann", "bob", "cyd", "ann"]:  # round 1, round 2's first move
        await chat.say(name, "/take 1")
    await table.close()
    store = await Store.open(db_path, clock=clock)
    table = quiet_table(store, clock, Laps())  # the restart: nothing remembered
    chat = Chat(table, chat_key=TG, platform="telegram")
    mark = len(await store.outbox())
    await chat.say("cyd", "/take 1")  # ends round 2's first lap: ann is asked again
    rows = (await store.outbox())[mark:]
    assert [r.body["text"] for r in rows if r.kind == "edit"][-1].startswith("ann")
    assert not [r for r in rows if r.kind != "edit" and not r.silent]  # nobody pinged
    mark = len(await store.outbox())
    for name in ["ann", "bob", "cyd"]:  # round 2's second lap; round 3 asks ann anew
        await chat.say(name, "/take 1")
    asks = [r for r in (await store.outbox())[mark:] if r.kind != "edit" and not r.silent]
    assert [mentioned(r) for r in asks][-1] == ["ann"]
    await table.close()


async def test_the_chats_quiet_hours_keep_the_ask_silent(store: Store, clock: FakeClock) -> None:
    """In the chat's quiet hours (/settings quiet=) a move that asks someone new notifies
    nobody: the status message names him and the buttons are there; his turn's start reminder,
    held to the end of the quiet hours, notifies him then (tests/bot/test_reminders.py)."""
    table = quiet_table(store, clock)
    chat = Chat(table, chat_key=TG, platform="telegram")
    await chat.say("ann", "/new dicepile start=20")
    await chat.say("ann", "/settings quiet=22-07 tz=UTC")  # FakeClock begins at 22:13 UTC
    await chat.say("bob", "/join")
    await chat.say("cyd", "/join")
    await chat.say("ann", "/start")
    mark = len(await store.outbox())
    await chat.say("ann", "/take 1")
    rows = (await store.outbox())[mark:]
    assert not [r for r in rows if not r.silent and "bob" in mentioned(r)]
    status = [r for r in rows if r.kind == "edit"][-1]
    assert "bob" in status.body["text"] and status.body.get("buttons")
    clock.now = datetime(2023, 11, 15, 7, 30, tzinfo=UTC).timestamp()  # awake again
    mark = len(await store.outbox())
    await chat.say("bob", "/take 1")
    rows = (await store.outbox())[mark:]
    assert [mentioned(r) for r in rows if not r.silent] == [["cyd"]]  # a new ask notifies


async def test_a_players_own_quiet_hours_keep_the_ask_from_pinging_him(
    store: Store, clock: FakeClock
) -> None:
    """/me quiet=22-07: asked in his night, he is named in the status message, not pinged (his
    turn's start reminder, held to his morning, notifies him: tests/bot/test_reminders.py);
    the others are pinged as ever."""
    table = quiet_table(store, clock)
    chat = Chat(table, chat_key=TG, platform="telegram")
    await chat.say("bob", "/me quiet=22-07 tz=UTC")  # FakeClock begins at 22:13 UTC
    await start(chat, "ann", "bob", "cyd")
    mark = len(await store.outbox())
    await chat.say("ann", "/take 1")
    rows = (await store.outbox())[mark:]
    assert not [r for r in rows if not r.silent]
    assert "bob" in [r for r in rows if r.kind == "edit"][-1].body["text"]
    mark = len(await store.outbox())
    await chat.say("bob", "/take 1")  # awake after all: cyd, not in quiet hours, is pinged
    rows = (await store.outbox())[mark:]
    assert [mentioned(r) for r in rows if not r.silent] == [["cyd"]]


class Phases(ChatDicePile):
    """The dice pile where every take ends a phase (a picture event at each step), or only
    the takes of `enders`."""

    def __init__(self, enders: tuple[str, ...] | None = None) -> None:
        super().__init__()
        self.enders = enders

    def apply(
        self, state: dict[str, Any], player: str, action: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        state, events = super().apply(state, player, action)
        if self.enders is not None and player not in self.enders:
            return state, events
        return state, [*events, {"type": "phase_started"}]

    def is_picture_event(self, event: dict[str, Any]) -> bool:
        return event.get("type") == "phase_started"


async def pictured_start(store: Store, clock: FakeClock, game: Phases) -> tuple[Chat, int, int]:
    """ann and two bots at a Telegram table that draws pictures: the chat, the outbox rows
    written so far and the game's version once started."""
    chat = Chat(quiet_table(store, clock, game, render=True), chat_key=TG, platform="telegram")
    await start(chat, "ann", bots=2)
    row = await store.open_game(TG)
    assert row is not None
    return chat, len(await store.outbox(TG)), row.version


async def test_a_run_through_several_phases_posts_one_picture(
    store: Store, clock: FakeClock
) -> None:
    """ann's take and the two bots' after it each end a phase: one run, one picture (after
    the last), not three albums in a row of positions nobody was asked about. Its change marks
    span the run: drawn against the chat's picture before the run (the start's, version 0)."""
    chat, mark, before = await pictured_start(store, clock, Phases())
    await chat.say("ann", "/take 1")
    row = await store.open_game(TG)
    assert row is not None and row.version == before + 3  # ann's take, then each bot's
    pictures = [r for r in (await store.outbox(TG))[mark:] if "picture" in r.body]
    assert len(pictures) == 1, pictures
    order = pictures[0].body["picture"]
    assert (order["version"], order["since"]) == (before + 3, before + 1)
    actions = await store.actions(row.id)
    game = Phases()
    # against the last picture before the run (the start's: 0), not the run's own phase ends
    assert previous_version(game, actions, order["since"], "phase") == 0
    assert previous_version(game, actions, order["version"], "phase") == before + 2


async def test_the_run_s_picture_shows_the_bots_moves_after_the_phase_ended(
    store: Store, clock: FakeClock
) -> None:
    """ann's take ends a phase and both bots then move in the next before she is asked again
    (as bots build before a person in Power Grid's phase 4, PG-35): the one picture shows the
    board she now decides on, at the run's end, not the phase's end with the bots' moves
    missing. The next run's marks start from that picture."""
    game = Phases(enders=("ann",))  # the bots then move inside the next phase
    chat, mark, before = await pictured_start(store, clock, game)
    await chat.say("ann", "/take 1")
    await chat.say("ann", "/take 1")
    row = await store.open_game(TG)
    assert row is not None and row.version == before + 6
    pictures = [r.body["picture"] for r in (await store.outbox(TG))[mark:] if "picture" in r.body]
    runs = [(p["version"], p["since"]) for p in pictures]
    assert runs == [(before + 3, before + 1), (before + 6, before + 4)]
    actions = await store.actions(row.id)
    assert [a.step for a in actions if a.version > before] == [0, 1, 2, 0, 1, 2]
    assert previous_version(game, actions, before + 4, "phase") == before + 3
    assert previous_version(game, actions, before + 1, "phase") == 0


class _Asked:
    """A moment where both players are asked at once, each with his own move and a Done."""

    mark = 7

    def buttons(self, player: str, lang: str) -> list[tuple[str, str]]:
        # two players' own buttons, more than the limit together
        own = [(f"Transmit {player}{i}", f"/transmit {player}{i}") for i in range(MAX_BUTTONS // 2)]
        return [own[0], ("Done", "/done"), *own[1:]]


def test_buttons_of_players_asked_at_once_keep_done_last_and_within_the_limit(
    store: Store, clock: FakeClock
) -> None:
    """IEC-M-21 (rules version 2: a phase declared by everybody at once): the prompt's buttons
    list each player's own first and the Done they share once, at the end; with more than the
    limit, the own ones are cut, never Done."""
    table = quiet_table(store, clock, ChatDicePile())
    rows = table._buttons(5, cast(Moment, _Asked()), ["ann", "bob"], "en")
    flat = [b.payload.split(":", 2)[2] for row in rows for b in row]
    assert len(flat) == MAX_BUTTONS and flat[-1] == "/done" and flat.count("/done") == 1
    assert flat[:6] == [f"/transmit ann{i}" for i in range(6)]
    alone = [
        b.payload for row in table._buttons(5, cast(Moment, _Asked()), ["ann"], "en") for b in row
    ]
    assert alone[1] == "5:7:/done"  # one player: his buttons in his game's order


class BotsFirst(Phases):
    """Phases where the second seat starts: the bots move as the game starts."""

    def setup(self, players: list[str], options: dict[str, str], seed: int) -> dict[str, Any]:
        state = super().setup(players, options, seed)
        state["turn"] = 1
        return state


async def test_the_start_s_bot_moves_are_logged_at_the_versions_its_picture_names(
    store: Store, clock: FakeClock
) -> None:
    """The two bots move as the game starts, each ending a phase: one picture, of the board
    after both (the start is version 1, their moves 2 and 3). The log once put them at 3 and
    4, so the picture instruction's version 3 drew the board after the first bot only."""
    chat = Chat(
        quiet_table(store, clock, BotsFirst(), render=True), chat_key=TG, platform="telegram"
    )
    await start(chat, "ann", bots=2)
    row = await store.open_game(TG)
    assert row is not None and row.version == 3
    actions = await store.actions(row.id)
    assert [(a.version, a.step, a.player) for a in actions] == [(2, 0, "Bot"), (3, 1, "Bot 2")]
    pictures = [r.body["picture"] for r in await store.outbox(TG) if "picture" in r.body]
    assert [(p["version"], p["since"]) for p in pictures] == [(3, 2)]


class Marked(Phases):
    """Phases whose picture's caption says the pile it shows and the pile it marks changes
    from (the previous picture's)."""

    def render_set(
        self, state: dict[str, Any], viewer: str | None, t: Any = None, previous: Any = None
    ) -> list[Picture]:
        before = None if previous is None else previous["pile"]
        return [Picture(self.render(state, viewer, t), f"pile {state['pile']} from {before}", 1, 1)]


async def test_the_terminal_s_pictures_mark_changes_from_the_previous_picture(
    store: Store, clock: FakeClock
) -> None:
    """The terminal (and `make demo`) draws a picture at once, with no sender loop to replay
    the log later: its change marks start from the chat's previous picture all the same, the
    last of the same run or, for a run's first, the log's (the start's board at first)."""
    table = Table(store, games={"dicepile": Marked()}, clock=clock, render=True, seeder=lambda: 7)
    chat = Chat(table, chat_key="local:marks")
    await start(chat, "ann", bots=2)
    row = await store.open_game("local:marks")
    assert row is not None and row.state_json is not None
    piles = [json.loads(row.state_json)["pile"]]
    for _ in range(2):
        outs = await chat.say("ann", "/take 1")
        row = await store.open_game("local:marks")
        assert row is not None and row.state_json is not None
        piles.append(json.loads(row.state_json)["pile"])
        captions = [o.text for o in outs if o.png is not None]
        assert captions == [f"pile {piles[-1]} from {piles[-2]}"]


async def test_answers_to_questions_never_notify(store: Store, clock: FakeClock) -> None:
    """Found playing through Telegram, 2026-12-04: the game's answers (/plants, /market,
    /price, /income in the group; /cost and /orders privately) buzzed every phone; only a
    message that asks someone to act notifies (issue 17)."""
    table = Table(store, clock=clock, seeder=lambda: 5)
    chat = Chat(table, chat_key=TG, platform="telegram")
    await chat.say("ann", "/new powergrid")
    for name in ("bob", "cyd"):
        await chat.say(name, "/join")
    await chat.say("ann", "/start")
    for name, question in (
        ("ann", "/plants"),
        ("bob", "/market"),
        ("cyd", "/price coal 2"),
        ("ann", "/income"),
        ("bob", "/cost coal 2"),
        ("cyd", "/orders"),
        ("ann", "/hint"),
        ("bob", "/log"),
        ("cyd", "/status"),
        ("ann", "/me"),  # found through Telegram, 2026-12-05: his settings buzzed the group
        ("bob", "/me tz=Europe/Warsaw"),
    ):
        answers = await chat.say(name, question)
        assert answers, question
        assert all(o.silent for o in answers), (question, [o.text[:60] for o in answers])


async def test_a_button_tapped_twice_is_taken_once(store: Store, clock: FakeClock) -> None:
    """Found playing through Telegram, 2026-12-04: a double tap on "Pass" in a Power Grid
    auction passed on the plant and then, "/pass" now meaning that, gave up the whole round.
    An older button still counts while its move is legal, but not one its presser has
    pressed already: here the computer player answers at once, so ann's "/take 1" is legal
    again after her first tap, and the second tap must not take a second time."""
    table = Table(store, games={"dicepile": ChatDicePile()}, clock=clock, seeder=lambda: 3)
    chat = Chat(table)
    await chat.say("ann", "/new dicepile")
    await chat.say("ann", "/addbot greedy")
    outs = await chat.say("ann", "/start")
    take = next(p for p in payloads(outs) if p.endswith("/take 1"))
    first = await chat.press("ann", take)
    assert "ann takes 1." in "\n".join(o.text for o in first)
    after = present(await store.open_game(chat.chat_key))
    assert ChatDicePile().current_players(json.loads(present(after.state_json))) == ["ann"]
    again = await chat.press("ann", take)
    assert [o.toast for o in again] == ["This button is out of date; nothing was changed."]
    assert present(await store.open_game(chat.chat_key)).version == after.version
    # a button of the prompt that stands now is pressed as ever
    fresh = next(p for p in payloads(first) if p.endswith("/take 1"))
    assert "ann takes 1." in "\n".join(o.text for o in await chat.press("ann", fresh))


async def test_pg14_a_done_button_of_an_earlier_phase_is_out_of_date(
    store: Store, clock: FakeClock
) -> None:
    """Found playing through Discord, 2026-12-05: a "Done" of the resources phase pressed
    when the same player's building turn came (PG-14) ended it with nothing built, "/done"
    being legal there too. An older button holds while its move is legal only within the
    stage it was posted in (`Game.stage`: the round's phase)."""
    from engine.core.rng import Rng, new_rng_state
    from engine.powergrid import GAME as PG
    from engine.powergrid.commands import command_text

    table = Table(store, clock=clock, seeder=lambda: 5)
    chat = Chat(table)
    await chat.say("ann", "/new powergrid")
    for name in ("bob", "cyd"):
        await chat.say(name, "/join")
    outs = await chat.say("ann", "/start")

    old_done = None
    for _ in range(60):
        row = present(await store.open_game(chat.chat_key))
        st = json.loads(present(row.state_json))
        if st["phase"] == "build":
            break
        player = PG.current_players(st)[0]
        if st["phase"] == "resources" and old_done is None:
            old_done = next(p for p in payloads(outs) if p.endswith("/done"))
            first_buyer = player
        action = PG.bots["heuristic"](st, player, Rng(new_rng_state(1)))
        if st["phase"] == "resources":
            action = {"type": "done"}
        outs = await chat.say(player, present(command_text(st, player, action)))
    row = present(await store.open_game(chat.chat_key))
    st = json.loads(present(row.state_json))
    assert st["phase"] == "build" and old_done is not None
    assert PG.current_players(st) == [first_buyer]  # PG-14: the first to buy builds first
    stale = await chat.press(first_buyer, old_done)
    assert [o.toast for o in stale] == ["This button is out of date; nothing was changed."]
    assert present(await store.open_game(chat.chat_key)).version == row.version


async def play_out(chat: Chat, store: Store) -> str:
    """Play the dice pile to its end; the player whose move ended it."""
    player = ""
    for _ in range(40):
        row = await store.last_game(chat.chat_key)
        if row is None or row.status != "active":
            return player
        state = json.loads(present(row.state_json))
        (player,) = ChatDicePile().current_players(state)
        await chat.say(player, "/take 1")
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("quiet_hours", [False, True])
async def test_the_games_result_tells_the_other_players(
    store: Store, clock: FakeClock, quiet_hours: bool
) -> None:
    """Found through Telegram, 2026-12-05: a game of days ended in a silent post, so the players
    who did not make the last move learned the result by chance. The result mentions each
    other human once, with a sound (bot/quiet.py `told_of_the_end`); not in the chat's quiet
    hours, when it waits silently in the chat like every other post."""
    table = quiet_table(store, clock)
    chat = Chat(table, chat_key=TG, platform="telegram")
    await chat.say("ann", "/new dicepile start=5")
    if quiet_hours:
        await chat.say("ann", "/settings quiet=22-07 tz=UTC")  # FakeClock begins at 22:13 UTC
    await chat.say("bob", "/join")
    await chat.say("ann", "/addbot greedy")
    await chat.say("ann", "/start")
    ender = await play_out(chat, store)
    rows = await store.outbox()
    (result,) = [r for r in rows if "wins" in str(r.body.get("text", "")) and r.kind != "edit"]
    others = sorted({"ann", "bob"} - {ender})
    if quiet_hours:
        assert result.silent and mentioned(result) == []
    else:
        assert not result.silent and sorted(mentioned(result)) == others
        assert all(f"@{name}" in result.body["text"] for name in others)
