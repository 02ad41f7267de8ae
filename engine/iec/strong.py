"""IEC's `strong` bot and `/hint` (issue 24): the determinised rollout search of
engine/core/search.py; the rollout policy is engine/iec/defence.py's (transmissions first,
guarded against a launcher rush) for the searcher's own seat and the economic bot or the
rush for the rivals.

What a player cannot see (IEC-S-26, `rules.view`) and how a determinisation re-samples it
from the view only:
- rivals' face-down tokens: each is a real mine with probability 1/3 (a lay is one real mine
  and up to two fakes, IEC-S-20);
- rivals' unrevealed technologies: as many as the view counts, drawn from the technologies
  the rival has not revealed;
- undiscovered areas' deposit candidates: the player's own peek when he has one, else a fresh
  draw from the area's class (as setup draws them);
- rivals' peeks and standing orders: unknown, so none (the rollout policy sets its orders);
- rivals' Flexible Order declarations of this turn (IEC-S-10.3): secret until the phase each
  concerns begins, so re-made from the sampled orders above: none;
- the game's RNG (dice and draws): re-seeded from the search's RNG.
Rivals play the economic bot or, in half the worlds, the launcher rush (an opponent model,
not a secret). Rollouts stop after `HORIZON` actions; an unfinished game is judged by VP
plus the goods per turn the network is expected to ship over the turns left.

Where it searches, measured (2026-11-27, this 2-core machine under a load of 4-7): a rollout
costs 0.2-0.8 s in mid-game (about 10 ms a policy move), so 2 s allow one or two paired
samples per candidate, and with those the search lost games the policy alone wins
(bench/bots.py: 33 % against 42 % over 4-player games, 52 % against 55 % against the rush).
So the search runs only where it can be trusted: in the last `SEARCH_TURNS` + 1 turns, on
the decisions that change the game (`SEARCHED`: prepare, build, fire), where a rollout plays
to the end (a few dozen moves) and is judged by the final ranking itself, VP then intact
modules (IEC-S-9): the tie-break the policy ignores. Everywhere else the policy plays alone
(`candidates` lists its move only, no think time), and a searched move replaces the
policy's only on clear paired evidence (`trusted`).
Plainly: under the 2 s budget on this machine the pure policy is as strong as this bot (on
the report seeds, 100 games each, 2026-11-28 15:03, with the duel's second transmitter of
defence.py: 40 % against three economic bots and 80 % against the rush, for the policy alone
and for this bot alike) and stronger than a search of every decision.
The search stays: with a faster engine or a longer budget `SEARCH_TURNS` can grow.
Tried with a faster engine (2026-11-27, engine/iec/planning.py: 2.06 -> 0.62 ms a policy move,
0.235 -> 0.070 s a rollout, CPU on one core, `bench/iec_engine.py --rollouts 6`; every move
unchanged): on tuning seeds 80000+ (`bench/bots.py --only iec --games 100 --jobs 1 --seed0
80000`) SEARCH_TURNS 3 played as the policy alone (52 % / 64 %, 2 of 200 games changed), and
SEARCH_TURNS 4 with Z_IEC 1 changed no four-player game and 5 against the rush (66 % against
64 %, +3 ±3.6 points): not kept. Mid-game the searched phase-6 candidates (/done, the rush's
`mix` order, prepared sites the policy never builds on) score the same on every sample, so
more rollouts cannot help; better candidates could (docs/bots-lab.md has the figures).
"""

from __future__ import annotations

import math
from typing import Any

from engine.core import IllegalAction, Rng, State, Translator
from engine.core.protocol import Action
from engine.core.rng import new_rng_state
from engine.core.search import (
    Budget,
    Decision,
    StrongSearch,
    copy_state,
    lead_value,
    rank_value,
    reseed,
)
from engine.iec import actions, rules
from engine.iec.actions import legal_actions
from engine.iec.bots import _plan, economic_bot, network_value, turns_left
from engine.iec.defence import guarded_bot
from engine.iec.hints import reason
from engine.iec.model import acting, owns_tech
from engine.iec.rush import rush_bot
from engine.iec.techs import TECHS

