"""Random legal games: invariants, replay law, JSON round trip, refused actions change nothing."""

import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import IllegalAction, Rng, canonical_json, replay
from engine.core.rng import new_rng_state
from engine.hexania import GAME, rules
from engine.hexania.board import CELL_SET, COLLAPSE_MASS, DIRECTION_NAMES, HOMELANDS, NEIGHBOURS
from engine.hexania.figures import Figures, components

VARIANTS = ("split", "guard", "bastions", "birthattack", "viscous", "mergebirth")


def check_invariants(state: dict) -> None:
    board = state["board"]
    active = rules.active_players(state)
    assert set(board) <= CELL_SET and set(board.values()) <= set(active)
    view = GAME.view(state, None)
    assert "rng" not in view
    for player, info in view["players"].items():
        cells = sorted(c for c, o in board.items() if o == player)
        figs = info["figures"]
        assert sorted(c for f in figs for c in f["cells"]) == cells  # every piece, once
        assert sorted(sorted(f["cells"]) for f in figs) == sorted(
            sorted(g) for g in components(cells)
        )
        for f in figs:
            assert f["mass"] == len(f["cells"])
            if not state["options"]["bastions"]:
                assert f["mass"] < COLLAPSE_MASS
    turn = state["turn"]
    if turn is not None:
        assert turn["points"] >= 0
    text = canonical_json(state)
    assert canonical_json(json.loads(text)) == text


def random_candidate(state: dict, player: str, rng: Rng) -> dict:
    own = sorted(c for c, o in state["board"].items() if o == player) or ["L12"]
    cell = rng.choice(own)
    kind = rng.below(5)
    if kind == 0:
        return {"type": "birth", "cell": rng.choice(list(HOMELANDS[rng.choice(["N", "S", "NE"])]))}
    if kind == 1:
        return {"type": "grow", "figure": cell, "cell": rng.choice(list(NEIGHBOURS[cell]))}
    if kind == 2:
        return {
            "type": "move",
            "figure": cell,
            "dir": rng.choice(list(DIRECTION_NAMES)),
            "steps": rng.randint(0, 5),
        }
    if kind == 3:
        near = NEIGHBOURS[rng.choice(list(NEIGHBOURS[cell]))]
        return {"type": "regroup", "from": cell, "to": rng.choice(list(near))}
    return {"type": rng.choice(["fly", "end", "birth"]), "cell": "Q99"}


def normalised(state: dict, action: dict) -> dict:
    if "figure" in action and action["figure"] in state["board"]:
        figs = Figures(state["board"])
        return {**action, "figure": figs.figure_at(action["figure"])[0]}
    return action


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    n=st.integers(2, 6),
    variants=st.lists(st.sampled_from(VARIANTS), unique=True, max_size=3),
    bot=st.sampled_from(["random", "greedy"]),
)
def test_random_legal_games_keep_every_invariant(seed: int, n: int, variants, bot) -> None:  # type: ignore[no-untyped-def]
    players = [f"p{i}" for i in range(n)]
    options = {"rounds": "4", **{v: "yes" for v in variants}}
    state = GAME.setup(players, options, seed)
    chooser = Rng(new_rng_state(seed ^ 0x5EED))
    log: list[tuple[str, dict]] = []
    for _ in range(2000):
        if GAME.is_over(state):
            break
        check_invariants(state)
        player = GAME.current_players(state)[0]
        legal = GAME.legal_actions(state, player)
        # a random (mostly illegal) action: refused without a trace, or else listed as legal
        probe = random_candidate(state, player, chooser)
        trial = copy.deepcopy(state)
        before = canonical_json(trial)
        try:
            GAME.apply(trial, player, probe)
        except IllegalAction:
            assert canonical_json(trial) == before
        else:
            assert normalised(state, probe) in legal
        # out of turn is refused too
        other = next(p for p in players if p != player)
        trial = copy.deepcopy(state)
        try:
            GAME.apply(trial, other, legal[0])
            raise AssertionError("a player acted out of turn")
        except IllegalAction as err:
            assert err.rule_id == "HEX-T-2" and canonical_json(trial) == canonical_json(state)
        action = GAME.bots[bot](state, player, chooser)
        assert action in legal
        state, _events = GAME.apply(state, player, action)
        log.append((player, action))
    assert GAME.is_over(state)
    ranking = GAME.result(state)
    assert sorted(p for group in ranking for p in group) == sorted(players)
    replayed = replay(GAME, players, options, seed, log)
    assert canonical_json(replayed) == canonical_json(state)


def test_greedy_six_player_game_ends_within_the_default_round_limit() -> None:
    players = [f"p{i}" for i in range(6)]
    state = GAME.setup(players, {}, 2024)
    chooser = Rng(new_rng_state(7))
    steps = 0
    while not GAME.is_over(state):
        player = GAME.current_players(state)[0]
        state, _ = GAME.apply(state, player, GAME.bots["greedy"](state, player, chooser))
        steps += 1
        assert steps < 20_000
    assert state["end_reason"] in ("round_limit", "last_player")
    assert state["round"] <= 30
