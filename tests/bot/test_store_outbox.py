"""The durable message path of the store (bot/store_outbox.py, bot/store_pg_outbox.py) on both
backends: inbox, outbox rows written in the move's transaction, order per chat, retries and
refusals, pruning; on PostgreSQL also the claim across workers (`FOR UPDATE SKIP LOCKED` and a
lease per chat) and the NOTIFY that wakes the sender loops. The table-level outbox tests
(tests/bot/test_outbox.py) run here on both backends too."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Due, LogEntry, Outcome
from bot.store_outbox import KEEP_SECONDS, OutboxItem, OutRow, StatusMessage
from bot.store_pg import LEASE_SECONDS, PgStore
from bot.store_protocol import Store as AnyStore
from tests.bot import test_outbox as table_suite
from tests.bot.helpers import FakeClock
from tests.bot.test_store import active, entry

durable = table_suite.durable  # the fixture, on this module's `store`
for _name, _test in list(vars(table_suite).items()):
    if _name.startswith("test_"):
        globals()[_name] = _test


@pytest.fixture
def store(any_store: AnyStore) -> AnyStore:
    return any_store  # the suite's tests on each backend (tests/bot/conftest.py)


def row(chat: str, text: str, **kw: object) -> OutRow:
    return OutRow("telegram", chat, "chat", "en", {"text": text}, **kw)  # type: ignore[arg-type]


def texts(items: list[OutboxItem]) -> list[str]:
    return [i.body["text"] for i in items]


async def test_inbox_keeps_an_update_once_until_it_is_handled(store: AnyStore) -> None:
    assert await store.inbox_put("telegram", "7", '{"u":7}')
    assert not await store.inbox_put("telegram", "7", '{"u":7}')  # redelivered: kept once
    assert await store.inbox_put("telegram", "8", '{"u":8}')
    assert await store.inbox_put("discord", "7", "{}")  # another platform's id space
    assert await store.inbox_pending("telegram") == [("7", '{"u":7}'), ("8", '{"u":8}')]
    await store.inbox_done("telegram", "7")
    assert await store.inbox_pending("telegram") == [("8", '{"u":8}')]


async def test_a_move_s_outbox_rows_commit_with_it_or_not_at_all(
    store: AnyStore, clock: FakeClock
) -> None:
    pk = await active(store)
    due = Due(["Ann"], clock.now, clock.now + 60)
    ok = await store.commit_moves(
        pk, 1, [entry(1)], "{}", over=False, due=due, inbound=("tg", "1"),
        outbox=[row("tg:1", "one", game_id=pk), row("tg:1", "two", silent=True)],
    )  # fmt: skip
    assert ok.outcome is Outcome.OK and ok.version == 2 and len(ok.outbox_ids) == 2
    items = await store.outbox()
    assert [i.id for i in items] == list(ok.outbox_ids) and texts(items) == ["one", "two"]
    assert [i.silent for i in items] == [False, True] and items[0].game_id == pk
    stale = await store.commit_moves(
        pk, 1, [entry(2)], "{}", over=False, due=due, outbox=[row("tg:1", "lost")]
    )
    dup = await store.commit_moves(
        pk, 2, [entry(2)], "{}", over=False, due=due, inbound=("tg", "1"),
        outbox=[row("tg:1", "again")],
    )  # fmt: skip
    assert (stale.outcome, dup.outcome) == (Outcome.STALE, Outcome.DUPLICATE)
    assert texts(await store.outbox()) == ["one", "two"]  # neither wrote a row


async def test_bot_steps_get_their_own_versions(store: AnyStore, clock: FakeClock) -> None:
    """Each step of a run gets its version, and the log keeps the step: a step 0 is where a
    run began, which is where the run's pictures stand (bot/announce.py previous_version)."""
    pk = await active(store)
    bot = LogEntry("bot:1", "Bot", '{"n":2}', "[]", step=1)
    done = await store.commit_moves(pk, 1, [entry(1), bot], "{}", over=False, due=None)
    assert done.version == 3
    again = await store.commit_moves(pk, 3, [entry(3)], "{}", over=False, due=None)
    assert again.version == 4
    logged = [(a.seq, a.version, a.step) for a in await store.actions(pk)]
    assert logged == [(1, 2, 0), (2, 3, 1), (3, 4, 0)]


