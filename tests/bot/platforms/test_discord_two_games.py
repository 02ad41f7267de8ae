"""Issue 22, done when: a round of Power Grid and a round of Hexania played in one Discord
server, each in its own channel, through discord.py's dispatch over the real table, with the
server's command menu holding only the enabled games' commands (and the table's own).

Discord scopes an application's commands to a whole server (a bot cannot set per-channel
command permissions: that needs a member's OAuth token), so "the games enabled there" is the
server's choice (/settings games=..., bot/platforms/discord_bot.py `games_changed`); inside
a channel, the table answers only its own game's commands.

The players are bots' choices typed as slash commands: the move's chat text mapped onto the
command's options, and sent through the gateway payload; a move the options cannot say goes
through `Table.act` (counted, and the slash commands must be the rule).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.messages import Inbound
from bot.platforms import discord_bot as dc
from bot.table import Table, open_table
from engine.core import Rng
from engine.core.rng import new_rng_state
from engine.hexania.actions import action_text
from tests.bot.pgdrive import command_for, reads_back
from tests.bot.platforms.fake_discord import (
    ALICE_ID,
    BOB_ID,
    CHANNEL_ID,
    GUILD_ID,
    DiscordHttp,
    as_event,
    settle,
    slash_payload,
)
from tests.bot.platforms.test_chat_names import contents, no_raw_keys
from tests.bot.platforms.test_discord_table import running

pytestmark = pytest.mark.timeout(240)

HEX_CHANNEL = CHANNEL_ID + 77
NAMES = {ALICE_ID: "Alice", BOB_ID: "Bob"}
ADMIN = 1 << 3


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    opened = await open_table(
        str(tmp_path / "two.sqlite3"), clock=lambda: 1_700_000_000.0, seeder=lambda: 11
    )
    try:
        yield opened
    finally:
        await opened.close()


def options_for(plan: dc.CommandPlan, text: str) -> dict[str, Any] | None:
    """The slash options (by Discord name) that say `text`, or None when they cannot."""
    words = text.split()[1:]
    values: dict[str, Any] = {}
    for option in plan.options:
        if not words:
            break
        if option.name == dc.THREAD_OPTION:
            continue
        free = option.repeated or option.name == dc.FREE_TEXT
        free = free or bool(option.complete and option.complete.startswith("args:"))
        if free:
            values[option.name] = " ".join(words)
            words = []
            break
        word = words.pop(0)
        if option.type is int:
            if not word.lstrip("-").isdigit():
                return None
            values[option.name] = int(word)
        elif option.choices and word not in option.choices:
            return None
        else:
            values[option.name] = word
    return None if words else values


class Server:
    def __init__(self, client: dc.BoardchatClient, http: DiscordHttp, table: Table) -> None:
        self.client = client
        self.http = http
        self.table = table
        self.used: set[str] = set()
        self.typed = 0
        self.acted = 0

    async def slash(
        self, name: str, options: dict[str, Any] | None = None, *, uid: int, channel: int
    ) -> None:
        payload = slash_payload(
            name, options, user_id=uid, user_name=NAMES[uid], channel_id=channel
        )
        payload["member"]["permissions"] = str(ADMIN if name == "settings" else 0)
        self.client._connection.parse_interaction_create(as_event(payload))
        await settle()
        await self.drained()
        self.used.add(name)

    async def drained(self) -> None:
        for _ in range(500):
            if not await self.table.store.outbox(status="pending"):
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the outbox did not drain")

    async def state(self, channel: int) -> tuple[int, dict[str, Any]]:
        row = await self.table.store.open_game(dc.chat_key(channel))
        assert row is not None and row.state_json
        return row.version, json.loads(row.state_json)

    async def play_round(self, channel: int, game_id: str, bot: str, text_of: Any) -> None:
        game = self.table.games[game_id]
        plans = {p.name: p for p in self.client.plans_for(("powergrid", "hexania"))}
        chooser = Rng(new_rng_state(2024))
        _, first = await self.state(channel)
        for _ in range(300):
            version, state = await self.state(channel)
            if state["round"] > first["round"] or game.is_over(state):
                return
            player = game.current_players(state)[0]
            uid = next(u for u, n in NAMES.items() if n == player)
            action = game.bots[bot](json.loads(json.dumps(state)), player, chooser)
            text = text_of(action)
            name = text.split()[0].lstrip("/")
            values = options_for(plans[name], text) if name in plans else None
            said = None
            if values is not None:
                by_py = {o.pyname: values[o.name] for o in plans[name].options if o.name in values}
                said = plans[name].text(by_py)
            if said is not None and reads_back(game, state, player, said, action):
                await self.slash(name, values, uid=uid, channel=channel)
                self.typed += 1
            else:
                inbound = Inbound("discord", dc.chat_key(channel), dc.user_key(uid), player)
                await self.table.act(inbound, action)
                await self.drained()
                self.acted += 1
            assert (await self.state(channel))[0] > version, text
        pytest.fail(f"a round of {game_id} did not finish")


def synced(http: DiscordHttp) -> set[str]:
    return {c["name"] for c in http.find("PUT", f"/guilds/{GUILD_ID}/commands")[-1].json}


async def test_a_round_of_power_grid_and_of_hexania_in_one_server(table: Table) -> None:
    async with running(table) as (client, http):
        http.channels[HEX_CHANNEL] = {**http.channels[CHANNEL_ID], "id": str(HEX_CHANNEL)}
        server = Server(client, http, table)
        await server.slash(
            "settings", {"settings": "games=powergrid,hexania"}, uid=ALICE_ID, channel=CHANNEL_ID
        )
        menu = synced(http)
        own = {s.name for s in table.table_command_specs()}
        games = {
            g: {s.name for s in table.games[g].commands}
            for g in ("powergrid", "hexania", "iec", "powergrid_alt")
            if g in table.games
        }
        assert menu == own | games["powergrid"] | games["hexania"]
        others = set().union(
            *(names for g, names in games.items() if g not in ("powergrid", "hexania"))
        )
        assert others - menu, "another game's own commands would be offered"

        # /new offers only the enabled games; the table refuses another one, privately.
        new = next(p for p in client.plans_for(("powergrid", "hexania")) if p.name == "new")
        assert set(new.options[0].choices) == {"powergrid", "hexania"}
        before = len(http.requests)
        await server.slash("new", {"game": "iec"}, uid=ALICE_ID, channel=CHANNEL_ID)
        refused = [r for r in http.requests[before:] if "/webhooks/" in r.path]
        assert refused and all(r.ephemeral for r in refused)
        assert "This chat plays Power Grid, Hexania" in refused[-1].json["content"]
        assert await table.store.open_game(dc.chat_key(CHANNEL_ID)) is None

        for channel, game_id in ((CHANNEL_ID, "powergrid"), (HEX_CHANNEL, "hexania")):
            await server.slash("new", {"game": game_id}, uid=ALICE_ID, channel=channel)
            await server.slash("join", uid=BOB_ID, channel=channel)
            await server.slash("start", uid=ALICE_ID, channel=channel)
        await server.play_round(CHANNEL_ID, "powergrid", "heuristic", command_for)
        await server.play_round(HEX_CHANNEL, "hexania", "greedy", action_text)

        # Every command used was on the server's menu, which never changed meanwhile.
        assert server.used <= menu and synced(http) == menu
        assert server.typed > server.acted
        assert games["powergrid"] & server.used and games["hexania"] & server.used
        # In the Hexania channel, Power Grid's /bid is not this game's: a private answer.
        before = len(http.requests)
        await server.slash("bid", {"plant": "13"}, uid=BOB_ID, channel=HEX_CHANNEL)
        since = http.requests[before:]
        assert not [r for r in since if r.path == f"/channels/{HEX_CHANNEL}/messages"]
        replies = [r for r in since if "/webhooks/" in r.path or "/callback" in r.path]
        assert replies and all(r.ephemeral for r in replies if r.method == "POST")
        # The Hexania channel narrows the server to Hexania: the Power Grid table running in
        # the other channel keeps its commands on the menu.
        await server.slash(
            "settings", {"settings": "games=hexania"}, uid=ALICE_ID, channel=HEX_CHANNEL
        )
        assert await table.enabled_games(dc.guild_settings_key(GUILD_ID)) == (
            "hexania",
            "powergrid",
        )
        assert synced(http) == menu
        await server.slash("abort", {"confirm": "confirm"}, uid=ALICE_ID, channel=CHANNEL_ID)
        await server.slash(
            "settings", {"settings": "games=hexania"}, uid=ALICE_ID, channel=HEX_CHANNEL
        )
        assert synced(http) == own | games["hexania"]

        # No text anybody read names a chat by its key (issue 17).
        no_raw_keys([t for r in http.requests for t in contents(r.json)])


async def test_private_answers_of_the_real_table_are_deferred_ephemerally(table: Table) -> None:
    """Issue 22 (7): an answer only its asker sees (/games, /settings, /status of a seat's own
    view, a refusal) never shows a public "thinking…" first."""
    async with running(table) as (client, http):
        server = Server(client, http, table)
        await server.slash("new", {"game": "powergrid"}, uid=ALICE_ID, channel=CHANNEL_ID)
        for name, options, uid in (
            ("games", None, ALICE_ID),
            ("settings", None, BOB_ID),
            ("join", None, ALICE_ID),  # already seated: a refusal
            ("start", None, BOB_ID),  # only the creator starts
        ):
            before = len(http.requests)
            await server.slash(name, options, uid=uid, channel=CHANNEL_ID)
            since = http.requests[before:]
            (defer,) = [r for r in since if r.path.endswith("/callback")]
            assert defer.json["type"] == 5 and defer.ephemeral, name
            assert not [r for r in since if r.path == f"/channels/{CHANNEL_ID}/messages"], name
            followups = [r for r in since if r.method == "POST" and "/webhooks/" in r.path]
            assert followups and all(r.ephemeral for r in followups), name
