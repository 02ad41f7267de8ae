"""Steps (PG-45..PG-50) and the end of the game (PG-51..PG-53)."""

from __future__ import annotations

from engine.powergrid import GAME
from engine.powergrid.data import STEP3
from engine.powergrid.market import current_market
from tests.engine.powergrid.helpers import (
    act,
    all_regions,
    give,
    new_game,
    set_market,
    set_phase,
    types,
)

CITIES = ["Kiel", "Hamburg", "Bremen", "Hannover", "Cuxhaven", "Flensburg", "Lübeck"]
MORE = ["Schwerin", "Rostock", "Berlin", "Magdeburg", "Torgelow", "Frankfurt-Oder", "Halle"]
EVEN_MORE = ["Leipzig", "Dresden", "Erfurt", "Fulda"]


def end_phase(s: dict) -> list[dict]:
    """Let every player finish the current turn phase; return the last events."""
    phase = s["phase"]
    events: list[dict] = []
    while s["phase"] == phase:
        p = GAME.current_players(s)[0]
        action = {"type": "power", "plants": []} if phase == "bureaucracy" else {"type": "done"}
        events = act(s, p, **action)
    return events


def build_phase(n: int = 3, step: int = 1) -> dict:
    s = all_regions(new_game(n, 1))
    set_phase(s, "build", order=["a", "b", "c", "d"][:n])
    s["step"] = step
    return s


def test_pg45_the_game_starts_in_step_1() -> None:
    assert new_game(4)["step"] == 1 and GAME.view(new_game(4), None)["slots_open"] == 1


def test_pg46_step2_removes_the_lowest_plant_once_and_opens_second_slots() -> None:
    s = build_phase()
    set_market(s, [13, 14, 15, 16, 17, 18, 19, 20], [21, 22, 23, STEP3])
    give(s, "a", cities=CITIES)  # 7 = the 3-player threshold
    events = end_phase(s)
    assert s["step"] == 2 and s["phase"] == "bureaucracy"
    removed = [e for e in events if e["type"] == "plant_removed"]
    assert [(e["plant"], e["rule"]) for e in removed] == [(13, "PG-46")]
    assert s["market"] == [14, 15, 16, 17, 18, 19, 20, 21]
    # Phase 5 restock of this round already uses the Step 2 row (3p: 5/3/2/1)
    s["rm"]["coal"], s["supply"]["coal"] = 0, 24
    end_phase(s)
    assert s["rm"]["coal"] == 5
    # once per game: the next Phase 4 end removes nothing more
    set_phase(s, "build", order=["a", "b", "c"])
    events = end_phase(s)
    assert "PG-46" not in [e.get("rule") for e in events]


def test_pg46a_game_end_is_checked_before_step2() -> None:
    s = build_phase()
    give(s, "a", cities=CITIES + MORE + EVEN_MORE[:3])  # 17 = end for 3 players
    events = end_phase(s)
    assert s["phase"] == "over" and s["step"] == 1
    assert "step_started" not in types(events)


def test_pg47_card_drawn_in_phase4_is_resolved_at_its_end_and_step3_begins_with_phase5() -> None:
    s = build_phase(step=2)
    set_market(s, [3, 4, 5, 6, 7, 8, 9, 10], [STEP3, 30, 31, 32])
    give(s, "c", cities=["Kiel", "Flensburg"], money=100)
    events = act(s, "c", type="build", city="Hamburg")  # 3 cities: plant 3 leaves (PG-40)
    assert "step3_card_drawn" in types(events) and s["step3_drawn"]
    assert s["market"][-1] == STEP3 and s["step"] == 2  # Phase 4 goes on
    events = end_phase(s)
    assert s["step"] == 3 and s["phase"] == "bureaucracy"
    assert s["market"] == [5, 6, 7, 8, 9, 10]  # card and lowest (4) gone, no replacement
    assert sorted(s["deck"]) == [30, 31, 32]
    assert len(current_market(s)) == 6


