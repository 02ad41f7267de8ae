"""How games of the alternative rules end (a script, not a test; issue 21).

Plays 60 seeded games between heuristic bots (seeds 0..19 with 2, 3 and 4 players) and counts
how each ended: ALT-44 (every city covered), ALT-45 (no remaining city can ever be covered),
by agreement (a table vote; bots never propose one), or not at all within MAX_MOVES.
The last line is the summary:
    alt endings: 60/60 by ALT-44, 0 by ALT-45, 0 by agreement, 0 unfinished; rounds 11-22

Usage: .venv/bin/python bench/alt_endings.py [games per player count] [bot]
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core import Rng
from engine.powergrid_alt import GAME

MAX_MOVES = 20_000
REASONS = {"covered": "ALT-44", "unreachable": "ALT-45", "agreement": "agreement"}


def play(n: int, seed: int, bot: str) -> tuple[str, int]:
    """One game to its end: (how it ended, rounds played)."""
    players = [f"p{i}" for i in range(n)]
    # Regions drawn with 2 players (ALT-4), as when the summary above was measured; the
    # default is now the players' choice (PG-8, DECISION PG-D-3): pinned off, comparable.
    state = GAME.setup(players, {"regions": "random"}, seed)
    rng = Rng({"s": seed ^ 0x5EED})
    reason = "unfinished"
    for _ in range(MAX_MOVES):
        if GAME.is_over(state):
            break
        who = GAME.current_players(state)[0]
        state, events = GAME.apply(state, who, GAME.bots[bot](state, who, rng))
        for event in events:
            if event["type"] == "final_round":
                reason = REASONS.get(event["reason"], event["reason"])
    if not GAME.is_over(state):
        reason = "unfinished"
    return reason, int(state["round"])


def main(per_count: int, bot: str) -> str:
    ended: Counter[str] = Counter()
    rounds: list[int] = []
    for n in (2, 3, 4):
        for seed in range(per_count):
            reason, played = play(n, seed, bot)
            print(f"{n} players, seed {seed}: {reason} after {played} rounds")
            ended[reason] += 1
            rounds.append(played)
    total = 3 * per_count
    return (
        f"alt endings: {ended['ALT-44']}/{total} by ALT-44, {ended['ALT-45']} by ALT-45, "
        f"{ended['agreement']} by agreement, {ended['unfinished']} unfinished; "
        f"rounds {min(rounds)}-{max(rounds)} ({bot} bots)"
    )


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    kind = sys.argv[2] if len(sys.argv) > 2 else "heuristic"
    print(main(count, kind))
