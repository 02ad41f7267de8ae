"""The view's market breakdown and token placement are memoised (issue 23: every view asked
them four and three times): the answers equal the plain computation, and each call returns
fresh data a caller may change without touching the next answer."""

from __future__ import annotations

from engine.powergrid.data import CAPACITY, PLANTS, RESOURCES, SLOT_PRICE_LISTS
from engine.powergrid.market import display_assignment, market_spaces


def spaces_by_hand(in_market: int, resource: str) -> list[dict[str, int]]:
    prices = SLOT_PRICE_LISTS[resource]
    first_filled = CAPACITY[resource] - in_market
    out: list[dict[str, int]] = []
    for i, price in enumerate(prices):
        if not out or out[-1]["price"] != price:
            out.append({"price": price, "count": 0, "slots": 0})
        out[-1]["slots"] += 1
        out[-1]["count"] += int(i >= first_filled)
    return out


def test_market_spaces_equal_the_plain_count_and_are_fresh() -> None:
    for resource in RESOURCES:
        for n in range(CAPACITY[resource] + 1):
            assert market_spaces(n, resource) == spaces_by_hand(n, resource)
    first = market_spaces(3, "coal")
    first[0]["count"] = 99
    assert market_spaces(3, "coal") == spaces_by_hand(3, "coal")


def test_display_assignment_fills_single_fuel_first_then_hybrids_and_is_fresh() -> None:
    hybrid = next(n for n, p in sorted(PLANTS.items()) if p.type == "hybrid")
    coal = next(n for n, p in sorted(PLANTS.items()) if p.type == "coal")
    held = {"coal": 2 * PLANTS[coal].cost + 1, "oil": 1, "garbage": 0, "uranium": 0}
    placed = display_assignment([hybrid, coal], held)
    assert placed[coal]["coal"] == 2 * PLANTS[coal].cost  # PG-34: single fuel first
    assert placed[hybrid] == {"coal": 1, "oil": 1, "garbage": 0, "uranium": 0}
    placed[coal]["coal"] = 0
    assert display_assignment([hybrid, coal], held)[coal]["coal"] == 2 * PLANTS[coal].cost
