"""Undo (replay without the last move) and abort."""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace

from bot.announce import ENDED_WITHOUT_RESULT
from bot.buttons import public_mark
from bot.context import (
    Ctx,
    Played,
    Step,
)
from bot.grammar import (
    CommandLine,
)
from bot.i18n import tr, translator
from bot.messages import Button, Outbound
from bot.moment import Moment
from bot.moves import MovesMixin
from bot.store import (
    ActionRow,
    Outcome,
)
from bot.workers import cpu
from engine.core import N_, IllegalAction, canonical_json, copy_state, load_state, replay
from engine.core.protocol import Game, State

log = logging.getLogger(__name__)

# An /undo's lines (for the chat, and in the sender's words for what only he sees).
TAKEN_BACK = N_("{name} takes back their last move.")
ANSWERS_TAKEN_BACK = N_("The moves that answered it are taken back too.")


@dataclass
class Undone:
    """What an undo leaves: the state, the rivals' hidden orders kept in the log (`keep`,
    their seqs), the owners of hidden orders that no longer apply and go too (`dropped`), the
    moves taken back (`taken`), and whether the table saw any of it (`public`)."""

    state: State
    keep: list[int] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    taken: list[ActionRow] = field(default_factory=list)
    public: bool = True


def _seen(game: Game, state: State) -> str:
    return canonical_json([game.view(state, None), list(game.current_players(state))])


def _undo_state(
    game: Game,
    names: list[str],
    options: dict[str, str],
    seed: int,
    actions: Sequence[ActionRow],
    batch: Sequence[ActionRow],
    bots: Collection[str],
) -> Undone | None:
    """The state without the sender's last move (`batch[0]`) and the moves that answered it
    without anyone deciding anything: a bot seat's, or a human's forced pass
    (`forced_action`). None when another player has made a public move since.

    "Acted since" is judged on public moves only (issue 20): another player's hidden move
    (a standing order, PG-O: the table's view and who is asked unchanged) stays in the log at
    its place and is applied again to the state without the undone moves, so the stored
    state is still the replay of the log (the replay law). One that no longer applies there
    leaves the log too, and its owner alone is told."""
    first = batch[0].version
    keep_rows = [(a.player, a.action) for a in actions if a.version < first]
    before = replay(game, names, options, seed, keep_rows)
    state = copy_state(before)
    undone = Undone(before, public=False)
    hidden: list[ActionRow] = []
    # Once another player has moved (a hidden move: it stays), what follows answers him, not
    # the sender: his forced /done after his own purchase (ALT-10, version 2) is his public
    # act, and the sender's /undo took it back with its own (found playing, 2026-12-02).
    others_moved = False
    for a in batch:
        if a.version != first:
            forced = a.user_key not in bots and (
                game.capabilities.forced_moves
                and game.forced_action(copy_state(state), a.player) == a.action
            )
            if others_moved or not (forced or a.user_key in bots):
                if not _quiet(game, state, a):
                    return None
                hidden.append(a)
                others_moved = others_moved or not forced
                state, _events = game.apply(state, a.player, a.action)
                continue
        undone.taken.append(a)
        if a.user_key in bots or a.user_key != batch[0].user_key or not _quiet(game, state, a):
            undone.public = True
        state, _events = game.apply(state, a.player, a.action)
    result = copy_state(before)
    for a in hidden:
        try:  # on a copy: a refused apply may leave its input half changed
            result, _events = game.apply(copy_state(result), a.player, a.action)
            undone.keep.append(a.seq)
        except IllegalAction:
            undone.dropped.append(a.user_key)
    undone.state = result
    return undone


def _quiet(game: Game, state: State, a: ActionRow) -> bool:
    """Whether `a`, applied to `state`, changed nothing the table sees (as moves.py's
    `unseen`): no public line, no picture, the same public view and players to act."""
    copy = copy_state(state)
    try:
        after, events = game.apply(copy, a.player, a.action)
    except IllegalAction:
        return False
    t = translator("en")
    if any(game.describe_event(after, e, t) or game.is_picture_event(e) for e in events):
        return False
    return not game.is_over(after) and _seen(game, after) == _seen(game, state)


