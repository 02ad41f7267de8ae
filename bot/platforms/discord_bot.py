"""Discord adapter: slash commands, buttons and pictures on discord.py, over the table service.

Everything a game can do here comes from `TableService.command_specs()`: each spec becomes a
slash command whose options are generated from its arguments (ints as integers, fixed choices as
Discord choices, cities/plants/... as strings with autocomplete from `TableService.complete`;
free text, the "args" option of a name several games share and "rest" options, is completed
as a whole line by the chat's own game's spec, "/build Berlin Ham" -> "Berlin Hamburg").
A command rebuilds the chat text ("/bid 13 20") and hands it to the table as an `Inbound`; the
`Outbound`s that come back are sent as interaction follow-ups (text split to Discord's 2000
characters, the board as a PNG attachment, buttons as persistent components).

Interactions must be acknowledged within three seconds, so every command and button press is
deferred first and answered afterwards. Private answers (errors, a player's own information,
toasts) are ephemeral. Buttons carry the table's payload in their custom id
("bc:<payload>") and are dispatched by a `DynamicItem`, so they keep working after a restart.
One table per channel or thread: chat key "dc:<channel_id>", user key "dc:<user_id>".
"""

from __future__ import annotations

import inspect
import io
import logging
import re
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from bot import i18n
from bot.messages import Button, Inbound, Outbound
from bot.outbox import RetryLater, Undeliverable
from bot.platforms.discord_commands import (  # noqa: F401 (re-exported)
    _ELLIPSIS,
    _NAME_RE,
    BUTTON_LABEL_LIMIT,
    BUTTON_PREFIX,
    BUTTON_TEMPLATE,
    CHOICE_LIMIT,
    COMMAND_LIMIT,
    COMPLETABLE_KINDS,
    CUSTOM_ID_LIMIT,
    DESCRIPTION_LIMIT,
    FREE_TEXT,
    KEY_PREFIX,
    MESSAGE_LIMIT,
    NEW_COMMAND,
    OPTION_LIMIT,
    PLATFORM,
    REPLY_HOLD,
    ROW_BUTTONS,
    THREAD_NAME_LIMIT,
    THREAD_OPTION,
    VIEW_ROWS,
    CommandPlan,
    OptionPlan,
    _free_text_option,
    _option_name,
    _plan_option,
    _pyname,
    _thread_option,
    chat_key,
    key_id,
    plan_commands,
    render_mentions,
    shorten,
    split_text,
    user_key,
)
from bot.service import ARGS_KIND, TableService
from bot.settings import Settings
from bot.supervisor import discord_shard_options
from engine.core.errors import N_

log = logging.getLogger(__name__)


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


# --------------------------------------------------------------------------------------------
# Buttons
# --------------------------------------------------------------------------------------------


