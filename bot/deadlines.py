"""Deadline arithmetic (pure): durations, time zones, quiet hours and chat settings. The
reminder points of a turn and when the bot acts on them: bot/expiry.py; bot/reminders.py
acts on them."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from babel.dates import format_date, format_time, format_timedelta, get_datetime_format

from bot.i18n import tr
from bot.moment import Moment
from bot.store import DEFAULT_DEADLINE_HOURS, Due
from engine.core import canonical_json, load_state

log = logging.getLogger(__name__)

POLICIES = ("remind", "skip", "bot")
# How often the chat sees a board picture (bot/announce.py): after each phase by default.
PICTURES = ("phase", "round", "turn", "off")
DEFAULT_REMINDERS = (0, 50, 90)
MIN_DEADLINE = 10 * 60.0
MAX_DEADLINE = 14 * 24 * 3600.0
MIN_AWAY = 10 * 60.0
MAX_AWAY = 90 * 24 * 3600.0
# After the expiry under `remind`, one more reminder per this much (or per deadline if longer).
NAG_EVERY = 24 * 3600.0
DEFAULT_DIGEST_HOUR = 9

_UNITS = {"m": 60.0, "h": 3600.0, "d": 86400.0}
_DURATION = re.compile(r"(\d+(?:\.\d+)?)([mhd])")
_OFFSET = re.compile(r"^([+-])(\d{1,2})(?::?(\d{2}))?$")


# ====================================================================== parsing
def parse_duration(text: str) -> float | None:
    """ "10m", "6h", "2d", "1d12h", "1.5h" -> seconds; None when malformed."""
    text = text.strip().casefold()
    if not text:
        return None
    pos, total = 0, 0.0
    for match in _DURATION.finditer(text):
        if match.start() != pos:
            return None
        total += float(match.group(1)) * _UNITS[match.group(2)]
        pos = match.end()
    return total if pos == len(text) and total > 0 else None


def format_duration(seconds: float) -> str:
    """The inverse, shortest form: 86400 -> "1d", 5400 -> "1h30m"."""
    minutes = max(0, round(seconds / 60))
    days, minutes = divmod(minutes, 1440)
    hours, minutes = divmod(minutes, 60)
    parts = [f"{n}{u}" for n, u in ((days, "d"), (hours, "h"), (minutes, "m")) if n]
    return "".join(parts) or "0m"


def _locale(lang: str | None) -> str:
    """The Babel locale of a catalog name ("zh_Hant", "ru"; English otherwise)."""
    return lang if lang in ("ru", "pl", "zh_Hant") else "en"


def deadline_hours(settings: Mapping[str, Any]) -> float:
    """A chat's move deadline in hours (`/settings deadline=`), the default for a value that
    is missing or unusable."""
    try:
        hours = float(settings.get("deadline_hours", DEFAULT_DEADLINE_HOURS))
    except (TypeError, ValueError):
        return DEFAULT_DEADLINE_HOURS
    return hours if hours > 0 else DEFAULT_DEADLINE_HOURS


def turn_due(at: Moment, now: float, hours: float, told: bool = False) -> Due | None:
    """The reminders row of the turn `at` begins at `now`: who must act and when their move
    is due (`told`: the ask notified them all); None once the game is over."""
    if at.over:
        return None
    return Due(list(at.current), now, now + hours * 3600.0, ask_notified=told)


def human_duration(seconds: float, lang: str | None) -> str:
    """A duration as its reader says it, with Babel's plural forms: 129600 -> "1 day 12
    hours", "1 день 12 часов", "1 dzień 12 godzin", "1 天 12 小時" (whole minutes; a time
    under a minute that is left is "1 minute", none "0 minutes": never "0 seconds" in a
    line that counts in minutes, found play-testing, 2026-12-04)."""
    minutes = max(0, round(seconds / 60))
    if minutes == 0 and seconds > 0:
        minutes = 1
    days, minutes = divmod(minutes, 1440)
    hours, minutes = divmod(minutes, 60)
    parts = [
        # threshold=1: each part is a whole count of its own unit, never rounded up
        format_timedelta(delta, threshold=1, format="long", locale=_locale(lang))
        for n, delta in (
            (days, timedelta(days=days)),
            (hours, timedelta(hours=hours)),
            (minutes, timedelta(minutes=minutes)),
        )
        if n
    ]
    if not parts:
        return format_timedelta(
            timedelta(0), threshold=1, format="long", granularity="minute", locale=_locale(lang)
        )
    return " ".join(parts)


def overdue_head(lang: str, game: str, chat: str | None, late: float) -> str:
    """The first line of a reminder once the move's deadline has passed (`late` seconds ago;
    `game`: its name in `lang`; `chat` None in that chat itself): how long past it, or,
    under a minute past it, that it has just passed. The expiry's reminder is sent at the
    deadline itself, and read "has been waiting for your move for 0 seconds past the
    deadline" (found play-testing)."""
    if chat is None and late < 60:
        return tr(
            lang,
            "Time is up: {game} is waiting for your move; the deadline has just passed.",
            game=game,
        )
    if chat is None:
        return tr(
            lang,
            "Time is up: {game} has been waiting for your move for {late} past the deadline.",
            game=game,
            late=human_duration(late, lang),
        )
    if late < 60:
        return tr(
            lang,
            "Time is up: {game} ({chat}) is waiting for your move; the deadline has just passed.",
            game=game,
            chat=chat,
        )
    return tr(
        lang,
        "Time is up: {game} ({chat}) has been waiting for your move for {late} past the deadline.",
        game=game,
        chat=chat,
        late=human_duration(late, lang),
    )


