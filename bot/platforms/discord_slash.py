"""Discord app commands built from the plans of bot/platforms/discord_commands.py: a slash
command per plan whose callback rebuilds the chat text and hands it to the adapter, with
descriptions, renamed options, static choices and autocomplete."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import i18n
from bot.placeholders import choice_label
from bot.platforms.discord_commands import (
    CHOICE_LIMIT,
    DESCRIPTION_LIMIT,
    CommandPlan,
    OptionPlan,
    shorten,
)
from engine.core.errors import N_

if TYPE_CHECKING:
    from bot.platforms.discord_bot import DiscordAdapter

log = logging.getLogger(__name__)


def _choices(values: Sequence[str]) -> list[app_commands.Choice[str]]:
    seen: set[str] = set()
    result: list[app_commands.Choice[str]] = []
    for value in values:
        value = value[:DESCRIPTION_LIMIT]
        if not value or value in seen:
            continue
        seen.add(value)
        result.append(app_commands.Choice(name=value, value=value))
        if len(result) == CHOICE_LIMIT:
            break
    return result


# --------------------------------------------------------------------------------------------
# app_commands.Command objects from the plans
# --------------------------------------------------------------------------------------------

AutocompleteFn = Callable[
    [discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]
]


def _autocomplete_for(
    adapter: DiscordAdapter, option: OptionPlan, before: Sequence[str] = ()
) -> AutocompleteFn | None:
    """`before`: the callback names of the options in front of this one (a free-text option
    that continues them, like /new's options after its game, is completed with them)."""
    if option.complete:
        kind, repeated = option.complete, option.repeated

        async def complete_kind(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return await adapter.complete(interaction, kind, current, repeated, before)

        return complete_kind
    if option.filter_choices:
        allowed = option.filter_choices

        async def complete_choice(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            needle = current.strip().casefold()
            return _choices([c for c in allowed if c.casefold().startswith(needle)])

        return complete_choice
    return None


def game_labels(table: object) -> dict[str, str]:
    """{game id: the game's English name}: a menu offers "powergrid" under the name its edition
    has in the reader's language (Энергосеть, 發電廠, issue 18)."""
    games = getattr(table, "games", None)
    if not isinstance(games, dict):
        return {}
    return {gid: name for gid, game in games.items() if (name := getattr(game, "name", ""))}


def make_command(
    adapter: DiscordAdapter,
    plan: CommandPlan,
    contexts: app_commands.AppCommandContext | None = None,
) -> app_commands.Command[Any, ..., Any]:
    """A slash command whose callback rebuilds the chat text and hands it to the table
    (`contexts`: where Discord offers it, e.g. only in DMs)."""

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await adapter.on_command(interaction, plan, values)

    params = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    descriptions: dict[str, app_commands.locale_str] = {}
    labels = game_labels(adapter.table)
    renames: dict[str, str] = {}
    choices: dict[str, list[app_commands.Choice[str]]] = {}
    autocompletes: dict[str, AutocompleteFn] = {}
    for option in plan.options:
        annotation: Any = option.type if option.required else option.type | None
        params.append(
            inspect.Parameter(
                option.pyname,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=annotation,
                default=inspect.Parameter.empty if option.required else None,
            )
        )
        descriptions[option.pyname] = app_commands.locale_str(
            option.description, source=option.source
        )
        if option.pyname != option.name:
            renames[option.pyname] = option.name
        if option.choices:
            choices[option.pyname] = [
                app_commands.Choice(
                    name=app_commands.locale_str(c, source=labels.get(c) or choice_label(c)),
                    value=c,
                )
                for c in option.choices
            ]
        before = [o.pyname for o in plan.options[: plan.options.index(option)]]
        auto = _autocomplete_for(adapter, option, before)
        if auto is not None:
            autocompletes[option.pyname] = auto
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = f"slash_{plan.name.replace('-', '_')}"

    decorated: Any = callback
    if descriptions:
        decorated = app_commands.describe(**descriptions)(decorated)
    if renames:
        decorated = app_commands.rename(**renames)(decorated)
    if choices:
        decorated = app_commands.choices(**choices)(decorated)
    if autocompletes:
        decorated = app_commands.autocomplete(**autocompletes)(decorated)
    return app_commands.Command(
        name=plan.name,
        description=app_commands.locale_str(plan.description, source=plan.source),
        callback=decorated,
        allowed_contexts=contexts,
    )


# --------------------------------------------------------------------------------------------
# Translation of descriptions (bot.i18n catalogs; English when a language has none)
# --------------------------------------------------------------------------------------------


class I18nTranslator(app_commands.Translator):
    """Localises command descriptions, option descriptions and choice names with bot.i18n.

    Names of commands and options stay English: they are the chat grammar. A string without a
    translation returns None, so Discord shows the English text.
    """

    LOCATIONS = frozenset(
        {
            app_commands.TranslationContextLocation.command_description,
            app_commands.TranslationContextLocation.parameter_description,
            app_commands.TranslationContextLocation.choice_name,
        }
    )

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if context.location not in self.LOCATIONS:
            return None
        lang = i18n.normalize(locale.value)
        if lang == "en":
            return None
        source = string.extras.get("source", string.message)
        translated = i18n.translator(lang).gettext(source)
        if not translated or translated == source:
            return None
        return shorten(translated)


def interaction_lang(interaction: discord.Interaction) -> str | None:
    locale = getattr(interaction, "locale", None)
    return getattr(locale, "value", None) or (str(locale) if locale else None)


class BoardchatTree(app_commands.CommandTree):
    """The command tree; an unexpected error is logged and, once deferred, answered privately
    so the user is not left with "thinking…" (commands Discord knows but we do not, a bug)."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        log.error(
            "discord: command %s in channel %s by %s failed: %s",
            interaction.command.name if interaction.command else "?",
            interaction.channel_id,
            interaction.user.id,
            error,
            exc_info=error,
        )
        if interaction.type is not discord.InteractionType.application_command:
            return
        message = i18n.tr(
            interaction_lang(interaction), N_("Something went wrong. Please try again.")
        )
        try:
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)
        except discord.HTTPException as exc:
            log.error("discord: could not report the error to %s: %s", interaction.id, exc)
