"""Hexania in words and figures for the log and the end of a game (issue 25)."""

from __future__ import annotations

from typing import Any

from engine.core import N_, Action, State, Translator
from engine.hexania.board import direction_text

_PHRASES: dict[str, str] = {
    "birth": N_("{player} places a new piece on {cell}."),
    "grow": N_("{player} grows {figure} onto {cell}."),
    "move": N_("{player} moves {figure} {steps} {dir}."),
    "regroup": N_("{player} regroups {from} to {to}."),
    "end": N_("{player} ends the turn."),
}
OTHER = N_("{player} makes a move.")

SERIES = (("pieces", N_("Pieces")),)


def describe_action(state: State, player: str, action: Action, t: Translator) -> str:
    template = _PHRASES.get(str(action.get("type")), OTHER)
    fields: dict[str, Any] = {k: v for k, v in action.items() if isinstance(v, str | int)}
    if isinstance(fields.get("dir"), str):
        fields["dir"] = direction_text(t, fields["dir"])  # "NE (north-east)", HEX-G-3
    if isinstance(fields.get("steps"), int):  # "3 steps", not a bare number after the way
        fields["steps"] = t.ngettext("{n} step", "{n} steps", fields["steps"]).format(
            n=fields["steps"]
        )
    try:
        return t.gettext(template).format(player=player, **fields)
    except (KeyError, IndexError, ValueError):
        return t.gettext(OTHER).format(player=player)


def period(state: State) -> int:
    return int(state.get("round", 0))


def progress(state: State) -> float | None:
    """The rounds played against the round limit (HEX-2.6)."""
    rounds = int(state["options"]["rounds"])
    return (int(state["round"]) - 1) / rounds if rounds > 0 else None


def _pieces(state: State) -> dict[str, int]:
    count = {p: 0 for p in state["players"]}
    for owner in state["board"].values():
        count[owner] = count.get(owner, 0) + 1
    return count


def score(state: State) -> dict[str, dict[str, int]]:
    return {p: {"pieces": n} for p, n in _pieces(state).items()}


def deciding(state: State) -> list[tuple[str, dict[str, int]]]:
    """HEX-2.6: the last player standing, or most pieces, then bonus points."""
    bonus = state.get("round_bonus") or state.get("bonus") or {}
    return [
        (N_("pieces"), _pieces(state)),
        (N_("bonus"), {p: int(bonus.get(p, 0)) for p in state["players"]}),
    ]
