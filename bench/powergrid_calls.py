"""Per-call cost of the Power Grid engine calls the table makes on every move (issue 23).

    .venv/bin/python bench/powergrid_calls.py [games] [seed] [repeats]

Plays `games` seeded 3-player games (random legal moves, as bench/table_latency.py sends
them) and keeps every state on the way. Then, over all those states, times each call the
table makes per move: `view` (the public view, which the table builds once per move), `play`
(apply and the questions after it; the state's copy is timed apart and taken off), the turn's
text and the buttons of the player to act as the table words them, from that public view
(`describe_turn_in`, `buttons_in`: Power Grid `view_speaks`), `legal_actions`,
`forced_action` and `describe_event` (each event of each move). Each figure is in µs per call,
the sum of the best of `repeats` passes over chunks of 40 calls (the machine is shared: the
best pass of a short chunk is the least disturbed). "per move" adds one view, one play, one
turn text, one set of buttons, one legal-move list and the move's events' lines.
The last line reads (30 games, quiet machine, 2026-11-27):
`powergrid calls: view 51 µs, play 46 µs, turn_text 9 µs, buttons 11 µs, legal_actions 10 µs,
forced_action 6 µs, describe_event 4 µs; per move ~134 µs (load 0.8)`.
Before issue 23's engine work (describe_turn and buttons from the state, each building its own
view, as the table then called them): view 66, play 72, describe_turn 102, buttons 93,
legal_actions 20, forced_action 15, describe_event 5; per move ~362 µs (load 3.0).
"""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core import EnglishTranslator, Rng, canonical_json, load_state
from engine.core.rng import new_rng_state
from engine.powergrid import GAME

PLAYERS = ["ann", "bob", "cyd"]
# Regions drawn, as when the figures above were measured (the table's default is now the
# players' choice, DECISION PG-D-3): the same games, comparable figures.
OPTIONS = {"map": "germany", "regions": "random"}
T = EnglishTranslator()

# One recorded move: the state before it (and as canonical JSON), who moved, the action and
# the events it produced.
Move = tuple[dict[str, Any], str, str, dict[str, Any], list[dict[str, Any]]]


def record(games: int, seed0: int) -> list[Move]:
    moves: list[Move] = []
    for g in range(games):
        state = GAME.setup(PLAYERS, OPTIONS, seed0 + g)
        rng = Rng(new_rng_state(seed0 + g))
        while not GAME.is_over(state):
            current = GAME.current_players(state)
            player = current[rng.below(len(current))]
            legal = GAME.legal_actions(state, player)
            action = legal[rng.below(len(legal))]
            text = canonical_json(state)
            _, events = GAME.apply(state, player, action)
            moves.append((load_state(text), text, player, action, events))
    return moves


def best(repeats: int, items: list[Any], call: Callable[[Any], object]) -> float:
    """Seconds to `call` every item: the items in chunks of 40, each chunk timed `repeats`
    times and its best time kept (a chunk takes a few ms, so on a shared machine most chunks
    get one undisturbed pass), summed over the chunks."""
    total = 0.0
    clock = time.perf_counter
    for i in range(0, len(items), 40):
        chunk = items[i : i + 40]
        fastest = float("inf")
        for _ in range(repeats):
            start = clock()
            for item in chunk:
                call(item)
            fastest = min(fastest, clock() - start)
        total += fastest
    return total


def main() -> None:
    args = [int(a) for a in sys.argv[1:]]
    games = args[0] if args else 30
    seed0 = args[1] if len(args) > 1 else 1
    repeats = args[2] if len(args) > 2 else 5
    moves = record(games, seed0)
    events = [(state, e) for state, _, _, _, evs in moves for e in evs]
    n = len(moves)

    # The recorded states stay alive to the end: out of the collector's way, so a collection
    # costs what the calls allocate, not the size of this heap.
    gc.freeze()
    us = 1e6
    # the public view of each state, built once as the table does, and the player to act
    seen = [(GAME.view(m[0], None), m[2]) for m in moves]
    copy_s = best(repeats, moves, lambda m: load_state(m[1]))
    figures = {
        "view": best(repeats, moves, lambda m: GAME.view(m[0], None)) / n * us,
        "play": (best(repeats, moves, lambda m: GAME.play(load_state(m[1]), m[2], m[3])) - copy_s)
        / n
        * us,
        "turn_text": best(repeats, seen, lambda v: GAME.describe_turn_in(v[0], None, T)) / n * us,
        "buttons": best(repeats, seen, lambda v: GAME.buttons_in(v[0], v[1], T)) / n * us,
        "legal_actions": best(repeats, moves, lambda m: GAME.legal_actions(m[0], m[2])) / n * us,
        "forced_action": best(repeats, moves, lambda m: GAME.forced_action(m[0], m[2])) / n * us,
        "describe_event": best(repeats, events, lambda e: GAME.describe_event(e[0], e[1], T))
        / len(events)
        * us,
    }
    per_event = len(events) / n
    # A move through the table: the public view, one play, the turn's text and the buttons
    # from that view, the legal moves the sender picks from, the lines.
    per_move = (
        figures["view"]
        + figures["play"]
        + figures["turn_text"]
        + figures["buttons"]
        + figures["legal_actions"]
        + figures["describe_event"] * per_event
    )
    print(f"{games} games, {n} moves, {len(events)} events, state copy {copy_s / n * us:.0f} µs")
    load = os.getloadavg()[0]
    shown = ", ".join(f"{k} {v:.0f} µs" for k, v in figures.items())
    print(f"powergrid calls: {shown}; per move ~{per_move:.0f} µs (load {load:.1f})")


if __name__ == "__main__":
    main()