def human_when(t: float, tz: str, lang: str | None) -> str:
    """A moment in the reader's locale and the chat's time zone: "Nov 14, 2023, 11:13 PM",
    "14 нояб. 2023 г., 23:13", "2023年11月14日 晚上11:13" (Babel's medium date, short time)."""
    local = datetime.fromtimestamp(t, zone(tz))
    locale = _locale(lang)
    pattern = str(get_datetime_format("medium", locale=locale))
    return pattern.replace("{1}", format_date(local, "medium", locale=locale)).replace(
        "{0}", format_time(local, "short", locale=locale)
    )


def parse_tz(text: str) -> str | None:
    """A time zone as stored: "UTC", "+03:00", "-05:30" or an IANA name, taken whatever its
    capitals and stored as the zone database spells it; None if unknown."""
    text = text.strip()
    if text.casefold() in ("utc", "z", "gmt"):
        return "UTC"
    m = _OFFSET.match(text)
    if m:
        hours, minutes = int(m.group(2)), int(m.group(3) or 0)
        if hours > 14 or minutes > 59:
            return None
        return f"{m.group(1)}{hours:02d}:{minutes:02d}"
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+)*", text):
        return None
    # the name as the zone database spells it, whatever the capitals ("europe/warsaw", typed
    # on a phone, was refused; found by a play-tester): stored and shown so
    name = _zone_names().get(text.casefold(), text)
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None
    return name


@lru_cache(maxsize=1)
def _zone_names() -> dict[str, str]:
    """The zone database's names by their lower case ("europe/warsaw" -> "Europe/Warsaw"):
    read once, at the first zone name parsed (it walks the database, some 70 ms)."""
    return {name.casefold(): name for name in available_timezones()}


def zone(name: str) -> tzinfo:
    """The tzinfo of a stored time zone (UTC when it no longer resolves)."""
    m = _OFFSET.match(name)
    if m:
        delta = timedelta(hours=int(m.group(2)), minutes=int(m.group(3) or 0))
        return timezone(-delta if m.group(1) == "-" else delta)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return UTC


@dataclass(frozen=True)
class Bank:
    """A time bank per player (BGA style): `start` seconds at the first turn, `add` more after
    each of their moves (bot/clock.py keeps the accounts)."""

    start: float
    add: float = 0.0

    def text(self) -> str:
        return f"bank:{format_duration(self.start)}" + (
            f"+{format_duration(self.add)}" if self.add else ""
        )


MIN_BANK = 10 * 60.0
MAX_BANK = 60 * 24 * 3600.0


