"""Power Grid with the alternative rules in words and figures (see engine/powergrid/logtext.py)."""

from __future__ import annotations

from engine.core import N_, Action, State, Translator
from engine.powergrid import logtext as base
from engine.powergrid_alt.queries import covered, play_nodes

_PHRASES: dict[str, str] = {
    "build_plant": N_("{player} builds plant {plant} in {city}."),
    "upgrade": N_("{player} replaces plant {old} by {new}."),
    "line": N_("{player} lays a line."),
    "tp": N_("{player} places a TP in {city}."),
    "move": N_("{player} moves resources between plants."),
}

SERIES = base.SERIES
period = base.period
score = base.score


def progress(state: State) -> float | None:
    """The covered cities against all cities in play (ALT-44: the game ends when every city
    is covered)."""
    nodes = list(play_nodes(state))
    return sum(1 for n in nodes if covered(state, n)) / len(nodes) if nodes else None


def describe_action(state: State, player: str, action: Action, t: Translator) -> str:
    template = _PHRASES.get(str(action.get("type")))
    if template is None:
        return base.describe_action(state, player, action, t)
    try:
        return t.gettext(template).format(player=player, **base.action_fields(action, t))
    except (KeyError, IndexError, ValueError):
        return t.gettext(base.OTHER).format(player=player)


def deciding(state: State) -> list[tuple[str, dict[str, int]]]:
    """ALT-44: cities powered, money, then built plants + TPs (ALT-D-22)."""
    players = state["players"]
    covered = {n: 0 for n in players}
    for plant in state.get("built", {}).values():
        covered[plant["owner"]] = covered.get(plant["owner"], 0) + 1
    for owners in state.get("tps", {}).values():
        for owner in owners:
            covered[owner] = covered.get(owner, 0) + 1
    return [
        (N_("cities powered"), {n: int(p.get("powered", 0)) for n, p in players.items()}),
        (N_("money"), {n: int(p.get("money", 0)) for n, p in players.items()}),
        (N_("plants and TPs"), covered),
    ]
