"""The map as the variant sees it: double cities merged into one node (ALT-46), segments
identified by the printed connection, MSE (ALT-37) and transport distance (ALT-D-8).

A node is named after the first city of its pair in the map file ("Duisburg" stands for
Duisburg + Essen); `label` gives "Duisburg/Essen" for texts. A segment is one printed
connection, keyed "A|B" with the two original city names sorted, so two connections from
one city to both halves of a double city stay two segments with separate owners (ALT-22).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from engine.powergrid.data import game_map
from engine.powergrid.network import INF, network


@dataclass(frozen=True)
class Segment:
    key: str
    a: str  # node names
    b: str
    cost: int

    def other(self, node: str) -> str:
        return self.b if node == self.a else self.a


@dataclass(frozen=True)
class AltMap:
    map_id: str
    nodes: tuple[str, ...]  # every node of the map, in map-file order
    alias: dict[str, str]  # every original city name -> its node
    members: dict[str, tuple[str, ...]]  # node -> its original cities (2 for a double city)
    region: dict[str, str]  # node -> region (ALT-46: a pair lies in one region on both maps)
    segments: dict[str, Segment]
    incident: dict[str, tuple[Segment, ...]]  # node -> its segments

    def label(self, node: str) -> str:
        return "/".join(self.members[node])

    def is_double(self, node: str) -> bool:
        return len(self.members[node]) == 2


@cache
def alt_map(map_id: str) -> AltMap:
    gm = game_map(map_id)
    raw = gm.raw
    alias = {c: c for c in gm.cities}
    for a, b, cost in raw["connections"]:
        if cost == 0:  # ALT-D-24: a double city is a pair joined by a cost-0 connection
            alias[b] = alias[a]
    nodes = tuple(c for c in gm.cities if alias[c] == c)
    members = {n: (n, *(c for c in gm.cities if alias[c] == n and c != n)) for n in nodes}
    region = {n: gm.city_region[gm.index[n]] for n in nodes}
    segments: dict[str, Segment] = {}
    incident: dict[str, list[Segment]] = {n: [] for n in nodes}
    for a, b, cost in raw["connections"]:
        na, nb = alias[a], alias[b]
        if na == nb:
            continue  # the internal connection of a double city is not a segment
        key = "|".join(sorted((a, b)))
        seg = Segment(key, na, nb, int(cost))
        segments[key] = seg
        incident[na].append(seg)
        incident[nb].append(seg)
    return AltMap(
        map_id=map_id,
        nodes=nodes,
        alias=alias,
        members=members,
        region=region,
        segments=segments,
        incident={n: tuple(s) for n, s in incident.items()},
    )


def nodes_in_play(map_id: str, regions: list[str]) -> list[str]:
    am = alt_map(map_id)
    chosen = set(regions)
    return [n for n in am.nodes if am.region[n] in chosen]


def mse2(map_id: str, regions: list[str], node: str) -> int:
    """ALT-37 / ALT-D-13: twice the MSE of `node` = the highest printed cost of its segments
    whose other end is in the play area (both halves of a double city, internal one excluded).
    """
    return _mse2_table(map_id, tuple(regions))[node]


@lru_cache(maxsize=64)
def _mse2_table(map_id: str, regions: tuple[str, ...]) -> dict[str, int]:
    """`mse2` of every node of the map for one play area (a game asks it again and again)."""
    am = alt_map(map_id)
    chosen = set(regions)
    return {
        node: max(
            (s.cost for s in am.incident[node] if am.region[s.other(node)] in chosen), default=0
        )
        for node in am.nodes
    }


def distance(map_id: str, regions: list[str], a: str, b: str) -> int:
    """ALT-D-8: the cheapest printed route cost between two nodes inside the play area,
    whoever owns the connections (INF when there is none)."""
    nw = network(map_id, tuple(sorted(regions)))
    return int(nw.dist[nw.index[a]][nw.index[b]])


__all__ = ["INF", "AltMap", "Segment", "alt_map", "distance", "mse2", "nodes_in_play"]
