"""Issue 22 (1): each Discord server gets the table's commands plus those of the games
enabled there (/settings games=...), through discord.py's HTTP edge over the real table;
every command set stays inside Discord's limits."""

from __future__ import annotations

import itertools
import re
from typing import Any

from bot.platforms import discord_bot as dc
from bot.table import Table
from tests.bot.platforms.fake_discord import GUILD_ID, NO_DATA, slash_payload
from tests.bot.platforms.test_discord import settings
from tests.bot.platforms.test_discord_table import feed, running, table  # noqa: F401

# Discord's rule for command and option names (CHAT_INPUT): lower case, 1-32 characters.
NAME = re.compile(r"^[-_\w]{1,32}$")


def names_of(t: Table, *games: str) -> set[str]:
    return {s.name for g in games for s in t.games[g].commands}


async def test_a_server_with_powergrid_and_hexania_gets_only_their_commands(
    table: Table,  # noqa: F811
) -> None:
    async with running(table) as (client, http):
        (first,) = http.find("PUT", f"/guilds/{GUILD_ID}/commands")
        everything = {c["name"] for c in first.json}
        assert names_of(table, "iec") <= everything  # by default every game
        admin = 1 << 3
        await feed(
            client,
            http,
            slash_payload("settings", {"settings": "games=powergrid,hexania"}, permissions=admin),
        )
        synced = http.find("PUT", f"/guilds/{GUILD_ID}/commands")
        assert len(synced) == 2
        names = {c["name"] for c in synced[-1].json}
        table_names = {s.name for s in table.table_command_specs()}
        assert table_names <= names  # the table's own commands always
        assert names_of(table, "powergrid", "hexania") <= names
        assert names == table_names | names_of(table, "powergrid", "hexania")
        only_iec = names_of(table, "iec") - names_of(table, "powergrid", "hexania") - table_names
        assert only_iec and not only_iec & names
        # Shared by Power Grid and IEC with different kinds; now Power Grid's alone: typed.
        build = next(c for c in synced[-1].json if c["name"] == "build")
        assert [o["name"] for o in build["options"]] != ["args"]
        # The same choice again changes nothing: no new sync.
        await feed(
            client,
            http,
            slash_payload("settings", {"settings": "games=powergrid,hexania"}, permissions=admin),
        )
        assert len(http.find("PUT", f"/guilds/{GUILD_ID}/commands")) == 2
        assert await table.enabled_games(dc.guild_settings_key(GUILD_ID)) == (
            "powergrid",
            "hexania",
        )


def test_every_command_set_stays_inside_discord_s_limits(table: Table) -> None:  # noqa: F811
    client = dc.build_client(table, settings(discord_token="t"), sync_commands=False)
    games = list(table.games)
    subsets = [list(c) for n in range(1, len(games) + 1) for c in itertools.combinations(games, n)]
    for chosen in [None, *subsets]:
        plans = client.plans_for(chosen)
        assert len(plans) <= dc.COMMAND_LIMIT == 100
        assert len({p.name for p in plans}) == len(plans)
        for plan in plans:
            assert NAME.match(plan.name) and plan.name == plan.name.lower(), plan.name
            assert 1 <= len(plan.description) <= 100, plan.name
            assert len(plan.options) <= dc.OPTION_LIMIT == 25, plan.name
            required = [o.required for o in plan.options]
            assert required == sorted(required, reverse=True), plan.name  # required first
            for option in plan.options:
                assert NAME.match(option.name) and option.name == option.name.lower()
                assert 1 <= len(option.description) <= 100, (plan.name, option.name)
                assert len(option.choices) <= 25
                assert all(1 <= len(c) <= 100 for c in option.choices)
        # The payload discord.py would send (names, descriptions, options) validates too.
        for command in client.tree.get_commands():
            data = command.to_dict(client.tree)
            assert len(data["description"]) <= 100
            assert len(data.get("options", [])) <= 25


async def test_on_off_choices_are_one_catalog_pair_in_every_language(
    table: Table,  # noqa: F811
) -> None:
    """Issue 22 (6): /digest's and the games' on/off choices show one matching pair."""
    from discord import Locale, app_commands

    client = dc.build_client(table, settings(discord_token="t"), sync_commands=False)
    digest = next(p for p in client.plans if p.name == "digest")
    assert set(dc.SWITCH) <= {c for o in digest.options for c in o.choices}
    translator = dc.I18nTranslator()
    context: app_commands.TranslationContext[Any, Any] = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.choice_name, NO_DATA
    )
    expected = {
        Locale.russian: ("включено", "выключено"),
        Locale.polish: ("włączone", "wyłączone"),
        Locale.taiwan_chinese: ("開啟", "關閉"),
    }
    for locale, pair in expected.items():
        got = tuple(
            [
                await translator.translate(app_commands.locale_str(w, source=w), locale, context)
                for w in ("on", "off")
            ]
        )
        assert got == pair, locale


async def test_shared_commands_describe_their_meaning_in_every_game_and_language(
    table: Table,  # noqa: F811
) -> None:
    """Issue 22 (1): a name several games define (/build, /power, /move, ...) has one
    description saying what it does in each game, translated whole, inside 100 characters."""
    from discord import Locale, app_commands

    from bot.grammar import MERGED_HELP, shared_help
    from bot.i18n import tr

    client = dc.build_client(table, settings(discord_token="t"), sync_commands=False)
    helps: dict[str, set[str]] = {}
    for game in table.games.values():
        for spec in game.commands:
            helps.setdefault(spec.name, set()).add(spec.help)
    own = {s.name for s in table.table_command_specs()}
    shared = [p for p in client.plans if p.name not in own and len(helps.get(p.name, ())) > 1]
    assert {"build", "power", "move", "bid", "buy"} <= {p.name for p in shared}
    translator = dc.I18nTranslator()
    where: app_commands.TranslationContext[Any, Any] = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_description, NO_DATA
    )
    for plan in shared:
        assert plan.source == shared_help(plan.name) != MERGED_HELP, plan.name
        assert plan.description == plan.source and len(plan.source) <= 100
        for locale, lang in (
            (Locale.russian, "ru"),
            (Locale.polish, "pl"),
            (Locale.taiwan_chinese, "zh_Hant"),
        ):
            text = app_commands.locale_str(plan.description, source=plan.source)
            got = await translator.translate(text, locale, where)
            assert got == tr(lang, plan.source) != plan.source and len(got) <= 100, (plan, lang)
    descriptions = [p.description for p in shared]
    assert len(set(descriptions)) == len(descriptions)  # no two say the same
