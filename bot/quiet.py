"""The noise budget of a table (issue 17): who a run of moves may notify.

A table in a group chat is quiet: a move makes at most one new message, and only the message
that asks a person to act notifies (mention and sound); everything else is sent silently or
folded into the table's live status message, which the sender loop edits in place.

Who is *pinged* (notified) after a run of moves: a human who is asked to act now, was not asked
before the run, and has not yet acted by his own hand in the current *round* (Power Grid's four
phases, Hexania's lap of turns, IEC's game turn). The first ask of a round reaches everyone with
a sound; a player asked again later in the same round (Power Grid asks everybody in each of its
four phases, IEC several times a turn) is told silently: the live status message, pinned and
edited, names him and carries his buttons, and his private prompt (the reminders' start point,
bot/reminders.py) is silent too. He has just played this round, so he is at the table or will
come back to it; if he lets the table wait, the reminders at 50 % and 90 % of the deadline (or
of his time bank) notify him: the backstop (a table that wants it sooner sets
`/settings reminders=0,25,50,90`). Why the round and not the phase: four buzzes a round per
player (one per phase) is what made groups mute the bot; a player who has played this round
knows it goes on and where to look (the pinned status message), so a buzz for each later phase
tells him nothing new. The price: a player who wanders off mid-round holds the table up until
the first reminder, which the deadline bounds. A forced pass (a player with nothing to decide,
passed by the table) is not his own act: the first real ask after it still notifies him. The
round rule holds
once the table knows where the round began (a round boundary in the run or in the last
`PHASE_LOOKBACK` logged actions); before that (the first round, a game that marks no rounds)
the phase rule holds: asked anew and not yet acted in the current phase. After a restart the
players who acted are read from the log, where a forced pass is not marked and counts (the
reminders cover the rare silent ask that causes).

The game's end is the other message that notifies: its result mentions every other human
player once (`told_of_the_end`), since after a game of days those who did not make the last
move would otherwise learn it by chance; not during the chat's quiet hours, nor a player in his
own (/me quiet=): the result waits in the chat for him, silently.

A round boundary is a move whose events the table would picture at the `round` setting (a
round ending, Power Grid's bureaucracy, a game turn); a phase boundary (the `phase` setting)
resets the status message's lines.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.context import Played, Step
from bot.messages import Outbound
from bot.store import ActionRow, SeatRow
from engine.core import load_state
from engine.core.protocol import Event, Game

# How big a moment a move's picture events mark (bot/announce.py posts pictures by it).
TURN, PHASE, ROUND, GAME = 0, 1, 2, 3

# How far back the log is read to find who acted in the current round.
PHASE_LOOKBACK = 64
# Games whose current round's players this process remembers (saves reading the log per move;
# it also knows which of them were forced passes, which the log does not say).
PHASE_CACHE = 4096
# Platforms where a reply only its sender sees is no post in the chat (a Discord ephemeral
# message): the one who acted is told what his move did even when nobody is asked anew.
EPHEMERAL_PLATFORMS = ("discord",)
# Event lines the live status message shows (the current phase's latest; /log has them all).
STATUS_LINES = 8
# A player's acknowledgements of his own moves that follow each other within this many seconds
# (with nothing else sent to him between) are one private message, edited (bot/outbox.py).
FOLD_WINDOW = 15 * 60.0
# Platforms whose private messages the bot edits (a Discord DM through its DM channel).
FOLD_PLATFORMS = ("telegram", "discord")
# A reminder's start point (the private prompt, bot/reminders.py) sent within this many seconds
# of the turn's start is silent (the table's ask is the prompt's one notifying message); one
# held back longer (the player's quiet hours, downtime) is his notice and notifies.
PROMPT_FRESH = 15 * 60.0
# Discord's limit; Telegram allows 4096 (bot/grammar.py MAX_TEXT).
STATUS_LIMIT = 2000


def picture_level(events: Sequence[Event], round_after: Any = None) -> int | None:
    """How big a moment a move's picture events mark (None: no picture event). A phase or a
    new step is a PHASE; the last phase of a round (Power Grid's bureaucracy), a round ending,
    or a game turn that is the game's round (IEC) is a ROUND; a player's turn inside a round
    (Hexania: its `turn_ended` carries the round, which a round's last turn moves on; in the
    log the `round_ended` event beside it says so) is a TURN; the end of the game or of a
    player is a GAME."""
    level: int | None = None
    for e in events:
        kind = e.get("type")
        if kind in ("game_over", "eliminated"):
            lvl = GAME
        elif kind == "round_ended" or (kind == "phase_ended" and e.get("phase") == "bureaucracy"):
            lvl = ROUND
        elif kind == "turn_ended" and "round" in e:
            lvl = ROUND if round_after is not None and round_after != e["round"] else TURN
        elif kind == "turn_ended":
            lvl = ROUND
        else:
            lvl = PHASE
        level = lvl if level is None else max(level, lvl)
    return level


def _level_at_least(events: Sequence[Event], least: int, round_after: Any = None) -> bool:
    level = picture_level(events, round_after)
    return level is not None and level >= least


def step_ends(step: Step, least: int = PHASE) -> bool:
    """Whether this committed step starts a new phase (`least` PHASE: or round, or game
    turn) or a new round (ROUND)."""
    if not step.picture_events:
        return False
    round_after = None
    if any(e.get("type") == "turn_ended" and "round" in e for e in step.picture_events):
        state = load_state(step.state_json)
        round_after = state.get("round") if not state.get("over") else -1
    return _level_at_least(step.picture_events, least, round_after)


def step_ends_phase(step: Step) -> bool:
    """Whether this committed step starts a new phase (or round, or game turn)."""
    return step_ends(step, PHASE)


def starts_a_turn(played: Played) -> bool:
    """Whether the players asked after the run start a new turn, with a fresh deadline and
    reminders: one of them was asked again after others moved (`Played.asked_anew`), or the
    one player asked moved himself (or the table moved for him) and the run ended a phase, so
    he is asked a new decision: the deadline is per move. His last pick of regions, which asks
    him to open the auction, kept the region turn's deadline, minutes away (found living
    simulated days through Telegram: "Ann ran out of time" ten minutes after she moved; after
    a default move the next phase's decision was due at once and expired unannounced). A move
    within his decision (one city of several, a Hexania move with points left) keeps its
    clock, as his time bank counts a turn; where several are asked, one turn goes on."""
    if played.asked_anew():
        return True
    final = played.steps[-1].asked if played.steps else None
    return (
        final is not None
        and len(final) == 1
        and any(step.player == final[0] for step in played.steps)
        and any(step_ends_phase(step) for step in played.steps)
    )


def action_ends(game: Game, action: ActionRow, least: int = PHASE) -> bool:
    """The same for a logged action (its events, a round's end marked beside them)."""
    events = [
        e
        for e in action.events
        if isinstance(e, dict) and (e.get("type") == "round_ended" or game.is_picture_event(e))
    ]
    return bool(events) and _level_at_least(events, least)


@dataclass(frozen=True)
class Engagement:
    """Who acted by his own hand in the game's current round and in its current phase, and
    whether the round's beginning is known (a round boundary was seen in the run or in the
    look-back): only then does the round rule hold; before it (the first round, a game that
    marks no rounds, a round longer than the look-back) the phase rule does, erring towards
    a ping."""

    round: frozenset[str] = frozenset()
    phase: frozenset[str] = frozenset()
    round_known: bool = False

    def engaged(self) -> frozenset[str]:
        return self.round if self.round_known else self.phase

    def after(self, steps: Sequence[Step], commanded: bool) -> Engagement:
        """The engagement after a run of moves. In a run a human's command started
        (`commanded`), only its first step is a player's own act: the steps after it are
        computer players' moves and forced passes."""
        rnd, phase, known = set(self.round), set(self.phase), self.round_known
        for i, step in enumerate(steps):
            if i == 0 and commanded and step.player:
                rnd.add(step.player)
                phase.add(step.player)
            if step_ends(step, ROUND):
                rnd, phase, known = set(), set(), True
            elif step_ends(step, PHASE):
                phase = set()
        return Engagement(frozenset(rnd), frozenset(phase), known)


def ends_round(steps: Sequence[Step]) -> bool:
    """Whether a run of moves crosses a round boundary (then the log before it is not needed)."""
    return any(step_ends(step, ROUND) for step in steps)


def engagement_of_log(game: Game, log: Iterable[ActionRow]) -> Engagement:
    """The engagement at the end of the logged actions, read newest first back to the round's
    beginning (a forced pass is not marked in the log: it counts as the player's act)."""
    rnd: set[str] = set()
    phase: set[str] = set()
    in_phase = True
    for action in sorted(log, key=lambda a: a.seq, reverse=True):
        if action_ends(game, action, ROUND):
            return Engagement(frozenset(rnd), frozenset(phase), True)
        in_phase = in_phase and not action_ends(game, action, PHASE)
        rnd.add(action.player)
        if in_phase:
            phase.add(action.player)
    return Engagement(frozenset(rnd), frozenset(phase), False)


def pinged(
    asked: Sequence[str], before: Collection[str] | None, engaged: Collection[str]
) -> list[str]:
    """Of the humans asked now, those to notify: newly asked and not engaged in this round."""
    return [p for p in asked if (before is None or p not in before) and p not in engaged]


def ask_notified(
    outs: Iterable[Outbound], seats: Iterable[SeatRow], current: Collection[str]
) -> bool:
    """Whether the messages of a run notified every human it asks (of `seats`, those among
    the `current` players): each is mentioned by one that is not silent and that the sender
    loop may not fold into an earlier message (an edit notifies nobody). Stored with the turn
    (bot/store.py `Due`): after the bot's downtime, a turn whose ask was silent (asked again
    in the round he played, in quiet hours, after a move only its sender saw) is told by a
    reminder before it expires (bot/expiry.py)."""
    asked = [s.user_key for s in seats if not s.is_bot and s.display_name in current]
    told = {key for o in outs if not o.silent and o.fold_of is None for key, _ in o.mentions}
    return bool(asked) and all(key in told for key in asked)


def status_text(lines: Sequence[str], asked: str) -> str:
    """The live status message: the phase's latest event lines, then who acts and what is
    asked (and the deadline), within one message."""
    head = "\n".join(lines)
    text = f"{head}\n\n{asked}" if head and asked else head or asked
    while len(text) > STATUS_LIMIT and lines:
        lines = lines[1:]
        head = "\n".join(lines)
        text = f"{head}\n\n{asked}" if head and asked else head or asked
    return text[:STATUS_LIMIT]


def told_of_the_end(
    seats: Iterable[Any], sender: str, quiet_now: Callable[[str], bool]
) -> list[tuple[str, str]]:
    """Whom the game's result mentions (user key, display name): the human players but the one
    whose move ended it, who reads it anyway, and those in quiet hours now (`quiet_now` of a
    user key: the chat's, or his own /me ones), as an ask names them without pinging."""
    return [
        (s.user_key, s.display_name)
        for s in seats
        if not s.is_bot and s.user_key != sender and not quiet_now(s.user_key)
    ]
