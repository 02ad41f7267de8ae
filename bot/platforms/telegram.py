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
import json
import logging
import re
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

from telegram import (
    BotCommand,
    BotCommandScopeChat,
    CallbackQuery,
    Chat,
    Message,
    ReplyParameters,
    Update,
    User,
)
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import (
    BadRequest,
    InvalidToken,
    NetworkError,
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
    MessageHandler,
    TypeHandler,
    filters,
)
from telegram.request import BaseRequest

from bot.health import beat
from bot.i18n import LANGUAGES, tr
from bot.messages import Inbound, Outbound
from bot.outbox import OutboxSender
from bot.platforms.telegram_delivery import (  # noqa: F401 (re-exported)
    CAPTION_LIMIT,
    MEDIA_GROUP_LIMIT,
    TelegramDelivery,
)
from bot.platforms.telegram_format import (  # noqa: F401 (re-exported)
    _COMMAND_TEXT,
    _FIRST_COMMAND,
    ADMIN_COMMANDS,
    KEY_PREFIX,
    MESSAGE_LIMIT,
    answers_unknown,
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
from bot.platforms.telegram_inbox import InboxQueue, PollHeartbeat, describe_update
from bot.service import PlatformError, TableService
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
TOAST_LIMIT = 200
MENU_LIMIT = 100
MENU_DESCRIPTION_LIMIT = 256
COMMAND_NAME = re.compile(r"^[a-z0-9_]{1,32}$")
ALLOWED_UPDATES = ("message", "callback_query")
# A 429 answer is retried this many times (after waiting what Telegram asks) before giving up.
MAX_RETRIES = 10
# On SIGTERM, handlers still running after this long are left (their updates are in the inbox).
STOP_GRACE = 1.0
# Webhook mode: seconds between the health checks' questions to Telegram (bot/health.py)
WEBHOOK_BEAT = 60.0
# "/bid@boardchat_bot 13 20" -> name "bid", rest " 13 20".
_NAMES_KEPT = 10_000


# ---------------------------------------------------------------- keys


def _to_presser(out: Outbound, presser: str) -> Outbound:
    """An answer for the presser alone (`sender_only`: a refusal, a usage) to a button
    pressed in a group: an alert when it is short enough, else a private message; Telegram
    has no message only one member of a group sees, and the group must not read who pressed
    what out of turn (found playing through Telegram, 2026-12-04: "Not your turn" was posted
    in the group, in the presser's language)."""
    if not out.sender_only or out.private_to not in (None, presser) or out.toast:
        return out
    plain = out.png is None and out.file is None and not out.buttons
    if plain and len(out.text.strip()) <= TOAST_LIMIT:
        return replace(out, private_to=presser, toast=out.text.strip())
    return replace(out, private_to=presser, sender_only=False)


def _told_by_toast(out: Outbound, presser: str) -> bool:
    """A private answer to the presser that says no more than the toast already showed them
    (e.g. "this button is out of date"): the callback answer is its delivery on Telegram."""
    return (
        out.toast is not None
        and out.png is None
        and out.private_to == presser
        and out.text.strip() in ("", out.toast.strip())
    )


# ---------------------------------------------------------------- the adapter


class TelegramAdapter(TelegramDelivery):
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
        sender = self.table.register_delivery(PLATFORM, self.deliver)
        self.outbox = sender if isinstance(sender, OutboxSender) else None  # not a fake's
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

    async def on_unknown(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A command none of the handlers took: the table answers it where it is surely ours
        (telegram_format.py `answers_unknown`), silently as every refusal."""
        message = update.message
        if message is None or not message.text:
            return
        private = message.chat.type == ChatType.PRIVATE
        if answers_unknown(message.text, context.bot.username, private, self.command_names()):
            await self.on_command(update, context)

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
                # A press that only earns a refusal ("out of date", "not your turn") is an
                # alert the presser must dismiss, not a post in the group (issue 22).
                presser = user_key(query.from_user.id)
                in_group = message.chat.type != ChatType.PRIVATE
                if in_group:
                    outs = [_to_presser(o, presser) for o in outs]
                toast = next((o for o in outs if o.toast), None)
                alert = toast is not None and _told_by_toast(toast, presser)
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
        builder = builder.request(request)
    # every answered poll beats the health file, updates or not (bot/health.py)
    builder = builder.get_updates_request(PollHeartbeat(request))
    application = builder.build()
    adapter.application = application
    application.bot_data[ADAPTER_KEY] = adapter
    only_new = filters.UpdateType.MESSAGE  # an edited command must not be played twice
    application.add_handler(CommandHandler(adapter.command_names(), adapter.on_command, only_new))
    # after it in the same group: only a command it did not take (a typo, another bot's)
    application.add_handler(MessageHandler(filters.COMMAND & only_new, adapter.on_unknown))
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


async def _webhook_heartbeat(application: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """In webhook mode no poll proves the bot alive while its chats are quiet: it asks
    Telegram for the webhook's state every WEBHOOK_BEAT seconds and beats on an answer."""
    while True:
        try:
            info = await application.bot.get_webhook_info()
        except TelegramError as err:
            log.warning("telegram: the webhook's state is not available: %s", err)
        else:
            beat("telegram")
            if info.last_error_message:
                log.warning("telegram: the webhook reports %r", info.last_error_message)
        await asyncio.sleep(WEBHOOK_BEAT)


async def serve(table: TableService, settings: Settings) -> None:
    """Run the Telegram bot until cancelled. A rejected token, a webhook port in use or no
    answer from Telegram at start raise PlatformError: one line, without the token (its
    exceptions name it)."""
    application = build_application(table, settings)
    try:
        async with running(application, settings):
            if settings.telegram_webhook_url:
                await _webhook_heartbeat(application)
            else:
                await asyncio.Event().wait()
    except InvalidToken:
        raise PlatformError(
            "Telegram rejected TELEGRAM_TOKEN (copy it again from @BotFather)", config=True
        ) from None
    except BadRequest as err:  # e.g. a webhook URL Telegram does not take
        raise PlatformError(f"Telegram refused the setup: {err}", config=True) from None
    except NetworkError as err:
        raise PlatformError(f"cannot reach Telegram: {err}", config=False) from None
    except OSError as err:
        raise PlatformError(
            f"the webhook cannot listen on {settings.telegram_webhook_listen}: "
            f"{err.strerror or err}",
            config=True,
        ) from None
