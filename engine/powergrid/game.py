"""The Power Grid game object: rules from this folder, chat layer from commands.py.

The chat layer (commands.py) and the picture (render.py) are imported lazily, so the
rules work (and are tested) without them, and Pillow is loaded only to draw.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from engine.core.errors import N_, IllegalAction
from engine.core.protocol import (
    Action,
    BotFn,
    CommandSpec,
    Event,
    OptionSpec,
    Ranking,
    Reply,
    State,
    Translator,
)
from engine.powergrid import rules
from engine.powergrid.bots import BOTS
from engine.powergrid.legal import legal_actions
from engine.powergrid.options import OPTIONS
from engine.powergrid.rules_index import RULES_COMMANDS, RULES_INDEX
from engine.powergrid.view import view


class PowerGrid:
    id = "powergrid"
    name = N_("Power Grid")
    min_players = 2
    max_players = 6

    def __init__(self) -> None:
        self.bots: dict[str, BotFn] = dict(BOTS)
        # /rules <id>: rule id -> English title (N_-marked in rules_index.py), and the
        # commands each rule concerns.
        self.rules_index: dict[str, str] = dict(RULES_INDEX)
        self.rules_commands: dict[str, tuple[str, ...]] = dict(RULES_COMMANDS)

    @property
    def options(self) -> Sequence[OptionSpec]:
        return OPTIONS

    @property
    def commands(self) -> Sequence[CommandSpec]:
        specs: Sequence[CommandSpec] = self._chat().COMMANDS
        return specs

    # --- rules (pure) ---
    # The three calls a simulation makes on every move are the rule functions themselves
    # (no delegating frame): current_players, apply, is_over.
    current_players = staticmethod(rules.current_players)
    apply = staticmethod(rules.apply)
    is_over = staticmethod(rules.is_over)

    def setup(self, players: list[str], options: dict[str, str], seed: int) -> State:
        return rules.setup(players, options, seed)

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return legal_actions(state, player)

    def anytime(self, action: Action) -> bool:
        """Actions any seated player may send off turn: standing orders and their cancel."""
        return isinstance(action, dict) and action.get("type") in rules.ANYTIME

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        return view(state, player)

    def default_action(self, state: State, player: str) -> Action | None:
        """The declared default move for a player who ran out of time: pass or done; the
        power choice that powers the most cities (fewest plants on a tie, PG-33); the lowest
        plant to discard; in round 1, where passing is not allowed (PG-14), the cheapest
        plant at its minimum bid. None when the player has no legal action."""
        legal = self.legal_actions(state, player)
        kinds = {a.get("type") for a in legal}
        if "power" in kinds:

            def powered(action: Action) -> tuple[int, int]:
                try:
                    _, events = self.apply(json.loads(json.dumps(state)), player, action)
                except IllegalAction:
                    return (-1, 0)
                cities = max(
                    (
                        int(e.get("cities", 0))
                        for e in events
                        if e.get("type") == "powered" and e.get("player") == player
                    ),
                    default=-1,
                )
                return (cities, -len(action.get("plants") or []))

            return max((a for a in legal if a.get("type") == "power"), key=powered)
        if "discard" in kinds:
            return min((a for a in legal if a.get("type") == "discard"), key=lambda a: a["plant"])
        for kind in ("pass", "done"):
            found = next((a for a in legal if a.get("type") == kind), None)
            if found is not None:
                return found
        opens = [a for a in legal if a.get("type") == "open"]
        if opens:
            return min(opens, key=lambda a: (a.get("bid", 0), a.get("plant", 0)))
        return legal[0] if legal else None

    def result(self, state: State) -> Ranking:
        return [list(g) for g in state["ranking"]] if state["ranking"] else []

    # --- chat layer (commands.py) and picture (render.py), imported on first use ---
    # A variant sharing this object names its own modules (engine/powergrid_alt/game.py).
    chat_module = "engine.powergrid.commands"
    render_module = "engine.powergrid.render"

    def _chat(self) -> ModuleType:
        return importlib.import_module(self.chat_module)

    def parse(
        self, state: State, player: str, name: str, args: list[str], t: Translator | None = None
    ) -> Action | list[Action] | Reply:
        result: Action | list[Action] | Reply = self._chat().parse(state, player, name, args, t=t)
        return result

    def describe_turn(self, state: State, player: str | None, t: Translator) -> str:
        return str(self._chat().describe_turn(state, player, t))

    def describe_event(self, state: State, event: Event, t: Translator) -> str | None:
        line: str | None = self._chat().describe_event(state, event, t)
        return line

    def describe_private_event(self, state: State, event: Event, t: Translator) -> str | None:
        chat = self._chat()
        describe = getattr(chat, "describe_private_event", chat.describe_event)
        line: str | None = describe(state, event, t)
        return line

    def buttons(
        self, state: State, player: str, t: Translator | None = None
    ) -> list[tuple[str, str]]:
        chat = self._chat()
        found: list[tuple[str, str]] = (
            chat.buttons(state, player) if t is None else chat.buttons(state, player, t)
        )
        return found

    def complete(
        self, state: State | None, player: str | None, kind: str, prefix: str
    ) -> list[str]:
        return list(self._chat().complete(state, player, kind, prefix))

    def is_picture_event(self, event: Event) -> bool:
        return bool(self._chat().is_picture_event(event))

    def undoable(self, events: list[Event]) -> bool:
        return bool(self._chat().undoable(events))

    def render(self, state: State, viewer: str | None, t: Translator | None = None) -> bytes:
        """The board as one PNG (map and panel one under the other), words through `t`."""
        picture: bytes = importlib.import_module(self.render_module).render(
            self.view(state, viewer), viewer, t=t
        )
        return picture

    def render_set(
        self,
        state: State,
        viewer: str | None,
        t: Translator | None = None,
        previous: State | None = None,
    ) -> list[Any]:
        """The pictures sent together (map, panel), captions in words, changes since `previous`."""
        before = None if previous is None else self.view(previous, viewer)
        pictures: list[Any] = importlib.import_module(self.render_module).render_set(
            self.view(state, viewer), viewer, t=t, previous=before
        )
        return pictures
