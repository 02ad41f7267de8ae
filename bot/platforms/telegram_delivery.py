"""Telegram's way out: an `Outbound` as Bot API calls (a message, an edit of the live status
message, a pin, a photo, a picture set, a file), and the delivery errors as the outbox's sender
loop reads them (bot/outbox.py). Kept apart from the adapter (bot/platforms/telegram.py), which
receives and answers updates; `TelegramAdapter` is this class with its inbound half."""

from __future__ import annotations

import html
import logging
from collections import OrderedDict
from dataclasses import replace
from datetime import timedelta
from typing import Any

from telegram import InputMediaPhoto, LinkPreviewOptions, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
)
from telegram.ext import Application

from bot.i18n import tr
from bot.messages import Outbound
from bot.outbox import (
    DmClosed,
    MessageGone,
    OutboxSender,
    PicturesRefused,
    RetryLater,
    Undeliverable,
    has_pictures,
)
from bot.platforms.telegram_format import (
    MESSAGE_LIMIT,
    format_text,
    keyboard,
    parse_chat_key,
    parse_user_key,
    split_text,
)
from bot.settings import Settings
from engine.core.errors import N_

log = logging.getLogger("bot.platforms.telegram")  # one logger for the adapter's two halves

CAPTION_LIMIT = 1024
# The group's notice for a player the bot cannot reach privately, in his language.
NOT_STARTED = N_(
    "@{name}, I cannot message you privately. Open a chat with @{bot} and press Start."
)
BLOCKED = N_(
    "@{name}, you have blocked me, so I cannot message you privately. Unblock @{bot} to get "
    "your prompts and private answers again."
)
MEDIA_GROUP_LIMIT = 10  # photos in one sendMediaGroup
# A network error while delivering from the outbox: try that chat again after this long.
NETWORK_RETRY = 5.0


def _media_refused(error: BadRequest) -> bool:
    """Telegram's answer to a photo, album, document or animation in a group whose members may
    send text only: "not enough rights to send photos to the chat"."""
    reason = error.message.casefold()
    return "not enough rights to send" in reason and "text" not in reason


def _no_media_note(lang: str | None) -> str:
    """The group's note, once, when its first picture is refused (bot/outbox.py)."""
    return tr(
        lang,
        N_(
            "I may not send photos in this group, so the board pictures come as their captions "
            "alone. A group admin can allow me to send photos (or make me an admin) to bring "
            "them back; /settings pictures=off leaves them out."
        ),
    )


def _private_chat_unreachable(error: TelegramError) -> bool:
    """The user never pressed Start in a private chat with the bot (or blocked it)."""
    if isinstance(error, Forbidden):
        return True
    return isinstance(error, BadRequest) and "chat not found" in error.message.lower()