async def test_start_undo_and_end_carry_their_messages(store: AnyStore, clock: FakeClock) -> None:
    outcome, pk = await store.create_game("tg:1", "dicepile", {}, "tg:10", ("tg:10", "Ann", "en"))
    assert outcome is Outcome.OK
    bot = LogEntry("bot:1", "Bot", '{"n":1}', "[]", step=0)
    started = await store.start_game(
        pk, 5, ["Ann"], "{}", None, entries=[bot], outbox=[row("tg:1", "started")]
    )
    assert started.outcome is Outcome.OK and started.version == 2 and started.outbox_ids
    assert [(a.version, a.step) for a in await store.actions(pk)] == [(2, 0)]
    undone = await store.undo_last(pk, 2, 1, "{}", None, outbox=[row("tg:1", "undone")])
    assert undone.version == 3 and undone.outbox_ids and await store.actions(pk) == []
    ended = await store.end_game(pk, 3, "aborted", outbox=[row("tg:1", "ended")])
    assert ended.outcome is Outcome.OK and len(ended.outbox_ids) == 1
    assert texts(await store.outbox("tg:1")) == ["started", "undone", "ended"]


async def test_due_rows_keep_each_chat_s_order(store: AnyStore, clock: FakeClock) -> None:
    ids = await store.outbox_add(
        [row("tg:1", "a1"), row("tg:2", "b1", delay=30), row("tg:1", "a2"), row("tg:2", "b2")]
    )
    assert ids == sorted(ids)
    # tg:2's first row waits 30 s, so its second waits behind it.
    assert texts(await store.outbox_due("telegram", clock.now)) == ["a1", "a2"]
    assert await store.outbox_next_at("telegram") == clock.now
    await store.outbox_sent(ids[0], "m1")
    await store.outbox_sent(ids[2], "m2")
    assert await store.outbox_next_at("telegram") == clock.now + 30
    assert await store.outbox_due("telegram", clock.now) == []
    assert texts(await store.outbox_due("telegram", clock.now + 30)) == ["b1", "b2"]
    assert await store.outbox_due("discord", clock.now + 30) == []
    sent = await store.outbox(status="sent")
    assert [(i.message_id, i.attempts) for i in sent] == [("m1", 1), ("m2", 1)]


async def test_retry_waits_and_a_refusal_fails_for_good(store: AnyStore, clock: FakeClock) -> None:
    first, second, other = await store.outbox_add(
        [row("tg:1", "a1"), row("tg:1", "a2"), row("tg:2", "b1")]
    )
    assert len(await store.outbox_due("telegram", clock.now)) == 3
    await store.outbox_retry(first, clock.now + 7, "flood " * 200)
    await store.outbox_failed(other, "blocked")
    assert await store.outbox_next_at("telegram") == clock.now + 7
    assert await store.outbox_due("telegram", clock.now) == []  # a2 waits behind a1
    assert texts(await store.outbox_due("telegram", clock.now + 7)) == ["a1", "a2"]
    items = {i.id: i for i in await store.outbox()}
    assert items[first].attempts == 1 and len(items[first].error or "") == 500
    assert (items[other].status, items[other].error) == ("failed", "blocked")
    assert items[second].status == "pending"


async def test_sent_rows_and_handled_updates_are_pruned_after_days(
    store: AnyStore, clock: FakeClock
) -> None:
    done, waiting = await store.outbox_add([row("tg:1", "old"), row("tg:1", "waiting")])
    await store.outbox_sent(done, None)
    await store.inbox_put("telegram", "1", "{}")
    await store.inbox_done("telegram", "1")
    await store.inbox_put("telegram", "2", "{}")
    clock.advance(KEEP_SECONDS + 1)
    await store.prune_messages()
    assert [i.id for i in await store.outbox()] == [waiting]  # pending rows stay
    assert await store.inbox_pending("telegram") == [("2", "{}")]
    assert not await store.inbox_put("telegram", "2", "{}")


