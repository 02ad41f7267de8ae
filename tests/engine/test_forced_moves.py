"""Forced moves (issue 17, "No empty prompts"), every game: `forced_action` names a move only
when it is the player's one legal move, the engine accepts it, and a game played with the
forced moves keeps the replay law.

The seeds come from hypothesis (derandomised in `make test`, tests/conftest.py).
Rule-specific cases: below for Power Grid and Hexania, tests/engine/powergrid_alt/
test_forced.py and tests/engine/iec/test_simultaneous.py for the others.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import registry
from engine.core import Rng, canonical_json
from engine.core.rng import new_rng_state

NAMES = ["a", "b", "c", "d"]
DECISIONS = 400
CASES = [
    ("powergrid", {}),
    ("powergrid", {"hidden_money": "yes"}),
    ("powergrid_alt", {"rules_version": "1"}),
    ("powergrid_alt", {"rules_version": "2"}),
    ("powergrid_alt", {"rules_version": "2", "hidden_money": "yes"}),
    ("hexania", {}),
    ("iec", {"rules_version": "1"}),
    ("iec", {"rules_version": "2"}),
]


def _key(action: Any) -> str:
    return json.dumps(action, sort_keys=True)


def play(game_id: str, options: dict[str, str], seed: int, n: int) -> int:
    """A seeded game with random bots, each forced move played for its player and checked;
    returns how many forced moves were played."""
    game = registry.get(game_id)
    assert game.capabilities.forced_moves
    players = NAMES[:n]
    state = game.setup(players, options, seed)
    rng = Rng(new_rng_state(seed ^ 0xF0))
    bot = game.bots["random"]
    log: list[tuple[str, Any]] = []
    forced = 0
    for _ in range(DECISIONS):
        if game.is_over(state):
            break
        acting = game.current_players(state)
        for p in acting:
            move = game.forced_action(state, p)
            if move is None:
                continue
            legal = [_key(a) for a in game.legal_actions(state, p)]
            assert legal == [_key(move)], (game_id, options, seed, p, move, legal[:8])
            game.apply(copy.deepcopy(state), p, move)  # accepted
        for p in players:
            if p not in acting:
                assert game.forced_action(state, p) is None  # only the players asked
        player = acting[rng.below(len(acting))]
        move = game.forced_action(state, player)
        if move is not None:
            forced += 1
        else:
            move = bot(state, player, rng)
        game.apply(state, player, move)
        log.append((player, json.loads(json.dumps(move))))
    again = game.setup(players, options, seed)
    for player, move in log:
        game.apply(again, player, move)
    assert canonical_json(again) == canonical_json(state)
    return forced


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_issue17_forced_move_is_the_only_legal_move_and_keeps_the_replay_law(
    game_id: str, options: dict[str, str]
) -> None:
    game = registry.get(game_id)

    @settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(0, 2**31), n=st.integers(game.min_players, min(4, game.max_players)))
    def check(seed: int, n: int) -> None:
        play(game_id, options, seed, n)

    check()


def test_issue17_alt_round_one_purchase_is_forced_for_everybody() -> None:
    """EX-ALT-14: in round 1 nobody has a built plant, so every Phase 3 /done is forced."""
    assert play("powergrid_alt", {"rules_version": "2"}, 3, 4) >= 4


# ----------------------------------------------------------------------------- Power Grid


def _pg(**options: str) -> dict[str, Any]:
    """A 3-player game in round 1's auction (regions drawn: no region choice first)."""
    game = registry.get("powergrid")
    return game.setup(NAMES[:3], {"regions": "random", **options}, 11)


def _auction_chooser(state: dict[str, Any]) -> str:
    game = registry.get("powergrid")
    (chooser,) = game.current_players(state)
    return chooser


def test_pg25_round_one_chooser_is_never_forced_to_pass() -> None:
    game = registry.get("powergrid")
    state = _pg()
    chooser = _auction_chooser(state)
    state["players"][chooser]["money"] = 0  # even when broke: round 1 never passes (PG-25)
    assert game.forced_action(state, chooser) is None


def test_pg20_pg22_chooser_who_can_afford_no_plant_passes() -> None:
    game = registry.get("powergrid")
    state = _pg()
    state["round"] = 2
    chooser = _auction_chooser(state)
    state["players"][chooser]["money"] = min(state["market"][:4]) - 1
    assert game.forced_action(state, chooser) == {"type": "pass"}
    state["players"][chooser]["money"] = min(state["market"][:4])
    assert game.forced_action(state, chooser) is None


def test_pg9_hidden_money_never_forces_a_move_only_the_money_decides() -> None:
    game = registry.get("powergrid")
    state = _pg(hidden_money="yes")
    state["round"] = 2
    chooser = _auction_chooser(state)
    state["players"][chooser]["money"] = 0
    assert game.forced_action(state, chooser) is None


def test_pg31_pg33_resources_done_forced_without_storage() -> None:
    game = registry.get("powergrid")
    state = _pg()
    state["phase"], state["turn"], state["round"] = "resources", 0, 2
    player = state["order"][-1]
    state["players"][player]["plants"] = []
    assert game.forced_action(state, player) == {"type": "done"}
    state["players"][player]["plants"] = [4]
    assert game.forced_action(state, player) is None


def test_pg42_bureaucracy_power_nothing_forced_only_without_fuel() -> None:
    game = registry.get("powergrid")
    state = _pg()
    state["phase"], state["turn"], state["round"] = "bureaucracy", 0, 2
    player = state["order"][0]
    p = state["players"][player]
    p["plants"], p["res"] = [4], {"coal": 0, "oil": 0, "garbage": 0, "uranium": 0}
    assert game.forced_action(state, player) == {"type": "power", "plants": []}
    p["res"]["coal"] = 2
    assert game.forced_action(state, player) is None


# ----------------------------------------------------------------------------- Hexania


def test_hex2_end_forced_only_after_acting_with_nothing_affordable() -> None:
    game = registry.get("hexania")
    state = game.setup(NAMES[:2], {}, 4)
    (player,) = game.current_players(state)
    assert game.forced_action(state, player) is None  # a fresh turn: real choices
    state["turn"]["points"] = 0
    assert game.forced_action(state, player) is None  # HEX-2.4: /end now would resign
    state["turn"]["actions"] = 1
    assert game.forced_action(state, player) == {"type": "end"}
    assert [_key(a) for a in game.legal_actions(state, player)] == [_key({"type": "end"})]
