"""Forced moves never tell a secret (issue 17 with issue 20): whether the table passes a player
(`forced_action`) depends on public information only.

- Power Grid and its alternative rules with `hidden_money=yes` (PG-9 option): a pass, /done
  or empty power declaration forced only because the player lacks money would show the table
  what he holds, so it is forced only when it would be forced with any amount of money
  (engine/powergrid/forced.py, engine/powergrid_alt/forced.py).
- IEC: secret technologies (and, in rules version 2, the checks of a phase declared at once)
  never decide a forced /done (engine/iec/forced.py, together.planned with `public`): covered
  with every other output by tests/engine/iec/test_noninterference.py and
  test_noninterference_declarations.py.
- Hexania has no secrets but the future dice, which no rule consults before they are rolled.

Two states that differ only in one player's money play the same sequence; after every move
the forced move of every player, who is asked, and the public view must be the same in both.
The comparison stops where a rule consults the money in public (a partly filled declared
purchase, penalties capped by money, the end of the game), which the public view then shows.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import registry
from engine.core import IllegalAction, Rng
from engine.core.rng import new_rng_state

State = dict[str, Any]
STEPS = 60


def _try(game: Any, state: State, player: str, action: Any) -> State | None:
    s = copy.deepcopy(state)
    try:
        return game.apply(s, player, action)[0]
    except IllegalAction:
        return None


def _seen(game: Any, state: State) -> Any:
    return (
        game.current_players(state),
        [game.forced_action(state, p) for p in state["seats"]],
        json.dumps(game.view(state, None), sort_keys=True),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game_id=st.sampled_from(["powergrid", "powergrid_alt"]),
    version=st.sampled_from(["1", "2"]),
    n=st.integers(2, 4),
    seed=st.integers(0, 2**20),
    forward=st.integers(0, 80),
    extra=st.integers(1, 300),
    who=st.integers(0, 3),
)
def test_pg9_forced_moves_never_depend_on_hidden_money(
    game_id: str, version: str, n: int, seed: int, forward: int, extra: int, who: int
) -> None:
    game = registry.get(game_id)
    options = {"hidden_money": "yes"}
    if game_id == "powergrid_alt":
        options["rules_version"] = version
    seats = [f"p{i}" for i in range(n)]
    state = game.setup(seats, options, seed)
    rng = Rng(new_rng_state(seed))
    bot = game.bots["random"]
    for _ in range(forward):
        if game.is_over(state):
            return
        p = game.current_players(state)[0]
        state = game.apply(state, p, bot(state, p, rng))[0]
    holder = seats[who % n]
    a, b = copy.deepcopy(state), copy.deepcopy(state)
    b["players"][holder]["money"] += extra  # richer: every move a accepts, b accepts
    for _ in range(STEPS):
        if game.is_over(a) or _seen(game, a)[2] != _seen(game, b)[2]:
            return  # over, or a rule consulted the money in public (see above)
        assert _seen(game, a) == _seen(game, b)
        p = game.current_players(a)[0]
        forced = game.forced_action(a, p)
        action = forced if forced is not None else bot(a, p, rng)
        na, nb = _try(game, a, p, action), _try(game, b, p, action)
        if na is None or nb is None:
            if p != holder:
                assert na is None and nb is None  # nobody else's move hinges on his money
            continue
        a, b = na, nb
