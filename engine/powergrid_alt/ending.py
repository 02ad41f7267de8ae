"""How a game of the variant ends besides full coverage (powergrid_alt.md, corrections 1.1).

ALT-44 is the one end condition of the source: every city in play holds a plant or a TP. Two
ways out remain for a table that cannot get there:

- ALT-45 (narrowed): at the end of Phase 4 the game goes to its last Phase 5 when no player
  can ever cover any remaining city: every uncovered city is out of reach of every plant that
  may still be built (ALT-14, ALT-17..ALT-19) and of every player's TP (ALT-22..ALT-24: no
  chain of free or own segments leads there from his plants and TPs). Idle rounds alone
  never end the game.
- Ending by agreement (a table vote, scored as ALT-44): any seated player proposes, at any
  time; every seated player must accept; one refusal (or the proposer's withdrawal) closes
  the vote. Once all agree, this round's Phase 5 is the last one. The votes are engine
  actions accepted off turn, so they replay like every other move.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from engine.core import N_, IllegalAction
from engine.powergrid.data import PLANTS
from engine.powergrid_alt.graph import alt_map
from engine.powergrid_alt.queries import play_nodes, pollution_check, uncovered
from engine.powergrid_alt.state_types import AltState

State = AltState  # the TypedDict, or the plain dict (state_types.py)
Action = dict[str, Any]
Event = dict[str, Any]

VOTE_TYPES = ("propose_end", "accept_end", "decline_end")
CLEAN = ("eco", "fusion")  # ALT-17: never raise pollution, never nuclear (ALT-D-6)


def anytime(action: Any) -> bool:
    """The vote actions: any seated player may send them, on turn or off."""
    return isinstance(action, dict) and action.get("type") in VOTE_TYPES


# ===================================================================== ALT-45 (narrowed)


def available_plants(state: State) -> list[int]:
    """Plants that may still be built somewhere: the deck, the market and every hand."""
    built = {int(n) for n in state["built"]}
    pool = [n for n in (*state["deck"], *state["market"]) if n in PLANTS]
    for p in state["players"].values():
        pool.extend(n for n in p["plants"] if n not in built)
    return sorted(set(pool))


def plant_could_cover(state: State, node: str, plants: list[int]) -> bool:
    """ALT-14/17..19: an uncovered city takes a plant if one of `plants` passes the limits."""
    if any(PLANTS[n].type in CLEAN for n in plants):
        return True
    for n in plants:
        try:
            pollution_check(state, node, n, None)
        except IllegalAction:
            continue
        return True
    return False


def tp_reach(state: State, player: str) -> set[str]:
    """ALT-22..ALT-25: nodes a chain of free or own segments joins to the player's plants and
    TPs (a TP may end a new line there or split his line passing through)."""
    am = alt_map(state["map"])
    in_play = set(play_nodes(state))
    owner = {seg: line["owner"] for line in state["lines"] for seg in line["segs"]}
    start = [n for n in state["players"][player]["cities"] if n in in_play]
    seen = set(start)
    queue = deque(start)
    while queue:
        node = queue.popleft()
        for seg in am.incident[node]:
            nxt = seg.other(node)
            if nxt in seen or nxt not in in_play or owner.get(seg.key, player) != player:
                continue
            seen.add(nxt)
            queue.append(nxt)
    return seen


def nothing_coverable(state: State) -> bool:
    """ALT-45: no player can ever cover any remaining uncovered city."""
    open_nodes = uncovered(state)
    if not open_nodes:
        return False
    plants = available_plants(state)
    reach: set[str] = set()
    for player in state["players"]:
        reach |= tp_reach(state, player)
    return not any(n in reach or plant_could_cover(state, n, plants) for n in open_nodes)


# ===================================================================== ending by agreement


def vote(state: State, player: str, action: Action, events: list[Event], emit: Any) -> None:
    """Apply one vote action; `emit(state, events, type, **fields)` records an event."""
    if player not in state["players"]:
        raise IllegalAction("ALT-45", N_("Only the players at the table vote."))
    kind = action["type"]
    if set(action) - {"type"}:
        raise IllegalAction("syntax", N_("A vote takes no arguments."))
    open_vote = state.get("end_vote")
    if kind == "propose_end":
        if state["final"]:
            raise IllegalAction("ALT-45", N_("This round's Phase 5 is already the last one."))
        if open_vote is not None:
            raise IllegalAction(
                "ALT-45",
                N_("{player} already proposed to end the game: /endgame yes or /endgame no."),
                player=open_vote["by"],
            )
        state["end_vote"] = {"by": player, "yes": [player]}
        emit(state, events, "end_proposed", player=player, waiting=_waiting(state))
        return
    if open_vote is None:
        raise IllegalAction("ALT-45", N_("Nobody proposed to end the game; /endgame proposes it."))
    if kind == "decline_end":
        state["end_vote"] = None
        emit(state, events, "end_declined", player=player, by=open_vote["by"])
        return
    if player in open_vote["yes"]:
        raise IllegalAction("ALT-45", N_("You have already agreed to end the game."))
    open_vote["yes"].append(player)
    waiting = _waiting(state)
    emit(state, events, "end_accepted", player=player, waiting=waiting)
    if not waiting:
        state["end_vote"] = None
        state["final"] = True  # scored as ALT-44: this round's Phase 5 is the last one
        emit(state, events, "final_round", reason="agreement")


def _waiting(state: State) -> list[str]:
    vote = state["end_vote"]
    if vote is None:
        return []
    yes = vote["yes"]
    return [p for p in state["order"] if p not in yes]


def vote_actions(state: State, player: str) -> list[Action]:
    """The answers a seated player still owes to an open vote."""
    open_vote = state.get("end_vote")
    if open_vote is None or player in open_vote["yes"] or player not in state["players"]:
        return []
    return [{"type": "accept_end"}, {"type": "decline_end"}]
