"""Every word on a Power Grid picture, marked for the catalogs (msgid = the English text)."""

from __future__ import annotations

from typing import Any

from engine.core.errors import N_
from engine.core.picture import Words
from engine.powergrid.wording import RESOURCE_NAMES

PHASE = {
    "regions": N_("Choosing regions"),
    "auction": N_("Auction"),
    "resources": N_("Buying resources"),
    "build": N_("Building"),
    "bureaucracy": N_("Bureaucracy"),
    "over": N_("Game over"),
}
# "After the {phase} phase": the phase's name inside a sentence
PHASE_AFTER = {
    "regions": N_("After choosing regions"),
    "auction": N_("After the auction"),
    "resources": N_("After buying resources"),
    "build": N_("After building"),
    "bureaucracy": N_("After bureaucracy"),
}
EXPECTED = {
    "choose_region": N_("choose a region"),
    "choose_plant": N_("offer a plant or pass"),
    "choose_plant_first": N_("offer a plant"),  # round 1: everyone must buy one (PG-25)
    "bid": N_("raise or pass"),
    "discard": N_("discard a plant"),
    "buy": N_("buy resources or done"),
    "build": N_("build or done"),
    "power": N_("power cities"),
}
RESOURCE = RESOURCE_NAMES  # the chat's words for them (wording.py)
PLANT_TYPE = {
    "coal": N_("coal"),
    "oil": N_("oil"),
    "hybrid": N_("coal/oil"),
    "garbage": N_("garbage"),
    "uranium": N_("uranium"),
    "eco": N_("eco"),
    "fusion": N_("fusion"),
}
# Region names of the bundled maps (the map files are data; their names are English).
REGION_NAMES = {
    "North-West": N_("North-West"),
    "North-East": N_("North-East"),
    "West": N_("West"),
    "East": N_("East"),
    "South-West": N_("South-West"),
    "South-East": N_("South-East"),
    "Purple (North-West)": N_("Purple (North-West)"),
    "Cyan (South-West)": N_("Cyan (South-West)"),
    "Red (South-Central)": N_("Red (South-Central)"),
    "Yellow (Midwest)": N_("Yellow (Midwest)"),
    "Brown (North-East)": N_("Brown (North-East)"),
    "Green (South-East)": N_("Green (South-East)"),
}

ROUND_STEP = N_("Round {round} · Step {step}")
AUCTION = N_("Plant {plant}: high bid {bid} ({leader})")
STILL_BIDDING = N_("Still bidding: {players}")
PENDING_DISCARD = N_("{player} must discard a plant")
STEP3_PENDING = N_("Step 3 begins with the next phase")
THRESHOLDS = N_("Step 2 at {step2} cities · game ends at {end}")
STEP2_AT = N_("Step 2 at {step2} cities")
# the alternative rules count built plants and TPs (ALT-40), not cities
STEP2_AT_BUILT = N_("Step 2 at {step2} plants and TPs")
PLAYERS = N_("Players in turn order")
RANKING = N_("Final ranking")
MONEY = N_("{money} Elektro")
MONEY_HIDDEN = N_("? Elektro (hidden)")
CITIES = N_("Cities: {n}")
HOUSES_LEFT = N_("Houses left: {n}")
POWERED = N_("Powered: {n}")
YOU = N_("you")
PASSED = N_("out of the auction")
BOUGHT = N_("bought a plant")
DONE = N_("done")
PLANT_MARKET = N_("Power plants")
NOW = N_("Now")
FUTURE = N_("Future")
DECK = N_("Deck: {n}")
STEP3_CARD = N_("STEP 3")
RESOURCE_MARKET = N_("Resources")
SUPPLY = N_("Supply: {n}")
# captions
CAPTION_AFTER = N_("{after}, round {round}")
CAPTION_NOW = N_("Round {round}: {phase}")
NEXT_ONE = N_("{players} is next")
NEXT_MANY = N_("{players} are next")
BUILT = N_("{player} built in {cities}")
BOUGHT_PLANT = N_("{player} bought plant {plant}")
OVER = N_("Game over: {players} won")
SENTENCE = N_("{text}.")
PANEL_CAPTION = N_("Players, power plants and resources")
MAP_PART = N_("Map, part {i} of {n}")


def phase_name(w: Words, phase: str) -> str:
    return w(PHASE[phase]) if phase in PHASE else phase


def region_name(w: Words, region: dict[str, Any]) -> str:
    """ "NW North-West" (translated); just the name when it already starts with the id."""
    name = region["name"]
    name = w(REGION_NAMES[name]) if name in REGION_NAMES else name
    first = region["name"].split(" ", 1)[0]
    if first.casefold() == region["id"].casefold():
        return name
    return f"{region['id']} {name}"


def next_players(w: Words, players: list[str]) -> str:
    names = w.list(players)
    return w(NEXT_ONE if len(players) == 1 else NEXT_MANY, players=names)


# The phase each phase hands over to (PG-8: the regions, then round 1's auction; PG-4: the
# bureaucracy ends a round).
_NEXT_PHASE = {
    "regions": "auction",
    "auction": "resources",
    "resources": "build",
    "build": "bureaucracy",
    "bureaucracy": "auction",
}


def _one_phase_on(previous: dict[str, Any] | None, view: dict[str, Any]) -> bool:
    """The picture shows the phase right after the last picture's: "After X" names what
    ended. When bots played several phases between two pictures (a whole round at a table
    of bots), "After choosing regions, round 2" would name the wrong one (found play-testing
    `boardchat demo`, 2026-12-04): the caption names the phase shown instead."""
    prev_phase = (previous or {}).get("phase")
    if prev_phase not in _NEXT_PHASE or _NEXT_PHASE[prev_phase] != view.get("phase"):
        return False
    rounds = 1 if prev_phase == "bureaucracy" else 0
    return (previous or {}).get("round", 0) + rounds == view.get("round", 0)


def caption(
    w: Words, view: dict[str, Any], previous: dict[str, Any] | None, changes: list[str]
) -> str:
    """ "After building, round 3 — Bob is next. Alice built in Essen." """
    phase = view.get("phase", "")
    if phase == "over":
        winners = (view.get("ranking") or [[]])[0]
        head = w(OVER, players=w.list(winners))
    else:
        if _one_phase_on(previous, view):
            after = w(PHASE_AFTER[(previous or {})["phase"]])
            head = w(CAPTION_AFTER, after=after, round=view.get("round", 0))
        else:
            head = w(CAPTION_NOW, round=view.get("round", 0), phase=phase_name(w, phase))
        current = list(view.get("current_players") or [])
        if current:
            head += " — " + next_players(w, current)
    return sentences(w, [head, "; ".join(changes)])


def sentences(w: Words, parts: list[str]) -> str:
    """Each non-empty part as a sentence ("{text}." in the reader's language), joined."""
    return " ".join(w(SENTENCE, text=p) for p in parts if p)
