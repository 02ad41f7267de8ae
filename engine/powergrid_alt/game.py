"""The variant's game object: the base game object with this folder's rules.

Everything the chat layer and the picture need comes from this folder's commands.py and
render.py, imported on first use (see engine/powergrid/game.py), so the rules work without
them and Pillow is loaded only to draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.errors import N_
from engine.core.protocol import Action, BotFn, Event, OptionSpec, State
from engine.powergrid.game import PowerGrid
from engine.powergrid_alt import ending, rules
from engine.powergrid_alt.bots import BOTS
from engine.powergrid_alt.legal import legal_actions
from engine.powergrid_alt.options import OPTIONS
from engine.powergrid_alt.view import view


class PowerGridAlt(PowerGrid):
    id = rules.GAME_ID
    name = N_("Power Grid (alternative rules)")
    min_players = 2
    max_players = 4
    chat_module = "engine.powergrid_alt.commands"
    render_module = "engine.powergrid_alt.render"

    def __init__(self) -> None:
        self.bots: dict[str, BotFn] = dict(BOTS)
        # The variant rewrites phases 4-5 (ALT-n); the base PG index would mislead.
        self.rules_index: dict[str, str] = {}
        self.rules_commands: dict[str, tuple[str, ...]] = {}

    @property
    def options(self) -> Sequence[OptionSpec]:
        return OPTIONS

    def setup(self, players: list[str], options: dict[str, str], seed: int) -> State:
        return rules.setup(players, options, seed)

    def current_players(self, state: State) -> list[str]:
        return rules.current_players(state)

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return legal_actions(state, player)

    def apply(self, state: State, player: str, action: Action) -> tuple[State, list[Event]]:
        return rules.apply(state, player, action)

    def anytime(self, action: Action) -> bool:
        """No standing orders; only the table vote to end by agreement goes off turn."""
        return ending.anytime(action)

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        return view(state, player)

    def is_over(self, state: State) -> bool:
        return rules.is_over(state)
