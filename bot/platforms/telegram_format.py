"""Telegram's keys and text: chat and user keys, command words, HTML formatting with real
mentions, message splitting, inline keyboards (pure helpers of bot/platforms/telegram.py)."""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Collection, Sequence

from telegram import (
    Chat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)
from telegram.constants import ChatType, ParseMode

from bot import grammar
from bot.chatnames import LINK, TOPIC_SEPARATOR, unescape_label
from bot.grammar import merge_specs, valid_menu_name
from bot.i18n import spec_help
from bot.messages import MAX_PAYLOAD_BYTES, Button
from engine.core.commands import nearest_name

KEY_PREFIX = "tg:"

# Commands whose Inbound carries a real `is_admin` (one getChatMember call, cached briefly):
# those the table lets a chat administrator use besides the table's creator.
ADMIN_COMMANDS = frozenset({"abort", "settings", "kick", "start", "addbot"})
# Bot API limits.
MESSAGE_LIMIT = 4096
# "/bid@boardchat_bot 13 20" -> name "bid", rest " 13 20".
_COMMAND_TEXT = re.compile(r"^/([A-Za-z0-9_]+)(?:@[A-Za-z0-9_]+)?(.*)$", re.DOTALL)
_FIRST_COMMAND = re.compile(r"/([A-Za-z0-9_]+)")
# The links format_text makes clickable (chat links; anything else stays text).
_OUR_LINKS = "https://t.me/"
# Supergroup and channel ids are "-100" and the id their links use.
_SUPERGROUP_PREFIX = "-100"


# ---------------------------------------------------------------- keys

log = logging.getLogger(__name__)


def chat_key(chat_id: int, thread_id: int | None = None) -> str:
    return f"{KEY_PREFIX}{chat_id}" if thread_id is None else f"{KEY_PREFIX}{chat_id}:{thread_id}"


def parse_chat_key(key: str) -> tuple[int, int | None]:
    """ "tg:-100123:7" -> (-100123, 7); raises ValueError for a key that is not Telegram's."""
    if not key.startswith(KEY_PREFIX):
        raise ValueError(f"not a Telegram chat key: {key!r}")
    chat, _, thread = key[len(KEY_PREFIX) :].partition(":")
    return int(chat), int(thread) if thread else None


def user_key(user_id: int) -> str:
    return f"{KEY_PREFIX}{user_id}"


def parse_user_key(key: str) -> int | None:
    """ "tg:42" -> 42; None for another platform's (or a bot seat's) key."""
    if not key.startswith(KEY_PREFIX):
        return None
    try:
        return int(key[len(KEY_PREFIX) :])
    except ValueError:
        return None


def message_chat_key(message: Message) -> str:
    """A forum topic is its own table; a reply thread in an ordinary group is not."""
    thread = message.message_thread_id if message.is_topic_message else None
    return chat_key(message.chat.id, thread)


def chat_name(
    chat: Chat, thread_id: int | None, message_id: int | None
) -> tuple[str | None, str | None]:
    """(title, link) of a group, supergroup or channel (issue 17): the public username's link
    (t.me/name, t.me/name/<topic>), a private supergroup's link to its topic or to the message
    (t.me/c/<id without -100>/<topic or message>); no link for a basic group; nothing for a
    private chat."""
    if chat.type == ChatType.PRIVATE:
        return None, None
    title = chat.title or None
    if chat.username:
        return title, f"https://t.me/{chat.username}" + (f"/{thread_id}" if thread_id else "")
    digits = str(chat.id)
    if not digits.startswith(_SUPERGROUP_PREFIX):
        return title, None  # a basic group has no link
    there = thread_id or message_id
    return title, f"https://t.me/c/{digits[len(_SUPERGROUP_PREFIX) :]}" + (
        f"/{there}" if there else ""
    )


def message_chat_name(message: Message) -> tuple[str | None, str | None]:
    """(title, link) of the chat a message was sent in; in a forum topic, "Group / Topic"
    when the message tells the topic's name (it does unless it replies to another message)."""
    thread = message.message_thread_id if message.is_topic_message else None
    title, link = chat_name(message.chat, thread, message.message_id)
    created = message.reply_to_message.forum_topic_created if message.reply_to_message else None
    if thread is not None and title and created is not None and created.name:
        title = f"{title}{TOPIC_SEPARATOR}{created.name}"
    return title, link


def command_text(text: str) -> str:
    """Drop the "@botname" Telegram appends to commands in groups: "/Bid@x 13" -> "/bid 13"."""
    match = _COMMAND_TEXT.match(text.strip())
    if not match:
        return text.strip()
    return f"/{match.group(1).lower()}{match.group(2)}".rstrip()


_ADDRESSED = re.compile(r"^/([A-Za-z0-9_]+)(?:@([A-Za-z0-9_]+))?")


