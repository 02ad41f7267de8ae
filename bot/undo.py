"""Undo (replay without the last move) and abort."""

from __future__ import annotations

import logging
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
    Outcome,
)
from bot.workers import cpu
from engine.core import canonical_json, replay

log = logging.getLogger(__name__)


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
            last_version = actions[-1].version
            batch = [a for a in actions if a.version == last_version]
            if any(a.user_key != seat.user_key for a in batch):
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
            keep = [(a.player, a.action) for a in actions if a.version != last_version]
            names = [s.display_name for s in ctx.seats]
            state = await cpu(replay, game, names, dict(fresh.options), fresh.seed, keep)
            state_json = canonical_json(state)
            played = Played(
                [
                    Step(
                        [
                            self._t(
                                ctx, "{name} takes back their last move.", name=seat.display_name
                            )
                        ],
                        state_json,
                        [],
                    )
                ],
                state,
                state_json,
                fresh.version + 1,
            )
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
