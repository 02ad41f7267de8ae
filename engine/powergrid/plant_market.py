"""The plant market and deck (PG-28, PG-40, PG-44..47): drawing, removing the plants too low
for the largest network, and the Step 3 card."""

from __future__ import annotations

import bisect

from engine.core import Rng
from engine.powergrid.basics import Event, log_event, log_plant_removed, max_cities
from engine.powergrid.data import STEP3
from engine.powergrid.state_types import PGState


def lowest_plant(state: PGState) -> int | None:
    for p in state["market"]:
        if p != STEP3:
            return int(p)
    return None


def _draw_one(state: PGState, events: list[Event]) -> None:
    deck = state["deck"]
    if not deck:
        return  # PG-50: the market shrinks
    card = deck.pop(0)
    if card == STEP3:
        state["market"].append(STEP3)  # PG-47: sits as the highest plant, never current
        log_event(
            state,
            events,
            {"type": "step3_card_drawn", "round": state["round"], "phase": state["phase"]},
        )
        if state["phase"] == "bureaucracy":
            resolve_step3(state, events)  # PG-47 in Phase 5 (and PG-D-23): at once
        else:
            state["step3_drawn"] = True
        return
    bisect.insort(state["market"], card)
    log_event(state, events, {"type": "plant_drawn", "round": state["round"], "plant": card})


def draw_plant(state: PGState, events: list[Event]) -> None:
    """Draw one replacement, then apply PG-40 to the market (drawn plants included)."""
    _draw_one(state, events)
    remove_too_low(state, events)


def remove_too_low(state: PGState, events: list[Event]) -> None:
    """PG-40 (PG-D-14): market plants numbered <= the highest city count leave the game."""
    top = max_cities(state)
    market = state["market"]
    while market and market[0] <= top:
        low = market.pop(0)
        log_plant_removed(state, events, low, "PG-40", under_deck=False)
        _draw_one(state, events)


def resolve_step3(state: PGState, events: list[Event]) -> None:
    """PG-47: remove the card and the lowest plant, no replacement, shuffle the deck."""
    market = state["market"]
    if STEP3 in market:
        market.remove(STEP3)
    low = lowest_plant(state)
    if low is not None:
        market.remove(low)
        log_plant_removed(state, events, low, "PG-47", under_deck=False)
    Rng(state["rng"]).shuffle(state["deck"])
    state["step3_drawn"] = False
    if state["phase"] == "auction":
        begin_step3(state, events)  # Step 3 begins with Phase 3
    else:
        state["step3_pending"] = True  # begins with Phase 5 (from 4) or next round (from 5)


def begin_step3(state: PGState, events: list[Event]) -> None:
    # PG-49 (PG-D-18): from Step 1 this skips Step 2 and its one-time removal.
    state["step"] = 3
    state["step3_pending"] = False
    log_event(state, events, {"type": "step_started", "round": state["round"], "step": 3})
