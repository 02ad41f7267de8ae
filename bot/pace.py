"""The pace line of /status: "At this pace the game ends about Thursday; most waiting is on Bob."

How far a game has come is the game's own measure, read from its plain JSON state: Power Grid's
largest network against the end threshold (PG-6), the variant's covered cities (ALT-44),
Hexania's round against its round limit (HEX-2.6), IEC's game turn against the scenario's.
The time since the start divided by that fraction estimates the end; who waits longest comes
from the log's turns (bot/clock.py).
"""

from __future__ import annotations

import logging
from datetime import datetime

from babel.dates import format_date

from bot.clock import Turns, most_waiting
from bot.deadlines import zone
from bot.i18n import tr
from engine.core.protocol import State
from engine.iec.model import param
from engine.powergrid.rules import limits, max_cities
from engine.powergrid_alt.queries import covered, play_nodes

log = logging.getLogger(__name__)

# Below this much progress (or time) an estimate says nothing useful.
MIN_PROGRESS = 0.05
MIN_ELAPSED = 3600.0
WEEK = 6 * 86400.0


def progress(game_id: str, state: State) -> float | None:
    """How far the game has come, 0..1 (None when the game gives no measure)."""
    try:
        if game_id == "powergrid":
            return min(1.0, max_cities(state) / limits(state)["end"])
        if game_id == "powergrid_alt":
            nodes = list(play_nodes(state))
            return sum(1 for n in nodes if covered(state, n)) / len(nodes) if nodes else None
        if game_id == "hexania":
            rounds = int(state["options"]["rounds"])
            return min(1.0, (int(state["round"]) - 1) / rounds) if rounds > 0 else None
        if game_id == "iec":
            turns = int(param(state, "turns"))
            done = int(state["turn"]) - 1 + int(state["phase"]) / 15.0
            return min(1.0, done / turns) if turns > 0 else None
    except Exception:
        log.debug("no progress measure for %s", game_id, exc_info=True)
    return None


def _locale(lang: str) -> str:
    return lang if lang in ("ru", "pl", "zh_Hant") else "en"


def end_estimate(started: float, now: float, done: float | None) -> float | None:
    """When the game ends at the pace so far (None when it is too early to say)."""
    elapsed = now - started
    if done is None or done < MIN_PROGRESS or elapsed < MIN_ELAPSED:
        return None
    return now + elapsed * (1.0 - done) / done


def human_day(t: float, now: float, tz: str, lang: str) -> str:
    """A day as its reader says it: the weekday within the week ahead ("Thursday",
    "четверг", "czwartek", "星期四"), else the date."""
    local = datetime.fromtimestamp(t, zone(tz))
    if t - now <= WEEK:
        return format_date(local, "EEEE", locale=_locale(lang))
    return format_date(local, "medium", locale=_locale(lang))


def pace_line(
    lang: str,
    game_id: str,
    state: State,
    turns: dict[str, Turns],
    humans: list[str],
    started: float | None,
    now: float,
    tz: str,
) -> str:
    """The pace line (empty when there is nothing to say yet)."""
    done = progress(game_id, state)
    end = end_estimate(started, now, done) if started is not None else None
    slowest = most_waiting(turns, humans, now) if len(humans) > 1 else None
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
