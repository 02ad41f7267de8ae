"""The words of a reminder: which game, which chat, how long is left, what is expected; and
the buttons a private reminder carries (the prompt's, bot/announce.py)."""

from __future__ import annotations

import logging

from bot.chatnames import label_of
from bot.context import BUTTONS_PER_ROW, MAX_BUTTONS
from bot.deadlines import ChatSettings, human_duration, overdue_head
from bot.grammar import shorten
from bot.i18n import tr, translator
from bot.messages import MAX_PAYLOAD_BYTES, Button
from bot.store_protocol import Store
from engine.core.protocol import Game, State

log = logging.getLogger(__name__)


async def chat_name(store: Store, chat_key: str, lang: str) -> str:
    """How a reminder or a digest names a chat to a person: its stored title and link
    (bot/chatnames.py), "a chat" in `lang` when none is known; never the raw key."""
    return await label_of(store, chat_key, lang)


def reminder_buttons(
    pk: int, mark: str, game: Game, state: State, player: str, lang: str
) -> list[list[Button]]:
    """The buttons of `player`'s prompt, for a reminder sent to them privately: the same
    "<game pk>:<public mark>:<command>" payloads as the prompt in the chat (bot/announce.py
    `_buttons`), which the table plays in the game's chat when pressed in private. The
    public mark, not the store's version: the version counts private moves and undos the
    others are not told of, and a button's payload is readable by any client (found by a
    leak hunt, 2026-12-04)."""
    try:
        choices = list(game.buttons(state, player, t=translator(lang)))
    except Exception:
        log.exception("buttons failed in game %s", pk)
        return []
    flat: list[Button] = []
    seen: set[str] = set()
    for label, command in choices:
        payload = f"{pk}:{mark}:{command}"
        if command in seen or len(payload.encode()) > MAX_PAYLOAD_BYTES:
            continue  # a truncated command would mean something else: drop it
        seen.add(command)
        flat.append(Button(shorten(label, 40) or command, payload))
    flat = flat[:MAX_BUTTONS]
    return [flat[i : i + BUTTONS_PER_ROW] for i in range(0, len(flat), BUTTONS_PER_ROW)]


def reminder_text(
    lang: str,
    kind: str,
    game: Game,
    state: State,
    player: str,
    chat: str,
    left: float,
    settings: ChatSettings,
    personal: bool = True,
) -> str:
    """The reminder for one player: the game, the chat, the time left, what is expected (with
    what only they may know when `personal`, i.e. when it is sent to them alone)."""
    what = game.describe_turn(state, player if personal else None, translator(lang)).strip()
    if kind == "start":
        head = tr(
            lang,
            "Your move in {game} ({chat}); you have {left}.",
            game=tr(lang, game.name),
            chat=chat,
            left=human_duration(max(0.0, left), lang),
        )
    elif kind == "remind":
        head = tr(
            lang,
            "Reminder: {game} ({chat}) is waiting for your move; {left} left.",
            game=tr(lang, game.name),
            chat=chat,
            left=human_duration(max(0.0, left), lang),
        )
    else:  # the expiry's reminder, sent at the deadline itself: "just passed", not "0 s"
        head = overdue_head(lang, tr(lang, game.name), chat, max(0.0, -left))
    return head + ("\n" + what if what else "")