HORIZON = 100  # actions per rollout: the last two turns of four players fit
ALTERNATIVES = 2  # evenly spaced legal actions besides the policy's move and a pass
# Phases searched (IEC-27): 6 prepare, 7 build, 9 fire; elsewhere the policy plays alone.
SEARCHED = frozenset({6, 7, 9})
SEARCH_TURNS = 1  # turns left (after this one) within which those phases are searched
MIN_ROUNDS = 3  # paired samples before a searched move may replace the policy's
Z_IEC = 2.0  # standard errors by which it must beat the policy's (see `trusted`)
# Standing orders (rules.STANDING) the policy keeps in step with its network: not decisions
# worth a search ("power" is phase 3's choice and stays one).
BOOKKEEPING = frozenset(rules.STANDING) - {"power"}
MODEL = "_strong_model"  # a key only determinised worlds carry (see `policy`)
DEFAULT_ORDERS: dict[str, Any] = {
    "power": [],
    "give": {},
    "extract": {},
    "mix": ["AB", "BC", "AC"],
    "transfers": [],
    "deliver": {},
    "destroy": [],
    "flex": {},
    "antimissile": True,
}


def determinise(state: State, player: str, rng: Rng) -> State:
    world: State = copy_state(state)
    reseed(world, rng)
    # Rules version 2: the rivals' declarations in a phase declared at once are secret; the
    # world knows the player's own only (the rivals then declare nothing more there).
    pending = world.get("pending")
    if pending is not None:
        for name in pending:
            if name != player:
                pending[name] = []
    # Opponent model (not hidden information): in half the worlds the rivals play the
    # launcher rush in the rollouts, so the search learns to meet an aggressive rival too.
    world[MODEL] = {"searcher": player, "rush": rng.below(2) == 0}
    for t in world["tokens"]:
        if not t["up"] and t["owner"] != player:
            t["real"] = rng.below(3) == 0
    s = rules.scen(world)
    k = int(s.raw["deposits_per_area"])
    peeks = world["players"][player]["peeks"]
    for area_id, area in sorted(world["areas"].items()):
        if area["deposit"] is None and not s.areas[area_id].get("fixed"):
            if area_id in peeks:
                area["candidates"] = list(peeks[area_id])
            else:
                pool = list(s.classes[s.areas[area_id]["class"]])
                rng.shuffle(pool)
                area["candidates"] = sorted(pool[:k])
    for name, pl in world["players"].items():
        if name == player:
            continue
        hidden = len(pl["techs"]) - len(pl["revealed"])
        techs: list[int] = [n for n in sorted(TECHS) if n not in pl["revealed"]]
        rng.shuffle(techs)
        pl["techs"] = list(pl["revealed"]) + techs[:hidden]
        pl["peeks"] = {}
        pl["orders"] = copy_state(DEFAULT_ORDERS)
        # IEC-S-10.3 (corrections 1.1, "Flexible Order"): this turn's declarations were made
        # privately at phase 0, each public only when the phase it concerns begins, and `view`
        # keeps none of them; `rules._phase_order` would apply a copied one in the rollouts
        # whatever the sampled technologies (the searcher's move, and /hint, hung on a rival's
        # secret). So they are made again as phase 0 makes them (`rules._declare_flex`), from
        # what this world gives the rival: no Flexible Order, or no `flex` order, means none.
        # Those of phases already begun are spent: their effect is the public `phase_order`.
        pl["declared"] = dict(pl["orders"]["flex"]) if owns_tech(world, name, 3) else {}
    return world


def policy(state: State, player: str, rng: Rng) -> Action:
    """The rollout policy: the searcher's own (the guarded economic bot); for rivals the
    economic bot, or the rush in a rush world."""
    model = state.get(MODEL)
    if model is None or player == model["searcher"]:
        return guarded_bot(state, player, rng)
    if model["rush"]:
        return rush_bot(state, player, rng)
    return economic_bot(state, player, rng)


def _spread(actions: list[Action], most: int) -> list[Action]:
    if len(actions) <= most:
        return actions
    step = len(actions) / most
    return [actions[int(i * step)] for i in range(most)]


