"""Undo (replay without the last move) and abort."""

from __future__ import annotations

import json
import logging
from collections.abc import Collection, Sequence
from dataclasses import replace

from bot.announce import AnnounceMixin
from bot.context import (
    Ctx,
    Played,
    Step,
)
from bot.grammar import (
    CommandLine,
)
from bot.messages import Button, Outbound
from bot.store import (
    ActionRow,
    Outcome,
)
from bot.workers import cpu
from engine.core import canonical_json, replay
from engine.core.protocol import Game, State

log = logging.getLogger(__name__)


def _undo_state(
    game: Game,
    names: list[str],
    options: dict[str, str],
    seed: int,
    actions: Sequence[ActionRow],
    batch: Sequence[ActionRow],
    bots: Collection[str],
) -> State | None:
    """The state before the sender's last move (`batch[0]`'s version), when every move after
    it answered it without anyone deciding anything: a bot seat's, or a human's forced pass
    (`forced_action`). None when another player has acted since."""
    first = batch[0].version
    keep = [(a.player, a.action) for a in actions if a.version < first]
    before = replay(game, names, options, seed, keep)
    state = json.loads(canonical_json(before))
    for a in batch:
        if a.version != first and a.user_key not in bots:
            forced = game.capabilities.forced_moves and (
                game.forced_action(json.loads(canonical_json(state)), a.player) == a.action
            )
            if not forced:
                return None
        state, _events = game.apply(state, a.player, a.action)
    return before


class UndoMixin(AnnounceMixin):
    """/undo and /abort."""

    async def _cmd_undo(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        if row is None or row.status != "active":
            return self._say(ctx, self._t(ctx, "There is no running game here."))
        seat = ctx.seat()
        if seat is None:
            return self._say(ctx, self._t(ctx, "You are not playing in this game."))
        game = self._game_of(row)
        hours = await self._deadline_hours(row.chat_key, ctx)
        async with self._lock(row.id):
            fresh = await self.store.game(row.id)
            if fresh is None or fresh.status != "active" or fresh.seed is None:
                return self._say(ctx, self._t(ctx, "There is no running game here."))
            actions = await self.store.actions(row.id)
            if not actions:
                return self._say(ctx, self._t(ctx, "There is nothing to undo."))
            bots = {s.user_key for s in ctx.seats if s.is_bot}
            mine = [a.version for a in actions if a.user_key == seat.user_key]
            batch = [a for a in actions if mine and a.version >= mine[-1]]
            names = [s.display_name for s in ctx.seats]
            undone = (
                await cpu(
                    _undo_state, game, names, dict(fresh.options), fresh.seed, actions, batch, bots
                )
                if batch
                else None
            )
            if undone is None:
                return self._say(
                    ctx,
                    self._t(
                        ctx,
                        "Only your own last move can be undone, and only while nobody has "
                        "acted since.",
                    ),
                )
            events = [e for a in batch for e in a.events]
            if not game.undoable(events):
                return self._say(
                    ctx,
                    self._t(
                        ctx,
                        "That move revealed hidden or random information, so it cannot be undone.",
                    ),
                )
            state = undone
            state_json = canonical_json(state)
            lines = [self._t(ctx, "{name} takes back their last move.", name=seat.display_name)]
            if any(a.user_key != seat.user_key for a in batch):
                lines.append(self._t(ctx, "The moves that answered it are taken back too."))
            played = Played([Step(lines, state_json, [])], state, state_json, fresh.version + 1)
            outs = await self._announce(
                ctx, replace(fresh, version=fresh.version + 1), ctx.seats, played
            )
            outs, rows = self._rows(ctx, outs, row.id)
            result = await self.store.undo_last(
                row.id,
                fresh.version,
                batch[0].seq,
                state_json,
                self._due(game, state, hours),
                self._inbound_key(ctx),
                outbox=rows,
            )
            if result.outcome is Outcome.DUPLICATE:
                return []
            if result.outcome is not Outcome.OK:
                return self._say(ctx, self._t(ctx, "The game moved on; nothing was undone."))
        self.wake_senders()
        return self._queued(outs, result.outbox_ids)

    async def _cmd_abort(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        if row is None:
            return self._no_game(ctx)
        if not self._can_manage(ctx):
            return self._say(
                ctx, self._t(ctx, "Only the creator or a chat admin can end the game.")
            )
        game_name = self._game_of(row).name
        if not line.args or line.args[0].casefold() != "confirm":
            payload = f"{row.id}:{row.version}:/abort confirm"
            return self._say(
                ctx,
                self._t(ctx, "End {game} without a result? Send /abort confirm.", game=game_name),
                buttons=[[Button(self._t(ctx, "Yes, end the game"), payload)]],
            )
        async with self._lock(row.id):
            result = await self.store.end_game(
                row.id, row.version if ctx.from_button else None, "aborted", self._inbound_key(ctx)
            )
        if result.outcome is Outcome.DUPLICATE:
            return []
        if result.outcome is not Outcome.OK:
            return self._say(ctx, self._t(ctx, "The game moved on; send /abort again."))
        return self._say(
            ctx,
            self._t(ctx, "{game} was ended without a result. /new starts another.", game=game_name),
        )
