"""Whole games between bots: invariants, secrecy, replay law, JSON round trip."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from engine.core import Rng, canonical_json, replay
from engine.iec import GAME, rules

Kinds = hs.lists(hs.sampled_from(["random", "economic"]), min_size=4, max_size=4)


def check_invariants(
    st: dict[str, Any], events: list[dict[str, Any]], powered_max: dict[str, int]
) -> None:
    s = rules.scen(st)
    for b in st["buildings"].values():
        assert 1 <= b["modules"] <= rules.nominal(st, b)
        if b["kind"] == "storage":
            assert all(n >= 0 for n in b["goods"].values())
            assert rules.load_of(b) <= rules.capacity(st, b)
    blds = list(st["buildings"].values())
    for i, a in enumerate(blds):
        for b in blds[i + 1 :]:
            m = max(s.buildings[a["kind"]]["interval"], s.buildings[b["kind"]]["interval"])
            assert s.d2(a["cell"], b["cell"]) >= m * m, (a["cell"], b["cell"])
    for e in events:
        if e["type"] == "power":
            assert len(e["powered"]) <= e["slots"]
            powered_max[e["player"]] = len(e["powered"])
    for p in st["seats"]:
        n = sum(1 for b in rules.own(st, p) if b["powered"] and b["kind"] != "reactor")
        assert n <= powered_max.get(p, 99)
    for viewer in [*st["seats"], None]:
        v = rules.view(st, viewer)
        assert "rng" not in v
        for t in v["tokens"]:
            if t["owner"] != viewer and not t["up"]:
                assert "real" not in t
        for p, pl in v["players"].items():
            if p != viewer:
                assert set(pl["techs"]) <= set(st["players"][p]["revealed"])
                assert "orders" not in pl and "peeks" not in pl
        for area_id, area in v["areas"].items():
            if area_id != "H":
                peeks = st["players"][viewer]["peeks"] if viewer else {}
                assert area["candidates"] == peeks.get(area_id, [])


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=hs.integers(2, 4), seed=hs.integers(0, 2**32), kinds=Kinds)
def test_iec_bot_games_reach_the_end_with_invariants_and_replay(
    n: int, seed: int, kinds: list[str]
) -> None:
    players = [f"pl{i}" for i in range(n)]
    st = GAME.setup(players, {}, seed)
    rng = Rng({"s": seed ^ 0x5EED})
    log: list[tuple[str, dict[str, Any]]] = []
    powered_max: dict[str, int] = {}
    steps = 0
    while not GAME.is_over(st):
        (p,) = GAME.current_players(st)
        action = GAME.bots[kinds[players.index(p)]](st, p, rng)
        log.append((p, json.loads(json.dumps(action))))
        st, events = GAME.apply(st, p, action)
        check_invariants(st, events, powered_max)
        steps += 1
        assert steps < 20000
    assert st["turn"] == 20 or len(rules.alive(st)) <= 1
    ranking = GAME.result(st)
    assert sorted(p for g in ranking for p in g) == sorted(players)
    text = canonical_json(st)
    assert canonical_json(json.loads(text)) == text
    assert canonical_json(replay(GAME, players, {}, seed, log)) == text
