"""Forced moves (issue 17, "No empty prompts"): the pass, /done or empty power declaration of
a player whose only legal move it is, so the table plays it for him instead of asking.

Read from the compact legal descriptors (legal.py), which list every family of moves:
- auction, choosing a plant: `pass` alone when no market plant is affordable (PG-20 a, PG-22).
  In round 1 passing is not allowed (PG-25): there the list never holds a lone pass, so
  nothing is forced and the player is asked to open an auction;
- auction, bidding: `pass` alone when the player cannot raise (PG-21, PG-22);
- resources: `done` alone when nothing can be stored or paid (PG-31..PG-33);
- building: `done` alone when no city is affordable (PG-35..PG-38);
- bureaucracy: the declaration to run no plant when the tokens held fuel none (PG-42).

Hidden money (PG-9 option): a move forced only because the player lacks money would tell the
table what he holds, so it is forced only when it would be forced with any amount of money.
"""

from __future__ import annotations

from engine.powergrid.legal import expand, legal_descriptors
from engine.powergrid.rules import Action, State

# More money than any player ever holds: "could he do anything with any amount of money?".
_RICH = 10**9
_TRIVIAL = ("pass", "done")


def forced_action(state: State, player: str) -> Action | None:
    found = trivial_move(state, player)
    hidden = found is not None and state.get("hidden_money") and state.get("phase") != "over"
    if hidden and trivial_move(with_money(state, player, _RICH), player) is None:
        return None
    return found


def trivial_move(state: State, player: str) -> Action | None:
    """The one move left to `player` when it decides nothing, else None (money as held)."""
    families = legal_descriptors(state, player)
    if len(families) != 1:
        return None
    only = families[0]
    if only["type"] in _TRIVIAL and len(only) == 1:
        return {"type": only["type"]}
    if only["type"] == "power":
        moves = expand(state, player, only)
        if len(moves) == 1 and not moves[0]["plants"]:
            return {"type": "power", "plants": []}
    return None


def with_money(state: State, player: str, money: int) -> State:
    """A shallow copy of `state` in which `player` holds `money` (the rest is shared)."""
    players = dict(state["players"])
    players[player] = {**players[player], "money": money}
    return {**state, "players": players}
