"""The alternative rules' `strong` bot and `/hint` (issue 24): the determinised rollout
search of engine/core/search.py with the variant's heuristic bot as rollout policy.

The variant hides what the base game hides (deck order and setup removals, money under
`hidden_money`, the RNG), so it determinises with the base game's function; rules version 2
adds the declarations of Phases 3 and 5, secret until everybody has declared (ALT-10,
ALT-30): a rival's purchases become none, his power choice every runnable plant (who has
declared is public, his `done`); the player's own are kept.

Rollouts stop after `HORIZON` actions (the variant's heuristic is slower than the base
game's); an unfinished game is judged by the lead in powered cities and money over the best
rival.
"""

from __future__ import annotations

from engine.core import Rng, Translator
from engine.core.protocol import Action, State
from engine.core.search import Budget, StrongSearch
from engine.powergrid.data import PLANTS
from engine.powergrid.strong import (
    auction_candidates,
    auction_reason,
    determinise,
    evaluation,
    hint_rng,
    odds_reason,
    region_reason,
)
from engine.powergrid_alt import purchase
from engine.powergrid_alt import rules as r
from engine.powergrid_alt.bots import heuristic_bot
from engine.powergrid_alt.commands import command_text

HORIZON = 100  # actions per rollout: about two rounds of a 4-player game
CITY_MONEY = 12  # Elektro a powered city is worth in a horizon evaluation


def candidates(state: State, player: str, rng: Rng) -> list[Action]:
    """The policy's move first, then the base game's auction alternatives."""
    return [
        heuristic_bot(state, player, rng),
        *auction_candidates(state, player, r.expected(state)),
    ]


def _score(state: State, name: str) -> float:
    p = state["players"][name]
    capacity = sum(PLANTS[n].output for n in r.built_plants(state, name))
    powered = min(capacity, len(p["cities"]))
    return powered * CITY_MONEY + len(p["cities"]) * 8 + capacity * 4 + p["money"] // 2


evaluate = evaluation(_score)


def determinise_alt(state: State, player: str, rng: Rng) -> State:
    """The base game's determinisation, with the secret declarations of version 2 replaced:
    the others' declared purchases are unknown (dropped), their power declarations guessed
    (every runnable plant); the player's own are kept."""
    hidden = {k: state[k] for k in (r.POWER_DECLARED, purchase.DECLARED) if k in state}
    world = determinise({k: v for k, v in state.items() if k not in hidden}, player, rng)
    powers = hidden.get(r.POWER_DECLARED)
    if powers is not None:
        world[r.POWER_DECLARED] = {
            name: dict(action)
            if name == player
            else {"type": "power", "plants": r.runnable(world, name)}
            for name, action in powers.items()
        }
    # ALT-10 (rules version 2): a purchase is declared secretly (a rival's /done is public,
    # not whether he declared anything), so the world keeps a book only for the player's own.
    # It kept an empty book whenever somebody else had declared: one bit of a rival's secret
    # in the world (no rule reads an empty book apart from none, but the world must not
    # depend on it: tests/engine/powergrid_alt/test_alt10_alt30_hidden_declarations.py).
    mine = hidden.get(purchase.DECLARED, {}).get(player)
    if mine:
        world[purchase.DECLARED] = {player: [dict(x) for x in mine]}
    return world


SEARCH = StrongSearch(
    "engine.powergrid_alt",
    determinise=determinise_alt,
    candidates=candidates,
    policy=heuristic_bot,
    evaluate=evaluate,
    horizon=HORIZON,
)
glue = SEARCH.glue
strong = SEARCH.bot()
decide = SEARCH.decide


# /hint's rollouts (engine/core/game_base.py `with_hint_rollouts`): a fixed count, so one position
# always gets the same hint; bench/bots.py's budget for the alternative rules: 72 % of 60 games,
# think CPU p99 0.67 s (docs/bots-lab.md).
HINT_ITERATIONS = 8


def hint(
    state: State, player: str, t: Translator, rng: Rng | None = None, budget: Budget | None = None
) -> tuple[Action, str]:
    """The move the strong bot would make and one line why (the auction's words and the odds
    line are the base game's, engine/powergrid/strong.py), led by the command that plays it
    as the table leads Power Grid's hints (bot/ending.py): most of the variant's moves have
    no button the table could take the command from, and "Hint: Build plant 3: it powers 1
    city" named none (found play-testing)."""
    decision = decide(state, player, rng or hint_rng(state), budget)
    action = decision.action
    command = command_text(state, player, action)
    why = _reason(state, action, t)
    if why is None:
        return action, odds_reason(decision, t, move=command)
    return action, why if command is None else f"{command} — {why}"


def _reason(state: State, action: Action, t: Translator) -> str | None:
    """Why the move, in words (None: the odds line says it)."""
    kind = action.get("type")
    why = auction_reason(state, action, t) or region_reason(state, action, t)
    if why is not None:
        return why
    if kind == "line":
        return t.gettext("Lay a line {cities}: the best income per Elektro").format(
            cities=" - ".join(action["cities"])
        )
    if kind in ("build_plant", "upgrade"):
        plant = PLANTS[int(action["plant"] if kind == "build_plant" else action["new"])]
        if kind == "upgrade":  # ALT-20: it replaces a built plant
            why = t.ngettext(
                "Replace plant {old} by {plant}: it powers {output} city",
                "Replace plant {old} by {plant}: it powers {output} cities",
                plant.output,
            )
        else:
            why = t.ngettext(
                "Build plant {plant}: it powers {output} city",
                "Build plant {plant}: it powers {output} cities",
                plant.output,
            )
        return why.format(old=action.get("old"), plant=plant.number, output=plant.output)
    if kind == "buy":
        return t.gettext("Buy fuel for one run of plant {plant}").format(
            plant=action.get("plant", "")
        )
    return None
