"""Whole bot games, 2-4 players, to the end: the variant's invariants after every move,
the JSON round trip, and the replay law."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.core import canonical_json, replay
from engine.powergrid_alt import GAME
from engine.powergrid_alt import rules as r
from engine.powergrid_alt.bots import STALLED_ROUNDS

from .bot_figures import play


def _check(state: dict) -> None:
    for region in state["regions"]:
        assert r.pollution(state, region) <= 5  # ALT-18
        assert r.nuclear_count(state, region) <= 1  # ALT-19
    segs = [s for ln in state["lines"] for s in ln["segs"]]
    assert len(segs) == len(set(segs))  # ALT-22: one owner per connection
    for city, owners in state["tps"].items():
        assert len(owners) <= 3 and len(set(owners)) == len(owners)  # ALT-24, ALT-27
        assert not owners or not r.plants_in(state, city)  # no TP in a plant's city
    for name, p in state["players"].items():
        assert p["money"] >= 0  # ALT-12
        assert len(set(p["cities"])) == len(p["cities"])
        for ln in state["lines"]:
            if ln["owner"] == name:  # ALT-D-12: never through own cities
                assert not set(ln["nodes"][1:-1]) & set(p["cities"])
    for city in {b["city"] for b in state["built"].values()}:
        here = r.plants_in(state, city)
        assert len(here) <= r.plant_slots(state, city)
        assert len({state["built"][str(n)]["owner"] for n in here}) == len(here)
    assert r.conserved(state)  # resources conserved


def _check_with_round_trip(state: dict) -> None:
    _check(state)
    text = canonical_json(state)
    assert canonical_json(json.loads(text)) == text  # JSON state


def _play(n: int, seed: int, bots: list[str]) -> tuple[dict, list]:
    game = play(n, seed, bots[:n], check=_check_with_round_trip)
    assert GAME.is_over(game.state)
    return game.state, game.log


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    bots=st.lists(st.sampled_from(["random", "heuristic"]), min_size=4, max_size=4),
)
def test_alt_bot_games_end_with_invariants_and_replay(n: int, seed: int, bots: list[str]) -> None:
    state, log = _play(n, seed, bots)
    again = replay(GAME, [f"p{i}" for i in range(n)], {}, seed, log)
    assert canonical_json(again) == canonical_json(state)
    ranking = GAME.result(state)
    assert sorted(x for g in ranking for x in g) == sorted(state["seats"])


def test_alt_heuristic_games_build_networks_and_earn_income() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(4):
        state, log = _play(3, seed, ["heuristic"] * 4)
        kinds.update(a["type"] for _who, a in log)
        assert any(len(ln["nodes"]) >= 2 for ln in state["lines"])
    assert kinds["line"] > 0 and kinds["build_plant"] > 0 and kinds["buy"] > 0


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 4), seed=st.integers(0, 2**32))
@example(n=3, seed=282711)  # a table gone broke, ended by agreement
def test_alt_heuristic_games_keep_invariants_replay_and_end(n: int, seed: int) -> None:
    """ALT-18/19/22/24/27, ALT-12, conservation, JSON and replay in heuristic-only games,
    which play through Step 2 (displacement, hanging lines, penalties)."""
    game = play(n, seed, check=_check_with_round_trip)
    assert GAME.is_over(game.state)
    # ALT-44, ALT-45 (corrected); or a table gone broke (nobody built for STALLED_ROUNDS
    # Phase 4s) that the heuristic bots end by agreement (bots.py; found by `make fuzz`,
    # 2026-12-04: three players, seed 282711, all at 0-5 Elektro from round 15)
    assert game.ended_by in ("covered", "unreachable") or (
        game.ended_by == "agreement" and game.state["idle"] >= STALLED_ROUNDS
    )
    if game.ended_by == "covered":  # ALT-43: every city holds a plant or a TP
        assert all(r.covered(game.state, node) for node in r.play_nodes(game.state))
    again = replay(GAME, [f"p{i}" for i in range(n)], {}, seed, game.log)
    assert canonical_json(again) == canonical_json(game.state)


def test_alt_heuristic_games_reach_step2_displacement_and_coverage() -> None:
    """ALT-40, ALT-15, ALT-28, ALT-36, ALT-43: over seeded 2-4 player heuristic games, most
    reach Step 2 and end by coverage; some displace TPs, leave hanging lines and pay
    penalties to their owners."""
    games = [play(n, seed, check=_check) for n in (2, 3, 4) for seed in range(3)]
    assert sum(g.top_step >= 2 for g in games) >= 7
    assert all(g.ended_by == "covered" for g in games)  # ALT-45: idle rounds never end it
    assert any(g.displacements for g in games)
    assert any(g.hanging_seen for g in games)
    assert any(g.penalties_to_players for g in games)
    for g in games:
        if g.displacements:
            assert g.top_step >= 2  # ALT-41: no displacement in Step 1
