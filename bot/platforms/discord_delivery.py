"""The Discord adapter's delivery (bot/platforms/discord_bot.py): the table's unsolicited
messages (`send`), the outbox sender loop's (`deliver`: a message id, or RetryLater /
Undeliverable / DmClosed), edits and unpins of the status message, and the note in the channel
when a player's DMs are closed."""

from __future__ import annotations

import logging
from dataclasses import replace

import discord

from bot import i18n
from bot.messages import Outbound
from bot.outbox import DmClosed, OutboxSender, PicturesRefused, RetryLater, Undeliverable
from bot.platforms.discord_commands import key_id
from bot.platforms.discord_inbox import display_name
from bot.platforms.discord_pieces import Piece, edit_piece, edit_private, pieces, send_all
from engine.core.errors import N_

# Discord's code for a DM the person does not accept ("Cannot send messages to this user").
DMS_CLOSED_CODE = 50007

log = logging.getLogger(__name__)


def _dm_closed(mention: str, lang: str | None) -> str:
    """The public note asking a user whose DMs are closed to open them, in the language of
    the private message it stands for (its reader's)."""
    return i18n.tr(
        lang,
        N_(
            "{mention}, I could not send you a private message. Please allow direct "
            "messages from this server's members."
        ),
        mention=mention,
    )


def _no_files_note(lang: str | None) -> str:
    """The channel's note, once, when its first picture is refused (bot/outbox.py)."""
    return i18n.tr(
        lang,
        N_(
            "I may not attach files in this channel, so the board pictures come as their "
            "captions alone. A server admin can give me the Attach Files permission here to "
            "bring them back; /settings pictures=off leaves them out."
        ),
    )


def without_files(items: list[Piece]) -> list[Piece]:
    """The pieces without their pictures and files; those left with nothing to say dropped."""
    bare = [replace(p, png=None, attachment=None, album=[]) for p in items]
    return [p for p in bare if p.content.strip() or p.view is not None]


