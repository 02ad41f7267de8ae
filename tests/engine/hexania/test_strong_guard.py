"""The guarded bot (engine/hexania/strong.py): the strong bot's default move, which adds to the
greedy score what greedy games are lost to (elimination HEX-2.4, homeland block HEX-5)."""

from __future__ import annotations

from engine.core import Rng
from engine.core.rng import new_rng_state
from engine.hexania import GAME, rules
from engine.hexania.board import HOMELANDS
from engine.hexania.figures import Figures
from engine.hexania.strong import (
    after_board,
    attack_costs,
    cheapest_action,
    guard_value,
    guarded_bot,
)
from tests.engine.hexania.helpers import position

NORTH = HOMELANDS["N"]  # blue's homeland in the two-player helper position (A4..A9)


def _cheapest(board: dict[str, str]) -> int:
    return cheapest_action(board, Figures(board), "blue", NORTH)


def test_cheapest_action_is_a_birth_on_a_free_homeland() -> None:
    # HEX-3: a birth costs 1 on an empty homeland cell touching no own piece (HEX-11).
    assert _cheapest({"L12": "blue", "L13": "blue"}) == 1
    assert _cheapest({}) == 1


def test_cheapest_action_without_births_is_the_smallest_growth() -> None:
    # HEX-5: an enemy piece on the homeland stops every birth; growth costs the mass (HEX-4).
    board = {"A9": "red", "L12": "blue", "L13": "blue", "C3": "blue", "C4": "blue", "C5": "blue"}
    assert _cheapest(board) == 2
    # EX-HEX-4: every free homeland cell touches a blue piece (HEX-11): no birth either.
    ex4 = ["A5", "B6", "B7", "A7", "A9", "B10", "B11", "B12"]
    assert _cheapest(dict.fromkeys(ex4, "blue")) == 4
    # EX-HEX-2: no pieces and a blocked homeland: no action at all (HEX-2.4).
    assert _cheapest({"A6": "red"}) == 99


def test_after_board_resolves_a_collapse_on_the_kept_cell() -> None:
    # EX-HEX-16 / HEX-13: a mass-11 figure grows to 12 and keeps one chosen cell.
    row = [f"L{i}" for i in range(2, 13)]
    state = position({"blue": row}, points=12)
    pos_plans = dict((tuple(sorted(a.items())), p) for a, p in rules.legal_plans(state, "blue"))
    key = tuple(sorted({"type": "grow", "figure": "L2", "cell": "L13", "keep": "L7"}.items()))
    after = after_board(state["board"], pos_plans[key], "blue")
    assert after == {"L7": "blue"}


def test_guard_value_prices_the_elimination_risk_of_a_big_figure() -> None:
    # HEX-2.4: with the homeland blocked (HEX-5) a lone mass-1 figure can always act next
    # turn; grown to mass 2 it still can; merged into a heavy figure it may not.
    state = position({"blue": ["L12"], "red": ["A6", "W12"]}, points=12)
    board = state["board"]
    costs = attack_costs(board, Figures(board), "blue")
    plans = {a.get("cell"): p for a, p in rules.legal_plans(state, "blue") if a["type"] == "grow"}
    light = guard_value(board, plans["L13"], "blue", costs, NORTH)
    state_heavy = position(
        {"blue": [f"L{i}" for i in range(4, 13)], "red": ["A6", "W12"]}, points=12
    )
    heavy_board = state_heavy["board"]
    heavy_costs = attack_costs(heavy_board, Figures(heavy_board), "blue")
    heavy_plans = {
        a.get("cell"): p for a, p in rules.legal_plans(state_heavy, "blue") if a["type"] == "grow"
    }
    heavy = guard_value(heavy_board, heavy_plans["L13"], "blue", heavy_costs, NORTH)
    assert light > heavy + 20  # a mass-10 figure needs a roll of 10: 5 chances in 6 to fail


def test_guarded_bot_frees_its_homeland_first() -> None:
    # Two kills of the same price: the one on blue's homeland (HEX-5) lets blue bear again.
    state = position({"blue": ["A5", "K5"], "red": ["A6", "K6"]}, points=3)
    action = guarded_bot(state, "blue", Rng(new_rng_state(1)))
    plan = rules.price(state, "blue", action)
    assert list(plan.destroyed) == ["A6"]


def test_guarded_bot_plays_legal_moves_to_the_end_of_a_game() -> None:
    players = ["p0", "p1", "p2", "p3"]
    state = GAME.setup(players, {}, 7)
    rng = Rng(new_rng_state(7))
    actions = 0
    while not GAME.is_over(state) and actions < 300:
        player = GAME.current_players(state)[0]
        GAME.apply(state, player, guarded_bot(state, player, rng))  # raises if illegal
        actions += 1
    assert actions == 300 or GAME.result(state)
