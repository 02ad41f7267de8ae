"""The pace line of /status: "At this pace the game ends about Thursday; most waiting is on Bob."

How far a game has come is the game's own measure (`Game.progress`, in each game's
logtext.py: the bot knows no game's rules). The time since the start divided by that fraction
estimates the end; who waits longest comes from the log's turns (bot/clock.py).
"""

from __future__ import annotations

from datetime import datetime

from babel.dates import format_date

from bot.clock import Turns, most_waiting
from bot.deadlines import zone
from bot.i18n import tr

# Below this much progress (or time) an estimate says nothing useful.
MIN_PROGRESS = 0.05
MIN_ELAPSED = 3600.0
# Nobody is named as the one the table waits on most before the table has waited this long
# on him in all: "most waiting" of a few seconds or minutes only blames whoever happens to be
# on turn (the game's first hour; found play-testing: right after /vote replace gave a
# silent player's seat to a bot, the next player was named for the seconds he had waited).
MIN_WAITED = 3600.0
# A weekday alone names a day at most this many days ahead: a week ahead is today's weekday
# again ("Monday" said on a Monday reads as today).
WEEKDAY_AHEAD = 6


def _locale(lang: str) -> str:
    return lang if lang in ("ru", "pl", "zh_Hant") else "en"


def end_estimate(started: float, now: float, done: float | None) -> float | None:
    """When the game ends at the pace so far (None when it is too early to say)."""
    elapsed = now - started
    if done is None or done < MIN_PROGRESS or elapsed < MIN_ELAPSED:
        return None
    return now + elapsed * (1.0 - done) / done


def human_day(t: float, now: float, tz: str, lang: str) -> str:
    """A day as its reader says it, counted in calendar days of `tz`: "today", "tomorrow"
    (the catalog's words: Babel has no relative day names for every language), the weekday
    within the week ahead ("Thursday", "четверг", "czwartek", "星期四"), else the date.
    Found play-testing: on a Monday, "the game ends about Monday" could be today or a week
    on."""
    where = zone(tz)
    local = datetime.fromtimestamp(t, where)
    days = (local.date() - datetime.fromtimestamp(now, where).date()).days
    if days <= 0:
        # TRANSLATORS: the day the game ends, {day} in "At this pace the game ends about
        # {day}." (the weekday's place: "about Thursday")
        return tr(lang, "today")
    if days == 1:
        # TRANSLATORS: the day the game ends, as "today" is
        return tr(lang, "tomorrow")
    if days <= WEEKDAY_AHEAD:
        return format_date(local, "EEEE", locale=_locale(lang))
    return format_date(local, "medium", locale=_locale(lang))


def pace_line(
    lang: str,
    done: float | None,
    turns: dict[str, Turns],
    people: list[str],
    started: float | None,
    now: float,
    tz: str,
) -> str:
    """The pace line (empty when there is nothing to say yet); `done`: the game's progress,
    0..1 (`Game.progress`); `people`: the persons seated, those a bot plays for now included
    (the waiting before it took over is theirs, bot/reminders.py)."""
    end = end_estimate(started, now, done) if started is not None else None
    slowest = most_waiting(turns, people, now, MIN_WAITED) if len(people) > 1 else None
    if end is not None and slowest is not None:
        return tr(
            lang,
            "At this pace the game ends about {day}; most waiting is on {name}.",
            day=human_day(end, now, tz, lang),
            name=slowest,
        )
    if end is not None:
        day = human_day(end, now, tz, lang)
        return tr(lang, "At this pace the game ends about {day}.", day=day)
    if slowest is not None:
        return tr(lang, "Most waiting so far is on {name}.", name=slowest)
    return ""
