"""Determinised rollout search: the engine of every game's `strong` bot (issue 24).

One decision of `player` is searched as follows (Perfect Information Monte Carlo at the root,
the flat form of information-set MCTS):

1. the game's glue lists a few candidate actions (the rollout policy's own choice first);
2. every round draws a *determinisation*: a copy of the state in which everything the
   player cannot see (deck order, other players' secrets, hidden money, the game's RNG) is
   re-sampled from what `view(state, player)` shows, using only the search's own RNG, so the
   choice never depends on hidden information (no peeking);
3. every candidate is applied to the same determinisation and the rollout policy (the
   game's heuristic bot) plays every seat with the same dice until the game ends or
   `horizon` actions have passed (common random numbers: candidates are compared on paired
   samples); the glue's `evaluate` turns the position into a value in [0, 1];
4. after the budget, the policy's own move is played unless another beats it on the paired
   samples by more than one standard error (a search on few samples must not wander off a
   sound policy on noise).

Deterministic for a given RNG and an iteration budget; a time budget (production) makes the
iteration count depend on the machine's speed. The search is a plain synchronous function:
running it off the event loop (a process pool) is the table's business.
"""

from __future__ import annotations

import importlib
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.core.errors import IllegalAction
from engine.core.protocol import Action, BotFn, Event, State
from engine.core.rng import Rng, new_rng_state

# Production default: seconds of thinking per decision (issue 24), BOARDCHAT_BOT_BUDGET.
DEFAULT_SECONDS = 2.0
ENV_BUDGET = "BOARDCHAT_BOT_BUDGET"
# Standard errors by which a move must beat the policy's own on paired samples to replace it.
Z = 1.0
# Share of a production time budget kept in hand: the search aims to stop at 80 % of it
# (1.6 s of 2 s), so the last round, a rollout cut at the deadline, the process pool and a
# loaded machine's scheduling fit in the rest (issue 24: p99 think time <= the budget).
RESERVE = 0.2


@dataclass(frozen=True)
class Budget:
    """How long one decision may think: `iterations` rollouts, `seconds` of wall time, or
    both (whichever ends first). `rollout_cap` bounds every rollout's length further (tests
    set a tiny one). `clock` is injectable so that tests never read the wall clock."""

    iterations: int | None = None
    seconds: float | None = None
    rollout_cap: int | None = None
    clock: Callable[[], float] = field(default=time.perf_counter, compare=False)
    reserve: float = 0.0  # seconds of `seconds` the search leaves unused (see `RESERVE`)


def timed(seconds: float, iterations: int | None = None) -> Budget:
    """A production time budget: `seconds` per decision, of which the search uses all but
    `RESERVE` (and at most `iterations` rollouts when given)."""
    return Budget(iterations=iterations, seconds=seconds, reserve=RESERVE * seconds)


def parse_budget(text: str) -> Budget:
    """`"2"` or `"0.5s"`: seconds; `"200i"`: iterations (rollouts) per decision."""
    text = text.strip().lower()
    if text.endswith("i"):
        return Budget(iterations=max(1, int(text[:-1])))
    seconds = float(text[:-1] if text.endswith("s") else text)
    if not seconds > 0:
        raise ValueError(f"{ENV_BUDGET} must be positive, not {text!r}")
    return timed(seconds)


# Set by tests (tests/engine/conftest.py) or by an embedding process; None: the environment.
override: Budget | None = None


def current_budget() -> Budget:
    """The budget a `strong` bot uses when none is passed: `override`, else the environment
    variable BOARDCHAT_BOT_BUDGET, else 2 seconds."""
    if override is not None:
        return override
    text = os.environ.get(ENV_BUDGET)
    return parse_budget(text) if text else timed(DEFAULT_SECONDS)


class Rules(Protocol):
    """The part of a game the search drives (every `Game` has it)."""

    def current_players(self, state: State) -> list[str]: ...

    def apply(self, state: State, player: str, action: Action) -> tuple[State, list[Event]]: ...

    def is_over(self, state: State) -> bool: ...


