import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import IllegalAction, Rng, canonical_json, load_state, replay
from engine.core.rng import new_rng_state
from engine.registry import games
from tests.engine.core.toygame import GAME


def play_random(seed: int, players: list[str]) -> tuple[dict, list[tuple[str, dict]]]:
    state = GAME.setup(players, {}, seed)
    chooser = Rng(new_rng_state(seed ^ 0xABC))
    log: list[tuple[str, dict]] = []
    while not GAME.is_over(state):
        player = GAME.current_players(state)[0]
        action = chooser.choice(GAME.legal_actions(state, player))
        state, _ = GAME.apply(state, player, action)
        log.append((player, action))
    return state, log


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), n=st.integers(2, 4))
def test_replay_law_and_byte_exact_json(seed: int, n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    state, log = play_random(seed, players)
    assert GAME.is_over(state)
    replayed = replay(GAME, players, {}, seed, log)
    assert canonical_json(replayed) == canonical_json(state)
    text = canonical_json(state)
    assert canonical_json(load_state(text)) == text


def test_illegal_action_changes_nothing_and_names_rule() -> None:
    state = GAME.setup(["a", "b"], {}, 7)
    before = canonical_json(state)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, "b", {"take": 1})
    assert err.value.rule_id == "TOY-1"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, "a", {"take": 9})
    assert err.value.rule_id == "TOY-2"
    assert err.value.english() == "Take 1 to 3 stones."
    assert canonical_json(state) == before


def test_rng_is_deterministic_and_lives_in_json() -> None:
    a, b = new_rng_state(42), new_rng_state(42)
    seq_a = [Rng(a).below(1000) for _ in range(50)]
    b = json.loads(json.dumps(b))
    seq_b = [Rng(b).below(1000) for _ in range(50)]
    assert seq_a == seq_b
    assert a == b


def test_rng_die_is_roughly_uniform() -> None:
    box = new_rng_state(1)
    counts = Counter(Rng(box).die() for _ in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(9_000 < c < 11_000 for c in counts.values())


def test_rng_shuffle_is_a_permutation() -> None:
    items = list(range(40))
    Rng(new_rng_state(3)).shuffle(items)
    assert sorted(items) == list(range(40)) and items != list(range(40))


def test_registry_lists_only_games() -> None:
    found = games()
    assert "core" not in found
    for game_id, game in found.items():
        assert game.id == game_id
        assert 1 <= game.min_players <= game.max_players
