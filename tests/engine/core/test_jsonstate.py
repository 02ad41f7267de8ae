"""The canonical JSON (engine/core/jsonstate.py): orjson's fast path writes exactly what the
standard encoder writes, and reads back exactly what was written, for every game's states."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import Rng, canonical_json, copy_state, load_state
from engine.core.jsonstate import standard_json
from engine.core.rng import new_rng_state
from engine.registry import games

# What a state holds: text (any Unicode), integers within 64 bits, booleans, null, lists, objects.
_LEAF = st.text() | st.integers(min_value=-(2**63), max_value=2**64 - 1) | st.booleans() | st.none()
_JSON = st.recursive(
    _LEAF,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(value=_JSON)
def test_fast_path_writes_what_the_standard_encoder_writes(value: Any) -> None:
    text = canonical_json(value)
    assert text == standard_json(value)
    assert load_state(text) == value


def _states(game_id: str, seed: int, moves: int) -> list[Any]:
    game = games()[game_id]
    players = ["ann", "bob", "cyd", "dan"][: 3 + seed % 2]
    state = game.setup(players, {o.key: o.default for o in game.options}, seed)
    chooser = Rng(new_rng_state(seed))
    seen = [state]
    for _ in range(moves):
        if game.is_over(state):
            break
        player = game.current_players(state)[0]
        action = chooser.choice(game.legal_actions(state, player))
        state, _events = game.apply(state, player, action)
        seen += [state, game.view(state, None), game.view(state, player)]
    return seen


@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_games_states_round_trip_byte_for_byte(game_id: str) -> None:
    for value in _states(game_id, seed=11, moves=120):
        text = canonical_json(value)
        assert text == standard_json(value)
        assert canonical_json(load_state(text)) == text


def test_what_orjson_does_not_take_falls_back_to_the_standard_module() -> None:
    beyond_64_bits = {"b": 1 << 70, "a": [1, 2]}
    assert canonical_json(beyond_64_bits) == standard_json(beyond_64_bits)
    assert canonical_json({2: "two", 10: "ten"}) == '{"2":"two","10":"ten"}'  # as numbers
    assert load_state('{"x":[1,true,null,"ż"]}') == {"x": [1, True, None, "ż"]}
    assert load_state("[NaN]")[0] != load_state("[NaN]")[0]  # the standard module's NaN


def test_copy_state_is_a_deep_copy_that_keeps_key_order() -> None:
    state: dict[str, Any] = {"z": [1, {"b": 2, "a": [3]}], "a": None, "big": 1 << 70}
    copy = copy_state(state)
    assert copy == state and list(copy) == ["z", "a", "big"]  # not sorted: as it was
    copy["z"][1]["a"].append(4)
    assert state["z"][1]["a"] == [3]  # nothing shared
    assert copy_state(("a", 1)) == ["a", 1]  # JSON's own shape, as the stored state has
