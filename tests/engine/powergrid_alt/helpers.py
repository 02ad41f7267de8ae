"""Small state builders for the variant's rule tests.

Tests start from a real `setup` (all 6 regions of Germany) and then set exactly the facts
a rule needs: phase, plants in hands or in cities with tokens, TPs, lines, money.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from engine.core import IllegalAction, Reply, canonical_json
from engine.powergrid.data import RESOURCES
from engine.powergrid_alt import GAME
from engine.powergrid_alt.graph import alt_map

State = dict[str, Any]
NAMES = ["a", "b", "c", "d"]


def new_game(n: int = 3, seed: int = 1, **options: str) -> State:
    # The region choice is the default (ALT-4 follows PG-8, DECISION PG-D-3); these tests
    # set the regions themselves, so they pin the random draw that starts in the auction.
    options.setdefault("regions", "random")
    state = GAME.setup(NAMES[:n], {k: str(v) for k, v in options.items()}, seed)
    state["regions"] = sorted(set(alt_map(state["map"]).region.values()))
    return state


def set_phase(
    state: State, phase: str, *, round_: int = 2, order: list[str] | None = None, step: int = 1
) -> State:
    state["phase"] = phase
    state["round"] = round_
    state["turn"] = 0
    state["step"] = step
    state["auction"] = None
    state["pending_discard"] = None
    if order is not None:
        state["order"] = list(order)
    for p in state["players"].values():
        p["bought"] = p["passed"] = p["done"] = False
    return state


def _take_plant(state: State, number: int) -> None:
    state["market"] = [n for n in state["market"] if n != number]
    state["deck"] = [n for n in state["deck"] if n != number]
    for p in state["players"].values():
        if number in p["plants"]:
            p["plants"].remove(number)


def give_hand(state: State, player: str, *numbers: int) -> State:
    for number in numbers:
        _take_plant(state, number)
        state["players"][player]["plants"] = sorted([*state["players"][player]["plants"], number])
    return state


def give_plant(state: State, player: str, number: int, city: str, **res: int) -> State:
    """A built plant of `player` in `city` holding `res` tokens (taken from the supply)."""
    give_hand(state, player, number)
    tokens = {k: 0 for k in RESOURCES}
    for k, v in res.items():
        tokens[k] = v
        from_supply = min(v, state["supply"][k])
        state["supply"][k] -= from_supply
        state["rm"][k] -= v - from_supply
    state["built"][str(number)] = {"owner": player, "city": city, "res": tokens}
    state["players"][player]["cities"].append(city)
    return state


def give_tp(state: State, player: str, city: str) -> State:
    state["tps"].setdefault(city, []).append(player)
    state["players"][player]["cities"].append(city)
    return state


def give_line(state: State, player: str, *nodes: str) -> dict[str, Any]:
    """An owned line through `nodes` (cheapest connection between each pair)."""
    am = alt_map(state["map"])
    segs = []
    for a, b in itertools.pairwise(nodes):
        seg = min((s for s in am.incident[a] if s.other(a) == b), key=lambda s: s.cost)
        segs.append(seg.key)
    line = {"id": state["next_line"], "owner": player, "nodes": list(nodes), "segs": segs}
    state["next_line"] += 1
    state["lines"].append(line)
    return line


def money(state: State, player: str, amount: int) -> State:
    state["players"][player]["money"] = amount
    return state


def act(state: State, player: str, action: dict[str, Any]) -> list[dict[str, Any]]:
    _state, events = GAME.apply(state, player, action)
    return events


def illegal(state: State, player: str, action: dict[str, Any], rule: str) -> IllegalAction:
    """Assert the action is refused with `rule` and the state is unchanged."""
    before = canonical_json(state)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, player, action)
    assert info.value.rule_id == rule, info.value
    assert canonical_json(state) == before
    return info.value


def build_turn(state: State, player: str, others: list[str], *, step: int = 1) -> State:
    """Phase 4 with `player` acting first (reverse order: player is last in order)."""
    return set_phase(state, "build", order=[*others, player], step=step)


def power_turn(state: State, player: str, others: list[str]) -> State:
    return set_phase(state, "bureaucracy", order=[player, *others])


def parsed(state: State, player: str, name: str, args: list[str]) -> dict[str, Any]:
    """The one action a chat command reads to (asserted: not a list, not a Reply)."""
    found = GAME.parse(state, player, name, args)
    assert isinstance(found, dict), found
    return found


def replied(state: State, player: str, name: str, args: list[str]) -> Reply:
    """The answer of a quote command (asserted: a Reply, not an action)."""
    found = GAME.parse(state, player, name, args)
    assert isinstance(found, Reply), found
    return found
