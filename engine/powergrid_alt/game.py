"""The variant's game object: a subclass of the base game object (python-chess style).

It overrides named members only: the rules members (this folder's rules), the class-level
switches (`capabilities`, `chat_module`, `render_module`, options, bots) and the `anytime`
hook. The chat layer and the picture come from this folder's commands.py and render.py,
imported on first use (engine/core/game_base.py), so the rules work without them and Pillow
is loaded only to draw. The base never tests for this variant's id.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.core.errors import N_, IllegalAction
from engine.core.protocol import (
    Action,
    BotFn,
    Capabilities,
    Event,
    OptionSpec,
    State,
    Translator,
)
from engine.powergrid.game import PowerGrid
from engine.powergrid_alt import ending, offturn, rules
from engine.powergrid_alt.bots import BOTS
from engine.powergrid_alt.forced import forced_action
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
    # The end vote goes off turn; the variant rewrites phases 4-5 (ALT-n), so the base PG
    # rules index would mislead (none here); the base's default move (most cities powered,
    # else pass or done) still fits. Rules version 2 declares Phases 3 and 5 by everybody at
    # once, a purchase privately (purchase.py); forced moves: forced.py (issue 17).
    capabilities = Capabilities(
        standing_orders=True,
        off_turn_commands=frozenset({"endgame"}),
        default_move=True,
        private_events=True,
        # rules version 2: a purchase and the power declared stay secret until everybody is
        # done (ALT-10, ALT-30 declared at once: purchase.py, rules.py `_power`)
        secret_events=frozenset(
            {"buy_declared", "power_declared", "power_planned", "order_placed", "orders_cancelled"}
        ),
        forced_moves=True,
        simultaneous=True,
        off_turn_reasons=True,  # version 2: "You have made your choice for …" (offturn.py)
        secret_commands=True,  # version 2's declarations (offturn.py `secret_command`)
    )

    def __init__(self) -> None:
        self.bots: dict[str, BotFn] = dict(BOTS)

    @property
    def options(self) -> Sequence[OptionSpec]:
        return OPTIONS

    # --- rules (pure): this folder's, as the same named members ---
    current_players = staticmethod(rules.current_players)
    apply = staticmethod(rules.apply)
    is_over = staticmethod(rules.is_over)

    def setup(self, players: list[str], options: dict[str, str], seed: int) -> State:
        return rules.setup(players, options, seed)

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return legal_actions(state, player)

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        return view(state, player)

    def default_action(self, state: State, player: str) -> Action | None:
        """As the base game's, except the power choice is judged by the cities it powers
        (ALT-32) without playing it: in rules version 2 a declaration powers nothing yet."""
        if rules.expected(state) == "power" and player in rules.current_players(state):

            def powered(action: Action) -> tuple[int, int]:
                try:
                    _plants, cities = rules.power_check(state, player, action)
                except IllegalAction:
                    return (-1, 0)
                return (len(cities), -len(action.get("plants") or []))

            choices = [a for a in self.legal_actions(state, player) if a.get("type") == "power"]
            return max(choices, key=powered) if choices else None
        return super().default_action(state, player)

    def forced_action(self, state: State, player: str) -> Action | None:
        return forced_action(state, player)

    def off_turn_reason(
        self, state: State, player: str, command: str, t: Translator
    ) -> IllegalAction | None:
        return offturn.refusal(state, player, command, t)

    def secret_command(self, state: State, player: str, command: str, args: Sequence[str]) -> bool:
        """Version 2's declarations (offturn.py), and the base game's standing orders where
        this folder keeps them."""
        return offturn.secret_command(state, command) or super().secret_command(
            state, player, command, args
        )

    def describe_private_event(self, state: State, event: Event, t: Translator) -> str | None:
        """The owner's line of a private event (a purchase declared in version 2), from the
        chat layer (imported on first use)."""
        line: str | None = self._chat().describe_private_event(state, event, t)
        return line

    def anytime(self, action: Action) -> bool:
        """No standing orders; only the table vote to end by agreement goes off turn."""
        return ending.anytime(action)


if TYPE_CHECKING:  # mypy checks the object against every declared part of the protocol
    from engine.core.protocol import Game

    _declared: Game = PowerGridAlt()
