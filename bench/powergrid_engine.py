"""Power Grid engine benchmark (a script, not a test).

Plays full 4-player games between heuristic bots on Germany and reports games/s,
actions/s, and p50/p99 latencies of `apply` and of the connection-cost quote.

What is measured:
- Throughput (games/s, actions/s): the whole game loop as a simulation runs it, with no
  timers inside: `GAME.setup`, then per move `GAME.is_over`, `GAME.current_players`, the
  heuristic bot's decision and `GAME.apply`. Bot time is included.
- Breakdown: as many other games (the next seeds, so no memo is warm from the first pass)
  with a timer around every bot call and every `apply`, split into engine (`apply`), bot
  and the rest (setup, turn queries, loop, the timers themselves, which cost a little).
- Latencies: `apply` from the breakdown pass; `connection_quote` for 3 cities at build
  time in 50 other games.
The last line is the summary the CI log greps for:
    powergrid: 31.2 games/s, 9800 actions/s, apply p99 0.41 ms, quote p99 0.90 ms

Usage: .venv/bin/python bench/powergrid_engine.py [games] [seed]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core import Rng
from engine.core.rng import new_rng_state
from engine.powergrid import GAME
from engine.powergrid.quotes import connection_quote
from engine.powergrid.rules import build_options

PLAYERS = ["p1", "p2", "p3", "p4"]
OPTIONS = {"map": "germany"}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def throughput(n_games: int, seed0: int) -> tuple[int, float]:
    """Play the games untimed inside; return (actions, seconds)."""
    heuristic = GAME.bots["heuristic"]
    actions = 0
    clock = time.perf_counter
    start = clock()
    for g in range(n_games):
        state = GAME.setup(PLAYERS, OPTIONS, seed0 + g)
        rng = Rng(new_rng_state(seed0 + g))
        while not GAME.is_over(state):
            player = GAME.current_players(state)[0]
            GAME.apply(state, player, heuristic(state, player, rng))
            actions += 1
    return actions, clock() - start


def breakdown(n_games: int, seed0: int) -> tuple[list[float], float, float, float]:
    """Play the games with a timer around each bot call and each apply.

    Returns (apply times, total apply seconds, total bot seconds, elapsed seconds).
    """
    heuristic = GAME.bots["heuristic"]
    apply_times: list[float] = []
    bot_total = 0.0
    clock = time.perf_counter
    start = clock()
    for g in range(n_games):
        state = GAME.setup(PLAYERS, OPTIONS, seed0 + g)
        rng = Rng(new_rng_state(seed0 + g))
        while not GAME.is_over(state):
            player = GAME.current_players(state)[0]
            t0 = clock()
            action = heuristic(state, player, rng)
            t1 = clock()
            GAME.apply(state, player, action)
            apply_times.append(clock() - t1)
            bot_total += t1 - t0
    return apply_times, sum(apply_times), bot_total, clock() - start


def quotes(n_games: int) -> list[float]:
    """Quotes: 3 cities from each player's cheapest options at build time, sampled games."""
    heuristic = GAME.bots["heuristic"]
    quote_times: list[float] = []
    clock = time.perf_counter
    for g in range(min(n_games, 50)):
        state = GAME.setup(PLAYERS, OPTIONS, 10_000 + g)
        rng = Rng(new_rng_state(g))
        while not GAME.is_over(state):
            player = GAME.current_players(state)[0]
            if state["phase"] == "build":
                cities = [c for c, _ in build_options(state, player)[:3]]
                t0 = clock()
                connection_quote(state, player, cities)
                quote_times.append(clock() - t0)
            GAME.apply(state, player, heuristic(state, player, rng))
    return quote_times


def main() -> None:
    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed0 = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    # Warm the per-region-set shortest-path caches as a real server would have them.
    GAME.setup(PLAYERS, OPTIONS, seed0)

    actions, elapsed = throughput(n_games, seed0)
    apply_times, engine_s, bot_s, timed_s = breakdown(n_games, seed0 + n_games)
    quote_times = quotes(n_games)

    ms = 1000.0
    games_s = n_games / elapsed
    actions_s = actions / elapsed
    rest_s = timed_s - engine_s - bot_s
    print(
        f"games: {n_games}, actions: {actions} ({actions / n_games:.0f} per game), "
        f"{elapsed:.2f} s (full loop: setup + bot decisions + apply, no inner timers)"
    )
    print(
        f"per game (timed pass, {timed_s / n_games * ms:.2f} ms): "
        f"engine apply {engine_s / n_games * ms:.2f} ms ({engine_s / timed_s:.0%}), "
        f"heuristic bot {bot_s / n_games * ms:.2f} ms ({bot_s / timed_s:.0%}), "
        f"setup/turn queries/loop/timers {rest_s / n_games * ms:.2f} ms ({rest_s / timed_s:.0%})"
    )
    print(
        f"engine only (apply): {len(apply_times) / engine_s:.0f} actions/s, "
        f"{n_games / engine_s:.0f} games/s if bot decisions were free"
    )
    print(
        f"apply: p50 {percentile(apply_times, 0.5) * ms:.3f} ms, "
        f"p99 {percentile(apply_times, 0.99) * ms:.3f} ms, max {max(apply_times) * ms:.3f} ms"
    )
    print(
        f"quote (3 cities): p50 {percentile(quote_times, 0.5) * ms:.3f} ms, "
        f"p99 {percentile(quote_times, 0.99) * ms:.3f} ms ({len(quote_times)} quotes)"
    )
    print(
        f"powergrid: {games_s:.1f} games/s, {actions_s:.0f} actions/s, "
        f"apply p99 {percentile(apply_times, 0.99) * ms:.2f} ms, "
        f"quote p99 {percentile(quote_times, 0.99) * ms:.2f} ms"
    )


if __name__ == "__main__":
    main()
