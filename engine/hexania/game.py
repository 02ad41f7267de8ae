"""Hexania as a `Game` (engine.core.protocol): the rules, the chat layer and the picture."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import N_, Action, BotFn, Event, Ranking, State, Translator
from engine.core.game_base import ModularGame
from engine.core.protocol import Capabilities
from engine.core.rng import Rng, new_rng_state
from engine.hexania import commands, rules
from engine.hexania.bots import BOTS, greedy_bot
from engine.hexania.forced import forced_action
from engine.hexania.options import OPTIONS


class Hexania(ModularGame):
    """Hexagonal war of growing, merging and splitting figures; two dice a turn (HEX-1)."""

    id = "hexania"
    # TRANSLATORS: the game's name, «Гексания» in its Russian original: a land of hexagons.
    name = N_("Hexania")
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    options = OPTIONS
    bots: dict[str, BotFn] = BOTS
    # One player acts at a time, every move on his turn, all public; /end is forced only when
    # nothing is affordable after acting (forced.py). A player out of time gets the greedy
    # bot's move (`default_action`), never the generic /end (a resignation, HEX-2.4).
    capabilities = Capabilities(forced_moves=True, default_move=True)

    # --- rules (pure) ---
    def setup(self, players: list[str], options: dict[str, str], seed: int) -> State:
        return rules.setup(players, options, seed)

    def current_players(self, state: State) -> list[str]:
        return rules.current_players(state)

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return rules.legal_actions(state, player)

    def apply(self, state: State, player: str, action: Action) -> tuple[State, list[Event]]:
        return rules.apply(state, player, action)

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        return rules.view(state, player)

    def is_over(self, state: State) -> bool:
        return rules.is_over(state)

    def forced_action(self, state: State, player: str) -> Action | None:
        return forced_action(state, player)

    def result(self, state: State) -> Ranking:
        return rules.result(state)

    def eliminated(self, state: State) -> list[str]:
        """The players out before the end (HEX-2.4: who ends his turn with nothing done)."""
        return list(state["eliminated"])

    def stage(self, view: dict[str, Any]) -> str:
        """A round and whose turn it is (HEX-1, HEX-2.1: a turn is one player's, its points
        spent over several moves)."""
        return f"{view.get('round')}/{(view.get('turn') or {}).get('player')}"

    def default_action(self, state: State, player: str) -> Action | None:
        """The move of a player who ran out of time: the greedy bot's (it spends points on the
        best-looking affordable action, HEX-2), with ties broken by an RNG seeded from the
        position so the choice is reproducible. Never /end before an action: that is a
        resignation (HEX-2.4). With nothing affordable after acting, the forced /end (HEX-2);
        None when it is not the player's turn."""
        if player not in rules.current_players(state):
            return None
        if not rules.can_act(state, player):
            return forced_action(state, player)
        turn = state["turn"]
        seed = state["round"] * 7919 + len(state["board"]) * 31 + int(turn["actions"])
        return greedy_bot(state, player, Rng(new_rng_state(seed)))

    # --- chat part (commands.py) and picture part (render.py): engine/core/game_base.py
    chat_module = "engine.hexania.commands"
    render_module = "engine.hexania.render"

    def describe_start(self, state: State, t: Translator) -> str | None:
        return commands.describe_start(state, t)

    def text(self, state: State) -> str:
        """A readable rendering of the state (HEX-G-6) for tests and logs."""
        return commands.text_board(state)


if TYPE_CHECKING:  # mypy checks the object against every declared part of the protocol
    from engine.core.protocol import Game

    _declared: Game = Hexania()
