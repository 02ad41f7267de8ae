"""Hexania's `strong` bot and `/hint` (issue 24): the determinised rollout search of
engine/core/search.py with the greedy bot as rollout policy (it models the greedy rivals).

The search's default move (arm 0, played unless another is clearly better) is the guarded
bot's: the greedy score plus what greedy games are lost to (docs/bots-lab.md has the figures):
elimination (HEX-2.4) for want of an affordable action next turn, pieces within the rivals'
reach, and enemy pieces on the homeland, which stop every birth (HEX-5).

Hexania has no secrets except the future dice (HEX-1): a determinisation re-seeds the game's
RNG from the search's own RNG. The candidates are the greedy bot's move and the plans that
leave the best position by a static value (pieces held minus the pieces within the rivals'
reach next turn, `exposure`), picked among the greedy score's best and the births; /end is
never one (HEX-2, corrections 1.1: refused while an action is affordable). Rollouts stop
after `HORIZON` actions; an unfinished game is judged by the lead in that static value over
the strongest rival.
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
from engine.hexania import actions as act
from engine.hexania import rules
from engine.hexania.board import HOMELANDS, NEIGHBOURS
from engine.hexania.bots import _enemy_distance, _score, greedy_bot
from engine.hexania.figures import Figures

HORIZON = 24  # actions per rollout: about two turns of every player
ALTERNATIVES = 3  # plans besides the policy's own move, chosen by the static value
POOL = 10  # best plans by the greedy score that the static value re-judges
# Chance that a roll of two dice reaches a cost (HEX-T-3; bonus points left out).
REACH = [
    1.0 if c <= 2 else sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= c) / 36
    for c in range(14)
] + [0.0] * 40
EXPOSURE = 0.5  # pieces a threatened piece is worth losing (several rivals, not all attack it)
# The guarded bot's weights, in the greedy score's units (10 per destroyed piece), tuned on
# seeds 50000-50099 (bench/bots.py): elimination risk, threatened pieces, homeland freed.
ELIMINATION = 40.0
THREAT = 3.0
HOMELAND_FREED = 10.0


def determinise(state: State, player: str, rng: Rng) -> State:
    world: State = copy_state(state)
    reseed(world, rng)
    return world


def attack_costs(board: dict[str, str], figs: Figures, player: str) -> dict[str, tuple[int, int]]:
    """cell -> (least points an enemy figure needs to step onto it, that figure's mass): its
    inertia plus one point per step (HEX-7), walked as if every path were straight (so it
    never overstates a threat); an own piece on the way does not stop it."""
    buckets: list[list[tuple[str, int]]] = [[] for _ in range(len(REACH))]
    for n, cells in enumerate(figs.cells):
        if figs.owner[n] != player:
            m = len(cells)
            if m < len(buckets):
                buckets[m].extend((c, m) for c in cells)
    best: dict[str, tuple[int, int]] = {}
    for cost, bucket in enumerate(buckets):
        for cell, mass in bucket:
            if cell in best:
                continue
            best[cell] = (cost, mass)
            if cost + 1 < len(buckets):
                nxt = buckets[cost + 1]
                for nb in NEIGHBOURS[cell]:
                    if nb not in best:
                        nxt.append((nb, mass))
    return best


def exposure(board: dict[str, str], figs: Figures, player: str) -> float:
    """Expected pieces of `player` an enemy can reach next turn (HEX-15, HEX-19)."""
    return threat(figs, player, attack_costs(board, figs, player))


def threat(figs: Figures, player: str, costs: dict[str, tuple[int, int]]) -> float:
    """For each own piece the chance that a roll pays the cheapest attack on it (`costs`:
    cell -> (cost, attacker's mass)), armour included: a bigger figure costs more to hit."""
    top = len(REACH) - 1
    total = 0.0
    for n, cells in enumerate(figs.cells):
        if figs.owner[n] != player:
            continue
        m = len(cells)
        for c in cells:
            found = costs.get(c)
            if found is not None:
                cost, attacker = found
                total += REACH[min(top, cost + max(0, m - attacker))]
    return total


def after_board(board: dict[str, str], plan: act.Plan, player: str) -> dict[str, str]:
    """The board once `plan` is done: its pieces moved, the destroyed removed and a collapse
    resolved on the kept cell (HEX-T-5 steps 3-5)."""
    after = dict(board)
    for c in plan.vacated:
        del after[c]
    for c in plan.destroyed:
        del after[c]
    for c in plan.added:
        after[c] = player
    if plan.collapse:
        for c in plan.merged:
            if c != plan.keep:
                after.pop(c, None)
    return after


def cheapest_action(
    board: dict[str, str], figs: Figures, player: str, home: tuple[str, ...]
) -> int:
    """The least a next turn's roll must pay for an action: 1 for a birth (none while an enemy
    stands on the homeland, HEX-5, nor on a cell touching an own piece, HEX-11), else the
    smallest growth (the figure's mass, HEX-4); 99 with neither (certain elimination, HEX-2.4)."""
    blocked = any(board.get(c, player) != player for c in home)
    if not blocked:
        for c in home:
            if c not in board and all(board.get(n) != player for n in NEIGHBOURS[c]):
                return 1
    return min((len(f) for n, f in enumerate(figs.cells) if figs.owner[n] == player), default=99)


def guard_value(
    board: dict[str, str],
    plan: act.Plan,
    player: str,
    costs: dict[str, tuple[int, int]],
    home: tuple[str, ...],
) -> float:
    """What the greedy score misses about a plan: the chance of being eliminated next turn
    (HEX-2.4, a roll below the cheapest action), the expected pieces the rivals can reach
    (`costs` from the position before the turn), and enemy pieces destroyed on the homeland."""
    after = after_board(board, plan, player)
    figs = Figures(after)
    reached = threat(figs, player, costs)
    cheapest = min(len(REACH) - 1, cheapest_action(after, figs, player, home))
    freed = sum(1 for c in plan.destroyed if c in home)
    return HOMELAND_FREED * freed - THREAT * reached - ELIMINATION * (1.0 - REACH[cheapest])


def guarded_bot(state: State, player: str, rng: Rng) -> Action:
    """The greedy score plus `guard_value`; ties broken by `rng` as greedy does."""
    plans = rules.legal_plans(state, player)
    if not plans:
        return {"type": "end"}
    board = state["board"]
    dist = _enemy_distance(state, player)
    pieces = rules.pieces_of(state, player)
    costs = attack_costs(board, Figures(board), player)
    home = HOMELANDS[state["sides"][player]]
    best: list[Action] = []
    best_score = float("-inf")
    for action, plan in plans:
        s = _score(state, plan, dist, pieces) + guard_value(board, plan, player, costs, home)
        if s > best_score + 1e-9:
            best, best_score = [action], s
        elif abs(s - best_score) <= 1e-9:
            best.append(action)
    return dict(best[rng.below(len(best))])


def _after(state: State, player: str, action: Action) -> float:
    world: State = copy_state(state)
    world["rng"] = new_rng_state(1)  # the roll that may follow is not part of the judgement
    rules.apply(world, player, dict(action))
    if world["over"]:
        return rank_value(rules.result(world), player) * 100.0
    figs = Figures(world["board"])
    mine = rules.pieces_of(world, player) - EXPOSURE * exposure(world["board"], figs, player)
    rivals = [p for p in rules.active_players(world) if p != player]
    best = max((rules.pieces_of(world, p) for p in rivals), default=0)
    return mine - 0.5 * best


def candidates(state: State, player: str, rng: Rng) -> list[Action]:
    out = [guarded_bot(state, player, rng), greedy_bot(state, player, rng)]
    plans = rules.legal_plans(state, player)
    if not plans:
        return out
    dist = _enemy_distance(state, player)
    pieces = rules.pieces_of(state, player)
    scored = sorted(
        ((_score(state, plan, dist, pieces), i) for i, (_, plan) in enumerate(plans)),
        reverse=True,
    )
    pool = [plans[i][0] for _, i in scored[:POOL]]
    pool.extend(a for a, plan in plans if plan.kind == "birth" and a not in pool)
    judged = sorted(((_after(state, player, a), i) for i, a in enumerate(pool)), reverse=True)
    out.extend(dict(pool[i]) for _, i in judged[:ALTERNATIVES])
    return out


def evaluate(state: State, player: str) -> float:
    if state["over"]:
        return rank_value(rules.result(state), player)
    active = rules.active_players(state)
    if player not in active:
        return 0.0
    figs = Figures(state["board"])
    board = state["board"]
    values = {p: rules.pieces_of(state, p) - EXPOSURE * exposure(board, figs, p) for p in active}
    return lead_value(lambda p: values[p], list(values), player, 3.0)


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
LEAD = guarded_bot  # the move without search (arm 0; bench/bots.py --policy-only)


# /hint's rollouts (engine/core/game_base.py `with_hint_rollouts`): a fixed count, so one position
# always gets the same hint; bench/bots.py's Hexania budget: 61 % of 66 report games at it,
# think CPU p99 1.0-1.2 s (docs/bots-lab.md).
HINT_ITERATIONS = 16


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
    points = t.ngettext("{cost} point", "{cost} points", plan.cost).format(cost=plan.cost)
    return action, t.gettext("{move}: {points}, {why}").format(
        move=move, points=points, why=_why(state, player, plan, t)
    )


def _why(state: State, player: str, plan: act.Plan, t: Translator) -> str:
    """What the move does that the guarded bot values (`guard_value`), the first that holds:
    enemy pieces off the homeland (HEX-5: no birth while one stands there), enemy pieces
    destroyed, a birth, a growth, fewer own pieces within the rivals' reach (HEX-15)."""
    home = HOMELANDS[state["sides"][player]]
    freed = sum(1 for c in plan.destroyed if c in home)
    if freed:
        return t.ngettext(
            "frees your homeland of {n} enemy piece",
            "frees your homeland of {n} enemy pieces",
            freed,
        ).format(n=freed)
    if plan.destroyed:
        n = len(plan.destroyed)
        return t.ngettext("destroys {n} enemy piece", "destroys {n} enemy pieces", n).format(n=n)
    if plan.kind == "birth":
        return t.gettext("a new piece on your homeland")
    if plan.kind == "grow" and not plan.collapse:  # HEX-4; HEX-15: more armour too
        return t.gettext("one piece more, and a figure harder to pierce")
    board = state["board"]
    costs = attack_costs(board, Figures(board), player)
    before = threat(Figures(board), player, costs)
    after = threat(Figures(after_board(board, plan, player)), player, costs)
    if after < before - 0.25:  # a quarter of a piece less expected to be lost next turn
        return t.gettext("fewer of your pieces within the rivals' reach")
    return t.gettext("strengthens your position")
