"""Power Grid, alternative rules (/work/shared/rules/powergrid_alt.md, ALT-n on top of PG-n).

The base engine (engine/powergrid/rules.py) runs what the variant keeps: region choice,
player order (ALT-6), the auction (ALT-7/9), plant market, restock, Steps 2/3 bookkeeping.
This module replaces Phase 3 placement (ALT-10), the whole of Phase 4 (ALT-11..ALT-29),
power and income (ALT-30..ALT-39), the Step 2 trigger (ALT-40) and the end (ALT-43..45).

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
A line is hanging at an endpoint that no longer holds its owner's plant or TP (ALT-28); that
is computed, never stored. Money is whole Elektro; city incomes are summed in half-Elektro
(ALT-38) and only the total is rounded up.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from engine.core import N_, IllegalAction, Rng
from engine.powergrid import market as mk
from engine.powergrid import rules as base
from engine.powergrid.data import PLANTS, RESOURCES, TOTALS, game_map
from engine.powergrid_alt import ending
from engine.powergrid_alt.graph import INF, alt_map, mse2
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
)

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

GAME_ID = "powergrid_alt"
START_MONEY = 75  # ALT-5
PLANT_COST = 10  # ALT-13
TP_COST = 5  # ALT-24
MAX_TPS = 3  # ALT-24
PENALTY = 5  # ALT-36
PLANT_CITY_INCOME2 = 10  # ALT-33: 5 E, in half-Elektro

emit = base.emit


def _is_int(value: Any) -> bool:
    return type(value) is int


# ===================================================================== setup (ALT-3..ALT-5a)


def setup(players: list[str], options: dict[str, str], seed: int) -> State:
    if not 2 <= len(players) <= 4:
        raise IllegalAction(
            "ALT-3",
            N_("The alternative rules are for 2 to 4 players, not {n}."),
            n=len(players),
        )
    wanted = dict(options)
    choose = str(wanted.get("regions", "random")) == "choose"
    # The base setup draws deck, player order and (when random) regions from the game's
    # RNG; asking it for "choose" leaves the region choice to us (ALT-4).
    wanted["regions"] = "choose"
    state = base.setup(players, wanted, seed)
    state["options"]["regions"] = "choose" if choose else "random"
    state["game"] = GAME_ID
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


def current_players(state: State) -> list[str]:
    """As the base game, except that Phase 5 is played in player order (ALT-30), not all at
    once (PG-42)."""
    if state["phase"] == "bureaucracy":
        return [state["order"][state["turn"]]]
    return base.current_players(state)


def apply(state: State, player: str, action: Action) -> tuple[State, list[Event]]:
    if state["phase"] == "over":
        raise IllegalAction("ALT-44", N_("The game is over."))
    if not isinstance(action, dict):
        raise IllegalAction("PG-14", N_("An action must be a command with a type."))
    if ending.anytime(action):  # the table vote to end by agreement, on turn or off
        events: list[Event] = []
        ending.vote(state, player, action, events, emit)
        return state, events
    acting = current_players(state)
    if player not in acting:
        raise IllegalAction(
            "PG-15", N_("It is not your turn; waiting for {players}."), players=", ".join(acting)
        )
    want = expected(state)
    kind = action.get("type")
    kind = base.require_expected(kind, want, _ALLOWED.get(want, ()))
    events = []
    _HANDLERS[kind](state, player, action, events)
    return state, events


# ===================================================================== Phase 2 (ALT-7..ALT-9)


def _auction(handler: Any) -> Any:
    """Run a base auction handler; ALT-8 has no plant limit, so a purchase never waits for a
    discard (PG-26/27 do not apply): the replacement is drawn at once."""

    def run(state: State, player: str, action: Action, events: list[Event]) -> None:
        handler(state, player, action, events)
        if state["pending_discard"] is not None:
            state["pending_discard"] = None
            base.after_purchase(state, events)

    return run


# ===================================================================== Phase 3 (ALT-10)


def buy_check(state: State, player: str, action: Action) -> tuple[str, int, int, int]:
    """Validate a purchase onto one built plant; return (resource, count, plant, price)."""
    resource, count, plant = action.get("resource"), action.get("count", 1), action.get("plant")
    if resource not in RESOURCES:
        raise IllegalAction(
            "PG-3",
            N_("Unknown resource {resource}; choose coal, oil, garbage or uranium."),
            resource=str(resource),
        )
    if not _is_int(count) or count < 1:
        raise IllegalAction("PG-31", N_("Buy at least 1 token."), count=str(count))
    mine = built_plants(state, player)
    if not mine:
        raise IllegalAction(
            "ALT-10", N_("You have no built plant to store resources on; build one first.")
        )
    if plant is None:
        fitting = [n for n in mine if room_on(state, n, resource) >= count]
        if not fitting:
            raise IllegalAction(
                "ALT-10",
                N_("None of your built plants can store {count} more {resource}."),
                count=count,
                resource=resource,
            )
        plant = fitting[0]
    if not _is_int(plant) or plant not in mine:
        raise IllegalAction(
            "ALT-10", N_("Plant {plant} is not one of your built plants."), plant=str(plant)
        )
    if not accepts(plant, resource):
        raise IllegalAction(
            "ALT-10", N_("Plant {plant} cannot store {resource}."), plant=plant, resource=resource
        )
    room = room_on(state, plant, resource)
    if count > room:
        raise IllegalAction(
            "ALT-10",
            N_("Plant {plant} can store only {room} more {resource}."),
            plant=plant,
            room=room,
            resource=resource,
        )
    available = state["rm"][resource]
    if count > available:
        raise IllegalAction(
            "PG-32",
            N_("The market has only {available} {resource}."),
            available=available,
            resource=resource,
        )
    price = mk.resource_cost(available, resource, count)
    money = state["players"][player]["money"]
    if price > money:
        raise IllegalAction(
            "ALT-12",
            N_("{count} {resource} cost {price} E; you have {money} E."),
            count=count,
            resource=resource,
            price=price,
            money=money,
        )
    return resource, count, plant, price


def _buy(state: State, player: str, action: Action, events: list[Event]) -> None:
    resource, count, plant, price = buy_check(state, player, action)
    state["players"][player]["money"] -= price
    state["rm"][resource] -= count
    state["built"][str(plant)]["res"][resource] += count
    emit(
        state,
        events,
        "resources_bought",
        player=player,
        resource=resource,
        count=count,
        price=price,
        plant=plant,
    )


def _done(state: State, player: str, action: Action, events: list[Event]) -> None:
    state["players"][player]["done"] = True
    state["turn"] += 1
    if state["turn"] < len(state["order"]):
        return
    if state["phase"] == "resources":
        emit(state, events, "phase_ended", phase="resources")
        state["activity"] = False
        base.start_turn_phase(state, "build", events)
    else:
        _end_build_phase(state, events)


# ===================================================================== Phase 4: plants


def build_plant_check(state: State, player: str, plant: Any, city: Any) -> str:
    """ALT-13/14/17..19: validate building hand plant `plant` in `city`; return the node."""
    if not _is_int(plant) or plant not in hand(state, player):
        raise IllegalAction(
            "ALT-8",
            N_("Plant {plant} is not in your hand; your hand: {hand}."),
            plant=str(plant),
            hand=", ".join(map(str, hand(state, player))) or "-",
        )
    node = node_of(state, city)
    site_check(state, player, plant, node)
    if state["players"][player]["money"] < PLANT_COST:
        raise IllegalAction(
            "ALT-13",
            N_("Building a plant costs {cost} E; you have {money} E."),
            cost=PLANT_COST,
            money=state["players"][player]["money"],
        )
    return node


def site_check(state: State, player: str, plant: int, node: str) -> None:
    """ALT-14.1-4, ALT-17..19, ALT-46: may plant `plant` (owned or not) stand in `node`?"""
    label = alt_map(state["map"]).label(node)
    here = plants_in(state, node)
    if any(state["built"][str(n)]["owner"] == player for n in here):
        raise IllegalAction("ALT-D-25", N_("You already have a plant in {city}."), city=label)
    if len(here) >= plant_slots(state, node):
        raise IllegalAction("ALT-14", N_("{city} already holds a plant."), city=label)
    tps = state["tps"].get(node, [])
    if player in tps:
        raise IllegalAction("ALT-14", N_("You have a TP in {city}."), city=label)
    if tps and state["step"] == 1:
        raise IllegalAction(
            "ALT-41",
            N_("In Step 1 a plant cannot displace the TPs in {city}."),
            city=label,
        )
    pollution_check(state, node, plant, None)


def _build_plant(state: State, player: str, action: Action, events: list[Event]) -> None:
    plant = action.get("plant")
    node = build_plant_check(state, player, plant, action.get("city"))
    assert isinstance(plant, int)
    players = state["players"]
    players[player]["money"] -= PLANT_COST
    displaced = state["tps"].pop(node, [])
    for owner in displaced:  # ALT-15: TPs return to their owners, their lines hang here
        players[owner]["cities"].remove(node)
    if displaced:
        state["displacer"][node] = player
    state["built"][str(plant)] = {
        "owner": player,
        "city": node,
        "res": {r: 0 for r in RESOURCES},
    }
    players[player]["cities"].append(node)
    _split_own_lines(state, player, node)  # ALT-16 (ALT-D-5)
    state["activity"] = True
    emit(
        state,
        events,
        "plant_built",
        player=player,
        plant=plant,
        city=node,
        cost=PLANT_COST,
        displaced=list(displaced),
    )
    base.remove_too_low(state, events)  # PG-40 with the city count of ALT-2


# ===================================================================== Phase 4: upgrade


def upgrade_check(state: State, player: str, old: Any, new: Any) -> None:
    """ALT-20 (ALT-D-7): same type, or fusion replacing any type; pollution still legal."""
    if not _is_int(old) or old not in built_plants(state, player):
        raise IllegalAction(
            "ALT-20", N_("Plant {plant} is not one of your built plants."), plant=str(old)
        )
    if not _is_int(new) or new not in hand(state, player):
        raise IllegalAction("ALT-8", N_("Plant {plant} is not in your hand."), plant=str(new))
    kind_old, kind_new = PLANTS[old].type, PLANTS[new].type
    if kind_new != "fusion" and kind_new != kind_old:
        raise IllegalAction(
            "ALT-20",
            N_("Plant {new} ({new_type}) cannot replace plant {old} ({old_type}): same type only."),
            new=new,
            old=old,
            new_type=kind_new,
            old_type=kind_old,
        )
    upgrade_site_check(state, old, new)


def upgrade_site_check(state: State, old: int, new: int) -> None:
    """ALT-20: replacing built plant `old` by `new` keeps ALT-18/ALT-19 satisfied."""
    pollution_check(state, state["built"][str(old)]["city"], new, old)


def upgrade_into(state: State, player: str, action: Action) -> list[int]:
    """ALT-20 (corrections 1.1): the player's other built plants that take the tokens Y cannot
    store, in order: those he names ("into"), then the rest, lowest plant number first."""
    old, new = action.get("old"), action.get("new")
    named = action.get("into", [])
    mine = [n for n in built_plants(state, player) if n not in (old, new)]
    if not isinstance(named, list):
        raise IllegalAction("syntax", N_("Name the plants that take the tokens by number."))
    for n in named:
        if not _is_int(n) or n not in mine:
            raise IllegalAction(
                "ALT-20",
                N_("Plant {plant} is not another of your built plants."),
                plant=str(n),
            )
    if len(set(named)) != len(named):
        raise IllegalAction("ALT-20", N_("Name each plant once."))
    return [*named, *sorted(n for n in mine if n not in named)]


def _upgrade(state: State, player: str, action: Action, events: list[Event]) -> None:
    old, new = action.get("old"), action.get("new")
    upgrade_check(state, player, old, new)
    assert isinstance(old, int) and isinstance(new, int)
    others = upgrade_into(state, player, action)
    site = state["built"].pop(str(old))
    state["built"][str(new)] = {
        "owner": player,
        "city": site["city"],
        "res": {r: 0 for r in RESOURCES},
    }
    # ALT-20 (corrections 1.1): the upgrade is free, relocation included. X's tokens go onto
    # Y, then onto the player's other plants that store them; only the rest returns.
    left = dict(site["res"])
    moved: dict[str, dict[str, int]] = {}
    for plant in (new, *others):
        for r in RESOURCES:
            take = min(left[r], room_on(state, plant, r))
            if take:
                state["built"][str(plant)]["res"][r] += take
                moved.setdefault(str(plant), {})[r] = take
                left[r] -= take
    returned = {r: n for r, n in left.items() if n}
    for r, n in returned.items():
        state["supply"][r] += n
    state["players"][player]["plants"].remove(old)  # plant X leaves the game
    emit(
        state,
        events,
        "plant_upgraded",
        player=player,
        old=old,
        new=new,
        city=site["city"],
        moved=moved,
        returned=returned,
    )


# ===================================================================== Phase 4: transport


def move_check(state: State, player: str, action: Action) -> tuple[int, int, dict[str, int], int]:
    """ALT-21: validate one transfer; return (source, destination, tokens, fee)."""
    src, dst = action.get("from"), action.get("to")
    mine = built_plants(state, player)
    for n in (src, dst):
        if not _is_int(n) or n not in mine:
            raise IllegalAction(
                "ALT-21", N_("Plant {plant} is not one of your built plants."), plant=str(n)
            )
    assert isinstance(src, int) and isinstance(dst, int)
    if src == dst:
        raise IllegalAction("ALT-21", N_("Move resources between two different plants."))
    tokens = action.get("tokens")
    if (
        not isinstance(tokens, dict)
        or not tokens
        or any(r not in RESOURCES or not _is_int(c) or c < 1 for r, c in tokens.items())
    ):
        raise IllegalAction("ALT-21", N_("Say how many tokens of which resource to move."))
    have = state["built"][str(src)]["res"]
    for r, c in tokens.items():
        if c > have[r]:
            raise IllegalAction(
                "ALT-21",
                N_("Plant {plant} holds only {have} {resource}."),
                plant=src,
                have=have[r],
                resource=r,
            )
        if not accepts(dst, r):
            raise IllegalAction(
                "ALT-21", N_("Plant {plant} cannot store {resource}."), plant=dst, resource=r
            )
    dres = state["built"][str(dst)]["res"]
    if PLANTS[dst].type == "hybrid":
        over = dres["coal"] + dres["oil"] + sum(tokens.values()) > storage(dst)
    else:
        over = any(dres[r] + c > storage(dst) for r, c in tokens.items())
    if over:
        raise IllegalAction("PG-33", N_("Plant {plant} cannot store that many tokens."), plant=dst)
    fee = transport_fee(state, state["built"][str(src)]["city"], state["built"][str(dst)]["city"])
    money = state["players"][player]["money"]
    if fee > money:
        raise IllegalAction(
            "ALT-21", N_("The transfer costs {fee} E; you have {money} E."), fee=fee, money=money
        )
    return src, dst, dict(tokens), fee


def _move(state: State, player: str, action: Action, events: list[Event]) -> None:
    src, dst, tokens, fee = move_check(state, player, action)
    state["players"][player]["money"] -= fee
    for r, c in tokens.items():
        state["built"][str(src)]["res"][r] -= c
        state["built"][str(dst)]["res"][r] += c
    emit(
        state,
        events,
        "resources_moved",
        player=player,
        source=src,
        target=dst,
        tokens=tokens,
        fee=fee,
    )


# ===================================================================== Phase 4: lines and TPs


def tp_check(state: State, player: str, node: str) -> None:
    """ALT-24: no own TP, no plant, fewer than 3 TPs."""
    label = alt_map(state["map"]).label(node)
    tps = state["tps"].get(node, [])
    if player in tps:
        raise IllegalAction("ALT-27", N_("You already have a TP in {city}."), city=label)
    if plants_in(state, node):
        raise IllegalAction(
            "ALT-24", N_("{city} holds a plant; no TP can be placed there."), city=label
        )
    if len(tps) >= MAX_TPS:
        raise IllegalAction("ALT-24", N_("{city} already has 3 TPs."), city=label)


def _hanging_lines_at(state: State, player: str, node: str) -> list[dict[str, Any]]:
    return [
        line
        for line in state["lines"]
        if line["owner"] == player and is_hanging_at(state, line, node)
    ]


def line_check(state: State, player: str, cities: Any) -> dict[str, Any]:
    """ALT-22..ALT-28: validate a line; return the plan {nodes, segs, cost, tp, extends}."""
    if not isinstance(cities, list) or len(cities) < 2:
        raise IllegalAction("ALT-22", N_("A line runs from one city to another."))
    am = alt_map(state["map"])
    nodes = [node_of(state, c) for c in cities]
    if len(set(nodes)) != len(nodes):
        raise IllegalAction("ALT-22", N_("A line visits each city at most once."))
    start, end = nodes[0], nodes[-1]
    extends: int | None = None
    if not holds(state, player, start):
        hanging = _hanging_lines_at(state, player, start)
        if not hanging:
            raise IllegalAction(
                "ALT-22",
                N_(
                    "A line must start at your own plant or TP (or your hanging line); "
                    "{city} has none."
                ),
                city=am.label(start),
            )
        old = min(hanging, key=lambda line: line["id"])
        # ALT-28: the extension joins the old line; keep the merged line a simple chain.
        if any(n in old["nodes"] for n in nodes[1:]):
            raise IllegalAction(
                "ALT-28", N_("The extension may not return to its own line's cities.")
            )
        extends = old["id"]
    for mid in nodes[1:-1]:
        if holds(state, player, mid):
            raise IllegalAction(
                "ALT-D-12",
                N_(
                    "Your line cannot pass through {city}, which holds your plant or TP: "
                    "lay two lines instead."
                ),
                city=am.label(mid),
            )
    owned = owned_segments(state)
    segs: list[str] = []
    cost = 0
    for a, b in itertools.pairwise(nodes):
        between = [s for s in am.incident[a] if s.other(a) == b]
        if not between:
            raise IllegalAction(
                "ALT-22",
                N_("{a} and {b} are not neighbours on the map."),
                a=am.label(a),
                b=am.label(b),
            )
        free = [s for s in between if s.key not in owned]
        if not free:
            raise IllegalAction(
                "ALT-22",
                N_("The connection {a}-{b} already belongs to {owner}."),
                a=am.label(a),
                b=am.label(b),
                owner=owned[between[0].key],
            )
        seg = min(free, key=lambda s: (s.cost, s.key))
        segs.append(seg.key)
        cost += seg.cost
    tp = not holds(state, player, end)
    if tp:
        tp_check(state, player, end)  # ALT-23/24: the line ends with a new TP
        cost += TP_COST
    money = state["players"][player]["money"]
    if cost > money:
        raise IllegalAction(
            "ALT-12", N_("The line costs {cost} E; you have {money} E."), cost=cost, money=money
        )
    return {"nodes": nodes, "segs": segs, "cost": cost, "tp": tp, "extends": extends}


def _line(state: State, player: str, action: Action, events: list[Event]) -> None:
    plan = line_check(state, player, action.get("cities"))
    state["players"][player]["money"] -= plan["cost"]
    nodes, segs = plan["nodes"], plan["segs"]
    if plan["extends"] is not None:
        line = next(ln for ln in state["lines"] if ln["id"] == plan["extends"])
        if line["nodes"][-1] != nodes[0]:  # orient the old line towards its hanging end
            line["nodes"].reverse()
            line["segs"].reverse()
        line["nodes"].extend(nodes[1:])
        line["segs"].extend(segs)
        line_id = line["id"]
    else:
        line_id = state["next_line"]
        state["next_line"] += 1
        state["lines"].append({"id": line_id, "owner": player, "nodes": nodes, "segs": segs})
    if plan["tp"]:
        _place_tp(state, player, nodes[-1])
    state["activity"] = True
    emit(
        state,
        events,
        "line_laid",
        player=player,
        line=line_id,
        cities=nodes,
        cost=plan["cost"],
        tp=plan["tp"],
        extended=plan["extends"] is not None,
    )
    if plan["tp"]:
        base.remove_too_low(state, events)


def _tp(state: State, player: str, action: Action, events: list[Event]) -> None:
    node = node_of(state, action.get("city"))
    through = [ln for ln in state["lines"] if ln["owner"] == player and node in ln["nodes"][1:-1]]
    if not through:
        raise IllegalAction(
            "ALT-D-11",
            N_(
                "A TP must end a line: lay one with /line, "
                "or choose a city your line passes through."
            ),
            city=alt_map(state["map"]).label(node),
        )
    tp_check(state, player, node)
    money = state["players"][player]["money"]
    if money < TP_COST:
        raise IllegalAction(
            "ALT-24", N_("A TP costs {cost} E; you have {money} E."), cost=TP_COST, money=money
        )
    state["players"][player]["money"] -= TP_COST
    _place_tp(state, player, node)
    state["activity"] = True
    emit(state, events, "tp_placed", player=player, city=node, cost=TP_COST)
    base.remove_too_low(state, events)


def _place_tp(state: State, player: str, node: str) -> None:
    state["tps"].setdefault(node, []).append(player)
    state["players"][player]["cities"].append(node)
    _split_own_lines(state, player, node)  # ALT-25


def _split_own_lines(state: State, player: str, node: str) -> None:
    """ALT-16/ALT-25: own lines passing through `node` split into two lines ending there."""
    for line in list(state["lines"]):
        if line["owner"] != player or node not in line["nodes"][1:-1]:
            continue
        i = line["nodes"].index(node)
        tail = {
            "id": state["next_line"],
            "owner": player,
            "nodes": line["nodes"][i:],
            "segs": line["segs"][i:],
        }
        state["next_line"] += 1
        line["nodes"] = line["nodes"][: i + 1]
        line["segs"] = line["segs"][:i]
        state["lines"].append(tail)


# ===================================================================== end of Phase 4


def step2_threshold(state: State) -> int:
    """ALT-40: 10 plants+TPs with 2 players, 7 with 3 or 4."""
    return 10 if len(state["seats"]) == 2 else 7


def _end_build_phase(state: State, events: list[Event]) -> None:
    """PG-46a order with ALT-43/ALT-45 as the end checks and ALT-40 as the Step 2 check."""
    emit(state, events, "phase_ended", phase="build")
    state["idle"] = 0 if state["activity"] else state["idle"] + 1
    if not state["final"]:  # (already final when the table agreed to end, ending.py)
        if all(covered(state, n) for n in play_nodes(state)):
            state["final"] = True  # ALT-44: one last Phase 5 with income
            emit(state, events, "final_round", reason="covered")
        elif ending.nothing_coverable(state):
            # ALT-45 (corrections 1.1): no remaining city can ever be covered.
            state["final"] = True
            emit(state, events, "final_round", reason="unreachable")
    if state["final"]:
        base.start_turn_phase(state, "bureaucracy", events)
        return
    if state["step3_drawn"]:
        base.resolve_step3(state, events)
    base.start_turn_phase(state, "bureaucracy", events)
    if state["step3_pending"]:
        base.begin_step3(state, events)
    top = base.max_cities(state)
    if state["step"] == 1 and not state["step3_pending"] and top >= step2_threshold(state):
        state["step"] = 2
        emit(state, events, "step_started", step=2)
        low = base.lowest_plant(state)
        if low is not None:
            state["market"].remove(low)
            emit(state, events, "plant_removed", plant=low, rule="PG-46", under_deck=False)
            base.draw_plant(state, events)


# ===================================================================== Phase 5: networks


def _adjacency(state: State, player: str) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """The player's network graph: his nodes and his non-hanging lines (ALT-29)."""
    adj: dict[str, list[tuple[str, dict[str, Any]]]] = {
        n: [] for n in state["players"][player]["cities"]
    }
    for line in state["lines"]:
        if line["owner"] != player or is_hanging(state, line):
            continue
        a, b = line["nodes"][0], line["nodes"][-1]
        adj[a].append((b, line))
        adj[b].append((a, line))
    return adj


