"""Game data (PG-1..PG-6, PG-11) against the rules and the data sheet."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from engine.powergrid.data import (
    CAPACITY,
    PAYMENT,
    PLANTS,
    SLOT_PRICE_LISTS,
    game_map,
    income_for,
    initial_market_counts,
    player_count,
    restock_amounts,
)

GERMANY_ADJACENCY = {
    frozenset(p)
    for p in [
        ("NW", "NE"),
        ("NW", "E"),
        ("NW", "W"),
        ("NE", "E"),
        ("E", "W"),
        ("E", "SW"),
        ("E", "SE"),
        ("W", "SW"),
        ("SW", "SE"),
    ]
}


def test_pg2_forty_two_plants_with_the_published_types() -> None:
    assert len(PLANTS) == 42
    kinds = Counter(p.type for p in PLANTS.values())
    assert kinds == {
        "coal": 9,
        "oil": 8,
        "hybrid": 5,
        "garbage": 6,
        "uranium": 6,
        "eco": 7,
        "fusion": 1,
    }
    # the disputed cards, majority values (data sheet section 1)
    assert (PLANTS[29].type, PLANTS[29].cost, PLANTS[29].output) == ("hybrid", 1, 4)
    assert (PLANTS[22].type, PLANTS[22].output) == ("eco", 2)
    assert (PLANTS[36].type, PLANTS[36].cost, PLANTS[36].output) == ("coal", 3, 7)
    assert all(p.cost == 0 for p in PLANTS.values() if p.type in ("eco", "fusion"))


def test_pg3_market_spaces_and_token_totals() -> None:
    assert CAPACITY == {"coal": 24, "oil": 24, "garbage": 24, "uranium": 12}
    assert SLOT_PRICE_LISTS["coal"][:4] == [1, 1, 1, 2]
    assert SLOT_PRICE_LISTS["uranium"] == [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16]


def test_pg4_payment_table_and_pgd1_cap() -> None:
    assert PAYMENT[0] == 10 and PAYMENT[1] == 22 and PAYMENT[17] == 142 and PAYMENT[20] == 150
    assert income_for(25) == 150
    assert all(a < b for a, b in itertools.pairwise(PAYMENT))


def test_pg5_restock_table_rows() -> None:
    assert restock_amounts(5, 2) == {"coal": 7, "oil": 5, "garbage": 3, "uranium": 3}
    assert restock_amounts(2, 1) == {"coal": 3, "oil": 2, "garbage": 1, "uranium": 1}
    assert restock_amounts(6, 3) == {"coal": 6, "oil": 7, "garbage": 6, "uranium": 3}


@pytest.mark.parametrize(
    "n,row",
    [
        (2, (3, 8, 4, 10, 21)),
        (3, (3, 8, 3, 7, 17)),
        (4, (4, 4, 3, 7, 17)),
        (5, (5, 0, 3, 7, 15)),
        (6, (5, 0, 3, 6, 14)),
    ],
)
def test_pg6_player_count_table(n: int, row: tuple[int, ...]) -> None:
    t = player_count(n)
    assert (t["regions"], t["removed"], t["max_plants"], t["step2"], t["end"]) == row


def test_pg11_initial_market_counts() -> None:
    assert initial_market_counts() == {"coal": 24, "oil": 18, "garbage": 6, "uranium": 2}


@pytest.mark.parametrize("map_id,edges", [("germany", 83), ("usa", 87)])
def test_pg1_maps_have_42_cities_in_6_regions_and_all_connections(map_id: str, edges: int) -> None:
    gm = game_map(map_id)
    raw = gm.raw
    assert len(gm.cities) == len(set(gm.cities)) == 42
    assert len(raw["connections"]) == edges
    pairs = {frozenset((a, b)) for a, b, _ in raw["connections"]}
    assert len(pairs) == edges  # no duplicate connection
    assert all(cost >= 0 for _, _, cost in raw["connections"])
    per_region = Counter(c["region"] for c in raw["cities"])
    assert set(per_region) == set(gm.regions) and set(per_region.values()) == {7}
    for c in raw["cities"]:
        assert isinstance(c["lat"], float) and isinstance(c["lon"], float)
    # connected graph
    seen, stack = {0}, [0]
    while stack:
        for j, _ in gm.edges[stack.pop()]:
            if j not in seen:
                seen.add(j)
                stack.append(j)
    assert len(seen) == 42
    # region adjacency equals the one derived from cross-region connections
    derived = {
        frozenset((gm.city_region[gm.index[a]], gm.city_region[gm.index[b]]))
        for a, b, _ in raw["connections"]
        if gm.city_region[gm.index[a]] != gm.city_region[gm.index[b]]
    }
    assert derived == set(gm.region_adjacency)
    assert {r["id"] for r in raw["regions"]} == set(gm.regions)
    assert all(r["color"].startswith("#") and r["name"] for r in raw["regions"])


def test_pg1_germany_region_adjacency_as_in_data_sheet() -> None:
    assert set(game_map("germany").region_adjacency) == GERMANY_ADJACENCY


def test_pg1_zero_cost_connections_and_coordinates() -> None:
    g = {frozenset((a, b)): c for a, b, c in game_map("germany").raw["connections"]}
    assert g[frozenset(("Frankfurt-Main", "Wiesbaden"))] == 0
    assert g[frozenset(("Duisburg", "Essen"))] == 0
    assert g[frozenset(("Halle", "Leipzig"))] == 0
    assert g[frozenset(("Kiel", "Hamburg"))] == 8
    u = {frozenset((a, b)): c for a, b, c in game_map("usa").raw["connections"]}
    assert u[frozenset(("Savannah", "Jacksonville"))] == 0
    assert u[frozenset(("Knoxville", "Atlanta"))] == 5
    for c in game_map("germany").raw["cities"]:
        assert 47 < c["lat"] < 55.5 and 5.5 < c["lon"] < 15.5
    for c in game_map("usa").raw["cities"]:
        assert 24 < c["lat"] < 49 and -125 < c["lon"] < -70
