"""A tiny dice-and-pile game used only by the core tests (not registered as a game)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import N_, IllegalAction, Rng
from engine.core.protocol import CommandSpec, OptionSpec
from engine.core.rng import new_rng_state

Action = dict[str, Any]


class DicePile:
    """Players take 1-3 stones in turn; after each take a die adds stones. Last taker wins."""

    id = "dicepile"
    name = "Dice pile"
    min_players = 2
    max_players = 4
    # declared wider than the empty tuples so a subclass (tests/bot/chatgame.py) may add its own
    options: Sequence[OptionSpec] = ()
    commands: Sequence[CommandSpec] = ()

    def setup(self, players: list[str], options: dict[str, str], seed: int) -> dict[str, Any]:
        state: dict[str, Any] = {"players": list(players), "turn": 0, "rng": new_rng_state(seed)}
        state["pile"] = 10 + Rng(state["rng"]).die()
        state["winner"] = None
        return state

    def current_players(self, state: dict[str, Any]) -> list[str]:
        if state["winner"] is not None:
            return []
        return [state["players"][state["turn"]]]

    def legal_actions(self, state: dict[str, Any], player: str) -> list[Action]:
        if player not in self.current_players(state):
            return []
        return [{"take": n} for n in (1, 2, 3) if n <= state["pile"]]

    def apply(
        self, state: dict[str, Any], player: str, action: Action
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        if player not in self.current_players(state):
            raise IllegalAction("TOY-1", N_("It is not your turn."))
        take = action.get("take")
        if not isinstance(take, int) or not 1 <= take <= min(3, state["pile"]):
            raise IllegalAction("TOY-2", N_("Take 1 to {most} stones."), most=min(3, state["pile"]))
        state["pile"] -= take
        if state["pile"] == 0:
            state["winner"] = player
            return state, [{"type": "game_over", "winner": player}]
        if Rng(state["rng"]).die() == 6:
            state["pile"] += 1
        state["turn"] = (state["turn"] + 1) % len(state["players"])
        return state, [{"type": "took", "player": player, "n": take}]

    def is_over(self, state: dict[str, Any]) -> bool:
        return state["winner"] is not None

    def result(self, state: dict[str, Any]) -> list[list[str]]:
        winner = state["winner"]
        return [[winner], [p for p in state["players"] if p != winner]]


GAME = DicePile()
