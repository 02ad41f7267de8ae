"""Determinised rollout search: the engine of every game's `strong` bot (issue 24).

One decision of `player` is searched as follows (Perfect Information Monte Carlo with UCB1 at
the root, the flat form of information-set MCTS):

1. the game's glue lists a few candidate actions (the rollout policy's own choice first);
2. every iteration draws a *determinisation*: a copy of the state in which everything the
   player cannot see (deck order, other players' secrets, hidden money, the game's RNG) is
   re-sampled from what `view(state, player)` shows, using only the search's own RNG, so the
   choice never depends on hidden information (no peeking);
3. UCB1 picks a candidate, which is applied to the determinisation, and the rollout policy
   (the game's heuristic bot) plays every seat until the game ends or `horizon` actions
   have passed; the glue's `evaluate` turns the position into a value in [0, 1];
4. after the budget, the candidate with the best mean value is played (ties: the earlier,
   i.e. the policy's own choice).

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
from typing import Any

from engine.core.errors import IllegalAction
from engine.core.protocol import Action, BotFn, Game, State
from engine.core.rng import Rng, new_rng_state

# Production default: seconds of thinking per decision (issue 24), BOARDCHAT_BOT_BUDGET.
DEFAULT_SECONDS = 2.0
ENV_BUDGET = "BOARDCHAT_BOT_BUDGET"
UCB_C = 0.7


@dataclass(frozen=True)
class Budget:
    """How long one decision may think: `iterations` rollouts, `seconds` of wall time, or
    both (whichever ends first). `rollout_cap` bounds every rollout's length further (tests
    set a tiny one). `clock` is injectable so that tests never read the wall clock."""

    iterations: int | None = None
    seconds: float | None = None
    rollout_cap: int | None = None
    clock: Callable[[], float] = field(default=time.perf_counter, compare=False)


def parse_budget(text: str) -> Budget:
    """`"2"` or `"0.5s"`: seconds; `"200i"`: iterations (rollouts) per decision."""
    text = text.strip().lower()
    if text.endswith("i"):
        return Budget(iterations=max(1, int(text[:-1])))
    seconds = float(text[:-1] if text.endswith("s") else text)
    if not seconds > 0:
        raise ValueError(f"{ENV_BUDGET} must be positive, not {text!r}")
    return Budget(seconds=seconds)


# Set by tests (tests/engine/conftest.py) or by an embedding process; None: the environment.
override: Budget | None = None


def current_budget() -> Budget:
    """The budget a `strong` bot uses when none is passed: `override`, else the environment
    variable BOARDCHAT_BOT_BUDGET, else 2 seconds."""
    if override is not None:
        return override
    text = os.environ.get(ENV_BUDGET)
    return parse_budget(text) if text else Budget(seconds=DEFAULT_SECONDS)


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

    game: Game
    determinise: Callable[[State, str, Rng], State]
    candidates: Callable[[State, str, Rng], list[Action]]
    policy: BotFn
    evaluate: Callable[[State, str], float]
    horizon: int = 10_000


@dataclass
class Arm:
    action: Action
    visits: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


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


def rollout(glue: Glue, state: State, rng: Rng, steps: int) -> None:
    """The policy plays every seat from `state` (in place) for at most `steps` actions."""
    game = glue.game
    policy = glue.policy
    for _ in range(steps):
        if game.is_over(state):
            return
        acting = game.current_players(state)
        if not acting:
            return
        player = acting[0]
        game.apply(state, player, policy(state, player, rng))


def search(
    glue: Glue, state: State, player: str, rng: Rng, budget: Budget | None = None
) -> Decision:
    """The best of the glue's candidates for `player` after `budget` (see the module doc)."""
    budget = budget or current_budget()
    candidates = glue.candidates(state, player, rng)
    unique: list[Action] = []
    for action in candidates:
        if action not in unique:
            unique.append(action)
    arms = [Arm(a) for a in unique]
    if len(arms) <= 1:
        return Decision(arms[0].action, arms, 0)
    steps = glue.horizon if budget.rollout_cap is None else min(glue.horizon, budget.rollout_cap)
    deadline = None if budget.seconds is None else budget.clock() + budget.seconds
    limit = budget.iterations
    done = 0
    while True:
        if limit is not None and done >= limit:
            break
        # Every arm once before the time limit counts, so a choice is never blind.
        if deadline is not None and done >= len(arms) and budget.clock() >= deadline:
            break
        arm = _select(arms, done)
        world = glue.determinise(state, player, rng)
        try:
            glue.game.apply(world, player, copy_state(arm.action))
        except IllegalAction:
            # Legal in the real state but not in this sample (it cannot happen when the
            # determinisation keeps everything the player knows); worth nothing here.
            value = 0.0
        else:
            rollout(glue, world, rng, steps)
            value = glue.evaluate(world, player)
        arm.visits += 1
        arm.total += value
        done += 1
    best = max(range(len(arms)), key=lambda i: (arms[i].mean, -i))
    return Decision(arms[best].action, arms, done)


def _select(arms: list[Arm], done: int) -> Arm:
    for arm in arms:
        if arm.visits == 0:
            return arm
    log_n = math.log(done)
    return max(arms, key=lambda a: a.mean + UCB_C * math.sqrt(log_n / a.visits))


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
