"""Driving Power Grid players through the table with chat text.

The humans of a test are played by the Power Grid bots: the bot's action is turned into the
command a person would type (`command_for`) and sent as chat text. When the chat layer would
read that text as a different action (a city name it spells otherwise, say), the action goes
through `Table.act` instead, the documented internal API that applies ready-made actions.
"""

from __future__ import annotations

import json
from typing import Any

from engine.core import IllegalAction, Reply

Action = dict[str, Any]


def command_for(action: Action) -> str:
    """The chat command a player types for a Power Grid action (engine/powergrid/CONTRACT.md)."""
    kind = action["type"]
    if kind == "choose_region":
        return f"/region {action['region']}"
    if kind == "open":
        return f"/bid {action['plant']} {action['bid']}"
    if kind == "raise":
        return f"/raise {action['bid']}"
    if kind in ("pass", "done"):
        return f"/{kind}"
    if kind == "discard":
        return f"/discard {action['plant']}"
    if kind == "buy":
        return f"/buy {action['resource']} {action['count']}"
    if kind == "build":
        return f"/build {action['city']}"
    if kind == "power":
        words = [str(p) for p in action.get("plants") or []] or ["none"]
        words += [f"{fuel}={action[fuel]}" for fuel in ("coal", "oil") if fuel in action]
        return "/power " + " ".join(words)
    raise ValueError(f"no command for {action!r}")


def reads_back(game: Any, state: dict, player: str, text: str, action: Action) -> bool:
    """True when the chat layer reads `text` as exactly `action`."""
    words = text.lstrip("/").split()
    try:
        parsed = game.parse(json.loads(json.dumps(state)), player, words[0], words[1:])
    except IllegalAction:
        return False
    if isinstance(parsed, Reply):
        return False
    parsed_list = parsed if isinstance(parsed, list) else [parsed]
    return parsed_list == [action]
