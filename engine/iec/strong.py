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
- the game's RNG (dice and draws): re-seeded from the search's RNG.
Rivals play the economic bot or, in half the worlds, the launcher rush (an opponent model,
not a secret). Rollouts stop after `HORIZON` actions; an unfinished game is judged by VP
plus the goods per turn the network is expected to ship over the turns left.
"""

from __future__ import annotations

from typing import Any

from engine.core import Rng, State, Translator
from engine.core.protocol import Action
from engine.core.rng import new_rng_state
from engine.core.search import (
    Budget,
    StrongSearch,
    copy_state,
    lead_value,
    rank_value,
    reseed,
)
from engine.iec import rules
from engine.iec.actions import legal_actions
from engine.iec.bots import _plan, economic_bot, network_value, turns_left
from engine.iec.defence import guarded_bot
from engine.iec.rush import rush_bot
from engine.iec.techs import TECHS

HORIZON = 48  # actions per rollout: about two game turns of two players
ALTERNATIVES = 4  # evenly spaced legal actions besides the policies' moves
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
    first = guarded_bot(state, player, rng)
    if first.get("type") in BOOKKEEPING:
        return [first]  # keeping standing orders in step is bookkeeping, not a decision
    legal = legal_actions(state, player)
    out = [first, rush_bot(state, player, rng)]
    out.extend(a for a in legal if a.get("type") == "done")
    out.extend(_spread([a for a in legal if a.get("type") != "done"], ALTERNATIVES))
    return out


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
strong = SEARCH.bot()
decide = SEARCH.decide


def hint(
    state: State, player: str, t: Translator, rng: Rng | None = None, budget: Budget | None = None
) -> tuple[Action, str]:
    """The move the strong bot would make and one line why."""
    rng = rng or Rng(new_rng_state(state["turn"] * 7919 + state["phase"]))
    decision = decide(state, player, rng, budget)
    action = decision.action
    kind = action.get("type")
    if kind == "fire":
        (cell, shots), *_ = action["targets"].items()
        target = state["buildings"][cell]["kind"]
        why = t.ngettext(
            "Fire {n} missile at the {target} on {cell}",
            "Fire {n} missiles at the {target} on {cell}",
            shots,
        ).format(n=shots, target=t.gettext(target), cell=cell)
    elif kind == "build":
        why = t.gettext("Build on {cell}: more goods reach your transmitters").format(
            cell=action["cell"]
        )
    elif kind == "tech":
        name = TECHS[action["tech"]]
        why = t.gettext("Buy {tech}").format(tech=t.gettext(name))
    else:
        chosen = next(a for a in decision.arms if a.action == action)
        why = t.gettext("{move}: {odds}% to win in the simulations").format(
            move="/" + str(kind), odds=round(100 * chosen.mean)
        )
    return action, why
