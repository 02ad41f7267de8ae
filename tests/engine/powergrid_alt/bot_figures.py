"""Whole heuristic-bot games of the variant, and the figures the bot is judged by.

    .venv/bin/python -m tests.engine.powergrid_alt.bot_figures [games per player count]
    .venv/bin/python -m tests.engine.powergrid_alt.bot_figures --picture step2.png

prints, for 2, 3 and 4 players over seeds 0..n-1: how many games reached Step 2 (ALT-40),
how many ended by covering every city (ALT-43) rather than because no city could ever be
covered (ALT-45) or by agreement,
how many saw a displacement (ALT-15), hanging lines (ALT-28) and penalties (ALT-36), and
the rounds played. `play` is shared with the property tests. `--picture` draws a Step 2 scene
as one stacked PNG (the reference pictures docs/powergrid_alt-*.png come from
`bench/render.py --save-docs`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core import Rng
from engine.powergrid_alt import GAME
from engine.powergrid_alt import rules as r

MAX_MOVES = 6000
State = dict[str, Any]


@dataclass
class Game:
    state: State
    log: list[tuple[str, dict[str, Any]]]
    top_step: int = 1
    steps: list[int] = field(default_factory=list)  # the steps started, in order
    ended_by: str | None = None
    displacements: int = 0
    hanging_seen: bool = False
    penalties_to_players: int = 0
    penalties_to_bank: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)


def play(
    n: int,
    seed: int,
    bots: list[str] | None = None,
    check: Callable[[State], None] | None = None,
    stop: Callable[[State], bool] | None = None,
) -> Game:
    """Play one game to the end (or until `stop(state)`) with the named bots (heuristic for
    all by default), calling `check(state)` after every move."""
    players = [f"p{i}" for i in range(n)]
    kinds = bots or ["heuristic"] * n
    state = GAME.setup(players, {}, seed)
    rng = Rng({"s": seed ^ 0x5EED})
    game = Game(state, [])
    for _ in range(MAX_MOVES):
        if GAME.is_over(state) or (stop is not None and stop(state)):
            break
        who = GAME.current_players(state)[0]
        action = GAME.bots[kinds[players.index(who)]](state, who, rng)
        game.log.append((who, json.loads(json.dumps(action))))
        state, events = GAME.apply(state, who, action)
        game.events.extend(events)
        for event in events:
            kind = event["type"]
            if kind == "step_started":
                game.top_step = max(game.top_step, event["step"])
                game.steps.append(event["step"])
            elif kind == "final_round":
                game.ended_by = event["reason"]
            elif kind == "plant_built" and event["displaced"]:
                game.displacements += 1
            elif kind == "powered":
                game.penalties_to_bank += event["penalty_bank"]
                game.penalties_to_players += sum(event["penalty_players"].values())
        game.hanging_seen = game.hanging_seen or any(
            r.is_hanging(state, ln) for ln in state["lines"]
        )
        if check is not None:
            check(state)
    game.state = state
    return game


def step2_scene(state: State) -> bool:
    """A Step 2 board worth showing: Phase 3 begins and a displacement left a hanging line."""
    return (
        state["step"] == 2
        and state["phase"] == "resources"
        and state["turn"] == 0
        and any(r.is_hanging(state, ln) for ln in state["lines"])
    )


def picture(path: str, n: int = 4, seed: int = 1) -> None:
    """Draw a heuristic game in Step 2, all pictures of the set stacked in one PNG."""
    game = play(n, seed, stop=step2_scene)
    with open(path, "wb") as out:
        out.write(GAME.render(game.state, None))


def figures(games_per_count: int) -> list[str]:
    out = []
    for n in (2, 3, 4):
        games = [play(n, seed) for seed in range(games_per_count)]
        rounds = sorted(g.state["round"] for g in games)
        out.append(
            f"{n} players, {len(games)} games: "
            f"Step 2 or later reached {sum(g.top_step >= 2 for g in games)} "
            f"(Step 2 itself {sum(2 in g.steps for g in games)}, the rest went from Step 1 "
            f"to Step 3 by the Step 3 card), "
            f"ended by coverage {sum(g.ended_by == 'covered' for g in games)}, "
            f"by ALT-45 {sum(g.ended_by == 'unreachable' for g in games)}, "
            f"by agreement {sum(g.ended_by == 'agreement' for g in games)}, "
            f"with displacement {sum(g.displacements > 0 for g in games)}, "
            f"with hanging lines {sum(g.hanging_seen for g in games)}, "
            f"with penalties paid to players {sum(g.penalties_to_players > 0 for g in games)}; "
            f"rounds {rounds[0]}-{rounds[-1]} (median {rounds[len(rounds) // 2]})"
        )
    return out


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--picture":
        picture(sys.argv[2])
    else:
        count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
        print("\n".join(figures(count)))
