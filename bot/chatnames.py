"""How a chat is named to a person (issue 17): its title and a link, never its key.

The adapters put the chat's title and a link on every `Inbound` (`chat_title`, `chat_link`);
`ChatNamer.note` stores them when they change (bot/store_chats.py), and `chat_label` words
them for a message: a Markdown link "[Title](https://...)" on Telegram and Discord (Discord
renders it; the Telegram adapter turns it into an HTML link, bot/platforms/telegram_format.py),
"Title (https://...)" elsewhere, and the reader's "a chat" when nothing is known.

Callers that name a chat in a message (reminders, /games, /digest, the "which game?" answer in a
private chat) use `chat_label` over `store.chat_names`, or `label_of` for one chat.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol

from bot.i18n import tr
from bot.messages import Inbound
from bot.store_chats import ChatName
from engine.core.errors import N_

__all__ = [
    "LINK",
    "ChatName",
    "ChatNamer",
    "chat_label",
    "chat_labels",
    "label_of",
    "markdown_link",
    "unescape_label",
]

# Platforms (key prefixes) that read "[label](url)" as a link: Discord renders Markdown, and the
# Telegram adapter converts it to HTML.
_MARKDOWN_PREFIXES = ("tg:", "dc:")
# What Markdown would read as formatting inside a link's label.
_SPECIAL = re.compile(r"([\\\[\]*_~`|])")
# A link `chat_label` wrote: "[label](https://...)", the label with backslash escapes.
LINK = re.compile(r"\[((?:\\.|[^\\\[\]])+)\]\((https://[^\s()<>]+)\)")
_ESCAPED = re.compile(r"\\(.)")
# "https://t.me/c/123/456": a private supergroup's link to one of its messages; a newer message
# of the same chat is the same place.
_MESSAGE_LINK = re.compile(r"^(https://t\.me/c/\d+)/\d+$")
MAX_TITLE = 128
# Between a group's title and a forum topic's name (bot/platforms/telegram_format.py).
TOPIC_SEPARATOR = " / "
_KEPT = 10_000


class NameStore(Protocol):
    async def chat_names(self, chat_keys: Sequence[str]) -> dict[str, ChatName]: ...

    async def set_chat_name(self, chat_key: str, title: str | None, link: str | None) -> None: ...


def markdown_link(label: str, url: str) -> str:
    """ "[label](url)" with the label's Markdown characters escaped."""
    escaped = _SPECIAL.sub(r"\\\1", label)
    return f"[{escaped}]({url})"


def unescape_label(label: str) -> str:
    """The text of a `markdown_link` label."""
    return _ESCAPED.sub(r"\1", label)


def _clean(title: str | None) -> str | None:
    text = " ".join((title or "").split())[:MAX_TITLE].strip()
    return text or None


def chat_label(chat_key: str, name: ChatName | None, lang: str) -> str:
    """The chat as a reader in `lang` sees it named: title and link in the chat platform's
    format, the title alone, a linked "a chat", or "a chat" (translated); never the key."""
    title = _clean(name.title) if name is not None else None
    link = name.link if name is not None and name.link else None
    if link is not None and not link.startswith("https://"):
        link = None
    words = title or tr(lang, N_("a chat"))
    if link is None:
        return words
    if chat_key.startswith(_MARKDOWN_PREFIXES):
        return markdown_link(words, link)
    return f"{words} ({link})"


async def chat_labels(store: NameStore, chat_keys: Sequence[str], lang: str) -> dict[str, str]:
    """`chat_label` of several chats, their names read in one query."""
    names = await store.chat_names(chat_keys)
    return {key: chat_label(key, names.get(key), lang) for key in chat_keys}


async def label_of(store: NameStore, chat_key: str, lang: str) -> str:
    """`chat_label` of one chat, its name read from the store."""
    return (await chat_labels(store, [chat_key], lang))[chat_key]


def _place(link: str | None) -> str | None:
    """A link without the message it points at (for t.me/c/<chat>/<message>)."""
    if link is None:
        return None
    match = _MESSAGE_LINK.match(link)
    return match.group(1) if match else link


def _same_title(known: str | None, seen: str | None) -> bool:
    """The same title, or a message that told only the group's title of a forum topic whose
    full name ("Group / Topic") is known."""
    return known == seen or (
        known is not None and seen is not None and known.startswith(seen + TOPIC_SEPARATOR)
    )


class ChatNamer:
    """Keeps the stored names of chats up to date from the inbound messages, writing only when
    a title or place changes (or when asked to refresh, on /new: the link then points at the
    message that opened the table). Remembers what it stored, so most messages cost nothing."""

    def __init__(self, store: NameStore) -> None:
        self.store = store
        self._known: OrderedDict[str, ChatName] = OrderedDict()

    async def note(self, inbound: Inbound, *, refresh: bool = False) -> None:
        if inbound.is_private:
            return  # a one-to-one chat is never named to anybody else
        title, link = _clean(inbound.chat_title), inbound.chat_link
        if title is None and link is None:
            return
        key = inbound.chat_key
        known = self._known.get(key)
        if known is None:
            known = (await self.store.chat_names([key])).get(key)
        if known is not None and _same_title(known.title, title):
            title = known.title  # a topic's full name, when this message told the group's only
        if (
            known is not None
            and not refresh
            and known.title == title
            and _place(known.link) == _place(link)
        ):
            self._keep(key, known)
            return
        fresh = ChatName(title, link)
        if known != fresh:
            await self.store.set_chat_name(key, title, link)
        self._keep(key, fresh)

    def _keep(self, key: str, name: ChatName) -> None:
        self._known[key] = name
        self._known.move_to_end(key)
        while len(self._known) > _KEPT:
            self._known.popitem(last=False)
