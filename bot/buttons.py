"""Button validity: a button pressed after the game moved on (another player's move in a
simultaneous phase) still counts while the move it carries is legal for the presser."""

from __future__ import annotations

import json
import logging

from bot.context import Ctx
from bot.grammar import parse_command
from bot.table_base import TableBase
from engine.core.protocol import Reply

log = logging.getLogger(__name__)


def still_legal(table: TableBase, ctx: Ctx, command: str) -> bool:
    """Whether the game command `command`, pressed by ctx's user, would apply now: a move of
    the chat's running game (not a table command), the presser seated and on turn (or the
    move a standing order the game takes off turn), parsed and applied without refusal on a
    copy of the state. Nothing is stored."""
    row, seat = ctx.game, ctx.seat()
    if row is None or seat is None or row.status != "active" or not row.state_json:
        return False
    game = table.games.get(row.game_id)
    line = parse_command(command)
    if game is None or line is None or line.name in table._table_names:
        return False
    spec = next((c for c in game.commands if c.name == line.name), None)
    if spec is None or spec.kind != "move":
        return False
    player = seat.display_name
    state = json.loads(row.state_json)
    try:
        parsed = table._parse(ctx, game, state, player, line)
        if isinstance(parsed, Reply):
            return False
        actions = parsed if isinstance(parsed, list) else [parsed]
        if not actions:
            return False
        standing = game.capabilities.standing_orders
        if player not in game.current_players(state) and not (
            standing and all(game.anytime(a) for a in actions)
        ):
            return False
        for action in actions:
            state, _ = game.apply(state, player, action)
    except Exception:  # IllegalAction, or a parse the move no longer fits
        return False
    return True