def networks(state: State, player: str) -> list[list[str]]:
    """ALT-29: the player's networks as lists of nodes (in his city order)."""
    adj = _adjacency(state, player)
    seen: set[str] = set()
    out: list[list[str]] = []
    for start in state["players"][player]["cities"]:
        if start in seen:
            continue
        comp = [start]
        seen.add(start)
        i = 0
        while i < len(comp):
            for other, _line in adj[comp[i]]:
                if other not in seen:
                    seen.add(other)
                    comp.append(other)
            i += 1
        out.append(comp)
    return out


def _plant_nodes(state: State, player: str) -> set[str]:
    return {b["city"] for b in state["built"].values() if b["owner"] == player}


def qualifying_lines(state: State, node: str) -> list[dict[str, Any]]:
    """ALT-34 / ALT-D-26: non-hanging lines of any player ending at `node` whose other end
    reaches a built plant of the line's owner without passing through `node`."""
    out = []
    cache: dict[str, tuple[dict[str, list[tuple[str, dict[str, Any]]]], set[str]]] = {}
    for line in state["lines"]:
        ends = (line["nodes"][0], line["nodes"][-1])
        if node not in ends or is_hanging(state, line):
            continue
        owner = line["owner"]
        if owner not in cache:
            cache[owner] = (_adjacency(state, owner), _plant_nodes(state, owner))
        adj, plants = cache[owner]
        other = ends[1] if ends[0] == node else ends[0]
        seen = {node, other}
        stack = [other]
        found = False
        while stack:
            cur = stack.pop()
            if cur in plants:
                found = True
                break
            for nxt, _ln in adj[cur]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        if found:
            out.append(line)
    return out


