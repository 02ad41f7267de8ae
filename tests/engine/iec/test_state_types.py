"""The TypedDicts of engine/iec/state_types.py describe the state the IEC rules really keep
(issue 26): every key of every state met in whole seeded bot games (both rules versions, with
and without the mine war) is declared, every required key is there, and the values have the
declared JSON types. mypy reads the TypedDicts; this test keeps them true."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import IllegalAction, Rng
from engine.core.rng import new_rng_state
from engine.iec import GAME
from engine.iec.scenario import GOODS
from engine.iec.state_types import (
    Area,
    Building,
    IECState,
    Orders,
    PlayerState,
    Subsidy,
    Token,
    Transfer,
)
from tests.engine.iec.helpers import by_seat, new
from tests.engine.powergrid.test_state_types import keys_fit  # one shape check

MAX_ACTIONS = 3000


def check_player(name: str, pl: dict[str, Any], state: dict[str, Any]) -> None:
    keys_fit(pl, PlayerState)
    assert all(isinstance(pl[k], int) for k in ("vp", "science", "mines_used", "given"))
    assert set(pl["revealed"]) <= set(pl["techs"]) and all(isinstance(t, int) for t in pl["techs"])
    assert pl["final_vp"] is None or (pl["eliminated"] and isinstance(pl["final_vp"], int))
    orders = pl["orders"]
    keys_fit(orders, Orders)
    for transfer in orders["transfers"]:
        keys_fit(transfer, Transfer)
        assert transfer["good"] in GOODS and isinstance(transfer["n"], int)
    if orders["subsidy"] is not None:
        keys_fit(orders["subsidy"], Subsidy)
    assert all(isinstance(n, int) for n in orders["give"].values())
    assert all(isinstance(v, list) for v in orders["deliver"].values())
    assert isinstance(orders["antimissile"], bool)
    assert set(orders["give"]) <= set(state["players"]) - {name}


def check(state: dict[str, Any], seen: set[str]) -> None:
    keys_fit(state, IECState)
    seen.update(state)
    assert set(state["players"]) == set(state["seats"]) == set(state["used_mines"])
    assert state["actor"] is None or state["actor"] in state["players"]
    for name, pl in state["players"].items():
        check_player(name, pl, state)
    for cell, b in state["buildings"].items():
        keys_fit(b, Building)
        assert b["cell"] == cell and b["owner"] in state["players"]
        assert ("goods" in b) == (b["kind"] == "storage")
        assert all(isinstance(n, int) for n in b.get("goods", {}).values())
    for token in state["tokens"]:
        keys_fit(token, Token)
        assert token["owner"] in state["players"] and token["id"] < state["next_token"]
    for area in state["areas"].values():
        keys_fit(area, Area)
        assert area["deposit"] is None or isinstance(area["deposit"], str)
    assert set(state["sites"].values()) <= set(state["players"])
    for declared in state.get("pending", {}).values():
        assert all(isinstance(action["type"], str) for action in declared)


@pytest.mark.parametrize(
    ("n", "seed", "version", "war"),
    [(2, 1, "1", "on"), (3, 2, "2", "on"), (4, 3, "2", "off"), (3, 5, "1", "off")],
)
def test_the_declared_state_shape_holds_through_whole_bot_games(
    n: int, seed: int, version: str, war: str
) -> None:
    players = [f"p{i}" for i in range(n)]
    state = GAME.setup(players, {"rules_version": version, "mine_war": war}, seed)
    rng = Rng(new_rng_state(seed))
    # the strong bot takes about a minute a game; the shape is the same
    kinds = {p: ["economic", "random"][i % 2] for i, p in enumerate(players)}
    seen: set[str] = set()
    for _ in range(MAX_ACTIONS):
        check(state, seen)
        if GAME.is_over(state):
            if version == "2":  # the declarations were met, and kept only while open
                assert {"actors", "pending"} <= seen
            return
        player = GAME.current_players(state)[0]
        action = GAME.bots[kinds[player]](state, player, rng)
        state, _events = GAME.apply(state, player, action)
    raise AssertionError(f"game {seed} did not end within {MAX_ACTIONS} actions")


def test_every_standing_and_private_order_keeps_the_declared_shape() -> None:
    """The orders bots rarely give (technologies they seldom reach), given through the chat:
    the state after each still fits the TypedDicts (corrections 1.1: private orders)."""
    state = new(2)
    p1, p2 = by_seat(state, "P1"), by_seat(state, "P2")
    state["players"][p1]["techs"] += [1, 3, 8, 16, 19]
    orders = [
        ("give", [p2, "1"]),
        ("extract", ["A1", "A"]),
        ("mix", ["BC", "AB"]),
        ("transfer", ["C1", "E3", "A", "1"]),
        ("deliver", ["C3", "E3"]),
        ("destroy", ["C1"]),
        ("flex", ["9", "last"]),
        ("antimissile", ["off"]),
        ("use", ["8", "off"]),
        ("sweep", ["H7"]),
        ("peek", ["II-N"]),
        ("subsidy", ["transmitter", "J13"]),
    ]
    given = []
    for name, words in orders:
        action = GAME.parse(state, p1, name, words)
        assert isinstance(action, dict)
        try:
            state, _events = GAME.apply(state, p1, action)
        except IllegalAction:
            continue  # refused by the rules (a deposit without A): the shape is unchanged
        given.append(name)
        check(state, set())
    assert len(given) >= 10, given
    mine = state["players"][p1]["orders"]
    assert mine["transfers"] and mine["subsidy"] is not None and mine["flex"] == {"9": "last"}
