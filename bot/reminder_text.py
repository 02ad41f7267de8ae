"""The words of a reminder: which game, which chat, how long is left, what is expected; and
the buttons a prompt carries (`prompt_buttons`: in the chat and in a reminder posted there)
and a private reminder's."""

from __future__ import annotations

import logging
from collections import Counter

from bot.chatnames import label_of
from bot.context import BUTTONS_PER_ROW, MAX_BUTTONS
from bot.deadlines import ChatSettings, human_duration, overdue_head
from bot.grammar import shorten
from bot.i18n import tr, translator
from bot.messages import MAX_PAYLOAD_BYTES, Button
from bot.moment import Moment
from bot.store_protocol import Store
from engine.core.protocol import Game, State

log = logging.getLogger(__name__)


def prompt_buttons(pk: int, now: Moment, players: list[str], lang: str) -> list[list[Button]]:
    """The buttons of `players`, each carrying the moment's public mark (not the store's
    version: a private move leaves it, issue 20), computed once per move. Where several
    players are asked at once, each one's own buttons come first and the ones they share
    (Done) once at the end, kept within the limit: not "Transmit R14, Done, Transmit G3"."""
    asked: list[list[tuple[str, str]]] = []
    for player in players:
        try:
            asked.append(now.buttons(player, lang))
        except Exception:
            log.exception("buttons failed in game %s", pk)
    sharing = Counter(command for choices in asked for command in {c for _l, c in choices})
    own: list[Button] = []
    shared: list[Button] = []
    seen: set[str] = set()
    for label, command in (b for choices in asked for b in choices):
        payload = f"{pk}:{now.mark}:{command}"
        if command in seen or len(payload.encode()) > MAX_PAYLOAD_BYTES:
            continue  # a truncated command would mean something else: drop it
        seen.add(command)
        button = Button(shorten(label, 40) or command, payload)
        (own if sharing[command] == 1 else shared).append(button)
    shared = shared[:MAX_BUTTONS]
    flat = own[: MAX_BUTTONS - len(shared)] + shared
    return [flat[i : i + BUTTONS_PER_ROW] for i in range(0, len(flat), BUTTONS_PER_ROW)]


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
    chat: str | None,
    left: float,
    settings: ChatSettings,
    personal: bool = True,
) -> str:
    """The reminder for one player: the game, the chat (None: posted in that very chat, so
    not named), the time left, what is expected (with what only they may know when
    `personal`, i.e. when it is sent to them alone)."""
    what = game.describe_turn(state, player if personal else None, translator(lang)).strip()
    name, due = tr(lang, game.name), human_duration(max(0.0, left), lang)
    if kind == "start" and chat is None:
        head = tr(lang, "Your move in {game}; you have {left}.", game=name, left=due)
    elif kind == "start":
        head = tr(
            lang, "Your move in {game} ({chat}); you have {left}.", game=name, chat=chat, left=due
        )
    elif kind == "remind" and chat is None:
        head = tr(
            lang, "Reminder: {game} is waiting for your move; {left} left.", game=name, left=due
        )
    elif kind == "remind":
        head = tr(
            lang,
            "Reminder: {game} ({chat}) is waiting for your move; {left} left.",
            game=name,
            chat=chat,
            left=due,
        )
    else:  # the expiry's reminder, sent at the deadline itself: "just passed", not "0 s"
        head = overdue_head(lang, name, chat, max(0.0, -left))
    return head + ("\n" + what if what else "")
