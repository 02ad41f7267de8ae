"""The Power Grid game object: rules from this folder, chat layer from commands.py.

The chat layer (commands.py) and the picture (render.py) are imported lazily (through
engine/core/game_base.py), so the rules work (and are tested) without them, and Pillow is
loaded only to draw. The variant (engine/powergrid_alt) is a subclass: it overrides the rules
members and the class-level switches (modules, capabilities), nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.core.errors import N_, IllegalAction
from engine.core.game_base import ModularGame
from engine.core.jsonstate import copy_state
from engine.core.protocol import (
    Action,
    BotFn,
    Capabilities,
    Event,
    OptionSpec,
    Ranking,
    State,
    Translator,
)
from engine.powergrid import commands, event_text, rules, typed
from engine.powergrid.bots import BOTS
from engine.powergrid.forced import forced_action
from engine.powergrid.legal import legal_actions
from engine.powergrid.options import OPTIONS
from engine.powergrid.rules_index import RULES_COMMANDS, RULES_INDEX
from engine.powergrid.view import view


class PowerGrid(ModularGame):
    id = "powergrid"
    name = N_("Power Grid")
    min_players = 2
    max_players = 6

    def __init__(self) -> None:
        self.bots: dict[str, BotFn] = dict(BOTS)
        # /rules <id>: rule id -> English title (N_-marked in rules_index.py), and the
        # commands each rule concerns.
        self.rules_index = dict(RULES_INDEX)
        self.rules_commands = dict(RULES_COMMANDS)

    # Standing orders (/order), /rules <id>, a default move, simultaneous bureaucracy (PG-42).
    capabilities = Capabilities(
        standing_orders=True,
        off_turn_commands=frozenset({"bid", "maxbid", "pass", "buy", "build", "power", "cancel"}),
        private_events=True,
        # a standing order and its limit are his alone (PG-O, PG-22 max=)
        secret_events=frozenset({"order_placed", "orders_cancelled"}),
        rules_index=True,
        default_move=True,
        forced_moves=True,
        simultaneous=True,
        view_speaks=True,  # turn_text.py and buttons.py word views (VIEW.md)
        secret_commands=True,  # standing orders, refused in a group before a look (typed.py)
    )

    @property
    def options(self) -> Sequence[OptionSpec]:
        return OPTIONS

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
                    _, events = self.apply(copy_state(state), player, action)
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

    def forced_action(self, state: State, player: str) -> Action | None:
        """The pass, /done or empty power declaration left to a player with nothing to decide
        (issue 17; forced.py)."""
        return forced_action(state, player)

    def secret_command(self, state: State, player: str, command: str, args: Sequence[str]) -> bool:
        """A standing order or a limit, by its words alone (typed.py)."""
        spec = commands.TABLE.spec(command)
        return typed.secret_command(spec.name if spec else command, args)

    def result(self, state: State) -> Ranking:
        return [list(g) for g in state["ranking"]] if state["ranking"] else []

    def stage(self, view: dict[str, Any]) -> str:
        """A round's phase (PG-14; the alternative rules' too)."""
        return f"{view.get('round')}/{view.get('phase')}"

    def describe_start(self, state: State, t: Translator) -> str | None:
        return event_text.describe_start(state, t)

    def describe_private_event(self, state: State, event: Event, t: Translator) -> str | None:
        """The owner's line of a private event (a standing order placed, changed, dropped)."""
        line: str | None = commands.describe_private_event(state, event, t)
        return line

    # --- chat part (commands.py) and picture part (render.py): engine/core/game_base.py,
    # imported on first use; a variant names its own modules (engine/powergrid_alt/game.py).
    chat_module = "engine.powergrid.commands"
    render_module = "engine.powergrid.render"


if TYPE_CHECKING:  # mypy checks the object against every declared part of the protocol
    from engine.core.protocol import Game

    _declared: Game = PowerGrid()
