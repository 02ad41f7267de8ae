"""Power Grid rules, in the order of the rulebook (/work/shared/rules/powergrid.md).

This module drives the round: setup, who acts, `apply`, and the passage from phase to
phase; the phases' own moves live in auction.py (Phase 2), purchase.py (Phase 3), build.py
(Phase 4), bureaucracy.py (Phase 5 and the end), plant_market.py (the deck), basics.py (what
they share).
The names the variant and the tests import from here stay importable from here.

The state is one plain JSON dict (string keys only) that round-trips byte-exact through
`canonical_json`. `apply` validates the whole action and raises `IllegalAction` before it
touches anything; then it mutates the state in place and returns the events.

State layout (internal; `view` is the public shape):
    seats            join order, fixed (PG-7, PG-D-2)
    order            player order (PG-16)
    players[name]    money, plants (ascending), res (pooled tokens, PG-34), cities (build
                     order), bought / passed / done flags, powered
    cities           city -> owners in slot order
    market, deck     plant numbers; STEP3 (99) stands for the Step 3 card
    rm, supply       resource market counts (tokens fill the dearest slots) and the supply
    auction          None or {plant, bid, leader, bidders (seat order), turn}
    pending_discard  None or {player, plant (just bought)}
    step3_drawn      the card sits in the market, to be resolved at the end of the phase
    step3_pending    resolved; Step 3 begins with the next phase or round (PG-47)
    turn             index into this phase's order (resources, build, bureaucracy, regions)
    orders           only while someone holds one: standing orders by player (orders.py)
    power_declared   only during the bureaucracy: validated /power declarations (PG-42,
                     simultaneous; resolved in player order once everybody has declared)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from itertools import combinations
from typing import Any

from engine.core import N_, IllegalAction, Listed, Rng, Term
from engine.core.rng import new_rng_state
from engine.powergrid.auction import (
    after_purchase,
    discard_plant,
    open_auction,
    pass_turn,
    raise_bid,
    start_auction_phase,
)
from engine.powergrid.basics import (
    ANYTIME,
    LOG_SIZE,
    Action,
    Event,
    OrderBook,
    State,
    chooser,
    connection_cost,
    emit,
    forget_orders,
    is_int,
    limits,
    log_event,
    log_plant_removed,
    max_cities,
    net,
    order_book,
    register_orders,
    reorder,
    start_turn_phase,
    trim_log,
)
from engine.powergrid.build import build_check, build_city, build_options, cheapest_city
from engine.powergrid.bureaucracy import (
    final_power,
    power_check,
    ranking,
    restock_and_update,
    run_plants,
)
from engine.powergrid.data import (
    PLANTS,
    RESOURCES,
    START_MONEY,
    STEP3,
    TOP_OF_DECK,
    TOTALS,
    GameMap,
    game_map,
    initial_market_counts,
    player_count,
)
from engine.powergrid.options import DEFAULTS, OPTIONS
from engine.powergrid.plant_market import (
    begin_step3,
    draw_plant,
    lowest_plant,
    remove_too_low,
    resolve_step3,
)
from engine.powergrid.purchase import PURCHASE
from engine.powergrid.state_types import PGState, PowerGridState, plain

__all__ = [
    "ANYTIME",
    "LOG_SIZE",
    "Action",
    "Event",
    "OrderBook",
    "State",
    "after_purchase",
    "apply",
    "begin_step3",
    "build_check",
    "build_options",
    "cheapest_city",
    "choose_region",
    "chooser",
    "connection_cost",
    "current_players",
    "discard_plant",
    "draw_plant",
    "emit",
    "end_bureaucracy",
    "expected",
    "forget_orders",
    "is_int",
    "is_over",
    "limits",
    "log_event",
    "lowest_plant",
    "max_cities",
    "net",
    "open_auction",
    "order_book",
    "pass_turn",
    "phase_order",
    "power_check",
    "raise_bid",
    "random_connected_regions",
    "ranking",
    "register_orders",
    "remove_too_low",
    "reorder",
    "require_expected",
    "resolve_step3",
    "run_plants",
    "setup",
    "start_game",
    "start_turn_phase",
    "trim_log",
    "turn_of",
]

# The old private names, kept for the callers that still use them (the variant's tests,
# bench/round_trips.py, legal.py's callers): the public names above are the ones to use.
_is_int = is_int
_reorder = reorder
_build = build_city
_discard = discard_plant

# ===================================================================== setup (PG-7..PG-12)


def setup(players: list[str], options: dict[str, str], seed: int) -> State:
    if not 2 <= len(players) <= 6:
        raise IllegalAction("PG-7", N_("Power Grid needs 2 to 6 players, not {n}."), n=len(players))
    if len(set(players)) != len(players):
        raise IllegalAction("PG-7", N_("Every player must have a different name."))
    opts = dict(DEFAULTS)
    for key, value in options.items():
        if key in opts:
            opts[key] = str(value)
    for spec in OPTIONS:
        if spec.choices and opts[spec.key] not in spec.choices:
            raise IllegalAction(
                "PG-7",
                N_("Option {key} must be one of {choices}, not {value}."),
                key=spec.key,
                choices=Listed(spec.choices),
                value=opts[spec.key],
            )
    rng_box = new_rng_state(seed)
    rng = Rng(rng_box)
    lim = player_count(len(players))

    # PG-12: market 3..10; 13 and the Step 3 card set aside; shuffle; remove N unseen
    # (PG-D-6: never 13, the market plants or the card); 13 on top, the card at the bottom.
    deck = [n for n in sorted(PLANTS) if n > 10 and n != TOP_OF_DECK]
    rng.shuffle(deck)
    deck = deck[lim["removed"] :]
    deck = [TOP_OF_DECK, *deck, STEP3]

    order = list(players)
    rng.shuffle(order)  # PG-10: initial player order is random

    rm = initial_market_counts()  # PG-11
    state: PowerGridState = {
        "game": "powergrid",
        "map": opts["map"],
        "options": opts,
        "hidden_money": opts["hidden_money"] == "yes",
        "seats": list(players),
        "rng": rng_box,
        "round": 1,
        "step": 1,
        "step3_pending": False,
        "step3_drawn": False,
        "phase": "regions",
        "regions": [],
        "region_pickers": [],
        "turn": 0,
        "order": order,
        "players": {
            name: {
                "money": START_MONEY,  # PG-9
                "plants": [],
                "res": {r: 0 for r in RESOURCES},
                "cities": [],
                "bought": False,
                "passed": False,
                "done": False,
                "powered": None,
            }
            for name in players
        },
        "cities": {},
        "market": [3, 4, 5, 6, 7, 8, 9, 10],
        "deck": deck,
        "rm": rm,
        "supply": {r: TOTALS[r] - rm[r] for r in RESOURCES},
        "auction": None,
        "pending_discard": None,
        "log": [],
        "ranking": None,
    }
    events: list[Event] = []
    gm = game_map(state["map"])
    if opts["regions"] == "choose":
        # PG-8: players choose one region each, in a random order (the random player
        # order), cycling until enough regions are chosen.
        state["region_pickers"] = [order[i % len(order)] for i in range(lim["regions"])]
    else:
        state["regions"] = random_connected_regions(gm.regions, gm, lim["regions"], rng)
        start_game(state, events)
    return plain(state)


def _connected(regions: list[str], gm: Any) -> bool:
    seen = {regions[0]}
    stack = [regions[0]]
    while stack:
        r = stack.pop()
        for other in regions:
            if other not in seen and gm.regions_adjacent(r, other):
                seen.add(other)
                stack.append(other)
    return len(seen) == len(regions)


def random_connected_regions(all_regions: tuple[str, ...], gm: Any, k: int, rng: Rng) -> list[str]:
    """PG-D-3 random variant: uniform over all connected sets of `k` regions."""
    key = (tuple(all_regions), k, gm.region_adjacency)
    candidates = _CONNECTED_SETS.get(key)
    if candidates is None:
        # The same for every game on a map: listed once (every setup asked it again).
        candidates = _CONNECTED_SETS[key] = tuple(
            tuple(c) for c in combinations(all_regions, k) if _connected(list(c), gm)
        )
    return sorted(candidates[rng.below(len(candidates))])


# (regions, k, the map's region adjacency) -> the connected sets of k regions, in
# `combinations` order. A few entries per map.
_CONNECTED_SETS: dict[tuple[tuple[str, ...], int, frozenset[frozenset[str]]], tuple[Any, ...]] = {}


def start_game(state: PGState, events: list[Event]) -> None:
    state["regions"] = sorted(state["regions"])
    state["region_pickers"] = []
    log_event(
        state,
        events,
        {"type": "regions_chosen", "round": state["round"], "regions": list(state["regions"])},
    )
    log_event(state, events, {"type": "round_started", "round": state["round"]})
    log_event(
        state,
        events,
        {"type": "player_order", "round": state["round"], "order": list(state["order"])},
    )
    start_auction_phase(state, events)


# ===================================================================== who acts


def phase_order(state: PGState) -> list[str]:
    """PG-15: reverse player order in Phases 3 and 4, player order in Phase 5."""
    if state["phase"] in ("resources", "build"):
        return state["order"][::-1]
    return list(state["order"])


def current_players(state: State) -> list[str]:
    phase = state["phase"]
    if phase == "resources" or phase == "build":
        return [state["order"][-1 - state["turn"]]]  # they go in reverse order
    if phase == "over":
        return []
    if phase == "regions":
        return [state["region_pickers"][state["turn"]]]
    if phase == "auction":
        if state["pending_discard"] is not None:
            return [state["pending_discard"]["player"]]
        if state["auction"] is not None:
            return [state["auction"]["turn"]]
        c = chooser(state)
        return [c] if c is not None else []
    order = state["order"]
    if phase == "bureaucracy":
        # Simultaneous PG-42: everybody who has not declared yet (a variant that keeps the
        # turn overrides current_players, engine/powergrid_alt/rules.py).
        players = state["players"]
        waiting = []
        for name in order:
            if not players[name]["done"]:
                waiting.append(name)
        return waiting
    return [order[-1 - state["turn"]]]  # resources and build go in reverse order


def expected(state: PGState) -> str:
    phase = state["phase"]
    if phase == "over":
        return ""
    if phase == "regions":
        return "choose_region"
    if phase == "auction":
        if state["pending_discard"] is not None:
            return "discard"
        return "bid" if state["auction"] is not None else "choose_plant"
    return {"resources": "buy", "build": "build", "bureaucracy": "power"}[phase]


_ALLOWED = {
    "choose_region": ("choose_region",),
    "choose_plant": ("open", "pass"),
    "bid": ("raise", "pass"),
    "discard": ("discard",),
    "buy": ("buy", "done"),
    "build": ("build", "done"),
    "power": ("power",),
}


# ===================================================================== apply


# The chat command of each action type, for a refusal that names what the moment takes:
# players know commands, not action types.
COMMAND_OF = {
    "choose_region": "/region",
    "open": "/bid",
    "raise": "/raise",
    "pass": "/pass",
    "discard": "/discard",
    "buy": "/buy",
    "build": "/build",
    "done": "/done",
    "power": "/power",
}


def require_expected(
    kind: Any,
    want: str,
    allowed: Collection[str],
    commands: Mapping[str, str] = COMMAND_OF,
    round_no: int = 0,
) -> str:
    """PG-14: only the moves of the current phase step are accepted (shared with the variant,
    which names its own `commands`). Returns the action type, now one of `allowed`. The
    refusal names the commands that may be given now: in round 1 no /pass on opening an
    auction (PG-25; found playing: "the game expects /bid, /pass", then /pass refused)."""
    if not isinstance(kind, str) or kind not in allowed:
        shown = [
            k for k in allowed if not (want == "choose_plant" and round_no == 1 and k == "pass")
        ]
        raise IllegalAction(
            "PG-14",
            N_("You cannot do that now; the game expects {commands}."),
            commands=Listed(dict.fromkeys(commands.get(k, k) for k in shown)),
        )
    return kind


def apply(state: State, player: str, action: Action) -> tuple[State, list[Event]]:
    if state["phase"] == "over":
        raise IllegalAction("PG-51", N_("The game is over."))
    if not isinstance(action, dict):
        raise IllegalAction("PG-14", N_("An action must be a command with a type."))
    kind = action.get("type")
    if kind in ANYTIME:
        return order_book().apply(state, player, action)
    phase = state["phase"]
    if phase == "resources" or phase == "build":
        # `turn_of` inline for the two steps most moves are made in
        mine = state["order"][-1 - state["turn"]] == player
        want = ("buy" if phase == "resources" else "build") if mine else None
    else:
        want = turn_of(state, player)
    if want is None:
        acting = current_players(state)
        raise IllegalAction(
            "PG-15", N_("It is not your turn; waiting for {players}."), players=Listed(acting)
        )
    allowed = _ALLOWED[want]
    if kind not in allowed or not isinstance(kind, str):
        kind = require_expected(kind, want, allowed, round_no=state["round"])  # raises
    events: list[Event] = []
    _HANDLERS[kind](state, player, action, events)
    if "orders" in state:
        order_book().run(state, events)
    return state, events


def turn_of(state: PGState, player: str) -> str | None:
    """`expected(state)` if `player` is one of `current_players(state)`, else None.

    The same decision as those two functions, without building the list of players
    (apply asks it on every move).
    """
    phase = state["phase"]
    if phase == "resources" or phase == "build":
        mine = state["order"][-1 - state["turn"]] == player
        return ("buy" if phase == "resources" else "build") if mine else None
    if phase == "auction":
        pending = state["pending_discard"]
        if pending is not None:
            return "discard" if pending["player"] == player else None
        auction = state["auction"]
        if auction is not None:
            return "bid" if auction["turn"] == player else None
        return "choose_plant" if chooser(state) == player else None
    if phase == "bureaucracy":
        p = state["players"].get(player)
        return "power" if p is not None and not p["done"] and player in state["order"] else None
    if player in current_players(plain(state)):
        return expected(state)
    return None


# ===================================================================== regions (PG-8)


def region_term(gm: GameMap, region: str) -> Term:
    """The region's name as a word the reader's catalog translates ("North-West",
    "Purple (North-West)"), for refusals: never its id ("purple" read English in Polish)."""
    name = next((r["name"] for r in gm.raw["regions"] if r["id"] == region), region)
    return Term(name)


def choose_region(state: PGState, player: str, action: Action, events: list[Event]) -> None:
    gm = game_map(state["map"])
    region = action.get("region")
    if region not in gm.regions:
        # no list of ids here: the chat reads names and lists them (reading.region_of)
        raise IllegalAction("PG-8", N_("Unknown region {region}."), region=str(region))
    chosen = state["regions"]
    if region in chosen:
        raise IllegalAction(
            "PG-8", N_("Region {region} is already chosen."), region=region_term(gm, region)
        )
    if chosen and not any(gm.regions_adjacent(region, r) for r in chosen):
        raise IllegalAction(
            "PG-8",
            N_("Region {region} must border a region already chosen."),
            region=region_term(gm, region),
        )
    chosen.append(region)
    log_event(
        state,
        events,
        {"type": "region_chosen", "round": state["round"], "player": player, "region": region},
    )
    state["turn"] += 1
    if state["turn"] >= len(state["region_pickers"]):
        state["turn"] = 0
        start_game(state, events)


# ===================================================================== Phases 3-5 turns


def _done(state: PGState, player: str, action: Action, events: list[Event]) -> None:
    state["players"][player]["done"] = True
    state["turn"] += 1
    if state["turn"] < len(state["order"]):
        return
    if state["phase"] == "resources":
        log_event(
            state, events, {"type": "phase_ended", "round": state["round"], "phase": "resources"}
        )
        start_turn_phase(state, "build", events)
    else:
        _end_build_phase(state, events)


# ===================================================================== Phase 4 (PG-35..41)


def _end_build_phase(state: PGState, events: list[Event]) -> None:
    """PG-46a: end check, then a pending Step 3 card, then the Step 2 check."""
    log_event(state, events, {"type": "phase_ended", "round": state["round"], "phase": "build"})
    lim = limits(state)
    top = max_cities(state)
    if top >= lim["end"]:
        final_power(state, events)  # PG-51/52
        return
    if state["step3_drawn"]:
        resolve_step3(state, events)  # PG-47 in Phase 4: Step 3 begins with Phase 5
    start_turn_phase(state, "bureaucracy", events)
    if state["step3_pending"]:
        begin_step3(state, events)
    if state["step"] == 1 and not state["step3_pending"] and top >= lim["step2"]:
        # PG-46: Step 2 begins; the lowest plant leaves once and is replaced. A Step 3
        # card drawn here counts as a Phase 5 draw (PG-D-23): _draw_one resolves it.
        state["step"] = 2
        log_event(state, events, {"type": "step_started", "round": state["round"], "step": 2})
        low = lowest_plant(state)
        if low is not None:
            state["market"].remove(low)
            log_plant_removed(state, events, low, "PG-46", under_deck=False)
            draw_plant(state, events)


# ===================================================================== Phase 5 (PG-42..44)


def _power(state: PGState, player: str, action: Action, events: list[Event]) -> None:
    """PG-42 declared simultaneously (PG-15 allows it; the result is identical): the
    validated choice waits until everybody has declared, then all resolve in player order.

    A player's declaration depends only on his own plants and tokens, which nothing in
    Phase 5 changes before the resolution, so it is resolved exactly as it was checked.
    """
    plants, burned = power_check(state, player, action)
    declared = state.setdefault("power_declared", {})
    declared[player] = {"plants": plants, "burned": burned}
    state["players"][player]["done"] = True
    log_event(state, events, {"type": "power_declared", "round": state["round"], "player": player})
    order = state["order"]
    if len(declared) < len(order):
        return
    del state["power_declared"]
    for name in order:
        run_plants(state, name, declared[name]["plants"], declared[name]["burned"], events)
    state["turn"] = len(order)
    end_bureaucracy(state, events)


def end_bureaucracy(state: PGState, events: list[Event]) -> None:
    restock_and_update(state, events)  # PG-43, PG-44
    _start_round(state, events)


def _start_round(state: PGState, events: list[Event]) -> None:
    state["round"] += 1
    log_event(state, events, {"type": "round_started", "round": state["round"]})
    if state["step3_pending"]:
        begin_step3(state, events)  # PG-47 in Phase 5: Step 3 begins with the next round
    reorder(state)  # Phase 1 (PG-16)
    log_event(
        state,
        events,
        {"type": "player_order", "round": state["round"], "order": list(state["order"])},
    )
    start_auction_phase(state, events)


_HANDLERS = {
    "choose_region": choose_region,
    "open": open_auction,
    "raise": raise_bid,
    "pass": pass_turn,
    "discard": discard_plant,
    "buy": PURCHASE.buy,  # Phase 3 (PG-31..PG-34): purchase.py
    "build": build_city,
    "done": _done,
    "power": _power,
}


def is_over(state: State) -> bool:
    phase: str = state["phase"]
    return phase == "over"
