"""Phase 5 (PG-42..PG-44), Phase 1 at the next round (PG-15, PG-16, PG-18, PG-19)."""

from __future__ import annotations

from engine.powergrid import GAME
from engine.powergrid.data import STEP3
from tests.engine.powergrid.helpers import (
    act,
    give,
    illegal,
    new_game,
    set_market,
    set_phase,
    tokens_conserved,
    types,
)


def phase5(n: int = 3) -> dict:
    s = new_game(n, 1)
    return set_phase(s, "bureaucracy", order=["a", "b", "c", "d"][:n])


def others_power_nothing(s: dict, *done: str) -> list[dict]:
    """Phase 5 is declared simultaneously: the others declare "none"; the events of the
    resolution (every player's PG-42 in player order) come with the last declaration."""
    events: list[dict] = []
    for p in list(GAME.current_players(s)):
        if p not in done:
            events = act(s, p, type="power", plants=[])
    return events


def powered_of(events: list[dict], player: str) -> dict:
    return next(e for e in events if e["type"] == "powered" and e["player"] == player)


def test_pg15_bureaucracy_is_declared_at_once_and_resolved_in_player_order() -> None:
    # PG-15 allows Phase 5 simultaneously with an identical result: everybody who has not
    # declared is asked at once; nothing is paid until the last declaration.
    s = phase5()
    assert GAME.current_players(s) == ["a", "b", "c"]
    money = {p: s["players"][p]["money"] for p in "abc"}
    assert types(act(s, "c", type="power", plants=[])) == ["power_declared"]
    assert GAME.current_players(s) == ["a", "b"]
    illegal(s, "c", "PG-15", type="power", plants=[])  # declared once only
    act(s, "a", type="power", plants=[])
    assert {p: s["players"][p]["money"] for p in "abc"} == money
    events = act(s, "b", type="power", plants=[])
    assert [e["player"] for e in events if e["type"] == "powered"] == ["a", "b", "c"]


def test_pg42_running_plants_burns_fuel_back_to_the_supply_and_pays() -> None:
    s = phase5()
    give(s, "a", plants=[10, 13], res={"coal": 3}, cities=["Kiel", "Hamburg", "Bremen", "Berlin"])
    supply = s["supply"]["coal"] + s["rm"]["coal"]  # the restock follows at once
    act(s, "a", type="power", plants=[10, 13])
    ev = powered_of(others_power_nothing(s, "a"), "a")
    assert ev["cities"] == 3 and ev["income"] == 44
    assert s["players"]["a"]["res"]["coal"] == 1
    assert s["supply"]["coal"] + s["rm"]["coal"] == supply + 2
    assert s["players"]["a"]["money"] == 94 and tokens_conserved(s)


def test_pg42_hybrid_mix_is_chosen_or_coal_first() -> None:
    s = phase5()
    give(s, "a", plants=[5], res={"coal": 1, "oil": 3}, cities=["Kiel"])
    give(s, "b", plants=[12], res={"coal": 1, "oil": 3}, cities=["Bremen"])
    illegal(s, "a", "PG-42", type="power", plants=[5], coal=2, oil=0)  # only 1 coal
    illegal(s, "a", "PG-42", type="power", plants=[5], coal=1, oil=2)  # R = 2
    act(s, "a", type="power", plants=[5], oil=2)
    act(s, "b", type="power", plants=[12])  # default: coal first -> 1 coal + 1 oil
    others_power_nothing(s)
    assert s["players"]["a"]["res"] == {"coal": 1, "oil": 1, "garbage": 0, "uranium": 0}
    assert s["players"]["b"]["res"]["coal"] == 0 and s["players"]["b"]["res"]["oil"] == 2


def test_pg42_only_own_plants_with_enough_fuel_and_may_run_fewer() -> None:
    s = phase5()
    give(s, "a", plants=[4, 13], res={"coal": 1}, cities=["Kiel", "Hamburg"])
    illegal(s, "a", "PG-42", type="power", plants=[7])
    illegal(s, "a", "PG-42", type="power", plants=[4])
    illegal(s, "a", "PG-42", type="power", plants=[13, 13])
    act(s, "a", type="power", plants=[])  # may run fewer (even none)
    assert powered_of(others_power_nothing(s, "a"), "a")["income"] == 10


def test_pg44_step1_highest_plant_goes_under_the_deck() -> None:
    s = phase5()
    set_market(s, [3, 4, 5, 6, 7, 8, 9, 10], [20, 21, STEP3])
    for p in ("a", "b", "c"):
        events = act(s, p, type="power", plants=[])
    assert s["deck"] == [21, STEP3, 10] and s["market"] == [3, 4, 5, 6, 7, 8, 9, 20]
    assert "market_restocked" in types(events)


def test_pg44_step3_lowest_plant_leaves_the_game() -> None:
    s = phase5()
    s["step"] = 3
    set_market(s, [13, 15, 18, 20, 22, 25], [30, 31])
    for p in ("a", "b", "c"):
        act(s, p, type="power", plants=[])
    assert s["market"] == [15, 18, 20, 22, 25, 30] and s["deck"] == [31]


def test_pg16_next_round_order_by_cities_then_highest_plant() -> None:
    s = phase5()
    give(s, "a", plants=[5], cities=["Kiel"])
    give(s, "b", plants=[20], cities=["Hamburg", "Bremen"])
    give(s, "c", plants=[25], cities=["Berlin"])
    for p in ("a", "b", "c"):
        act(s, p, type="power", plants=[])
    assert s["order"] == ["b", "c", "a"] and s["round"] == 3 and s["phase"] == "auction"


def test_pg18_unbreakable_ties_keep_the_previous_order() -> None:
    s = phase5()
    s["order"] = ["c", "a", "b"]
    for p in ("c", "a", "b"):
        act(s, p, type="power", plants=[])
    assert s["order"] == ["c", "a", "b"]


def test_pg19_phase_1_changes_nothing_in_the_plant_market() -> None:
    s = phase5()
    for p in ("a", "b", "c"):
        events = act(s, p, type="power", plants=[])
    start = types(events).index("round_started")
    after = types(events)[start:]
    assert not {"plant_removed", "plant_drawn"} & set(after)


def test_pg14_a_round_runs_its_five_phases_in_order() -> None:
    s = new_game(2, 7)
    seen: list[str] = []
    while s["round"] == 1:
        if not seen or seen[-1] != s["phase"]:
            seen.append(s["phase"])
        p = GAME.current_players(s)[0]
        if s["phase"] == "auction":
            action = GAME.legal_actions(s, p)[-1]
        elif s["phase"] == "bureaucracy":
            action = {"type": "power", "plants": []}
        else:
            action = {"type": "done"}
        act(s, p, **action)
    assert seen == ["auction", "resources", "build", "bureaucracy"]
    assert s["phase"] == "auction" and s["round"] == 2  # Phase 1 ran between rounds