def candidates(state: State, player: str, rng: Rng) -> list[Action]:
    """The policy's move first; besides it only in the phases where a choice changes the
    game (`SEARCHED`: preparing, building, firing), the rush's move, a pass and a few
    evenly spaced legal moves. Everywhere else the policy's move alone: no search, no think time."""
    first = guarded_bot(state, player, rng)
    if (
        first.get("type") in BOOKKEEPING
        or state["phase"] not in SEARCHED
        or turns_left(state) > SEARCH_TURNS
    ):
        return [first]  # keeping standing orders in step is bookkeeping, not a decision
    legal = legal_actions(state, player)
    out = [first, rush_bot(state, player, rng)]
    out.extend(a for a in legal if a.get("type") == "done")
    moves = [a for a in legal if a.get("type") != "done" and a.get("type") not in BOOKKEEPING]
    out.extend(_spread(moves, ALTERNATIVES))
    return out


def trusted(decision: Decision) -> Action:
    """The searched move only when it beats the policy's own on at least `MIN_ROUNDS` paired
    samples by `Z_IEC` standard errors of the difference; else the policy's move. Measured
    (bench/bots.py): with the few rollouts 2 s allow, search.py's one standard error let
    noise replace a sound policy move often enough to lose games (several alternatives
    compared at once: one of them clears a single standard error by chance)."""
    base = decision.arms[0]
    chosen = next(a for a in decision.arms if a.action == decision.action)
    n = len(base.values)
    if chosen is base or n < MIN_ROUNDS or len(chosen.values) != n:
        return base.action
    diffs = [a - b for a, b in zip(chosen.values, base.values, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return decision.action if mean > Z_IEC * math.sqrt(var / n) else base.action


def _score(state: State, name: str) -> float:
    left = max(0, turns_left(state))
    return rules.score(state, name) + network_value(state, name, _plan(state, name)) * min(left, 6)


def evaluate(state: State, player: str) -> float:
    if state["over"]:
        return rank_value(rules.result(state), player)
    return lead_value(lambda n: _score(state, n), state["seats"], player, 3.0)


SEARCH = StrongSearch(
    "engine.iec",
    determinise=determinise,
    candidates=candidates,
    policy=policy,
    evaluate=evaluate,
    horizon=HORIZON,
)
glue = SEARCH.glue
decide = SEARCH.decide


def strong(state: State, player: str, rng: Rng) -> Action:
    """The `strong` bot: the search's move when `trusted`, else the policy's."""
    return trusted(decide(state, player, rng))


# /hint's rollouts (engine/core/game_base.py `with_hint_rollouts`): a fixed count, so one position
# always gets the same hint; bench/bots.py's IEC budget (MIN_ROUNDS paired samples for
# `trusted`), think p99 about 0.5 s.
HINT_ITERATIONS = 40


def hint(
    state: State, player: str, t: Translator, rng: Rng | None = None, budget: Budget | None = None
) -> tuple[Action, str]:
    """The move the strong bot would make and one line why: the command to type
    (engine/iec/hints.py)."""
    rng = rng or Rng(new_rng_state(state["turn"] * 7919 + state["phase"]))
    if player in acting(state):  # the phase asks him a move: that is the hint
        state = orders_in_step(state, player, rng)
    action = trusted(decide(state, player, rng, budget))
    return action, reason(state, action, t)


ORDERS_AT_MOST = 32  # standing orders the policy may set before its phase move (one per mine...)


def orders_in_step(state: State, player: str, rng: Rng) -> State:
    """A copy of `state` after the standing orders the policy would set first (`BOOKKEEPING`:
    a mix, an extraction, a delivery...), which never advance the game (IEC-S-10.5): what is
    left is the move the current phase asks of him. A player asked to lay tokens was hinted
    "/mix BC AB" (found playing, 2026-12); the orders stay his to give, when he asks off turn."""
    ahead = copy_state(state)
    for _ in range(ORDERS_AT_MOST):
        first = guarded_bot(ahead, player, rng)
        if first.get("type") not in BOOKKEEPING:
            break
        try:
            ahead, _events = actions.apply(ahead, player, first)
        except IllegalAction:
            break
    return ahead
