"""Phase 4: building (PG-35..PG-41) and the play area (PG-8)."""

from __future__ import annotations

import pytest

from engine.powergrid import GAME
from engine.powergrid.data import game_map
from engine.powergrid.rules import build_options
from tests.engine.powergrid.helpers import (
    act,
    all_regions,
    give,
    illegal,
    new_game,
    set_market,
    set_phase,
    types,
)


def phase4(n: int = 3, step: int = 1) -> dict:
    s = all_regions(new_game(n, 1))
    set_phase(s, "build", order=["a", "b", "c", "d"][:n])
    s["step"] = step
    return s


def test_pg35_reverse_order_and_building_is_optional() -> None:
    s = phase4()
    assert GAME.current_players(s) == ["c"]
    act(s, "c", type="done")
    assert GAME.current_players(s) == ["b"]


def test_pg36_first_city_anywhere_for_the_slot_price() -> None:
    s = phase4()
    events = act(s, "c", type="build", city="Passau")
    assert events[0]["cost"] == 10 and s["players"]["c"]["money"] == 40


def test_pg37_cheapest_route_through_any_city() -> None:
    s = phase4()
    give(s, "c", cities=["Flensburg"])
    give(s, "a", cities=["Kiel"])  # passing through another player's city is free
    events = act(s, "c", type="build", city="Hamburg")
    assert events[0]["cost"] == 4 + 8 + 10


def test_pg37_cannot_build_without_the_money() -> None:
    s = phase4()
    give(s, "c", cities=["Flensburg"], money=21)
    err = illegal(s, "c", "PG-37", type="build", city="Hamburg")
    assert "22 E" in err.english()


def test_pg38_slots_open_by_step_and_one_house_per_player() -> None:
    s = phase4(step=1)
    give(s, "a", cities=["Berlin"])
    illegal(s, "c", "PG-38", type="build", city="Berlin")
    s["step"] = 2
    events = act(s, "c", type="build", city="Berlin")
    assert events[0]["cost"] == 15
    illegal(s, "c", "PG-38", type="build", city="Berlin")  # own house there
    illegal(s, "b", "PG-15", type="build", city="Berlin")  # not b's turn


def test_pg38_third_house_costs_twenty_in_step_3() -> None:
    s = phase4(step=3)
    give(s, "a", cities=["Berlin"])
    give(s, "b", cities=["Berlin"])
    events = act(s, "c", type="build", city="Berlin")
    assert events[0]["cost"] == 20


def test_pg39_each_house_raises_the_city_count() -> None:
    s = phase4()
    act(s, "c", type="build", city="Kiel")
    act(s, "c", type="build", city="Flensburg")
    assert GAME.view(s, None)["players"]["c"]["cities"] == ["Kiel", "Flensburg"]
    assert GAME.view(s, None)["players"]["c"]["houses_left"] == 20


def test_pg40_market_plants_at_or_below_the_city_count_leave_at_once() -> None:
    s = phase4()
    set_market(s, [3, 4, 5, 6, 7, 8, 9, 10], [2 + 9, 12, 14, 15, 16])
    give(s, "c", cities=["Kiel", "Flensburg"], money=500)
    events = act(s, "c", type="build", city="Hamburg")
    assert [e["plant"] for e in events if e["type"] == "plant_removed"] == [3]
    assert s["market"] == [4, 5, 6, 7, 8, 9, 10, 11]


def test_pg41_no_limit_on_connections_used_at_a_city() -> None:
    s = phase4()
    give(s, "c", cities=["Kassel"], money=500)
    for city in ("Dortmund", "Erfurt", "Fulda", "Hannover", "Osnabrück", "Frankfurt-Main"):
        act(s, "c", type="build", city=city)
    assert len(s["players"]["c"]["cities"]) == 7


def test_pg8_only_cities_in_play_and_no_route_through_other_regions() -> None:
    s = new_game(3, 1)
    set_phase(s, "build", order=["a", "b", "c"])
    s["regions"] = ["NE", "NW", "E"]
    illegal(s, "c", "PG-8", type="build", city="Köln")
    illegal(s, "c", "PG-1", type="build", city="Atlantis")
    give(s, "c", cities=["Bremen"])
    # Bremen -> Osnabrück (W) -> ... is closed; Bremen-Hannover 10 is the only way on
    cost = dict(build_options(s, "c"))
    assert cost["Hannover"] == 10 + 10
    assert "Osnabrück" not in cost
    # Kassel (W) is out of play, so Hannover-Erfurt 19 is the way into E
    assert cost["Erfurt"] == 10 + 19 + 10


@pytest.mark.parametrize("map_id", ["germany", "usa"])
def test_pg37_build_options_match_a_brute_force_shortest_path(map_id: str) -> None:
    from engine.core import Rng
    from engine.core.rng import new_rng_state

    gm = game_map(map_id)
    rng = Rng(new_rng_state(99))
    for trial in range(30):
        s = new_game(4, trial, map=map_id)
        set_phase(s, "build", order=["a", "b", "c", "d"])
        play = [c for c in gm.cities if gm.city_region[gm.index[c]] in s["regions"]]
        owned = [play[rng.below(len(play))] for _ in range(1 + rng.below(4))]
        owned = list(dict.fromkeys(owned))
        give(s, "d", cities=owned)
        got = dict(build_options(s, "d"))
        for target in play:
            if target in owned:
                continue
            want = min(_dijkstra(gm, s["regions"], o, target) for o in owned)
            assert got[target] == want + 10, (owned, target)


def _dijkstra(gm: object, regions: list[str], source: str, target: str) -> int:
    """Brute force: Bellman-Ford style relaxation over the raw connection list."""
    raw = gm.raw  # type: ignore[attr-defined]
    region = {c["name"]: c["region"] for c in raw["cities"]}
    dist = {c["name"]: 10**9 for c in raw["cities"] if region[c["name"]] in regions}
    dist[source] = 0
    for _ in range(len(dist)):
        for a, b, cost in raw["connections"]:
            if a in dist and b in dist:
                dist[b] = min(dist[b], dist[a] + cost)
                dist[a] = min(dist[a], dist[b] + cost)
    return dist[target]


def test_pg37_houses_built_earlier_in_the_turn_count_for_later_cities() -> None:
    s = phase4()
    give(s, "c", cities=["Flensburg"], money=500)
    act(s, "c", type="build", city="Hamburg")  # 12 + 10
    events = act(s, "c", type="build", city="Bremen")  # from Hamburg 11
    assert events[0]["cost"] == 21 and "city_built" in types(events)


def test_pg37_cheapest_city_agrees_with_the_sorted_build_options() -> None:
    from engine.powergrid.rules import cheapest_city

    for seed in range(20):
        s = new_game(4, seed)
        set_phase(s, "build", order=["a", "b", "c", "d"])
        s["step"] = 1 + seed % 3
        gm = game_map("germany")
        play = [c for c in gm.cities if gm.city_region[gm.index[c]] in s["regions"]]
        give(s, "a", cities=play[seed % 5 : seed % 5 + 2])
        give(s, "b", cities=play[3:6])
        options = build_options(s, "a")
        best = cheapest_city(s, "a")
        assert best is not None and best[1] == options[0][1]
