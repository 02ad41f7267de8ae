"""When the bot really acts on a turn (pure): each player's reminder points, when each one goes
out to him through quiet hours and downtime, his first notifying reminder, and the expiry of
his seat that waits for it. bot/reminders.py acts on `decide_turn`; every display of a
deadline (the pinned status message, /status, a reminder's time left) shows
`Schedule.expires`, the moment the bot acts, not the deadline the move wrote.

Each player asked has his own schedule: the turn's points (percentages of the turn, or of his
own deadline under a time bank), held by the chat's quiet hours and by his own (`/me quiet=`),
his own record of what was sent (`TurnPlan.progress`, written by the claim that sends it) and
his own expiry. Before, one schedule served everyone asked at once and held each reminder
until nobody asked was in quiet hours: in a phase that asks every player (Power Grid's
bureaucracy) a player awake in Warsaw got his 19:00 reminder at 07:00 because another slept in
Taipei, his later one was swallowed and everyone's expiry moved with the sleeper's
(play-tester, 2026-12).

Quiet hours hold a point to their end: a reminder waits for the chat's and for the player's
own, and so does everything else that is a message to him alone: under policy `remind` the
"Time is up" reminder of the expiry and the nags after it (before, his own quiet hours did not
hold them: "Time is up" at 02:00, every night, to a player who had set `/me quiet=23-07`). The
expiry as an act (policy `skip` or `bot`: a default move, a bot taking the seat) waits for the
chat's quiet hours only; the player's own hold it through his first notice alone (the last
call, below), so they push it once per turn at most, by less than a day and a last call:
nobody gains unbounded time by declaring `quiet=08-07`. What the act tells him privately
(a bot took his seat) is silent in his quiet hours (bot/seat_notes.py). A point that passed
while the bot was down goes out when it looks again or, in quiet hours then, at their end, as
one on time would (found play-testing, 2026-12: back at 23:00 with quiet hours 22-08, a default
move was played and the next turn asked in the night).

A reminder that goes out late (quiet hours held it, or downtime) takes in the later reminder
points that would follow it sooner than half the time the chat's plan put between them
(`FOLD_SHARE`): held overnight to 08:00, the 50 % reminder of a turn whose 90 % point falls at
08:18 was followed by it twenty minutes later, both notifying; now the one at 08:00 is all.

The last call. A reminder held by quiet hours past the deadline used to meet the expiry held
to the same moment, and the expiry won: a turn begun at 23:00 (quiet 22-08, deadline 6 h) was
lost at 08:00 with no message ever telling its player; an evening turn's 50 % and 90 % points
fell in the night and its first message was "Time is up"; a player's own quiet hours held his
reminders to 08:00 while the expiry came at 03:00 (found by a play-tester living weeks of
simulated play, 2026-12). Now a player's expiry never comes sooner than a last call after his
first notifying reminder: a reminder point, or his start point held by quiet hours (the ask
then notified nobody, bot/announce.py). Another player's quiet hours push nothing of his: each
seat expires on its own schedule, the one told at 19:00 at the deadline, the one whose
reminder the night held at 00:00 a last call after it. The first notice is recorded by the
claim that sends it (`Progress.notified_at`), so a player's expiry is pushed once per turn at
most: nothing that happens after the notice (his new quiet hours) moves it again; a notice the
bot's downtime delayed pushes it from when it went, also when the expiry passed meanwhile,
unless the ask had notified the turn's players (`TurnPlan.ask_notified`, written with the turn
by the move whose messages asked them). Before, the bot down through the whole of a turn's
notice and expiry acted at once when back: a turn asked silently (its player asked again in
the round he played, bot/quiet.py; in quiet hours) whose reminders all fell in a crash, a
deploy or a host's outage was played for its player the moment the bot came back, though no
message had ever notified him. Now his reminder goes first, notifying, and the last call runs
from then, as for one the quiet hours held. A turn whose player was notified before the
downtime (by the ask, or a reminder) acts at once when the bot is back, as before (out of
quiet hours): the downtime alone pushes nothing. The table's ask itself is no reminder: a chat
whose reminders all come on time keeps its deadlines (the last call never exceeds what its
first notifying point was planned to leave).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace

from bot.deadlines import NAG_EVERY, ChatSettings, Quiet, out_of_everyones_quiet, out_of_quiet
from bot.store import TurnPlan
from bot.store_plans import Progress

# The last call: what is left of a turn after its first notifying reminder, when quiet hours
# or downtime held that reminder late: max(1 hour, 10 % of the turn's deadline). 10 % is what
# the default reminders (0, 50, 90 %) leave after the last of them, so a player the night held
# gets what one on time gets from his last reminder (2.4 hours of a day's turn, 7.2 of three
# days); at least an hour, since a short turn's tenth (6 minutes of an hour) is too short to
# see a notification, open the chat and think a move over. Capped by the gap the chat's own
# plan left between that point and the deadline (`last_call`): a turn of ten minutes keeps ten.
LAST_CALL_AT_LEAST = 3600.0
LAST_CALL_SHARE = 0.10
# A reminder that goes out late takes in the later reminder points due sooner after it than
# this share of the time the chat's plan put between the two (`_folded`): two reminders of a
# turn are never closer than half their planned spacing.
FOLD_SHARE = 0.5


def last_call(span: float, gap: float) -> float:
    """The last call of a turn `span` long whose first notifying point was planned `gap`
    before its deadline."""
    return max(0.0, min(max(LAST_CALL_AT_LEAST, LAST_CALL_SHARE * span), gap))


@dataclass(frozen=True)
class Point:
    at: float  # unshifted time
    kind: str  # "start" | "remind" | "expire" | "nag"
    # a start point the chat did not ask for (no 0 % in /settings reminders=): there only
    # because quiet hours kept the table's ask from notifying; it goes to those they held
    held_only: bool = False


def turn_points(plan: TurnPlan, settings: ChatSettings, until: float, nag: bool) -> list[Point]:
    """The reminder points of a turn in time order: the percentages of its deadline, the
    expiry, and (policy `remind`) the nags after it, up to the first one after `until`."""
    start, deadline = plan.turn_started_at, plan.deadline_at
    span = max(0.0, deadline - start)
    points = [
        Point(start + span * p / 100.0, "start" if p == 0 else "remind") for p in settings.reminders
    ]
    points.append(Point(deadline, "expire"))
    if nag:
        every = max(span, NAG_EVERY)
        k = 1
        while True:
            points.append(Point(deadline + k * every, "nag"))
            if deadline + k * every > until:
                break
            k += 1
    return points


class Schedule:
    """One player's turn as seen at `now`: its points, when each goes out to him (`quiet`: his
    own quiet hours), his first notice and the expiry of his seat. `player`: whose record in
    the turn it continues (`TurnPlan.progress_of`; None: the turn's own); `notified`: his
    first notice, when this look sends it."""

    def __init__(
        self,
        plan: TurnPlan,
        settings: ChatSettings,
        now: float,
        quiet: Quiet | None = None,
        player: str | None = None,
        notified: float | None = None,
    ) -> None:
        self.plan = plan
        self.settings = settings
        self.now = now
        self.quiet = quiet if quiet is not None and quiet.hours else None
        self.player = player
        self.progress = plan.progress_of(player)
        done = self.progress.done_until
        self.done = done if done is not None else -math.inf
        self.points = turn_points(plan, settings, now + NAG_EVERY, settings.policy == "remind")
        if not any(p.kind == "start" for p in self.points):
            # The ask was made in quiet hours, so it pinged nobody (bot/announce.py): its
            # notification comes when they end, whatever reminders the chat chose.
            held = Point(plan.turn_started_at, "start", held_only=True)
            if self._awake(held.kind, held.at) > held.at:
                self.points.insert(0, held)
        first = next((p for p in self.points if self.notifies(p)), None)
        span = max(0.0, plan.deadline_at - plan.turn_started_at)
        self.grace = 0.0 if first is None else last_call(span, plan.deadline_at - first.at)
        self.notice = self._notice(
            first, notified if notified is not None else self.progress.notified_at
        )
        self.expires = self.expiry(plan.deadline_at)
        # nags keep their distance from the expiry they follow
        self.pushed = self.expires - out_of_quiet(plan.deadline_at, settings)

    def _awake(self, kind: str, t: float) -> float:
        """`t`, or the end of the quiet hours it falls in: the chat's, and for what is a
        message to the player (a reminder; under policy `remind` the expiry's and the nags)
        his own too. The expiry as an act (`skip`, `bot`) waits for the chat's alone."""
        t = out_of_quiet(t, self.settings)
        if self.quiet is None or (kind == "expire" and self.settings.policy != "remind"):
            return t
        chat = Quiet(self.settings.quiet, self.settings.tz)
        return out_of_everyones_quiet(t, [chat, self.quiet])

    def notifies(self, p: Point) -> bool:
        """Whether the reminder of `p` notifies: a reminder point, or a start point quiet hours
        held (on time it is the silent private prompt: the ask notified)."""
        return p.kind == "remind" or (p.kind == "start" and self._awake(p.kind, p.at) > p.at)

    def planned(self, p: Point) -> float:
        """When `p` falls due, out of quiet hours (the expiry: after the last call)."""
        if p.kind == "expire":
            return self._awake(p.kind, self.expires)
        if p.kind == "nag":
            return self._awake(p.kind, p.at + self.pushed)
        return self._awake(p.kind, p.at)

    def due(self, p: Point) -> float:
        """When `p` goes out: as planned while ahead; once passed unsent (the bot was down),
        now, or the end of the quiet hours now falls in."""
        t = self.planned(p)
        return t if t > self.now else self._awake(p.kind, self.now)

    def next_at(self, done: float | None) -> float | None:
        """When the first point after `done` (unshifted: handled up to there) falls due."""
        after = -math.inf if done is None else done
        return min((self.due(p) for p in self.points if p.at > after), default=None)

    def _notice(self, first: Point | None, notified: float | None) -> float | None:
        """When the player's first notifying reminder went out (`notified`, recorded by the
        claim that sent it) or is planned to. One whose time passed unsent while the bot was
        down goes when it looks again (`due`), unless the ask already notified the turn's
        players (`TurnPlan.ask_notified`): then the bot's downtime pushes nothing."""
        if notified is not None:
            return notified
        if first is None:
            return None
        planned = self._awake(first.kind, first.at)
        if planned > self.now or first.at <= self.done or self.plan.ask_notified:
            return planned
        return self._awake(first.kind, self.now)

    def expiry(self, deadline: float) -> float:
        """When the bot acts on `deadline`: out of the chat's quiet hours, and a last call
        after the player's first notice."""
        t = out_of_quiet(deadline, self.settings)
        if self.notice is None:
            return t
        return max(t, out_of_quiet(self.notice + self.grace, self.settings))

    def expired(self, deadline: float) -> bool:
        """Whether the expiry of `deadline` is due now (out of the chat's quiet hours)."""
        now = self.now
        return self.expiry(deadline) <= now and out_of_quiet(now, self.settings) <= now

    @property
    def ran_out(self) -> bool:
        """Whether the player's own expiry is due now."""
        return self.expired(self.plan.deadline_at)


def foreseen(plan: TurnPlan, now: float) -> TurnPlan:
    """A turn the scheduler has not planned yet (a move writes it) as a display sees it: the
    points before `now` went out as planned."""
    if plan.attempt > 0:
        return plan
    return replace(plan, attempt=1, done_until=now, notified_at=None, progress={})


def acts_at(
    plan: TurnPlan,
    settings: ChatSettings,
    now: float,
    quiet: Quiet | None = None,
    deadline: float | None = None,
    player: str | None = None,
) -> float:
    """When the bot acts on the expiry of `player`'s seat in `plan` (`quiet`: his quiet
    hours; `deadline`: his own under a time bank), as every display of a deadline shows it:
    the pinned status message, /status, a reminder's time left (`Schedule.expires`)."""
    seen = foreseen(plan, now)
    if deadline is not None:
        seen = replace(seen, deadline_at=deadline)
    return Schedule(seen, settings, now, quiet, player).expires


@dataclass(frozen=True)
class Decision:
    """What one look at one player's turn decided: the latest passed point to act on (or
    None), and the bookkeeping for the store."""

    point: Point | None
    done_until: float | None
    next_at: float | None
    # to record with the claim as his first notice when `point`'s reminder reaches him
    notified_at: float | None
    schedule: Schedule


def decide(
    plan: TurnPlan,
    settings: ChatSettings,
    now: float,
    quiet: Quiet | None = None,
    player: str | None = None,
) -> Decision:
    """One player's look: collapse every point that passed since the last look into one; the
    expiry wins over reminders that passed with it, except over his first notice: a
    notifying one whose time passed while the bot was down, of a turn whose ask notified
    nobody, goes now and the expiry waits a last call after it (`Schedule._notice`). A
    reminder going out late takes in the points due soon after it (`_folded`)."""
    s = Schedule(plan, settings, now, quiet, player)
    fresh = [p for p in s.points if p.at > s.done]
    passed = [p for p in fresh if s.due(p) <= now]
    expiry = next((p for p in passed if p.kind == "expire"), None)
    point = passed[-1] if passed else None
    if expiry is not None and point is not None and point.kind != "nag":
        point = expiry
    done_until = point.at if point is not None else s.progress.done_until
    notified_at: float | None = None
    if point is not None and s.notifies(point) and s.progress.notified_at is None:
        # this look sends his first notice: the expiry counts its last call from now, and
        # the reminder says so
        notified_at = now
        s = Schedule(plan, settings, now, quiet, player, now)
    if point is not None and point.kind in ("start", "remind") and done_until is not None:
        done_until = _folded(s, point, done_until)
    return Decision(point, done_until, s.next_at(done_until), notified_at, s)


def _folded(s: Schedule, point: Point, done: float) -> float:
    """The latest reminder point after `point` (done up to `done`) that its reminder, going
    out now, takes in: each due sooner than `FOLD_SHARE` of the planned time between the two
    (a reminder on time takes in none: a later point is never planned sooner than it)."""
    for q in s.points:
        if q.at <= done:
            continue
        if q.kind != "remind" or s.due(q) - s.now >= FOLD_SHARE * (q.at - point.at):
            break
        done = q.at
    return done


@dataclass(frozen=True)
class Settled:
    """What the claim of a look at a turn records (bot/store_plans.py `claim_params`)."""

    done_until: float | None  # the turn's: the latest point handled for anyone
    notified_at: float | None  # the turn's first notice to anyone, when this look sends it
    progress: dict[str, Progress]
    next_at: float | None


@dataclass(frozen=True)
class TurnDecision:
    """One look at a turn: each waiting person's `Decision`, by name ("" for a turn no
    person waits on: its own points, for nobody)."""

    plan: TurnPlan
    players: dict[str, Decision]

    def point(self, name: str) -> Point | None:
        d = self.players.get(name)
        return d.point if d is not None else None

    def schedule(self, name: str) -> Schedule | None:
        d = self.players.get(name)
        return d.schedule if d is not None else None

    def ran_out(self, name: str) -> bool:
        """Whether `name`'s expiry is due now."""
        d = self.players.get(name)
        return d is not None and d.schedule.ran_out

    def settle(self, told: Collection[str]) -> Settled:
        """The bookkeeping once the reminders are written: `told`, the players a notifying
        one reached (a first notice counts only for them; the others' expiry stays as
        planned, and so does when the turn is looked at again for them)."""
        plan = self.plan
        progress = dict(plan.progress) if plan.attempt > 0 else {}
        nexts: list[float] = []
        dones: list[float] = []
        notified: float | None = None
        for name, d in self.players.items():
            s = d.schedule
            notice = s.progress.notified_at
            if d.notified_at is not None and name in told:
                notice = notified = d.notified_at
            elif d.notified_at is not None:  # nothing reached him: no notice, no last call
                s = Schedule(s.plan, s.settings, s.now, s.quiet, s.player)
            at = s.next_at(d.done_until)
            if at is not None:
                nexts.append(at)
            if d.done_until is not None:
                dones.append(d.done_until)
            if name:
                progress[name] = Progress(d.done_until, notice)
        done = max(dones) if dones else (plan.done_until if plan.attempt > 0 else None)
        return Settled(done, notified, progress, min(nexts) if nexts else None)


def decide_turn(
    plan: TurnPlan,
    settings: ChatSettings,
    now: float,
    people: Mapping[str, Quiet],
    deadlines: Mapping[str, float] | None = None,
) -> TurnDecision:
    """Each waiting person's look at the turn (`people`: their quiet hours by name;
    `deadlines`: their own under a time bank)."""
    names: Mapping[str, Quiet] = people or {"": Quiet(None)}
    own = deadlines or {}
    players = {}
    for name, quiet in names.items():
        mine = plan if name not in own else replace(plan, deadline_at=own[name])
        players[name] = decide(mine, settings, now, quiet, name or None)
    return TurnDecision(plan, players)
