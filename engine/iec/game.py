"""class IEC: the Game protocol for Interplanetary Exploitation Companies (rules here; chat
and picture parts through engine/core/game_base.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.core import (
    N_,
    Action,
    BotFn,
    Event,
    IllegalAction,
    OptionSpec,
    Ranking,
    State,
    Translator,
)
from engine.core.game_base import ModularGame
from engine.core.protocol import Capabilities
from engine.iec import actions, commands, logtext, offturn, rules, typed
from engine.iec.bots import BOTS
from engine.iec.forced import forced_action
from engine.iec.model import acting


class IEC(ModularGame):
    # Standing orders and private choices off turn; private events (secret technologies,
    # face-down mines, declarations); rules version 2 asks every company at once in the
    # phases of model.SIMULTANEOUS_PHASES (together.py); forced /done: forced.py.
    capabilities = Capabilities(
        standing_orders=True,
        private_events=True,
        # the hidden choices (IEC-S-26): the real mine, a technology, a peek, a declaration
        # of a phase declared at once, a standing order
        secret_events=frozenset({"tokens_laid", "tech_chosen", "peeked", "declared", "order_set"}),
        forced_moves=True,
        simultaneous=True,
        # in a phase declared at once: "nothing left to decide in phase 5" (offturn.py)
        off_turn_reasons=True,
        secret_commands=True,  # refused in a group before they are looked at (typed.py)
        # The commands of the standing and secret choices (`anytime`, rules.STANDING), and
        # /tech: without an argument it only lists the technologies (a Reply), which anyone
        # seated may read at any time; `/tech N` is a phase 14 action and still waits for
        # his turn (`anytime` refuses it).
        off_turn_commands=frozenset(
            {"power", "give", "extract", "mix", "transfer", "deliver", "destroy", "flex"}
            | {"antimissile", "use", "sweep", "peek", "subsidy", "tech"}
        ),
    )
    period_caption, chart_axis = logtext.PERIOD, logtext.AXIS  # "Turn {n}", "per turn"

    id = "iec"
    # TRANSLATORS: the game's name, from its Polish draft, which is titled in English; a language
    # without a name of its own for the game may keep this title.
    name = N_("Interplanetary Exploitation Companies")
    min_players = 2
    max_players = 4
    options: tuple[OptionSpec, ...] = commands.OPTIONS
    bots: dict[str, BotFn] = BOTS

    # --- rules ---
    def setup(self, players: list[str], options: dict[str, str], seed: int) -> State:
        return rules.setup(players, options, seed)

    def current_players(self, state: State) -> list[str]:
        return acting(state)

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return actions.legal_actions(state, player)

    def apply(self, state: State, player: str, action: Action) -> tuple[State, list[Event]]:
        return actions.apply(state, player, action)

    def forced_action(self, state: State, player: str) -> Action | None:
        return forced_action(state, player)

    def off_turn_reason(
        self, state: State, player: str, command: str, t: Translator
    ) -> IllegalAction | None:
        spec = commands.TABLE.spec(command)  # "/pass" is /done's other name
        return offturn.refusal(state, player, spec.name if spec else command, t)

    def secret_command(self, state: State, player: str, command: str, args: Sequence[str]) -> bool:
        spec = commands.TABLE.spec(command)
        return typed.secret_command(state, player, spec.name if spec else command, args)

    def anytime(self, action: Action) -> bool:
        """Standing orders and private choices any seated player may send off turn (the table
        accepts them without waiting for his turn); they never advance the game."""
        return isinstance(action, dict) and action.get("type") in rules.STANDING

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        return rules.view(state, player)

    def is_over(self, state: State) -> bool:
        return bool(state["over"])

    def result(self, state: State) -> Ranking:
        return rules.result(state)

    def eliminated(self, state: State) -> list[str]:
        """The companies out before the end (IEC-S-24: no working reactor, no Intergrid)."""
        return [p for p in state["seats"] if state["players"][p]["eliminated"]]

    def stage(self, view: dict[str, Any]) -> str:
        """A turn's phase (IEC-27: fourteen phases a turn)."""
        return f"{view.get('turn')}/{view.get('phase')}"

    def describe_start(self, state: State, t: Translator) -> str | None:
        return commands.describe_start(state, t) or None

    def describe_private_event(self, state: State, event: Event, t: Translator) -> str | None:
        """The secret part of a private event, for `event["private_to"]` only (README.md)."""
        return commands.describe_private_event(state, event, t)

    # --- chat part (commands.py) and picture part (render.py): engine/core/game_base.py
    chat_module = "engine.iec.commands"
    render_module = "engine.iec.render"


if TYPE_CHECKING:  # mypy checks the object against every declared part of the protocol
    from engine.core.protocol import Game

    _declared: Game = IEC()
