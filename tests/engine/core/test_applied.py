"""Issue 26: `play` gives one move's result in one object (engine/core/applied.py). The law:
on every game, `play` equals `apply` followed by the separate calls it saves the table
(current_players, is_over, forced_action, the events' owners and picture flags), and a game
played through `play` replays exactly from its log with `apply`."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import registry
from engine.core import canonical_json, replay
from engine.core.applied import Applied, event_owner
from engine.core.protocol import Action, Game

GAMES = registry.games()
MOVES = 80


def separately(game: Game, state: dict[str, Any], player: str, action: dict[str, Any]) -> Applied:
    """What the table computed before `play`: apply, then one call per question."""
    state, events = game.apply(state, player, action)
    over = game.is_over(state)
    current = tuple(game.current_players(state))
    forced: tuple[tuple[str, Action], ...] = ()
    if game.capabilities.forced_moves and not over:
        found = ((p, game.forced_action(state, p)) for p in current)
        forced = tuple((p, a) for p, a in found if a is not None)
    return Applied(
        state,
        tuple(events),
        current,
        over,
        forced,
        tuple(event_owner(e) for e in events),
        tuple(game.is_picture_event(e) for e in events),
    )


def test_every_game_is_checked() -> None:
    assert {"powergrid", "powergrid_alt", "hexania", "iec"} <= set(GAMES)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_play_equals_apply_and_the_separate_calls(game_id: str) -> None:
    game = GAMES[game_id]
    players = ["ann", "bob", "cyd"][: max(game.min_players, min(3, game.max_players))]
    rnd = random.Random(f"applied-{game_id}")
    state = game.setup(players, {}, 7)
    log: list[tuple[str, dict[str, Any]]] = []
    pictured = forced = 0
    for _ in range(MOVES):
        if game.is_over(state):
            break
        player = rnd.choice(game.current_players(state))
        action = rnd.choice(game.legal_actions(state, player))
        expected = separately(game, json.loads(canonical_json(state)), player, action)
        got = game.play(state, player, action)
        assert isinstance(got, Applied)
        assert got.state is state  # mutated in place, like apply
        assert canonical_json(got.state) == canonical_json(expected.state)
        assert got.events == expected.events
        assert (got.current, got.over, got.forced) == (
            expected.current,
            expected.over,
            expected.forced,
        )
        assert (got.owners, got.pictured) == (expected.owners, expected.pictured)
        assert got.picture_events == [e for e, p in zip(got.events, got.pictured) if p]
        for name, action_forced in got.forced:
            assert got.forced_of(name) == action_forced
        pictured += sum(got.pictured)
        forced += len(got.forced)
        log.append((player, action))
        state = got.state
    assert log, "no move played"
    # the replay law holds for a game played through `play`
    assert canonical_json(replay(game, players, {}, 7, log)) == canonical_json(state)
    if game_id.startswith("powergrid"):
        assert pictured > 0  # the seeded games reach a phase's end


def test_a_refused_move_raises_before_any_change() -> None:
    game = GAMES["powergrid"]
    state = game.setup(["ann", "bob", "cyd"], {}, 7)
    before = canonical_json(state)
    idle = next(p for p in ["ann", "bob", "cyd"] if p not in game.current_players(state))
    from engine.core import IllegalAction

    with pytest.raises(IllegalAction):
        game.play(state, idle, {"type": "pass"})
    assert canonical_json(state) == before
