"""Phase 5, bureaucracy (PG-42..44), and the end of the game (PG-51..53): checking a power
choice, running plants, restocking the resource market, the plant market's update, the final
power and the ranking."""

from __future__ import annotations

from functools import lru_cache

from engine.core import N_, IllegalAction, Listed
from engine.powergrid import market as mk
from engine.powergrid.basics import Action, Event, is_int, log_event, log_plant_removed
from engine.powergrid.data import CAPACITY, PLANTS, RESOURCES, income_for, restock_row
from engine.powergrid.plant_market import draw_plant
from engine.powergrid.state_types import PGState


def power_check(state: PGState, player: str, action: Action) -> tuple[list[int], dict[str, int]]:
    """Validate a power action; return (plants run, tokens burned)."""
    p = state["players"][player]
    plants = action.get("plants", [])
    if not isinstance(plants, list):
        raise IllegalAction("PG-42", N_("List the numbers of the plants to run."))
    for n in plants:
        if type(n) is not int:
            raise IllegalAction("PG-42", N_("List the numbers of the plants to run."))
    owned = p["plants"]
    for n in plants:
        if n not in owned:
            raise IllegalAction("PG-42", N_("You do not own plant {plant}."), plant=n)
    if len(set(plants)) != len(plants):
        raise IllegalAction("PG-42", N_("Each plant runs at most once per round."))
    coal, oil = action.get("coal"), action.get("oil")
    hybrid_coal: int | None = None
    if coal is not None or oil is not None:
        hybrid = sum(PLANTS[n].cost for n in plants if PLANTS[n].type == "hybrid")
        if (coal is not None and not is_int(coal)) or (oil is not None and not is_int(oil)):
            raise IllegalAction("PG-42", N_("Give the hybrid fuel as whole numbers."))
        # One given: the other is the rest of the hybrids' need.
        hybrid_coal = int(coal) if coal is not None else hybrid - int(oil or 0)
        hybrid_oil = int(oil) if oil is not None else hybrid - hybrid_coal
        if hybrid_coal < 0 or hybrid_oil < 0 or hybrid_coal + hybrid_oil != hybrid:
            raise IllegalAction(
                "PG-42",
                N_("Your hybrid plants burn {need} coal/oil in total, not {coal} + {oil}."),
                need=hybrid,
                coal=hybrid_coal,
                oil=hybrid_oil,
            )
    run = sorted(plants)
    plan = mk.fuel_plan(run, p["res"], hybrid_coal)
    if plan is None:
        if len(run) == 1:  # a refusal has no plural forms: one plant and several apart
            raise IllegalAction(
                "PG-42", N_("You do not have the resources to run plant {plant}."), plant=run[0]
            )
        raise IllegalAction(
            "PG-42",
            N_("You do not have the resources to run plants {plants}."),
            plants=Listed(plants),
        )
    return run, plan


def cheapest_run(
    plants: list[int], res: dict[str, int], cities: int, prices: dict[str, int]
) -> tuple[list[int], int, int, int]:
    """The run a player would choose (/power without plants, /power auto): the most cities
    powered (PG-42), then the least fuel value at `prices`, then fewer plants, then lower
    numbers. Returns (plants, hybrid coal, hybrid oil, cities powered). The rules' own
    `market.best_run` (bots, final power) breaks ties by tokens burned instead.

    A pure function of small values, asked by every turn text, button set and /power auto
    of the power phase: worked out once per key (bounded memo); callers get a fresh list."""
    found = _cheapest_run(
        tuple(plants),
        tuple(res[r] for r in RESOURCES),
        cities,
        tuple(prices[r] for r in RESOURCES),
    )
    return list(found[0]), found[1], found[2], found[3]


@lru_cache(maxsize=4096)
def _cheapest_run(
    plants: tuple[int, ...], held: tuple[int, ...], cities: int, costs: tuple[int, ...]
) -> tuple[tuple[int, ...], int, int, int]:
    res = dict(zip(RESOURCES, held, strict=True))
    prices = dict(zip(RESOURCES, costs, strict=True))
    best: tuple[tuple[int, int, int, list[int]], list[int], int, int, int] | None = None
    for mask in range(1 << len(plants)):
        chosen = sorted(plants[i] for i in range(len(plants)) if mask >> i & 1)
        burn = cheapest_burn(chosen, res, prices)
        if burn is None:
            continue
        value, coal, oil = burn
        powered = min(cities, sum(PLANTS[n].output for n in chosen))
        key = (-powered, value, len(chosen), chosen)
        if best is None or key < best[0]:
            best = (key, chosen, coal, oil, powered)
    assert best is not None  # running nothing is always possible
    return tuple(best[1]), best[2], best[3], best[4]


