"""Benchmark: 4-player 20-turn IEC games between bots; seconds per game and apply() p99."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Rng
from engine.iec import GAME


def one_game(seed: int, samples: list[float]) -> None:
    players = ["ann", "bob", "cid", "dee"]
    kinds = ["economic", "random", "economic", "random"]
    st = GAME.setup(players, {}, seed)
    rng = Rng({"s": seed + 1})
    while not GAME.is_over(st):
        (p,) = GAME.current_players(st)
        action = GAME.bots[kinds[players.index(p)]](st, p, rng)
        t0 = time.perf_counter()
        st, _ = GAME.apply(st, p, action)
        samples.append(time.perf_counter() - t0)


def main(games: int = 10) -> None:
    samples: list[float] = []
    t0 = time.perf_counter()
    for seed in range(games):
        one_game(seed, samples)
    per_game = (time.perf_counter() - t0) / games
    samples.sort()
    p99 = samples[int(0.99 * (len(samples) - 1))] * 1000
    print(f"{games} games, {len(samples)} applies")
    print(f"iec: {per_game:.2f} s/game, apply p99 {p99:.2f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
