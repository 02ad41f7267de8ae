"""Discord adapter over the real table service and Power Grid, through discord.py's dispatch."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.messages import Inbound
from bot.platforms import discord_bot as dc
from bot.table import Table, discover_games, open_table
from tests.bot.helpers import present
from tests.bot.platforms.fake_discord import (
    ALICE_ID,
    BOB_ID,
    CHANNEL_ID,
    GUILD_ID,
    DiscordHttp,
    as_event,
    button_payload,
    discord_http,
    settle,
    slash_payload,
    status_prompt,
)
from tests.bot.platforms.test_discord import settings

NOW = 1_700_000_000.0


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    opened = await open_table(
        str(tmp_path / "boardchat.sqlite3"), clock=lambda: NOW, seeder=lambda: 7
    )
    try:
        yield opened
    finally:
        await opened.close()


@asynccontextmanager
async def running(table: Table) -> AsyncIterator[tuple[dc.BoardchatClient, DiscordHttp]]:
    client = dc.build_client(table, settings(discord_token="t", discord_guild_id=str(GUILD_ID)))
    async with discord_http(client) as http:
        try:
            await client.login("t")
            yield client, http
        finally:
            await client.close()


async def feed(client: dc.BoardchatClient, http: DiscordHttp, payload: dict[str, Any]) -> list:
    """Feed one interaction; return the follow-ups it produced."""
    before = len(http.followups())
    client._connection.parse_interaction_create(as_event(payload))
    await settle()
    return http.followups()[before:]


NAMES = {ALICE_ID: "Alice", BOB_ID: "Bob"}


def to_act(prompt: Any) -> tuple[int, int]:
    """(who must act, the other player) from a prompt that mentions the player to act."""
    first = next(uid for uid in NAMES if prompt.json["content"].startswith(f"<@{uid}>"))
    return first, next(uid for uid in NAMES if uid != first)


def custom_ids(request: Any) -> list[str]:
    return [c["custom_id"] for row in request.json.get("components", []) for c in row["components"]]


async def test_the_real_commands_sync(table: Table) -> None:
    async with running(table) as (_client, http):
        (sync,) = http.find("PUT", "/commands")
        names = {c["name"] for c in sync.json}
        assert {"new", "join", "start", "bid", "buy", "build", "power"} <= names
        assert len(sync.json) <= 100
        for cmd in sync.json:
            assert 1 <= len(cmd["description"]) <= 100
            assert len(cmd.get("options", [])) <= 25
            for option in cmd.get("options", []):
                assert 1 <= len(option["description"]) <= 100
                assert len(option.get("choices", [])) <= 25
        # /bid is Power Grid's and its variant's, whose arguments agree in kind: typed
        # options (a plant with autocomplete, an integer); /build differs between Power Grid
        # (a city) and IEC (a module): free text (issue 22.1).
        bid = next(c for c in sync.json if c["name"] == "bid")
        assert [(o["name"], o["type"]) for o in bid["options"]][:2] == [("plant", 3), ("amount", 4)]
        assert bid["options"][0].get("autocomplete") is True
        build = next(c for c in sync.json if c["name"] == "build")
        assert [o["name"] for o in build["options"]] == ["args"]
        discard = next(c for c in sync.json if c["name"] == "discard")
        plant = next(o for o in discard["options"] if o["name"] == "plant")
        assert plant.get("autocomplete") is True


async def test_a_power_grid_game_starts_and_plays_through_discord(table: Table) -> None:
    async with running(table) as (client, http):
        new = {"game": "powergrid", "options": "regions=random"}  # from the auction on
        (opened,) = await feed(client, http, slash_payload("new", new))
        assert "Power Grid" in opened.json["content"] and not opened.ephemeral
        assert f"<@{ALICE_ID}>" in opened.json["content"]

        (joined,) = await feed(client, http, slash_payload("join", user_id=BOB_ID, user_name="Bob"))
        assert "Bob" in joined.json["content"]

        started = await feed(client, http, slash_payload("start"))
        pictures = [r for r in started if r.files]
        assert pictures and pictures[0].files[0].startswith(b"\x89PNG")
        # the status message asks (once: no follow-up repeats it, issue F)
        prompt = await status_prompt(http)
        assert not [r for r in started if r.json.get("components")]
        first, _other = to_act(prompt)  # the prompt mentions the player to act
        buttons = custom_ids(prompt)
        assert buttons and all(b.startswith("bc:") for b in buttons)

        # Autocomplete of a plant number from the game in this channel.
        client._connection.parse_interaction_create(
            as_event(slash_payload("discard", {"plant": ""}, focused="plant"))
        )
        await settle()
        choices = http.callbacks()[-1].json["data"]["choices"]
        assert choices and all(c["value"].isdigit() for c in choices)

        # The player to act presses the first "/bid" button of the prompt: the auction opens.
        press = button_payload(buttons[0], user_id=first, user_name=NAMES[first])
        pressed = await feed(client, http, press)
        assert http.callbacks()[-1].json == {"type": 6}
        assert any(not r.ephemeral for r in pressed)
        text = " ".join(r.json.get("content", "") for r in pressed)
        assert f"{NAMES[first]} puts plant" in text

        # The same button again is stale: a private answer, nothing sent to the channel.
        again = await feed(client, http, button_payload(buttons[0], user_id=first))
        assert len(again) == 1 and again[0].ephemeral
        assert "out of date" in again[0].json["content"]


async def two_player_powergrid(client: dc.BoardchatClient, http: DiscordHttp) -> list:
    """/new powergrid (from the auction on), Bob's /join and /start, by slash commands: what
    /start answered, then the status message that asks the first player."""
    new = {"game": "powergrid", "options": "regions=random"}
    await feed(client, http, slash_payload("new", new))
    await feed(client, http, slash_payload("join", user_id=BOB_ID, user_name="Bob"))
    started = await feed(client, http, slash_payload("start"))
    return [*started, await status_prompt(http)]


async def test_a_move_out_of_turn_is_refused(table: Table) -> None:
    async with running(table) as (client, http):
        started = await two_player_powergrid(client, http)
        first, other = to_act(started[-1])
        (refused,) = await feed(
            client,
            http,
            slash_payload(
                "bid", {"plant": "3", "amount": 3}, user_id=other, user_name=NAMES[other]
            ),
        )
        assert "Not your turn" in refused.json["content"]
        assert refused.ephemeral  # only the sender needs the refusal
        (opened,) = await feed(
            client,
            http,
            slash_payload(
                "bid", {"plant": "3", "amount": 3}, user_id=first, user_name=NAMES[first]
            ),
        )
        assert f"{NAMES[first]} puts plant 3 up for auction at 3" in opened.json["content"]
        assert not opened.ephemeral
        seats = await table.store.seats(present(await table.store.open_game(f"dc:{CHANNEL_ID}")).id)
        assert {s.user_key for s in seats} == {f"dc:{ALICE_ID}", f"dc:{BOB_ID}"}


async def test_names_shared_by_games_take_free_text_routed_to_the_chat_s_game(
    table: Table,
) -> None:
    """/build, /power, /cost, /bid ... belong to several games with different arguments: one
    free-text command each, and a Power Grid player's `/build Berlin` reaches Power Grid."""
    from bot.grammar import is_merged
    from bot.table import discover_games
    from engine.core import Rng
    from engine.core.rng import new_rng_state

    games = discover_games()
    assert {"hexania", "iec", "powergrid", "powergrid_alt"} <= set(games)
    by_name: dict[str, list] = {}
    for game in games.values():
        for spec in game.commands:
            by_name.setdefault(spec.name, []).append(spec)
    table_names = {s.name for s in table._table_specs}
    collided = {
        n
        for n, specs in by_name.items()
        if n not in table_names and any(s.args != specs[0].args for s in specs[1:])
    }
    assert {"build", "power", "cost", "bid", "move"} <= collided
    merged = {s.name: s for s in table.command_specs()}
    for name in collided:
        spec = merged[name]
        assert is_merged(spec), name
        assert [(a.name, a.kind) for a in spec.args] == [("args", "rest")]
        assert spec.args[0].help  # the argument forms of every game
    assert len(merged) == len(table.command_specs())

    pg = games["powergrid"]
    async with running(table) as (client, http):
        (sync,) = http.find("PUT", "/commands")
        build = next(c for c in sync.json if c["name"] == "build")
        assert [o["name"] for o in build["options"]] == ["args"]
        await feed(client, http, slash_payload("new", {"game": "powergrid"}))
        await feed(client, http, slash_payload("join", user_id=BOB_ID, user_name="Bob"))
        await feed(client, http, slash_payload("start"))
        chat = f"dc:{CHANNEL_ID}"
        ids = {"Alice": ALICE_ID, "Bob": BOB_ID}
        rng = Rng(new_rng_state(1))
        for _ in range(200):  # the bots play both seats up to the first build
            row = await table.store.open_game(chat)
            assert row is not None and row.state_json is not None
            state = json.loads(row.state_json)
            player = pg.current_players(state)[0]
            if any(a["type"] == "build" for a in pg.legal_actions(state, player)):
                break
            action = pg.bots["heuristic"](json.loads(row.state_json), player, rng)
            inbound = Inbound(
                "discord",
                chat,
                f"dc:{ids[player]}",
                player,
                update_id=f"drive{rng.randint(0, 10**9)}",
            )
            assert await table.act(inbound, action)
        else:
            pytest.fail("no build phase")
        cities = {a["city"] for a in pg.legal_actions(state, player) if a["type"] == "build"}
        assert "Berlin" in cities
        before = row.version
        built = await feed(
            client,
            http,
            slash_payload("build", {"args": "Berlin"}, user_id=ids[player], user_name=player),
        )
        # the builder is still asked (to build more or be done): nobody is asked anew, so no
        # new message in the channel; he alone sees what his move did (issue 17)
        text = " ".join(r.json.get("content", "") for r in built if r.ephemeral)
        assert "Berlin" in text, [r.json for r in built]
        assert not any(r.json.get("content") for r in built if not r.ephemeral)
        row = await table.store.open_game(chat)
        assert row is not None and row.version == before + 1
        actions = await table.store.actions(row.id, last=1)
        assert actions[-1].action == {"type": "build", "city": "Berlin"}


