"""Power Grid over Telegram, end to end: the real table service and engine behind the real
Application (long polling over HTTP against the fake Bot API server on 127.0.0.1).

Three people play the lobby and two full rounds in a forum topic. Their moves are the
heuristic bot's choices typed as chat commands (or pressed, when the last prompt has a button
for exactly that command), so the game goes where a real one would.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.messages import Inbound, Outbound
from bot.platforms.telegram import adapter_of, build_application, running
from engine.core import Rng
from engine.core.rng import new_rng_state
from tests.bot.pgdrive import command_for, reads_back
from tests.bot.platforms.fake_telegram import Call, FakeBotApi, make_settings, unthrottled
from tests.bot.platforms.test_chat_names import no_raw_keys

pg = pytest.importorskip("engine.powergrid")
table_module = pytest.importorskip("bot.table")

pytestmark = pytest.mark.timeout(120)

GROUP, TOPIC = -1001, 5
CHAT_KEY = f"tg:{GROUP}:{TOPIC}"


class Recording:
    """The real table, noting what it answered to each update (so the test knows how many
    messages to wait for)."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.handled: dict[str, list[Outbound]] = {}
        self.changed = asyncio.Condition()

    async def handle(self, inbound: Inbound) -> list[Outbound]:
        outs = await self.table.handle(inbound)
        async with self.changed:
            self.handled[inbound.update_id or ""] = outs
            self.changed.notify_all()
        return outs

    def __getattr__(self, name: str) -> Any:
        return getattr(self.table, name)


class Players:
    def __init__(self, api: FakeBotApi, table: Recording) -> None:
        self.api = api
        self.table = table
        self.users = {
            "Ann": api.user(7, "Ann", lang="en"),
            "Bob": api.user(8, "Bob"),
            "Cy": api.user(9, "Cy", lang="pl"),
        }

    async def _settle(self, update_id: int, mark: int, button: bool) -> list[Call]:
        key = str(update_id)
        async with self.table.changed:
            await asyncio.wait_for(
                self.table.changed.wait_for(lambda: key in self.table.handled), 10
            )
        outs = self.table.handled[key]
        expected = sum(
            1
            for o in outs
            if (o.text.strip() or o.png is not None)
            and o.status_of is None  # the live status message: edited in place (issue 17)
            and not (button and o.toast and o.private_to and o.text.strip() == o.toast.strip())
        )
        # The messages in the outbox arrive through the sender loop: wait until it is done.
        await drained(self.table.table)
        if not expected:
            return []
        return await self.api.wait_for(lambda s: (m := s.messages(mark))[expected - 1 :] and m)

    async def say(self, name: str, text: str) -> list[Call]:
        mark = len(self.api.calls)
        update_id = self.api.command(GROUP, self.users[name], text, TOPIC)
        return await self._settle(update_id, mark, False)

    async def press(self, name: str, message_id: int, payload: str) -> tuple[Call, list[Call]]:
        mark = len(self.api.calls)
        update_id = self.api.press(self.users[name], message_id, payload)
        sent = await self._settle(update_id, mark, True)
        [answer] = await self.api.wait_calls(mark, "answerCallbackQuery")
        return answer, sent

    def last_buttons(self) -> tuple[int, list[str]]:
        """The live status message's buttons (pinned, edited after every move: issue 17), else
        the latest message with buttons in the topic; its id and payloads."""
        pinned = self.api.pinned.get(GROUP)
        if pinned is not None:
            rows = self.api.sent[pinned].get("reply_markup", {}).get("inline_keyboard", [])
            return pinned, [b["callback_data"] for row in rows for b in row]
        call = next(
            c
            for c in reversed(self.api.messages())
            if c.buttons and c.chat_id == GROUP and c.thread_id == TOPIC
        )
        return call.message_id, [p for row in call.buttons for _, p in row]


async def drained(table: Any) -> None:
    """Until the outbox sender loop has delivered every queued message."""
    for _ in range(500):
        if not await table.store.outbox(status="pending"):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the outbox did not drain")


async def game_state(table: Any) -> tuple[int, dict[str, Any]]:
    row = await table.store.open_game(CHAT_KEY)
    assert row is not None and row.state_json
    return row.version, json.loads(row.state_json)


@pytest.fixture
async def api() -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi() as server:
        server.group(GROUP, "Power Grid night", forum=True)
        yield server


