"""Forced moves of the alternative rules (issue 17, "No empty prompts"): the pass, /done or
empty power declaration of a player whose only legal move it is; None whenever he has a real
choice (then he is asked as before).

- Phase 2 (ALT-7, ALT-9): the base game's auction (engine/powergrid/forced.py): a lone pass
  when no plant is affordable or no raise is; never in round 1, where every player must buy a
  plant (PG-25, kept by ALT-9).
- Phase 3 (ALT-10): /done when no built plant can take a token the market holds and he can
  pay; in round 1 nobody has a built plant, so every player's /done is forced (EX-ALT-14).
  In version 2 his own declared purchases do not count: they are secret (purchase.py).
- Phase 4 (ALT-11): /done when no plant can be built (ALT-13/14), none upgraded (ALT-20, free),
  no tokens moved (ALT-21), no TP placed in a passed-through city (ALT-25) and no line laid:
  a line costs at least its cheapest free first segment (ALT-22), so with less money than that
  no line is possible. (When that bound is met but every route fails on other grounds he is
  still asked: the engine then errs on the side of asking.)
- Phase 5 (ALT-31, ALT-32): the declaration to run nothing when no built plant holds its
  fuel. With no running plant no city can be powered (ALT-32.1-3), so every choice he could
  make is this one: the ALT-36 penalty of 5 E per unpowered plant city it costs (EX-ALT-14,
  round 1) is due whatever he does, and is never one a real choice could avoid.
- An open vote to end by agreement that awaits his answer is a real choice: nothing is forced.
- A stalled table is asked again: once a whole Phase 4 has passed without anybody building
  (`state["idle"]`), the Phase 4 /done is no longer played for anybody. Without plants that
  run there is no income (ALT-39), so a table gone broke would otherwise be passed through
  round after round for ever; asked, it can agree to end (corrections 1.1, ALT-45).

Hidden money (PG-9 option): a move forced only because the player lacks money would show the
table what he holds, so it is forced only when it would be forced with any amount of money.
"""

from __future__ import annotations

from engine.powergrid.forced import trivial_move, with_money
from engine.powergrid_alt import ending, purchase
from engine.powergrid_alt import rules as r
from engine.powergrid_alt.graph import alt_map
from engine.powergrid_alt.legal import build_actions

Action = r.Action
State = r.State
_RICH = 10**9


def forced_action(state: State, player: str) -> Action | None:
    if state["phase"] == "over" or player not in r.current_players(state):
        return None
    if ending.vote_actions(state, player):
        return None
    found = _forced(state, player)
    rich = None if found is None or not state["hidden_money"] else with_money(state, player, _RICH)
    if rich is not None and _forced(rich, player) is None:
        return None
    return found


def _forced(state: State, player: str) -> Action | None:
    want = r.expected(state)
    if want in ("choose_region", "choose_plant", "bid"):
        return trivial_move(state, player)
    if want == "buy":
        # Judged on the board the table sees, never after his own secret declarations
        # (version 2): a /done forced the moment they fill his plants would tell the table
        # that they did (found by `make fuzz`, 2026-12-04); who is passed never depends on
        # a secret (as IEC's corrections 1.1 put it), so he says /done himself then.
        return None if purchase.can_declare_more(state, player, own=False) else {"type": "done"}
    if want == "build":
        if state["idle"] >= 1 or can_build_something(state, player):
            return None
        return {"type": "done"}
    if want == "power":
        return None if r.runnable(state, player) else {"type": "power", "plants": []}
    return None


def can_build_something(state: State, player: str) -> bool:
    """Whether any Phase 4 action is open to `player` (see the module docstring)."""
    if len(build_actions(state, player)) > 1:  # every plant build, upgrade, transfer, TP
        return True
    return state["players"][player]["money"] >= cheapest_first_segment(state, player)


def cheapest_first_segment(state: State, player: str) -> int:
    """The printed cost of the cheapest free segment in play leaving one of the player's
    cities or hanging line ends (ALT-22, ALT-28): no line costs less."""
    am = alt_map(state["map"])
    owned = r.owned_segments(state)
    in_play = set(r.play_nodes(state))
    starts = r.line_starts(state, player)
    costs = [
        seg.cost
        for node in starts
        for seg in am.incident[node]
        if seg.key not in owned and seg.other(node) in in_play
    ]
    return min(costs, default=_RICH)
