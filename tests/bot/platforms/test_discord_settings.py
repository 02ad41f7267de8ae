"""Issue 22: /settings tells the values it accepts (games, pictures, hints besides the
deadline keys) in its help, its Discord option and its autocomplete, over the real table."""

from __future__ import annotations

from typing import Any

from discord import Locale, app_commands

from bot.i18n import tr
from bot.platforms import discord_bot as dc
from bot.table import Table
from tests.bot.helpers import Chat
from tests.bot.platforms.fake_discord import NO_DATA
from tests.bot.platforms.test_discord import settings
from tests.bot.platforms.test_discord_complete import choices
from tests.bot.platforms.test_discord_table import running, table  # noqa: F401

KEYS = ("deadline", "reminders", "quiet", "tz", "policy", "games", "pictures", "hints")


async def test_settings_help_lists_every_key_and_the_accepted_values(
    table: Table,  # noqa: F811
) -> None:
    spec = next(s for s in table.table_command_specs() if s.name == "settings")
    for value in ("pictures=phase|round|turn|off", "hints=on|off", "games=all|"):
        assert value in spec.help
    assert all(key in spec.args[0].help for key in KEYS)
    client = dc.build_client(table, settings(discord_token="t"), sync_commands=False)
    plan = next(p for p in client.plans if p.name == "settings")
    assert all(key in plan.options[0].description for key in KEYS)  # inside 100 characters
    # The option's description is translated like every other (Discord's translator).
    context: app_commands.TranslationContext[Any, Any] = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.parameter_description, NO_DATA
    )
    source = plan.options[0].source
    russian = await dc.I18nTranslator().translate(
        app_commands.locale_str(source, source=source), Locale.russian, context
    )
    assert russian and russian != source and "pictures" in russian
    # /help settings in the chat: the help with an example of the new keys.
    chat = Chat(table, chat_key="local:settings", admins={"alice"})
    text = await chat.text("alice", "/help settings")
    assert "pictures=phase|round|turn|off" in text and "hints=on|off" in text
    assert "/settings games=powergrid,hexania pictures=round hints=off" in text
    # A wrong key names every key there is.
    refused = await chat.text("alice", "/settings colour=red")
    assert all(key in refused for key in KEYS)
    assert tr("pl", spec.help) != spec.help


async def test_settings_autocomplete_offers_pictures_hints_and_games(
    table: Table,  # noqa: F811
) -> None:
    async with running(table) as (client, http):
        assert await choices(client, http, "settings", {"settings": "pic"}, "settings") == [
            "pictures="
        ]
        assert await choices(client, http, "settings", {"settings": "pictures="}, "settings") == [
            "pictures=phase",
            "pictures=round",
            "pictures=turn",
            "pictures=off",
        ]
        assert await choices(client, http, "settings", {"settings": "hints="}, "settings") == [
            "hints=on",
            "hints=off",
        ]
        games = await choices(client, http, "settings", {"settings": "games="}, "settings")
        assert games[0] == "games=all" and "games=powergrid" in games and "games=hexania" in games
        after = await choices(
            client, http, "settings", {"settings": "games=powergrid,"}, "settings"
        )
        assert "games=powergrid,hexania" in after and "games=powergrid,all" not in after
