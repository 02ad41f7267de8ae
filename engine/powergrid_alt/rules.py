"""Power Grid, alternative rules (/work/shared/rules/powergrid_alt.md, ALT-n on top of PG-n).

The base engine (engine/powergrid/rules.py) runs what the variant keeps: region choice,
player order (ALT-6), the auction (ALT-7/9), plant market, restock, Steps 2/3 bookkeeping.
This module replaces Phase 3 placement (ALT-10, purchase.py), the whole of Phase 4
(ALT-11..ALT-29, building.py), power and income (ALT-30..ALT-39, power.py), the Step 2
trigger (ALT-40) and the end (ALT-43..45); here: who acts, dispatch, the phase ends.

State = the base state plus (all plain JSON):
    players[name]   plants: every owned plant, hand and built (ALT-8, ALT-D-3);
                    cities: nodes holding his built plant or TP (ALT-2); no pooled "res"
    built           str(plant) -> {owner, city, res{coal, oil, garbage, uranium}}
    tps             node -> owners of its TPs, in placement order (ALT-24)
    lines           [{id, owner, nodes[...], segs[...]}]: segs[i] joins nodes[i], nodes[i+1]
    next_line       the next line id
    displacer       node -> the player who displaced TPs there (ALT-15)
    activity        something (plant, line, TP) was built in this Phase 4
    idle            consecutive Phase 4s without any building (a hint for the bots: since
                    the corrections 1.1 idle rounds never end the game, ALT-45)
    final           this round's Phase 5 is the last one (ALT-44, ALT-45, agreement)
    end_vote        None, or the open vote to end by agreement: {by, yes[...]} (ending.py)
    rules_version   1 (in turn) or 2 (Phases 3 and 5 declared at once; missing = 1)
    declared_buys   version 2, during Phase 3 only: player -> declared purchases (purchase.py)
    power_declared  version 2, during Phase 5 only: player -> declared power action
A line is hanging at an endpoint that no longer holds its owner's plant or TP (ALT-28); that
is computed, never stored. Money is whole Elektro; city incomes are summed in half-Elektro
(ALT-38) and only the total is rounded up.
"""

from __future__ import annotations

from typing import Any, Final

from engine.core import N_, IllegalAction, Listed, Rng
from engine.powergrid import rules as base
from engine.powergrid.data import RESOURCES, TOTALS, game_map
from engine.powergrid.options import DEFAULTS
from engine.powergrid_alt import ending, purchase
from engine.powergrid_alt.building import (
    MAX_TPS,
    PLANT_COST,
    TP_COST,
    _build_plant,
    _line,
    _move,
    _tp,
    _upgrade,
    build_plant_check,
    legal_sites,
    line_check,
    move_check,
    site_check,
    tp_check,
    upgrade_check,
    upgrade_into,
    upgrade_site_check,
)
from engine.powergrid_alt.graph import INF, alt_map
from engine.powergrid_alt.power import (
    PENALTY,
    PLANT_CITY_INCOME2,
    Incomes,
    best_selection,
    city_income2,
    fuel_burn,
    hybrid_mix,
    income2,
    networks,
    penalties,
    plant_nodes,
    power_check,
    qualifying_lines,
    runnable,
)
from engine.powergrid_alt.queries import (
    DIRTY,
    NUCLEAR,
    POLLUTION_LIMIT,
    accepts,
    built_plants,
    covered,
    hand,
    holds,
    is_hanging,
    is_hanging_at,
    line_cost,
    line_starts,
    node_of,
    nuclear_count,
    owned_segments,
    plant_pollution,
    plant_slots,
    plants_in,
    play_nodes,
    pollution,
    pollution_check,
    room_on,
    storage,
    tokens_held,
    transport_fee,
    uncovered,
)
from engine.powergrid_alt.state_types import AltState, plain

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

GAME_ID = "powergrid_alt"
START_MONEY = 75  # ALT-5

emit = base.emit


# ===================================================================== setup (ALT-3..ALT-5a)


def rules_version(options: dict[str, str]) -> int:
    """options.py: version 2 (simultaneous Phases 3 and 5) for new games, which the table
    starts with every option's default; a game stored before the option existed has none
    and replays as version 1 (in turn), the way it was played."""
    value = str(options.get("rules_version", "1"))
    if value not in ("1", "2"):
        raise IllegalAction(
            "PG-7",
            N_("Option {key} must be one of {choices}, not {value}."),
            key="rules_version",
            choices="1, 2",
            value=value,
        )
    return int(value)


