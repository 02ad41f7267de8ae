"""A player who keeps running out of time: the way out, said where the table reads it.

Under `policy=skip` a silent player's turns get the default move at each deadline, and the
table goes on waiting a whole deadline for each of his turns (found play-testing: a player
ran out of time five times in six days; round 1 of Power Grid had not ended after six days).
Each time he runs out of time is counted per game; from the `CHRONIC`-th on, the note of the
default move says how often and how to give his seat to a bot ("Dee has run out of time 3
times in this game: /vote replace Dee lets a bot play the seat."), and a vote to replace him
may be cast at any time, not only while the table waits for him: the default move has just
ended the turn that would have let it (bot/reminder_commands.py `_cmd_vote`).

The counts live with the player (users.prefs, as the remembered refusal of his DMs, bot/outbox.py
`DmMemory`): `TIMEOUTS` maps a game's row id to his count there, the latest `KEPT` games kept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.i18n import trn
from bot.store_plans import PrefsChange

TIMEOUTS = "timeouts"
# Two missed deadlines may be a busy weekend; the third says the seat is left.
CHRONIC = 3
KEPT = 20


class UserPrefs(Protocol):
    async def user_prefs(self, user_keys: Sequence[str]) -> dict[str, dict[str, Any]]: ...

    async def update_user_prefs(self, user_key: str, change: PrefsChange) -> dict[str, Any]: ...


def timeouts_in(prefs: Mapping[str, Any], game: int) -> int:
    """How often the player whose prefs these are ran out of time in `game` (a row id)."""
    counts = prefs.get(TIMEOUTS)
    value = counts.get(str(game)) if isinstance(counts, dict) else None
    return value if isinstance(value, int) else 0


def is_chronic(prefs: Mapping[str, Any], game: int) -> bool:
    return timeouts_in(prefs, game) >= CHRONIC


def chronic_note(lang: str, name: str, count: int) -> list[str]:
    """The default move's further note for the `count`-th time `name` ran out of time, in
    the chat's language; none before `CHRONIC`."""
    if count < CHRONIC:
        return []
    return [
        trn(
            lang,
            "{name} has run out of time {n} time in this game: /vote replace {name} lets a "
            "bot play the seat.",
            "{name} has run out of time {n} times in this game: /vote replace {name} lets a "
            "bot play the seat.",
            count,
            name=name,
        )
    ]


async def timeouts(store: UserPrefs, user_key: str, game: int) -> int:
    return timeouts_in((await store.user_prefs([user_key])).get(user_key, {}), game)


async def set_timeouts(store: UserPrefs, user_key: str, game: int, count: int) -> None:
    """Keep `count` as the player's count in `game` (games beyond the latest `KEPT` go). A
    change made in the store on his counts as they are then: before, the counts were read,
    changed and written back whole, and a count of another game written meanwhile (his turns
    running out at two tables at once, on two workers) was lost."""
    await store.update_user_prefs(user_key, lambda prefs: with_timeouts(prefs, game, count))


def with_timeouts(prefs: Mapping[str, Any], game: int, count: int) -> dict[str, Any]:
    """`prefs` with `count` as the count in `game`, the latest `KEPT` games' kept."""
    old = prefs.get(TIMEOUTS)
    counts = {k: v for k, v in old.items() if k != str(game)} if isinstance(old, dict) else {}
    counts[str(game)] = count
    kept = sorted(counts, key=lambda k: int(k) if k.isdigit() else -1)[-KEPT:]
    return {**prefs, TIMEOUTS: {k: counts[k] for k in kept}}
