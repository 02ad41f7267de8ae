"""Phase 4 of the alternative rules (ALT-11..ALT-29): building plants, upgrades, transport,
lines and TPs. Each `*_check` validates without touching the state; each `_name` handler
validates, then performs the action and emits its event (rules.py dispatches to them).
"""

from __future__ import annotations

import itertools
from typing import Any

from engine.core import N_, IllegalAction, Listed, Term
from engine.powergrid import rules as base
from engine.powergrid.basics import is_int
from engine.powergrid.data import PLANTS, RESOURCES
from engine.powergrid_alt.graph import alt_map, nodes_in_play
from engine.powergrid_alt.queries import (
    NUCLEAR,
    POLLUTION_LIMIT,
    accepts,
    built_plants,
    hand,
    holds,
    is_hanging_at,
    node_of,
    owned_segments,
    plant_pollution,
    plant_slots,
    plants_in,
    pollution_check,
    room_on,
    storage,
    transport_fee,
)
from engine.powergrid_alt.state_types import AltLine, AltState, Line, plain

State = AltState  # the TypedDict, or the plain dict (state_types.py)
Action = dict[str, Any]
Event = dict[str, Any]

PLANT_COST = 10  # ALT-13
TP_COST = 5  # ALT-24
MAX_TPS = 3  # ALT-24

emit = base.emit


# ===================================================================== Phase 4: plants


def build_plant_check(state: State, player: str, plant: Any, city: Any) -> str:
    """ALT-13/14/17..19: validate building hand plant `plant` in `city`; return the node."""
    held = hand(state, player)
    if not is_int(plant) or plant not in held:
        if not held:  # (not "your hand: -.")
            raise IllegalAction(
                "ALT-8",
                N_("Plant {plant} is not in your hand; your hand is empty."),
                plant=str(plant),
            )
        raise IllegalAction(
            "ALT-8",
            N_("Plant {plant} is not in your hand; your hand: {hand}."),
            plant=str(plant),
            hand=Listed(held),
        )
    node = node_of(state, city)
    site_check(state, player, plant, node)
    if state["players"][player]["money"] < PLANT_COST:
        raise IllegalAction(
            "ALT-13",
            N_("Building a plant costs {cost} E; you have {money} E."),
            cost=PLANT_COST,
            money=state["players"][player]["money"],
            secret=state["hidden_money"],
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


def legal_sites(state: State, player: str, plant: int) -> list[str]:
    """The nodes in play (in map order) where `site_check` lets plant `plant` stand."""
    return Sites(state, player).of(plant)


class Sites:
    """`legal_sites` of several plants in one unchanged position: the same tests as
    `site_check` (ALT-14, ALT-18/19, ALT-41, ALT-46, ALT-D-25) with the plants and the
    regions' pollution counted once for all nodes and plants, not once per node."""

    __slots__ = ("_found", "_free", "_level", "_nuclear")

    def __init__(self, state: State, player: str) -> None:
        am = alt_map(state["map"])
        owners: dict[str, list[str]] = {}  # node -> owners of the plants built there
        self._level: dict[str, int] = {}  # region -> pollution (ALT-18)
        self._nuclear: set[str] = set()  # regions with a nuclear plant (ALT-19)
        for number, site in state["built"].items():
            owners.setdefault(site["city"], []).append(site["owner"])
            region = am.region[site["city"]]
            self._level[region] = self._level.get(region, 0) + plant_pollution(int(number))
            if PLANTS[int(number)].type == NUCLEAR:
                self._nuclear.add(region)
        step1 = state["step"] == 1
        # (node, region) where a plant of the player may stand as far as the city goes
        self._free: list[tuple[str, str]] = []
        for node in nodes_in_play(state["map"], state["regions"]):
            here = owners.get(node, ())
            if player in here or len(here) >= (2 if am.is_double(node) else 1):
                continue
            tps = state["tps"].get(node, [])
            if player in tps or (tps and step1):
                continue
            self._free.append((node, am.region[node]))
        # (pollution, nuclear) of a plant -> its sites: plants alike stand alike
        self._found: dict[tuple[int, bool], list[str]] = {}

    def of(self, plant: int) -> list[str]:
        added = plant_pollution(plant)
        atomic = PLANTS[plant].type == NUCLEAR
        found = self._found.get((added, atomic))
        if found is None:
            level, nuclear = self._level, self._nuclear
            found = self._found[(added, atomic)] = [
                node
                for node, region in self._free
                if level.get(region, 0) + added <= POLLUTION_LIMIT
                and not (atomic and region in nuclear)
            ]
        return list(found)


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
        plain(state),
        events,
        "plant_built",
        player=player,
        plant=plant,
        city=node,
        cost=PLANT_COST,
        displaced=list(displaced),
    )
    base.remove_too_low(plain(state), events)  # PG-40 with the city count of ALT-2


