"""Discord interactions' way into the table's inbox (issue 16).

Discord hands an interaction over once, over the gateway, and never again: a slash command or
a button press is kept in the inbox (`TableService.keep_update`, keyed by the interaction id,
the same `(platform, update_id)` de-duplication as Telegram's updates) before the adapter
acknowledges it (defers), and marked handled once it is answered. The row holds everything
needed to handle it without the live `discord.Interaction`: the command text or the button's
payload, who, where, in which language, whether the answer is private, and the interaction's
token and application id, with which the answer can still be sent as a follow-up after a
restart while the token lives (15 minutes); later, the answer goes to the channel (the private
part to the user's DMs).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any

import discord
from discord.webhook.async_ import async_context

from bot import i18n
from bot.messages import Inbound, Outbound
from bot.platforms.discord_commands import (
    NEW_COMMAND,
    PLATFORM,
    THREAD_NAME_LIMIT,
    channel_name,
    chat_key,
    shorten,
    user_key,
)
from bot.platforms.discord_pieces import Piece, toast_pieces
from bot.service import TableService
from engine.core.errors import N_

if TYPE_CHECKING:
    from bot.platforms.discord_bot import DiscordAdapter

log = logging.getLogger(__name__)

Clock = Callable[[], float]

COMMAND = "command"
BUTTON = "button"
# Discord's interaction tokens live 15 minutes; a follow-up is not tried in the last minute.
TOKEN_LIFE = 15 * 60.0
TOKEN_MARGIN = 60.0


@dataclass(frozen=True)
class Received:
    """An interaction as kept in the inbox (its id is the row's update id)."""

    kind: str  # COMMAND or BUTTON
    user_id: int
    user_name: str
    channel_id: int
    guild_id: int | None
    guild_name: str | None
    channel_name: str | None
    lang: str | None
    is_admin: bool
    application_id: int
    token: str
    received_at: float
    text: str | None = None  # a command, rebuilt as chat text ("/bid 13 20")
    payload: str | None = None  # a button's table payload
    private: bool = False  # the answer is expected to be private (an ephemeral deferral)
    thread: bool = False  # /new thread=True: the game opens in a new thread
    # the bot's Attach Files in the channel (the interaction's app permissions); None in a DM
    files_allowed: bool | None = None

    def dump(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def load(cls, raw: str) -> Received:
        """The kept interaction; ValueError when the row is not one."""
        data = json.loads(raw)
        if not isinstance(data, dict) or data.get("kind") not in (COMMAND, BUTTON):
            raise ValueError(f"not a kept Discord interaction: {raw[:100]!r}")
        known = {f.name for f in fields(cls)}
        try:
            return cls(**{k: v for k, v in data.items() if k in known})
        except TypeError as exc:
            raise ValueError(str(exc)) from exc

    def token_alive(self, now: float) -> bool:
        """Whether a follow-up through the interaction's webhook may still be sent."""
        return bool(self.token) and now - self.received_at < TOKEN_LIFE - TOKEN_MARGIN


def _is_admin(interaction: discord.Interaction) -> bool:
    if interaction.guild_id is None:
        return True  # a DM: the user is the whole chat
    perms = interaction.permissions
    return bool(perms.administrator or perms.manage_guild)


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def received(
    interaction: discord.Interaction,
    kind: str,
    *,
    now: float,
    lang: str | None,
    text: str | None = None,
    payload: str | None = None,
    private: bool = False,
    thread: bool = False,
) -> Received:
    """What is kept of `interaction` (a command's text or a button's payload)."""
    guild: Any = getattr(interaction, "guild", None)
    channel: Any = getattr(interaction, "channel", None)
    app_id = getattr(interaction, "application_id", None)
    allowed = getattr(interaction, "app_permissions", None)
    files = bool(allowed.attach_files) if allowed is not None and interaction.guild_id else None
    return Received(
        kind=kind,
        user_id=interaction.user.id,
        user_name=display_name(interaction.user),
        channel_id=interaction.channel_id or 0,
        guild_id=interaction.guild_id,
        guild_name=getattr(guild, "name", None),
        channel_name=getattr(channel, "name", None),
        lang=lang,
        is_admin=_is_admin(interaction),
        application_id=int(app_id or 0),
        token=str(getattr(interaction, "token", "") or ""),
        received_at=now,
        text=text,
        payload=payload,
        private=private,
        thread=thread,
        files_allowed=files,
    )


def inbound_of(
    kept: Received,
    update_id: str,
    channels: dict[int, set[int]],
    *,
    chat: str | None = None,
    place: Any = None,
) -> Inbound:
    """The table's Inbound for a kept interaction (`place`: the thread a game was just opened
    in; by default the interaction's own channel). `channels` learns where a server's tables
    may be."""
    if kept.guild_id is not None:
        seen = channels.setdefault(kept.guild_id, set())
        seen.update(c for c in (kept.channel_id, getattr(place, "id", None)) if c)
    title, link = channel_name(
        kept.guild_id,
        kept.guild_name,
        getattr(place, "id", None) or kept.channel_id,
        getattr(place, "name", None) if place is not None else kept.channel_name,
    )
    return Inbound(
        platform=PLATFORM,
        chat_key=chat or chat_key(kept.channel_id),
        user_key=user_key(kept.user_id),
        display_name=kept.user_name,
        lang=kept.lang,
        update_id=update_id,
        text=kept.text,
        payload=kept.payload,
        is_admin=kept.is_admin,
        is_private=kept.guild_id is None,
        chat_title=title,
        chat_link=link,
        files_allowed=kept.files_allowed,
    )


@contextlib.asynccontextmanager
async def keeping(
    table: TableService,
    update_id: str,
    kept: Received,
    in_hand: set[asyncio.Task[Any]],
    closing: Callable[[], bool],
) -> AsyncIterator[None]:
    """Keep an interaction in the inbox before it is acknowledged; it is handled when the
    block ends (an error too: it is not replayed), not when cancelled or failing because the
    client is closing (a shutdown, `stop_handling`: it is handled again after the restart,
    `handle_leftovers`). `in_hand`: the tasks handling interactions, for the shutdown."""
    await table.keep_update(PLATFORM, update_id, kept.dump())
    task = asyncio.current_task()
    if task is not None:
        in_hand.add(task)
    try:
        yield
    except Exception:
        if not closing():
            await table.update_done(PLATFORM, update_id)
        raise
    finally:
        if task is not None:
            in_hand.discard(task)
    await table.update_done(PLATFORM, update_id)


async def stop_handling(in_hand: set[asyncio.Task[Any]], grace: float) -> None:
    """At shutdown: the interactions in hand get `grace` seconds to finish (the transaction in
    hand with them); the rest are cancelled and stay in the inbox for the restart."""
    pending = {t for t in in_hand if not t.done() and t is not asyncio.current_task()}
    if pending:
        _, pending = await asyncio.wait(pending, timeout=grace)
    for task in pending:
        task.cancel()
    if pending:
        log.warning("discord: %d interactions in hand at shutdown; left in the inbox", len(pending))
        await asyncio.wait(pending, timeout=grace)


def own_private(out: Outbound, user: str) -> bool:
    """A private line of the table's answer for the user who acted, which the interaction's
    ephemeral follow-ups carry (a picture to draw or a status to edit stays the sender
    loop's)."""
    return (
        out.private_to is not None
        and out.private_to == user
        and out.render is None
        and out.picture is None
        and out.status_of is None
    )


async def taken(
    table: TableService,
    outbounds: list[Outbound],
    here: str,
    *,
    public: bool = True,
    user: str | None = None,
) -> None:
    """The outbox rows an interaction's follow-ups delivered: marked sent (the table held them
    back from the sender loop for a while; had we crashed, the loop sends them): the public
    answers in `here` when `public` went out, `user`'s own private lines when given."""
    for out in outbounds:
        if out.outbox_id is None:
            continue
        # his own lines: private to him, or a reply only he needs in this very chat (a move
        # sent in his DM with the bot: "Done in …"), which the follow-up carried; unmarked,
        # the sender loop posted it in the DM too (found testing Discord, 2026-12-05)
        mine = user is not None and (
            own_private(out, user)
            or (
                out.sender_only
                and out.private_to is None
                and out.chat_key == here
                and out.render is None
                and out.picture is None
                and out.status_of is None
            )
        )
        answer = (
            public
            and out.private_to is None
            and out.chat_key == here
            and out.render is None
            and out.picture is None
            and out.status_of is None
        )
        if mine or answer:
            await table.delivered(out.outbox_id, None)


def webhook_of(kept: Received, client: discord.Client) -> discord.Webhook:
    """The interaction's webhook, as `discord.Interaction.followup` builds it: follow-ups
    (ephemeral ones too) and the deferred "thinking…" message."""
    data: Any = {"id": kept.application_id, "type": 3, "token": kept.token}
    return discord.Webhook.from_state(data=data, state=client._connection)


# --------------------------------------------------------------------------------------------
# After a restart: the kept interactions nobody answered
# --------------------------------------------------------------------------------------------


async def handle_leftovers(adapter: DiscordAdapter) -> int:
    """Handle, once, the interactions kept before a crash or a stop and not handled: the
    table's `(platform, update_id)` de-duplication keeps a move that was already committed from
    being applied again (its messages are in the outbox). How many there were. It runs beside
    the live interactions: one this process kept meanwhile (`kept_here`) is in hand, not left
    over (found by a test that failed under load: a /new refused twice, once live and once as
    a leftover)."""
    table = adapter.table
    left = await table.pending_updates(PLATFORM)
    mine = adapter.kept_here or set()
    handled = 0
    for update_id, raw in left:
        if update_id in mine:
            continue
        try:
            kept = Received.load(raw)
        except ValueError:
            log.exception("discord: kept interaction %s does not load; skipped", update_id)
            await table.update_done(PLATFORM, update_id)
            continue
        if not ours(adapter.client, kept):
            continue  # another worker's shard: that worker handles it at its start
        handled += 1
        try:
            await handle_kept(adapter, update_id, kept)
        except Exception:
            log.exception("discord: kept interaction %s failed after the restart", update_id)
        await table.update_done(PLATFORM, update_id)
    adapter.kept_here = None  # the leftovers are done: nothing more to tell apart
    if handled:
        log.info("discord: %d interactions kept before the restart handled", handled)
    return handled


def ours(client: discord.Client, kept: Received) -> bool:
    """Whether the interaction came through one of this process's shards (all of them unless
    the bot runs as several workers, DISCORD_SHARD_IDS): a server's events go to shard
    (guild_id >> 22) % shard_count, direct messages to shard 0."""
    count = getattr(client, "shard_count", None)
    ids = getattr(client, "shard_ids", None)
    if not count or ids is None:
        return True
    shard = (kept.guild_id >> 22) % count if kept.guild_id else 0
    return shard in ids


async def handle_kept(adapter: DiscordAdapter, update_id: str, kept: Received) -> None:
    """One kept interaction, without its live `discord.Interaction`: the table's answer goes
    out through the interaction's webhook while its token lives, else to the channel (the
    private part to the user's DMs)."""
    here = chat_key(kept.channel_id)
    thread = await _thread(adapter, kept) if kept.thread else None
    if kept.thread and thread is None:
        message = N_("I could not create a thread here (I need Create Public Threads).")
        await answer_later(adapter, kept, [], toast_pieces(i18n.tr(kept.lang, message)))
        return
    chat = chat_key(thread.id) if thread is not None else here
    inbound = adapter.inbound_of(kept, update_id, chat=chat, place=thread)
    outbounds = await adapter._handle(inbound)
    if outbounds is None:
        sorry = toast_pieces(i18n.tr(kept.lang, N_("Something went wrong. Please try again.")))
        await answer_later(adapter, kept, [], sorry)
        return
    public, private = await adapter._route(inbound, outbounds, here=here, thread=thread, held=False)
    if thread is not None:
        note = i18n.tr(kept.lang, N_("The game is in {thread}."), thread=thread.mention)
        public = [*toast_pieces(note), *public]
    if await answer_later(adapter, kept, public, private):
        await taken(adapter.table, outbounds, here)  # else the sender loop delivers them


async def _thread(adapter: DiscordAdapter, kept: Received) -> discord.Thread | None:
    """The thread a kept `/new thread=True` opens its game in (created now)."""
    channel = await adapter._channel(chat_key(kept.channel_id))
    if not isinstance(channel, discord.TextChannel):
        return None
    game = " ".join((kept.text or "").split()[1:]) or NEW_COMMAND
    try:
        return await channel.create_thread(
            name=shorten(f"{game} · {kept.user_name}", THREAD_NAME_LIMIT),
            type=discord.ChannelType.public_thread,
            reason=f"boardchat: /new by {kept.user_id}",
        )
    except discord.HTTPException as exc:
        log.error("discord: could not create a thread in channel %s: %s", channel.id, exc)
        return None


async def answer_later(
    adapter: DiscordAdapter, kept: Received, public: list[Piece], private: list[Piece]
) -> bool:
    """Answer a kept interaction after a restart. While its token lives: a command's
    "thinking…" message is deleted first (so that each follow-up is a message of its own, with
    its own visibility), then the public pieces follow publicly and the private ones
    ephemerally. What the webhook does not take (the token expired, the interaction was never
    acknowledged) goes to the channel, and the private pieces to the user's DMs. Whether the
    public pieces went out."""
    if kept.token_alive(adapter.clock()):
        hook = webhook_of(kept, adapter.client)
        if kept.kind != COMMAND or await _delete_thinking(hook, kept):
            public = await _follow(hook, public, ephemeral=False)
            private = await _follow(hook, private, ephemeral=True) if not public else private
    delivered = True
    if public:
        channel = await adapter._channel(chat_key(kept.channel_id))
        delivered = channel is not None and await adapter._send_pieces(
            channel, public, chat_key(kept.channel_id)
        )
    if private:
        try:
            user = adapter.client.get_user(kept.user_id) or await adapter.client.fetch_user(
                kept.user_id
            )
        except discord.HTTPException as exc:
            log.warning("discord: cannot reach user %s: %s", kept.user_id, exc)
            return delivered
        await adapter._send_pieces(user, private, f"DM {kept.user_id}")
    return delivered


async def _delete_thinking(hook: discord.Webhook, kept: Received) -> bool:
    """Delete a command's deferred "thinking…" message; False when the webhook refuses (the
    interaction was never acknowledged, or its token is gone)."""
    http = hook._state.http if hook._state is not None else None
    try:
        await async_context.get().delete_original_interaction_response(
            kept.application_id,
            kept.token,
            session=hook.session,
            proxy=getattr(http, "proxy", None),
            proxy_auth=getattr(http, "proxy_auth", None),
        )
    except discord.NotFound:
        return True  # no "thinking…" message (answered already, or deleted): follow-ups work
    except discord.HTTPException as exc:
        log.info("discord: interaction %s no longer answerable: %s", kept.token[:8], exc)
        return False
    return True


async def _follow(hook: discord.Webhook, items: list[Piece], *, ephemeral: bool) -> list[Piece]:
    """Send the pieces as follow-ups, in order; those not sent (at the first refusal)."""
    for i, piece in enumerate(items):
        try:
            await hook.send(ephemeral=ephemeral, **piece.kwargs())
        except discord.HTTPException as exc:
            log.info("discord: follow-up after the restart refused: %s", exc)
            return items[i:]
    return []