def answers_unknown(text: str, bot_name: str, private: bool, known: Collection[str]) -> bool:
    """Whether to answer a command the bot does not know ("Unknown command /spwan. Did you
    mean /spawn?"): in a private chat and when addressed to this bot ("/spwan@our_bot")
    always; in a group when near one of ours only, as a bare "/xyz" there may be another
    bot's, and never one addressed to another bot (found play-testing through Telegram,
    2026-12-05: "/spwan O1" got no answer at all)."""
    match = _ADDRESSED.match(text.strip())
    if match is None:
        return False
    name, addressee = match.group(1).lower(), match.group(2)
    if addressee is not None:
        return addressee.lower() == bot_name.lower()
    return private or nearest_name(name, known) is not None


# "/lang chat pl": the chat's language, which a chat admin may set (bot/lobby.py); a player's
# own "/lang pl" asks no admin check (a getChatMember call).
_CHAT_LANG = re.compile(r"^/lang(?:@[A-Za-z0-9_]+)?\s+chat\b", re.IGNORECASE)


def needs_admin(text: str) -> bool:
    """Whether the command's sender must be looked up as a chat admin."""
    match = _FIRST_COMMAND.search(text)
    if match is None:
        return False
    return match.group(1).lower() in ADMIN_COMMANDS or bool(_CHAT_LANG.match(text.strip()))


def telegram_language_code(lang: str) -> str:
    """Our catalog names ("zh_Hant") -> Telegram's two-letter ISO 639-1 codes ("zh")."""
    return lang.replace("-", "_").split("_")[0].lower()


def menu_for(table: object, games: Sequence[str], lang: str | None) -> list[tuple[str, str]]:
    """(command, description) of the table's own commands and those of `games` only, for a
    chat's own menu; the table's whole menu when it cannot tell the games' commands apart."""
    own = getattr(table, "table_command_specs", None)
    per_game = getattr(table, "game_command_specs", None)
    menu = getattr(table, "command_menu", None)
    if not (callable(own) and callable(per_game)):
        return list(menu(lang)) if callable(menu) else []
    specs = per_game()
    merged = merge_specs([own(), *(specs[g] for g in games if g in specs)])
    return [(s.name, spec_help(lang, s) or s.name) for s in merged if valid_menu_name(s.name)]


# ---------------------------------------------------------------- formatting


def format_text(text: str, mentions: Sequence[tuple[str, str]]) -> tuple[str, str | None]:
    """(text, parse_mode): plain text, or HTML with "@Name" turned into links to the users and
    the chat links of bot/chatnames.py ("[Title](https://t.me/...)") into HTML links.

    Only Telegram users can be linked; other seats (bots, other platforms) stay "@Name".
    """
    links: dict[str, int] = {}
    for key, name in mentions:
        user_id = parse_user_key(key)
        if user_id is not None and name:
            links.setdefault(name, user_id)
    if not links and not any(m.group(2).startswith(_OUR_LINKS) for m in LINK.finditer(text)):
        return text, None
    # Longest names first, so "@Ann Lee" wins over "@Ann".
    by_escaped = {html.escape(name, quote=False): (name, uid) for name, uid in links.items()}
    pattern = (
        re.compile(
            "@(" + "|".join(re.escape(n) for n in sorted(by_escaped, key=len, reverse=True)) + ")"
        )
        if by_escaped
        else None
    )

    def mention(match: re.Match[str]) -> str:
        name, uid = by_escaped[match.group(1)]
        return f'<a href="tg://user?id={uid}">{html.escape(name, quote=False)}</a>'

    def plain(part: str) -> str:
        escaped = html.escape(part, quote=False)
        return pattern.sub(mention, escaped) if pattern is not None else escaped

    out: list[str] = []
    at = 0
    for match in LINK.finditer(text):
        if not match.group(2).startswith(_OUR_LINKS):
            continue  # not a chat link of ours: it stays as written
        out.append(plain(text[at : match.start()]))
        label = html.escape(unescape_label(match.group(1)), quote=False)
        out.append(f'<a href="{html.escape(match.group(2))}">{label}</a>')
        at = match.end()
    out.append(plain(text[at:]))
    return "".join(out), ParseMode.HTML


def split_text(text: str, limit: int = MESSAGE_LIMIT, *, columns: bool = False) -> list[str]:
    """The table's one splitter (`bot.grammar.split_text`) at this platform's message limit."""
    return grammar.split_text(text, limit, columns=columns)


def keyboard(rows: Sequence[Sequence[Button]]) -> InlineKeyboardMarkup | None:
    """Outbound buttons -> an inline keyboard; a payload Telegram would refuse is left out."""
    result: list[list[InlineKeyboardButton]] = []
    for row in rows:
        line = []
        for button in row:
            if not button.payload or len(button.payload.encode()) > MAX_PAYLOAD_BYTES:
                log.error("telegram: button %r dropped: payload over 64 bytes", button.label)
                continue
            line.append(InlineKeyboardButton(button.label, callback_data=button.payload))
        if line:
            result.append(line)
    return InlineKeyboardMarkup(result) if result else None
