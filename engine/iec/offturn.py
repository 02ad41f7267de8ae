"""Why a phase command from a company that is not asked to act is refused (the table asks,
`off_turn_reason`; found playing, phase 5: "Not your turn" told a company with nothing to
decide only that it was not its turn).

In a phase declared at once (rules version 2, model.SIMULTANEOUS_PHASES) the refusal says
that he has nothing left to decide in this phase, whom the table waits for and, for a command
of another phase (IEC-27), in which phase it is played. In a phase taken one company at a time
(IEC-S-10.4) the table's own "Not your turn" stands. Only public facts shape it (the phase,
who is still deciding), never his declarations: it may be read in the group.
"""

from __future__ import annotations

from engine.core import N_, IllegalAction, State, Translator, join_list
from engine.iec.model import acting
from engine.iec.rules import PHASE_ACTIONS, PHASE_NAMES, STANDING, param, phase_active

# The commands only the company asked may give: phase actions that are never standing
# orders (/power is both: a standing order off turn); the table refuses them off turn.
TURN_ONLY = frozenset(k for kinds in PHASE_ACTIONS.values() for k in kinds) - set(STANDING)

# TRANSLATORS: {name} is the phase's name ("mine laying"); {who}: the players still deciding.
NOTHING_LEFT = N_("You have nothing left to decide in phase {phase} ({name}); waiting for {who}.")
NOTHING_LEFT_LATER = N_(
    "You have nothing left to decide in phase {phase} ({name}); waiting for {who}. "
    "{command} is played in phase {later} ({later_name})."
)


def refusal(state: State, player: str, command: str, t: Translator) -> IllegalAction | None:
    """Why `player` may not give the phase command `command` now; None when he may, or when
    the table says it already (the game is over, he is not seated or eliminated)."""
    pl = state["players"].get(player)
    who = join_list(t, acting(state))
    if command not in TURN_ONLY or pl is None or pl["eliminated"] or not who:
        return None
    if player in acting(state):
        return None
    if "actors" not in state:  # one company at a time (IEC-S-10.4): the table's words
        return None
    ph = state["phase"]
    now = {"phase": ph, "name": t.gettext(PHASE_NAMES[ph]), "who": who}
    later = next_phase(state, command)
    if later is None:
        return IllegalAction("", NOTHING_LEFT, **now)
    return IllegalAction(
        "",
        NOTHING_LEFT_LATER,
        command=f"/{command}",
        later=later,
        later_name=t.gettext(PHASE_NAMES[later]),
        **now,
    )


def next_phase(state: State, command: str) -> int | None:
    """The next phase that takes `command` (IEC-27): later in this turn, else in the next
    turn if there is one; None for a command of the current phase (/done is of all)."""
    ph = state["phase"]
    phases = sorted(
        p for p, kinds in PHASE_ACTIONS.items() if command in kinds and phase_active(state, p)
    )
    if not phases or ph in phases:
        return None
    later = [p for p in phases if p > ph]
    if later:
        return later[0]
    return phases[0] if state["turn"] < int(param(state, "turns")) else None
