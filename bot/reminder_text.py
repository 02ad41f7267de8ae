"""The words of a reminder: which game, which chat, how long is left, what is expected."""

from __future__ import annotations

from bot.deadlines import ChatSettings, human_duration
from bot.i18n import tr, translator
from engine.core.protocol import Game, State


def chat_label(chat_key: str) -> str:
    """How a reminder names a chat. The adapters do not pass chat titles yet, so the chat key
    it is ("tg:-1001234", "dc:5678")."""
    return chat_key


def reminder_text(
    lang: str,
    kind: str,
    game: Game,
    state: State,
    player: str,
    chat_key: str,
    left: float,
    settings: ChatSettings,
    personal: bool = True,
) -> str:
    """The reminder for one player: the game, the chat, the time left, what is expected (with
    what only they may know when `personal`, i.e. when it is sent to them alone)."""
    what = game.describe_turn(state, player if personal else None, translator(lang)).strip()
    chat = chat_label(chat_key)
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
    else:
        head = tr(
            lang,
            "Time is up: {game} ({chat}) has been waiting for your move for {late} past the "
            "deadline.",
            game=tr(lang, game.name),
            chat=chat,
            late=human_duration(max(0.0, -left), lang),
        )
    return head + ("\n" + what if what else "")
