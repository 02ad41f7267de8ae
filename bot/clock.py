"""Who was on turn when: each player's turns as time intervals, replayed from the action log
and its timestamps, and what they make of a time bank and of the game's pace.

The log is the source (the replay law): the state after every logged action says who must act
next, and the action's `created_at` says when. A player's turn runs from the moment they
became one of the current players to the moment they no longer were (a simultaneous phase
counts for each of its players). Nothing else is stored, so an undo, a restart or a setting
changed mid-game all read the same accounts.

Time bank (`/settings clock=bank:3d+12h`, `bot.deadlines.Bank`): a player starts with 3 days;
each turn spends from it; after each of their moves 12 hours are added. A turn that ran past
the bank leaves it empty (never below zero): the next move refills it by the increment. The
deadline of a running turn is its start plus what is left.

Replaying a long game costs milliseconds per action, so `Clocks` keeps, per game, the state
after the last action it saw and continues from there (an undo, which shortens the log, starts
it over). Replays run in the worker pool.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.deadlines import Bank
from bot.store import ActionRow, GameRow
from bot.store_protocol import Store
from bot.workers import cpu
from engine.core import copy_state
from engine.core.protocol import Game, State

log = logging.getLogger(__name__)

# One player's turns: [start, end] pairs, the running one with end None.
Turns = list[list[float | None]]


@dataclass
class Replay:
    """The turns of every player of one game up to a point of its log."""

    turns: dict[str, Turns] = field(default_factory=dict)
    state: State | None = None
    seen: int = 0  # log entries replayed
    last_seq: int = 0
    current: tuple[str, ...] = ()


def _copy(replay: Replay) -> Replay:
    return Replay(
        {p: [list(t) for t in ts] for p, ts in replay.turns.items()},
        copy_state(replay.state) if replay.state is not None else None,
        replay.seen,
        replay.last_seq,
        replay.current,
    )


def _switch(replay: Replay, now_current: Sequence[str], at: float) -> None:
    """The current players changed at `at`: close the turns of those who left, open the turns
    of those who came."""
    before = set(replay.current)
    after = set(now_current)
    for player in before - after:
        turns = replay.turns.get(player)
        if turns and turns[-1][1] is None:
            turns[-1][1] = at
    for player in now_current:
        if player not in before:
            replay.turns.setdefault(player, []).append([at, None])
    replay.current = tuple(now_current)


def replay_turns(
    game: Game,
    names: list[str],
    row: GameRow,
    actions: Sequence[ActionRow],
    started_at: float,
    base: Replay | None = None,
) -> Replay:
    """Continue `base` (or start from the setup) over `actions` (the whole log, in order)."""
    if base is None or base.state is None:
        assert row.seed is not None
        replay = Replay()
        replay.state = game.setup(names, dict(row.options), row.seed)
        _switch(replay, list(game.current_players(replay.state)), started_at)
    else:
        replay = _copy(base)
    state = replay.state
    assert state is not None
    for a in actions[replay.seen :]:
        state, _events = game.apply(state, a.player, a.action)
        current = [] if game.is_over(state) else list(game.current_players(state))
        _switch(replay, current, max(a.created_at, started_at))
        replay.seen += 1
        replay.last_seq = a.seq
    replay.state = state
    return replay


def after_run(turns: Mapping[str, Turns], asked: Sequence[Sequence[str]], at: float) -> Replay:
    """`turns` (the log's) once a run of moves at `at` asked `asked`, step by step: a run's
    status message is written in the run's own transaction, before the log holds it."""
    running = tuple(p for p, ts in turns.items() if ts and ts[-1][1] is None)
    replay = _copy(Replay(dict(turns), None, 0, 0, running))
    for players in asked:
        _switch(replay, players, at)
    return replay


def spent(turns: Turns, now: float) -> float:
    """All the time a player has been on turn, the running turn up to `now` included."""
    return sum(
        (end if end is not None else now) - start for start, end in turns if start is not None
    )


@dataclass(frozen=True)
class Account:
    """A player's time bank: what is left now, and the deadline of their running turn."""

    left: float
    deadline: float | None  # None: not on turn


def account(turns: Turns, bank: Bank, now: float, fallback_start: float | None = None) -> Account:
    """The bank after `turns`: each finished turn spends its length (the bank never goes
    below zero) and then adds the increment; a running turn's deadline is its start plus what
    was left when it began. `fallback_start`: the start of a turn the log does not show yet
    (the player is waiting but no interval is open)."""
    left = bank.start
    running: float | None = None
    for start, end in turns:
        assert start is not None
        if end is None:
            running = start
            continue
        left = max(0.0, left - (end - start)) + bank.add
    if running is None and fallback_start is not None:
        running = fallback_start
    if running is None:
        return Account(left, None)
    return Account(max(0.0, left - (now - running)), running + left)


class Clocks:
    """The replayed turns of the running games, kept between looks (see the module doc)."""

    def __init__(self, store: Store, games: Mapping[str, Game]) -> None:
        self.store = store
        self.games = games
        self._cache: dict[int, Replay] = {}

    async def turns(self, row: GameRow) -> dict[str, Turns]:
        """Every player's turns in game `row` (empty when the game cannot be replayed)."""
        game = self.games.get(row.game_id)
        if game is None or row.seed is None:
            return {}
        actions = await self.store.actions(row.id)
        started = await self.store.started_at(row.id)
        if started is None:
            started = actions[0].created_at if actions else row.updated_at
        base = self._cache.get(row.id)
        if base is not None and (
            base.seen > len(actions) or (base.seen and actions[base.seen - 1].seq != base.last_seq)
        ):
            base = None  # an undo shortened the log: start over
        names = [s.display_name for s in await self.store.seats(row.id)]
        try:
            replay = await cpu(replay_turns, game, names, row, actions, started, base)
        except Exception:
            log.exception("game %s: the log does not replay; no clock accounts", row.id)
            return {}
        if len(self._cache) > 200:
            self._cache.clear()
        self._cache[row.id] = replay
        return replay.turns


def most_waiting(
    turns: Mapping[str, Turns], players: Sequence[str], now: float, at_least: float = 0.0
) -> str | None:
    """The player among `players` who has been on turn longest in all; None when nobody was
    (for `at_least` seconds in all), or when several share the longest time (players
    deciding together since the game began: naming the first seat would blame one of them
    for all)."""
    times = sorted(((spent(turns.get(p, []), now), p) for p in players), reverse=True)
    if not times or times[0][0] <= 0 or times[0][0] < at_least:
        return None
    if len(times) > 1 and times[1][0] >= times[0][0]:
        return None
    return times[0][1]