class UndoMixin(MovesMixin):
    """/undo and /abort."""

    async def _cmd_undo(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        if row is None or row.status != "active":
            return self._refuse(ctx, self._t(ctx, "There is no running game here."))
        seat = ctx.seat()
        if seat is None:
            return self._refuse(ctx, self._t(ctx, "You are not playing in this game."))
        game = self._game_of(row)
        hours = await self._deadline_hours(row.chat_key, ctx)
        async with self._lock(row.id):
            fresh = await self.store.game(row.id)
            if fresh is None or fresh.status != "active" or fresh.seed is None:
                return self._refuse(ctx, self._t(ctx, "There is no running game here."))
            actions = await self.store.actions(row.id)
            if not actions:
                return self._refuse(ctx, self._t(ctx, "There is nothing to undo."))
            bots = {s.user_key for s in ctx.seats if s.is_bot}
            mine = [a for a in actions if a.user_key == seat.user_key]
            # his last command (the first step of its run), with the forced moves the table
            # made for him after it: a purchase that filled his plants and the /done forced
            # by it go back together (an /undo took back the /done alone, and the table
            # forced it again on the next move; rows logged before runs are all step 0)
            commands = [a.version for a in mine if a.step == 0]
            start = commands[-1] if commands else mine[-1].version if mine else None
            batch = [a for a in actions if start is not None and a.version >= start]
            names = [s.display_name for s in ctx.seats]
            undone = (
                await cpu(
                    _undo_state, game, names, dict(fresh.options), fresh.seed, actions, batch, bots
                )
                if batch
                else None
            )
            if undone is None:
                return self._refuse(
                    ctx,
                    self._t(
                        ctx,
                        "Only your own last move can be undone, and only while nobody has "
                        "acted since.",
                    ),
                )
            events = [e for a in undone.taken for e in a.events]
            if not game.undoable(events):
                return self._refuse(
                    ctx,
                    self._t(
                        ctx,
                        "That move revealed hidden or random information, so it cannot be undone.",
                    ),
                )
            state = undone.state
            state_json = canonical_json(state)
            version = fresh.version + 1
            if undone.public:
                # for the chat, and in his words for the copy only he sees (`_own_lang`)
                lines: list[str] = []
                words: list[str] = []
                for lang, into in ((ctx.post_lang, lines), (ctx.lang, words)):
                    into.append(tr(lang, TAKEN_BACK, name=seat.display_name))
                    if any(a.user_key != seat.user_key for a in undone.taken):
                        into.append(tr(lang, ANSWERS_TAKEN_BACK))
                own = words if self._own_lang(ctx) is not None else None
                steps = [Step(lines, state_json, [], own_lines=own)]
                # asked before it: those asked at the undone state, and the sender, who asked
                # for it; only someone else asked anew would be pinged (bot/quiet.py)
                was = Moment(game, load_state(fresh.state_json or "{}")).current
                asked = list(dict.fromkeys([*was, seat.display_name]))
                played = Played(steps, state, state_json, version, asked_before=asked)
                outs = await self._announce(ctx, replace(fresh, version=version), ctx.seats, played)
            else:  # a private move (a standing order, PG-O): the table never saw it (issue 20)
                outs = self._refuse(
                    ctx, self._t(ctx, "Your last move is taken back; nobody else is told.")
                )
            outs += await self._orders_dropped(ctx, undone.dropped)
            outs += await self._said_where(ctx, row, outs)
            if undone.public:
                # sent privately: his prompt, silent, where he plays (the group's news of it
                # is a silent edit); the turn's reminders go on, so nothing else is sent anew
                # to him or to those still asked the same thing (bot/store_sql.py
                # `carried_players`)
                now = played.now(game)
                outs += self._asked_again(ctx, row, played, now, seat.display_name, outs)
            outs, rows = self._rows(ctx, outs, row.id)
            result = await self.store.undo_last(
                row.id,
                fresh.version,
                batch[0].seq,
                state_json,
                self._due(game, state, hours),
                self._inbound_key(ctx),
                outbox=rows,
                keep=undone.keep,
            )
            if result.outcome is Outcome.DUPLICATE:
                return []
            if result.outcome is not Outcome.OK:
                return self._refuse(ctx, self._t(ctx, "The game moved on; nothing was undone."))
        self.wake_senders()
        return self._queued(outs, result.outbox_ids)

    async def _orders_dropped(self, ctx: Ctx, owners: Sequence[str]) -> list[Outbound]:
        """A private note to each owner of a hidden order the undo made inapplicable."""
        if not owners:
            return []
        langs = await self._langs_of(ctx, ctx.seats)
        lang_of = {s.user_key: langs.get(s.display_name, ctx.lang) for s in ctx.seats}
        return [
            Outbound(
                ctx.chat_key,
                tr(
                    lang_of.get(owner, ctx.lang),
                    "After an undo your standing order no longer applies, so it was removed. "
                    "Send it again if you still want it.",
                ),
                private_to=owner,
                lang=lang_of.get(owner),
                silent=True,
            )
            for owner in dict.fromkeys(owners)
        ]

    async def _cmd_abort(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        if row is None:
            return self._no_game(ctx)
        if not self._can_manage(ctx):  # the sender's alone, like every refusal
            return self._refuse(
                ctx, self._t(ctx, "Only the creator or a chat admin can end the game.")
            )
        game_name = self._game_of(row).name  # a msgid: each text words it in its language
        if not line.args or line.args[0].casefold() != "confirm":
            # a running game's button carries its public moment (bot/buttons.py), so a hidden
            # order (PG-O) does not make it stale; a lobby's carries the store's version
            moment = str(row.version)
            if row.status == "active" and row.state_json:
                moment = public_mark(self._game_of(row), load_state(row.state_json))
            payload = f"{row.id}:{moment}:/abort confirm"
            # a question for the asker alone: the table hears only the game's end
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "End {game} without a result? Send /abort confirm.",
                    game=self._t(ctx, game_name),
                ),
                buttons=[[Button(self._t(ctx, "Yes, end the game"), payload)]],
            )
        ended = self._tp(ctx, ENDED_WITHOUT_RESULT, game=self._tp(ctx, game_name))
        outs = self._say(ctx, ended)
        if await self.store.status_message(row.id) is not None:
            # the live status message says so and comes off the pins (issue 17)
            status = self._status_message(ctx, row, [], ended, None)
            status.unpin = True
            outs.append(status)
        outs, rows = self._rows(ctx, outs, row.id)
        async with self._lock(row.id):
            result = await self.store.end_game(
                row.id,
                row.version if ctx.from_button else None,
                "aborted",
                self._inbound_key(ctx),
                outbox=rows,
            )
        if result.outcome is Outcome.DUPLICATE:
            return []
        if result.outcome is not Outcome.OK:
            return self._refuse(ctx, self._t(ctx, "The game moved on; send /abort again."))
        self.wake_senders()
        return self._queued(outs, result.outbox_ids)