def city_income2(state: State, player: str, node: str) -> int:
    """ALT-33/34/35/37: the income of powering `node`, in half-Elektro."""
    if node in _plant_nodes(state, player):
        return PLANT_CITY_INCOME2
    lines = qualifying_lines(state, node)
    if not lines:
        return 0
    cheapest = min(line_cost(state, line) for line in lines)
    return min(cheapest, mse2(state["map"], state["regions"], node))


def fuel_burn(
    state: State, plants: Iterable[int], mix: dict[int, int] | None = None
) -> dict[int, dict[str, int]] | None:
    """ALT-31 / ALT-D-14: what each running plant burns from its own tokens (hybrids coal
    first, or the coal given by `mix`), or None if some plant lacks fuel."""
    out: dict[int, dict[str, int]] = {}
    for n in plants:
        plant = PLANTS[n]
        res = state["built"][str(n)]["res"]
        burn = {r: 0 for r in RESOURCES}
        if plant.type == "hybrid":
            burn["coal"] = min(res["coal"], plant.cost) if mix is None else mix[n]
            burn["oil"] = plant.cost - burn["coal"]
        elif plant.type in RESOURCES:
            burn[plant.type] = plant.cost
        if any(burn[r] > res[r] for r in RESOURCES):
            return None
        out[n] = burn
    return out


