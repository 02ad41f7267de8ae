"""Issue 16: the messages the scheduler causes (reminders, the end of an absence, digests) are
written to the outbox in the transaction that claims the work, on both store backends. A crash
right after the claim cannot lose them, a crash before it cannot send them twice: after the
restart each reminder is in the outbox exactly once."""

from __future__ import annotations

from bot.reminders import RELOOK
from bot.scheduler import Scheduler
from bot.storage import open_store
from bot.store import OutRow
from bot.store_pg_timed import LEASE_SECONDS
from bot.store_plans import DigestRow
from bot.store_protocol import Store
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock, present

H = 3600.0


def durable_table(store: Store, clock: FakeClock) -> Table:
    """A table whose "local" messages wait in the outbox, as a real platform's do."""
    return Table(
        store, games={"dicepile": ChatDicePile()}, clock=clock, seeder=lambda: 7, durable=("local",)
    )


class Crash(Exception):
    """The process dies here."""


def crashing(store: Store, after: bool) -> None:
    """Make `store.claim_turn` die right after its commit (`after`) or right before it."""
    real = store.claim_turn

    async def claim(*args: object, **kw: object) -> bool:
        if not after:
            raise Crash("before the claim")
        await real(*args, **kw)  # type: ignore[arg-type]
        raise Crash("after the claim")

    store.claim_turn = claim  # type: ignore[method-assign]


async def reminders_in(store: Store, chat_key: str) -> list[str]:
    return [
        str(r.body.get("text", ""))
        for r in await store.outbox(chat_key)
        if "Reminder" in str(r.body.get("text", ""))
    ]


async def test_issue16_a_crash_around_the_claim_neither_loses_nor_repeats_a_reminder(
    db_url: str, clock: FakeClock
) -> None:
    store = await open_store(db_url, clock=clock)
    table = durable_table(store, clock)
    chat = Chat(table)
    await chat.say("alice", "/new dicepile")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    await Scheduler(table, clock=clock).run_due()  # plans the turn: nothing to say yet
    assert await reminders_in(store, chat.chat_key) == []

    # The 50 % reminder; the process dies right after the claim committed.
    clock.advance(12 * H)
    crashing(store, after=True)
    await Scheduler(table, clock=clock).run_due()
    assert len(await reminders_in(store, chat.chat_key)) == 1  # written with the claim
    await store.close()

    # Restart: nothing is sent twice.
    store = await open_store(db_url, clock=clock)
    table = durable_table(store, clock)
    await Scheduler(table, clock=clock).run_due()
    assert len(await reminders_in(store, chat.chat_key)) == 1

    # The 90 % reminder; the process dies before the claim: nothing was written...
    clock.advance(9.6 * H)
    crashing(store, after=False)
    await Scheduler(table, clock=clock).run_due()
    assert len(await reminders_in(store, chat.chat_key)) == 1
    await store.close()

    # ... and after the restart it is sent, once (on PostgreSQL once the dead worker's lease
    # on the turn has run out).
    clock.advance(LEASE_SECONDS + 1)
    store = await open_store(db_url, clock=clock)
    table = durable_table(store, clock)
    sched = Scheduler(table, clock=clock)
    await sched.run_due()
    await sched.run_due()
    texts = await reminders_in(store, chat.chat_key)
    assert len(texts) == 2 and "@alice" in texts[1] and "left" in texts[1]
    await store.close()


def note(text: str) -> OutRow:
    return OutRow("local", "local:test", "chat", "en", {"text": text})


async def test_issue16_a_digest_and_an_absence_end_write_their_message_with_the_claim(
    any_store: Store, clock: FakeClock
) -> None:
    await any_store.set_digest("local:ann", "local:dm", 9, "UTC", clock.now)
    [due] = await any_store.due_digests(clock.now)
    assert await any_store.claim_digest(due, clock.now + 24 * H, outbox=[note("digest")])
    # A second worker (or a restart) holding the same due row: no claim, no second message.
    assert not await any_store.claim_digest(due, clock.now + 24 * H, outbox=[note("digest")])
    stale = DigestRow("local:ann", "local:dm", 9, "UTC", clock.now)
    assert not await any_store.claim_digest(stale, clock.now + 48 * H, outbox=[note("digest")])
    assert [r.body["text"] for r in await any_store.outbox()] == ["digest"]

    _, pk = await any_store.create_game("local:test", "dicepile", {}, "local:ann", None)
    await any_store.add_seat(pk, "local:ann", "ann", max_players=4)
    await any_store.start_game(pk, 1, ["ann"], "{}", None)
    assert await any_store.start_autopilot(pk, "local:ann", "away", clock.now + H, "random")
    assert await any_store.end_autopilot(pk, "local:ann", outbox=[note("ann is back")])
    assert not await any_store.end_autopilot(pk, "local:ann", outbox=[note("ann is back")])
    assert [r.body["text"] for r in await any_store.outbox()] == ["digest", "ann is back"]


async def test_a_games_start_time_and_a_persons_settings_are_stored(
    any_store: Store, clock: FakeClock
) -> None:
    """Migration 5 (SQLite) / 4 (PostgreSQL): the status change itself records when a game
    left its lobby (the first turn's clock, bot/clock.py); /me settings live with the user."""
    _, pk = await any_store.create_game("local:test", "dicepile", {}, "local:ann", None)
    await any_store.add_seat(pk, "local:ann", "ann", max_players=4)
    assert await any_store.started_at(pk) is None  # a lobby
    clock.advance(5 * H)
    await any_store.start_game(pk, 1, ["ann"], "{}", None)
    assert await any_store.started_at(pk) == clock.now
    clock.advance(H)
    await any_store.end_game(pk, None, "aborted")
    assert await any_store.started_at(pk) == clock.now - H  # only the lobby's end counts

    assert await any_store.user_prefs(["local:ann"]) == {"local:ann": {}}
    await any_store.set_user("local:ann", lang="pl")
    await any_store.update_user_prefs(
        "local:ann", lambda _: {"tz": "Europe/Warsaw", "quiet": [23, 8]}
    )
    await any_store.set_user("local:ann", dm_ok=True)  # other user fields leave them alone
    prefs = await any_store.user_prefs(["local:ann", "local:bob"])
    assert prefs == {"local:ann": {"quiet": [23, 8], "tz": "Europe/Warsaw"}, "local:bob": {}}
    assert (await any_store.user("local:ann")).lang == "pl"


async def test_issue16_a_crash_between_the_claim_and_the_default_move_still_plays_it_once(
    db_url: str, clock: FakeClock
) -> None:
    store = await open_store(db_url, clock=clock)
    table = durable_table(store, clock)
    chat = Chat(table)
    await chat.say("alice", "/new dicepile")
    await chat.say("alice", "/settings deadline=1h policy=skip")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    pk = present(await store.open_game(chat.chat_key)).id
    await Scheduler(table, clock=clock).run_due()
    clock.advance(H)
    crashing(store, after=True)  # the expiry is claimed, then the process dies
    await Scheduler(table, clock=clock).run_due()
    assert await store.actions(pk) == []
    await store.close()

    store = await open_store(db_url, clock=clock)  # the restart
    table = durable_table(store, clock)
    sched = Scheduler(table, clock=clock)
    clock.advance(RELOOK)
    await sched.run_due()
    await sched.run_due()
    assert [a.player for a in await store.actions(pk)] == ["alice"]  # played, once
    notes = [r for r in await store.outbox(chat.chat_key) if "ran out of time" in r.body["text"]]
    assert len(notes) == 1
    await store.close()