def setup(players: list[str], options: dict[str, str], seed: int) -> State:
    if not 2 <= len(players) <= 4:
        raise IllegalAction(
            "ALT-3",
            N_("The alternative rules are for 2 to 4 players, not {n}."),
            n=len(players),
        )
    wanted = dict(options)
    # ALT-4: "Region choice for 2 players follows PG-8", so a table that names no choice
    # takes the base game's default (PG-D-3: players choose); with 3-4 players all six
    # regions are in play and nobody chooses.
    choose = str(wanted.get("regions", DEFAULTS["regions"])) == "choose"
    # The base setup draws deck, player order and (when random) regions from the game's
    # RNG; asking it for "choose" leaves the region choice to us (ALT-4).
    wanted["regions"] = "choose"
    state = base.setup(players, wanted, seed)
    state["options"]["regions"] = "choose" if choose else "random"
    state["game"] = GAME_ID
    state["rules_version"] = rules_version(options)
    for p in state["players"].values():
        p["money"] = START_MONEY  # ALT-5
        del p["res"]  # tokens live on built plants (ALT-10)
    state.update(
        built={},
        tps={},
        lines=[],
        next_line=1,
        displacer={},
        activity=False,
        idle=0,
        final=False,
        end_vote=None,
    )
    gm = game_map(state["map"])
    events: list[Event] = []
    if len(players) >= 3:
        state["regions"] = list(gm.regions)  # ALT-4: all 6 regions
        state["region_pickers"] = []
        base.start_game(state, events)
    elif choose:
        # ALT-4 + PG-8: 5 regions for 2 players, chosen in turn.
        order = state["order"]
        state["region_pickers"] = [order[i % len(order)] for i in range(len(gm.regions) - 1)]
    else:
        rng = Rng(state["rng"])
        state["regions"] = base.random_connected_regions(gm.regions, gm, len(gm.regions) - 1, rng)
        base.start_game(state, events)
    return state


# ===================================================================== who acts

_ALLOWED = {
    "choose_region": ("choose_region",),
    "choose_plant": ("open", "pass"),
    "bid": ("raise", "pass"),
    "buy": ("buy", "done"),
    "build": ("build_plant", "upgrade", "move", "line", "tp", "done"),
    "power": ("power",),
}

expected = base.expected

# Its build step's commands beside the base game's (the refusal names them, PG-14).
COMMAND_OF = {
    **base.COMMAND_OF,
    "build_plant": "/plant",
    "upgrade": "/upgrade",
    "move": "/move",
    "line": "/line",
    "tp": "/tp",
}


def current_players(state: AltState) -> list[str]:
    """As the base game. Version 1 plays Phase 3 in reverse player order and Phase 5 in
    player order (ALT-30), one player at a time; version 2 asks everybody who has not
    declared yet in both (like the base game's PG-42), in that same order."""
    phase = state["phase"]
    if phase in ("resources", "bureaucracy") and purchase.simultaneous(state):
        players = state["players"]
        return [n for n in base.phase_order(plain(state)) if not players[n]["done"]]
    if phase == "bureaucracy":
        return [state["order"][state["turn"]]]
    return base.current_players(plain(state))


def apply(state: AltState, player: str, action: Action) -> tuple[State, list[Event]]:
    if state["phase"] == "over":
        raise IllegalAction("ALT-44", N_("The game is over."))
    if not isinstance(action, dict):
        raise IllegalAction("PG-14", N_("An action must be a command with a type."))
    if ending.anytime(action):  # the table vote to end by agreement, on turn or off
        events: list[Event] = []
        ending.vote(state, player, action, events, emit)
        return plain(state), events
    acting = current_players(state)
    if player not in acting:
        raise IllegalAction(
            "PG-15", N_("It is not your turn; waiting for {players}."), players=Listed(acting)
        )
    want = expected(plain(state))
    kind = action.get("type")
    kind = base.require_expected(
        kind, want, _ALLOWED.get(want, ()), COMMAND_OF, round_no=state["round"]
    )
    events = []
    _HANDLERS[kind](state, player, action, events)
    return plain(state), events


# ===================================================================== Phase 2 (ALT-7..ALT-9)


def _auction(handler: Any) -> Any:
    """Run a base auction handler; ALT-8 has no plant limit, so a purchase never waits for a
    discard (PG-26/27 do not apply): the replacement is drawn at once."""

    def run(state: AltState, player: str, action: Action, events: list[Event]) -> None:
        handler(state, player, action, events)
        if state["pending_discard"] is not None:
            state["pending_discard"] = None
            base.after_purchase(plain(state), events)

    return run


