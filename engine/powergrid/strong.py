"""Power Grid's `strong` bot and `/hint` (issue 24): the determinised rollout search of
engine/core/search.py with the heuristic bot as rollout policy.

Hidden information (VIEW.md) and how a determinisation re-samples it from the view only:
- the deck: its size is public, its order and the setup removals are not. The unseen plants
  (every plant not in the market and owned by nobody) are shuffled and dealt to the deck's
  size; plant 13 goes on top in round 1 (PG-12) and the Step 3 card stays at the bottom;
- other players' money under `hidden_money`: each rival is given the searcher's own money;
- standing orders (the rivals' are private) are dropped: the rollouts play the policy;
- rivals' Phase 5 declarations (made simultaneously, not shown) become the best run the
  public plants and tokens allow;
- the game's RNG (future shuffles) is re-seeded from the search's RNG.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import Rng, Translator
from engine.core.protocol import Action, State
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
from engine.powergrid import market as mk
from engine.powergrid.bots import heuristic_bot
from engine.powergrid.data import PLANTS, STEP3, TOP_OF_DECK, game_map, income_for
from engine.powergrid.legal import legal_actions
from engine.powergrid.quotes import connection_quote, resource_quote
from engine.powergrid.rules import build_options, expected

# Cities a rollout builds towards are worth this much money each in a horizon evaluation.
CITY_MONEY = 12


def determinise(state: State, player: str, rng: Rng) -> State:
    world: State = copy_state({k: v for k, v in state.items() if k != "log"})
    world["log"] = []
    reseed(world, rng)
    world.pop("orders", None)
    players = world["players"]
    seen = set(world["market"])
    for p in players.values():
        seen.update(p["plants"])
    unseen = [n for n in sorted(PLANTS) if n not in seen and n != STEP3]
    deck = world["deck"]
    with_card = STEP3 in deck
    size = len(deck) - (1 if with_card else 0)
    top: list[int] = []
    if world["round"] == 1 and TOP_OF_DECK in unseen and size > 0:
        unseen.remove(TOP_OF_DECK)
        top = [TOP_OF_DECK]
    rng.shuffle(unseen)
    deck[:] = top + unseen[: size - len(top)] + ([STEP3] if with_card else [])
    if world["hidden_money"] and world["phase"] != "over":
        mine = players[player]["money"]
        for name, p in players.items():
            if name != player:
                p["money"] = mine
    declared = world.get("power_declared")
    if declared:
        for name in list(declared):
            if name != player:
                p = players[name]
                run, _ = mk.best_run(p["plants"], p["res"], len(p["cities"]))
                burned = mk.fuel_plan(sorted(run), p["res"])
                declared[name] = {"plants": sorted(run), "burned": burned}
    return world


def candidates(state: State, player: str, rng: Rng) -> list[Action]:
    """The policy's move first, then the alternatives worth a rollout."""
    first = heuristic_bot(state, player, rng)
    want = expected(state)
    p = state["players"][player]
    out = [first]
    if want in ("choose_region", "discard"):
        out.extend(legal_actions(state, player))
    elif want in ("choose_plant", "bid"):
        out.extend(auction_candidates(state, player, want))
    elif want == "buy":
        out.append({"type": "done"})
    elif want == "build":
        out.append({"type": "done"})
        for city, cost in build_options(state, player)[:3]:
            if cost <= p["money"]:
                out.append({"type": "build", "city": city})
    return out


def auction_candidates(state: State, player: str, want: str) -> list[Action]:
    """The auction moves worth a rollout (both rules): pass (never compulsory in round 1,
    PG-25) and every affordable plant at its number when choosing; pass or +1 when bidding."""
    money = state["players"][player]["money"]
    out: list[Action] = []
    if want == "choose_plant":
        if state["round"] != 1:
            out.append({"type": "pass"})
        out.extend(
            {"type": "open", "plant": n, "bid": n} for n in mk.current_market(state) if n <= money
        )
    elif want == "bid":
        high = state["auction"]["bid"]
        out.append({"type": "pass"})
        if high + 1 <= money:
            out.append({"type": "raise", "bid": high + 1})
    return out


