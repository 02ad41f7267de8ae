"""Power Grid in words and figures for the log and the end of a game (issue 25).

`describe_action` names what a player did when none of the action's events says it (e.g.
`/done`); the chat's event lines stay the game's (commands.describe_event). `period` and
`score` feed the per-round charts; `deciding` gives the figures the ranking was decided by.
Standing orders and proxy limits are private: the table learns only that a choice was made.
"""

from __future__ import annotations

from typing import Any

from engine.core import N_, Action, State, Translator
from engine.powergrid.chat_view import region_text
from engine.powergrid.rules import limits, max_cities
from engine.powergrid.wording import resource_text

PRIVATE = N_("{player} makes a private choice.")
_PRIVATE_TYPES = {"order", "cancel", "maxbid"}
_PHRASES: dict[str, str] = {
    "open": N_("{player} opens an auction on plant {plant}."),
    "raise": N_("{player} raises to {bid}."),
    "pass": N_("{player} passes."),
    "buy": N_("{player} buys {count} {resource}."),
    "build": N_("{player} builds in {city}."),
    "done": N_("{player} is done."),
    "power": N_("{player} chooses what to power."),
    "discard": N_("{player} discards plant {plant}."),
    "choose_region": N_("{player} chooses the region {region}."),
}
OTHER = N_("{player} makes a move.")

# (series key, label): what the charts draw per player per round
SERIES = (("money", N_("Money")), ("cities", N_("Cities")))


def describe_action(state: State, player: str, action: Action, t: Translator) -> str:
    kind = str(action.get("type"))
    if kind in _PRIVATE_TYPES:
        return t.gettext(PRIVATE).format(player=player)
    template = _PHRASES.get(kind, OTHER)
    try:
        return t.gettext(template).format(player=player, **action_fields(action, t))
    except (KeyError, IndexError, ValueError):
        return t.gettext(OTHER).format(player=player)


def action_fields(action: Action, t: Translator) -> dict[str, Any]:
    """The action's values for its phrase, a region (PG-8) and a resource in the reader's
    words ("Fioletowy (północny zachód)", "węgiel"), never the ids the action holds."""
    fields: dict[str, Any] = {k: v for k, v in action.items() if isinstance(v, str | int)}
    fields.pop("max", None)  # a proxy limit is private (PG-22)
    if "region" in fields:
        fields["region"] = region_text(str(fields["region"]), t)
    if "resource" in fields:
        fields["resource"] = resource_text(t, str(fields["resource"]))
    return fields


def period(state: State) -> int:
    return int(state.get("round", 0))


def progress(state: State) -> float:
    """The largest network against the end threshold (PG-6)."""
    return max_cities(state) / limits(state)["end"]


def score(state: State) -> dict[str, dict[str, int]]:
    """Per player: money and cities (money left out while it is hidden, PG-9)."""
    out: dict[str, dict[str, int]] = {}
    for name, p in state["players"].items():
        figures = {"cities": len(p.get("cities", ()))}
        if not state.get("hidden_money"):
            figures["money"] = int(p.get("money", 0))
        out[name] = figures
    return out


def deciding(state: State) -> list[tuple[str, dict[str, int]]]:
    """PG-53: cities powered, then money, then cities."""
    players = state["players"]
    return [
        (N_("cities powered"), {n: int(p.get("powered", 0)) for n, p in players.items()}),
        (N_("money"), {n: int(p.get("money", 0)) for n, p in players.items()}),
        (N_("cities"), {n: len(p.get("cities", ())) for n, p in players.items()}),
    ]
