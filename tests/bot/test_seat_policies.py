"""Who plays a silent seat, through the table service in virtual time (bot/reminders.py):
the expiry policies that hand a seat to a bot or play its default move, a player who keeps
running out of time, /away and /back, and /vote replace. Moved out of test_reminders.py, which
keeps the deadlines and reminders themselves."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.messages import Inbound
from bot.scheduler import Scheduler
from tests.bot.helpers import Chat, FakeClock, Outbox, joined, present
from tests.bot.test_reminders import H, started, state_of


async def test_policy_bot_plays_until_the_player_sends_any_command(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    await chat.say("alice", "/new dicepile start=20")
    await chat.say("alice", "/settings policy=bot deadline=1h")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    store = chat.table.store
    pk = present(await store.open_game(chat.chat_key)).id
    clock.advance(1 * H)
    await sched.run_due()
    assert "alice ran out of time: a bot (random bot) plays the seat" in joined(outbox.take())
    seats = {s.display_name: s for s in await store.seats(pk)}
    assert seats["alice"].is_bot and seats["alice"].bot_kind == "random"
    await chat.say("bob", "/take 1")  # the bot answers for alice at once
    players = [a.player for a in await store.actions(pk)]
    assert players == ["alice", "bob", "alice"]
    await chat.say("alice", "/status")  # any command: alice is back
    assert "Welcome back, alice" in joined(outbox.take())
    seats = {s.display_name: s for s in await store.seats(pk)}
    assert not seats["alice"].is_bot and seats["alice"].bot_kind is None
    await chat.say("bob", "/take 1")
    assert [a.player for a in await store.actions(pk)][-1] == "bob"
    assert (await state_of(chat.table, pk))["turn"] == 0  # alice's own move now


async def test_a_player_who_keeps_running_out_of_time_is_shown_the_way_out(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    """Found play-testing under policy skip: a player ran out of time five times in six days
    and nothing said what the others could do. From his third time in a game, the default
    move's note says how often and names /vote replace, which then works at once: the
    default move has just ended the turn that held the table up."""
    await chat.say("alice", "/new dicepile start=20")
    await chat.say("alice", "/settings policy=skip deadline=1h")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    way_out = "alice has run out of time 3 times in this game: /vote replace alice lets a bot"
    for time in (1, 2, 3):
        clock.advance(1 * H)
        await sched.run_due()
        text = joined(outbox.take())
        assert "alice ran out of time: the default move is played." in text, time
        assert (way_out in text) == (time == 3), text
        if time < 3:
            await chat.say("bob", "/take 1")
    voted = await chat.text("bob", "/vote replace alice")  # bob's turn now, not alice's
    assert "The table voted: a bot" in voted
    pk = present(await chat.table.store.open_game(chat.chat_key)).id
    assert {s.display_name: s.is_bot for s in await chat.table.store.seats(pk)}["alice"]


def privately(chat: Chat, user: str, text: str) -> Inbound:
    """`text` from `user` in his private chat with the bot."""
    return replace(chat.inbound(user, text=text), chat_key=f"local:dm-{user}", is_private=True)


@pytest.mark.parametrize("reachable", [True, False])
async def test_a_player_whose_seat_a_bot_takes_is_told_privately_and_by_his_status(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock, reachable: bool
) -> None:
    """Found play-testing under policy bot: a player whose time ran out heard nothing
    privately, and his /status did not say that a bot played his seat. He is told privately
    how to take it back, where the bot may write to him (else the group's note is all)."""
    await chat.say("alice", "/new dicepile start=20")
    await chat.say("alice", "/settings policy=bot deadline=1h")
    await chat.say("bob", "/join")
    if reachable:
        await chat.table.handle(privately(chat, "alice", "/help"))  # she wrote to the bot
    await chat.say("alice", "/start")
    clock.advance(1 * H)
    await sched.run_due()
    sent = outbox.take()
    assert "alice ran out of time: a bot (random bot) plays the seat" in joined(sent)
    told = [o for o in sent if o.private_to == "local:alice"]
    if not reachable:
        assert told == []
        return
    [notice] = told
    assert notice.text == (
        "Your time ran out in Dice pile (a chat), so a bot plays your seat now. /back here, or "
        "any command in the game's chat, gives it back to you."
    )
    assert not notice.silent  # news he must act on
    # a question in private leaves the bot in her seat, and says so
    status = joined(await chat.table.handle(privately(chat, "alice", "/status")))
    assert "A bot plays your seat since your time ran out; /back" in status


async def test_status_while_away_says_so_and_what_happens_to_the_turns(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    """Found play-testing: /status while away did not mention the absence."""
    await chat.say("alice", "/new dicepile start=20")
    await chat.say("alice", "/settings policy=bot deadline=1h tz=UTC")
    await chat.say("bob", "/join")
    await chat.say("carol", "/join")
    await chat.say("alice", "/start")
    await chat.say("bob", "/away 1d")
    status = await chat.text("bob", "/status")
    assert "bob: You are away until" in status  # the group's post names him
    assert "(UTC): a bot plays your seat meanwhile. /back ends it early." in status
    assert "You are away" not in await chat.text("carol", "/status")
    await chat.say("alice", "/settings policy=skip")
    await chat.say("carol", "/away 1d")
    assert "your turns get the default move meanwhile" in await chat.text("carol", "/status")


async def test_the_automatic_welcome_back_is_the_chats_news_and_silent(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    """Found play-testing: under policy bot, a Russian reader's /status in an English group
    posted "С возвращением, ..." there, notifying everyone; /back's own words are the chat's
    language and silent."""
    await chat.say("alice", "/new dicepile start=20")
    await chat.say("alice", "/settings policy=bot deadline=1h")
    await chat.say("bob", "/join")
    await chat.say("alice", "/lang ru")
    await chat.say("alice", "/start")
    clock.advance(1 * H)
    await sched.run_due()
    outbox.take()
    await chat.say("alice", "/status")  # any command: alice is back
    [back] = [o for o in outbox.take() if "alice" in o.text]
    assert back.text == "Welcome back, alice: you play your seat again."
    assert back.silent and back.lang == "en" and back.chat_key == chat.chat_key


# ---------------------------------------------------------------------- restart
async def test_away_applies_the_policy_at_once_and_back_ends_it(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    await chat.say("alice", "/new dicepile start=20")
    await chat.say("alice", "/settings policy=skip")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    store = chat.table.store
    pk = present(await store.open_game(chat.chat_key)).id
    assert "Usage: /away" in await chat.text("alice", "/away")
    assert "Usage: /away" in await chat.text("alice", "/away 1m")
    text = await chat.text("alice", "/away 2d")
    assert (
        "alice is away until Nov 16, 2023, 10:13\u202fPM (UTC)" in text and "default move" in text
    )
    await sched.run_due()
    assert "alice is away: the default move is played." in joined(outbox.take())
    assert (await state_of(chat.table, pk))["turn"] == 1
    await chat.say("bob", "/take 1")
    await sched.run_due()  # alice's next turn: at once again
    assert "alice is away" in joined(outbox.take())
    assert [a.player for a in await store.actions(pk)] == ["alice", "bob", "alice"]
    assert "Welcome back" in await chat.text("alice", "/back")
    await chat.say("bob", "/take 1")
    await sched.run_due()
    assert "away" not in joined(outbox.take())
    assert (await state_of(chat.table, pk))["turn"] == 0  # alice's turn waits for alice
    assert "You were not away." in await chat.text("alice", "/back")


async def test_away_with_policy_bot_ends_when_the_time_is_over(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    await chat.say("alice", "/new dicepile start=20")
    await chat.say("alice", "/settings policy=bot")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    store = chat.table.store
    pk = present(await store.open_game(chat.chat_key)).id
    assert "a bot plays your seat" in await chat.text("alice", "/away 6h")
    await sched.run_due()  # alice was to move: the bot moves for her now
    assert [a.player for a in await store.actions(pk)] == ["alice"]
    await chat.say("alice", "/status")  # looking in does not end an absence
    assert {s.display_name: s.is_bot for s in await store.seats(pk)}["alice"]
    clock.advance(6 * H)
    assert await store.next_wake() == clock.now
    await sched.run_due()
    assert "@alice is back" in joined(outbox.take())
    assert not {s.display_name: s.is_bot for s in await store.seats(pk)}["alice"]


@pytest.mark.parametrize("quiet", ["none", "chat", "own"])
async def test_the_end_of_an_absence_pings_nobody_in_quiet_hours(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock, quiet: str
) -> None:
    """Found by a play-tester: /away 1d sent at 01:30 under policy bot, and "@Bob is back"
    pinged him at 01:30 the next night, inside the chat's quiet hours and his own. The news
    names him; it notifies only outside both (as everything the scheduler does)."""
    await chat.say("alice", "/new dicepile start=20")
    await chat.say("alice", "/settings policy=bot")
    if quiet == "chat":
        await chat.say("alice", "/settings quiet=22-08 tz=UTC")  # FakeClock begins at 22:13
    if quiet == "own":
        await chat.say("alice", "/me quiet=23-07 tz=UTC")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    await chat.say("alice", "/away 6h")  # back at 04:13 UTC
    await sched.run_due()
    clock.advance(6 * H)
    outbox.take()
    await sched.run_due()
    [back] = [o for o in outbox.take() if "is back" in o.text]
    assert back.text == "@alice is back: the seat is theirs again."
    assert back.mentions == [("local:alice", "alice")]
    assert back.silent == (quiet != "none")


# ---------------------------------------------------------------------- votes
async def test_vote_to_replace_needs_a_majority_of_the_others(
    chat: Chat, outbox: Outbox, sched: Scheduler, clock: FakeClock
) -> None:
    pk = await started(chat, "bob", "carol", "dave")
    store = chat.table.store
    assert "Usage" in await chat.text("bob", "/vote kick alice")
    assert "yourself" in await chat.text("alice", "/vote replace alice")
    assert "Nobody called 'zed'" in await chat.text("bob", "/vote replace zed")
    assert "Only seated players" in await chat.text("eve", "/vote replace alice")
    # silent: the table has waited for her half the move's deadline (1 day by default)
    assert await chat.text("bob", "/vote replace alice") == (
        "alice's turn began only recently: a vote to replace this player opens in 12 hours."
    )
    clock.advance(11 * 3600 + 59 * 60)
    assert "opens in 1 minute" in await chat.text("bob", "/vote replace alice")
    clock.advance(60)
    assert "1 of 2 needed" in await chat.text("bob", "/vote replace @alice")
    assert "1 of 2 needed" in await chat.text("bob", "/vote replace alice")  # once per voter
    assert "2 of 2" not in await chat.text("alice", "/status")  # alice speaks: votes void
    assert await store.votes_against(pk, "local:alice") == []
    [vote] = await chat.say("bob", "/vote replace alice")
    assert "1 of 2 needed" in vote.text and not vote.silent  # it asks the others to vote
    [voted] = await chat.say("carol", "/vote replace Alice")
    assert "a bot (random bot) now plays alice's seat" in voted.text and not voted.silent
    await sched.run_due()  # it was alice's turn: the bot moves
    assert [a.player for a in await store.actions(pk)] == ["alice"]
    assert "already played by a bot" in await chat.text("dave", "/vote replace alice")
    # Any command does not end a vote's replacement; /back here does.
    await chat.say("alice", "/status")
    assert {s.display_name: s.is_bot for s in await store.seats(pk)}["alice"]
    [back] = await chat.say("alice", "/back")
    assert "Welcome back" in back.text and back.silent  # news, asking nobody to act
    assert not {s.display_name: s.is_bot for s in await store.seats(pk)}["alice"]


async def test_vote_refused_when_nobody_else_can_vote(chat: Chat) -> None:
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/addbot")
    await chat.say("alice", "/start")
    assert "Only seated players" in await chat.text("bob", "/vote replace alice")
    assert "already played by a bot" in await chat.text("alice", "/vote replace bot")


async def test_vote_refused_against_a_player_the_game_does_not_wait_for(
    chat: Chat, clock: FakeClock
) -> None:
    """Found playing (2026-12-03): two votes gave a bot the seat of a player who had just
    come back from /away and was not asked to act."""
    pk = await started(chat, "bob", "carol")  # alice's turn
    clock.advance(12 * 3600)  # half the deadline: she is silent now
    [refusal] = await chat.say("carol", "/vote replace bob")
    assert refusal.text == "bob is not holding up the table: the game waits for alice."
    assert refusal.sender_only and refusal.silent  # a refusal is his alone, not the group's
    assert await chat.table.store.votes_against(pk, "local:bob") == []
    assert "1 of 2 needed" in await chat.text("carol", "/vote replace alice")


# ---------------------------------------------------------------------- settings