# ---------------------------------------------------------------------- PostgreSQL: workers
async def test_pg_two_workers_claim_disjoint_chats_in_order(
    pg_url: str,
    clock: FakeClock,
) -> None:
    one = await PgStore.open(pg_url, clock=clock)
    two = await PgStore.open(pg_url, clock=clock)
    await one.outbox_add([row(f"tg:{c}", f"{c}-{n}") for n in range(3) for c in range(6)])
    a, b = await asyncio.gather(
        one.outbox_due("telegram", clock.now), two.outbox_due("telegram", clock.now)
    )
    chats_a, chats_b = {i.chat_key for i in a}, {i.chat_key for i in b}
    assert not chats_a & chats_b  # a chat is one worker's at a time
    for items in (a, b):  # and each takes a chat's rows from its first, in order
        for chat in {i.chat_key for i in items}:
            assert texts([i for i in items if i.chat_key == chat]) == [
                f"{chat[3:]}-{n}" for n in range(3)
            ]
    rest = await two.outbox_due("telegram", clock.now)  # the chats the first one holds
    assert {i.chat_key for i in rest} == chats_b  # its own leases do not block it
    assert len(chats_a | chats_b) == 6
    assert await two.outbox_due("telegram", clock.now + LEASE_SECONDS) != []  # one died
    await one.close()
    await two.close()


async def test_pg_a_retry_hands_the_chat_to_any_worker(
    pg_url: str,
    clock: FakeClock,
) -> None:
    one = await PgStore.open(pg_url, clock=clock)
    two = await PgStore.open(pg_url, clock=clock)
    first, _ = await one.outbox_add([row("tg:1", "a1"), row("tg:1", "a2")])
    assert len(await one.outbox_due("telegram", clock.now)) == 2
    assert await two.outbox_due("telegram", clock.now) == []  # leased to the first worker
    assert await two.outbox_next_at("telegram") == clock.now + LEASE_SECONDS
    await one.outbox_retry(first, clock.now + 5, "flood")
    assert texts(await two.outbox_due("telegram", clock.now + 5)) == ["a1", "a2"]
    await one.close()
    await two.close()


async def test_pg_rows_written_by_one_worker_wake_the_others(
    pg_url: str,
    clock: FakeClock,
) -> None:
    one = await PgStore.open(pg_url, clock=clock)
    two = await PgStore.open(pg_url, clock=clock)
    heard: asyncio.Queue[str] = asyncio.Queue()
    await two.listen_outbox(heard.put_nowait)
    pk = await active(one)
    await one.commit_moves(
        pk, 1, [entry(1)], "{}", over=False, due=None, outbox=[row("tg:1", "moved")]
    )
    assert await asyncio.wait_for(heard.get(), 10) == "telegram"
    await one.outbox_add([row("tg:1", "shown", sent=True)])  # already delivered: no wake
    await one.outbox_add([OutRow("discord", "dc:1", "chat", "en", {"text": "x"})])
    assert await asyncio.wait_for(heard.get(), 10) == "discord"
    # Once `one` runs Telegram's sender loop itself (the table registered it), its moves'
    # Telegram rows wake that loop in-process and notify no other worker (issue 23); a
    # platform it does not deliver still does. Notifications come in commit order.
    one.deliver_here("telegram")
    await one.commit_moves(
        pk,
        2,
        [entry(2)],
        "{}",
        over=False,
        due=None,
        outbox=[row("tg:1", "moved again"), OutRow("discord", "dc:1", "chat", "en", {"t": 1})],
    )
    await one.outbox_add([OutRow("discord", "dc:1", "chat", "en", {"text": "y"})])
    got = [await asyncio.wait_for(heard.get(), 10) for _ in range(2)]
    assert got == ["discord", "discord"]  # the move's, then the next commit's: no "telegram"
    await one.close()
    await two.close()


async def test_a_game_s_status_message_is_remembered_and_replaced(store: AnyStore) -> None:
    """Issue 17: the platform's id of each game's live status message, on both backends."""
    pk = await active(store)
    assert await store.status_message(pk) is None
    await store.set_status_message(pk, "tg:-1", "1001")
    assert await store.status_message(pk) == StatusMessage("1001", [])
    await store.set_status_message(pk, "tg:-1", "1002", ["Ann bids 13.", "Bob — 14 €"])
    assert await store.status_message(pk) == StatusMessage("1002", ["Ann bids 13.", "Bob — 14 €"])
    assert await store.status_message(pk + 1000) is None
