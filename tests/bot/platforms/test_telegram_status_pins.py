"""Through the Telegram adapter against the fake Bot API (issue 17): a /status answer is
silent and mentions nobody (it names who must act); the live status message is unpinned when
the game ends (unpinChatMessage with its id), by a last move or by /abort."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.platforms.telegram import build_application, running
from bot.store import Store
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import FakeClock, present
from tests.bot.platforms.fake_telegram import FakeBotApi, make_settings, unthrottled
from tests.bot.platforms.test_quiet_platforms import drained, handled

pytestmark = pytest.mark.timeout(60)

GROUP = -100888
KEY = f"tg:{GROUP}"
Say = Callable[[str, str], Awaitable[None]]


async def _with_table(
    tmp_path: Path, clock: FakeClock, play: Callable[[FakeBotApi, Store, Say], Awaitable[None]]
) -> None:
    store = await Store.open(str(tmp_path / "t.sqlite3"), clock=clock)
    table = Table(
        store,
        games={"dicepile": ChatDicePile()},
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

                await say("Ann", "/new dicepile start=5")
                await say("Bob", "/join")
                await say("Cyd", "/join")
                await say("Ann", "/start")
                await play(api, store, say)
    finally:
        await table.close()


async def _current(store: Store) -> str | None:
    row = await store.open_game(KEY)
    if row is None or row.state_json is None:
        return None
    players = ChatDicePile().current_players(json.loads(row.state_json))
    return players[0] if players else None


async def test_status_answer_is_silent_and_pings_nobody(tmp_path: Path, clock: FakeClock) -> None:
    async def play(api: FakeBotApi, store: Store, say: Say) -> None:
        who = await _current(store)
        asker = next(n for n in ("Ann", "Bob", "Cyd") if n != who)
        mark = len(api.calls)
        await say(asker, "/status")
        sent = api.since(mark, "sendMessage")
        answers = [c for c in sent if f"waiting for {who}" in c.text]
        assert answers, [c.text for c in sent]
        for c in answers:
            assert c.params.get("disable_notification") == "true"
            assert "tg://user?id=" not in json.dumps(c.params)

    await _with_table(tmp_path, clock, play)


async def test_status_message_is_unpinned_when_the_game_ends(
    tmp_path: Path, clock: FakeClock
) -> None:
    async def play(api: FakeBotApi, store: Store, say: Say) -> None:
        pk = present(await store.open_game(KEY)).id
        known = await store.status_message(pk)
        assert known is not None and api.pinned[GROUP] == int(known.message_id)
        for _ in range(30):
            row = await store.open_game(KEY)
            who = await _current(store)
            if row is None or row.state_json is None or who is None:
                break
            await say(who, f"/take {min(3, json.loads(row.state_json)['pile'])}")
        assert await store.open_game(KEY) is None, "the game ended"
        [unpin] = api.since(0, "unpinChatMessage")
        assert unpin.params["message_id"] == known.message_id
        assert GROUP not in api.pinned

    await _with_table(tmp_path, clock, play)


async def test_abort_unpins_the_status_message(tmp_path: Path, clock: FakeClock) -> None:
    async def play(api: FakeBotApi, store: Store, say: Say) -> None:
        pk = present(await store.open_game(KEY)).id
        known = await store.status_message(pk)
        assert known is not None and api.pinned[GROUP] == int(known.message_id)
        await say("Ann", "/abort confirm")
        assert await store.open_game(KEY) is None
        [unpin] = api.since(0, "unpinChatMessage")
        assert unpin.params["message_id"] == known.message_id
        assert GROUP not in api.pinned

    await _with_table(tmp_path, clock, play)


async def test_unpin_without_the_right_is_ignored(tmp_path: Path, clock: FakeClock) -> None:
    async def play(api: FakeBotApi, store: Store, say: Say) -> None:
        api.no_pin.add(GROUP)
        await say("Ann", "/abort confirm")
        assert await store.open_game(KEY) is None
        assert api.since(0, "unpinChatMessage")
        assert not await store.outbox(status="pending")
        assert not [r for r in await store.outbox(KEY) if r.status == "failed"]

    await _with_table(tmp_path, clock, play)