# ===================================================================== Phase 3 (ALT-10)


def _buy(state: AltState, player: str, action: Action, events: list[Event]) -> None:
    if purchase.simultaneous(state):
        purchase.declare(state, player, action, events)
    else:
        purchase.buy(state, player, action, events)


def _done(state: AltState, player: str, action: Action, events: list[Event]) -> None:
    state["players"][player]["done"] = True
    state["turn"] += 1
    if state["phase"] == "resources" and purchase.simultaneous(state):
        # Public; with nothing to buy whatever his money, the line says why (purchase.py).
        nothing = purchase.nothing_to_buy(state, player)
        why = {"nothing": nothing} if nothing else {}
        emit(plain(state), events, "purchase_declared", player=player, **why)
        if state["turn"] < len(state["order"]):
            return
        purchase.resolve(state, events)  # in reverse player order (PG-15, PG-31)
    elif state["turn"] < len(state["order"]):
        return
    if state["phase"] == "resources":
        emit(plain(state), events, "phase_ended", phase="resources")
        state["activity"] = False
        base.start_turn_phase(plain(state), "build", events)
    else:
        _end_build_phase(state, events)


# ===================================================================== end of Phase 4


def step2_threshold(state: AltState) -> int:
    """ALT-40: 10 plants+TPs with 2 players, 7 with 3 or 4."""
    return 10 if len(state["seats"]) == 2 else 7


def _end_build_phase(state: AltState, events: list[Event]) -> None:
    """PG-46a order with ALT-43/ALT-45 as the end checks and ALT-40 as the Step 2 check."""
    emit(plain(state), events, "phase_ended", phase="build")
    state["idle"] = 0 if state["activity"] else state["idle"] + 1
    if not state["final"]:  # (already final when the table agreed to end, ending.py)
        if not uncovered(state):
            state["final"] = True  # ALT-44: one last Phase 5 with income
            emit(plain(state), events, "final_round", reason="covered")
        elif ending.nothing_coverable(state):
            # ALT-45 (corrections 1.1): no remaining city can ever be covered.
            state["final"] = True
            emit(plain(state), events, "final_round", reason="unreachable")
    if state["final"]:
        base.start_turn_phase(plain(state), "bureaucracy", events)
        return
    if state["step3_drawn"]:
        base.resolve_step3(plain(state), events)
    base.start_turn_phase(plain(state), "bureaucracy", events)
    if state["step3_pending"]:
        base.begin_step3(plain(state), events)
    top = base.max_cities(plain(state))
    if state["step"] == 1 and not state["step3_pending"] and top >= step2_threshold(state):
        state["step"] = 2
        emit(plain(state), events, "step_started", step=2)
        low = base.lowest_plant(plain(state))
        if low is not None:
            state["market"].remove(low)
            emit(plain(state), events, "plant_removed", plant=low, rule="PG-46", under_deck=False)
            base.draw_plant(plain(state), events)


# state["power_declared"]: player -> his declared power action, kept only while a version 2
# Phase 5 is open (hidden from everybody else until all have declared).
POWER_DECLARED: Final = "power_declared"


def _power(state: AltState, player: str, action: Action, events: list[Event]) -> None:
    """ALT-30..ALT-39. Version 1: the player's power, income and penalties now, in player
    order. Version 2: a declaration, checked now (only his own plants, tokens and network
    decide it, none of which another declaration changes) and kept secret; when the last
    player declares, all resolve in player order (ALT-30), exactly as in turn: penalties paid
    to players (ALT-36, ALT-D-18) reach them before their own turn, as they would."""
    if purchase.simultaneous(state):
        power_check(state, player, action)
        state.setdefault(POWER_DECLARED, {})[player] = dict(action)
        emit(plain(state), events, "power_declared", player=player)
        # his declaration said back to him alone, as a purchase's is (texts.py)
        plants = sorted(int(n) for n in action.get("plants") or [])
        emit(plain(state), events, "power_planned", player=player, private=True, plants=plants)
    else:
        run_power(state, player, action, events)
    state["players"][player]["done"] = True
    state["turn"] += 1
    if state["turn"] < len(state["order"]):
        return
    if purchase.simultaneous(state):
        book = state.pop(POWER_DECLARED)
        for name in state["order"]:
            run_power(state, name, book[name], events)
    if state["final"]:
        _game_over(state, events)
    else:
        base.end_bureaucracy(plain(state), events)


