"""Button validity: a button pressed after the game moved on (another player's move in a
simultaneous phase) still counts while the move it carries is legal for the presser.

A prompt's buttons carry the public moment they were posted at (`public_mark`, a digest of
what everybody sees), not the store's version: a private move (a standing order, PG-O) bumps
the version but changes nothing the table sees, so the group's buttons stay exactly as valid
as before and the group hears nothing of it (`unseen`, issue 20)."""

from __future__ import annotations

import hashlib
import json
import logging

from bot.context import Ctx, Played
from bot.grammar import parse_command
from bot.table_base import TableBase
from engine.core import canonical_json
from engine.core.protocol import Game, Reply, State

log = logging.getLogger(__name__)

# A prompt's payload is "<game pk>:p<digest>:<command>" (so is /abort's in a running game); the
# lobby's carry the store's version ("<pk>:<version>:<command>"), digits only.
MARK = "p"


def public_mark(game: Game, state: State) -> str:
    """The public moment of `state`: a short digest of `view(state, None)` and who is to act.
    Two states that differ only in hidden information have the same mark (the game's
    noninterference). Two public moments may share one (a board that came back): a press
    then goes to the move pipeline, which checks the move as for any other."""
    seen = canonical_json([game.view(state, None), list(game.current_players(state))])
    return MARK + hashlib.blake2s(seen.encode(), digest_size=3).hexdigest()


def unseen(game: Game, before_json: str, played: Played) -> bool:
    """Whether a run of moves changed nothing the table sees: no public line and no picture
    event in any step, no bot failure, the game not over, the same players to act and the
    same public view (a standing order that has not acted yet, PG-O). Such a run posts
    nothing to the group (its owner still gets his private lines). The state before the run
    (`before_json`) is loaded only when the cheap checks leave the question open (issue 23)."""
    if played.error or any(step.lines or step.picture_events for step in played.steps):
        return False
    after = played.state
    if game.is_over(after):
        return False
    before: State = json.loads(before_json)
    return list(game.current_players(before)) == list(game.current_players(after)) and (
        game.view(before, None) == game.view(after, None)
    )


def holds(table: TableBase, ctx: Ctx, version: str, command: str) -> bool:
    """Whether a button of the chat's open game, posted at `version` (the store's version or
    a public mark), still applies: at that very moment, or while the move it carries is still
    legal for the presser (`still_legal`)."""
    row = ctx.game
    if row is None:
        return False
    if version == str(row.version):
        return True
    if version.startswith(MARK):
        game = table.games.get(row.game_id)
        now = row.state_json if row.status == "active" else None
        if game is not None and now and version == public_mark(game, json.loads(now)):
            return True
    elif not version.isdigit() or int(version) > row.version:
        return False
    return still_legal(table, ctx, command)


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
