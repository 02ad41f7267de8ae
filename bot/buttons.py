"""Button validity: a button pressed after the game moved on (another player's move in a
simultaneous phase) still counts while the move it carries is legal for the presser.

A prompt's buttons carry the public moment they were posted at (`public_mark`, a digest of
what everybody sees), not the store's version: a private move (a standing order, PG-O) bumps
the version but changes nothing the table sees, so the group's buttons stay exactly as valid
as before and the group hears nothing of it (`unseen`, issue 20)."""

from __future__ import annotations

import json
import logging

from bot.context import Ctx, Played
from bot.grammar import parse_command
from bot.moment import MARK as MARK  # re-exported: the payloads' mark prefix
from bot.moment import Moment, stage_of
from bot.table_base import TableBase
from engine.core import load_state
from engine.core.protocol import Game, Reply, State

log = logging.getLogger(__name__)


def public_mark(game: Game, state: State) -> str:
    """The public moment of `state` (`Moment.mark`: a digest of the public view and who is to
    act), for a state outside a move; a move's announcement takes its moment's."""
    return Moment(game, state).mark


def unseen(game: Game, before_json: str, played: Played) -> bool:
    """Whether a run of moves changed nothing the table sees: no public line and no picture
    event in any step, no bot failure, the game not over, the same players to act and the
    same public view (a standing order that has not acted yet, PG-O). Such a run posts
    nothing to the group (its owner still gets his private lines). The state before the run
    (`before_json`) is loaded only when the cheap checks leave the question open (issue 23)."""
    if played.error or any(step.lines or step.picture_events for step in played.steps):
        return False
    after = played.now(game)  # the announcement's: its public view is built already
    if after.over:
        return False
    before = Moment(game, json.loads(before_json))
    return before.current == after.current and before.public_view == after.public_view


def holds_later(table: TableBase, ctx: Ctx, version: str, command: str) -> bool:
    """Whether a button of the chat's open game posted earlier than now (`posted_now` says
    False) still applies: while the move it carries is still legal for the presser
    (`still_legal`) in the stage it was posted in (`Game.stage`: an old "Done" of the last
    phase is legal in the next one too, and ended the presser's building turn with nothing
    built, found play-testing through Discord, 2026-12-05); never one from a version the game
    has not reached."""
    row = ctx.game
    if row is None:
        return False
    if not version.startswith(MARK) and (not version.isdigit() or int(version) > row.version):
        return False
    stage = stage_of(version)
    if stage is not None:
        moment = _moment(table, ctx)
        if moment is None or stage_of(moment.mark) != stage:
            return False
    return still_legal(table, ctx, command)


def _moment(table: TableBase, ctx: Ctx) -> Moment | None:
    """The moment the chat's running game stands at now (None: no running game)."""
    row = ctx.game
    if row is None or row.status != "active" or not row.state_json:
        return None
    game = table.games.get(row.game_id)
    if game is None:
        return None
    # the mark the prompt was posted with is remembered with the state (bot/moment.py)
    return table._recent.moment(row.id, game, row.state_json, json.loads(row.state_json))


def posted_now(table: TableBase, ctx: Ctx, version: str) -> bool:
    """Whether a button posted at `version` (the store's version or a public mark) belongs to
    the moment the chat's open game stands at now."""
    row = ctx.game
    if row is None:
        return False
    if version == str(row.version):
        return True
    if version.startswith(MARK):
        moment = _moment(table, ctx)
        return moment is not None and version == moment.mark
    return False


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
    state = load_state(row.state_json)
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
