"""A button pressed in a private chat: a private reminder's copy of the prompt's buttons (issue
17, "act from the reminder").

The payload is the prompt's, "<game pk>:<version>:<command>" (bot/announce.py `_buttons`,
bot/reminder_text.py `reminder_buttons`). A private chat has no game of its own, so the game
comes from the payload: the presser must sit at it, and the button must still apply there
exactly as a press in the game's chat would (the table's `_unpack_payload`: that version, or a
later one at which the move is still legal for the presser). The move is then played in the
game's chat through the private-command path (bot/moves.py `_private_command`): one
transaction with the platform update id, so a pressed-twice or redelivered button applies
once; the group is told like after any move, and the presser gets a short confirmation.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from bot.context import Ctx
from bot.grammar import CommandLine, parse_command
from bot.i18n import tr
from bot.messages import Outbound

if TYPE_CHECKING:
    from bot.table import Table


def _stale(ctx: Ctx) -> list[Outbound]:
    msg = tr(ctx.lang, "This button is out of date; nothing was changed.")
    return [Outbound(ctx.chat_key, msg, private_to=ctx.inbound.user_key, toast=msg)]


async def press_in_private(table: Table, ctx: Ctx, payload: str | None) -> list[Outbound] | None:
    """Play a button pressed in a private chat in the game its payload names; None when it is
    no button, or one of a game played in this private chat itself (the usual path takes it)."""
    ib = ctx.inbound
    if payload is None:
        return None
    pk_text, _, rest = payload.partition(":")
    if ctx.game is not None and pk_text == str(ctx.game.id):
        return None
    if not pk_text.isdigit() or not rest:
        return _stale(ctx)
    row = await table.store.game(int(pk_text))
    if row is None or row.status != "active" or row.game_id not in table.games:
        return _stale(ctx)
    seats = await table.store.seats(row.id)
    if not any(s.user_key == ib.user_key and not s.is_bot for s in seats):
        return _stale(ctx)
    there = Ctx(replace(ib, chat_key=row.chat_key), ctx.lang, game=row, seats=seats)
    command = table._unpack_payload(there, payload)
    line = parse_command(command) if command is not None else None
    if line is None or line.name not in table._game_names:
        return _stale(ctx)
    ctx.from_button = True
    # The game named first, as a player would type it privately: "/build g7 Berlin".
    return await table._private_command(
        ctx, CommandLine(line.name, [f"g{row.id}", *line.args], line.slash)
    )
