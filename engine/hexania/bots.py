"""Hexania bots: `fn(state, player, rng) -> action`, always legal.

"random" picks any legal action; "greedy" attacks whatever destroys most pieces per point,
otherwise grows and closes in on the nearest enemy. Both spend their points until nothing is
affordable (HEX-2: the turn ends only then) and neither ever resigns (/end without an action).
With the round limit off (rounds=off) a game may last very long, as the rules allow (HEX-2.6);
bots play with the limit.
"""

from __future__ import annotations

from engine.core import Action, BotFn, Rng, State
from engine.core.search import lazy_bot
from engine.hexania import actions as act
from engine.hexania import rules
from engine.hexania.board import CELLS, INDEX, distance

END: Action = {"type": "end"}


def random_bot(state: State, player: str, rng: Rng) -> Action:
    plans = rules.legal_plans(state, player)
    if not plans:
        return dict(END)
    return dict(rng.choice(plans)[0])


FAR = 40  # the distance `_score` assumes with no enemy piece on the board
# cell -> its distance to every cell by `INDEX`, filled on first use (a byte per cell).
_ROWS: dict[str, bytes] = {}


class EnemyDistance(dict[str, int]):
    """Steps from a cell to the nearest enemy piece, worked out for the cells asked about:
    the board is a convex hexagon (HEX-G-1), so a shortest walk is the hex distance."""

    def __init__(self, enemies: list[int]) -> None:
        super().__init__()
        self.enemies = enemies

    def __missing__(self, cell: str) -> int:
        row = _ROWS.get(cell)
        if row is None:
            row = _ROWS[cell] = bytes(distance(cell, c) for c in CELLS)
        steps = self[cell] = min(map(row.__getitem__, self.enemies))
        return steps


def _enemy_distance(state: State, player: str) -> EnemyDistance | None:
    """Steps from any cell to the nearest enemy piece; None with no enemy piece."""
    enemies = [INDEX[c] for c, o in state["board"].items() if o != player]
    return EnemyDistance(enemies) if enemies else None


def _score(state: State, plan: act.Plan, dist: EnemyDistance | None, pieces: int) -> float:
    far = FAR
    cost = plan.base + plan.steps
    for a in plan.armour:
        cost += a["cost"]
    score = 10.0 * len(plan.destroyed) - 0.25 * cost
    if plan.collapse:
        score -= 4.0 * (len(plan.merged) - 1)
    kind = plan.kind
    if kind == "birth" or kind == "grow":
        score += 3.0 if pieces < 10 else 1.0
    if dist is not None:
        after = min(map(dist.__getitem__, plan.added), default=far)
        if kind == "move" or kind == "regroup":
            before = min(map(dist.__getitem__, plan.vacated), default=far)
            score += 1.5 * (before - after)
        else:
            score += 0.2 * (far - after) / far
    return score


def greedy_bot(state: State, player: str, rng: Rng) -> Action:
    plans = rules.legal_plans(state, player)
    if not plans:
        return dict(END)
    dist = _enemy_distance(state, player)
    pieces = rules.pieces_of(state, player)
    best: list[Action] = []
    best_score = float("-inf")
    for action, plan in plans:
        s = _score(state, plan, dist, pieces)
        if s > best_score + 1e-9:
            best, best_score = [action], s
        elif abs(s - best_score) <= 1e-9:
            best.append(action)
    return dict(best[rng.below(len(best))])


BOTS: dict[str, BotFn] = {
    "random": random_bot,
    "greedy": greedy_bot,
    "strong": lazy_bot("engine.hexania.strong"),
}
