"""Hexania's `strong` bot and `/hint` (issue 24): the determinised rollout search of
engine/core/search.py with the greedy bot as rollout policy.

Hexania has no secrets except the future dice (HEX-1): a determinisation re-seeds the game's
RNG from the search's own RNG. Rollouts stop after `HORIZON` actions; an unfinished game is
judged by the piece lead over the strongest rival.
"""

from __future__ import annotations

from engine.core import Rng, Translator
from engine.core.protocol import Action, State
from engine.core.rng import new_rng_state
from engine.core.search import (
    Budget,
    StrongSearch,
    copy_state,
    lead_value,
    rank_value,
    reseed,
)
from engine.hexania import rules
from engine.hexania.bots import _enemy_distance, _score, greedy_bot

HORIZON = 24  # actions per rollout: about two turns of every player
ALTERNATIVES = 2  # best-scored plans besides the policy's own move
END: Action = {"type": "end"}


def determinise(state: State, player: str, rng: Rng) -> State:
    world: State = copy_state(state)
    reseed(world, rng)
    return world


def candidates(state: State, player: str, rng: Rng) -> list[Action]:
    out = [greedy_bot(state, player, rng)]
    plans = rules.legal_plans(state, player)
    if plans:
        dist = _enemy_distance(state, player)
        pieces = rules.pieces_of(state, player)
        scored = sorted(
            ((_score(state, plan, dist, pieces), i) for i, (_, plan) in enumerate(plans)),
            reverse=True,
        )
        out.extend(dict(plans[i][0]) for _, i in scored[:ALTERNATIVES])
    if state["turn"] is not None and state["turn"]["actions"] > 0:
        out.append(dict(END))
    return out


def evaluate(state: State, player: str) -> float:
    if state["over"]:
        return rank_value(rules.result(state), player)
    active = rules.active_players(state)
    if player not in active:
        return 0.0
    counts = {p: rules.pieces_of(state, p) for p in active}
    return lead_value(lambda p: float(counts[p]), list(counts), player, 3.0)


SEARCH = StrongSearch(
    "engine.hexania",
    determinise=determinise,
    candidates=candidates,
    policy=greedy_bot,
    evaluate=evaluate,
    horizon=HORIZON,
)
glue = SEARCH.glue
strong = SEARCH.bot()
decide = SEARCH.decide


def hint(
    state: State, player: str, t: Translator, rng: Rng | None = None, budget: Budget | None = None
) -> tuple[Action, str]:
    """The move the strong bot would make and one line why (the /cost quote's figures)."""
    from engine.hexania.commands import action_text

    rng = rng or Rng(new_rng_state(state["round"] * 7919 + len(state["board"])))
    decision = decide(state, player, rng, budget)
    action = decision.action
    move = action_text(action)
    if action["type"] == "end":
        return action, t.gettext("{move}: nothing left is worth its points").format(move=move)
    plan = rules.price(state, player, action)
    destroyed = len(plan.destroyed)
    if destroyed:
        why = t.ngettext(
            "{move}: {cost} points, destroys {n} enemy piece",
            "{move}: {cost} points, destroys {n} enemy pieces",
            destroyed,
        )
    else:
        why = t.gettext("{move}: {cost} points, strengthens your position")
    return action, why.format(move=move, cost=plan.cost, n=destroyed)
