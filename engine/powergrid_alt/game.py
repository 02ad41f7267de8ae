"""The variant's game object: rules from this folder, chat layer from commands.py.

commands.py and render.py are imported lazily, so the rules work without them and Pillow
is loaded only to draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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
from engine.powergrid_alt import rules
from engine.powergrid_alt.bots import BOTS
from engine.powergrid_alt.legal import legal_actions
from engine.powergrid_alt.options import OPTIONS
from engine.powergrid_alt.view import view


class PowerGridAlt:
    id = rules.GAME_ID
    name = "Power Grid (alternative rules)"
    min_players = 2
    max_players = 4

    def __init__(self) -> None:
        self.bots: dict[str, BotFn] = dict(BOTS)

    @property
    def options(self) -> Sequence[OptionSpec]:
        return OPTIONS

    @property
    def commands(self) -> Sequence[CommandSpec]:
        import engine.powergrid_alt.commands as commands

        return commands.COMMANDS

    # --- rules (pure) ---
    def setup(self, players: list[str], options: dict[str, str], seed: int) -> State:
        return rules.setup(players, options, seed)

    def current_players(self, state: State) -> list[str]:
        return rules.current_players(state)

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return legal_actions(state, player)

    def apply(self, state: State, player: str, action: Action) -> tuple[State, list[Event]]:
        return rules.apply(state, player, action)

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        return view(state, player)

    def is_over(self, state: State) -> bool:
        return rules.is_over(state)

    def result(self, state: State) -> Ranking:
        return [list(g) for g in state["ranking"]] if state["ranking"] else []

    # --- chat layer (commands.py, imported lazily) ---
    def parse(
        self, state: State, player: str, name: str, args: list[str], t: Translator | None = None
    ) -> Action | list[Action] | Reply:
        import engine.powergrid_alt.commands as commands

        return commands.parse(state, player, name, args, t=t)

    def describe_turn(self, state: State, player: str | None, t: Translator) -> str:
        import engine.powergrid_alt.commands as commands

        return commands.describe_turn(state, player, t)

    def describe_event(self, state: State, event: Event, t: Translator) -> str | None:
        import engine.powergrid_alt.commands as commands

        return commands.describe_event(state, event, t)

    def buttons(
        self, state: State, player: str, t: Translator | None = None
    ) -> list[tuple[str, str]]:
        import engine.powergrid_alt.commands as commands

        return commands.buttons(state, player) if t is None else commands.buttons(state, player, t)

    def complete(
        self, state: State | None, player: str | None, kind: str, prefix: str
    ) -> list[str]:
        import engine.powergrid_alt.commands as commands

        return commands.complete(state, player, kind, prefix)

    def is_picture_event(self, event: Event) -> bool:
        import engine.powergrid_alt.commands as commands

        return commands.is_picture_event(event)

    def undoable(self, events: list[Event]) -> bool:
        import engine.powergrid_alt.commands as commands

        return commands.undoable(events)

    def render(self, state: State, viewer: str | None) -> bytes:
        from engine.powergrid_alt import render

        return render.render(self.view(state, viewer), viewer)