def parse_bank(text: str) -> Bank | None:
    """ "bank:3d+12h" -> Bank(3 days, 12 hours); "bank:2d" -> no increment; None for
    "deadline" (a deadline per move) and for anything malformed (`valid_clock` tells them
    apart)."""
    text = text.strip().casefold()
    if not text.startswith("bank:"):
        return None
    start_text, plus, add_text = text[5:].partition("+")
    start = parse_duration(start_text)
    add = parse_duration(add_text) if plus else 0.0
    if start is None or add is None or not MIN_BANK <= start <= MAX_BANK or add > MAX_DEADLINE:
        return None
    return Bank(start, add)


def valid_clock(text: str) -> str | None:
    """The stored form of a `clock=` setting: "deadline" or "bank:3d+12h"; None if bad."""
    if text.strip().casefold() in ("deadline", "off"):
        return "deadline"
    bank = parse_bank(text)
    return bank.text() if bank is not None else None


def parse_quiet(text: str) -> tuple[int, int] | str | None:
    """ "22-08" -> (22, 8); "off" -> None; "" (bad) -> an error marker string."""
    text = text.strip().casefold()
    if text in ("off", "none", "no"):
        return None
    m = re.fullmatch(r"(\d{1,2})(?::00)?-(\d{1,2})(?::00)?", text)
    if not m:
        return "bad"
    start, end = int(m.group(1)), int(m.group(2))
    if not (0 <= start <= 23 and 0 <= end <= 23) or start == end:
        return "bad"
    return (start, end)


def parse_percents(text: str) -> tuple[int, ...] | None:
    """ "0,50,90" -> (0, 50, 90); "off" -> (); None when malformed (each 0..99)."""
    text = text.strip().casefold()
    if text in ("off", "none", "no"):
        return ()
    try:
        values = sorted({int(p.strip().rstrip("%")) for p in text.split(",") if p.strip()})
    except ValueError:
        return None
    if not values or len(values) > 10 or any(not 0 <= v <= 99 for v in values):
        return None
    return tuple(values)


# ====================================================================== settings
@dataclass(frozen=True)
class ChatSettings:
    """A chat's deadline settings, stored in chats.settings_json (`deadline_hours` is the key
    the table reads when it writes a turn's deadline)."""

    deadline: float = DEFAULT_DEADLINE_HOURS * 3600.0
    reminders: tuple[int, ...] = DEFAULT_REMINDERS
    quiet: tuple[int, int] | None = None
    tz: str = "UTC"
    policy: str = "remind"
    games: tuple[str, ...] = ()  # the games enabled here (/settings games=...); () = all
    hints: bool = True  # /hint answers at this table (issue 24: /settings hints=off)
    pictures: str = PICTURES[0]
    # "deadline" (one deadline per move) or a time bank per player, "bank:3d+12h" (bot/clock.py)
    clock: str = "deadline"

    @property
    def bank(self) -> Bank | None:
        return parse_bank(self.clock)

    @classmethod
    def load(cls, raw: dict[str, Any]) -> ChatSettings:
        """Tolerant: a value that does not parse keeps its default. Read once per settings
        text (a move's announcement asks it; the time zone's parse costs tens of µs)."""
        return _settings_of(canonical_json(raw)) if cls is ChatSettings else cls._parse(raw)

    @classmethod
    def _parse(cls, raw: dict[str, Any]) -> ChatSettings:
        s = cls()
        try:
            hours = float(raw.get("deadline_hours", DEFAULT_DEADLINE_HOURS))
            if MIN_DEADLINE <= hours * 3600 <= MAX_DEADLINE:
                s = replace(s, deadline=hours * 3600.0)
        except (TypeError, ValueError):
            pass
        percents = raw.get("reminders")
        if isinstance(percents, list) and all(
            isinstance(p, int) and 0 <= p <= 99 for p in percents
        ):
            s = replace(s, reminders=tuple(sorted(set(percents))))
        quiet = raw.get("quiet")
        if (
            isinstance(quiet, list)
            and len(quiet) == 2
            and all(isinstance(h, int) and 0 <= h <= 23 for h in quiet)
            and quiet[0] != quiet[1]
        ):
            s = replace(s, quiet=(quiet[0], quiet[1]))
        tz = raw.get("tz")
        if isinstance(tz, str) and parse_tz(tz):
            s = replace(s, tz=tz)
        if raw.get("policy") in POLICIES:
            s = replace(s, policy=raw["policy"])
        games = raw.get("games")
        if isinstance(games, list) and all(isinstance(g, str) for g in games):
            s = replace(s, games=tuple(games))
        if raw.get("hints") is False:
            s = replace(s, hints=False)
        if raw.get("pictures") in PICTURES:
            s = replace(s, pictures=raw["pictures"])
        clock = raw.get("clock")
        if isinstance(clock, str) and parse_bank(clock) is not None:
            s = replace(s, clock=clock)
        return s

    def dump(self, into: dict[str, Any]) -> dict[str, Any]:
        out = dict(into)
        out.update(
            deadline_hours=self.deadline / 3600.0,
            reminders=list(self.reminders),
            quiet=list(self.quiet) if self.quiet else None,
            tz=self.tz,
            policy=self.policy,
            games=list(self.games),
            hints=self.hints,
            pictures=self.pictures,
            clock=self.clock,
        )
        return out


