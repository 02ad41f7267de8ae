"""Hexania as a `Game` (engine.core.protocol): the rules, the chat layer and the picture."""

from __future__ import annotations

from typing import Any

from engine.core import N_, Action, BotFn, Event, Ranking, Reply, State, Translator
from engine.hexania import commands, rules
from engine.hexania.bots import BOTS
from engine.hexania.options import OPTIONS


class Hexania:
    """Hexagonal war of growing, merging and splitting figures; two dice a turn (HEX-1)."""

    id = "hexania"
    name = N_("Hexania")
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    options = OPTIONS
    commands = commands.COMMANDS
    bots: dict[str, BotFn] = BOTS

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

    def result(self, state: State) -> Ranking:
        return rules.result(state)

    # --- chat layer ---
    def parse(
        self, state: State, player: str, name: str, args: list[str], t: Translator | None = None
    ) -> Action | list[Action] | Reply:
        return commands.parse(state, player, name, args, t)

    def describe_turn(self, state: State, player: str | None, t: Translator) -> str:
        return commands.describe_turn(state, player, t)

    def describe_event(self, state: State, event: Event, t: Translator) -> str | None:
        return commands.describe_event(state, event, t)

    def buttons(self, state: State, player: str) -> list[tuple[str, str]]:
        return commands.buttons(state, player)

    def complete(
        self, state: State | None, player: str | None, kind: str, prefix: str
    ) -> list[str]:
        return commands.complete(state, player, kind, prefix)

    def is_picture_event(self, event: Event) -> bool:
        return commands.is_picture_event(event)

    def render(self, state: State, viewer: str | None, t: Translator | None = None) -> bytes:
        from engine.hexania.render import render as draw  # Pillow only when a picture is wanted

        return draw(rules.view(state, viewer), viewer, t=t)

    def render_set(
        self,
        state: State,
        viewer: str | None,
        t: Translator | None = None,
        previous: State | None = None,
    ) -> list[Any]:
        from engine.hexania.render import render_set  # Pillow only when a picture is wanted

        before = None if previous is None else rules.view(previous, viewer)
        return render_set(rules.view(state, viewer), viewer, t=t, previous=before)

    def undoable(self, events: list[Event]) -> bool:
        return commands.undoable(events)

    def text(self, state: State) -> str:
        """A readable rendering of the state (HEX-G-6) for tests and logs."""
        return commands.text_board(state)
