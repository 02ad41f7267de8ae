"""Whole games between the bots, checking the invariants after every action.

Token conservation (PG-3), money never negative (PG-9a), houses within the step's slots
(PG-38), plants within the limit (PG-26), market sorted and of the right size (PG-13,
PG-48, PG-50), byte-exact JSON round trip, the replay law, and illegal actions leaving
the state unchanged.
"""

from __future__ import annotations

import functools
import json
import operator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import IllegalAction, Rng, canonical_json, replay
from engine.core.rng import new_rng_state
from engine.powergrid import GAME
from engine.powergrid.bots import random_order
from engine.powergrid.data import STEP3
from engine.powergrid.market import six_plant_market
from engine.powergrid.rules import limits
from tests.engine.powergrid.helpers import NAMES, tokens_conserved

MAX_ACTIONS = 5000


def check_invariants(s: dict[str, Any]) -> None:
    assert tokens_conserved(s)
    lim = limits(s)
    for name, p in s["players"].items():
        assert p["money"] >= 0
        extra = 1 if (s["pending_discard"] or {}).get("player") == name else 0
        assert len(p["plants"]) <= lim["max_plants"] + extra
        assert p["plants"] == sorted(p["plants"])
        assert len(p["cities"]) == len(set(p["cities"])) <= 22
    for owners in s["cities"].values():
        assert 1 <= len(owners) <= s["step"] and len(set(owners)) == len(owners)
    market = s["market"]
    assert market == sorted(market) and market.count(STEP3) <= 1
    if s["phase"] not in ("regions", "over"):
        target = 6 if six_plant_market(s) else 8
        if s["pending_discard"]:
            target -= 1
        if s["deck"]:
            assert len(market) == target, (market, s["phase"], s["step"])
        else:
            assert len(market) <= target
    text = canonical_json(s)
    assert canonical_json(json.loads(text)) == text


def play(
    n: int, seed: int, options: dict[str, str], bots: list[str], check: bool
) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]]:
    players = NAMES[:n]
    s = GAME.setup(players, options, seed)
    rng = Rng(new_rng_state(seed ^ 0x5EED))
    log: list[tuple[str, dict[str, Any]]] = []
    while not GAME.is_over(s):
        assert len(log) < MAX_ACTIONS, "game did not end"
        player = GAME.current_players(s)[0]
        if check and rng.below(8) == 0 and s["phase"] not in ("regions", "over"):
            # Issue 12: somebody (on turn or not) places or cancels a standing order.
            player = players[rng.below(len(players))]
            action = random_order(s, player, rng)
            assert action is not None  # outside regions and the end an order is possible
            GAME.apply(s, player, action)
            _orders_private(s, players)
            log.append((player, json.loads(json.dumps(action))))
            check_invariants(s)
            _no_order_waits(s)
            continue
        bot = GAME.bots[bots[players.index(player)]]
        action = bot(s, player, rng)
        if check and len(log) % 37 == 0:
            _illegal_changes_nothing(s, player)
        GAME.apply(s, player, action)
        log.append((player, json.loads(json.dumps(action))))
        if check:
            check_invariants(s)
            _no_order_waits(s)
    return s, log


def _orders_private(s: dict[str, Any], players: list[str]) -> None:
    """Each viewer sees his own orders and private events only; the public view none."""
    book = s.get("orders", {})
    for viewer in [*players, None]:
        seen = GAME.view(s, viewer)
        mine = book.get(viewer, {}) if viewer is not None else {}
        assert set(seen["orders"]) == set(mine)
        assert all(not e.get("private") or e["player"] == viewer for e in seen["log"])


def _no_order_waits(s: dict[str, Any]) -> None:
    """Orders act inside apply: nobody named by current_players holds an order for it."""
    book = s.get("orders", {})
    for name in GAME.current_players(s):
        mine = book.get(name, {})
        if s["phase"] == "resources":
            assert "buy_auto" not in mine
        elif s["phase"] == "build":
            assert "build_plan" not in mine
        elif s["phase"] == "bureaucracy":
            assert "power_auto" not in mine
        elif s["phase"] == "auction" and s["pending_discard"] is None:
            assert "pass_round" not in mine
            auction = s["auction"]
            if auction is not None:
                assert mine.get("maxbid", {}).get("plant") != auction["plant"]
                assert mine.get("pass_plant", {}).get("plant") != auction["plant"]


def _illegal_changes_nothing(s: dict[str, Any], player: str) -> None:
    before = canonical_json(s)
    others = [p for p in s["seats"] if p != player]
    cases: list[tuple[str, dict[str, Any]]] = [
        (others[0], {"type": "done"}),
        (player, {"type": "teleport"}),
        (player, {"type": "build", "city": "Atlantis"}),
        (player, {"type": "raise", "bid": 10**6}),
        (player, {"type": "buy", "resource": "coal", "count": 99}),
        (player, {"type": "open", "plant": 2, "bid": 1}),
    ]
    for who, action in cases:
        try:
            GAME.apply(s, who, action)
        except IllegalAction:
            pass
        else:  # pragma: no cover - the assertion below reports it
            raise AssertionError(f"{action} by {who} was accepted")
        assert canonical_json(s) == before


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1),
    n=st.integers(2, 6),
    map_id=st.sampled_from(["germany", "usa"]),
    regions=st.sampled_from(["random", "choose"]),
    hidden=st.sampled_from(["no", "yes"]),
    bots=st.lists(st.sampled_from(["random", "heuristic"]), min_size=6, max_size=6),
)
def test_bot_games_keep_invariants_end_and_replay(
    seed: int, n: int, map_id: str, regions: str, hidden: str, bots: list[str]
) -> None:
    options = {"map": map_id, "regions": regions, "hidden_money": hidden}
    s, log = play(n, seed, options, bots, check=True)
    assert GAME.is_over(s) and s["ranking"]
    assert sorted(functools.reduce(operator.iadd, GAME.result(s), [])) == sorted(NAMES[:n])
    again = replay(GAME, NAMES[:n], options, seed, log)
    assert canonical_json(again) == canonical_json(s)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), n=st.integers(2, 6))
def test_every_listed_legal_action_is_accepted(seed: int, n: int) -> None:
    s = GAME.setup(NAMES[:n], {}, seed)
    rng = Rng(new_rng_state(seed))
    steps = 0
    while not GAME.is_over(s) and steps < 400:
        player = GAME.current_players(s)[0]
        actions = GAME.legal_actions(s, player)
        assert actions, "a player must always have a legal action"
        if steps % 5 == 0:
            for action in actions:
                GAME.apply(json.loads(canonical_json(s)), player, action)
        GAME.apply(s, player, GAME.bots["heuristic"](s, player, rng))
        steps += 1