class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    """A button carrying the table's payload; dispatched by its custom id, even after a restart."""

    def __init__(self, payload: str, label: str = _ELLIPSIS, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=shorten(label, BUTTON_LABEL_LIMIT) or _ELLIPSIS,
                style=discord.ButtonStyle.secondary,
                custom_id=f"{BUTTON_PREFIX}{payload}",
            ),
            row=row,
        )
        self.payload = payload

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        label = getattr(item, "label", None) or _ELLIPSIS
        return cls(match["payload"], label, row=getattr(item, "row", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        adapter = getattr(interaction.client, "adapter", None)
        if not isinstance(adapter, DiscordAdapter):
            log.error("discord: button pressed on a client without a boardchat adapter")
            return
        await adapter.on_button(interaction, self.payload)


def build_view(rows: Sequence[Sequence[Button]]) -> discord.ui.View | None:
    """Outbound.buttons as a persistent view (at most 5 rows of 5); None without buttons."""
    view = discord.ui.View(timeout=None)
    for r, row in enumerate(rows[:VIEW_ROWS]):
        for button in row[:ROW_BUTTONS]:
            if len(BUTTON_PREFIX) + len(button.payload) > CUSTOM_ID_LIMIT:
                log.error("discord: button payload too long, left out: %r", button.payload)
                continue
            view.add_item(TableButton(button.payload, button.label, row=r))
    return view if view.children else None


# --------------------------------------------------------------------------------------------
# Outgoing messages
# --------------------------------------------------------------------------------------------


ATTACHMENT_LIMIT = 10  # files in one Discord message


@dataclass
class Piece:
    """One Discord message of an Outbound (long texts take several)."""

    content: str
    png: bytes | None
    view: discord.ui.View | None
    user_ids: list[int]
    # Further pictures of the set: attachments of the same message (Discord takes up to 10).
    album: list[bytes] = field(default_factory=list)
    silent: bool = False  # no notification (SUPPRESS_NOTIFICATIONS)

    def file(self) -> discord.File | None:
        # A fresh file object for each send: discord.File is consumed when sent.
        return discord.File(io.BytesIO(self.png), filename="board.png") if self.png else None

    def files(self) -> list[discord.File]:
        """The picture set as attachments of one message (fresh file objects, as `file`)."""
        pngs = [self.png, *self.album] if self.png else []
        return [
            discord.File(io.BytesIO(png), filename=f"board-{i + 1}.png")
            for i, png in enumerate(pngs[:ATTACHMENT_LIMIT])
        ]

    def allowed_mentions(self) -> discord.AllowedMentions:
        return discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[discord.Object(id=uid) for uid in self.user_ids],
        )

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"allowed_mentions": self.allowed_mentions()}
        if self.content:
            out["content"] = self.content
        if self.album:
            out["files"] = self.files()
        else:
            file = self.file()
            if file is not None:
                out["file"] = file
        if self.silent:
            out["silent"] = True
        if self.view is not None:
            out["view"] = self.view
        return out


def pieces(out: Outbound) -> list[Piece]:
    """The messages for one Outbound; the picture and the buttons go with the last one."""
    text, user_ids = render_mentions(out.text or "", out.mentions)
    chunks = split_text(text)
    view = build_view(out.buttons)
    if not chunks and (out.png or view):
        chunks = [""]
    result = [
        Piece(content=c, png=None, view=None, user_ids=user_ids, silent=out.silent) for c in chunks
    ]
    if result:
        result[-1].png = out.png
        result[-1].album = list(out.album)
        result[-1].view = view
    return result


def toast_pieces(text: str) -> list[Piece]:
    return [Piece(content=c, png=None, view=None, user_ids=[]) for c in split_text(text)]


# --------------------------------------------------------------------------------------------
# The adapter: interactions in, Outbounds out
# --------------------------------------------------------------------------------------------


def _lang(interaction: discord.Interaction) -> str | None:
    locale = getattr(interaction, "locale", None)
    return getattr(locale, "value", None) or (str(locale) if locale else None)


def _is_admin(interaction: discord.Interaction) -> bool:
    if interaction.guild_id is None:
        return True  # a DM: the user is the whole chat
    perms = interaction.permissions
    return bool(perms.administrator or perms.manage_guild)


def _display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


