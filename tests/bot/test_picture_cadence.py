"""How often the chat sees a board picture (issue 17): after each phase by default, after each
round where a game has no phases (Hexania, IEC), after every turn only when the table asks
(`/settings pictures=turn`), never with `pictures=off`; and which earlier picture the change
marks are drawn against."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from bot.announce import (
    GAME,
    PHASE,
    ROUND,
    TURN,
    picture_level,
    picture_mode,
    pictured_steps,
    previous_version,
    states_at,
    wanted,
)
from bot.context import Step
from bot.store import ActionRow, GameRow
from bot.table import discover_games
from engine.core import Rng, canonical_json, replay
from engine.core.rng import new_rng_state

GAMES = discover_games()


def step(events: list[dict[str, Any]], state: dict[str, Any]) -> Step:
    return Step([], json.dumps(state), events)


def test_power_grid_pictures_follow_each_phase_and_the_bureaucracy_closes_the_round() -> None:
    auction = [{"type": "phase_ended", "phase": "auction"}]
    bureaucracy = [{"type": "phase_ended", "phase": "bureaucracy"}]
    assert picture_level(auction) == PHASE
    assert picture_level(bureaucracy) == ROUND
    assert picture_level([{"type": "step_started", "step": 2}]) == PHASE
    assert wanted(step(auction, {}), "phase") and wanted(step(auction, {}), "turn")
    assert not wanted(step(auction, {}), "round") and wanted(step(bureaucracy, {}), "round")
    assert not any(wanted(step(e, {}), "off") for e in (auction, bureaucracy))


def test_hexania_pictures_follow_each_round_not_each_turn_unless_asked() -> None:
    # A turn inside round 2 (the state is still in round 2) and the round's last turn.
    inside = [{"type": "turn_ended", "round": 2, "player": "Ann"}]
    assert picture_level(inside, round_after=2) == TURN
    assert picture_level(inside, round_after=3) == ROUND
    # in the log, the round's end stands beside the turn's
    assert picture_level([*inside, {"type": "round_ended", "round": 2}]) == ROUND
    assert not wanted(step(inside, {"round": 2, "over": False}), "phase")
    assert wanted(step(inside, {"round": 2, "over": False}), "turn")
    assert wanted(step(inside, {"round": 3, "over": False}), "phase")
    assert wanted(step(inside, {"round": 3, "over": False}), "round")


def test_iec_turn_is_its_round_and_the_game_end_always_shows() -> None:
    iec_turn = [{"type": "turn_ended", "turn": 4, "phase": 14}]
    assert picture_level(iec_turn) == ROUND
    assert wanted(step(iec_turn, {}), "phase") and wanted(step(iec_turn, {}), "round")
    over = [{"type": "game_over"}]
    assert picture_level(over) == GAME
    assert all(wanted(step(over, {}), m) for m in ("turn", "phase", "round"))
    assert picture_level([]) is None


def test_the_setting_defaults_to_phase_and_ignores_what_it_does_not_know() -> None:
    assert picture_mode(None) == "phase"
    assert picture_mode({"pictures": "round"}) == "round"
    assert picture_mode({"pictures": "sometimes"}) == "phase"


@pytest.mark.parametrize("mode", ["phase", "round", "turn"])
def test_previous_picture_is_the_last_earlier_version_the_setting_showed(mode: str) -> None:
    game = GAMES["hexania"]
    names = ["Ann", "Bob"]
    state = game.setup(names, {}, 11)
    rng = Rng(new_rng_state(5))
    rows: list[ActionRow] = []
    shown: list[int] = []
    for version in range(2, 120):
        if game.is_over(state):
            break
        player = game.current_players(state)[0]
        action = game.bots["random"](json.loads(json.dumps(state)), player, rng)
        state, events = game.apply(state, player, action)
        rows.append(ActionRow(1, len(rows) + 1, version, "k", player, action, events, 0.0))
        pics = [e for e in events if game.is_picture_event(e)]
        if wanted(step(pics, state), mode):
            shown.append(version)
    assert len(shown) >= 2
    if mode == "turn":
        assert len(shown) > len({e["round"] for r in rows for e in r.events if "round" in e})
    # the previous picture of each shown one is the one shown before it (the start's: 0)
    for before, version in zip([0, *shown], shown, strict=False):
        assert previous_version(game, rows, version, mode) == before
    # and its state is the replayed one
    row = GameRow(1, "c", "hexania", {}, 11, None, rows[-1].version, "active", 0.0, 0.0, "k")
    at = states_at(game, names, row, rows, {shown[0], 0})
    upto = [(r.player, r.action) for r in rows if r.version <= shown[0]]
    assert canonical_json(at[shown[0]]) == canonical_json(replay(game, names, {}, 11, upto))
    assert canonical_json(at[0]) == canonical_json(game.setup(names, {}, 11))


def test_a_run_shows_each_round_it_passes_through_as_it_stands_at_the_end() -> None:
    """A run of moves (a person's and the bots' after it) posts one picture per round it
    passes through, of the board where that piece of the run ends: bots carrying a move
    through phases 2 to 4 post one album, which shows their builds before the person's turn
    to build (PG-35), not the end of phase 3; a table of bots alone (the demo) still shows
    each round (PG: the bureaucracy closes the round). The marks of each start at its
    piece's start."""
    phase = step([{"type": "phase_ended", "phase": "auction"}], {})
    none = step([], {})
    bureaucracy = step([{"type": "phase_ended", "phase": "bureaucracy"}], {})
    run = [none, phase, none, phase, bureaucracy, none, phase, phase, none]
    assert pictured_steps(run, "phase") == {4: 0, 8: 5}
    assert pictured_steps(run, "round") == {4: 0}
    assert pictured_steps(run, "off") == {}
    assert pictured_steps([none, phase, none], "phase") == {2: 0}
    assert pictured_steps([none, none], "phase") == {}


def logged(version: int, step_no: int, events: list[dict[str, Any]]) -> ActionRow:
    return ActionRow(1, version, version, "k", "Ann", {}, events, 0.0, step_no)


def test_the_previous_picture_is_where_the_earlier_run_ended() -> None:
    """The log's steps tell the runs apart (a step 0 begins one), so the chat's previous
    picture is found where it was drawn: at the end of the last earlier piece that showed a
    phase, a round's end inside a run cutting it. Rows logged before the steps were kept
    (all 0) are one run each: the picture after each phase, as those chats were shown."""
    game = GAMES["powergrid"]
    phase = [{"type": "phase_ended", "phase": "auction"}]
    rnd = [{"type": "phase_ended", "phase": "bureaucracy"}]
    # run 1: versions 1-3, its phase at 2; run 2: 4-5, nothing; run 3: 6-9, a round ends at 7
    rows = [
        logged(1, 0, []),
        logged(2, 1, phase),
        logged(3, 2, []),
        logged(4, 0, []),
        logged(5, 1, []),
        logged(6, 0, phase),
        logged(7, 1, rnd),
        logged(8, 2, phase),
        logged(9, 3, []),
    ]
    assert previous_version(game, rows, 4, "phase") == 3  # run 1 drawn at its end
    assert previous_version(game, rows, 6, "phase") == 3  # run 2 showed nothing
    assert previous_version(game, rows, 8, "phase") == 7  # run 3's first piece, to its round end
    assert previous_version(game, rows, 10, "phase") == 9
    assert previous_version(game, rows, 10, "round") == 7
    assert previous_version(game, rows, 6, "round") == 0
    legacy = [replace(r, step=0) for r in rows]
    assert previous_version(game, legacy, 4, "phase") == 2
    assert previous_version(game, legacy, 10, "phase") == 8