async def test_lobby_and_two_rounds_of_power_grid(api: FakeBotApi, tmp_path: Path) -> None:
    real = await table_module.open_table(
        str(tmp_path / "tg.sqlite3"), games={"powergrid": pg.GAME}, seeder=lambda: 7
    )
    table = Recording(real)
    settings = make_settings()
    app = build_application(table, settings, base_url=api.base_url, rate_limiter=unthrottled())
    players = Players(api, table)
    try:
        async with running(app, settings, poll_timeout=5):
            menu = api.since(0, "setMyCommands")[0].json("commands")
            assert {"new", "join", "start", "bid", "build"} <= {c["command"] for c in menu}

            # ---- lobby: a command, a button, a command
            [opened] = await players.say("Ann", "/new@boardchat_test_bot powergrid")
            assert "Power Grid" in opened.text
            lobby_id, lobby_payloads = players.last_buttons()
            join = next(p for p in lobby_payloads if p.endswith(":/join"))
            answer, sent = await players.press("Bob", lobby_id, join)
            assert "text" not in answer.params
            assert sent and "Bob" in sent[-1].text
            await players.say("Cy", "/join")
            started = await players.say("Ann", "/start")
            assert started and all(c.thread_id == TOPIC for c in started)

            # ---- an illegal move: one line with the reason, nothing changed
            version, state = await game_state(real)
            mover = pg.GAME.current_players(state)[0]
            [refused] = await players.say(mover, "/bid 99 100")
            assert refused.text.strip() and "\n" not in refused.text.strip()
            assert (await game_state(real))[0] == version

            # ---- two rounds, typed or pressed
            chooser = Rng(new_rng_state(2024))
            presses = typed = acted = 0
            stale: tuple[int, str] | None = None
            stale_checked = False
            for _ in range(400):
                version, state = await game_state(real)
                if state["round"] >= 3:
                    break
                player = pg.GAME.current_players(state)[0]
                action = pg.GAME.bots["heuristic"](json.loads(json.dumps(state)), player, chooser)
                text = command_for(action)
                message_id, payloads = players.last_buttons()
                button = next((p for p in payloads if p.split(":", 2)[2] == text), None)
                if button is not None:
                    answer, sent = await players.press(player, message_id, button)
                    assert "text" not in answer.params
                    presses += 1
                    stale = stale or (message_id, button)
                elif reads_back(pg.GAME, state, player, text, action):
                    await players.say(player, text)  # quiet unless someone is asked anew
                    typed += 1
                else:  # a spelling the chat layer reads differently: the engine action
                    uid = int(players.users[player]["id"])
                    inbound = Inbound("telegram", CHAT_KEY, f"tg:{uid}", player)
                    for out in await real.act(inbound, action):
                        if out.outbox_id is None:  # the others wait in the outbox
                            await adapter_of(app).send(out)
                    await drained(real)
                    acted += 1
                assert (await game_state(real))[0] > version, text

                if stale is not None and not stale_checked:
                    # ---- the pressed button again: a toast, nothing sent, nothing changed
                    before = (await game_state(real))[0]
                    mark = len(api.calls)
                    answer, sent = await players.press("Ann", *stale)
                    assert "out of date" in answer.params["text"]
                    # A round trip after it: only its answer went out since the press.
                    status = await players.say("Ann", "/status")
                    assert sent == [] and status and api.messages(mark) == status
                    assert (await game_state(real))[0] == before
                    stale_checked = True
            else:
                pytest.fail("two rounds did not finish")

        assert presses >= 1 and stale_checked and typed > acted
        photos = api.since(0, "sendMediaGroup")  # the map and the panel together
        assert len(photos) >= 8  # a board after each of four phases, two rounds
        assert all(png.startswith(b"\x89PNG") for p in photos for png in api.album(p))
        assert all((p.chat_id, p.thread_id) == (GROUP, TOPIC) for p in photos)
        mentions = [m for m in api.since(0, "sendMessage") if 'href="tg://user?id=8"' in m.text]
        assert mentions and all(m.params["parse_mode"] == "HTML" for m in mentions)
        answers = api.since(0, "answerCallbackQuery")
        assert len(answers) == presses + 2  # the lobby join and the stale press
        # No text anybody read names a chat by its key (issue 17).
        no_raw_keys([c.text for c in api.messages()] + [c.params.get("text", "") for c in answers])
    finally:
        await real.close()