def out_of_quiet(t: float, settings: ChatSettings) -> float:
    """`t`, or the end of the quiet period containing it (in the chat's time zone)."""
    return quiet_end(t, settings.quiet, settings.tz)


@dataclass(frozen=True)
class Quiet:
    """One person's quiet hours (`/me quiet=23-08 tz=Europe/Warsaw`, bot/me.py)."""

    hours: tuple[int, int] | None
    tz: str = "UTC"


def quiet_of(prefs: dict[str, Any]) -> Quiet:
    """A person's stored quiet hours (none when unset or no longer valid)."""
    hours = prefs.get("quiet")
    tz = prefs.get("tz")
    zone = tz if isinstance(tz, str) and parse_tz(tz) else "UTC"
    if (
        isinstance(hours, list)
        and len(hours) == 2
        and all(isinstance(h, int) and 0 <= h <= 23 for h in hours)
        and hours[0] != hours[1]
    ):
        return Quiet((hours[0], hours[1]), zone)
    return Quiet(None, zone)


def quiet_end(t: float, quiet: tuple[int, int] | None, tz: str) -> float:
    """`t`, or the end of the quiet period `quiet` (local hours in `tz`) containing it."""
    if quiet is None:
        return t
    start, end = quiet
    local = datetime.fromtimestamp(t, zone(tz))
    hour = local.hour
    inside = start <= hour < end if start < end else hour >= start or hour < end
    if not inside:
        return t
    naive = local.replace(tzinfo=None, hour=end, minute=0, second=0, microsecond=0)
    if naive <= local.replace(tzinfo=None):
        naive += timedelta(days=1)
    return max(t, naive.replace(tzinfo=local.tzinfo).timestamp())


def out_of_everyones_quiet(t: float, people: Sequence[Quiet]) -> float:
    """The first moment from `t` that falls in nobody's quiet hours; when their quiet hours
    together cover the whole day, the end of the first person's (someone is woken anyway)."""
    moved = t
    for _ in range(4 * len(people) + 1):
        later = moved
        for person in people:
            later = quiet_end(later, person.hours, person.tz)
        if later == moved:
            return moved
        moved = later
        if moved - t > 86400.0:
            break
    return quiet_end(t, people[0].hours, people[0].tz) if people else t


def next_local_hour(now: float, hour: int, tz: str) -> float:
    """The first moment after `now` when the clock in `tz` shows `hour`:00."""
    local = datetime.fromtimestamp(now, zone(tz))
    naive = local.replace(tzinfo=None, hour=hour, minute=0, second=0, microsecond=0)
    if naive <= local.replace(tzinfo=None):
        naive += timedelta(days=1)
    return max(now + 1, naive.replace(tzinfo=local.tzinfo).timestamp())


@lru_cache(maxsize=1024)
def _settings_of(text: str) -> ChatSettings:
    """`ChatSettings.load` of the settings whose canonical JSON is `text` (a frozen value,
    shared safely)."""
    return ChatSettings._parse(load_state(text))
