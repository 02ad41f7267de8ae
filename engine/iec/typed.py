"""Which commands are secret choices as typed (the table's `secret_command`, IEC-S-26).

Typed where the whole chat reads it, a secret choice is refused before the move is looked at,
for every company alike (bot/moves.py). Before, the table played it on a copy and refused it
only when it was accepted, while a refusal that depends on a secret (does he own Minesweepers?
does he already own technology 7?) went to him alone: whether a public reply came told the
group what he owns (found play-testing, 2026-12-04). So the answer depends on public facts
only: the command, whether it names anything, the phase and the rules version.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.iec.model import SIMULTANEOUS_PHASES, acting, rules_version
from engine.iec.rules import PHASE_ACTIONS, STANDING, State

# Standing orders and the secret technologies' choices (rules.STANDING: "transfers" is the
# /transfer command's order), a face-down mine's placement (the real one is the secret), a
# technology chosen (its number).
ALWAYS = frozenset({*STANDING, "transfer", "lay", "tech"}) - {"transfers"}
# Without a word: a list or a question anyone may read ("/tech" lists the technologies).
NEEDS_WORDS = frozenset({"tech"})


def secret_command(state: State, player: str, command: str, args: Sequence[str]) -> bool:
    """Whether `player`'s `command args` typed now is a choice only he may know: one of
    `ALWAYS` (but /power on his turn of phase 3 in rules version 1, a public move: the
    buildings he powers show at once); in rules version 2, any move of a phase declared at
    once but /done (which is public: "ann has decided")."""
    if command in NEEDS_WORDS and not args:
        return False
    phase = int(state["phase"])
    together = rules_version(state) >= 2 and phase in SIMULTANEOUS_PHASES
    if command == "power" and phase == 3 and not together and player in acting(state):
        return False
    if command in ALWAYS:
        return True
    return together and command in PHASE_ACTIONS.get(phase, ()) and command != "done"
