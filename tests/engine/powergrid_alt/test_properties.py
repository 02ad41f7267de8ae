"""Whole bot games, 2-4 players, to the end: the variant's invariants after every move,
the JSON round trip, and the replay law."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import Rng, canonical_json, replay
from engine.powergrid_alt import GAME
from engine.powergrid_alt import rules as r

MAX_MOVES = 4000


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


def _play(n: int, seed: int, bots: list[str]) -> tuple[dict, list]:
    players = [f"p{i}" for i in range(n)]
    state = GAME.setup(players, {}, seed)
    rng = Rng({"s": seed ^ 0x5EED})
    log = []
    for _ in range(MAX_MOVES):
        if GAME.is_over(state):
            break
        who = GAME.current_players(state)[0]
        action = GAME.bots[bots[players.index(who)]](state, who, rng)
        log.append((who, json.loads(json.dumps(action))))
        state, _events = GAME.apply(state, who, action)
        _check(state)
        text = canonical_json(state)
        assert canonical_json(json.loads(text)) == text
    assert GAME.is_over(state)
    return state, log


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
