"""Interplanetary Exploitation Companies in words and figures for the log and the end of a game.

Standing choices, technologies, peeks and where the real mine lies are secret (IEC-S-26): for
them the table learns only that a private choice was made; the public event lines (e.g. the
cells tokens were laid on) come from commands.describe_event.
"""

from __future__ import annotations

from typing import Any

from engine.core import N_, Action, State, Translator
from engine.iec.model import param
from engine.iec.rules import intact_modules
from engine.iec.rules import score as vp

PRIVATE = N_("{player} makes a private choice.")
_PRIVATE_TYPES = {
    "power",
    "give",
    "extract",
    "mix",
    "transfers",
    "deliver",
    "destroy",
    "flex",
    "antimissile",
    "tech",
    "peek",
}
_PHRASES: dict[str, str] = {
    "done": N_("{player} is done with this phase."),
    "lay": N_("{player} lays tokens."),
    "relocate": N_("{player} moves a token."),
    "sweep": N_("{player} sweeps mines on {cell}."),
    "prepare": N_("{player} prepares a site on {cell}."),
    "build": N_("{player} builds on {cell}."),
    "recycle": N_("{player} recycles a module on {cell}."),
    "activate": N_("{player} activates the token on {cell}."),
    "fire": N_("{player} fires a launcher."),
    "transmit": N_("{player} transmits from {building}."),
    "research": N_("{player} does research in {building}."),
    "subsidy": N_("{player} uses the Government Subsidy."),
}
OTHER = N_("{player} makes a move.")

SERIES = (("vp", N_("VP")), ("modules", N_("Modules")))


def describe_action(state: State, player: str, action: Action, t: Translator) -> str:
    kind = str(action.get("type"))
    if kind in _PRIVATE_TYPES:
        return t.gettext(PRIVATE).format(player=player)
    template = _PHRASES.get(kind, OTHER)
    fields: dict[str, Any] = {k: v for k, v in action.items() if isinstance(v, str | int)}
    try:
        return t.gettext(template).format(player=player, **fields)
    except (KeyError, IndexError, ValueError):
        return t.gettext(OTHER).format(player=player)


def period(state: State) -> int:
    return int(state.get("turn", 0))


def progress(state: State) -> float | None:
    """The turns played, phases counted in fifteenths, against the game's length (IEC-S-9)."""
    turns = int(param(state, "turns"))
    return (int(state["turn"]) - 1 + int(state["phase"]) / 15.0) / turns if turns > 0 else None


def score(state: State) -> dict[str, dict[str, int]]:
    return {
        p: {"vp": int(vp(state, p)), "modules": int(intact_modules(state, p))}
        for p in state["players"]
    }


def deciding(state: State) -> list[tuple[str, dict[str, int]]]:
    """IEC-S-9: VP (halved when eliminated), intact modules, science points."""
    players = state["players"]
    return [
        (N_("VP"), {p: int(vp(state, p)) for p in players}),
        (N_("modules"), {p: int(intact_modules(state, p)) for p in players}),
        (N_("science"), {p: int(players[p].get("science", 0)) for p in players}),
    ]


PERIOD = N_("Turn {n}")  # what a replay frame's caption calls a period
AXIS = N_("per turn")  # the charts' x axis
