"""Power Grid's first round through the real Telegram adapter (fake Bot API, in process), with
the players choosing the regions (PG-8, `regions=choose`, the default): the region choice is a
phase of its own for the quiet table (bot/quiet.py, bot/announce.py). Its end (the game's
`regions_chosen`) posts the board, captioned after the regions; the next picture, at the end
of the auction, is captioned after the auction; and round 1, before a round boundary is known,
keeps the phase rule: the auction's first ask of each player notifies him once, though he has
just chosen a region (found play-testing: the auction's moves pinged nobody, and its picture
said "After choosing regions")."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from telegram import Update

from bot.platforms.telegram import adapter_of, build_application
from bot.store import Store
from bot.table import Table, discover_games
from engine.powergrid import market, rules
from engine.powergrid.data import game_map
from tests.bot.helpers import FakeClock
from tests.bot.platforms.fake_telegram import (
    BotApiState,
    Call,
    DictRequest,
    make_settings,
    unthrottled,
)

pytestmark = pytest.mark.timeout(120)

GROUP = -100779
CHAT = f"tg:{GROUP}"
IDS = {"Ann": 7, "Bob": 8, "Cyd": 9}


class Round1:
    """Three people at a Power Grid table in a Telegram group, the real table behind the real
    Application (pictures drawn, as a chat gets them)."""

    def __init__(self, store: Store, clock: FakeClock) -> None:
        self.api = BotApiState()
        self.store = store
        self.table = Table(
            store, games={"powergrid": discover_games()["powergrid"]}, clock=clock, seeder=lambda: 4
        )
        self.app = build_application(
            self.table, make_settings(), request=DictRequest(self.api), rate_limiter=unthrottled()
        )
        self.adapter = adapter_of(self.app)
        self.api.group(GROUP)
        self.users = {n: self.api.user(i, n) for n, i in IDS.items()}
        self._ids = 0

    async def say(self, who: str, text: str) -> None:
        """One message through the Application, then until the outbox is empty."""
        self._ids += 1
        update = {"update_id": self._ids, **self.api.message_update(GROUP, self.users[who], text)}
        await self.app.process_update(Update.de_json(update, self.app.bot))
        for _ in range(500):
            if not await self.store.outbox(status="pending"):
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the outbox did not drain")

    async def state(self) -> dict[str, Any]:
        row = await self.store.open_game(CHAT)
        assert row is not None and row.state_json is not None
        return dict(json.loads(row.state_json))

    async def move(self) -> str:
        """The player asked now makes a plain round-1 move (the first region that borders the
        chosen ones, the cheapest plant at its number, a pass on another's auction); his name."""
        state = await self.state()
        player = rules.current_players(state)[0]
        want = rules.expected(state)
        if want == "choose_region":
            gm, chosen = game_map(state["map"]), state["regions"]
            region = next(
                r
                for r in gm.regions
                if r not in chosen
                and (not chosen or any(gm.regions_adjacent(r, c) for c in chosen))
            )
            await self.say(player, f"/region {region}")
        elif want == "choose_plant":
            await self.say(player, f"/bid {market.current_market(state)[0]}")
        else:
            assert want == "bid", want
            await self.say(player, "/pass")
        return str(player)

    def pinged(self, mark: int) -> list[str]:
        """Who the group's loud posts since `mark` mention (a link to each mentioned user)."""
        loud = [
            c
            for c in self.api.since(mark, "sendMessage", "sendPhoto", "sendMediaGroup")
            if c.chat_id == GROUP and c.params.get("disable_notification") != "true"
        ]
        return [n for c in loud for n, i in IDS.items() if f"tg://user?id={i}" in c.text]

    def captions(self, mark: int = 0) -> list[str]:
        """The captions of the board pictures posted in the group since `mark`."""
        return [caption(c) for c in self.api.since(mark, "sendMediaGroup", "sendPhoto")]


def caption(call: Call) -> str:
    if call.method == "sendPhoto":
        return call.params.get("caption", "")
    return str(next((m["caption"] for m in call.json("media") if "caption" in m), ""))


@pytest.fixture
async def round1(store: Store, clock: FakeClock) -> AsyncIterator[Round1]:
    w = Round1(store, clock)
    await w.app.initialize()
    await w.adapter.setup(w.app)
    try:
        await w.say("Ann", "/new powergrid")
        await w.say("Bob", "/join")
        await w.say("Cyd", "/join")
        await w.say("Ann", "/start")
        assert (await w.state())["phase"] == "regions"
        yield w
    finally:
        await w.table.stop_senders()
        await w.app.shutdown()


async def test_the_end_of_the_region_choice_posts_the_board_and_the_auctions_says_so(
    round1: Round1,
) -> None:
    """PG-8: the regions chosen end a phase: the board follows, captioned after the regions;
    the picture at the end of the auction (PG-14) is captioned after the auction, not after
    the regions (its previous picture is the regions' end, not the start)."""
    [start] = round1.captions()
    assert start.startswith("Round 1: Choosing regions")
    while (await round1.state())["phase"] == "regions":
        mark = len(round1.api.calls)
        await round1.move()
        if (await round1.state())["phase"] == "regions":
            assert round1.captions(mark) == []  # a region chosen: no picture yet
    [regions] = round1.captions(mark)  # the last region: the board, the regions in play
    first = rules.current_players(await round1.state())[0]
    assert regions.startswith(f"After choosing regions, round 1 — {first} is next.")
    mark = len(round1.api.calls)
    while (await round1.state())["phase"] == "auction":
        await round1.move()
    [auction] = round1.captions(mark)
    assert auction.startswith("After the auction, round 1 — ")
    assert "bought plant" in auction


async def test_round_one_auction_asks_each_player_with_a_ping_once(round1: Round1) -> None:
    """Round 1 has no round boundary yet: the phase rule (bot/quiet.py). The regions' end is a
    phase boundary, so the auction's first ask of each player notifies him, once, though he
    chose a region in the phase before; asked again in the auction, he is told silently."""
    picked: list[str] = []
    while (await round1.state())["phase"] == "regions":
        mark = len(round1.api.calls)
        picked.append(await round1.move())
    assert sorted(picked) == sorted(IDS)  # each chose a region (and was pinged for it)
    # the last region's move asks the auction's first chooser: a ping
    first = rules.current_players(await round1.state())[0]
    assert round1.pinged(mark) == [first]
    pings = [first]
    while (await round1.state())["phase"] == "auction":
        mark = len(round1.api.calls)
        await round1.move()
        if (await round1.state())["phase"] == "auction":
            pings += round1.pinged(mark)
    assert sorted(pings) == sorted(IDS)  # one notifying ask per player in the auction
