"""What a player is told of his own seat while he is away or a bot plays it.

Found play-testing under policy bot: a player whose time ran out learned nothing privately
(the group's note, "Dee ran out of time: a bot plays the seat...", was all), and his /status
while away did not say that he was. Now:

- `taken_notice`: the private message, when a bot takes his seat at a deadline, saying how
  to take it back; only where the bot may write to him privately (he wrote to it there, and
  no refusal of his DMs is known): otherwise the group's note stays all there is. Silent in
  his own quiet hours (`/me quiet=`): the seat is taken at the table's time (bot/expiry.py),
  the message waits on his phone without waking him (before, "Your time ran out…" notified
  him at 02:00 through his quiet hours 23-07, found by a play-tester, 2026-12).
- `absence_line`: his /status says he is away (until when, what happens to his turns) or
  that a bot plays his seat (why, and how to take it back).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.chatnames import NameStore, label_of
from bot.deadlines import ChatSettings, human_when, quiet_end, quiet_of
from bot.i18n import normalize, tr
from bot.messages import Outbound
from bot.outbox import DM_CLOSED
from bot.store import GameRow, SeatRow, UserRow
from bot.store_plans import AutopilotRow
from engine.core import N_
from engine.core.sentences import join_sentences


class SeatStore(NameStore, Protocol):
    async def user(self, user_key: str) -> UserRow: ...

    async def user_prefs(self, user_keys: Sequence[str]) -> dict[str, dict[str, Any]]: ...


async def taken_notice(
    store: SeatStore, row: GameRow, game_name: str, seat: SeatRow, chat_lang: str, now: float
) -> list[Outbound]:
    """The private note to the player whose seat a bot took at his deadline (none when the
    bot cannot write to him privately), silent when `now` falls in his quiet hours."""
    user = await store.user(seat.user_key)
    prefs = (await store.user_prefs([seat.user_key])).get(seat.user_key, {})
    if not user.dm_ok or prefs.get(DM_CLOSED):
        return []
    quiet = quiet_of(prefs)
    lang = normalize(user.lang or seat.lang or chat_lang)
    text = tr(
        lang,
        "Your time ran out in {game} ({chat}), so a bot plays your seat now. /back here, or "
        "any command in the game's chat, gives it back to you.",
        game=tr(lang, game_name),
        chat=await label_of(store, row.chat_key, lang),
    )
    return [
        Outbound(
            row.chat_key,
            text,
            private_to=seat.user_key,
            mentions=[(seat.user_key, seat.display_name)],
            lang=lang,
            silent=quiet_end(now, quiet.hours, quiet.tz) > now,
        )
    ]


def absence_line(
    lang: str,
    away_until: float | None,
    autopilot: AutopilotRow | None,
    settings: ChatSettings,
) -> str:
    """His own seat in a word for his /status ("" when he plays it himself)."""
    if away_until is not None:
        when = f"{human_when(away_until, settings.tz, lang)} ({settings.tz})"
        away = tr(lang, _AWAY[_away_kind(autopilot, settings)], when=when)
        return join_sentences(away, tr(lang, "/back ends it early."))
    if autopilot is None:
        return ""
    if autopilot.reason == "vote":
        return tr(
            lang,
            "The table voted a bot into your seat; /back in the game's chat gives it back to you.",
        )
    return tr(
        lang,
        "A bot plays your seat since your time ran out; /back, or any command in the game's "
        "chat, gives it back to you.",
    )


_AWAY: Mapping[str, str] = {
    "bot": N_("You are away until {when}: a bot plays your seat meanwhile."),
    "skip": N_("You are away until {when}: your turns get the default move meanwhile."),
    "wait": N_("You are away until {when}: your turns wait for you meanwhile."),
}


def _away_kind(autopilot: AutopilotRow | None, settings: ChatSettings) -> str:
    """What happens to an absent player's turns here: a bot plays them (it took his seat),
    the default move (policy skip), or they wait (policy remind, or no other person at the
    table for a bot to stand in beside: bot/reminders.py `unattended`)."""
    if autopilot is not None:
        return "bot"
    return "skip" if settings.policy == "skip" else "wait"
