"""Power Grid rules, in the order of the rulebook (/work/shared/rules/powergrid.md).

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

import bisect
from collections.abc import Callable, Collection
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from engine.core import N_, IllegalAction, Rng
from engine.core.rng import new_rng_state
from engine.powergrid import market as mk
from engine.powergrid.data import (
    HOUSES,
    PLANTS,
    RESOURCES,
    SLOT_PRICES,
    START_MONEY,
    STEP3,
    TOP_OF_DECK,
    TOTALS,
    game_map,
    income_for,
    initial_market_counts,
    player_count,
    restock_amounts,
)
from engine.powergrid.network import INF, network
from engine.powergrid.options import DEFAULTS, OPTIONS

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

LOG_SIZE = 12

# ===================================================================== helpers


def emit(state: State, events: list[Event], kind: str, **fields: Any) -> None:
    ev: Event = {"type": kind, "round": state["round"], **fields}
    events.append(ev)
    log = state["log"]
    log.append(ev)
    if len(log) > LOG_SIZE:
        trim_log(log)


def trim_log(log: list[Event]) -> None:
    """Keep every entry that is among the last LOG_SIZE some viewer sees (issue 20): the last
    LOG_SIZE public entries and each player's last LOG_SIZE of his own private ones, so a
    rival's private event never pushes a public entry out of anyone's view."""
    seen: dict[str | None, int] = {}
    keep: list[Event] = []
    for entry in reversed(log):
        owner = entry.get("player") if entry.get("private") else None
        seen[owner] = seen.get(owner, 0) + 1
        if seen[owner] <= LOG_SIZE:
            keep.append(entry)
    log[:] = reversed(keep)


def limits(state: State) -> dict[str, int]:
    return player_count(len(state["seats"]))


def max_cities(state: State) -> int:
    return max(len(p["cities"]) for p in state["players"].values())


def _is_int(value: Any) -> bool:
    return type(value) is int


def net(state: State) -> Any:
    return network(state["map"], tuple(state["regions"]))


def connection_cost(state: State, player: str, city: str) -> int:
    """PG-36/37: cheapest route cost from the player's current houses to `city`."""
    nw = net(state)
    return int(nw.reach(tuple(state["players"][player]["cities"]))[0][nw.index[city]])


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
                choices=", ".join(spec.choices),
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
    state: State = {
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
    return state


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
    candidates: list[list[str]] = [
        list(c) for c in combinations(all_regions, k) if _connected(list(c), gm)
    ]
    return sorted(candidates[rng.below(len(candidates))])


def start_game(state: State, events: list[Event]) -> None:
    state["regions"] = sorted(state["regions"])
    state["region_pickers"] = []
    emit(state, events, "regions_chosen", regions=list(state["regions"]))
    emit(state, events, "round_started")
    emit(state, events, "player_order", order=list(state["order"]))
    _start_auction_phase(state, events)


# ===================================================================== who acts


def chooser(state: State) -> str | None:
    """PG-20: the first player in player order who has neither bought nor passed."""
    players = state["players"]
    for name in state["order"]:
        p = players[name]
        if not p["bought"] and not p["passed"]:
            return name
    return None


def phase_order(state: State) -> list[str]:
    """PG-15: reverse player order in Phases 3 and 4, player order in Phase 5."""
    if state["phase"] in ("resources", "build"):
        return state["order"][::-1]
    return list(state["order"])


def current_players(state: State) -> list[str]:
    phase = state["phase"]
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
        return [n for n in order if not players[n]["done"]]
    return [order[-1 - state["turn"]]]  # resources and build go in reverse order


def expected(state: State) -> str:
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


def require_expected(kind: Any, want: str, allowed: Collection[str]) -> str:
    """PG-14: only the moves of the current phase step are accepted (shared with the variant).
    Returns the action type, now known to be one of `allowed`."""
    if not isinstance(kind, str) or kind not in allowed:
        raise IllegalAction(
            "PG-14",
            N_("You cannot do {action} now; the game expects: {expected}."),
            action=str(kind),
            expected=want,
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
    want = _turn_of(state, player)
    if want is None:
        acting = current_players(state)
        raise IllegalAction(
            "PG-15", N_("It is not your turn; waiting for {players}."), players=", ".join(acting)
        )
    kind = require_expected(kind, want, _ALLOWED[want])
    events: list[Event] = []
    _HANDLERS[kind](state, player, action, events)
    if "orders" in state:
        order_book().run(state, events)
    return state, events


def _turn_of(state: State, player: str) -> str | None:
    """`expected(state)` if `player` is one of `current_players(state)`, else None.

    The same decision as those two functions, without building the list of players
    (apply asks it on every move).
    """
    phase = state["phase"]
    if phase == "auction":
        pending = state["pending_discard"]
        if pending is not None:
            return "discard" if pending["player"] == player else None
        auction = state["auction"]
        if auction is not None:
            return "bid" if auction["turn"] == player else None
        return "choose_plant" if chooser(state) == player else None
    if phase == "resources" or phase == "build":
        mine = state["order"][-1 - state["turn"]] == player
        return ("buy" if phase == "resources" else "build") if mine else None
    if phase == "bureaucracy":
        p = state["players"].get(player)
        return "power" if p is not None and not p["done"] and player in state["order"] else None
    if player in current_players(state):
        return expected(state)
    return None


# Standing orders and their cancellation may be sent by any player at any time (orders.py).
ANYTIME = ("order", "cancel")


@dataclass(frozen=True)
class OrderBook:
    """Standing orders as the rules use them. orders.py builds on this module and registers
    its functions here (`register_orders`, called by the package), so this module never
    imports it: no import cycle."""

    apply: Callable[[State, str, Action], tuple[State, list[Event]]]
    run: Callable[[State, list[Event]], None]
    set_proxy: Callable[[State, str, int, int], None]


_ORDER_BOOKS: list[OrderBook] = []


def register_orders(book: OrderBook) -> None:
    _ORDER_BOOKS[:] = [book]


def order_book() -> OrderBook:
    if not _ORDER_BOOKS:
        raise IllegalAction("PG-14", N_("Standing orders are not available."))
    return _ORDER_BOOKS[0]


# ===================================================================== regions (PG-8)


def choose_region(state: State, player: str, action: Action, events: list[Event]) -> None:
    gm = game_map(state["map"])
    region = action.get("region")
    if region not in gm.regions:
        raise IllegalAction(
            "PG-8",
            N_("Unknown region {region}; choose one of {regions}."),
            region=str(region),
            regions=", ".join(gm.regions),
        )
    chosen = state["regions"]
    if region in chosen:
        raise IllegalAction("PG-8", N_("Region {region} is already chosen."), region=region)
    if chosen and not any(gm.regions_adjacent(region, r) for r in chosen):
        raise IllegalAction(
            "PG-8",
            N_("Region {region} must border a region already chosen ({chosen})."),
            region=region,
            chosen=", ".join(chosen),
        )
    chosen.append(region)
    emit(state, events, "region_chosen", player=player, region=region)
    state["turn"] += 1
    if state["turn"] >= len(state["region_pickers"]):
        state["turn"] = 0
        start_game(state, events)


# ===================================================================== Phase 1 (PG-16..19)


def _reorder(state: State) -> None:
    """PG-16: most cities first, ties by highest plant; PG-D-7: else keep relative order.

    `sorted` is stable, so the previous order breaks unbreakable ties.
    """
    players = state["players"]
    state["order"] = sorted(
        state["order"],
        key=lambda n: (-len(players[n]["cities"]), -max(players[n]["plants"], default=0)),
    )


# ===================================================================== Phase 2 (PG-20..30)


def _start_auction_phase(state: State, events: list[Event]) -> None:
    state["phase"] = "auction"
    state["turn"] = 0
    for p in state["players"].values():
        p["bought"] = False
        p["passed"] = False
        p["done"] = False
    emit(state, events, "phase_started", phase="auction")
    _auction_continue(state, events)


def _auction_continue(state: State, events: list[Event]) -> None:
    """PG-24/PG-30: the next chooser acts, or the phase ends when nobody is left."""
    if chooser(state) is None:
        _end_auction_phase(state, events)


def open_auction(state: State, player: str, action: Action, events: list[Event]) -> None:
    plant, bid = action.get("plant"), action.get("bid")
    money = state["players"][player]["money"]
    current = mk.current_market(state)
    if not _is_int(plant) or plant not in current:
        raise IllegalAction(
            "PG-20",
            N_("Plant {plant} is not in the current market ({market})."),
            plant=str(plant),
            market=", ".join(map(str, current)),
        )
    if bid is None:
        bid = plant
    if not _is_int(bid) or bid < plant:
        raise IllegalAction(
            "PG-20", N_("The opening bid must be at least {plant} E."), plant=plant, bid=str(bid)
        )
    if bid > money:
        raise IllegalAction(
            "PG-22", N_("You cannot bid more than your money ({money} E)."), money=money
        )
    limit = _proxy_limit(action, bid, money)
    players = state["players"]
    seats = state["seats"]
    i = seats.index(player)
    rotated = seats[i + 1 :] + seats[:i]
    others = [n for n in rotated if not players[n]["bought"] and not players[n]["passed"]]
    emit(state, events, "auction_opened", player=player, plant=plant, bid=bid)
    # PG-D-21: nobody eligible to bid against the chooser (PG-D-9 auto-pass judged against
    # the plant's number, unless money is hidden) -> he buys at the plant's number.
    able = others if state["hidden_money"] else [n for n in others if players[n]["money"] > plant]
    if not able:
        _win(state, player, plant, plant, events)
        return
    state["auction"] = {
        "plant": plant,
        "bid": bid,
        "leader": player,
        "bidders": [n for n in seats if n == player or n in others],
        "turn": player,
    }
    if limit is not None:
        _set_proxy(state, player, plant, limit)
    _next_bidder(state, player, events)


def _next_bidder(state: State, after: str, events: list[Event]) -> None:
    """PG-21: clockwise (seat order) from `after`; PG-D-9 auto-passes those who cannot raise."""
    auction = state["auction"]
    players = state["players"]
    seats = state["seats"]
    leader = auction["leader"]
    bidders = auction["bidders"]
    check_money = not state["hidden_money"]
    n = len(seats)
    i = seats.index(after)
    for k in range(1, n + 1):
        name = seats[(i + k) % n]
        if name == leader:
            break
        if name not in bidders:
            continue
        if check_money and players[name]["money"] <= auction["bid"]:
            bidders.remove(name)
            emit(state, events, "passed", player=name, plant=auction["plant"], auto=True)
            continue
        auction["turn"] = name
        return
    # Everybody else has passed: the leader buys at his bid (PG-21).
    state["auction"] = None
    _win(state, auction["leader"], auction["plant"], auction["bid"], events)


def raise_bid(state: State, player: str, action: Action, events: list[Event]) -> None:
    auction = state["auction"]
    bid: Any = action.get("bid")
    money = state["players"][player]["money"]
    if type(bid) is not int or bid <= auction["bid"]:
        raise IllegalAction(
            "PG-21", N_("You must bid more than {high} E."), high=auction["bid"], bid=str(bid)
        )
    if bid > money:
        raise IllegalAction(
            "PG-22", N_("You cannot bid more than your money ({money} E)."), money=money
        )
    if action.get("max") is not None:
        limit = _proxy_limit(action, bid, money)
        if limit is not None:
            _set_proxy(state, player, auction["plant"], limit)
    auction["bid"] = bid
    auction["leader"] = player
    emit(state, events, "bid", player=player, plant=auction["plant"], bid=bid)
    _next_bidder(state, player, events)


def _proxy_limit(action: Action, bid: int, money: int) -> int | None:
    """The optional `max` of a bid (proxy bidding, orders.py): None, or a limit above the bid.

    PG-22 applies to the limit as to any bid: never more than the bidder's money.
    """
    limit = action.get("max")
    if limit is None:
        return None
    if not _is_int(limit) or limit < bid:
        raise IllegalAction(
            "PG-21",
            N_("Your limit must be at least your bid ({bid} E)."),
            bid=bid,
            limit=str(limit),
        )
    if limit > money:
        raise IllegalAction(
            "PG-22", N_("You cannot bid more than your money ({money} E)."), money=money
        )
    return limit if limit > bid else None


def _set_proxy(state: State, player: str, plant: int, limit: int) -> None:
    order_book().set_proxy(state, player, plant, limit)


def pass_turn(state: State, player: str, action: Action, events: list[Event]) -> None:
    auction = state["auction"]
    if auction is not None:
        # PG-21: pass on this plant only.
        auction["bidders"].remove(player)
        emit(state, events, "passed", player=player, plant=auction["plant"], auto=False)
        _next_bidder(state, player, events)
        return
    if state["round"] == 1:
        raise IllegalAction(
            "PG-25", N_("In round 1 every player must buy a power plant; you cannot pass.")
        )
    state["players"][player]["passed"] = True  # PG-20 (a)
    emit(state, events, "passed", player=player, plant=None, auto=False)
    _auction_continue(state, events)


def _win(state: State, player: str, plant: int, price: int, events: list[Event]) -> None:
    p = state["players"][player]
    p["money"] -= price
    bisect.insort(p["plants"], plant)
    p["bought"] = True  # PG-23
    state["market"].remove(plant)
    state["auction"] = None
    if "orders" in state:
        _forget_orders(state, ("maxbid", "pass_plant"))  # they were for this auction only
    emit(state, events, "auction_won", player=player, plant=plant, price=price)
    if len(p["plants"]) > limits(state)["max_plants"]:
        # PG-26: the discard comes before the replacement draw and the next choice.
        state["pending_discard"] = {"player": player, "plant": plant}
        return
    after_purchase(state, events)


def after_purchase(state: State, events: list[Event]) -> None:
    draw_plant(state, events)  # PG-28 (+ PG-40, PG-47)
    _auction_continue(state, events)


def _discard(state: State, player: str, action: Action, events: list[Event]) -> None:
    pending = state["pending_discard"]
    p = state["players"][player]
    plant = action.get("plant")
    if plant == pending["plant"]:
        raise IllegalAction(
            "PG-26",
            N_("Discard one of your older plants, not plant {plant} that you just bought."),
            plant=plant,
        )
    if not _is_int(plant) or plant not in p["plants"]:
        raise IllegalAction("PG-26", N_("You do not own plant {plant}."), plant=str(plant))
    # PG-27: tokens move to the remaining plants (incl. the new one); the rest go to supply.
    # The player may say which to keep ("keep": counts by resource); by default as many as
    # fit, coal before oil on hybrids.
    cap = mk.capacities([n for n in p["plants"] if n != plant])
    chosen = action.get("keep")
    if chosen is None:
        kept = mk.kept_after_discard(cap, p["res"])
    else:
        valid = isinstance(chosen, dict) and all(
            r in RESOURCES and _is_int(n) for r, n in chosen.items()
        )
        found = mk.kept_as_chosen(cap, p["res"], chosen) if valid else None
        if found is None:
            raise IllegalAction(
                "PG-27",
                N_("Your other plants cannot keep those tokens; they can keep: {options}."),
                options=" | ".join(
                    ", ".join(f"{n} {r}" for r, n in o.items() if n) or "0"
                    for o in mk.keep_options(cap, p["res"])
                ),
            )
        kept = found
    p["plants"].remove(plant)
    returned = {}
    for r in RESOURCES:
        lost = p["res"][r] - kept[r]
        if lost:
            state["supply"][r] += lost
            returned[r] = lost
        p["res"][r] = kept[r]
    state["pending_discard"] = None
    emit(state, events, "plant_discarded", player=player, plant=plant, returned=returned)
    after_purchase(state, events)


def _end_auction_phase(state: State, events: list[Event]) -> None:
    if not any(p["bought"] for p in state["players"].values()):
        # PG-29: nobody bought: the lowest plant leaves the game and is replaced. A Step 3
        # card revealed by this draw is resolved at once (PG-47), which the check below does.
        low = lowest_plant(state)
        if low is not None:
            state["market"].remove(low)
            emit(state, events, "plant_removed", plant=low, rule="PG-29", under_deck=False)
            draw_plant(state, events)
    if state["step3_drawn"]:
        resolve_step3(state, events)  # PG-47 in Phase 2: Step 3 begins with Phase 3
    if "orders" in state:
        _forget_orders(state, ("pass_round",))  # "/pass round" lasts this round's Phase 2
    emit(state, events, "phase_ended", phase="auction")
    if state["round"] == 1:
        _reorder(state)  # PG-17: once, after the first auction
        emit(state, events, "player_order", order=list(state["order"]))
    start_turn_phase(state, "resources", events)


def _forget_orders(state: State, kinds: tuple[str, ...]) -> None:
    """Drop the given kinds of standing orders of every player (empty entries go too)."""
    book = state["orders"]
    for name in list(book):
        mine = book[name]
        for kind in kinds:
            mine.pop(kind, None)
        if not mine:
            del book[name]
    if not book:
        del state["orders"]


# ===================================================================== plant market


def lowest_plant(state: State) -> int | None:
    for p in state["market"]:
        if p != STEP3:
            return int(p)
    return None


def _draw_one(state: State, events: list[Event]) -> None:
    deck = state["deck"]
    if not deck:
        return  # PG-50: the market shrinks
    card = deck.pop(0)
    if card == STEP3:
        state["market"].append(STEP3)  # PG-47: sits as the highest plant, never current
        emit(state, events, "step3_card_drawn", phase=state["phase"])
        if state["phase"] == "bureaucracy":
            resolve_step3(state, events)  # PG-47 in Phase 5 (and PG-D-23): at once
        else:
            state["step3_drawn"] = True
        return
    bisect.insort(state["market"], card)
    emit(state, events, "plant_drawn", plant=card)


def draw_plant(state: State, events: list[Event]) -> None:
    """Draw one replacement, then apply PG-40 to the market (drawn plants included)."""
    _draw_one(state, events)
    remove_too_low(state, events)


def remove_too_low(state: State, events: list[Event]) -> None:
    """PG-40 (PG-D-14): market plants numbered <= the highest city count leave the game."""
    top = max_cities(state)
    market = state["market"]
    while market and market[0] <= top:
        low = market.pop(0)
        emit(state, events, "plant_removed", plant=low, rule="PG-40", under_deck=False)
        _draw_one(state, events)


def resolve_step3(state: State, events: list[Event]) -> None:
    """PG-47: remove the card and the lowest plant, no replacement, shuffle the deck."""
    market = state["market"]
    if STEP3 in market:
        market.remove(STEP3)
    low = lowest_plant(state)
    if low is not None:
        market.remove(low)
        emit(state, events, "plant_removed", plant=low, rule="PG-47", under_deck=False)
    Rng(state["rng"]).shuffle(state["deck"])
    state["step3_drawn"] = False
    if state["phase"] == "auction":
        begin_step3(state, events)  # Step 3 begins with Phase 3
    else:
        state["step3_pending"] = True  # begins with Phase 5 (from 4) or next round (from 5)


def begin_step3(state: State, events: list[Event]) -> None:
    # PG-49 (PG-D-18): from Step 1 this skips Step 2 and its one-time removal.
    state["step"] = 3
    state["step3_pending"] = False
    emit(state, events, "step_started", step=3)


# ===================================================================== Phases 3-5 turns


def start_turn_phase(state: State, phase: str, events: list[Event]) -> None:
    state["phase"] = phase
    state["turn"] = 0
    for p in state["players"].values():
        p["done"] = False
    emit(state, events, "phase_started", phase=phase)


def _done(state: State, player: str, action: Action, events: list[Event]) -> None:
    state["players"][player]["done"] = True
    state["turn"] += 1
    if state["turn"] < len(state["order"]):
        return
    if state["phase"] == "resources":
        emit(state, events, "phase_ended", phase="resources")
        start_turn_phase(state, "build", events)
    else:
        _end_build_phase(state, events)


# ===================================================================== Phase 3 (PG-31..34)


def _buy(state: State, player: str, action: Action, events: list[Event]) -> None:
    resource, count = action.get("resource"), action.get("count", 1)
    if resource not in RESOURCES:
        raise IllegalAction(
            "PG-3",
            N_("Unknown resource {resource}; choose coal, oil, garbage or uranium."),
            resource=str(resource),
        )
    if not _is_int(count) or count < 1:
        raise IllegalAction("PG-31", N_("Buy at least 1 token."), count=str(count))
    available = state["rm"][resource]
    if count > available:
        raise IllegalAction(
            "PG-32",
            N_("The market has only {available} {resource}."),
            available=available,
            resource=resource,
        )
    p = state["players"][player]
    room = mk.room_for(mk.capacities(p["plants"]), p["res"], resource)
    if count > room:
        raise IllegalAction(
            "PG-33",
            N_("Your plants can store only {room} more {resource}."),
            room=room,
            resource=resource,
        )
    price = mk.resource_cost(available, resource, count)
    if price > p["money"]:
        raise IllegalAction(
            "PG-9a",
            N_("{count} {resource} cost {price} E; you have {money} E."),
            count=count,
            resource=resource,
            price=price,
            money=p["money"],
        )
    p["money"] -= price
    p["res"][resource] += count
    state["rm"][resource] -= count
    emit(
        state,
        events,
        "resources_bought",
        player=player,
        resource=resource,
        count=count,
        price=price,
    )


# ===================================================================== Phase 4 (PG-35..41)


def build_check(state: State, player: str, city: Any) -> tuple[int, int]:
    """Validate building in `city` now; return (connection cost, slot price) or raise."""
    gm = game_map(state["map"])
    if city not in gm.index:
        raise IllegalAction("PG-1", N_("There is no city called {city}."), city=str(city))
    if gm.city_region[gm.index[city]] not in state["regions"]:
        raise IllegalAction("PG-8", N_("{city} is outside the regions in play."), city=city)
    p = state["players"][player]
    owners = state["cities"].get(city, [])
    if player in owners:
        raise IllegalAction("PG-38", N_("You already have a house in {city}."), city=city)
    if len(owners) >= state["step"]:
        raise IllegalAction(
            "PG-38",
            N_("{city} is full: in Step {step} a city holds {slots} house(s)."),
            city=city,
            step=state["step"],
            slots=state["step"],
        )
    if len(p["cities"]) >= HOUSES:
        raise IllegalAction("PG-38", N_("You have no houses left."))
    conn = connection_cost(state, player, city)
    if conn >= INF:
        raise IllegalAction("PG-37", N_("{city} cannot be reached from your network."), city=city)
    return conn, SLOT_PRICES[len(owners)]


def _build(state: State, player: str, action: Action, events: list[Event]) -> None:
    city = action.get("city")
    conn, slot = build_check(state, player, city)
    p = state["players"][player]
    cost = conn + slot
    if cost > p["money"]:
        raise IllegalAction(
            "PG-37",
            N_(
                "{city} costs {cost} E ({connection} connection + {slot} house); "
                "you have {money} E."
            ),
            city=city,
            cost=cost,
            connection=conn,
            slot=slot,
            money=p["money"],
        )
    p["money"] -= cost
    p["cities"].append(city)  # PG-39
    state["cities"].setdefault(city, []).append(player)
    emit(state, events, "city_built", player=player, city=city, cost=cost, connection=conn)
    remove_too_low(state, events)  # PG-40 applies at any time


def _end_build_phase(state: State, events: list[Event]) -> None:
    """PG-46a: end check, then a pending Step 3 card, then the Step 2 check."""
    emit(state, events, "phase_ended", phase="build")
    lim = limits(state)
    top = max_cities(state)
    if top >= lim["end"]:
        _final_power(state, events)  # PG-51/52
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
        emit(state, events, "step_started", step=2)
        low = lowest_plant(state)
        if low is not None:
            state["market"].remove(low)
            emit(state, events, "plant_removed", plant=low, rule="PG-46", under_deck=False)
            draw_plant(state, events)


# ===================================================================== Phase 5 (PG-42..44)


def power_check(state: State, player: str, action: Action) -> tuple[list[int], dict[str, int]]:
    """Validate a power action; return (plants run, tokens burned)."""
    p = state["players"][player]
    plants = action.get("plants", [])
    if not isinstance(plants, list) or not all(type(n) is int for n in plants):
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
        if (coal is not None and not _is_int(coal)) or (oil is not None and not _is_int(oil)):
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
        raise IllegalAction(
            "PG-42",
            N_("You do not have the resources to run plants {plants}."),
            plants=", ".join(map(str, plants)),
        )
    return run, plan


def _power(state: State, player: str, action: Action, events: list[Event]) -> None:
    """PG-42 declared simultaneously (PG-15 allows it; the result is identical): the
    validated choice waits until everybody has declared, then all resolve in player order.

    A player's declaration depends only on his own plants and tokens, which nothing in
    Phase 5 changes before the resolution, so it is resolved exactly as it was checked.
    """
    plants, burned = power_check(state, player, action)
    declared = state.setdefault("power_declared", {})
    declared[player] = {"plants": plants, "burned": burned}
    state["players"][player]["done"] = True
    emit(state, events, "power_declared", player=player)
    order = state["order"]
    if len(declared) < len(order):
        return
    del state["power_declared"]
    for name in order:
        _run_plants(state, name, declared[name]["plants"], declared[name]["burned"], events)
    state["turn"] = len(order)
    end_bureaucracy(state, events)


def _run_plants(
    state: State, player: str, plants: list[int], burned: dict[str, int], events: list[Event]
) -> None:
    """PG-42 steps 1-4 for one player: burn, power, earn."""
    p = state["players"][player]
    for r in RESOURCES:
        if burned[r]:
            p["res"][r] -= burned[r]
            state["supply"][r] += burned[r]  # PG-42.4: back to the supply
    capacity = sum(PLANTS[n].output for n in plants)
    powered = min(capacity, len(p["cities"]))
    income = income_for(powered)
    p["money"] += income
    p["powered"] = powered
    p["done"] = True
    emit(
        state,
        events,
        "powered",
        player=player,
        plants=plants,
        cities=powered,
        income=income,
        burned={r: v for r, v in burned.items() if v},
    )


def end_bureaucracy(state: State, events: list[Event]) -> None:
    # PG-43: restock from the supply into the dearest empty slots, up to what is left.
    amounts = restock_amounts(len(state["seats"]), state["step"])
    added = {}
    for r in RESOURCES:
        n = min(amounts[r], state["supply"][r], mk.CAPACITY[r] - state["rm"][r])
        state["rm"][r] += n
        state["supply"][r] -= n
        added[r] = n
    emit(state, events, "market_restocked", added=added, step=state["step"])
    # PG-44: Step 1/2 highest plant under the deck; Step 3 (and PG-D-23) lowest removed.
    market = state["market"]
    if market:
        if mk.six_plant_market(state):
            low = market.pop(0)
            emit(state, events, "plant_removed", plant=low, rule="PG-44", under_deck=False)
        else:
            high = market.pop()
            state["deck"].append(high)
            emit(state, events, "plant_removed", plant=high, rule="PG-44", under_deck=True)
        draw_plant(state, events)
    emit(state, events, "phase_ended", phase="bureaucracy")
    _start_round(state, events)


def _start_round(state: State, events: list[Event]) -> None:
    state["round"] += 1
    emit(state, events, "round_started")
    if state["step3_pending"]:
        begin_step3(state, events)  # PG-47 in Phase 5: Step 3 begins with the next round
    _reorder(state)  # Phase 1 (PG-16)
    emit(state, events, "player_order", order=list(state["order"]))
    _start_auction_phase(state, events)


# ===================================================================== end (PG-51..53)


def _final_power(state: State, events: list[Event]) -> None:
    """PG-52 (PG-D-19): each player powers what he can; no income, restock or update.

    Running fewer plants never helps here, so the engine takes each player's best run.
    """
    for name in state["order"]:
        p = state["players"][name]
        _plants, powered = mk.best_run(p["plants"], p["res"], len(p["cities"]))
        p["powered"] = powered
    state["phase"] = "over"
    state["ranking"] = ranking(state)
    emit(state, events, "game_over", ranking=state["ranking"])


def ranking(state: State) -> list[list[str]]:
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


_HANDLERS = {
    "choose_region": choose_region,
    "open": open_auction,
    "raise": raise_bid,
    "pass": pass_turn,
    "discard": _discard,
    "buy": _buy,
    "build": _build,
    "done": _done,
    "power": _power,
}


# ===================================================================== queries


def build_options(state: State, player: str) -> list[tuple[str, int]]:
    """Every city the player may build in now with its full price (PG-36..38), cheapest first.

    Money is not checked here; callers compare with the player's money.
    """
    p = state["players"][player]
    if len(p["cities"]) >= HOUSES:
        return []
    nw = net(state)
    costs = nw.reach(tuple(p["cities"]))[0]
    taken = state["cities"]
    slots = state["step"]
    names = nw.cities
    out: list[tuple[str, int]] = []
    for i in nw.play:
        name = names[i]
        owners = taken.get(name)
        if owners:
            if len(owners) >= slots or player in owners:
                continue
            slot = SLOT_PRICES[len(owners)]
        else:
            slot = SLOT_PRICES[0]
        conn = costs[i]
        if conn < INF:
            out.append((name, conn + slot))
    out.sort(key=lambda item: item[1])
    return out


def cheapest_city(state: State, player: str) -> tuple[str, int] | None:
    """The cheapest city to build in now and its price (the first of `build_options`:
    lowest price, then lowest city index).

    Walks the cities in play by connection cost and stops once no later city can match
    the best price found (a house costs at least the first slot's price).
    """
    p = state["players"][player]
    cities = p["cities"]
    if len(cities) >= HOUSES:
        return None
    nw = net(state)
    taken = state["cities"]
    slots = state["step"]
    first = SLOT_PRICES[0]
    best = -1
    best_name = ""
    best_cost = INF
    for conn, i, name in nw.reach(tuple(cities))[1]:
        if conn + first > best_cost:
            break
        owners = taken.get(name)
        if owners:
            if len(owners) >= slots or player in owners:
                continue
            cost = conn + SLOT_PRICES[len(owners)]
        else:
            cost = conn + first
        if cost < best_cost or (cost == best_cost and i < best):
            best, best_name, best_cost = i, name, cost
    return None if best < 0 else (best_name, best_cost)


def is_over(state: State) -> bool:
    return bool(state["phase"] == "over")
