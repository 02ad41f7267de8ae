"""A quiet table through the real adapters (issue 17): the Telegram adapter against the fake
Bot API server and the Discord adapter over discord.py's HTTP edge, a round of play each:
every message is silent except the one that asks a person to act (one notifying message per
prompt), the live status message is posted once, pinned silently and then edited rather than
re-sent, prompts reply to it, and an automatic pass is announced."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from bot.messages import Inbound
from bot.platforms import discord_bot as dc
from bot.platforms.telegram import build_application, running
from bot.store import Store
from bot.table import Table
from tests.bot.helpers import FakeClock, present
from tests.bot.platforms.fake_discord import (
    ALICE_ID,
    BOB_ID,
    CHANNEL_ID,
    GUILD_ID,
    discord_http,
)
from tests.bot.platforms.fake_telegram import FakeBotApi, make_settings, unthrottled
from tests.bot.platforms.test_discord import settings as discord_settings
from tests.bot.test_quiet_table import Stuck

pytestmark = pytest.mark.timeout(60)

GROUP = -100777
PASS_LINE = "Bob passes (nothing to decide)."


async def handled(store: Store, update: str) -> None:
    """The update is in the durable inbox and handled: seen() is true from the moment the
    update is kept, before its handler has run (issue 16), so waiting on seen() alone races."""
    for _ in range(1000):
        if await store.seen("telegram", update) and all(
            u != update for u, _ in await store.inbox_pending("telegram")
        ):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"update {update} was not handled")


async def drained(store: Store) -> None:
    for _ in range(1000):
        if not await store.outbox(status="pending"):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the outbox did not drain")


async def current(store: Store, chat: str) -> list[str]:
    row = await store.open_game(chat)
    assert row is not None and row.state_json is not None
    return list(Stuck().current_players(json.loads(row.state_json)))


async def test_a_quiet_round_on_telegram(tmp_path: Path, clock: FakeClock) -> None:
    store = await Store.open(str(tmp_path / "q.sqlite3"), clock=clock)
    table = Table(
        store,
        games={"dicepile": Stuck()},
        clock=clock,
        render=False,
        seeder=lambda: 4,
        durable=("telegram",),
    )
    try:
        async with FakeBotApi() as api:
            api.group(GROUP)
            users = {n: api.user(i, n) for i, n in ((7, "Ann"), (8, "Bob"), (9, "Cyd"))}
            app = build_application(
                table, make_settings(), base_url=api.base_url, rate_limiter=unthrottled()
            )
            async with running(app, make_settings(), poll_timeout=1):

                async def say(name: str, text: str) -> None:
                    update = str(api.command(GROUP, users[name], text))
                    await handled(store, update)
                    await drained(store)

                await say("Ann", "/new dicepile start=20")
                await say("Bob", "/join")
                await say("Cyd", "/join")
                await say("Ann", "/start")
                mark = len(api.calls)
                rows_mark = len(await store.outbox())
                moves = 0
                for _ in range(8):  # Ann and Cyd take; Bob is passed for
                    who = (await current(store, f"tg:{GROUP}"))[0]
                    assert who != "Bob"
                    await say(who, "/take 1")
                    moves += 1
                await drained(store)
                pk = present(await store.open_game(f"tg:{GROUP}")).id
                known = await store.status_message(pk)
                assert known is not None
                status_id = known.message_id
                # pinned once, silently; then only edited
                [pin] = api.since(0, "pinChatMessage")
                assert pin.params["message_id"] == status_id
                assert pin.params.get("disable_notification") == "true"
                assert api.pinned[GROUP] == int(status_id)
                edits = api.since(mark, "editMessageText")
                assert edits and all(e.params["message_id"] == status_id for e in edits)
                statuses = [
                    c for c in api.since(0, "sendMessage") if str(c.message_id) == status_id
                ]
                assert len(statuses) == 1  # posted once, never re-sent
                # silent flags: every message is silent but the asks, one per prompt
                sent = api.since(mark, "sendMessage", "sendPhoto", "sendMediaGroup")
                loud = [c for c in sent if c.params.get("disable_notification") != "true"]
                asks = [
                    r
                    for r in (await store.outbox(f"tg:{GROUP}"))[rows_mark:]
                    if r.kind != "edit" and not r.silent
                ]
                assert all(r.body.get("mentions") and r.body.get("reply_status") for r in asks)
                assert loud and len(loud) == len(asks) <= moves  # one notifying per prompt
                assert all("tg://user?id=" in c.text for c in loud)
                for c in loud:  # each ask replies to the status message
                    assert json.loads(c.params["reply_parameters"])["message_id"] == int(status_id)
                # the automatic pass was announced (in the status message and the asks)
                texts = [c.text for c in sent] + [e.params["text"] for e in edits]
                assert any(PASS_LINE in t for t in texts)
                assert PASS_LINE in api.sent[int(status_id)]["text"] or any(
                    PASS_LINE in c.text for c in loud
                )
    finally:
        await table.close()


async def test_a_quiet_round_on_discord(tmp_path: Path, clock: FakeClock) -> None:
    store = await Store.open(str(tmp_path / "d.sqlite3"), clock=clock)
    table = Table(store, games={"dicepile": Stuck()}, clock=clock, render=False, seeder=lambda: 4)
    chat = f"dc:{CHANNEL_ID}"
    ids = {"Ann": ALICE_ID, "Bob": BOB_ID, "Cyd": 600000000000000003}

    async def say(name: str, text: str) -> None:
        # through the table's service path (the interactions are test_discord_table's subject)
        inbound = Inbound("test", chat, f"dc:{ids[name]}", name, text=text)
        await table.handle(inbound)
        await drained(store)

    client = dc.build_client(
        table, discord_settings(discord_token="t", discord_guild_id=str(GUILD_ID))
    )
    try:
        async with discord_http(client) as http:
            await client.login("t")  # registers the sender loop with the adapter's deliver
            try:
                await say("Ann", "/new dicepile start=20")
                await say("Bob", "/join")
                await say("Cyd", "/join")
                await say("Ann", "/start")
                mark = len(http.requests)
                for _ in range(6):
                    who = (await current(store, chat))[0]
                    await say(who, "/take 1")
                pk = present(await store.open_game(chat)).id
                known = await store.status_message(pk)
                assert known is not None
                status_id = known.message_id
                assert http.pinned[CHANNEL_ID] == int(status_id)
                edits = [r for r in http.requests[mark:] if r.method == "PATCH"]
                assert edits and all(r.path.endswith(f"/messages/{status_id}") for r in edits)
                posts = [  # from the start on: the status message was posted silently
                    r
                    for r in http.requests
                    if r.method == "POST" and r.path == f"/channels/{CHANNEL_ID}/messages"
                ]
                suppress = 1 << 12  # SUPPRESS_NOTIFICATIONS
                after = {id(r) for r in http.requests[mark:]}
                loud = [r for r in posts if not r.flags & suppress and id(r) in after]
                for r in posts:
                    users: Any = (r.json.get("allowed_mentions") or {}).get("users", [])
                    if r.flags & suppress:
                        assert not users  # a silent message pings nobody
                for r in loud:  # an ask: pings its players, replies to the status message
                    assert r.json["allowed_mentions"]["users"]
                    assert str(r.json["message_reference"]["message_id"]) == status_id
                assert loud and len(posts) > len(loud)
                assert PASS_LINE in http.messages[int(status_id)]["content"] or any(
                    PASS_LINE in r.json.get("content", "") for r in loud
                )
            finally:
                await client.close()
    finally:
        await table.close()