def hybrid_mix(state: State, plants: list[int], coal: Any, oil: Any) -> dict[int, int]:
    """PG-2 / PG-42 / ALT-31 / ALT-D-14: split a chosen hybrid mix (`coal` + `oil` = the R of the
    running hybrids) over the hybrid plants, each burning from its own tokens; return the
    coal each hybrid burns (the rest is oil). Lower-numbered hybrids take coal first.
    One of `coal` and `oil` may be None: it is the rest of the need."""
    hybrids = sorted(n for n in plants if PLANTS[n].type == "hybrid")
    need = sum(PLANTS[n].cost for n in hybrids)
    coal = need - oil if coal is None and _is_int(oil) else coal
    oil = need - coal if oil is None and _is_int(coal) else oil
    if not (_is_int(coal) and _is_int(oil)) or coal < 0 or oil < 0:
        raise IllegalAction(
            "PG-42", N_("Say how much coal and oil the hybrids burn: coal=n oil=n.")
        )
    if coal + oil != need:
        raise IllegalAction(
            "PG-42",
            N_("Your running hybrid plants burn {need} tokens, not {total}."),
            need=need,
            total=coal + oil,
        )
    low: dict[int, int] = {}
    high: dict[int, int] = {}
    for n in hybrids:
        res = state["built"][str(n)]["res"]
        low[n] = max(0, PLANTS[n].cost - res["oil"])
        high[n] = min(PLANTS[n].cost, res["coal"])
    if not sum(low.values()) <= coal <= sum(high.values()) or any(
        low[n] > high[n] for n in hybrids
    ):
        raise IllegalAction(
            "ALT-D-14",
            N_("Your hybrid plants do not hold {coal} coal and {oil} oil between them."),
            coal=coal,
            oil=oil,
        )
    split = dict(low)
    left = coal - sum(low.values())
    for n in hybrids:
        more = min(left, high[n] - low[n])
        split[n] += more
        left -= more
    return split


