"""IEC's /hint names the command to type (issue 24): `command_text` is read back by the chat
parser to the very action, for every kind of command, and the reason line never quotes
simulation odds the policy-only decisions do not have."""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.core import EnglishTranslator, IllegalAction, Reply, Rng, State, canonical_json
from engine.core.protocol import Action
from engine.core.rng import new_rng_state
from engine.core.search import Budget
from engine.iec import strong
from engine.iec.commands import COMMANDS, parse
from engine.iec.defence import guarded_bot
from engine.iec.hints import command_text
from engine.iec.rules import PHASE_ACTIONS

GAME = registry.get("iec")


def _read_back(state: State, player: str, action: Action) -> Action | list[Action] | Reply:
    name, *words = command_text(action)[1:].split()
    return parse(state, player, name, words)


def _played(seed: int, players: int, rival: str, steps: int) -> list[tuple[State, str, Action]]:
    """Positions of a game of the guarded policy against `rival` bots, with the moves the
    bots and a few random legal moves would make there."""
    names = [f"p{i}" for i in range(1, players + 1)]
    state = GAME.setup(names, {}, seed)
    rng, rnd = Rng(new_rng_state(seed)), random.Random(seed)
    seen: list[tuple[State, str, Action]] = []
    for _ in range(steps):
        if GAME.is_over(state):
            break
        player = rnd.choice(GAME.current_players(state))
        bot = guarded_bot if player == "p1" else GAME.bots[rival]
        move = bot(state, player, rng)
        legal = GAME.legal_actions(state, player)
        for action in [move, *rnd.sample(legal, min(3, len(legal)))]:
            seen.append((state, player, action))
        # read back against this very position before it changes
        for st, p, a in seen[-4:]:
            assert _read_back(st, p, a) == a, command_text(a)
        state, _ = GAME.apply(state, player, move)
    return seen


@pytest.mark.parametrize(("seed", "players", "rival"), [(3, 2, "rush"), (4, 3, "economic")])
def test_every_move_bots_make_reads_back_from_its_command(
    seed: int, players: int, rival: str
) -> None:
    seen = _played(seed, players, rival, 900)
    kinds = {a["type"] for _, _, a in seen}
    assert {"prepare", "build", "transmit", "lay", "done", "mix", "extract"} <= kinds
    if rival == "rush":
        assert "fire" in kinds  # the rush fires from turn 1 (bench/bots.py)


def test_every_command_example_reads_back() -> None:
    """Each command's own examples (IEC-27: a position where the phase allows them is not
    needed for standing orders; /fire is covered by the rush game above)."""
    state = GAME.setup(["ann", "bob"], {}, 1)
    rng = Rng(new_rng_state(1))
    for _ in range(60):
        p = GAME.current_players(state)[0]
        state, _ = GAME.apply(state, p, GAME.bots["economic"](state, p, rng))
    checked = set()
    for spec in COMMANDS:
        for example in spec.examples:
            name, *words = example[1:].split()
            try:
                action = parse(state, "ann", name, words)
            except IllegalAction:
                continue
            if isinstance(action, Reply):
                continue
            assert isinstance(action, dict)
            assert _read_back(state, "ann", action) == action, example
            checked.add(spec.name)
    assert len(checked) >= 20


def test_hint_names_the_command_and_why_without_odds() -> None:
    """A phase-5 hint was "/mix: 0% to win in the simulations": no arguments, and odds of a
    decision that ran no simulation. Now the line starts with the full command."""
    state = GAME.setup(["ann", "bob"], {}, 2)
    lines = []
    for _ in range(120):
        if GAME.is_over(state):
            break
        player = GAME.current_players(state)[0]
        action, why = strong.hint(state, player, EnglishTranslator(), budget=Budget(iterations=2))
        assert why.startswith(command_text(action) + ": "), why
        assert "simulation" not in why and "\n" not in why
        name, *words = command_text(action)[1:].split()
        assert parse(state, player, name, words) == action
        lines.append(why)
        state, _ = GAME.apply(state, player, action)
    assert any(line.startswith("/build ") for line in lines)


def _asked_to_prepare() -> State:
    """Turn 1, phase 6 (IEC-27: preparing sites), bob asked to act; nobody has given a
    standing order yet, so the policy would first set bob's mixers' recipes."""
    state = GAME.setup(["ann", "bob"], {}, 11)
    while not (state["phase"] == 6 and GAME.current_players(state) == ["bob"]):
        state, _ = GAME.apply(state, GAME.current_players(state)[0], {"type": "done"})
    return state


def test_iec_27_a_player_asked_a_move_is_hinted_that_move_not_a_standing_order() -> None:
    """Found playing (2026-12): bob, asked to prepare a site, was hinted "/mix BC AB" (the
    policy keeps its standing orders in step first); the hint is the move the phase asks."""
    state = _asked_to_prepare()
    before = canonical_json(state)
    rng = Rng(new_rng_state(state["turn"] * 7919 + state["phase"]))
    assert guarded_bot(state, "bob", rng)["type"] in strong.BOOKKEEPING  # what it hinted
    action, why = strong.hint(state, "bob", EnglishTranslator(), budget=Budget(iterations=2))
    assert action["type"] in PHASE_ACTIONS[6], why
    assert action["type"] == "prepare" and why.startswith("/prepare "), why
    assert parse(state, "bob", "prepare", command_text(action).split()[1:]) == action
    assert canonical_json(state) == before  # the orders were set on a copy only


def test_off_turn_a_hint_may_still_be_a_standing_order() -> None:
    """Ann is not asked anything in bob's phase 6: her hint is the order the policy would give
    now, which she may send at any time (IEC-S-10.5)."""
    state = _asked_to_prepare()
    action, why = strong.hint(state, "ann", EnglishTranslator(), budget=Budget(iterations=2))
    assert action["type"] in strong.BOOKKEEPING, why