class DiscordAdapter:
    """Turns interactions into Inbounds, and the table's Outbounds into Discord messages."""

    def __init__(self, client: discord.Client, table: TableService) -> None:
        self.client = client
        self.table = table

    # ---- inbound ----

    def inbound(
        self,
        interaction: discord.Interaction,
        *,
        text: str | None = None,
        payload: str | None = None,
        chat: str | None = None,
    ) -> Inbound:
        return Inbound(
            platform=PLATFORM,
            chat_key=chat or chat_key(interaction.channel_id or 0),
            user_key=user_key(interaction.user.id),
            display_name=_display_name(interaction.user),
            lang=_lang(interaction),
            update_id=str(interaction.id),
            text=text,
            payload=payload,
            is_admin=_is_admin(interaction),
            is_private=interaction.guild_id is None,
        )

    async def _handle(self, inbound: Inbound) -> list[Outbound] | None:
        """The table's answer; None when the table failed (it should never raise)."""
        try:
            return list(await self.table.handle(inbound))
        except Exception:
            log.exception(
                "discord: table failed on %s from %s in %s (update %s)",
                inbound.text or f"button {inbound.payload!r}",
                inbound.user_key,
                inbound.chat_key,
                inbound.update_id,
            )
            return None

    @staticmethod
    async def _defer(interaction: discord.Interaction, *, thinking: bool) -> bool:
        try:
            await interaction.response.defer(thinking=thinking)
        except discord.HTTPException as exc:
            # Too late (3 s passed) or Discord refused: the user sees "interaction failed" and
            # may try again; nothing reached the table.
            log.error(
                "discord: could not defer interaction %s in channel %s: %s",
                interaction.id,
                interaction.channel_id,
                exc,
            )
            return False
        return True

    # ---- slash commands ----

    async def on_command(
        self, interaction: discord.Interaction, plan: CommandPlan, values: dict[str, Any]
    ) -> None:
        if not await self._defer(interaction, thinking=True):
            return
        lang = _lang(interaction)
        here = chat_key(interaction.channel_id or 0)
        text = plan.text(values)
        thread: discord.Thread | None = None
        if plan.name == NEW_COMMAND and values.get(THREAD_OPTION):
            thread = await self._create_thread(interaction, text)
            if thread is None:
                return
        inbound = self.inbound(interaction, text=text, chat=chat_key(thread.id) if thread else here)
        outbounds = await self._handle(inbound)
        if outbounds is None:
            await self._reply(
                interaction,
                public=[],
                private=toast_pieces(i18n.tr(lang, N_("Something went wrong. Please try again."))),
            )
            return
        public, private = await self._route(inbound, outbounds, here=here, thread=thread)
        if thread is not None:
            note = i18n.tr(lang, N_("The game is in {thread}."), thread=thread.mention)
            public = [*toast_pieces(note), *public]
        await self._reply(interaction, public=public, private=private)
        await self._taken(outbounds, here)

    async def _create_thread(
        self, interaction: discord.Interaction, text: str
    ) -> discord.Thread | None:
        lang = _lang(interaction)
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            message = N_("A game thread can only be started in a server's text channel.")
            await self._reply(interaction, public=[], private=toast_pieces(i18n.tr(lang, message)))
            return None
        game = " ".join(text.split()[1:]) or NEW_COMMAND
        name = shorten(f"{game} · {_display_name(interaction.user)}", THREAD_NAME_LIMIT)
        try:
            return await channel.create_thread(
                name=name,
                type=discord.ChannelType.public_thread,
                reason=f"boardchat: /new by {interaction.user.id}",
            )
        except discord.HTTPException as exc:
            log.error("discord: could not create a thread in channel %s: %s", channel.id, exc)
            message = N_("I could not create a thread here (I need Create Public Threads).")
            await self._reply(interaction, public=[], private=toast_pieces(i18n.tr(lang, message)))
            return None

    # ---- buttons ----

    async def on_button(self, interaction: discord.Interaction, payload: str) -> None:
        # A deferred update: nothing visible changes until we answer.
        if not await self._defer(interaction, thinking=False):
            return
        lang = _lang(interaction)
        inbound = self.inbound(interaction, payload=payload)
        outbounds = await self._handle(inbound)
        if outbounds is None:
            message = i18n.tr(lang, N_("Something went wrong. Please try again."))
            await self._followups(interaction, toast_pieces(message), ephemeral=True)
            return
        public, private = await self._route(inbound, outbounds, here=inbound.chat_key)
        # After a deferred update each follow-up is a message of its own, public or ephemeral.
        await self._followups(interaction, public, ephemeral=False)
        await self._followups(interaction, private, ephemeral=True)
        await self._taken(outbounds, inbound.chat_key)

    async def _taken(self, outbounds: list[Outbound], here: str) -> None:
        """The outbox rows this interaction's follow-ups delivered: marked sent (the table held
        them back from the sender loop for a while; had we crashed, the loop sends them)."""
        for out in outbounds:
            if (
                out.outbox_id is not None
                and out.private_to is None
                and out.chat_key == here
                and out.picture is None
            ):
                await self.table.delivered(out.outbox_id, None)

    # ---- autocomplete ----

    async def complete(
        self, interaction: discord.Interaction, kind: str, current: str, repeated: bool
    ) -> list[app_commands.Choice[str]]:
        chat = chat_key(interaction.channel_id or 0)
        user = user_key(interaction.user.id)
        try:
            if kind.startswith(ARGS_KIND):
                # Free text: the table knows the chat's game and answers whole texts.
                values = await self.table.complete(chat, user, kind, current.lstrip())
            elif not repeated:
                values = await self.table.complete(chat, user, kind, current.strip())
            else:
                values = await self._complete_last(chat, user, kind, current)
        except Exception:
            log.exception("discord: completing %s %r in %s failed", kind, current, chat)
            return []
        return _choices(values)

    async def _complete_last(self, chat: str, user: str, kind: str, current: str) -> list[str]:
        """Complete the last name of a list ("Berlin Ham" -> "Berlin Hamburg"); names may have
        several words ("Berlin New Yo" -> "Berlin New York"), so the longest tail that
        completes wins (at most three words)."""
        words = current.split()
        if not words or current.endswith(" "):
            head = " ".join(words)
            found = await self.table.complete(chat, user, kind, "")
            return [f"{head} {v}".strip() for v in found]
        for start in range(max(0, len(words) - 3), len(words)):
            found = await self.table.complete(chat, user, kind, " ".join(words[start:]))
            if found:
                head = " ".join(words[:start])
                return [f"{head} {v}".strip() for v in found]
        return []

    # ---- outbound ----

    async def _route(
        self,
        inbound: Inbound,
        outbounds: list[Outbound],
        *,
        here: str,
        thread: discord.Thread | None = None,
    ) -> tuple[list[Piece], list[Piece]]:
        """Split the table's answer: public pieces for this channel, private pieces for the
        user who acted (ephemeral: their private messages, replies only they need, toasts);
        everything else (other channels, other users' private messages) is sent right away."""
        public: list[Piece] = []
        private: list[Piece] = []
        ours = {here, inbound.chat_key}
        for out in outbounds:
            if out.outbox_id is not None and (out.private_to is not None or out.chat_key != here):
                continue  # in the outbox, held for nobody: the sender loop delivers it
            if out.outbox_id is not None and out.picture is not None:
                continue  # a picture to draw: the sender loop draws and delivers it
            mine = out.private_to == inbound.user_key or (
                out.private_to is None and out.sender_only and out.chat_key in ours
            )
            # A toast repeating the private text would show the same line twice.
            if out.toast and not (mine and out.toast.strip() == (out.text or "").strip()):
                private.extend(toast_pieces(out.toast))
            if mine:
                private.extend(pieces(out))
            elif out.private_to is not None:
                await self.send(out)
            elif out.chat_key == here:
                public.extend(pieces(out))
            elif thread is not None and out.chat_key == chat_key(thread.id):
                await self._send_pieces(thread, pieces(out), out.chat_key)
            else:
                await self.send(out)
        return public, private

    async def _reply(
        self, interaction: discord.Interaction, *, public: list[Piece], private: list[Piece]
    ) -> None:
        """Answer a deferred ("thinking") command. The first follow-up replaces the thinking
        message and takes its visibility (public), so when there is nothing public the thinking
        message is deleted first and the private pieces follow as ephemeral messages."""
        if public:
            await self._followups(interaction, public, ephemeral=False)
        else:
            try:
                await interaction.delete_original_response()
            except discord.HTTPException as exc:
                log.warning(
                    "discord: could not delete the thinking message of %s: %s", interaction.id, exc
                )
        await self._followups(interaction, private, ephemeral=True)

    async def _followups(
        self, interaction: discord.Interaction, items: list[Piece], *, ephemeral: bool
    ) -> None:
        for piece in items:
            try:
                await interaction.followup.send(ephemeral=ephemeral, **piece.kwargs())
            except discord.HTTPException as exc:
                log.error(
                    "discord: follow-up to interaction %s in channel %s failed: %s",
                    interaction.id,
                    interaction.channel_id,
                    exc,
                )

    async def _send_pieces(
        self, target: discord.abc.Messageable, items: list[Piece], context: str
    ) -> bool:
        """Send the pieces in order; False (logged) at the first failure."""
        for piece in items:
            try:
                await target.send(**piece.kwargs())
            except discord.HTTPException as exc:
                log.error("discord: sending to %s failed: %s", context, exc)
                return False  # the rest would fail the same way; 429s were already waited out
        return True

    async def send(self, out: Outbound) -> None:
        """The table's sender: unsolicited messages (reminders, bots' moves, DMs)."""
        items = pieces(out)
        if not items:
            return
        if out.private_to is not None:
            uid = key_id(out.private_to)
            if uid is None:
                log.warning("discord: cannot send a private message to %s", out.private_to)
                return
            try:
                user = self.client.get_user(uid) or await self.client.fetch_user(uid)
                sent = await self._send_pieces(user, items, f"DM {out.private_to}")
            except discord.HTTPException as exc:
                log.error("discord: cannot reach user %s: %s", out.private_to, exc)
                sent = False
            if not sent:
                await self._dm_refused(out, uid)
            return
        channel = await self._channel(out.chat_key)
        if channel is not None:
            await self._send_pieces(channel, items, out.chat_key)

    async def _channel(self, key: str) -> discord.abc.Messageable | None:
        cid = key_id(key)
        if cid is None:
            log.warning("discord: no Discord channel for chat %s", key)
            return None
        try:
            channel = self.client.get_channel(cid) or await self.client.fetch_channel(cid)
        except discord.HTTPException as exc:
            log.error("discord: cannot reach channel %s: %s", key, exc)
            return None
        if not isinstance(channel, discord.abc.Messageable):
            log.error("discord: channel %s does not take messages", key)
            return None
        return channel

    async def deliver(self, out: Outbound) -> str | None:
        """The outbox sender loop's delivery: the id of the (last) message sent, or
        RetryLater (rate limits, network) / Undeliverable (no such channel, no access)."""
        items = pieces(out)
        if not items:
            return None
        try:
            if out.private_to is not None:
                uid = key_id(out.private_to)
                if uid is None:
                    raise Undeliverable(f"not a Discord user: {out.private_to}")
                try:
                    user = self.client.get_user(uid) or await self.client.fetch_user(uid)
                    return await self._send_all(user, items)
                except discord.Forbidden:
                    await self._dm_refused(out, uid)
                    return None
            cid = key_id(out.chat_key)
            if cid is None:
                raise Undeliverable(f"not a Discord channel: {out.chat_key}")
            channel = self.client.get_channel(cid) or await self.client.fetch_channel(cid)
            if not isinstance(channel, discord.abc.Messageable):
                raise Undeliverable(f"channel {out.chat_key} does not take messages")
            return await self._send_all(channel, items)
        except (discord.Forbidden, discord.NotFound) as exc:
            raise Undeliverable(f"{type(exc).__name__}: {exc}") from exc
        except discord.HTTPException as exc:
            wait = float(getattr(exc, "retry_after", 0.0) or 5.0)
            raise RetryLater(wait, f"HTTP {exc.status}: {exc}") from exc
        except (OSError, TimeoutError) as exc:
            raise RetryLater(5.0, repr(exc)) from exc

    async def _send_all(self, target: discord.abc.Messageable, items: list[Piece]) -> str | None:
        sent: discord.Message | None = None
        for piece in items:
            sent = await target.send(**piece.kwargs())
        return str(sent.id) if sent is not None else None

    async def _dm_refused(self, out: Outbound, uid: int) -> None:
        """A private message could not be delivered (DMs closed): say so in the chat, without
        the private content, so the player knows to open their DMs."""
        if key_id(out.chat_key) is None:
            return
        channel = await self._channel(out.chat_key)
        if channel is None:
            return
        text = i18n.tr(
            None,
            N_(
                "{mention}, I could not send you a private message. Please allow direct "
                "messages from this server's members."
            ),
            mention=f"<@{uid}>",
        )
        note = Piece(content=text, png=None, view=None, user_ids=[uid])
        await self._send_pieces(channel, [note], out.chat_key)


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


