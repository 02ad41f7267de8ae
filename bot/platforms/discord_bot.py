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
kept in the table's inbox, deferred, and answered afterwards; one kept before a crash is
handled at the next start (bot/platforms/discord_inbox.py). Private answers (errors, a
player's own information, toasts) are ephemeral. Buttons carry the table's payload in their
custom id ("bc:<payload>") and are dispatched by a `DynamicItem`, so they keep working after
a restart. One table per channel or thread: chat key "dc:<channel_id>", user key "dc:<user_id>".
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot import i18n
from bot.health import beat
from bot.messages import Inbound, Outbound
from bot.outbox import OutboxSender
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
    SWITCH,
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
    channel_name,
    chat_key,
    key_id,
    plan_command_set,
    plan_commands,
    render_mentions,
    shorten,
    split_text,
    user_key,
)
from bot.platforms.discord_delivery import DiscordDelivery
from bot.platforms.discord_inbox import (
    BUTTON,
    COMMAND,
    Clock,
    Received,
    display_name,
    handle_leftovers,
    inbound_of,
    keeping,
    own_private,
    received,
    stop_handling,
    taken,
)
from bot.platforms.discord_pieces import (  # noqa: F401 (re-exported)
    Piece,
    TableButton,
    build_view,
    edit_piece,
    edit_private,
    pieces,
    send_all,
    toast_pieces,
)
from bot.platforms.discord_slash import (
    BoardchatTree,
    I18nTranslator,
    _choices,
    interaction_lang,
    make_command,
)
from bot.service import ARGS_KIND, PlatformError, TableService, args_kind, parse_args_kind
from bot.settings import Settings
from bot.supervisor import discord_shard_options
from engine.core.errors import N_

log = logging.getLogger(__name__)

# A command's answer that comes within this many seconds is deferred knowing whether it is
# private (ephemeral "thinking…"); a slower one is deferred first, by the command's kind.
DEFER_AFTER = 1.5
SETTINGS_COMMAND = "settings"
# The commands that open or start a game in a channel, where the bot will post on its own.
GAME_OPENING = frozenset({NEW_COMMAND, "start"})
NO_SEND = N_(
    "I need the Send Messages permission in this channel to run a game here (and Attach "
    "Files for the board pictures)."
)
NO_FILES = N_(
    "I lack the Attach Files permission in this channel: the game goes on without the board "
    "pictures."
)
# On shutdown, interactions still in hand after this long are left (they are in the inbox).
STOP_GRACE = 1.0
# Where the global commands are offered when each server has its own set: DMs only.
DM_ONLY = app_commands.AppCommandContext(guild=False, dm_channel=True, private_channel=False)


def guild_settings_key(guild_id: int) -> str:
    """The settings row of a Discord server (its games); channels have their own rows."""
    return f"{KEY_PREFIX}guild:{guild_id}"


# --------------------------------------------------------------------------------------------
# The adapter: interactions in, Outbounds out
# --------------------------------------------------------------------------------------------


