"""One ping per player per round (issue 17, bot/quiet.py) through the real Telegram adapter
against the fake Bot API: a round of two laps (a phase each), where the second lap asks every
player again. The first ask of the round notifies (a mention, with sound); a player asked again
later in the same round after acting in it is told silently (the status message names him, his
private prompt is silent) and the 50 % reminder notifies him if he lets the table wait. A forced
pass is not the player's own act: his first real ask of the round still notifies him. Before
the first round boundary is known, the phase rule holds (every new phase asks with a ping).
The private prompt after a phase ended brings a recap and the board (act from the reminder)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.platforms.telegram import build_application, running
from bot.scheduler import Scheduler
from bot.store import Store
from bot.table import Table
from tests.bot.helpers import FakeClock
from tests.bot.platforms.fake_telegram import FakeBotApi, make_settings, unthrottled
from tests.bot.platforms.test_quiet_platforms import drained, handled
from tests.bot.test_quiet_table import Laps

pytestmark = pytest.mark.timeout(60)

GROUP = -100778
H = 3600.0
IDS = {"Ann": 7, "Bob": 8, "Cyd": 9}


def pinged(api: FakeBotApi, mark: int) -> list[str]:
    """Who the loud messages since `mark` mention (a link to each mentioned user)."""
    loud = [
        c
        for c in api.since(mark, "sendMessage", "sendPhoto", "sendMediaGroup")
        if c.params.get("disable_notification") != "true"
    ]
    return [n for c in loud for n, i in IDS.items() if f"tg://user?id={i}" in c.text]


async def test_one_ping_per_player_per_round_through_telegram(
    tmp_path: Path, clock: FakeClock
) -> None:
    store = await Store.open(str(tmp_path / "r.sqlite3"), clock=clock)
    table = Table(
        store,
        games={"dicepile": Laps()},
        clock=clock,
        render=True,  # the private prompt after a phase brings the board (drawn by the toy)
        seeder=lambda: 4,
        durable=("telegram",),
    )
    try:
        async with FakeBotApi() as api:
            api.group(GROUP)
            users = {n: api.user(i, n) for n, i in IDS.items()}
            app = build_application(
                table, make_settings(), base_url=api.base_url, rate_limiter=unthrottled()
            )
            async with running(app, make_settings(), poll_timeout=1):

                async def say(name: str, text: str) -> None:
                    await handled(store, str(api.command(GROUP, users[name], text)))
                    await drained(store)

                async def turn() -> str:
                    row = await store.open_game(f"tg:{GROUP}")
                    assert row is not None and row.state_json is not None
                    state = json.loads(row.state_json)
                    return str(Laps().current_players(state)[0])

                async def lap(expected: list[str]) -> list[str]:
                    """One lap (Bob's forced pass, if any, is played for him); who was pinged."""
                    mark = len(api.calls)
                    for name in expected:
                        assert await turn() == name
                        await say(name, "/take 1")
                    return pinged(api, mark)

                await say("Ann", "/new dicepile start=20")
                await say("Bob", "/join")
                await say("Cyd", "/join")
                mark = len(api.calls)
                await say("Ann", "/start")
                assert pinged(api, mark) == ["Ann"]
                # Round 1, no round boundary known yet: the phase rule (every new phase pings).
                assert await lap(["Ann", "Cyd"]) == ["Cyd", "Ann"]  # Bob passed for
                assert await lap(["Ann", "Bob", "Cyd"]) == ["Bob", "Cyd", "Ann"]
                # Round 2: the first ask of the round pings; Bob's forced pass is no act of his.
                assert await lap(["Ann", "Cyd"]) == ["Cyd"]  # Ann (asked silently) next
                status = await store.status_message(1)
                assert status is not None
                assert "Ann" in api.sent[int(status.message_id)]["text"]  # the status names her
                # Ann reads the bot privately: her private prompt comes, silent; the 50 %
                # reminder notifies her (the backstop of a silent ask).
                await store.set_user("tg:7", dm_ok=True)
                scheduler = Scheduler(table, clock=clock)
                mark = len(api.calls)
                await scheduler.run_due()
                [prompt] = [c for c in await api.wait_calls(mark, "sendMessage") if c.chat_id == 7]
                assert prompt.buttons and prompt.params.get("disable_notification") == "true"
                assert "Since your last move" in prompt.text  # the recap, with the board:
                [board] = [c for c in api.since(mark, "sendPhoto") if c.chat_id == 7]
                assert board.params.get("caption") == "The board now"
                assert board.params.get("disable_notification") == "true"
                clock.advance(12 * H)
                mark = len(api.calls)
                await scheduler.run_due()
                [nudge] = [c for c in await api.wait_calls(mark, "sendMessage") if c.chat_id == 7]
                assert "Reminder" in nudge.text
                assert nudge.params.get("disable_notification") != "true"
                # Ann acted this round: silent; Bob's first real ask pings him; Cyd silent;
                # round 3 begins with Ann's ping.
                assert await lap(["Ann", "Bob", "Cyd"]) == ["Bob", "Ann"]
    finally:
        await table.close()
