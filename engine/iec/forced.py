"""The forced /done of IEC (issue 17, "No empty prompts").

A company is asked in a phase only when it has a real choice there (`choices.has_choice`,
rules.advance), and after each move it is done at once when none is left (actions.apply,
together.declare). So a company to act practically always has a choice; this is the exact
safety net: /done when the phase moves open to him are /done alone (IEC-27 phase actions,
IEC-S-10.4), judged without his unrevealed technologies (together.planned, public): a
secret technology never decides whether he is passed. Standing orders are never counted:
they can be given at any time. In phase 14
/done is refused while a technology must be chosen (IEC-24), so it is never forced there.
"""

from __future__ import annotations

from engine.core import Action, State
from engine.iec.actions import legal_actions
from engine.iec.model import acting


def forced_action(state: State, player: str) -> Action | None:
    if player not in acting(state):
        return None
    # As the table judges it (secret technologies aside: corrections 1.1, "No side channel
    # through prompts"), so whether he is passed never tells one.
    moves = legal_actions(state, player, public=True)
    if moves == [{"type": "done"}]:
        return {"type": "done"}
    return None