class DiscordAdapter(DiscordDelivery):
    """Turns interactions into Inbounds, and the table's Outbounds into Discord messages."""

    def __init__(
        self, client: discord.Client, table: TableService, clock: Clock | None = None
    ) -> None:
        self.client = client
        self.table = table
        self.clock: Clock = clock or time.time  # when interactions arrive (their tokens' life)
        # The channels (and threads) of each server that used the bot since the start: where
        # its tables may be (`BoardchatClient.games_changed`).
        self.channels: dict[int, set[int]] = {}
        self.in_hand: set[asyncio.Task[Any]] = set()  # handling an interaction (shutdown)
        # Interactions this process kept while the leftovers of the last run were still being
        # looked for (`handle_leftovers`, a task beside the live ones): not leftovers.
        self.kept_here: set[str] | None = set()

    # ---- inbound ----

    def received(self, interaction: discord.Interaction, kind: str, **what: Any) -> Received:
        """What the inbox keeps of `interaction` (see bot/platforms/discord_inbox.py)."""
        lang = interaction_lang(interaction)
        return received(interaction, kind, now=self.clock(), lang=lang, **what)

    def inbound_of(self, kept: Received, update_id: str, **where: Any) -> Inbound:
        return inbound_of(kept, update_id, self.channels, **where)

    def keeping(self, interaction: discord.Interaction, kept: Received) -> Any:
        """The interaction kept in the inbox while the block runs (`keeping`)."""
        closing = self.client.is_closed
        if self.kept_here is not None:
            self.kept_here.add(str(interaction.id))
        return keeping(self.table, str(interaction.id), kept, self.in_hand, closing)

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
    async def _defer(
        interaction: discord.Interaction, *, thinking: bool, ephemeral: bool = False
    ) -> bool:
        try:
            await interaction.response.defer(thinking=thinking, ephemeral=ephemeral)
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

    async def _answer_in_time(
        self, interaction: discord.Interaction, inbound: Inbound, private: bool
    ) -> tuple[list[Outbound] | None, bool | None]:
        """The table's answer, and how the interaction was deferred meanwhile: None when the
        table answered within DEFER_AFTER (the caller defers, knowing whether the answer is
        private), else the visibility guessed from the command (True: ephemeral)."""
        work = asyncio.ensure_future(self._handle(inbound))
        done, _ = await asyncio.wait({work}, timeout=DEFER_AFTER)
        if done:
            return work.result(), None
        await self._defer(interaction, thinking=True, ephemeral=private)
        return await work, private

    # ---- slash commands ----

    async def on_command(
        self, interaction: discord.Interaction, plan: CommandPlan, values: dict[str, Any]
    ) -> None:
        text = plan.text(values)
        wants_thread = plan.name == NEW_COMMAND and bool(values.get(THREAD_OPTION))
        kept = self.received(
            interaction, COMMAND, text=text, private=plan.private, thread=wants_thread
        )
        # In the inbox before it is deferred (bot/platforms/discord_inbox.py).
        async with self.keeping(interaction, kept):
            await self._command(interaction, plan, kept)

    async def _command(
        self, interaction: discord.Interaction, plan: CommandPlan, kept: Received
    ) -> None:
        lang = kept.lang
        here = chat_key(kept.channel_id)
        text = kept.text or ""
        thread: discord.Thread | None = None
        deferred: bool | None = None  # not yet; True: ephemerally, False: publicly
        lacking = missing_permission(interaction, plan.name, kept.thread)
        if lacking == NO_SEND:
            # The game would go on silently: reminders, bots' moves and the status message
            # are the bot's own posts (found: only the log said "refused for good ... 50013").
            if await self._defer(interaction, thinking=True, ephemeral=True):
                refusal = toast_pieces(i18n.tr(lang, lacking))
                await self._reply(interaction, public=[], private=refusal, ephemeral=True)
            return
        if kept.thread:
            if not await self._defer(interaction, thinking=True):
                return
            deferred = False
            thread = await self._create_thread(interaction, text)
            if thread is None:
                return
        chat = chat_key(thread.id) if thread else here
        inbound = self.inbound_of(kept, str(interaction.id), chat=chat, place=thread)
        if deferred is None:
            outbounds, deferred = await self._answer_in_time(interaction, inbound, plan.private)
        else:
            outbounds = await self._handle(inbound)
        if outbounds is None:
            if deferred is None and not await self._defer(
                interaction, thinking=True, ephemeral=True
            ):
                return
            sorry = toast_pieces(i18n.tr(lang, N_("Something went wrong. Please try again.")))
            await self._reply(interaction, public=[], private=sorry, ephemeral=bool(deferred))
            return
        public, private = await self._route(inbound, outbounds, here=here, thread=thread)
        if thread is not None:
            note = i18n.tr(lang, N_("The game is in {thread}."), thread=thread.mention)
            public = [*toast_pieces(note), *public]
        if lacking is not None:
            private = [*private, *toast_pieces(i18n.tr(lang, lacking))]
        if deferred is None:
            # Answered in time: "thinking…" only where the answer will be seen (issue 22).
            deferred = not public
            if not await self._defer(interaction, thinking=True, ephemeral=deferred):
                return
        # Public answers the follow-ups did not deliver: the sender loop's (after REPLY_HOLD).
        went = await self._reply(interaction, public=public, private=private, ephemeral=deferred)
        await taken(self.table, outbounds, here, public=went[0], user=_if(went[1], inbound))
        if plan.name == SETTINGS_COMMAND and interaction.guild_id and "games=" in text:
            games_changed = getattr(self.client, "games_changed", None)
            if games_changed is not None:
                await games_changed(interaction.guild_id, here)

    async def _create_thread(
        self, interaction: discord.Interaction, text: str
    ) -> discord.Thread | None:
        lang = interaction_lang(interaction)
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            message = N_("A game thread can only be started in a server's text channel.")
            await self._reply(interaction, public=[], private=toast_pieces(i18n.tr(lang, message)))
            return None
        game = " ".join(text.split()[1:]) or NEW_COMMAND
        name = shorten(f"{game} · {display_name(interaction.user)}", THREAD_NAME_LIMIT)
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
        kept = self.received(interaction, BUTTON, payload=payload)
        # In the inbox before it is deferred (bot/platforms/discord_inbox.py).
        async with self.keeping(interaction, kept):
            await self._button(interaction, kept)

    async def _button(self, interaction: discord.Interaction, kept: Received) -> None:
        # A deferred update: nothing visible changes until we answer.
        if not await self._defer(interaction, thinking=False):
            return
        lang = kept.lang
        inbound = self.inbound_of(kept, str(interaction.id))
        outbounds = await self._handle(inbound)
        if outbounds is None:
            message = i18n.tr(lang, N_("Something went wrong. Please try again."))
            await self._followups(interaction, toast_pieces(message), ephemeral=True)
            return
        public, private = await self._route(inbound, outbounds, here=inbound.chat_key)
        # After a deferred update each follow-up is a message of its own, public or ephemeral.
        delivered = await self._followups(interaction, public, ephemeral=False)
        told = await self._followups(interaction, private, ephemeral=True)
        user = _if(told, inbound)
        await taken(self.table, outbounds, inbound.chat_key, public=delivered, user=user)

    # ---- autocomplete ----

    async def complete(
        self,
        interaction: discord.Interaction,
        kind: str,
        current: str,
        repeated: bool,
        before: Sequence[str] = (),
    ) -> list[app_commands.Choice[str]]:
        chat = chat_key(interaction.channel_id or 0)
        user = user_key(interaction.user.id)
        try:
            free = parse_args_kind(kind)
            if free is not None and free[1] > 0 and before:
                # Free text continuing earlier options (/new powergrid map=u): completed
                # with their values in front, which the answers then leave out.
                return _choices(await self._complete_after(interaction, free[0], current, before))
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

    async def _complete_after(
        self, interaction: discord.Interaction, command: str, current: str, before: Sequence[str]
    ) -> list[str]:
        namespace = getattr(interaction, "namespace", None)
        words = [str(getattr(namespace, name, None) or "").strip() for name in before]
        if not all(words):
            return []
        head = " ".join(words)
        found = await self.table.complete(
            chat_key(interaction.channel_id or 0),
            user_key(interaction.user.id),
            args_kind(command),
            f"{head} {current.lstrip()}",
        )
        return [v[len(head) :].strip() for v in found if v.startswith(f"{head} ")]

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
        held: bool = True,
    ) -> tuple[list[Piece], list[Piece]]:
        """Split the table's answer: public pieces for this channel, private pieces for the
        user who acted (ephemeral: their private messages, replies only they need, toasts);
        everything else (other channels, other users' private messages) is sent right away.
        `held`: the acting user's private rows in the outbox are answered here too (False
        after a restart: the sender loop delivers them to his DMs)."""
        public: list[Piece] = []
        private: list[Piece] = []
        ours = {here, inbound.chat_key}
        for out in outbounds:
            # The acting user's own private lines: the interaction's ephemeral follow-ups (the
            # table holds their rows back as it holds the public ones; `taken` marks them),
            # not his DMs, which may be closed (found: 9 notices in one turn).
            own = own_private(out, inbound.user_key) and held
            if (
                out.outbox_id is not None
                and not own
                and (out.private_to is not None or out.chat_key != here or out.render is not None)
            ):
                continue  # in the outbox, held for nobody: the sender loop delivers it
            if out.outbox_id is not None and (out.picture is not None or out.status_of is not None):
                continue  # a picture to draw, the status message to edit: the sender loop's
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
        self,
        interaction: discord.Interaction,
        *,
        public: list[Piece],
        private: list[Piece],
        ephemeral: bool = False,
    ) -> tuple[bool, bool]:
        """Answer a deferred command. The first follow-up replaces the "thinking…" message and
        takes its visibility. Deferred publicly: public pieces first; with nothing public the
        thinking message is deleted and the private pieces follow as ephemeral messages.
        Deferred ephemerally (a private answer was expected): private pieces as follow-ups,
        anything public posted to the channel itself. Whether the public pieces went out, and
        whether the private ones did."""
        delivered = True
        if ephemeral:
            if public and interaction.channel is not None:
                channel: Any = interaction.channel
                delivered = await self._send_pieces(channel, public, str(interaction.channel_id))
            told = True
            if private:
                told = await self._followups(interaction, private, ephemeral=True)
            else:
                await self._delete_thinking(interaction)
            return delivered, told
        if public:
            delivered = await self._followups(interaction, public, ephemeral=False)
        else:
            await self._delete_thinking(interaction)
        told = await self._followups(interaction, private, ephemeral=True)
        return delivered, told

    @staticmethod
    async def _delete_thinking(interaction: discord.Interaction) -> None:
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as exc:
            log.warning(
                "discord: could not delete the thinking message of %s: %s", interaction.id, exc
            )

    async def _followups(
        self, interaction: discord.Interaction, items: list[Piece], *, ephemeral: bool
    ) -> bool:
        """Send the pieces as follow-ups; whether they all went out."""
        sent = True
        for piece in items:
            try:
                await interaction.followup.send(ephemeral=ephemeral, **piece.kwargs())
            except discord.HTTPException as exc:
                sent = False
                log.error(
                    "discord: follow-up to interaction %s in channel %s failed: %s",
                    interaction.id,
                    interaction.channel_id,
                    exc,
                )
        return sent


