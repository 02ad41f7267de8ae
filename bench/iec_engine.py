"""Benchmark: 4-player 20-turn IEC games between bots; seconds per game and apply() p99.

`--stats N`: N seeded 2-4 player games of the economic bot against itself, printing the VP
distribution and how many games saw technologies, missiles and Mine War tokens.

`--rollouts N`: the strong bot's rollouts (engine/iec/strong.py), CPU time (process_time) on
one core: N seeded games (4 players: the guarded policy against three economic bots; 2: against
the rush) stopped at turns 4, 8, 12 and 16, from each stop 2 determinised worlds played to the
end by the rollout policy; prints ms per policy move and per rollout.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

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


def bot_game(seed: int, n: int, bot: str) -> tuple[dict[str, Any], set[str]]:
    """One n-player game of `bot` against itself; the final state and the event types seen."""
    players = [f"p{i}" for i in range(n)]
    st = GAME.setup(players, {}, seed)
    rng = Rng({"s": seed + 7})
    seen: set[str] = set()
    while not GAME.is_over(st):
        (p,) = GAME.current_players(st)
        st, events = GAME.apply(st, p, GAME.bots[bot](st, p, rng))
        seen.update(e["type"] for e in events)
    return st, seen


def stats(games: int = 20, bot: str = "economic") -> None:
    vps: list[int] = []
    techs = missiles = mines = 0
    t0 = time.perf_counter()
    for seed in range(games):
        st, seen = bot_game(seed, 2 + seed % 3, bot)
        vps += [int(st["players"][p]["vp"]) for p in st["seats"]]
        techs += "tech_chosen" in seen
        missiles += "missiles" in seen
        mines += "tokens_laid" in seen
    per_game = (time.perf_counter() - t0) / games
    print(f"{bot} bot, {games} games (2-4 players, seeds 0..{games - 1}), {len(vps)} companies")
    print(f"VP per company: mean {sum(vps) / len(vps):.2f}, min {min(vps)}, max {max(vps)}")
    print(f"games with technologies {techs}, missiles {missiles}, mines laid {mines}")
    print(f"{per_game:.2f} s/game")


def rollouts(games: int = 4) -> None:
    from engine.core.rng import new_rng_state
    from engine.iec import defence, strong

    moves = runs = 0
    cpu = 0.0
    for seed in range(games):
        n = 4 if seed % 2 == 0 else 2
        kinds = ["guarded"] + (["economic"] * 3 if n == 4 else ["rush"])
        players = [f"p{i}" for i in range(n)]
        st = GAME.setup(players, {o.key: o.default for o in GAME.options}, 500 + seed)
        rng = Rng(new_rng_state(500 + seed))
        for stop in (4, 8, 12, 16):
            while not GAME.is_over(st) and st["turn"] < stop:
                (p,) = GAME.current_players(st)[:1]
                bot = defence.guarded_bot if p == "p0" else GAME.bots[kinds[players.index(p)]]
                GAME.apply(st, p, bot(st, p, rng))
            for _ in range(2):
                c0 = time.process_time()
                world = strong.determinise(st, "p0", rng)
                dice = Rng(new_rng_state(rng.next64()))
                while not GAME.is_over(world):
                    (p,) = GAME.current_players(world)[:1]
                    GAME.apply(world, p, strong.policy(world, p, dice))
                    moves += 1
                strong.evaluate(world, "p0")
                cpu += time.process_time() - c0
                runs += 1
    print(f"{runs} rollouts, {moves} policy moves, CPU {cpu:.1f} s")
    print(f"iec rollouts: {1000 * cpu / moves:.2f} ms/policy move, {cpu / runs:.3f} s/rollout")


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
    args = sys.argv[1:]
    if args[:1] == ["--rollouts"]:
        rollouts(int(args[1]) if len(args) > 1 else 4)
    elif args[:1] == ["--stats"]:
        stats(int(args[1]) if len(args) > 1 else 20, args[2] if len(args) > 2 else "economic")
    else:
        main(int(args[0]) if args else 10)
