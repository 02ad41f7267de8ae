"""Issue 18: the Discord and Telegram menus in every catalog language, piece by piece.

Over the real discord.py command tree (the payload `tree.sync` would send, with the
translator's localisations) for every game alone and for all games together: every command
description, option description and choice name has a Russian, Polish and Traditional Chinese
localisation, none keeps an English placeholder such as `<game>`, and each fits Discord's 100
characters. Telegram's menus (`set_my_commands(language_code=...)`) likewise, per command.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.i18n import tr
from bot.placeholders import ARG_HELP, CHOICE_LABELS, PLACEHOLDERS, arg_help, choice_label
from bot.platforms import discord_bot as dc
from bot.platforms.discord_commands import plan_command_set
from bot.platforms.discord_slash import I18nTranslator, make_command
from bot.platforms.telegram_format import menu_for
from bot.table import Table
from tests.bot.platforms.test_discord import settings
from tests.bot.platforms.test_discord_table import table  # noqa: F401

# Discord's locale -> the catalog it reads.
LOCALES = {"ru": "ru", "pl": "pl", "zh-TW": "zh_Hant"}
PLACEHOLDER = re.compile(r"<[^<>\s]+>")
# Choice values that are codes reading the same in every language (resources, recipes,
# compass directions the player types).
CODE = re.compile(r"^[A-Z]{1,3}$")


def english_placeholders(lang: str) -> set[str]:
    """The English `<word>`s whose translation in `lang` is another word."""
    return {p for p in PLACEHOLDERS.values() if tr(lang, p) != p}


async def payloads(client: dc.BoardchatClient, games: tuple[str, ...]) -> list[dict[str, Any]]:
    """What discord.py would PUT for a server playing `games`, localisations included."""
    translator = I18nTranslator()
    await client.tree.set_translator(translator)
    service: Any = client.table
    plans = plan_command_set(service.table_command_specs(), service.game_command_specs(), games)
    return [
        await make_command(client.adapter, plan).get_translated_payload(client.tree, translator)
        for plan in plans
    ]


def check_localised(
    where: str, text: str, localised: dict[str, str], games: dict[str, str]
) -> list[str]:
    problems = []
    for locale, lang in LOCALES.items():
        got = localised.get(locale)
        if got is None:
            legit = CODE.match(text) or (text in games and tr(lang, games[text]) == games[text])
            if not legit:
                problems.append(f"{where} {locale}: {text!r} left in English")
            continue
        if len(got) > 100:
            problems.append(f"{where} {locale}: longer than 100 characters")
        leftovers = set(PLACEHOLDER.findall(got)) & english_placeholders(lang)
        if leftovers:
            problems.append(f"{where} {locale}: English placeholder {leftovers} in {got!r}")
    return problems


async def test_every_discord_description_and_choice_is_translated_in_every_language(
    table: Table,  # noqa: F811
) -> None:
    client = dc.build_client(table, settings(discord_token="t"), sync_commands=False)
    names = {gid: game.name for gid, game in table.games.items()}
    problems: list[str] = []
    checked = 0
    for games in [(g,) for g in table.games] + [tuple(table.games)]:
        for data in await payloads(client, games):
            command = data["name"]
            problems += check_localised(
                f"/{command}",
                data["description"],
                data.get("description_localizations", {}),
                names,
            )
            for option in data.get("options", []):
                where = f"/{command} {option['name']}"
                problems += check_localised(
                    where,
                    option["description"],
                    option.get("description_localizations", {}),
                    names,
                )
                for choice in option.get("choices", []):
                    problems += check_localised(
                        f"{where}={choice['value']}",
                        choice["name"],
                        choice.get("name_localizations", {}),
                        names,
                    )
                    checked += 1
                checked += 1
            checked += 1
    assert checked > 300  # the whole tree was walked, options and choices included
    assert not problems, "\n".join(sorted(set(problems)))


async def test_options_without_their_own_help_get_a_translated_description(
    table: Table,  # noqa: F811
) -> None:
    """/abort's confirm, /vote's what, /digest's switch (IEC's arguments have their own help
    since 2026-11-29): none shows its bare English name ("confirm") as the option's
    description in any language."""
    specs = list(table.table_command_specs())
    for game_specs in table.game_command_specs().values():
        specs += list(game_specs)
    bare = [(s.name, a.name) for s in specs for a in s.args if not a.help]
    assert ("abort", "confirm") in bare and ("digest", "switch") in bare
    for command, arg in bare:
        assert arg in ARG_HELP, (command, arg)
        source = arg_help(arg, "")
        for lang in LOCALES.values():
            assert tr(lang, source) != source, (command, arg, lang)
    client = dc.build_client(table, settings(discord_token="t"), sync_commands=False)
    (abort,) = [d for d in await payloads(client, ("iec",)) if d["name"] == "abort"]
    (confirm,) = abort["options"]
    assert confirm["description_localizations"]["ru"] == "подтвердите, что вы это всерьёз"
    assert confirm["choices"][0]["name_localizations"]["pl"] == "potwierdź"
    assert confirm["choices"][0]["value"] == "confirm"  # the typed word stays the English one


async def test_discord_offers_the_games_under_their_editions_names(
    table: Table,  # noqa: F811
) -> None:
    client = dc.build_client(table, settings(discord_token="t"), sync_commands=False)
    (new,) = [d for d in await payloads(client, tuple(table.games)) if d["name"] == "new"]
    game = next(o for o in new["options"] if o["name"] == "game")
    powergrid = next(c for c in game["choices"] if c["value"] == "powergrid")
    assert powergrid["name"] == "powergrid"
    localised = powergrid["name_localizations"]
    assert {k: localised[k] for k in LOCALES} == {
        "ru": "Энергосеть",
        "pl": "Wysokie Napięcie",
        "zh-TW": "發電廠",
    }


@pytest.mark.parametrize("lang", sorted(LOCALES.values()))
async def test_telegram_menus_are_translated_per_command(
    table: Table,  # noqa: F811
    lang: str,
) -> None:
    english = dict(table.command_menu(None))
    assert english
    menus = [table.command_menu(lang)] + [menu_for(table, (g,), lang) for g in table.games]
    for menu in menus:
        for name, description in menu:
            assert description != english.get(name) or name not in english, (name, description)
            leftovers = set(PLACEHOLDER.findall(description)) & english_placeholders(lang)
            assert not leftovers, (name, description)


def test_choice_labels_and_argument_helps_are_catalog_messages() -> None:
    for source in [*ARG_HELP.values(), *CHOICE_LABELS.values()]:
        for lang in LOCALES.values():
            assert tr(lang, source) != source, (source, lang)
    assert choice_label("NE") == "NE" and choice_label("yes") == "yes"
    assert tr("ru", choice_label("en")) == "английский (English)"


@pytest.mark.parametrize("lang", sorted(LOCALES.values()))
def test_digest_s_usage_shows_the_words_it_takes(lang: str) -> None:
    """/digest reads "on" and "off" as typed: its usage line shows them in every language
    rather than a translation ("<вкл|выкл>") the command would refuse."""
    from bot.grammar import usage
    from bot.i18n import translator
    from bot.reminder_commands import deadline_commands

    (digest,) = [s for s in deadline_commands() if s.name == "digest"]
    assert usage(digest, translator(lang)).startswith("/digest <on|off>")
