"""Noninterference in the Power Grid engine (issue 20): hidden money (PG-22), a rival's
standing orders (PG-O) and the deck order (PG-4) never reach the observer; see
tests/engine/powergrid/noninterference.py for what is compared and the allowed reveals."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.powergrid import GAME
from tests.engine.powergrid.noninterference import Draw, check


def _orders(draw: Draw, state: dict[str, Any], holder: str) -> list[dict[str, Any]]:
    """Standing orders the holder might have placed privately."""
    market = [p for p in state["market"] if p != 99][:4] or [3]
    cities = sorted(state["cities"])[:6] or ["Berlin"]
    choices = [
        {"type": "order", "kind": "power_auto"},
        {"type": "order", "kind": "buy_auto", "limit": draw(st.sampled_from([None, 5, 30]))},
        {"type": "order", "kind": "pass_round"},
        {
            "type": "order",
            "kind": "build_plan",
            "cities": draw(st.lists(st.sampled_from(cities), max_size=2, unique=True)),
        },
        {
            "type": "order",
            "kind": "maxbid",
            "plant": draw(st.sampled_from(market)),
            "limit": draw(st.integers(3, 60)),
        },
        {"type": "order", "kind": "pass_plant", "plant": draw(st.sampled_from(market))},
    ]
    return draw(st.lists(st.sampled_from(choices), max_size=3, unique_by=lambda o: o["kind"]))


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_pg22_pgo_pg4_observer_output_depends_on_public_information_only(
    data: st.DataObject,
) -> None:
    check(data, GAME, _orders)