def _score(state: State, name: str) -> float:
    p = state["players"][name]
    capacity = sum(PLANTS[n].output for n in p["plants"])
    return min(capacity, len(p["cities"])) * CITY_MONEY + len(p["cities"]) * 4 + p["money"]


def evaluation(score: Callable[[State, str], float]) -> Callable[[State, str], float]:
    """The value of a position given a score estimate (shared with the variant): a finished
    game by its ranking and powered cities, an unfinished one by the lead in `score`."""

    def evaluate(state: State, player: str) -> float:
        players = list(state["players"])
        if state["phase"] == "over":
            money = {n: state["players"][n]["money"] for n in players}
            powered = {n: (state["players"][n]["powered"] or 0) + money[n] / 1000 for n in players}
            return 0.8 * rank_value(state["ranking"], player) + 0.2 * lead_value(
                powered.__getitem__, players, player, 2.0
            )
        return lead_value(lambda n: score(state, n), players, player, 25.0)

    return evaluate


evaluate = evaluation(_score)


SEARCH = StrongSearch(
    "engine.powergrid",
    determinise=determinise,
    candidates=candidates,
    policy=heuristic_bot,
    evaluate=evaluate,
)
glue = SEARCH.glue
strong = SEARCH.bot()
decide = SEARCH.decide


# /hint's rollouts (engine/core/game_base.py `with_hint_rollouts`): a fixed count, so one position
# always gets the same hint; bench/bots.py's Power Grid budget: 93 % of 60 four-player games
# against three heuristic bots, think CPU p99 0.29 s (docs/bots-lab.md).
HINT_ITERATIONS = 24


def hint(
    state: State, player: str, t: Translator, rng: Rng | None = None, budget: Budget | None = None
) -> tuple[Action, str]:
    """The move the strong bot would make and one line why, from the game's own quotes, led
    by the command that plays it (commands.command_text, as the alternative rules' hints):
    the table could take one only from a button, and builds, most buys, discards and runs
    have none ("Hint: Build Magdeburg: 10 E, cheapest connection" named no command)."""
    from engine.powergrid.commands import command_text

    decision = decide(state, player, rng or hint_rng(state), budget)
    command = command_text(state, player, decision.action)
    return decision.action, reason(state, player, decision, t, command)


def hint_rng(state: State) -> Rng:
    """The /hint search's randomness when none is given: fixed by the position (round and
    houses), so asking twice gives the same hint (both rules)."""
    return Rng(new_rng_state(state["round"] * 7919 + len(state["cities"])))


def odds_reason(decision: Decision, t: Translator, move: str | None = None) -> str:
    """The last resort of a hint's reason: the chosen move's share of won simulations, said
    of `move` (the command that plays it; by default "/" and the action's type)."""
    chosen = next(a for a in decision.arms if a.action == decision.action)
    move = move or "/" + str(decision.action.get("type"))
    if not chosen.visits:  # a lone candidate: nothing was simulated, so no odds to quote
        return t.gettext("{move}: no other move is worth trying").format(move=move)
    return t.gettext("{move}: {odds}% to win in the simulations").format(
        move=move, odds=round(100 * chosen.mean)
    )


