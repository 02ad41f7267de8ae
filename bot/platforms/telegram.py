"""Telegram adapter (python-telegram-bot 22): updates in, `Outbound`s out, nothing else.

One generic command handler turns every command of `table.command_specs()` into an `Inbound`;
one callback-query handler does the same for button presses. Everything the table answers goes
back through `TelegramAdapter.send`, which is also the sender the table uses for messages nobody
asked for (reminders). Cross-cutting concerns are objects given to the builder: the rate limiter
(flood control, retries after 429) and the error handler.

Keys: chat "tg:<chat_id>" or "tg:<chat_id>:<message_thread_id>" for a forum topic (each topic is
its own table); user "tg:<user_id>".
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import json
import logging
import re
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from telegram import (
    BotCommand,
    BotCommandScopeChat,
    CallbackQuery,
    Chat,
    InputMediaPhoto,
    LinkPreviewOptions,
    Message,
    ReplyParameters,
    Update,
    User,
)
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
)
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    BaseRateLimiter,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    TypeHandler,
    filters,
)
from telegram.request import BaseRequest

from bot.i18n import LANGUAGES, tr
from bot.messages import Inbound, Outbound
from bot.outbox import DmClosed, MessageGone, RetryLater, Undeliverable
from bot.platforms.telegram_format import (  # noqa: F401 (re-exported)
    _COMMAND_TEXT,
    _FIRST_COMMAND,
    ADMIN_COMMANDS,
    KEY_PREFIX,
    MESSAGE_LIMIT,
    chat_key,
    chat_name,
    command_text,
    format_text,
    keyboard,
    menu_for,
    message_chat_key,
    message_chat_name,
    needs_admin,
    parse_chat_key,
    parse_user_key,
    split_text,
    telegram_language_code,
    user_key,
)
from bot.platforms.telegram_inbox import InboxQueue, describe_update
from bot.service import TableService
from bot.settings import Settings
from bot.supervisor import webhook_listen

log = logging.getLogger(__name__)

PLATFORM = "telegram"
# Where build_application leaves the adapter for `running` and the tests.
ADAPTER_KEY = "boardchat.telegram"

# Commands whose Inbound carries a real `is_admin` (one getChatMember call, cached briefly):
# those the table lets a chat administrator use besides the table's creator.
ADMIN_CACHE_SECONDS = 60.0
# Always routed to the table, even when no spec names them: Telegram clients send /start when a
# user opens the bot (that is what lets the bot message them privately) and /help is universal.
ALWAYS_COMMANDS = ("start", "help")
# Bot API limits.
CAPTION_LIMIT = 1024
MEDIA_GROUP_LIMIT = 10  # photos in one sendMediaGroup
TOAST_LIMIT = 200
MENU_LIMIT = 100
MENU_DESCRIPTION_LIMIT = 256
COMMAND_NAME = re.compile(r"^[a-z0-9_]{1,32}$")
ALLOWED_UPDATES = ("message", "callback_query")
# A 429 answer is retried this many times (after waiting what Telegram asks) before giving up.
MAX_RETRIES = 10
# A network error while delivering from the outbox: try that chat again after this long.
NETWORK_RETRY = 5.0
# On SIGTERM, handlers still running after this long are left (their updates are in the inbox).
STOP_GRACE = 1.0
# "/bid@boardchat_bot 13 20" -> name "bid", rest " 13 20".
_NAMES_KEPT = 10_000


# ---------------------------------------------------------------- keys


def _told_by_toast(out: Outbound, presser: str) -> bool:
    """A private answer to the presser that says no more than the toast already showed them
    (e.g. "this button is out of date"): the callback answer is its delivery on Telegram."""
    return (
        out.toast is not None
        and out.png is None
        and out.private_to == presser
        and out.text.strip() in ("", out.toast.strip())
    )


def _private_chat_unreachable(error: TelegramError) -> bool:
    """The user never pressed Start in a private chat with the bot (or blocked it)."""
    if isinstance(error, Forbidden):
        return True
    return isinstance(error, BadRequest) and "chat not found" in error.message.lower()


# ---------------------------------------------------------------- the adapter


class TelegramAdapter:
    """Maps updates to `Inbound`s and `Outbound`s to Bot API calls; holds no game state."""

    def __init__(
        self,
        table: TableService,
        settings: Settings,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.table = table
        self.settings = settings
        self.clock = clock
        self.application: Application[Any, Any, Any, Any, Any, Any] | None = None
        self._admins: dict[tuple[int, int], tuple[float, bool]] = {}
        self._names: OrderedDict[str, str] = OrderedDict()
        # One lock per chat key: replies to one chat leave in the order its updates came in,
        # while other chats go on (updates are processed concurrently).
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    @property
    def bot(self) -> Any:
        if self.application is None:
            raise RuntimeError("TelegramAdapter is not attached to an Application")
        return self.application.bot

    def command_names(self) -> list[str]:
        names: list[str] = []
        for spec in self.table.command_specs():
            name = spec.name.lower()
            if not COMMAND_NAME.match(name):
                log.warning("telegram: command %r cannot be a Telegram command; skipped", name)
                continue
            if name not in names:
                names.append(name)
        names.extend(n for n in ALWAYS_COMMANDS if n not in names)
        return names

    # ---- start-up

    async def setup(self, application: Application[Any, Any, Any, Any, Any, Any]) -> None:
        """After `initialize`: become the table's sender, then publish the command menus."""
        self.application = application
        self.table.register_sender(PLATFORM, self.send)
        self.table.register_delivery(PLATFORM, self.deliver)
        await self.publish_menus()

    async def publish_menus(self, chat_id: int | None = None) -> None:
        """The command menu in every language: the bot's default one, or (`chat_id`) the one
        of a chat that plays only some games (/settings games=...: the table's commands and
        those games' only, issue 22)."""
        games = None
        enabled = getattr(self.table, "enabled_games", None)
        if chat_id is not None and callable(enabled):
            games = await enabled(chat_key(chat_id))
        scope = BotCommandScopeChat(chat_id) if chat_id is not None else None
        languages: list[tuple[str | None, str | None]] = [(None, None)]
        languages += [(lang, telegram_language_code(lang)) for lang in LANGUAGES if lang != "en"]
        for lang, code in languages:
            commands = []
            menu = (
                self.table.command_menu(lang)
                if games is None
                else menu_for(self.table, games, lang)
            )
            for name, description in menu:
                name = name.lstrip("/").lower()
                description = " ".join(description.split())[:MENU_DESCRIPTION_LIMIT]
                if COMMAND_NAME.match(name) and description:
                    commands.append(BotCommand(name, description))
            try:
                await self.bot.set_my_commands(
                    commands[:MENU_LIMIT], scope=scope, language_code=code
                )
            except TelegramError:
                log.exception("telegram: set_my_commands failed for language %s", code or "default")

    # ---- updates in

    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        user = update.effective_user
        if message is None or user is None or not message.text:
            return
        key = message_chat_key(message)
        text = command_text(message.text)
        title, link = message_chat_name(message)
        async with self._lock(key):
            inbound = Inbound(
                platform=PLATFORM,
                chat_key=key,
                user_key=user_key(user.id),
                display_name=self._display_name(user),
                lang=user.language_code,
                update_id=str(update.update_id),
                text=text,
                is_admin=await self._is_admin(message.chat, user, message, text),
                is_private=message.chat.type == ChatType.PRIVATE,
                seen_by_chat=message.chat.type != ChatType.PRIVATE,
                chat_title=title,
                chat_link=link,
            )
            await self._answer_all(update, inbound, await self._handle(inbound))
        if text.startswith("/settings") and "games=" in text and not inbound.is_private:
            await self.publish_menus(message.chat.id)  # this chat's games' commands only

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        message = query.message
        if message is None or not query.data:
            # A button on an inline-mode message (none of ours) or without data: just answer.
            await self._answer(query, None)
            return
        key = (
            message_chat_key(message) if isinstance(message, Message) else chat_key(message.chat.id)
        )
        title, link = (
            message_chat_name(message)
            if isinstance(message, Message)
            else chat_name(message.chat, None, message.message_id)
        )
        async with self._lock(key):
            outs: list[Outbound] = []
            try:
                inbound = Inbound(
                    platform=PLATFORM,
                    chat_key=key,
                    user_key=user_key(query.from_user.id),
                    display_name=self._display_name(query.from_user),
                    lang=query.from_user.language_code,
                    update_id=str(update.update_id),
                    payload=query.data,
                    is_admin=await self._is_admin(message.chat, query.from_user, None, query.data),
                    is_private=message.chat.type == ChatType.PRIVATE,
                    chat_title=title,
                    chat_link=link,
                )
                outs = await self._handle(inbound)
            finally:
                # Every press is answered, or the user's client shows a spinner for a while.
                # A press that only earns a refusal ("out of date") is an alert the presser
                # must dismiss, not a post in the group (issue 22).
                toast = next((o for o in outs if o.toast), None)
                alert = toast is not None and _told_by_toast(toast, user_key(query.from_user.id))
                await self._answer(query, toast.toast if toast else None, alert=alert)
            answers = [o for o in outs if not _told_by_toast(o, inbound.user_key)]
            await self._answer_all(update, inbound, answers)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log with what was being handled, tell the player; never raise (the application
        goes on)."""
        try:
            told = False
            if isinstance(update, Update) and update.effective_chat is not None:
                told = await self._apologise(update)
            log.error(
                "telegram: error while handling %s (player told: %s)",
                describe_update(update),
                told,
                exc_info=context.error,
            )
        except Exception:
            log.exception("telegram: the error handler failed")

    async def _answer_all(self, update: Update, inbound: Inbound, outs: list[Outbound]) -> None:
        """Send a handler's answers; when a Bot API call fails (a 400, a network error, a
        malformed answer), the player hears that nothing was changed, and the failure is
        logged once with the update's context (issue 22)."""
        failed: Exception | None = None
        for out in outs:
            error = await self._try_send(out)
            failed = failed or error
        if failed is not None:
            told = await self._apologise(update, inbound.lang)
            log.warning(
                "telegram: answering %s failed: %s: %s (player told: %s)",
                describe_update(update),
                type(failed).__name__,
                failed,
                told,
            )

    async def _apologise(self, update: Update, lang: str | None = None) -> bool:
        """ "Something went wrong" in the update's chat (topic), replying to the message;
        whether it was delivered (a failure here is part of the caller's one log line)."""
        chat = update.effective_chat
        if chat is None:
            return False
        user = update.effective_user
        lang = lang or (user.language_code if user is not None else None)
        message = update.effective_message
        topic = isinstance(message, Message) and message.is_topic_message
        thread_id = message.message_thread_id if topic and isinstance(message, Message) else None
        text = tr(
            lang or self.settings.default_lang,
            "Sorry, something went wrong on my side. Nothing was changed unless I said so; "
            "please try again.",
        )
        try:
            await self.bot.send_message(
                chat.id,
                text,
                message_thread_id=thread_id,
                reply_parameters=(
                    ReplyParameters(message.message_id, allow_sending_without_reply=True)
                    if isinstance(message, Message) and update.message is not None
                    else None
                ),
            )
        except TelegramError:
            return False
        return True

    async def _handle(self, inbound: Inbound) -> list[Outbound]:
        """The table's answers this handler sends itself: those already in the outbox are
        delivered by the sender loop (bot/outbox.py)."""
        self._remember_name(inbound.user_key, inbound.display_name)
        return [o for o in await self.table.handle(inbound) if o.outbox_id is None]

    async def on_done(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """After every handler group: the update is handled; the inbox forgets it."""
        await self.table.update_done(PLATFORM, str(update.update_id))

    async def _answer(self, query: CallbackQuery, toast: str | None, alert: bool = False) -> None:
        try:
            await query.answer(
                text=toast[:TOAST_LIMIT] if toast else None, show_alert=alert or None
            )
        except TelegramError:
            # Too late (the query expired) or already answered: nothing the user can see.
            log.warning("telegram: could not answer callback query %s", query.id, exc_info=True)

    def _lock(self, key: str) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock

    def _display_name(self, user: User) -> str:
        return user.full_name or user.username or str(user.id)

    def _remember_name(self, key: str, name: str) -> None:
        self._names[key] = name
        self._names.move_to_end(key)
        while len(self._names) > _NAMES_KEPT:
            self._names.popitem(last=False)

    async def _is_admin(self, chat: Chat, user: User, message: Message | None, text: str) -> bool:
        if chat.type == ChatType.PRIVATE:
            return True  # the user owns a one-to-one chat with the bot
        if message is not None and message.sender_chat is not None:
            # An anonymous administrator speaks as the group itself.
            return message.sender_chat.id == chat.id
        if not needs_admin(text):
            return False
        now = self.clock()
        cached = self._admins.get((chat.id, user.id))
        if cached is not None and cached[0] > now:
            return cached[1]
        try:
            member = await self.bot.get_chat_member(chat.id, user.id)
            is_admin = member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)
        except TelegramError:
            log.warning("telegram: get_chat_member(%s, %s) failed", chat.id, user.id, exc_info=True)
            return False
        if len(self._admins) > _NAMES_KEPT:
            self._admins = {k: v for k, v in self._admins.items() if v[0] > now}
        self._admins[(chat.id, user.id)] = (now + ADMIN_CACHE_SECONDS, is_admin)
        return is_admin

    # ---- messages out

    async def send(self, out: Outbound) -> None:
        """Deliver one Outbound right away (an immediate answer). Logs failures; never raises."""
        error = await self._try_send(out)
        if error is not None:
            log.warning("telegram: could not send to %s: %s", out.private_to or out.chat_key, error)

    async def _try_send(self, out: Outbound) -> Exception | None:
        """Deliver one Outbound right away; the Bot API's error, if any (not logged)."""
        try:
            await self._send(out)
        except DmClosed as closed:
            log.info("telegram: %s does not accept private messages: %s", out.private_to, closed)
            if closed.fallback is not None:
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
        except (Forbidden, BadRequest) as error:
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
        notice = tr(
            self.settings.default_lang,
            "@{name}, I cannot message you privately. Open a chat with @{bot} and press Start.",
            name=name,
            bot=self.bot.username,
        )
        fallback = Outbound(chat_key=out.chat_key, text=notice, mentions=[(out.private_to, name)])
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


