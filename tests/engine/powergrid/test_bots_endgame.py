"""The heuristic bot (the strong bot's rollout policy and its first candidate) brings the
game's end on only when it wins it (PG-53: the most cities powered wins). Found play-testing
through Telegram, 2026-12-05: a bot built its way to the end threshold, 21 cities, and
finished last with none powered."""

from __future__ import annotations

from engine.core import Rng
from engine.core.rng import new_rng_state
from engine.powergrid import GAME
from engine.powergrid.data import game_map
from engine.powergrid.rules import limits
from tests.engine.powergrid.helpers import give, new_game, set_phase


def _near_the_end(mine: list[int], rival: list[int]) -> dict:
    """Round 6's building, "a" to build first, two cities short of the end threshold, her
    plants `mine`; "b" with `rival` and two cities fewer."""
    state = set_phase(new_game(3, 1), "build", round_=6, order=["c", "b", "a"])
    state["step"] = 2
    end = limits(state)["end"]
    gm = game_map(state["map"])
    cities = [c for c, r in zip(gm.cities, gm.city_region, strict=True) if r in state["regions"]]
    give(state, "a", money=200, plants=mine, cities=cities[: end - 2])
    give(state, "b", money=50, plants=rival, cities=cities[end - 2 : 2 * end - 6])
    give(state, "c", money=50, plants=[], cities=[])
    assert GAME.current_players(state) == ["a"]
    return state


def _move(state: dict) -> str:
    return str(GAME.bots["heuristic"](state, "a", Rng(new_rng_state(1)))["type"])


def test_pg53_it_does_not_end_a_game_it_would_lose_on_powered_cities() -> None:
    # "a" powers 6 (plant 31), "b" 13 (plants 31, 32 and 20 power 17, on 13 cities)
    assert _move(_near_the_end([31], [20, 31, 32])) == "done"


def test_pg53_it_ends_a_game_it_wins_on_powered_cities() -> None:
    # "a" powers 17 (plants 20, 31, 32), "b" 6 (plant 30)
    assert _move(_near_the_end([20, 31, 32], [30])) == "build"