def auction_reason(state: State, action: Action, t: Translator) -> str | None:
    """Why to open or raise an auction (the same in both rules); None for another move."""
    kind = action.get("type")
    if kind == "open":
        plant = PLANTS[action["plant"]]
        return t.ngettext(
            "Open plant {plant} at {bid} E: it powers {output} city",
            "Open plant {plant} at {bid} E: it powers {output} cities",
            plant.output,
        ).format(plant=plant.number, bid=action["bid"], output=plant.output)
    if kind == "raise":
        return t.gettext("Raise to {bid} E: plant {plant} is worth it").format(
            bid=action["bid"], plant=state["auction"]["plant"]
        )
    if kind == "pass" and state.get("auction"):  # PG-21: out of this plant's bidding
        auction = state["auction"]
        return t.gettext("Pass: plant {plant} is not worth more than {bid} E to you").format(
            plant=auction["plant"], bid=auction["bid"]
        )
    if kind == "pass":  # PG-20 (a): out of this phase's auctions
        return t.gettext("Pass: keep your money for cities and fuel")
    return None


def region_reason(state: State, action: Action, t: Translator) -> str | None:
    """Why this region (PG-8, the same in both rules): what the rule asks of it, not its id
    again ("/region NW — Choose region NW" said nothing, found play-testing); None for
    another move."""
    if action.get("type") != "choose_region":
        return None
    gm = game_map(state["map"])
    names: dict[str, str] = {r["id"]: r["name"] for r in gm.raw["regions"]}
    region = t.gettext(names.get(str(action["region"]), str(action["region"])))
    border = [r for r in state["regions"] if gm.regions_adjacent(action["region"], r)]
    if not border:  # the first region: any one starts the area
        return t.gettext("Choose {region}: the area of play starts there").format(region=region)
    return t.gettext("Choose {region}: it borders {neighbour}, already in play").format(
        region=region, neighbour=t.gettext(names.get(border[0], border[0]))
    )


def reason(
    state: State, player: str, decision: Decision, t: Translator, command: str | None = None
) -> str:
    """The hint's line: `command` (the one that plays the move, if any) and why, in words or
    else in the simulations' odds."""
    why = _why(state, player, decision.action, t)
    if why is None:
        return odds_reason(decision, t, move=command)
    return why if command is None else f"{command} — {why}"


def _why(state: State, player: str, action: Action, t: Translator) -> str | None:
    """Why the move, in words (None: the odds line says it)."""
    from engine.powergrid.commands import RESOURCE_NAMES

    kind = action.get("type")
    p = state["players"][player]
    if kind == "build":
        quote = connection_quote(state, player, [action["city"]])
        cheapest = build_options(state, player)[:1]
        line = t.gettext("Build {city}: {cost} E").format(city=action["city"], cost=quote["total"])
        if cheapest and cheapest[0][0] == action["city"]:
            line += ", " + t.gettext("cheapest connection")
        return line
    if kind == "buy":
        q = resource_quote(state, action["resource"], action["count"])
        return t.gettext("Buy {resource} × {count}: {cost} E, fuel for your next run").format(
            count=action["count"],
            resource=t.gettext(str(RESOURCE_NAMES.get(action["resource"], action["resource"]))),
            cost=q["total"],
        )
    if kind == "power":
        # PG-42: the cities this run powers, not the best run's (income_quote): a search
        # that keeps fuel for later runs fewer plants (found play-testing, 2026-12-04)
        output = sum(PLANTS[n].output for n in action.get("plants") or [])
        powered = min(output, len(p["cities"]))
        return t.ngettext(
            "Power {powered} city: {income} E income",
            "Power {powered} cities: {income} E income",
            powered,
        ).format(powered=powered, income=income_for(powered))
    bidding = auction_reason(state, action, t)
    if bidding is not None:
        return bidding
    if kind == "discard":
        return t.gettext("Discard plant {plant}: your weakest").format(plant=action["plant"])
    if kind == "done" and expected(state) == "build":
        capacity = sum(PLANTS[n].output for n in p["plants"])
        return t.ngettext(
            "Stop building: your plants power {capacity} city",
            "Stop building: your plants power {capacity} cities",
            capacity,
        ).format(capacity=capacity)
    if kind == "done":
        return t.gettext("Buy nothing more: keep your money")
    return region_reason(state, action, t)