class TelegramDelivery:
    """Sends `Outbound`s through `bot`, the Bot of the Application it is attached to (the
    adapter sets `application` at start-up); `_names` remembers display names for the notice
    to a player whose private chat is closed."""

    settings: Settings
    application: Application[Any, Any, Any, Any, Any, Any] | None
    _names: OrderedDict[str, str]
    # the table's sender loop for Telegram, once set up: its memory of refused DMs
    outbox: OutboxSender | None = None

    @property
    def bot(self) -> Any:
        if self.application is None:
            raise RuntimeError("TelegramAdapter is not attached to an Application")
        return self.application.bot

    # ---- messages out

    async def send(self, out: Outbound) -> None:
        """Deliver one Outbound right away (an immediate answer). Logs failures; never raises."""
        error = await self._try_send(out)
        if error is not None:
            log.warning("telegram: could not send to %s: %s", out.private_to or out.chat_key, error)

    async def _try_send(self, out: Outbound) -> Exception | None:
        """Deliver one Outbound right away; the Bot API's error, if any (not logged). A
        private one meets the sender loop's memory of refused DMs (bot/outbox.py): not tried
        for a player whose DMs are known refused, and the group told of a refusal once, by a
        note the sender loop delivers (an outbox row written with the stored refusal)."""
        memory = self.outbox
        if out.private_to and memory is not None and await memory.dm_known_refused(out.private_to):
            log.info("telegram: %s does not accept private messages (known)", out.private_to)
            return None
        try:
            await self._send(out)
        except DmClosed as closed:
            log.info("telegram: %s does not accept private messages: %s", out.private_to, closed)
            if memory is not None:  # the note queued with the stored refusal, as the loop's
                await memory.tell_dm_refused(out.private_to or "", out.chat_key, closed)
            elif closed.fallback is not None:
                return await self._try_send(closed.fallback)
        except (TelegramError, ValueError) as error:
            return error
        return None

    async def deliver(self, out: Outbound) -> str | None:
        """The outbox sender loop's delivery: the message id, or RetryLater (flood control,
        network) / Undeliverable (blocked, chat gone, a request Telegram refuses)."""
        try:
            return await self._send(out)
        except RetryAfter as error:
            wait = error.retry_after
            delay = wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
            raise RetryLater(delay, f"flood control: {error.message}") from error
        except BadRequest as error:
            if _media_refused(error) and has_pictures(out):
                # A group that lets its members send text only (its permissions, or the bot's
                # own restriction): the sender loop posts the text alone and remembers the
                # chat (bot/outbox.py). Nothing went: a post's pictures always go first.
                note = Outbound(out.chat_key, _no_media_note(out.lang), silent=True, lang=out.lang)
                raise PicturesRefused(f"BadRequest: {error.message}", note) from error
            raise Undeliverable(f"BadRequest: {error.message}") from error
        except Forbidden as error:
            raise Undeliverable(f"{type(error).__name__}: {error.message}") from error
        except InvalidToken as error:
            raise RetryLater(60.0, f"invalid token: {error.message}") from error
        except (NetworkError, TelegramError) as error:
            raise RetryLater(NETWORK_RETRY, f"{type(error).__name__}: {error.message}") from error
        except ValueError as error:
            raise Undeliverable(f"not a Telegram chat: {out.chat_key}") from error

    async def _send(self, out: Outbound) -> str | None:
        if out.private_to:
            return await self._send_private(out)
        if out.text.strip() or out.png is not None or out.file is not None:
            chat_id, thread_id = parse_chat_key(out.chat_key)
            return await self._deliver(out, chat_id, thread_id)
        return None

    async def _send_private(self, out: Outbound) -> str | None:
        assert out.private_to is not None
        user_id = parse_user_key(out.private_to)
        if user_id is None:
            log.warning("telegram: private message for non-Telegram user %s", out.private_to)
            return None
        if not (out.text.strip() or out.png is not None):
            return None
        try:
            return await self._deliver(out, user_id, None)
        except TelegramError as error:
            if not _private_chat_unreachable(error):
                raise
            reason = f"{type(error).__name__}: {error.message}"
        # The sender loop remembers the refusal and posts the fallback once (bot/outbox.py).
        chat_id, _thread_id = parse_chat_key(out.chat_key)
        if chat_id == user_id:
            raise DmClosed(reason)  # the private chat itself is the one that failed
        name = dict(out.mentions).get(out.private_to) or self._names.get(out.private_to)
        name = name or str(user_id)
        # in his language: the notice is addressed to him (found through Telegram,
        # 2026-12-04: it came in the server's default language in a Polish group)
        lang = out.lang or self.settings.default_lang
        blocked = "blocked" in reason.casefold()  # "Forbidden: bot was blocked by the user"
        notice = tr(lang, BLOCKED if blocked else NOT_STARTED, name=name, bot=self.bot.username)
        # as quiet as what it stands for: a silent answer's private copy (a spectator's /status
        # in his own language) buzzed the whole group (found through Telegram, 2026-12-05)
        fallback = Outbound(
            chat_key=out.chat_key,
            text=notice,
            mentions=[(out.private_to, name)],
            silent=out.silent,
        )
        raise DmClosed(reason, fallback)

    async def _deliver(self, out: Outbound, chat_id: int, thread_id: int | None) -> str | None:
        try:
            return await self._post_or_edit(out, chat_id, thread_id)
        except ChatMigrated as migrated:
            # The group became a supergroup: its id changed; deliver there this time.
            log.warning("telegram: chat %s migrated to %s", chat_id, migrated.new_chat_id)
            return await self._post_or_edit(out, migrated.new_chat_id, thread_id)

    async def _post_or_edit(self, out: Outbound, chat_id: int, thread_id: int | None) -> str | None:
        """An edit of the message `edit_of` (the live status message), else a new message,
        pinned when asked (`pin`)."""
        if out.edit_of is not None:
            edited = await self._edit(out, chat_id, out.edit_of)
            if out.unpin:  # the game is over (issue 17)
                await self._pin(chat_id, edited, on=False)
            return edited
        message_id = await self._post(out, chat_id, thread_id)
        if out.pin and not out.unpin and message_id is not None and out.private_to is None:
            await self._pin(chat_id, message_id)
        return message_id

    async def _edit(self, out: Outbound, chat_id: int, message_id: str) -> str:
        """editMessageText; `MessageGone` when the message was deleted (the sender loop posts
        a new one), an unchanged text is fine."""
        body, mode = format_text(out.text[:MESSAGE_LIMIT], out.mentions)
        try:
            await self.bot.edit_message_text(
                body,
                chat_id=chat_id,
                message_id=int(message_id),
                parse_mode=mode,
                reply_markup=keyboard(out.buttons),
                link_preview_options=LinkPreviewOptions(is_disabled=True),
            )
        except BadRequest as error:
            reason = error.message.casefold()
            if "not modified" in reason:
                return message_id
            if "not found" in reason or "can't be edited" in reason:
                raise MessageGone(error.message) from error
            raise
        return message_id

    async def _pin(self, chat_id: int, message_id: str, on: bool = True) -> None:
        """Pin the live status message, silently (`on`), or unpin it when its game ended; a
        bot that may not (un)pin leaves it as it is."""
        try:
            if on:
                await self.bot.pin_chat_message(chat_id, int(message_id), disable_notification=True)
            else:
                await self.bot.unpin_chat_message(chat_id, message_id=int(message_id))
        except TelegramError as error:
            log.info("telegram: cannot (un)pin in %s: %s", chat_id, error)

    async def _post(self, out: Outbound, chat_id: int, thread_id: int | None) -> str | None:
        """Send; the id of the (last) message sent."""
        markup = keyboard(out.buttons)
        text = out.text if out.text.strip() else ""
        quiet = out.silent or None
        reply = (
            ReplyParameters(int(out.reply_to), allow_sending_without_reply=True)
            if out.reply_to is not None and out.reply_to.isdigit()
            else None
        )
        sent: Any = None
        if out.file is not None and len(text) <= CAPTION_LIMIT:
            return await self._post_file(out, chat_id, thread_id)
        if out.png is not None and out.album:
            return await self._post_album(out, chat_id, thread_id)
        if out.png is not None:
            if len(text) <= CAPTION_LIMIT:
                caption, mode = format_text(text, out.mentions) if text else (None, None)
                sent = await self.bot.send_photo(
                    chat_id,
                    photo=out.png,
                    filename="board.png",
                    caption=caption,
                    parse_mode=mode,
                    message_thread_id=thread_id,
                    reply_markup=markup,
                    disable_notification=quiet,
                    reply_parameters=reply,
                )
                return str(sent.message_id)
            sent = await self.bot.send_photo(
                chat_id,
                photo=out.png,
                filename="board.png",
                message_thread_id=thread_id,
                disable_notification=quiet,
            )
        chunks = split_text(text, columns=out.monospace)
        for i, chunk in enumerate(chunks):
            body, mode = (
                (f"<pre>{html.escape(chunk, quote=False)}</pre>", ParseMode.HTML)
                if out.monospace  # a board in words: its columns need a fixed-width font
                else format_text(chunk, out.mentions)
            )
            sent = await self.bot.send_message(
                chat_id,
                body,
                parse_mode=mode,
                message_thread_id=thread_id,
                reply_markup=markup if i == len(chunks) - 1 else None,
                link_preview_options=LinkPreviewOptions(is_disabled=True),
                disable_notification=quiet,
                reply_parameters=reply if i == 0 else None,
            )
        return str(sent.message_id) if sent is not None else None

    async def _post_file(self, out: Outbound, chat_id: int, thread_id: int | None) -> str:
        """A file with its caption: an MP4 as an animation (it plays in the chat), anything
        else (the GIF replay) as a document."""
        assert out.file is not None
        caption, mode = format_text(out.text, out.mentions) if out.text.strip() else (None, None)
        common: dict[str, Any] = {
            "filename": out.filename or "file",
            "caption": caption,
            "parse_mode": mode,
            "message_thread_id": thread_id,
            "disable_notification": out.silent or None,
        }
        if out.filename.endswith(".mp4"):
            sent = await self.bot.send_animation(chat_id, animation=out.file, **common)
        else:
            sent = await self.bot.send_document(chat_id, document=out.file, **common)
        return str(sent.message_id)

    async def _post_album(self, out: Outbound, chat_id: int, thread_id: int | None) -> str:
        """A picture set as one media group (sendMediaGroup: 2-10 photos, the caption on the
        first). A media group takes no buttons: a caption too long for it, or one with
        buttons, follows as a message of its own. The id of the group's first message."""
        assert out.png is not None
        text = out.text if out.text.strip() else ""
        apart = len(text) > CAPTION_LIMIT or bool(out.buttons)
        caption, mode = format_text(text, out.mentions) if text and not apart else (None, None)
        media = [
            InputMediaPhoto(
                png,
                caption=caption if i == 0 else None,
                parse_mode=mode if i == 0 else None,
                filename=f"board-{i + 1}.png",
            )
            for i, png in enumerate([out.png, *out.album][:MEDIA_GROUP_LIMIT])
        ]
        sent = await self.bot.send_media_group(
            chat_id,
            media=media,
            message_thread_id=thread_id,
            disable_notification=out.silent or None,
        )
        if apart and text:
            await self._post(replace(out, png=None, album=[]), chat_id, thread_id)
        return str(sent[0].message_id)
