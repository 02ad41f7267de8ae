"""Phase 4 geometry: cheapest connection costs between cities in play (PG-8, PG-37).

For each (map, set of regions in play) we compute, once, the all-pairs shortest-path
matrix restricted to cities in play (PG-8: connections to or through cities outside the
chosen regions cannot be used), plus a next-hop matrix for itemised routes. A build
quote is then a minimum over the player's cities of one matrix row: O(houses) per city.
"""

from __future__ import annotations

from functools import cache

from engine.powergrid.data import game_map

INF = 10**9
# Entries kept by the `Network.reach` memo before it is cleared (a few games' worth, ~4 MB).
REACH_MEMO = 4096


class Network:
    """Shortest paths among the cities in play of one map and region set."""

    __slots__ = ("cities", "dist", "in_play", "index", "next_hop", "play")

    def __init__(self, map_id: str, regions: tuple[str, ...]) -> None:
        gm = game_map(map_id)
        n = len(gm.cities)
        chosen = set(regions)
        in_play = [gm.city_region[i] in chosen for i in range(n)]
        dist = [[INF] * n for _ in range(n)]
        nxt = [[-1] * n for _ in range(n)]
        for i in range(n):
            if not in_play[i]:
                continue
            dist[i][i] = 0
            nxt[i][i] = i
            for j, cost in gm.edges[i]:
                if in_play[j] and cost < dist[i][j]:
                    dist[i][j] = cost
                    nxt[i][j] = j
        # Floyd-Warshall over the cities in play, done once per region set and cached: a
        # city out of play has no route to or from any city (its row and column stay INF).
        play = [i for i in range(n) if in_play[i]]
        for k in play:
            dk = dist[k]
            for i in play:
                di = dist[i]
                dik = di[k]
                if dik >= INF:
                    continue
                ni = nxt[i]
                nik = ni[k]
                for j in play:
                    alt = dik + dk[j]
                    if alt < di[j]:
                        di[j] = alt
                        ni[j] = nik
        self.cities = gm.cities
        self.index = gm.index
        self.in_play = in_play
        self.play = play
        self.dist = dist
        self.next_hop = nxt

    def connection_cost(self, owned: list[int], target: int) -> int:
        """PG-36/37: 0 for a first city, else the cheapest route from any owned city."""
        if not owned:
            return 0
        best = INF
        for o in owned:
            d = self.dist[o][target]
            if d < best:
                best = d
        return best

    def min_costs(self, owned: list[int]) -> list[int]:
        """For every city, the cheapest connection cost from any of `owned` (PG-37)."""
        if not owned:
            return [0] * len(self.cities)
        if len(owned) == 1:
            return self.dist[owned[0]]
        dist = self.dist
        best = dist[owned[0]]
        for o in owned[1:]:
            best = [a if a < b else b for a, b in zip(best, dist[o])]
        return best

    def reach(self, owned: tuple[str, ...]) -> tuple[list[int], list[tuple[int, int, str]]]:
        """`min_costs` of the named cities, and the other cities in play as (cost, index,
        name), cheapest first (ties by index).

        Memoised (one bounded memo for all networks): a player's network only grows, so
        the usual miss extends the entry of the same cities minus the last one built by
        one row (O(cities)), and re-sorts only the cities that the new one brings closer.
        The result lists are shared and must not be mutated.
        """
        hit = _REACH.get((self, owned))
        if hit is not None:
            return hit
        if len(owned) > 1:
            prev = _REACH.get((self, owned[:-1]))
            if prev is not None:
                hit = self._extend(prev, self.index[owned[-1]])
                if len(_REACH) >= REACH_MEMO:
                    _REACH.clear()
                _REACH[self, owned] = hit
                return hit
        if not owned:
            costs = [0] * len(self.cities)  # PG-36: a first city has no connection cost
        elif len(owned) == 1:
            costs = list(self.dist[self.index[owned[0]]])
        else:
            costs = self.min_costs([self.index[c] for c in owned])
        # The player's own cities are left out: he can never build there again (PG-38).
        mine = {self.index[c] for c in owned}
        names = self.cities
        by_cost = sorted([(costs[i], i, names[i]) for i in self.play if i not in mine])
        if len(_REACH) >= REACH_MEMO:
            _REACH.clear()
        hit = _REACH[self, owned] = (costs, by_cost)
        return hit

    def walk(self, owned: tuple[str, ...]) -> list[tuple[int, int, str]]:
        """The second part of `reach` alone: the other cities in play as (cost, index, name),
        cheapest first. Its own memo, extended as `reach`'s is, without the costs of every
        city (the walk is what legal moves and the bots read on every Phase 4 decision; a
        house's own cost is `connection_cost`). Shared: must not be mutated."""
        hit = _WALK.get((self, owned))
        if hit is not None:
            return hit
        prev = _WALK.get((self, owned[:-1])) if len(owned) > 1 else None
        if prev is not None:
            hit = self._extend_walk(prev, self.index[owned[-1]])
        else:
            hit = self.reach(owned)[1]
        if len(_WALK) >= REACH_MEMO:
            _WALK.clear()
        _WALK[self, owned] = hit
        return hit

    def _extend(
        self, prev: tuple[list[int], list[tuple[int, int, str]]], new: int
    ) -> tuple[list[int], list[tuple[int, int, str]]]:
        """`reach` of some cities plus city `new`, from `reach` of those cities (`prev`):
        the costs are the smaller of the old cost and the new city's row, the walk is
        `_extend_walk`'s."""
        old_costs, old_walk = prev
        row = self.dist[new]
        costs = [a if a < b else b for a, b in zip(old_costs, row)]
        return costs, self._extend_walk(old_walk, new)

    def _extend_walk(
        self, old_walk: list[tuple[int, int, str]], new: int
    ) -> list[tuple[int, int, str]]:
        """The walk by cost of some cities plus city `new`, from their walk: the new city
        goes, the cities it brings closer are re-sorted and merged back (the same list as
        sorting every city again: (cost, index) orders it, indices unique)."""
        row = self.dist[new]
        kept: list[tuple[int, int, str]] = []
        closer: list[tuple[int, int, str]] = []
        for entry in old_walk:
            i = entry[1]
            d = row[i]
            if d < entry[0]:
                if i != new:
                    closer.append((d, i, entry[2]))
            elif i != new:
                kept.append(entry)
        if closer:
            closer.sort()
            kept += closer
            kept.sort()  # two sorted runs: one merge
        return kept

    def path(self, source: int, target: int) -> list[int]:
        """The city indices of one cheapest route, source first (empty if unreachable)."""
        if self.next_hop[source][target] < 0:
            return []
        route = [source]
        while source != target:
            source = self.next_hop[source][target]
            route.append(source)
        return route


# `Network.reach` memo: (network, owned city names) -> (costs, other cities by cost).
_REACH: dict[tuple[Network, tuple[str, ...]], tuple[list[int], list[tuple[int, int, str]]]] = {}
# `Network.walk` memo: (network, owned city names) -> other cities by cost.
_WALK: dict[tuple[Network, tuple[str, ...]], list[tuple[int, int, str]]] = {}


@cache
def network(map_id: str, regions: tuple[str, ...]) -> Network:
    """The cached network for a region set (`regions` sorted, so equal sets share one)."""
    return Network(map_id, tuple(sorted(regions)))
