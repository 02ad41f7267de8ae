"""The alternative rules' `strong` bot and `/hint` (issue 24): the determinised rollout
search of engine/core/search.py with the variant's heuristic bot as rollout policy.

The variant hides what the base game hides (deck order and setup removals, money under
`hidden_money`, the RNG), so it determinises with the base game's function. Rollouts stop
after `HORIZON` actions (the variant's heuristic is slower than the base game's); an
unfinished game is judged by the lead in powered cities and money over the best rival.
"""

from __future__ import annotations

from engine.core import Rng, Translator
from engine.core.protocol import Action, State
from engine.core.rng import new_rng_state
from engine.core.search import Budget, Decision, Glue, margin_value, rank_value, search, strong_bot
from engine.powergrid import market as mk
from engine.powergrid.data import PLANTS
from engine.powergrid.strong import determinise
from engine.powergrid_alt import purchase
from engine.powergrid_alt import rules as r
from engine.powergrid_alt.bots import heuristic_bot

HORIZON = 100  # actions per rollout: about two rounds of a 4-player game
CITY_MONEY = 12  # Elektro a powered city is worth in a horizon evaluation


def candidates(state: State, player: str, rng: Rng) -> list[Action]:
    out = [heuristic_bot(state, player, rng)]
    want = r.expected(state)
    p = state["players"][player]
    if want == "choose_plant":
        if state["round"] != 1:
            out.append({"type": "pass"})
        out.extend(
            {"type": "open", "plant": n, "bid": n}
            for n in mk.current_market(state)
            if n <= p["money"]
        )
    elif want == "bid":
        high = state["auction"]["bid"]
        out.append({"type": "pass"})
        if high + 1 <= p["money"]:
            out.append({"type": "raise", "bid": high + 1})
    return out


def _score(state: State, name: str) -> float:
    p = state["players"][name]
    capacity = sum(PLANTS[n].output for n in r.built_plants(state, name))
    powered = min(capacity, len(p["cities"]))
    return powered * CITY_MONEY + len(p["cities"]) * 8 + capacity * 4 + p["money"] // 2


def evaluate(state: State, player: str) -> float:
    players = state["players"]
    if state["phase"] == "over":
        powered = {n: (players[n]["powered"] or 0) + players[n]["money"] / 1000 for n in players}
        others = [v for n, v in powered.items() if n != player]
        return 0.8 * rank_value(state["ranking"], player) + 0.2 * margin_value(
            powered[player], others, 2.0
        )
    others = [_score(state, n) for n in players if n != player]
    return margin_value(_score(state, player), others, 25.0)


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
    buys = hidden.get(purchase.DECLARED)
    if buys is not None:
        mine = buys.get(player)
        world[purchase.DECLARED] = {} if mine is None else {player: [dict(x) for x in mine]}
    return world


def glue() -> Glue:
    from engine.powergrid_alt import GAME

    return Glue(
        game=GAME,
        determinise=determinise_alt,
        candidates=candidates,
        policy=heuristic_bot,
        evaluate=evaluate,
        horizon=HORIZON,
    )


strong = strong_bot(glue)


def decide(state: State, player: str, rng: Rng, budget: Budget | None = None) -> Decision:
    return search(glue(), state, player, rng, budget)


def hint(
    state: State, player: str, t: Translator, rng: Rng | None = None, budget: Budget | None = None
) -> tuple[Action, str]:
    """The move the strong bot would make and one line why."""
    rng = rng or Rng(new_rng_state(state["round"] * 7919 + len(state["cities"])))
    decision = decide(state, player, rng, budget)
    action = decision.action
    kind = action.get("type")
    chosen = next(a for a in decision.arms if a.action == action)
    odds = round(100 * chosen.mean)
    if kind == "open":
        plant = PLANTS[action["plant"]]
        why = t.ngettext(
            "Open plant {plant} at {bid} E: it powers {output} city",
            "Open plant {plant} at {bid} E: it powers {output} cities",
            plant.output,
        ).format(plant=plant.number, bid=action["bid"], output=plant.output)
    elif kind == "raise":
        why = t.gettext("Raise to {bid} E: plant {plant} is worth it").format(
            bid=action["bid"], plant=state["auction"]["plant"]
        )
    elif kind == "line":
        why = t.gettext("Lay a line {cities}: the best income per Elektro").format(
            cities=" - ".join(action["cities"])
        )
    elif kind in ("build_plant", "upgrade"):
        plant = PLANTS[int(action["plant"] if kind == "build_plant" else action["new"])]
        why = t.ngettext(
            "Build plant {plant}: it powers {output} city",
            "Build plant {plant}: it powers {output} cities",
            plant.output,
        ).format(plant=plant.number, output=plant.output)
    elif kind == "buy":
        why = t.gettext("Buy fuel for one run of plant {plant}").format(
            plant=action.get("plant", "")
        )
    else:
        why = t.gettext("{move}: {odds}% to win in the simulations").format(
            move="/" + str(kind), odds=odds
        )
    return action, why