@dataclass(frozen=True)
class Glue:
    """What a game supplies to the search (engine/<game>/strong.py).

    - determinise(state, player, rng): a fresh copy with hidden information re-sampled from
      the player's view only (must not read the hidden parts of `state`);
    - candidates(state, player, rng): the root moves worth comparing, the policy's first;
    - policy: the rollout bot (the game's heuristic);
    - evaluate(state, player): the value of a position (over or not) in [0, 1];
    - horizon: actions per rollout before `evaluate` judges an unfinished game.
    """

    game: Rules
    determinise: Callable[[State, str, Rng], State]
    candidates: Callable[[State, str, Rng], list[Action]]
    policy: BotFn
    evaluate: Callable[[State, str], float]
    horizon: int = 10_000


@dataclass
class Arm:
    action: Action
    values: list[float] = field(default_factory=list)

    @property
    def visits(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else 0.0


@dataclass
class Decision:
    """The chosen action with the statistics behind it (for hints and benchmarks)."""

    action: Action
    arms: list[Arm]
    iterations: int


def copy_state(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars); several times faster than deepcopy."""
    if type(value) is dict:
        return {k: copy_state(v) if type(v) in (dict, list) else v for k, v in value.items()}
    if type(value) is list:
        return [copy_state(v) if type(v) in (dict, list) else v for v in value]
    return value


def reseed(state: State, rng: Rng, key: str = "rng") -> None:
    """Replace the game's own RNG (it decides future shuffles and dice: hidden information)."""
    state[key] = new_rng_state(rng.next64())


def rollout(
    glue: Glue,
    state: State,
    rng: Rng,
    steps: int,
    out_of_time: Callable[[], bool] | None = None,
) -> bool:
    """The policy plays every seat from `state` (in place) for at most `steps` actions;
    False when `out_of_time` said stop first (the rollout is then unfinished)."""
    game = glue.game
    policy = glue.policy
    for _ in range(steps):
        if game.is_over(state):
            return True
        if out_of_time is not None and out_of_time():
            return False
        acting = game.current_players(state)
        if not acting:
            return True
        player = acting[0]
        game.apply(state, player, policy(state, player, rng))
    return True


def search(
    glue: Glue, state: State, player: str, rng: Rng, budget: Budget | None = None
) -> Decision:
    """The best of the glue's candidates for `player` after `budget` (see the module doc).

    The search runs in rounds: a round draws one determinisation and one rollout seed and
    plays every candidate in that same world with the same dice (common random numbers), so
    candidates are compared on paired samples. `iterations` counts rollouts (a round costs
    one per candidate); at least one round runs unless a time budget runs out first. The
    deadline is honoured inside a round and inside a rollout too: an unfinished round is
    dropped, and with no round finished the policy's own move (the first candidate) is
    played, so a decision never thinks past its budget by more than one policy move.
    """
    budget = budget or current_budget()
    # The clock starts before the candidates are listed: choosing them is thinking too.
    started = budget.clock() if budget.seconds is not None else 0.0
    unique: list[Action] = []
    for action in glue.candidates(state, player, rng):
        if action not in unique:
            unique.append(action)
    arms = [Arm(a) for a in unique]
    if len(arms) <= 1:
        return Decision(arms[0].action, arms, 0)
    steps = glue.horizon if budget.rollout_cap is None else min(glue.horizon, budget.rollout_cap)
    deadline = None if budget.seconds is None else started + budget.seconds - budget.reserve
    late: Callable[[], bool] | None = None
    if deadline is not None:
        late = _past(budget.clock, deadline)
        if late():
            # Listing the candidates used up the time: the policy's own move (arm 0).
            return Decision(arms[0].action, arms, 0)
    done = rounds = 0
    while True:
        if done and budget.iterations is not None and done >= budget.iterations:
            break
        if done and deadline is not None:
            # Stop when another round of the average length would overrun the deadline.
            now = budget.clock()
            if now + (now - started) / rounds >= deadline:
                break
        world_seed, dice_seed = rng.next64(), rng.next64()
        for i, arm in enumerate(arms):
            if late is not None and i and late():
                # Out of time inside a round (one slower than the average): drop it so the
                # candidates stay compared on the same samples.
                return _cut(arms, i, done, rounds)
            world = glue.determinise(state, player, Rng(new_rng_state(world_seed)))
            try:
                glue.game.apply(world, player, copy_state(arm.action))
            except IllegalAction:
                # Legal in the real state but not in this sample (it cannot happen when
                # the determinisation keeps everything the player knows): worth nothing.
                arm.values.append(0.0)
                continue
            if not rollout(glue, world, Rng(new_rng_state(dice_seed)), steps, late):
                # The deadline fell inside this rollout: the round is dropped too.
                return _cut(arms, i, done, rounds)
            arm.values.append(glue.evaluate(world, player))
        done += len(arms)
        rounds += 1
    return Decision(arms[_choose(arms)].action, arms, done)


def _past(clock: Callable[[], float], deadline: float) -> Callable[[], bool]:
    return lambda: clock() >= deadline


def _cut(arms: list[Arm], i: int, done: int, rounds: int) -> Decision:
    """The decision when the deadline cuts round `rounds` short at arm `i`: its values are
    dropped; with no full round behind, the policy's own move (arm 0)."""
    for partial in arms[:i]:
        del partial.values[-1]
    return Decision(arms[_choose(arms)].action if rounds else arms[0].action, arms, done)


def _choose(arms: list[Arm]) -> int:
    """The policy's move (arm 0) unless another is better on the paired samples by more than
    `Z` standard errors of the difference; then the best such."""
    base = arms[0].values
    n = len(base)
    best, best_gain = 0, 0.0
    for i in range(1, len(arms)):
        diffs = [a - b for a, b in zip(arms[i].values, base, strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        margin = Z * math.sqrt(var / n) if n > 1 else 0.0
        if mean - margin > best_gain:
            best, best_gain = i, mean - margin
    return best


def rank_value(ranking: list[list[str]], player: str) -> float:
    """A finished game's value: 1 for a sole winner, 1/k for a k-way shared first place,
    and below that a little for a better place (so losing well beats losing badly)."""
    places = len(ranking)
    for place, group in enumerate(ranking):
        if player in group:
            if place == 0:
                return 1.0 / len(group)
            return 0.2 * (1.0 - place / max(1, places - 1)) if places > 1 else 0.0
    return 0.0


def margin_value(mine: float, others: list[float], scale: float) -> float:
    """An unfinished game's value from a score estimate: a logistic of the lead over the best
    rival, `scale` score points making the odds e:1."""
    best = max(others) if others else 0.0
    x = (mine - best) / scale
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def lazy_bot(module: str, name: str = "strong") -> BotFn:
    """A `BotFn` that imports `module` on its first call and delegates to its `name`: lets a
    game's bots.py register a bot defined in a module that itself imports bots.py."""
    found: list[BotFn] = []

    def bot(state: State, player: str, rng: Rng) -> Action:
        if not found:
            found.append(getattr(importlib.import_module(module), name))
        return found[0](state, player, rng)

    bot.__name__ = f"{name}_bot"
    return bot


def strong_bot(glue_of: Callable[[], Glue]) -> BotFn:
    """A `BotFn` searching with the glue `glue_of()` returns (built lazily, once)."""
    cache: list[Glue] = []

    def bot(state: State, player: str, rng: Rng) -> Action:
        if not cache:
            cache.append(glue_of())
        return search(cache[0], state, player, rng).action

    return bot


def lead_value(
    score: Callable[[str], float], players: list[str], player: str, scale: float
) -> float:
    """`margin_value` of `player`'s score against his rivals' (an unfinished game's value)."""
    others = [score(n) for n in players if n != player]
    return margin_value(score(player), others, scale)


@dataclass(frozen=True)
class StrongSearch:
    """A game's strong bot declared once (engine/<game>/strong.py): the parts of its search
    and the package whose `GAME` it plays, imported on first use (the package imports its
    bots, which name this bot). `bot` is the BotFn, `decide` one search with its statistics."""

    package: str
    determinise: Callable[[State, str, Rng], State]
    candidates: Callable[[State, str, Rng], list[Action]]
    policy: BotFn
    evaluate: Callable[[State, str], float]
    horizon: int = 10_000

    def glue(self) -> Glue:
        game: Rules = importlib.import_module(self.package).GAME
        return Glue(
            game=game,
            determinise=self.determinise,
            candidates=self.candidates,
            policy=self.policy,
            evaluate=self.evaluate,
            horizon=self.horizon,
        )

    def decide(self, state: State, player: str, rng: Rng, budget: Budget | None = None) -> Decision:
        return search(self.glue(), state, player, rng, budget)

    def bot(self) -> BotFn:
        return strong_bot(self.glue)