class DiscordDelivery:
    """Sending and editing Discord messages for the adapter (which inherits this)."""

    client: discord.Client
    # the table's sender loop for Discord, once set up: its memory of refused DMs
    outbox: OutboxSender | None = None

    async def _send_pieces(
        self, target: discord.abc.Messageable, items: list[Piece], context: str
    ) -> bool:
        """Send the pieces in order; False (logged) at the first failure."""
        for piece in items:
            try:
                await target.send(**piece.kwargs())
            except discord.HTTPException as exc:
                # a person's closed DMs are his setting, not the bot's failure (the channel is
                # told, `_dm_refused`): no ERROR in the admin's log for it
                level = logging.INFO if exc.code == DMS_CLOSED_CODE else logging.ERROR
                log.log(level, "discord: sending to %s failed: %s", context, exc)
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
            if self.outbox is not None and await self.outbox.dm_known_refused(out.private_to):
                # as the sender loop fails his rows unsent and Telegram's immediate answers
                # skip him: a refusal the channel was told of is not met again (his next
                # interaction with the bot lifts it, bot/outbox.py)
                log.info("discord: %s does not accept private messages (known)", out.private_to)
                return
            user: discord.abc.User | None = None
            try:
                user = self.client.get_user(uid) or await self.client.fetch_user(uid)
                sent = await self._send_pieces(user, items, f"DM {out.private_to}")
            except discord.HTTPException as exc:
                log.warning("discord: cannot reach user %s: %s", out.private_to, exc)
                sent = False
            if not sent:
                await self._dm_refused(out, user)
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
                user = self.client.get_user(uid) or await self.client.fetch_user(uid)
                if out.edit_of is not None:  # a folded acknowledgement (bot/outbox.py)
                    return await edit_private(user, out.edit_of, items)
                try:
                    return await self._send_all(user, items)
                except discord.Forbidden as exc:
                    # Remembered by the sender loop, which posts the mention once.
                    raise DmClosed(f"Forbidden: {exc}", self._dm_note(out, user)) from exc
            cid = key_id(out.chat_key)
            if cid is None:
                raise Undeliverable(f"not a Discord channel: {out.chat_key}")
            channel = self.client.get_channel(cid) or await self.client.fetch_channel(cid)
            if not isinstance(channel, discord.abc.Messageable):
                raise Undeliverable(f"channel {out.chat_key} does not take messages")
            if out.edit_of is not None:
                edited = await self._edit(channel, out.edit_of, items[-1])
                if out.unpin:  # the game is over (issue 17)
                    await self._unpin(channel, edited)
                return edited
            pin = out.pin and not out.unpin
            try:
                return await self._send_all(channel, items, reply_to=out.reply_to, pin=pin)
            except discord.Forbidden as exc:
                # Without Attach Files a post with a picture is refused (50013): the sender
                # loop posts its text alone and remembers the channel (a text refused too is
                # refused then). Nothing went: a picture's caption is one piece (MAX_CAPTION).
                if without_files(items) == items:
                    raise
                note = Outbound(out.chat_key, _no_files_note(out.lang), silent=True, lang=out.lang)
                raise PicturesRefused(f"Forbidden: {exc}", note) from exc
        except (discord.Forbidden, discord.NotFound) as exc:
            raise Undeliverable(f"{type(exc).__name__}: {exc}") from exc
        except discord.HTTPException as exc:
            wait = float(getattr(exc, "retry_after", 0.0) or 5.0)
            raise RetryLater(wait, f"HTTP {exc.status}: {exc}") from exc
        except (OSError, TimeoutError) as exc:
            raise RetryLater(5.0, repr(exc)) from exc

    async def _send_all(
        self,
        target: discord.abc.Messageable,
        items: list[Piece],
        *,
        reply_to: str | None = None,
        pin: bool = False,
    ) -> str | None:
        return await send_all(target, items, reply_to=reply_to, pin=pin)

    async def _edit(self, channel: discord.abc.Messageable, message_id: str, piece: Piece) -> str:
        return await edit_piece(channel, message_id, piece)

    @staticmethod
    async def _unpin(channel: discord.abc.Messageable, message_id: str) -> None:
        """Unpin the status message of a game that ended; without the permission, leave it."""
        partial = getattr(channel, "get_partial_message", None)
        if partial is None or not message_id.isdigit():
            return
        try:
            await partial(int(message_id)).unpin()
        except discord.HTTPException as exc:
            log.info("discord: cannot unpin %s: %s", message_id, exc)

    @staticmethod
    def _dm_note(out: Outbound, user: discord.abc.User | None) -> Outbound | None:
        """The public mention asking a user whose DMs are closed to open them."""
        if key_id(out.chat_key) is None or out.private_to is None:
            return None
        name = dict(out.mentions).get(out.private_to)
        name = name or (display_name(user) if user is not None else str(key_id(out.private_to)))
        text = _dm_closed(f"@{name}", out.lang)
        return Outbound(out.chat_key, text, mentions=[(out.private_to, name)])

    async def _dm_refused(self, out: Outbound, user: discord.abc.User | None) -> None:
        """A private message could not be delivered (DMs closed): the chat is told, without
        the private content, so the player knows to open their DMs. With the table's sender
        loop as its own refusals are (bot/outbox.py `tell_dm_refused`): remembered, and the
        note an outbox row written with the stored refusal, once; else posted now."""
        assert out.private_to is not None
        refused = DmClosed("Forbidden or unreachable", self._dm_note(out, user))
        if self.outbox is not None:
            await self.outbox.tell_dm_refused(out.private_to, out.chat_key, refused)
            return
        if refused.fallback is None:
            return
        channel = await self._channel(out.chat_key)
        if channel is not None:
            await self._send_pieces(channel, pieces(refused.fallback), out.chat_key)
