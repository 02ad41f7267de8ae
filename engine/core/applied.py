"""One move's result in one object (issue 26): `Rules.play(state, player, action)` returns
an `Applied` — the new state, its events and what the table would otherwise ask the game
for one member at a time (who acts now, whether the game is over, whose move is forced,
which events are private to whom and which call for a picture).

`play` is written once here for every game (`BaseGame.play` calls `play_move`) from the
game's own members; a game may override `play` to compute the same answers more cheaply.
The law (tests/engine/core/test_applied.py): `play` equals `apply` followed by the separate
calls, on every game, and `apply` stays what the replay uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core.protocol import Action, Event, State

if TYPE_CHECKING:
    from engine.core.protocol import Game


def event_owner(event: Event) -> str | None:
    """The player an event is (partly) private to: `private_to`, or the event's `player` when
    it is marked `private` or carries a `secret`; None for a public event."""
    owner = event.get("private_to")
    if isinstance(owner, str) and owner:
        return owner
    if event.get("private") or "secret" in event:
        player = event.get("player")
        return player if isinstance(player, str) and player else None
    return None


@dataclass(frozen=True)
class Applied:
    """What one move did and what follows from it; plain data (the state is the game's JSON
    state, mutated in place by the move like `apply` does: keep a copy to keep the old one).

    - `current`: `current_players(state)` after the move;
    - `over`: `is_over(state)`;
    - `forced`: (player, action) for each player now asked whose only choice is that move
      (`forced_action`, only for a game declaring `forced_moves`), in `current` order;
    - `owners`: per event, the player it is private to (`event_owner`), None when public;
    - `pictured`: per event, whether the board is drawn after it (`is_picture_event`).
    """

    state: State
    events: tuple[Event, ...]
    current: tuple[str, ...]
    over: bool
    forced: tuple[tuple[str, Action], ...] = ()
    owners: tuple[str | None, ...] = ()
    pictured: tuple[bool, ...] = ()

    def forced_of(self, player: str) -> Action | None:
        """The forced move of `player`, None when he has a real choice (or is not asked)."""
        return next((a for p, a in self.forced if p == player), None)

    @property
    def picture_events(self) -> list[Event]:
        return [e for e, drawn in zip(self.events, self.pictured, strict=True) if drawn]


def observe(game: Game, state: State, events: tuple[Event, ...] = ()) -> Applied:
    """An `Applied` for a state reached some other way (the setup, an undo, a loaded row):
    the same questions answered once."""
    over = bool(game.is_over(state))
    current = tuple(game.current_players(state))
    forced: list[tuple[str, Action]] = []
    if game.capabilities.forced_moves and not over:
        for player in current:
            action = game.forced_action(state, player)
            if action is not None:
                forced.append((player, action))
    return Applied(
        state,
        events,
        current,
        over,
        tuple(forced),
        tuple(event_owner(e) for e in events),
        tuple(bool(game.is_picture_event(e)) for e in events),
    )


def play_move(game: Game, state: State, player: str, action: Action) -> Applied:
    """`game.apply` and the answers the table needs after it, in one call."""
    state, events = game.apply(state, player, action)
    return observe(game, state, tuple(events))
