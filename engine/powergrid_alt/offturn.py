"""Why a command of a phase declared at once is refused to a player who has already declared
(the table asks, `off_turn_reason`; found playing, 2026-12-04: a second /power after one's
declaration in Phase 5 was answered only "Not your turn — waiting for ann").

Rules version 2 declares Phases 3 and 5 by everybody at once (ALT-10, ALT-30; purchase.py): a
player's /done or his power declaration ends his part, and his declaration stands. Only public
facts shape the refusal (the phase, who is still deciding; that he is done is public: the table
no longer waits for him), never what he declared, so it may be read in the group.
"""

from __future__ import annotations

from engine.core import N_, IllegalAction, Listed, State, Translator
from engine.powergrid.wording import PHASES
from engine.powergrid_alt import purchase
from engine.powergrid_alt import rules as r

# The commands of each phase declared at once (the chat's words).
TOGETHER = {"resources": frozenset({"buy", "done"}), "bureaucracy": frozenset({"power"})}

# TRANSLATORS: {phase} is the phase's name ("bureaucracy (phase 5)"); {who}: the players
# still deciding.
ALREADY_DECLARED = N_(
    "You have made your choice for {phase}; waiting for {who}. /undo takes it back if nobody "
    "has moved since."
)


def secret_command(state: State, command: str) -> bool:
    """Whether `command` typed now is a secret declaration (version 2: /buy in Phase 3,
    /power in Phase 5), refused alike to everyone where the chat reads it: a refusal that only
    his own declarations cause is his alone, so an acceptance must not differ from it."""
    return (
        purchase.simultaneous(state)
        and command in TOGETHER.get(state["phase"], ())
        and command != "done"
    )


def refusal(state: State, player: str, command: str, t: Translator) -> IllegalAction | None:
    """Why `player`, done in a phase declared at once, may not give its command `command`
    now; None where the table's own "Not your turn" says it (another phase's command, one
    player at a time, not seated)."""
    phase = state["phase"]
    if command not in TOGETHER.get(phase, ()) or not purchase.simultaneous(state):
        return None
    if player not in state["players"] or not state["players"][player]["done"]:
        return None
    who = r.current_players(state)
    if not who:
        return None
    return IllegalAction(
        "ALT-30" if phase == "bureaucracy" else "ALT-10",
        ALREADY_DECLARED,
        phase=t.gettext(PHASES[phase]),
        who=Listed(who),
    )
