"""Which commands are standing orders as typed (the table's `secret_command`, PG-O, PG-22).

A standing order and its limit are their author's alone. Typed where the whole chat reads it,
the table refuses one before the move is looked at, for everyone alike: under hidden money
(PG-9) a limit above one's money was refused to him alone ("you cannot bid more than your
money") while one within it was refused in public ("That order is secret …"), so whether a
public reply came told the group his money. The answer depends on the words only.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import IllegalAction
from engine.powergrid.reading import limit_of

# The first word that makes a command a standing order ("/buy auto", "/pass round", …).
ORDER_WORDS = {
    "pass": frozenset({"round", "phase", "all", "plant", "this", "auction"}),
    "buy": frozenset({"auto"}),
    "build": frozenset({"plan"}),
    "power": frozenset({"auto"}),
}


def secret_command(command: str, args: Sequence[str]) -> bool:
    """Whether `/command args` is a standing order or carries a limit (`max=25`)."""
    if command in ("maxbid", "cancel"):
        return True
    if command == "bid":
        try:
            return limit_of(list(args), "")[1] is not None
        except IllegalAction:
            return False  # not a command at all: its refusal tells nothing
    words = ORDER_WORDS.get(command)
    return bool(words and args and args[0].casefold() in words)