def test_pg47_card_drawn_by_the_phase5_update_is_resolved_at_once() -> None:
    s = new_game(3, 1)
    set_phase(s, "bureaucracy", order=["a", "b", "c"])
    s["step"] = 2
    set_market(s, [11, 12, 14, 15, 16, 17, 18, 19], [STEP3, 40, 42])
    events = end_phase(s)
    assert s["step"] == 3 and s["round"] == 3
    # 19 under the deck, card drawn, card + 11 removed; 6 plants remain
    assert s["market"] == [12, 14, 15, 16, 17, 18]
    assert sorted(s["deck"]) == [19, 40, 42]
    assert types(events).index("step3_card_drawn") < types(events).index("round_started")


def test_pgd23_card_revealed_by_the_step2_draw() -> None:
    s = build_phase()
    set_market(s, [13, 14, 15, 16, 17, 18, 19, 20], [STEP3, 40, 42])
    give(s, "a", cities=CITIES)
    end_phase(s)  # -> Step 2, removes 13, draws the card, resolves it: 14 leaves too
    assert s["step"] == 2 and s["step3_pending"] and s["market"] == [15, 16, 17, 18, 19, 20]
    assert len(current_market(s)) == 6  # 6 plants, all current, at once
    s["rm"]["coal"], s["supply"]["coal"] = 0, 24
    end_phase(s)
    assert s["rm"]["coal"] == 5  # Step 2 row (3 players) in this Phase 5
    assert s["step"] == 3 and not s["step3_pending"]
    # PG-44 used the Step 3 form: 15 left the game, a replacement was drawn
    assert 15 not in s["market"] and 15 not in s["deck"] and len(s["market"]) == 6


def test_pg47_card_revealed_by_the_pg29_draw_is_resolved_at_once() -> None:
    s = new_game(3, 1)
    set_phase(s, "auction", order=["a", "b", "c"])
    set_market(s, [3, 4, 5, 6, 7, 8, 9, 10], [STEP3, 30])
    for p in ("a", "b", "c"):
        act(s, p, type="pass")
    assert s["step"] == 3 and s["phase"] == "resources"
    assert s["market"] == [5, 6, 7, 8, 9, 10]


def test_pg48_step3_three_houses_and_step3_restock_row() -> None:
    s = build_phase(step=3)
    give(s, "a", cities=["Berlin"])
    give(s, "b", cities=["Berlin"])
    act(s, "c", type="build", city="Berlin")
    assert s["cities"]["Berlin"] == ["a", "b", "c"]
    set_phase(s, "bureaucracy", order=["a", "b", "c"])
    s["rm"]["oil"], s["supply"]["oil"] = 0, 24
    end_phase(s)
    assert s["rm"]["oil"] == 4  # 3 players, Step 3: 3/4/3/1


def test_pg49_step3_before_step2_skips_step2() -> None:
    s = build_phase(step=3)
    set_market(s, [13, 14, 15, 16, 17, 18], [20, 21])
    give(s, "a", cities=CITIES)
    events = end_phase(s)
    assert s["step"] == 3 and "PG-46" not in [e.get("rule") for e in events]


def test_pg50_empty_deck_shrinks_the_market() -> None:
    s = new_game(3, 1)
    set_phase(s, "auction", order=["a", "b", "c"])
    set_market(s, [3, 4, 5, 6, 7], [])
    act(s, "a", type="open", plant=3, bid=3)
    act(s, "b", type="pass")
    act(s, "c", type="pass")
    assert s["market"] == [4, 5, 6, 7] and current_market(s) == [4, 5, 6, 7]


def test_pg51_pg52_final_power_pays_no_income() -> None:
    s = build_phase()
    give(s, "a", plants=[13, 18, 27], cities=CITIES + MORE + EVEN_MORE[:3], money=5)
    events = end_phase(s)
    assert s["phase"] == "over" and s["players"]["a"]["powered"] == 6
    assert s["players"]["a"]["money"] == 5
    assert types(events)[-1] == "game_over" and GAME.is_over(s)
    assert GAME.current_players(s) == [] and GAME.legal_actions(s, "a") == []


def test_pg53_ties_broken_by_money_then_cities_then_shared() -> None:
    s = build_phase()
    give(s, "a", plants=[13], cities=CITIES + MORE + EVEN_MORE[:3], money=5)
    give(s, "b", plants=[18], cities=["Köln", "Aachen"], money=5)
    give(s, "c", plants=[22], cities=["Trier", "Mannheim"], money=5)
    end_phase(s)
    # a powers 1, b and c 2 each with equal money and cities: shared
    assert GAME.result(s) == [["b", "c"], ["a"]]
