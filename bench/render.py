"""Benchmark the Power Grid board picture: render + PNG encode time and size over demo games.

    .venv/bin/python bench/render.py [--rounds 3] [--save-docs]

Plays bot games with the real engine (Germany with 4 players, USA with 6), renders the public
view at the start and after every phase (as the bot does), `--rounds` times each (the
first from cold caches), and prints p50/p99 time and the largest PNG. The last line reads
`render: p50 30 ms, p99 60 ms, largest PNG 130 KB`. `--save-docs` writes one picture per phase
of the Germany game to docs/powergrid-<phase>.png.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.rng import Rng, new_rng_state  # noqa: E402
from engine.powergrid import GAME  # noqa: E402
from engine.powergrid import render as R  # noqa: E402

GAMES = [
    ("germany", ["alice", "Борис", "carol", "Dörte"], 1),
    ("usa", ["alice", "Борис", "carol", "Dörte", "eve", "frank"], 2),
]


def demo_views(map_id: str, players: list[str], seed: int) -> list[dict[str, Any]]:
    """The public view at the start and after every phase of a heuristic-bot game."""
    state = GAME.setup(players, {"map": map_id, "regions": "choose"}, seed)
    rng = Rng(new_rng_state(seed))
    views = [GAME.view(state, None)]
    while not GAME.is_over(state):
        player = GAME.current_players(state)[0]
        _, events = GAME.apply(state, player, GAME.bots["heuristic"](state, player, rng))
        if any(e["type"] == "phase_ended" for e in events):
            views.append(GAME.view(state, None))
    if views[-1]["phase"] != "over":
        views.append(GAME.view(state, None))
    return views


def save_docs(views: list[dict[str, Any]]) -> None:
    """One picture per phase: the one about 60% through the game (the last for "over")."""
    by_phase: dict[str, list[dict[str, Any]]] = {}
    for v in views:
        by_phase.setdefault(v["phase"], []).append(v)
    for phase, vs in by_phase.items():
        v = vs[min(len(vs) - 1, int(len(vs) * 0.6))] if phase != "over" else vs[-1]
        out = ROOT / "docs" / f"powergrid-{phase}.png"
        out.write_bytes(R.render(v, None))
        print(f"wrote {out.relative_to(ROOT)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--save-docs", action="store_true")
    args = ap.parse_args()
    times: list[float] = []
    sizes: list[int] = []
    for map_id, players, seed in GAMES:
        views = demo_views(map_id, players, seed)
        if args.save_docs and map_id == "germany":
            save_docs(views)
        R._BASE.clear()  # each game starts from a cold process: its map is not cached yet
        R._GEOMETRY.clear()
        for _ in range(args.rounds):
            for v in views:
                t0 = time.perf_counter()
                png = R.render(v, None)
                times.append(time.perf_counter() - t0)
                sizes.append(len(png))
        print(f"{map_id}: {len(views)} pictures x {args.rounds}, {len(players)} players")
    times.sort()
    p50 = times[len(times) // 2] * 1000
    p99 = times[min(len(times) - 1, round(len(times) * 0.99))] * 1000
    print(f"samples {len(times)}, max {times[-1] * 1000:.0f} ms (the first, cold render of a map)")
    print(f"render: p50 {p50:.0f} ms, p99 {p99:.0f} ms, largest PNG {max(sizes) // 1024} KB")


if __name__ == "__main__":
    main()