def runnable(state: State, player: str) -> list[int]:
    return [n for n in built_plants(state, player) if fuel_burn(state, [n]) is not None]


def best_selection(state: State, player: str, plants: list[int]) -> list[str]:
    """ALT-32 (ALT-D-15): the most valuable legal set of cities for these running plants:
    per network, own cities of running plants free, then the best others up to capacity
    (a plant city first: it earns 5 and saves the penalty)."""
    run_nodes = {state["built"][str(n)]["city"] for n in plants}
    mine = _plant_nodes(state, player)
    chosen: list[str] = []
    for comp in networks(state, player):
        cap = sum(PLANTS[n].output for n in plants if state["built"][str(n)]["city"] in comp)
        free = [c for c in comp if c in run_nodes]
        chosen.extend(free)
        others = [c for c in comp if c not in run_nodes]
        others.sort(key=lambda c: (-(1000 if c in mine else city_income2(state, player, c)), c))
        chosen.extend(others[:cap])
    return chosen


def power_check(state: State, player: str, action: Action) -> tuple[list[int], list[str]]:
    """Validate a power action; return (plants run, cities powered). An optional hybrid mix
    ("coal", "oil") is checked by `hybrid_mix`."""
    plants = action.get("plants", [])
    if not isinstance(plants, list) or not all(_is_int(n) for n in plants):
        raise IllegalAction("ALT-31", N_("List the numbers of the plants to run."))
    mine = built_plants(state, player)
    for n in plants:
        if n not in mine:
            raise IllegalAction(
                "ALT-8", N_("Plant {plant} is not one of your built plants."), plant=n
            )
    if len(set(plants)) != len(plants):
        raise IllegalAction("ALT-31", N_("Each plant runs at most once per round."))
    for n in plants:
        if fuel_burn(state, [n]) is None:
            raise IllegalAction(
                "ALT-D-14",
                N_("Plant {plant} does not hold the resources it needs."),
                plant=n,
            )
    plants = sorted(plants)
    if "coal" in action or "oil" in action:
        hybrid_mix(state, plants, action.get("coal"), action.get("oil"))
    cities = action.get("cities")
    if cities is None:
        return plants, best_selection(state, player, plants)
    if not isinstance(cities, list):
        raise IllegalAction("ALT-32", N_("List the cities to power."))
    nodes = [node_of(state, c) for c in cities]
    own = state["players"][player]["cities"]
    for node in nodes:
        if node not in own:
            raise IllegalAction(
                "ALT-32",
                N_("You have no plant or TP in {city}."),
                city=alt_map(state["map"]).label(node),
            )
    run_nodes = [state["built"][str(n)]["city"] for n in plants]
    selected = set(nodes) | set(run_nodes)  # ALT-32.1: a running plant powers its city
    for comp in networks(state, player):
        cap = sum(PLANTS[n].output for n in plants if state["built"][str(n)]["city"] in comp)
        need = sum(1 for c in comp if c in selected and c not in run_nodes)
        if need > cap:
            raise IllegalAction(
                "ALT-D-15",
                N_("That network can power {cap} more cities, not {need}."),
                cap=cap,
                need=need,
            )
    return plants, [c for c in own if c in selected]