def run_power(state: AltState, player: str, action: Action, events: list[Event]) -> None:
    """One player's Phase 5: run the plants, earn the income, pay the penalties."""
    plants, powered = power_check(state, player, action)
    mix = None
    if "coal" in action or "oil" in action:
        mix = hybrid_mix(state, plants, action.get("coal"), action.get("oil"))
    burn = fuel_burn(state, plants, mix)
    assert burn is not None
    burned = {r: 0 for r in RESOURCES}
    for n, b in burn.items():
        for r in RESOURCES:
            state["built"][str(n)]["res"][r] -= b[r]
            state["supply"][r] += b[r]
            burned[r] += b[r]
    income = -(-income2(state, player, powered) // 2)  # ALT-38: round the total up
    players = state["players"]
    p = players[player]
    p["money"] += income
    bank, others = penalties(state, player, powered)
    paid: dict[str, int] = {}
    for name in state["order"]:  # ALT-D-18: players first in player order, bank last
        if name in others:
            amount = min(others[name], p["money"])
            p["money"] -= amount
            players[name]["money"] += amount
            paid[name] = amount
    paid_bank = min(bank, p["money"])
    p["money"] -= paid_bank
    p["powered"] = len(powered)
    emit(
        plain(state),
        events,
        "powered",
        player=player,
        plants=plants,
        cities=len(powered),
        powered=powered,
        income=income,
        penalty_bank=paid_bank,
        penalty_players=paid,
        burned={r: v for r, v in burned.items() if v},
    )


# ===================================================================== end (ALT-44)


def _ranking_key(state: AltState, name: str) -> tuple[int, int, int]:
    p = state["players"][name]
    return (p["powered"] or 0, p["money"], len(p["cities"]))


def ranking(state: AltState) -> list[list[str]]:
    """ALT-44 / ALT-D-22: most cities powered, then money, then plants+TPs; then shared."""
    groups: list[list[str]] = []
    last: tuple[int, int, int] | None = None
    for name in sorted(state["seats"], key=lambda n: _ranking_key(state, n), reverse=True):
        key = _ranking_key(state, name)
        if key == last:
            groups[-1].append(name)
        else:
            groups.append([name])
            last = key
    return groups


def _game_over(state: AltState, events: list[Event]) -> None:
    emit(plain(state), events, "phase_ended", phase="bureaucracy")
    state["phase"] = "over"
    state["ranking"] = ranking(state)
    emit(plain(state), events, "game_over", ranking=state["ranking"])


def is_over(state: AltState) -> bool:
    return bool(state["phase"] == "over")


def conserved(state: AltState) -> bool:
    """Every token is in the market, the supply or on a built plant (for tests)."""
    held = tokens_held(state)
    return all(state["rm"][r] + state["supply"][r] + held[r] == TOTALS[r] for r in RESOURCES)


_HANDLERS = {
    "choose_region": base.choose_region,
    "open": _auction(base.open_auction),
    "raise": _auction(base.raise_bid),
    "pass": _auction(base.pass_turn),
    "buy": _buy,
    "done": _done,
    "build_plant": _build_plant,
    "upgrade": _upgrade,
    "move": _move,
    "line": _line,
    "tp": _tp,
    "power": _power,
}

# Phase 4 (building.py), Phase 5 (power.py) and the queries (queries.py) are re-exported for
# the modules that read the state through `rules`.
__all__ = [
    "DIRTY",
    "INF",
    "MAX_TPS",
    "NUCLEAR",
    "PENALTY",
    "PLANT_CITY_INCOME2",
    "PLANT_COST",
    "POLLUTION_LIMIT",
    "TP_COST",
    "Incomes",
    "accepts",
    "alt_map",
    "apply",
    "best_selection",
    "build_plant_check",
    "built_plants",
    "city_income2",
    "covered",
    "current_players",
    "expected",
    "fuel_burn",
    "hand",
    "holds",
    "hybrid_mix",
    "income2",
    "is_hanging",
    "is_hanging_at",
    "is_over",
    "legal_sites",
    "line_check",
    "line_cost",
    "line_starts",
    "move_check",
    "networks",
    "node_of",
    "nuclear_count",
    "owned_segments",
    "penalties",
    "plant_nodes",
    "plant_pollution",
    "plant_slots",
    "plants_in",
    "play_nodes",
    "pollution",
    "pollution_check",
    "power_check",
    "qualifying_lines",
    "ranking",
    "room_on",
    "runnable",
    "setup",
    "site_check",
    "storage",
    "tokens_held",
    "tp_check",
    "transport_fee",
    "uncovered",
    "upgrade_check",
    "upgrade_into",
    "upgrade_site_check",
]