# ===================================================================== Phase 4: upgrade


def upgrade_check(state: State, player: str, old: Any, new: Any) -> None:
    """ALT-20 (ALT-D-7): same type, or fusion replacing any type; pollution still legal."""
    if not is_int(old) or old not in built_plants(state, player):
        raise IllegalAction(
            "ALT-20", N_("Plant {plant} is not one of your built plants."), plant=str(old)
        )
    if not is_int(new) or new not in hand(state, player):
        raise IllegalAction("ALT-8", N_("Plant {plant} is not in your hand."), plant=str(new))
    kind_old, kind_new = PLANTS[old].type, PLANTS[new].type
    if kind_new != "fusion" and kind_new != kind_old:
        raise IllegalAction(
            "ALT-20",
            N_("Plant {new} ({new_type}) cannot replace plant {old} ({old_type}): same type only."),
            new=new,
            old=old,
            new_type=Term(kind_new),  # in the reader's words ("eco" read as English in Polish)
            old_type=Term(kind_old),
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
        if not is_int(n) or n not in mine:
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
        plain(state),
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
        if not is_int(n) or n not in mine:
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
        or any(r not in RESOURCES or not is_int(c) or c < 1 for r, c in tokens.items())
    ):
        raise IllegalAction("ALT-21", N_("Say how many tokens of which resource to move."))
    have = state["built"][str(src)]["res"]
    for r, c in tokens.items():
        if not accepts(src, r):  # (not "Plant 3 holds only 0 coal." for an oil plant)
            raise IllegalAction(
                "ALT-21", N_("Plant {plant} cannot store {resource}."), plant=src, resource=Term(r)
            )
        if c > have[r]:
            raise IllegalAction(
                "ALT-21",
                N_("Plant {plant} holds only {have} {resource}."),
                plant=src,
                have=have[r],
                resource=Term(r),
            )
        if not accepts(dst, r):
            raise IllegalAction(
                "ALT-21", N_("Plant {plant} cannot store {resource}."), plant=dst, resource=Term(r)
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
            "ALT-21",
            N_("The transfer costs {fee} E; you have {money} E."),
            fee=fee,
            money=money,
            secret=state["hidden_money"],
        )
    return src, dst, dict(tokens), fee


def _move(state: State, player: str, action: Action, events: list[Event]) -> None:
    src, dst, tokens, fee = move_check(state, player, action)
    state["players"][player]["money"] -= fee
    for r, c in tokens.items():
        state["built"][str(src)]["res"][r] -= c
        state["built"][str(dst)]["res"][r] += c
    emit(
        plain(state),
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


def _hanging_lines_at(state: State, player: str, node: str) -> list[AltLine]:
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
            "ALT-12",
            N_("The line costs {cost} E; you have {money} E."),
            cost=cost,
            money=money,
            secret=state["hidden_money"],
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
        plain(state),
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
        base.remove_too_low(plain(state), events)


def _tp(state: State, player: str, action: Action, events: list[Event]) -> None:
    node = node_of(state, action.get("city"))
    # what the city allows first: a TP splits the line it sits on, so a second /tp there
    # found no line passing through and asked for one (found playing, 2026-12-02)
    tp_check(state, player, node)
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
    money = state["players"][player]["money"]
    if money < TP_COST:
        raise IllegalAction(
            "ALT-24",
            N_("A TP costs {cost} E; you have {money} E."),
            cost=TP_COST,
            money=money,
            secret=state["hidden_money"],
        )
    state["players"][player]["money"] -= TP_COST
    _place_tp(state, player, node)
    state["activity"] = True
    emit(plain(state), events, "tp_placed", player=player, city=node, cost=TP_COST)
    base.remove_too_low(plain(state), events)


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
        tail: Line = {
            "id": state["next_line"],
            "owner": player,
            "nodes": line["nodes"][i:],
            "segs": line["segs"][i:],
        }
        state["next_line"] += 1
        line["nodes"] = line["nodes"][: i + 1]
        line["segs"] = line["segs"][:i]
        state["lines"].append(tail)
