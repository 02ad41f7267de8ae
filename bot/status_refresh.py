"""The live status message brought up to date outside a move (bot/announce.py keeps it after
every move): a setting that changes when the bot acts on the running turn edits its deadline
line at once.

`/settings quiet=off` (or `tz=`, `reminders=`, `clock=bank:...`) and a player's own `/me quiet=`
or `tz=` replan the running turn (bot/reminder_commands.py, bot/me.py): the bot then acts at
another moment, which /status says at once. The pinned message kept the moment it showed
before until the next move (found by a play-tester: "Deadline: Mar 11, 9:12 AM" pinned while
the default move came at 07:30, the chat's quiet hours switched off at 20:00). The command
reads each game's status message as it stands before the change (`live_statuses`) and, after
it, edits those that now read otherwise (`refresh_statuses`), with no new event lines (the
phase's stay) and the prompt's buttons; a change that moves nothing (pictures=, deadline=,
which applies from the next turn) edits nothing. The edit is computed and written under the
game's lock, as a move's status message is, so it never overtakes a move's.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from bot.announce import AnnounceMixin
from bot.context import Ctx, Played, fit
from bot.messages import Inbound, Outbound
from bot.outbox import platform_of, row_of
from engine.core import load_state

log = logging.getLogger(__name__)


class StatusRefreshMixin(AnnounceMixin):
    """The live status message as it stands, and its edit after a setting changed it."""

    async def live_statuses(self, game_ids: Sequence[int], user_key: str) -> dict[int, Outbound]:
        """The live status message of each running game of `game_ids` as it would read now
        (games whose chat keeps none are left out), read for the person `user_key`."""
        out: dict[int, Outbound] = {}
        for pk in game_ids:
            status = await self._standing_status(pk, user_key)
            if status is not None:
                out[pk] = status
        return out

    async def refresh_statuses(self, before: Mapping[int, Outbound], user_key: str) -> int:
        """Edit the status message of each game of `before` (its `live_statuses` before a
        change) that reads otherwise now; how many were edited."""
        edited = 0
        for pk, old in before.items():
            async with self._lock(pk), self.store.game_lock(pk):
                new = await self._standing_status(pk, user_key)
                if new is None or (new.text, new.buttons) == (old.text, old.buttons):
                    continue
                await self.store.outbox_add(
                    [row_of(o, o.lang or self.default_lang, pk) for o in fit([new])]
                )
            edited += 1
        if edited:
            self.wake_senders()
        return edited

    async def _standing_status(self, pk: int, user_key: str) -> Outbound | None:
        """`_status_now`, or None when it fails: the setting is saved all the same (logged)."""
        try:
            return await self._status_now(pk, user_key)
        except Exception:
            log.exception("game %s: the status message could not be read again", pk)
            return None

    async def _status_now(self, pk: int, user_key: str) -> Outbound | None:
        """Game `pk`'s live status message as it stands: who acts, what is asked and when the
        bot acts (bot/status_deadline.py, the turn under way kept), with the buttons and no
        new lines; None for a game not running or a chat without a sender loop (the terminal
        keeps no status message)."""
        row = await self.store.game(pk)
        if row is None or not self._is_durable(row.chat_key):
            return None
        # the game's chat read as a message there reads it: its settings, seats, the players'
        # /me prefs, the turn kept
        inbound = Inbound(platform_of(row.chat_key), row.chat_key, user_key, "")
        ctx = Ctx(inbound, self.default_lang)
        await self._load(ctx)
        row = ctx.game
        if (
            row is None
            or row.id != pk
            or row.status != "active"
            or row.state_json is None
            or row.game_id not in self.games
        ):
            return None
        game = self._game_of(row)
        state = load_state(row.state_json)
        played = Played([], state, row.state_json, row.version)
        now = played.now(game)
        if now.over:
            return None
        played.asked_before = list(now.current)  # the turn goes on: its deadline is kept
        seats = ctx.seats
        asked = [s.display_name for s in seats if s.display_name in now.current and not s.is_bot]
        langs = await self._langs_of(ctx, seats)
        everyone = self._mention_prompt(ctx, row, state, row.version, seats, langs, moment=now)
        due = await self._deadline_text(ctx, row, now, asked, played.asked_before, played)
        return self._status_message(ctx, row, [], self._asked_text(everyone, asked), due, everyone)
