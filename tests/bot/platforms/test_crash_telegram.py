"""Crash and shutdown of a real bot process (issue 16): the real table and Telegram adapter in a
subprocess (tests/bot/platforms/durable_bot.py) against the fake Bot API on 127.0.0.1.

- `kill -9` at random points of 20+ moves: every command the fake handed out is applied
  exactly once, every committed move is announced and the next player prompted after the
  restart. Telegram offers no idempotent send, so a message whose delivery was under way at
  the very moment of a kill may arrive twice; the test allows that only for a message that
  reached the server within 0.2 s before a kill, and nowhere else.
- SIGTERM with 50 messages held back by flood control: the process exits in under 2 s and
  delivers all 50, in order and once each, after the restart.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.buttons import public_mark
from bot.messages import Outbound
from bot.outbox import row_of
from bot.store import Store
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import present
from tests.bot.platforms.bot_process import BotProcess
from tests.bot.platforms.fake_telegram import Call, FakeBotApi

pytestmark = pytest.mark.timeout(240)

GROUP = -1001
CHAT_KEY = f"tg:{GROUP}"
GAME = ChatDicePile()


class Bot:
    """The bot process (forked from tests/bot/platforms/bot_process.py): start, kill -9, SIGTERM."""

    def __init__(self, db: str, base_url: str) -> None:
        self.db = db
        self.proc = BotProcess("telegram", db, base_url)
        self.kills: list[float] = []

    async def start(self) -> None:
        await self.proc.start()

    async def kill(self) -> None:
        self.kills.append(time.monotonic())
        self.proc.kill()  # SIGKILL: no clean-up of any kind
        await self.proc.wait()

    async def terminate(self) -> float:
        """SIGTERM; how long the process took to exit."""
        started = time.monotonic()
        self.proc.terminate()
        await self.proc.wait(30)
        return time.monotonic() - started


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[FakeBotApi, Bot]]:
    async with FakeBotApi() as api:
        api.group(GROUP)
        bot = Bot(str(tmp_path / "crash.sqlite3"), api.base_url)
        try:
            yield api, bot
        finally:
            if bot.proc.proc is not None:
                bot.proc.kill()
                await bot.proc.wait()


def game_row(db: str) -> tuple[int, int, str, dict[str, Any] | None] | None:
    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT id, version, status, state_json FROM games WHERE chat_key = ? "
            "ORDER BY id DESC LIMIT 1",
            (CHAT_KEY,),
        ).fetchone()
    if row is None:
        return None
    return row[0], row[1], row[2], json.loads(row[3]) if row[3] else None


def scalar(db: str, sql: str, *params: Any) -> Any:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchone()[0]


async def until(predicate: Any, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


def delivered(api: FakeBotApi) -> list[Call]:
    return [c for c in api.since(0, "sendMessage") if c.result not in (None, "flood")]


def marks_by_version(db: str, pk: int) -> list[str]:
    """The public mark of the game at each version from the start (1) to the one before the
    last, replayed from the stored seed and action log."""
    with sqlite3.connect(db) as conn:
        seed, options, state_json = conn.execute(
            "SELECT seed, options, state_json FROM games WHERE id = ?", (pk,)
        ).fetchone()
        actions = conn.execute(
            "SELECT player, action_json FROM actions WHERE game_id = ? ORDER BY seq", (pk,)
        ).fetchall()
    state = GAME.setup(list(json.loads(state_json)["players"]), json.loads(options), seed)
    marks = [public_mark(GAME, state)]
    for player, action in actions[:-1]:
        state, _ = GAME.apply(state, player, json.loads(action))
        marks.append(public_mark(GAME, state))
    return marks


def allowed_twice(first: Call, kills: list[float]) -> bool:
    """A second copy is excused only when the first reached the server within 0.2 s of a kill
    (a request already on the wire arrives just after the signal)."""
    return any(abs(k - first.at) <= 0.2 for k in kills)


async def test_kill_9_at_random_points_of_twenty_moves_loses_and_repeats_nothing(
    world: tuple[FakeBotApi, Bot],
) -> None:
    api, bot = world
    rnd = random.Random(16)
    ann, bob = api.user(7, "Ann"), api.user(8, "Bob")
    users = {"Ann": ann, "Bob": bob}
    await bot.start()
    api.command(GROUP, ann, "/new dicepile start=20")
    await until(lambda: game_row(bot.db))
    api.command(GROUP, bob, "/join")
    pk = present(game_row(bot.db))[0]
    await until(lambda: scalar(bot.db, "SELECT count(*) FROM seats WHERE game_id = ?", pk) == 2)
    api.command(GROUP, ann, "/start")
    await until(lambda: present(game_row(bot.db))[1] == 1)

    sent_moves = 0
    while True:
        _, version, status, state = present(game_row(bot.db))
        if status != "active":
            break
        assert state is not None and sent_moves < 40
        player = GAME.current_players(state)[0]
        api.command(GROUP, users[player], "/take 1")
        sent_moves += 1
        if rnd.random() < 0.6:  # kill at a random point of this move's life
            await asyncio.sleep(rnd.uniform(0.0, 0.25))
            await bot.kill()
            await bot.start()
        await until(lambda v=version: present(game_row(bot.db))[1] > v)
        assert present(game_row(bot.db))[1] == version + 1  # applied once
    assert sent_moves >= 20 and len(bot.kills) >= 8

    # Every command handed out was applied exactly once; nothing is left unhandled.
    assert scalar(bot.db, "SELECT count(*) FROM actions WHERE game_id = ?", pk) == sent_moves
    await until(lambda: scalar(bot.db, "SELECT count(*) FROM outbox WHERE status = 'pending'") == 0)
    await until(lambda: scalar(bot.db, "SELECT count(*) FROM inbox WHERE handled_at IS NULL") == 0)
    final = present(game_row(bot.db))[1]
    messages = delivered(api)
    # Every committed version was announced: its rows (the live status message's edit, and a
    # prompt when someone was asked anew) were all delivered, none failed (issue 17: a quiet
    # table edits its status message rather than posting a prompt per move).
    assert scalar(bot.db, "SELECT count(*) FROM outbox WHERE status <> 'sent'") == 0
    assert scalar(bot.db, "SELECT count(*) FROM outbox WHERE kind = 'edit'") >= sent_moves
    pins = api.since(0, "pinChatMessage")
    assert api.since(0, "editMessageText") and pins
    # A new message is never repeated (up to one already on the wire at a kill).
    # The status message is posted once, pinned, and edited from then on; its first post
    # carries the buttons of the first prompt, which asks too (a reply to it), so it is
    # checked apart from the prompts (the check below once counted it as the prompt's
    # copy, excused only while a kill fell within 0.2 s of it: flaky under load).
    pinned = {int(p.params["message_id"]) for p in pins}
    status_posts = [c for c in messages if c.message_id in pinned]
    assert status_posts and all(allowed_twice(status_posts[0], bot.kills) for _ in status_posts[1:])
    # A prompt's buttons carry its public moment (bot/buttons.py), found here by replay.
    marks = marks_by_version(bot.db, pk)
    assert len(marks) == final - 1
    for v, mark in enumerate(marks, start=1):
        prompts = [
            c
            for c in messages
            if c.message_id not in pinned
            and any(p.startswith(f"{pk}:{mark}:") for row in c.buttons for _, p in row)
        ]
        if marks.count(mark) > 1:
            continue  # the same pile and player again (a bonus stone): copies can't be told
        assert all(allowed_twice(prompts[0], bot.kills) for _ in prompts[1:]), (
            v,
            [round(c.at - bot.kills[0], 3) for c in prompts],
            [round(k - bot.kills[0], 3) for k in bot.kills],
        )
    over = [c for c in messages if "Game over" in c.text]
    assert over and all(allowed_twice(over[0], bot.kills) for _ in over[1:])
    # The status message ends on the result, and comes off the pins (issue 17).
    status_message = api.sent[int(pins[-1].params["message_id"])]
    assert "Game over" in status_message["text"], status_message
    assert GROUP not in api.pinned
    await bot.terminate()


async def test_sigterm_exits_in_under_two_seconds_and_the_backlog_follows_the_restart(
    world: tuple[FakeBotApi, Bot],
) -> None:
    api, bot = world
    store = await Store.open(bot.db)
    rows = [row_of(Outbound(CHAT_KEY, f"backlog {i}"), "en") for i in range(50)]
    await store.outbox_add(rows)
    await store.close()
    # flood control holds everything back: long enough to outlast the SIGTERM below (which
    # must take under 2 s), short because the restarted sender honours it (it is stored)
    api.flood = lambda: 6
    await bot.start()
    await until(lambda: api.since(0, "sendMessage"))  # the sender loop is trying
    ann = api.user(7, "Ann")
    for _ in range(3):  # and commands are coming in
        api.command(GROUP, ann, "/help")
    await asyncio.sleep(0.1)
    took = await bot.terminate()
    assert took < 2.0, took
    assert not delivered(api)

    api.flood = None
    await bot.start()
    await until(lambda: scalar(bot.db, "SELECT count(*) FROM outbox WHERE status = 'pending'") == 0)
    backlog = [c.text for c in delivered(api) if c.text.startswith("backlog")]
    assert backlog == [f"backlog {i}" for i in range(50)]
    assert await bot.terminate() < 2.0