def missing_permission(
    interaction: discord.Interaction, command: str, thread: bool = False
) -> str | None:
    """At /new and /start in a server's channel: NO_SEND when the bot may not post there (in
    the game's thread, for `thread`); at /new, NO_FILES when it may not attach the board
    pictures (the interaction's `app_permissions`, the bot's in that channel); else None."""
    if command not in GAME_OPENING or interaction.guild_id is None:
        return None
    allowed = interaction.app_permissions
    if thread:
        may_send = allowed.send_messages_in_threads and allowed.create_public_threads
    elif isinstance(interaction.channel, discord.Thread):
        may_send = allowed.send_messages_in_threads
    else:
        may_send = allowed.send_messages
    if not may_send:
        return NO_SEND
    if allowed.attach_files or command != NEW_COMMAND:
        # Attach Files is told once privately, at /new, while the lobby leaves time to grant
        # it. At /start the first picture's refusal brings the channel its own note at the
        # same moment (bot/outbox.py PicturesRefused): a private copy too made three notes.
        return None
    return NO_FILES


def _if(told: bool, inbound: Inbound) -> str | None:
    """The acting user, whose own private rows count as delivered when `told` (they went out
    as the interaction's ephemeral follow-ups)."""
    return inbound.user_key if told else None


# --------------------------------------------------------------------------------------------
# The client
# --------------------------------------------------------------------------------------------


