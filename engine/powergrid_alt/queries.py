"""Small read-only queries of the variant's state: nodes, plants, pollution, lines, storage.

Shared by the rules (rules.py), the end checks (ending.py), quotes and bots; rules.py
re-exports every name, so `rules.covered` and `queries.covered` are the same function.
"""

from __future__ import annotations

from typing import Any

from engine.core import N_, IllegalAction
from engine.powergrid.data import PLANTS, RESOURCES
from engine.powergrid_alt.graph import alt_map, distance, nodes_in_play
from engine.powergrid_alt.state_types import AltLine, AltState

State = AltState  # the TypedDict, or the plain dict (state_types.py)

POLLUTION_LIMIT = 5  # ALT-18
DIRTY = ("coal", "oil", "garbage", "hybrid")  # ALT-17
NUCLEAR = "uranium"  # ALT-19 (ALT-D-6: fusion is not nuclear)


def play_nodes(state: State) -> list[str]:
    return nodes_in_play(state["map"], state["regions"])


def node_of(state: State, city: Any) -> str:
    """A node name from any city name (either half of a double city), or raise ALT-1."""
    am = alt_map(state["map"])
    node = am.alias.get(city) if isinstance(city, str) else None
    if node is None:
        raise IllegalAction("PG-1", N_("There is no city called {city}."), city=str(city))
    if am.region[node] not in state["regions"]:
        raise IllegalAction("PG-8", N_("{city} is outside the regions in play."), city=city)
    return node


def plants_in(state: State, node: str) -> list[int]:
    return sorted(int(n) for n, b in state["built"].items() if b["city"] == node)


def plant_slots(state: State, node: str) -> int:
    """ALT-46: a double city takes up to two plants; any other city one."""
    return 2 if alt_map(state["map"]).is_double(node) else 1


def hand(state: State, player: str) -> list[int]:
    built = state["built"]
    return [n for n in state["players"][player]["plants"] if str(n) not in built]


def built_plants(state: State, player: str) -> list[int]:
    return sorted(int(n) for n, b in state["built"].items() if b["owner"] == player)


def holds(state: State, player: str, node: str) -> bool:
    """The player has a built plant or a TP in `node` (ALT-23)."""
    return node in state["players"][player]["cities"]


def pollution(state: State, region: str) -> int:
    """ALT-18: the sum of R of the built dirty plants in the region."""
    am = alt_map(state["map"])
    return sum(
        PLANTS[int(n)].cost
        for n, b in state["built"].items()
        if am.region[b["city"]] == region and PLANTS[int(n)].type in DIRTY
    )


def nuclear_count(state: State, region: str) -> int:
    am = alt_map(state["map"])
    return sum(
        1
        for n, b in state["built"].items()
        if am.region[b["city"]] == region and PLANTS[int(n)].type == NUCLEAR
    )


def plant_pollution(number: int) -> int:
    plant = PLANTS[number]
    return plant.cost if plant.type in DIRTY else 0


def owned_segments(state: State) -> dict[str, str]:
    """ALT-22: segment key -> its owner."""
    return {seg: line["owner"] for line in state["lines"] for seg in line["segs"]}


def is_hanging_at(state: State, line: AltLine, node: str) -> bool:
    return node in (line["nodes"][0], line["nodes"][-1]) and not holds(state, line["owner"], node)


def line_starts(state: State, player: str) -> list[str]:
    """Where a new line of the player may start (ALT-22, ALT-28): his cities (a built plant or
    a TP, in his order), then the ends of his hanging lines, sorted. The two never meet: an
    end hangs where its owner holds nothing."""
    ends = {
        end
        for line in state["lines"]
        if line["owner"] == player
        for end in (line["nodes"][0], line["nodes"][-1])
        if is_hanging_at(state, line, end)
    }
    return list(state["players"][player]["cities"]) + sorted(ends)


def is_hanging(state: State, line: AltLine) -> bool:
    owner = line["owner"]
    return not (holds(state, owner, line["nodes"][0]) and holds(state, owner, line["nodes"][-1]))


def line_cost(state: State, line: AltLine) -> int:
    segs = alt_map(state["map"]).segments
    return sum(segs[k].cost for k in line["segs"])


def covered(state: State, node: str) -> bool:
    return bool(state["tps"].get(node)) or any(b["city"] == node for b in state["built"].values())


def uncovered(state: State) -> list[str]:
    """The nodes in play (in map order) holding neither a plant nor a TP (ALT-43/44): those
    `covered` refuses, the plants looked up once for all nodes."""
    tps = state["tps"]
    planted = {b["city"] for b in state["built"].values()}
    return [n for n in play_nodes(state) if not tps.get(n) and n not in planted]


def storage(number: int) -> int:
    """PG-33: a plant stores twice its need (0 for eco and fusion)."""
    plant = PLANTS[number]
    return 2 * plant.cost if plant.type in (*RESOURCES, "hybrid") else 0


def accepts(number: int, resource: str) -> bool:
    kind = PLANTS[number].type
    return kind == resource or (kind == "hybrid" and resource in ("coal", "oil"))


def room_on(state: State, number: int, resource: str) -> int:
    """How many more tokens of `resource` fit on built plant `number` (ALT-10)."""
    if not accepts(number, resource):
        return 0
    res = state["built"][str(number)]["res"]
    if PLANTS[number].type == "hybrid":
        return storage(number) - res["coal"] - res["oil"]
    return storage(number) - res[resource]


def tokens_held(state: State) -> dict[str, int]:
    total = {r: 0 for r in RESOURCES}
    for b in state["built"].values():
        for r in RESOURCES:
            total[r] += b["res"][r]
    return total


def transport_fee(state: State, a: str, b: str) -> int:
    """ALT-21: 1 E per full or started 10 of the cheapest route cost (ALT-D-8)."""
    d = distance(state["map"], state["regions"], a, b)
    return -(-d // 10)


def pollution_check(state: State, node: str, new: int, old: int | None) -> None:
    """ALT-18/ALT-19 after putting plant `new` in `node` (replacing `old` if given)."""
    region = alt_map(state["map"]).region[node]
    level = pollution(state, region) + plant_pollution(new)
    if old is not None:
        level -= plant_pollution(old)
    if level > POLLUTION_LIMIT:
        raise IllegalAction(
            "ALT-18",
            N_("Plant {plant} would raise region {region}'s pollution to {level} (limit 5)."),
            plant=new,
            region=region,
            level=level,
        )
    becomes_nuclear = PLANTS[new].type == NUCLEAR and (old is None or PLANTS[old].type != NUCLEAR)
    if becomes_nuclear and nuclear_count(state, region):
        raise IllegalAction(
            "ALT-19",
            N_("Region {region} already has a nuclear plant."),
            region=region,
            plant=new,
        )
