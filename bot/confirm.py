"""The confirmation of a move sent in a private chat for a game played in a group: "Done in
Power Grid; announced in Game night." or "Done in Power Grid (Game night); the others are not
told of it." (a move the group reads nothing of, issue 20).

The game is named as its players know it: the game's name and the chat it is played in,
never its row id (found play-testing: "(g1)" read as an internal number; the "g<id>" a
player may put first in a private move is shown where he must choose among his games,
bot/private_chat.py `_games_hint`).

The confirmation ends the sender's own private message of the move when there is one ("You
plan to run plants 8, 12", "Standing order saved: ..."), as its `fold_tail`: the sender loop,
folding a run of such acknowledgements into one edited message (bot/outbox.py), keeps one
confirmation at its end rather than one per line (found play-testing IEC: five standing
orders sent privately brought five identical "Done in ..." messages).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.chatnames import NameStore, label_of
from bot.context import Ctx
from bot.i18n import tr
from bot.messages import Outbound
from engine.core.sentences import join_sentences


async def done_text(store: NameStore, ctx: Ctx, game_name: str, chat_key: str, told: bool) -> str:
    """The confirmation in the sender's language: the group was `told` of the move, or not."""
    chat = await label_of(store, chat_key, ctx.lang)
    game = tr(ctx.lang, game_name)
    if told:
        return tr(ctx.lang, "Done in {game}; announced in {chat}.", game=game, chat=chat)
    return tr(
        ctx.lang, "Done in {game} ({chat}); the others are not told of it.", game=game, chat=chat
    )


def own_message(ctx: Ctx, outs: Sequence[Outbound]) -> Outbound | None:
    """The first plain silent message among `outs` that reaches the sender alone where he
    wrote: his own lines of the move."""
    sender = ctx.inbound.user_key
    for out in outs:
        alone = out.private_to == sender or (
            out.private_to is None and out.sender_only and out.chat_key == ctx.reply_key
        )
        plain = out.png is None and out.render is None and out.picture is None
        if alone and plain and out.silent and not out.buttons:
            return out
    return None


def close_with(ctx: Ctx, outs: Sequence[Outbound], done: str) -> bool:
    """`done` put at the end of the sender's own message of the move, as its `fold_tail`
    (said once when acknowledgements are folded); False when there is no such message."""
    mine = own_message(ctx, outs)
    if mine is None:
        return False
    joined = join_sentences(mine.text, done)
    mine.fold_tail = joined[len(mine.text) :]
    mine.text = joined
    return True
