"""Issue 22 (5): autocomplete through discord.py's dispatch over the real table: /new's
options (key=value of the chosen game's OptionSpec choices), /settings' keys and values, and
every word of a free-text argument (/buy coal 3 o… -> oil)."""

from __future__ import annotations

from typing import Any

from bot.platforms import discord_bot as dc
from bot.table import Table
from tests.bot.platforms.fake_discord import (
    BOB_ID,
    DiscordHttp,
    as_event,
    settle,
    slash_payload,
)
from tests.bot.platforms.test_discord_table import feed, running, table  # noqa: F401


async def choices(
    client: dc.BoardchatClient, http: DiscordHttp, name: str, options: dict[str, Any], focus: str
) -> list[str]:
    client._connection.parse_interaction_create(
        as_event(slash_payload(name, options, focused=focus))
    )
    await settle()
    return [c["value"] for c in http.callbacks()[-1].json["data"]["choices"]]


async def test_new_options_complete_by_the_chosen_game(table: Table) -> None:  # noqa: F811
    async with running(table) as (client, http):
        assert await choices(
            client, http, "new", {"game": "powergrid", "options": "map=u"}, "options"
        ) == ["map=usa"]
        keys = await choices(client, http, "new", {"game": "hexania", "options": ""}, "options")
        assert "rounds=" in keys and "map=" not in keys
        assert await choices(
            client, http, "new", {"game": "powergrid", "options": "map=usa hid"}, "options"
        ) == ["map=usa hidden_money="]


async def test_settings_keys_and_values_complete(table: Table) -> None:  # noqa: F811
    async with running(table) as (client, http):
        assert await choices(client, http, "settings", {"settings": "pol"}, "settings") == [
            "policy="
        ]
        assert await choices(
            client, http, "settings", {"settings": "deadline=6h policy=s"}, "settings"
        ) == ["deadline=6h policy=skip"]


async def test_every_word_of_free_text_completes(table: Table) -> None:  # noqa: F811
    async with running(table) as (client, http):
        await feed(client, http, slash_payload("new", {"game": "powergrid"}))
        await feed(client, http, slash_payload("join", user_id=BOB_ID, user_name="Bob"))
        await feed(client, http, slash_payload("start"))
        buy = next(p for p in client.plans if p.name == "buy")
        free = buy.options[-1]
        if free.name == dc.FREE_TEXT:  # one free-text field
            found = await choices(client, http, "buy", {"args": "coal 3 o"}, "args")
            assert found == ["coal 3 oil"]
        else:  # typed resource and count, the rest as text
            found = await choices(
                client,
                http,
                "buy",
                {"resource": "coal", "count": 3, free.name: "o"},
                free.name,
            )
            assert found == ["oil"]


async def test_cities_in_the_reader_s_script_and_rules_by_id_or_word(
    table: Table,  # noqa: F811
) -> None:
    """An outside tester's gaps (2026-12): `/build Гамб` and `/rules licyt` offered nothing;
    /pass's words are Discord's own choices now."""
    async with running(table) as (client, http):
        no_game = await choices(client, http, "rules", {"query": "power"}, "query")
        assert no_game == ["powergrid", "powergrid_alt"]
        await feed(client, http, slash_payload("new", {"game": "powergrid"}))
        await feed(client, http, slash_payload("join", user_id=BOB_ID, user_name="Bob"))
        await feed(client, http, slash_payload("start"))
        assert await choices(client, http, "build", {"args": "berlin ham"}, "args") == [
            "berlin Hamburg"
        ]
        assert await choices(client, http, "build", {"args": "Berlin Бре"}, "args") == [
            "Berlin Bremen"
        ]
        assert await choices(client, http, "cost", {"args": "漢"}, "args") == [
            "Hamburg",
            "Hannover",
        ]
        found = await choices(client, http, "rules", {"query": "licyt"}, "query")
        assert found[0] == "PG-21 · Licytacja"
        found = await choices(client, http, "rules", {"query": "PG-2"}, "query")
        assert found[:2] == ["PG-2 · Power plant cards", "PG-20 · Choosing"]
        when = next(p for p in client.plans if p.name == "pass").options[0]
        assert when.choices == ("round", "plant") and when.complete is None