class BoardchatClient(discord.AutoShardedClient):
    """discord.Client with the generated command tree, the button handler and the table.

    With a table that knows its games' commands apart (`game_command_specs`), each server gets
    the table's commands plus those of the games enabled there (`/settings games=...`, all by
    default), synced to it as guild commands; the global commands (every game) are offered in
    DMs only. Otherwise one global command set serves everywhere.
    """

    def __init__(
        self,
        table: TableService,
        settings: Settings,
        *,
        sync_commands: bool = True,
        clock: Clock | None = None,
    ) -> None:
        super().__init__(
            # Slash commands and buttons need no privileged intent; "guilds" keeps channels and
            # threads cached so unsolicited messages rarely need a fetch.
            intents=discord.Intents(guilds=True),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **discord_shard_options(settings),  # this worker's slice (DISCORD_SHARD_IDS)
            enable_debug_events=True,  # on_socket_raw_receive: gateway heartbeats (health)
        )
        self.table = table
        self.settings = settings
        self.sync_on_start = sync_commands
        self.adapter = DiscordAdapter(self, table, clock)
        self.leftovers: asyncio.Task[int] | None = None
        self.tree = BoardchatTree(self)
        self.per_game = all(
            callable(getattr(table, name, None))
            for name in ("game_command_specs", "table_command_specs", "enabled_games")
        )
        self._commands: dict[tuple[CommandPlan, bool], app_commands.Command[Any, ..., Any]] = {}
        self.plans = self.plans_for(None)
        for plan in self.plans:
            self.tree.add_command(self._command(plan, dm_only=self.per_game))
        self.add_dynamic_items(TableButton)

    def plans_for(self, games: Sequence[str] | None) -> list[CommandPlan]:
        """The slash commands for `games` (None: every game)."""
        if not self.per_game:
            return plan_commands(self.table.command_specs())
        table: Any = self.table
        specs = table.game_command_specs()
        chosen = list(specs) if games is None else list(games)
        return plan_command_set(table.table_command_specs(), specs, chosen)

    def _command(self, plan: CommandPlan, *, dm_only: bool) -> app_commands.Command[Any, ..., Any]:
        key = (plan, dm_only)
        command = self._commands.get(key)
        if command is None:
            contexts = DM_ONLY if dm_only else None
            command = self._commands[key] = make_command(self.adapter, plan, contexts)
        return command

    @property
    def guild(self) -> discord.Object | None:
        gid = self.settings.discord_guild_id.strip()
        return discord.Object(id=int(gid)) if gid.isdigit() else None

    async def close(self) -> None:
        """Stop: interactions in hand get STOP_GRACE to finish, the rest (and those kept before
        a crash, still being handled) stay in the inbox for the restart."""
        if self.leftovers is not None and not self.leftovers.done():
            self.leftovers.cancel()
        await stop_handling(self.adapter.in_hand, STOP_GRACE)
        await super().close()

    async def on_socket_raw_receive(self, msg: str) -> None:
        beat("discord")  # any gateway message, the heartbeat ACKs included (bot/health.py)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(I18nTranslator())
        self.table.register_sender(PLATFORM, self.adapter.send)
        # A command's public answers go out as the interaction's follow-ups: the table holds
        # their outbox rows back from the sender loop that long (bot/outbox.py).
        sender = self.table.register_delivery(
            PLATFORM, self.adapter.deliver, hold_replies=REPLY_HOLD
        )
        self.adapter.outbox = sender if isinstance(sender, OutboxSender) else None  # not a fake's
        # Interactions kept before a crash or a stop: handled once, beside the new ones.
        self.leftovers = asyncio.ensure_future(handle_leftovers(self.adapter))
        if self.sync_on_start:
            await self.sync_commands()

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Publish the slash commands: to DISCORD_GUILD_ID at once when set, else globally
        (and, per game, to each server as it becomes available)."""
        guild = self.guild
        if self.per_game and guild is not None:
            return await self.sync_guild(guild.id)
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

    async def sync_guild(self, guild_id: int) -> list[app_commands.AppCommand]:
        """Publish to one server the table's commands and those of its enabled games."""
        table: Any = self.table
        games = await table.enabled_games(guild_settings_key(guild_id))
        guild = discord.Object(id=guild_id)
        self.tree.clear_commands(guild=guild)
        plans = self.plans_for(games)
        for plan in plans:
            self.tree.add_command(self._command(plan, dm_only=False), guild=guild)
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.HTTPException as exc:
            log.error(
                "discord: syncing %d commands to guild %s failed: %s", len(plans), guild_id, exc
            )
            return []
        log.info(
            "discord: %d slash commands (games %s) synced to guild %s",
            len(synced),
            ",".join(games),
            guild_id,
        )
        return synced

    async def games_changed(self, guild_id: int, chat: str) -> None:
        """/settings games=... in a server's channel: the server offers those games, and those
        of the tables running in its other channels."""
        if not self.per_game:
            return
        table: Any = self.table
        games = tuple(await table.enabled_games(chat))
        # A table running in another channel keeps its game's commands (issue 22).
        guild = self.get_guild(guild_id)
        places = set(self.adapter.channels.get(guild_id, ()))
        if guild is not None:
            places |= {c.id for c in (*guild.text_channels, *guild.threads)}
        opened = getattr(table, "open_games", None)
        if callable(opened):
            running = await opened([chat_key(c) for c in sorted(places)])
            games += tuple(dict.fromkeys(g for g in running.values() if g not in games))
        if games != tuple(await table.enabled_games(guild_settings_key(guild_id))):
            await table.enable_games(guild_settings_key(guild_id), games)
            await self.sync_guild(guild_id)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        if self.per_game and self.sync_on_start and self.guild is None:
            await self.sync_guild(guild.id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.on_guild_available(guild)


def build_client(
    table: TableService,
    settings: Settings,
    *,
    sync_commands: bool = True,
    clock: Clock | None = None,
) -> BoardchatClient:
    return BoardchatClient(table, settings, sync_commands=sync_commands, clock=clock)


async def serve(table: TableService, settings: Settings) -> None:
    """Run the Discord bot until cancelled (or the connection is closed for good)."""
    if not settings.discord_token:
        raise ValueError("DISCORD_TOKEN is not set")
    client = build_client(table, settings)
    try:
        async with client:
            await client.start(settings.discord_token)
    except discord.LoginFailure:
        raise PlatformError(
            "Discord rejected DISCORD_TOKEN (copy it again from the developer portal)",
            config=True,
        ) from None
    except (OSError, aiohttp.ClientError) as err:
        raise PlatformError(f"cannot reach Discord: {err}", config=False) from None
