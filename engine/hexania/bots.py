"""Hexania bots: `fn(state, player, rng) -> action`, always legal.

"random" picks any legal action; "greedy" attacks whatever destroys most pieces per point,
otherwise grows and closes in on the nearest enemy. Both spend their points until nothing is
affordable (HEX-2: the turn ends only then) and neither ever resigns (/end without an action).
With the round limit off (rounds=off) a game may last very long, as the rules allow (HEX-2.6);
bots play with the limit.
"""

from __future__ import annotations

from collections import deque

from engine.core import Action, BotFn, Rng, State
from engine.core.search import lazy_bot
from engine.hexania import actions as act
from engine.hexania import rules
from engine.hexania.board import NEIGHBOURS

END: Action = {"type": "end"}


def random_bot(state: State, player: str, rng: Rng) -> Action:
    plans = rules.legal_plans(state, player)
    if not plans:
        return dict(END)
    return dict(rng.choice(plans)[0])


def _enemy_distance(state: State, player: str) -> dict[str, int]:
    """Steps from every cell to the nearest enemy piece (BFS over the board)."""
    dist: dict[str, int] = {}
    queue: deque[str] = deque()
    for c, o in state["board"].items():
        if o != player:
            dist[c] = 0
            queue.append(c)
    while queue:
        c = queue.popleft()
        for n in NEIGHBOURS[c]:
            if n not in dist:
                dist[n] = dist[c] + 1
                queue.append(n)
    return dist


def _score(state: State, plan: act.Plan, dist: dict[str, int], pieces: int) -> float:
    far = 40
    score = 10.0 * len(plan.destroyed) - 0.25 * plan.cost
    if plan.collapse:
        score -= 4.0 * (len(plan.merged) - 1)
    if plan.kind in ("birth", "grow"):
        score += 3.0 if pieces < 10 else 1.0
    before = min((dist.get(c, far) for c in plan.vacated), default=far)
    after = min((dist.get(c, far) for c in plan.added), default=far)
    if plan.kind in ("move", "regroup"):
        score += 1.5 * (before - after)
    elif dist:
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
