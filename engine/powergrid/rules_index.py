"""The Power Grid rules index: rule id -> one-line title, and the commands a rule concerns.

The data is engine/powergrid/data/rules_index.json (ids and titles from the rules text,
shared/rules/powergrid.md). The titles are repeated below, marked for translation, because
the catalog extractor reads Python only; a test keeps both lists equal.
"""

from __future__ import annotations

from engine.core import N_
from engine.powergrid.data import _load

_DATA: dict[str, dict] = _load("rules_index.json")

# rule id -> English title (translate with the chat's translator)
RULES_INDEX: dict[str, str] = {rid: str(entry["title"]) for rid, entry in _DATA.items()}
# rule id -> the commands it concerns (empty: the game applies it by itself)
RULES_COMMANDS: dict[str, tuple[str, ...]] = {
    rid: tuple(entry.get("commands") or ()) for rid, entry in _DATA.items()
}

TITLES = (
    N_("Map"),
    N_("Power plant cards"),
    N_("Resource market layout"),
    N_("Payment table"),
    N_("Resource restock table"),
    N_("Player-count table"),
    N_("Players"),
    N_("Regions"),
    N_("Money"),
    N_("Paying"),
    N_("Tracks"),
    N_("Initial resource market"),
    N_("Initial plant market and deck"),
    N_("Market order"),
    N_("Rounds and phases"),
    N_("Order of play by phase"),
    N_("Player order"),
    N_("Player order in round 1"),
    N_("Ties in player order"),
    N_("No market change in Phase 1"),
    N_("Choosing"),
    N_("Bidding"),
    N_("Money limit"),
    N_("One plant per round"),
    N_("Who chooses next"),
    N_("Round 1 obligation"),
    N_("Plant limit"),
    N_("Resources of a discarded plant"),
    N_("Replacement"),
    N_("No purchase"),
    N_("End of phase"),
    N_("Buying resources"),
    N_("Price"),
    N_("Capacity"),
    N_("Rearranging"),
    N_("Building turn"),
    N_("First city"),
    N_("Further cities"),
    N_("Slots and steps"),
    N_("City count"),
    N_("Too-low plants, any time"),
    N_("No connection limit per city"),
    N_("Power and income"),
    N_("Restock"),
    N_("Plant market update"),
    N_("Step 1"),
    N_("Step 2 trigger"),
    N_("End-of-Phase-4 order"),
    N_("Step 3 card drawn"),
    N_("Step 3 effects"),
    N_("Step 3 before Step 2"),
    N_("Empty deck"),
    N_("End of the game"),
    N_("Final power"),
    N_("Winner"),
    N_("Standing orders"),
)
