"""Forced moves (issue 17, "No empty prompts"): the /end of a player who has nothing left to
decide, so the table plays it for him instead of asking.

HEX-2 (corrections 1.1): the turn ends when no legal action is affordable with the points
left; `apply` already ends it at once after the action that leaves nothing affordable, and a
player who cannot act at the start of his turn is eliminated before he is asked (HEX-2.4,
DECISION HEX-D-7). So the forced /end is only a safety net for a state that stopped between
those two (e.g. one stored by an older engine): it is returned when the player has acted this
turn and nothing is affordable. Before his first action /end is a resignation (HEX-2.4, he is
eliminated), which is never played for anybody.
"""

from __future__ import annotations

from engine.core import Action, State
from engine.hexania import rules


def forced_action(state: State, player: str) -> Action | None:
    if player not in rules.current_players(state):
        return None
    if state["turn"]["actions"] == 0 or rules.can_act(state, player):
        return None
    return {"type": "end"}
