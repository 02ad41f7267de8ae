"""Power Grid engine benchmark (a script, not a test).

Plays full 4-player games between heuristic bots on Germany and reports games/s,
actions/s, and p50/p99 latencies of `apply` and of the connection-cost quote.
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


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed0 = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    heuristic = GAME.bots["heuristic"]
    apply_times: list[float] = []
    quote_times: list[float] = []
    actions = 0
    clock = time.perf_counter
    # Warm the per-region-set shortest-path caches as a real server would have them.
    GAME.setup(PLAYERS, {"map": "germany"}, seed0)
    start = clock()
    for g in range(n_games):
        state = GAME.setup(PLAYERS, {"map": "germany"}, seed0 + g)
        rng = Rng(new_rng_state(seed0 + g))
        while not GAME.is_over(state):
            player = GAME.current_players(state)[0]
            action = heuristic(state, player, rng)
            t0 = clock()
            GAME.apply(state, player, action)
            apply_times.append(clock() - t0)
            actions += 1
    elapsed = clock() - start

    # Quotes: 3 cities from each player's cheapest options at build time, sampled games.
    for g in range(min(n_games, 50)):
        state = GAME.setup(PLAYERS, {"map": "germany"}, 10_000 + g)
        rng = Rng(new_rng_state(g))
        while not GAME.is_over(state):
            player = GAME.current_players(state)[0]
            if state["phase"] == "build":
                cities = [c for c, _ in build_options(state, player)[:3]]
                t0 = clock()
                connection_quote(state, player, cities)
                quote_times.append(clock() - t0)
            GAME.apply(state, player, heuristic(state, player, rng))

    ms = 1000.0
    games_s = n_games / elapsed
    actions_s = actions / elapsed
    print(
        f"games: {n_games}, actions: {actions} ({actions / n_games:.0f} per game), {elapsed:.2f} s"
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
