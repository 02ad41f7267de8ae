"""Hexania engine benchmark: legal-action generation, apply and render latencies (p50/p99).

    .venv/bin/python bench/hexania_engine.py [--games 6] [--renders 60]

States come from bot games of 2..6 players (random and greedy bots, default round limit).
Goals: legal and apply p99 <= 2 ms, render p99 <= 120 ms. The last line is the summary.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core import Rng
from engine.core.rng import new_rng_state
from engine.hexania import GAME


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--renders", type=int, default=60)
    args = parser.parse_args()
    legal_ms: list[float] = []
    apply_ms: list[float] = []
    snapshots = []
    for g in range(args.games):
        n = 2 + g % 5
        bot = GAME.bots["greedy" if g % 2 else "random"]
        state = GAME.setup([f"p{i}" for i in range(n)], {}, 1000 + g)
        rng = Rng(new_rng_state(g))
        step = 0
        while not GAME.is_over(state):
            player = GAME.current_players(state)[0]
            t0 = time.process_time()
            GAME.legal_actions(state, player)
            legal_ms.append((time.process_time() - t0) * 1000)
            action = bot(state, player, rng)
            if step % 25 == 0:
                snapshots.append(copy.deepcopy(state))
            t0 = time.process_time()
            state, _ = GAME.apply(state, player, action)
            apply_ms.append((time.process_time() - t0) * 1000)
            step += 1
        snapshots.append(copy.deepcopy(state))
    GAME.render(snapshots[0], None)  # load fonts once
    render_ms: list[float] = []
    picks = snapshots[:: max(1, len(snapshots) // args.renders)][: args.renders]
    for s in picks:
        t0 = time.process_time()
        GAME.render(s, None)
        render_ms.append((time.process_time() - t0) * 1000)
    for name, values in (("legal", legal_ms), ("apply", apply_ms), ("render", render_ms)):
        print(
            f"{name:7s} n={len(values):5d} p50 {statistics.median(values):7.2f} ms "
            f"p99 {pct(values, 99):7.2f} ms max {max(values):7.2f} ms"
        )
    print(
        f"hexania: legal p99 {pct(legal_ms, 99):.1f} ms, apply p99 {pct(apply_ms, 99):.1f} ms, "
        f"render p99 {pct(render_ms, 99):.0f} ms"
    )


if __name__ == "__main__":
    main()