# ---------------------------------------------------------------- application


def api_urls(base: str) -> tuple[str, str]:
    """A self-hosted Bot API server root or ".../bot" -> (base_url, base_file_url)."""
    root = base.rstrip("/")
    root = root.removesuffix("/bot")
    return f"{root}/bot", f"{root}/file/bot"


def webhook_secret(token: str) -> str:
    """Telegram sends it back in a header, so forged POSTs to the webhook are refused."""
    return hashlib.sha256(f"boardchat:{token}".encode()).hexdigest()


def parse_listen(listen: str) -> tuple[str, int]:
    """ "0.0.0.0:8443" / "[::]:8443" / "8443" -> (host, port)."""
    host, sep, port = listen.rpartition(":")
    if not sep:
        return "0.0.0.0", int(listen)
    return host.strip("[]") or "0.0.0.0", int(port)


def build_application(
    table: TableService,
    settings: Settings,
    *,
    base_url: str | None = None,
    request: BaseRequest | None = None,
    rate_limiter: BaseRateLimiter[Any] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Application[Any, Any, Any, Any, Any, Any]:
    """The Application with our handlers, limiter and error handler (not started).

    `base_url` (tests, or a self-hosted Bot API server via settings.telegram_api_base_url) is the
    URL the token is appended to; `request` replaces the HTTP layer for both API calls and
    getUpdates.
    """
    if not settings.telegram_token:
        raise ValueError("TELEGRAM_TOKEN is not set")
    adapter = TelegramAdapter(table, settings, clock=clock)

    async def keep(update: Update) -> None:
        payload = json.dumps(update.to_dict(), ensure_ascii=False)
        await table.keep_update(PLATFORM, str(update.update_id), payload)

    builder = (
        ApplicationBuilder()
        .token(settings.telegram_token)
        .update_queue(InboxQueue(keep))
        .rate_limiter(rate_limiter or AIORateLimiter(max_retries=MAX_RETRIES))
        .concurrent_updates(True)
        .post_init(adapter.setup)
    )
    base = base_url or settings.telegram_api_base_url
    if base:
        url, file_url = api_urls(base)
        builder = builder.base_url(url).base_file_url(file_url)
    if request is not None:
        builder = builder.request(request).get_updates_request(request)
    application = builder.build()
    adapter.application = application
    application.bot_data[ADAPTER_KEY] = adapter
    only_new = filters.UpdateType.MESSAGE  # an edited command must not be played twice
    application.add_handler(CommandHandler(adapter.command_names(), adapter.on_command, only_new))
    application.add_handler(CallbackQueryHandler(adapter.on_button))
    # After the handlers above (group 0): the update is handled, the inbox may forget it.
    application.add_handler(TypeHandler(Update, adapter.on_done), group=1)
    application.add_error_handler(adapter.on_error)
    return application


def adapter_of(application: Application[Any, Any, Any, Any, Any, Any]) -> TelegramAdapter:
    adapter = application.bot_data[ADAPTER_KEY]
    assert isinstance(adapter, TelegramAdapter)
    return adapter


@asynccontextmanager
async def running(
    application: Application[Any, Any, Any, Any, Any, Any],
    settings: Settings,
    *,
    poll_timeout: float = 30.0,
) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    """Initialise, set up, start receiving (webhook or long polling); stop it all on exit."""
    updater = application.updater
    assert updater is not None
    async with application:  # initialize() ... shutdown()
        await adapter_of(application).setup(application)
        await application.start()
        try:
            # Updates kept before a crash or a stop and not handled yet: handled now, once
            # (the table's (platform, update id) de-duplication guards a move).
            table = adapter_of(application).table
            for update_id, payload in await table.pending_updates(PLATFORM):
                try:
                    update = Update.de_json(json.loads(payload), application.bot)
                except (ValueError, TypeError):
                    log.exception("telegram: kept update %s does not load; skipped", update_id)
                    await table.update_done(PLATFORM, update_id)
                    continue
                await application.update_queue.put(update)
            if settings.telegram_webhook_url:
                host, port = parse_listen(settings.telegram_webhook_listen)
                await updater.start_webhook(
                    **webhook_listen(host, port),  # or the socket `run --workers N` bound
                    url_path=urlsplit(settings.telegram_webhook_url).path.lstrip("/"),
                    webhook_url=settings.telegram_webhook_url,
                    allowed_updates=list(ALLOWED_UPDATES),
                    secret_token=webhook_secret(settings.telegram_token),
                )
                log.info("telegram: webhook on %s:%s", host, port)
            else:
                await updater.start_polling(
                    timeout=int(poll_timeout), allowed_updates=list(ALLOWED_UPDATES)
                )
                log.info("telegram: long polling")
            yield application
        finally:
            # Stop taking updates; handlers still running after STOP_GRACE are left behind:
            # their updates are in the inbox and are handled after the restart.
            if updater.running:
                await updater.stop()
            if application.running:
                stopping = asyncio.ensure_future(application.stop())
                done, _ = await asyncio.wait({stopping}, timeout=STOP_GRACE)
                if not done:
                    log.warning("telegram: handlers still busy at shutdown; left in the inbox")
                    stopping.cancel()
                    with contextlib.suppress(asyncio.CancelledError, RuntimeError):
                        await stopping


async def serve(table: TableService, settings: Settings) -> None:
    """Run the Telegram bot until cancelled."""
    application = build_application(table, settings)
    async with running(application, settings):
        await asyncio.Event().wait()