def _autocomplete_for(adapter: DiscordAdapter, option: OptionPlan) -> AutocompleteFn | None:
    if option.complete:
        kind, repeated = option.complete, option.repeated

        async def complete_kind(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return await adapter.complete(interaction, kind, current, repeated)

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


def make_command(adapter: DiscordAdapter, plan: CommandPlan) -> app_commands.Command[Any, ..., Any]:
    """A slash command whose callback rebuilds the chat text and hands it to the table."""

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await adapter.on_command(interaction, plan, values)

    params = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    descriptions: dict[str, app_commands.locale_str] = {}
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
                app_commands.Choice(name=app_commands.locale_str(c, source=c), value=c)
                for c in option.choices
            ]
        auto = _autocomplete_for(adapter, option)
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
    )


# --------------------------------------------------------------------------------------------
# The client
# --------------------------------------------------------------------------------------------


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
        message = i18n.tr(_lang(interaction), N_("Something went wrong. Please try again."))
        try:
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)
        except discord.HTTPException as exc:
            log.error("discord: could not report the error to %s: %s", interaction.id, exc)


class BoardchatClient(discord.AutoShardedClient):
    """discord.Client with the generated command tree, the button handler and the table."""

    def __init__(
        self, table: TableService, settings: Settings, *, sync_commands: bool = True
    ) -> None:
        super().__init__(
            # Slash commands and buttons need no privileged intent; "guilds" keeps channels and
            # threads cached so unsolicited messages rarely need a fetch.
            intents=discord.Intents(guilds=True),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **discord_shard_options(settings),  # this worker's slice (DISCORD_SHARD_IDS)
        )
        self.table = table
        self.settings = settings
        self.sync_on_start = sync_commands
        self.adapter = DiscordAdapter(self, table)
        self.tree = BoardchatTree(self)
        self.plans = plan_commands(table.command_specs())
        for plan in self.plans:
            self.tree.add_command(make_command(self.adapter, plan))
        self.add_dynamic_items(TableButton)

    @property
    def guild(self) -> discord.Object | None:
        gid = self.settings.discord_guild_id.strip()
        return discord.Object(id=int(gid)) if gid.isdigit() else None

    async def setup_hook(self) -> None:
        await self.tree.set_translator(I18nTranslator())
        self.table.register_sender(PLATFORM, self.adapter.send)
        # A command's public answers go out as the interaction's follow-ups: the table holds
        # their outbox rows back from the sender loop that long (bot/outbox.py).
        self.table.register_delivery(PLATFORM, self.adapter.deliver, hold_replies=REPLY_HOLD)
        if self.sync_on_start:
            await self.sync_commands()

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Publish the slash commands: to DISCORD_GUILD_ID at once when set, else globally."""
        guild = self.guild
        try:
            if guild is not None:
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
            else:
                synced = await self.tree.sync()
        except discord.HTTPException as exc:
            log.error("discord: syncing %d slash commands failed: %s", len(self.plans), exc)
            return []
        where = f"guild {guild.id}" if guild is not None else "every server (global)"
        log.info("discord: %d slash commands synced to %s", len(synced), where)
        return synced


def build_client(
    table: TableService, settings: Settings, *, sync_commands: bool = True
) -> BoardchatClient:
    return BoardchatClient(table, settings, sync_commands=sync_commands)


async def serve(table: TableService, settings: Settings) -> None:
    """Run the Discord bot until cancelled (or the connection is closed for good)."""
    if not settings.discord_token:
        raise ValueError("DISCORD_TOKEN is not set")
    client = build_client(table, settings)
    async with client:
        await client.start(settings.discord_token)