def penalties(state: State, player: str, powered: list[str]) -> tuple[int, dict[str, int]]:
    """ALT-36: (to the bank, to each other player) for the player's unpowered plant cities."""
    bank = 0
    others: dict[str, int] = {}
    for node in sorted(_plant_nodes(state, player)):
        if node in powered:
            continue
        bank += PENALTY
        # ALT-36 / DECISION ALT-D-29: the owner of the unpowered plant pays the owners of the
        # lines hanging there, even when another player displaced them (a double city).
        hangers = {
            ln["owner"]
            for ln in state["lines"]
            if ln["owner"] != player and is_hanging_at(state, ln, node)
        }
        for owner in hangers:  # ALT-D-17: per owner, not per line
            others[owner] = others.get(owner, 0) + PENALTY
    return bank, others


def _power(state: State, player: str, action: Action, events: list[Event]) -> None:
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
    income2 = sum(city_income2(state, player, c) for c in powered)
    income = -(-income2 // 2)  # ALT-38: round the total up
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
    p["done"] = True
    emit(
        state,
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
    state["turn"] += 1
    if state["turn"] >= len(state["order"]):
        if state["final"]:
            _game_over(state, events)
        else:
            base.end_bureaucracy(state, events)


# ===================================================================== end (ALT-44)


def _ranking_key(state: State, name: str) -> tuple[int, int, int]:
    p = state["players"][name]
    return (p["powered"] or 0, p["money"], len(p["cities"]))


def ranking(state: State) -> list[list[str]]:
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


def _game_over(state: State, events: list[Event]) -> None:
    emit(state, events, "phase_ended", phase="bureaucracy")
    state["phase"] = "over"
    state["ranking"] = ranking(state)
    emit(state, events, "game_over", ranking=state["ranking"])


def is_over(state: State) -> bool:
    return bool(state["phase"] == "over")


def conserved(state: State) -> bool:
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

# DIRTY, NUCLEAR, POLLUTION_LIMIT, nuclear_count, plant_pollution and pollution are
# re-exported from queries.py for the modules that read the state through `rules`.
__all__ = [
    "DIRTY",
    "INF",
    "NUCLEAR",
    "POLLUTION_LIMIT",
    "apply",
    "current_players",
    "expected",
    "is_over",
    "nuclear_count",
    "plant_pollution",
    "pollution",
    "ranking",
    "setup",
]