# ---- autocomplete of free text (names several games share) ----

pg = discover_games()["powergrid"]


async def suggest(
    client: dc.BoardchatClient,
    http: DiscordHttp,
    name: str,
    typed: str,
    *,
    channel_id: int = CHANNEL_ID,
    user_id: int = ALICE_ID,
    option: str = "args",
) -> list[str]:
    """The values Discord's autocomplete offers for `/name <option>:<typed>`."""
    before = len(http.callbacks())
    client._connection.parse_interaction_create(
        as_event(
            slash_payload(
                name, {option: typed}, focused=option, channel_id=channel_id, user_id=user_id
            )
        )
    )
    await settle()
    (answer,) = http.callbacks()[before:]
    assert answer.json["type"] == 8  # APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
    choices = answer.json["data"]["choices"]
    assert len(choices) <= 25
    for choice in choices:
        assert choice["name"] == choice["value"] and len(choice["value"]) <= 100
    return [c["value"] for c in choices]


async def drive(table: Table, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Let the heuristic bot play every seat of the Power Grid game in CHANNEL_ID until
    `done(state)`; the state then."""
    from engine.core import Rng
    from engine.core.rng import new_rng_state

    chat = f"dc:{CHANNEL_ID}"
    ids = {"Alice": ALICE_ID, "Bob": BOB_ID}
    rng = Rng(new_rng_state(1))
    for step in range(300):
        row = await table.store.open_game(chat)
        assert row is not None and row.state_json is not None
        state = json.loads(row.state_json)
        if done(state):
            return state
        player = pg.current_players(state)[0]
        action = pg.bots["heuristic"](json.loads(row.state_json), player, rng)
        inbound = Inbound("discord", chat, f"dc:{ids[player]}", player, update_id=f"d{step}")
        assert await table.act(inbound, action)
    pytest.fail("the game never got there")


async def test_free_text_commands_autocomplete_from_the_chat_s_game(table: Table) -> None:
    """/build, /bid, /buy, /move take free text (several games share them); autocomplete
    completes the last word by its position in the chat's own game's command."""
    other = CHANNEL_ID + 1
    async with running(table) as (client, http):
        # No game in the channel: nothing to offer.
        assert await suggest(client, http, "build", "Ber") == []

        # Players choose the regions: every city of the map is in play until they have.
        new = {"game": "powergrid", "options": "regions=choose"}
        await feed(client, http, slash_payload("new", new))
        await feed(client, http, slash_payload("join", user_id=BOB_ID, user_name="Bob"))
        await feed(client, http, slash_payload("start"))

        assert "Berlin" in await suggest(client, http, "build", "Ber")
        assert "Berlin Hamburg" in await suggest(client, http, "build", "Berlin Ham")
        after_space = await suggest(client, http, "build", "Berlin ")
        assert after_space and all(v.startswith("Berlin ") for v in after_space)
        assert "Berlin Berlin" not in after_space  # a city already typed is not offered again
        # A name of several words is completed from its first ones.
        offered = await suggest(client, http, "build", "Berlin Frankfurt O")
        assert offered == ["Berlin Frankfurt-Oder"]
        assert await suggest(client, http, "cost", "kie") == ["Kiel"]

        # The bots play until a plant of the market starts with 1.
        def market(state: dict[str, Any]) -> list[str]:
            return [str(p["number"]) for p in pg.view(state, None)["plant_market"]["current"]]

        def owned(state: dict[str, Any]) -> list[str]:
            return [str(p["number"]) for p in pg.view(state, "Alice")["players"]["Alice"]["plants"]]

        state = await drive(
            table, lambda st: bool(owned(st)) and any(n.startswith("1") for n in market(st))
        )
        ones = [n for n in market(state) if n.startswith("1")]
        # /bid is typed (its games agree): the plant option completes plants.
        offered = await suggest(client, http, "bid", "1", option="plant")
        assert offered and all(v.startswith("1") and v.isdigit() for v in offered)
        assert set(ones) <= set(offered)
        assert set(await suggest(client, http, "bid", "", option="plant")) >= set(market(state))

        # /power: the player's own plants (after a plant number already typed, too).
        assert set(owned(state)) <= set(await suggest(client, http, "power", ""))
        mine = owned(state)[0]
        assert f"{mine} {mine}" not in await suggest(client, http, "power", f"{mine} ")

        assert await suggest(client, http, "buy", "co") == ["coal"]
        assert await suggest(client, http, "buy", "u") == ["uranium"]

        # A Hexania game in another channel completes cells for /move, then a direction.
        await feed(client, http, slash_payload("new", {"game": "hexania"}, channel_id=other))
        await feed(
            client,
            http,
            slash_payload("join", user_id=BOB_ID, user_name="Bob", channel_id=other),
        )
        await feed(client, http, slash_payload("start", channel_id=other))
        cells = await suggest(client, http, "move", "L1", channel_id=other)
        assert cells and all(v.startswith("L1") for v in cells)
        directions = await suggest(client, http, "move", "L12 S", channel_id=other)
        assert sorted(directions) == ["L12 SE", "L12 SW"]
        # A Power Grid table on the USA map, not started: the names of every map.
        usa = CHANNEL_ID + 2
        await feed(
            client,
            http,
            slash_payload("new", {"game": "powergrid", "options": "map=usa"}, channel_id=usa),
        )
        offered = await suggest(client, http, "build", "Kansas City New Yo", channel_id=usa)
        assert offered == ["Kansas City New York"]
        # /build in the Power Grid channel still completes its cities in play, not cells.
        row = await table.store.open_game(f"dc:{CHANNEL_ID}")
        assert row is not None and row.state_json is not None
        cities = pg.complete(json.loads(row.state_json), "Alice", "city", "")
        assert await suggest(client, http, "build", "") == cities[:25]
        assert await suggest(client, http, "build", "Ber", channel_id=other) == []


async def test_a_secret_order_by_slash_command_is_answered_to_its_sender_alone(
    table: Table,
) -> None:
    """A Discord interaction shows the channel its command (with the options) only with a
    public answer: a secret order (PG-O: a proxy bid's limit is his alone) is played, and
    every answer to it is ephemeral, so the limit is never shown to the channel. (On Telegram
    and the terminal, where the chat reads the typed text, it is refused instead:
    tests/bot/test_secret_in_chat.py.)"""
    async with running(table) as (client, http):
        started = await two_player_powergrid(client, http)
        first, other = to_act(started[-1])
        await feed(
            client,
            http,
            slash_payload(
                "bid", {"plant": "3", "amount": 3}, user_id=first, user_name=NAMES[first]
            ),
        )
        row = present(await table.store.open_game(f"dc:{CHANNEL_ID}"))
        answers = await feed(
            client,
            http,
            slash_payload("maxbid", {"limit": 30}, user_id=other, user_name=NAMES[other]),
        )
        assert answers and all(r.ephemeral for r in answers), [r.json for r in answers]
        # deferred ephemerally: the channel is never shown "/maxbid limit:30"
        assert http.callbacks()[-1].json == {"type": 5, "data": {"flags": 64}}
        after = present(await table.store.open_game(f"dc:{CHANNEL_ID}"))
        assert after.version == row.version + 1  # played, not refused
