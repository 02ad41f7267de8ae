"""class IEC: the Game protocol for Interplanetary Exploitation Companies, delegating to modules."""

from __future__ import annotations

from typing import Any

from engine.core import (
    N_,
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
from engine.iec import actions, commands, rules
from engine.iec.bots import BOTS


class IEC:
    id = "iec"
    name = N_("Interplanetary Exploitation Companies")
    min_players = 2
    max_players = 4
    options: tuple[OptionSpec, ...] = commands.OPTIONS
    commands: tuple[CommandSpec, ...] = commands.COMMANDS
    bots: dict[str, BotFn] = BOTS

    # --- rules ---
    def setup(self, players: list[str], options: dict[str, str], seed: int) -> State:
        return rules.setup(players, options, seed)

    def current_players(self, state: State) -> list[str]:
        return [] if state["over"] or state["actor"] is None else [state["actor"]]

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return actions.legal_actions(state, player)

    def apply(self, state: State, player: str, action: Action) -> tuple[State, list[Event]]:
        return actions.apply(state, player, action)

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

    # --- chat layer ---
    def parse(
        self, state: State, player: str, name: str, args: list[str], t: Translator | None = None
    ) -> Action | list[Action] | Reply:
        return commands.parse(state, player, name, args, t)

    def describe_turn(self, state: State, player: str | None, t: Translator) -> str:
        return commands.describe_turn(state, player, t)

    def describe_event(self, state: State, event: Event, t: Translator) -> str | None:
        return commands.describe_event(state, event, t)

    def describe_private_event(self, state: State, event: Event, t: Translator) -> str | None:
        """The secret part of a private event, for `event["private_to"]` only (README.md)."""
        return commands.describe_private_event(state, event, t)

    def buttons(
        self, state: State, player: str, t: Translator | None = None
    ) -> list[tuple[str, str]]:
        return commands.buttons(state, player, t)

    def complete(
        self, state: State | None, player: str | None, kind: str, prefix: str
    ) -> list[str]:
        return commands.complete(state, player, kind, prefix)

    def is_picture_event(self, event: Event) -> bool:
        return commands.is_picture_event(event)

    def render(self, state: State, viewer: str | None, t: Translator | None = None) -> bytes:
        from engine.iec.render import render

        return render(rules.view(state, viewer), viewer, t=t)

    def render_set(
        self,
        state: State,
        viewer: str | None,
        t: Translator | None = None,
        previous: State | None = None,
    ) -> list[Any]:
        from engine.iec.render import render_set

        before = None if previous is None else rules.view(previous, viewer)
        return render_set(rules.view(state, viewer), viewer, t=t, previous=before)

    def undoable(self, events: list[Event]) -> bool:
        return commands.undoable(events)