def power_action(plants: list[int], coal: int, oil: int) -> Action:
    """The /power action for a run; the hybrids' coal and oil named only when they burn any."""
    action: Action = {"type": "power", "plants": plants}
    if coal or oil:
        action["coal"] = coal
        action["oil"] = oil
    return action


def cheapest_burn(
    plants: list[int], res: dict[str, int], prices: dict[str, int]
) -> tuple[int, int, int] | None:
    """(fuel value, hybrid coal, hybrid oil) of the cheapest way to run `plants` on the tokens
    `res` (more coal first on a tie); None when they cannot all run (market.fuel_plan)."""
    hybrid = sum(PLANTS[n].cost for n in plants if PLANTS[n].type == "hybrid")
    best: tuple[int, int, int] | None = None
    for coal in range(hybrid, -1, -1):
        need = mk.fuel_plan(plants, res, coal)
        if need is None:
            continue
        value = sum(need[r] * prices[r] for r in RESOURCES)
        if best is None or value < best[0]:
            best = (value, coal, hybrid - coal)
    return best


def run_plants(
    state: PGState, player: str, plants: list[int], burned: dict[str, int], events: list[Event]
) -> None:
    """PG-42 steps 1-4 for one player: burn, power, earn."""
    p = state["players"][player]
    res = p["res"]
    supply = state["supply"]
    shown = {}  # the tokens burned, by resource, as the event tells them
    for r, spent in burned.items():
        if spent:
            res[r] -= spent
            supply[r] += spent  # PG-42.4: back to the supply
            shown[r] = spent
    capacity = 0
    for n in plants:
        capacity += PLANTS[n].output
    powered = min(capacity, len(p["cities"]))
    income = income_for(powered)
    p["money"] += income
    p["powered"] = powered
    p["done"] = True
    log_event(
        state,
        events,
        {
            "type": "powered",
            "round": state["round"],
            "player": player,
            "plants": plants,
            "cities": powered,
            "income": income,
            "burned": shown,
        },
    )


def restock_and_update(state: PGState, events: list[Event]) -> None:
    """The end of Phase 5 before the next round: restock (PG-43), update the plant market
    (PG-44), and say the phase ended."""
    # PG-43: restock from the supply into the dearest empty slots, up to what is left.
    amounts = restock_row(len(state["seats"]), state["step"])
    rm = state["rm"]
    supply = state["supply"]
    added = {}
    for r in RESOURCES:
        n = min(amounts[r], supply[r], CAPACITY[r] - rm[r])
        rm[r] += n
        supply[r] -= n
        added[r] = n
    log_event(
        state,
        events,
        {
            "type": "market_restocked",
            "round": state["round"],
            "added": added,
            "step": state["step"],
        },
    )
    # PG-44: Step 1/2 highest plant under the deck; Step 3 (and PG-D-23) lowest removed.
    market = state["market"]
    if market:
        if mk.six_plant_market(state):
            low = market.pop(0)
            log_plant_removed(state, events, low, "PG-44", under_deck=False)
        else:
            high = market.pop()
            state["deck"].append(high)
            log_plant_removed(state, events, high, "PG-44", under_deck=True)
        draw_plant(state, events)
    log_event(
        state, events, {"type": "phase_ended", "round": state["round"], "phase": "bureaucracy"}
    )


def final_power(state: PGState, events: list[Event]) -> None:
    """PG-52 (PG-D-19): each player powers what he can; no income, restock or update.

    Running fewer plants never helps here, so the engine takes each player's best run.
    """
    for name in state["order"]:
        p = state["players"][name]
        _plants, powered = mk.best_run(p["plants"], p["res"], len(p["cities"]))
        p["powered"] = powered
    state["phase"] = "over"
    state["ranking"] = ranking(state)
    log_event(
        state, events, {"type": "game_over", "round": state["round"], "ranking": state["ranking"]}
    )


def ranking(state: PGState) -> list[list[str]]:
    """PG-53: most powered, then money, then cities; PG-D-20: still tied -> shared."""
    players = state["players"]

    def key(n: str) -> tuple[int, int, int]:
        p = players[n]
        return (p["powered"] or 0, p["money"], len(p["cities"]))

    groups: list[list[str]] = []
    last: tuple[int, int, int] | None = None
    for name in sorted(state["seats"], key=key, reverse=True):
        if key(name) == last:
            groups[-1].append(name)
        else:
            groups.append([name])
            last = key(name)
    return groups
