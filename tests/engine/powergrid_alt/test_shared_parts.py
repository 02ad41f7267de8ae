"""Ideas the variant's rules, legal moves, forced moves and bots share, written once (issue 26):
where a new line may start (ALT-22, ALT-28), and the /hint words both rules give."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import EnglishTranslator, Rng, canonical_json
from engine.core.protocol import Action, State
from engine.core.rng import new_rng_state
from engine.core.search import Arm, Decision
from engine.powergrid.strong import auction_reason, odds_reason
from engine.powergrid_alt import GAME
from engine.powergrid_alt import rules as r
from engine.powergrid_alt import strong as alt_strong
from engine.powergrid_alt.commands import command_text
from engine.powergrid_alt.quotes import route

from .helpers import build_turn, give_hand, give_line, give_plant, give_tp, new_game, parsed


def test_alt22_alt28_a_line_starts_at_own_cities_then_at_own_hanging_ends() -> None:
    state = new_game(2)
    give_plant(state, "a", 4, "Stuttgart")
    give_tp(state, "a", "Freiburg")
    give_line(state, "a", "Freiburg", "Stuttgart")
    give_line(state, "b", "Würzburg", "Stuttgart")  # b holds nothing: hangs, but not a's
    assert r.line_starts(state, "a") == ["Stuttgart", "Freiburg"]
    state["tps"]["Freiburg"].remove("a")  # the TP displaced (ALT-15): the end now hangs
    state["players"]["a"]["cities"].remove("Freiburg")
    assert r.line_starts(state, "a") == ["Stuttgart", "Freiburg"]
    assert r.line_starts(state, "b") == ["Stuttgart", "Würzburg"]


def test_the_hint_words_for_bidding_and_the_odds_line_are_one_text() -> None:
    t = EnglishTranslator()
    state: dict[str, Any] = {"auction": {"plant": 13}}
    assert auction_reason(state, {"type": "open", "plant": 13, "bid": 15}, t) == (
        "Open plant 13 at 15 E: it powers 1 city"
    )
    assert auction_reason(state, {"type": "raise", "bid": 16}, t) == (
        "Raise to 16 E: plant 13 is worth it"
    )
    assert auction_reason(state, {"type": "line", "cities": []}, t) is None
    action = {"type": "done"}
    decision = Decision(action=action, arms=[Arm(action, [1.0, 0.0])], iterations=2)
    assert odds_reason(decision, t) == "/done: 50% to win in the simulations"


def test_an_upgrade_hint_names_the_plant_it_replaces(monkeypatch: pytest.MonkeyPatch) -> None:
    """ALT-20: an upgrade replaces a built plant; the hint said "Build plant 23" for it."""
    upgrade = {"type": "upgrade", "old": 11, "new": 23}
    decision = Decision(action=upgrade, arms=[Arm(upgrade, [1.0])], iterations=1)
    monkeypatch.setattr(alt_strong, "decide", lambda *args, **kwargs: decision)
    _, why = alt_strong.hint(new_game(), "p1", EnglishTranslator())
    assert why == "/upgrade 11 23 — Replace plant 11 by 23: it powers 3 cities"


def _hint(monkeypatch: pytest.MonkeyPatch, state: State, player: str, action: Action) -> str:
    """The hint's words when the search chooses `action`."""
    decision = Decision(action=action, arms=[Arm(action, [1.0])], iterations=1)
    monkeypatch.setattr(alt_strong, "decide", lambda *args, **kwargs: decision)
    return alt_strong.hint(state, player, EnglishTranslator())[1]


def test_a_build_hint_leads_with_the_command_that_plays_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Found play-testing: "Hint: Build plant 3: it powers 1 city" named no command (Power
    Grid's hints lead with one, bot/ending.py, but the variant's build step has no button to
    take it from)."""
    state = build_turn(new_game(4), "a", ["b", "c", "d"])
    give_hand(state, "a", 4)
    build = {"type": "build_plant", "plant": 4, "city": "Kiel"}
    assert _hint(monkeypatch, state, "a", build) == (
        "/plant 4 Kiel — Build plant 4: it powers 1 city"
    )


def test_every_kind_of_hint_leads_with_a_command_that_plays_its_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each of the build step's moves, one of each kind: the hint begins with a command, and
    that command reads back to the move (a line through a city says "via")."""
    state = build_turn(new_game(4), "a", ["b", "c", "d"], step=2)
    give_hand(state, "a", 10)
    give_plant(state, "a", 4, "Stuttgart", coal=2)
    give_plant(state, "a", 5, "Freiburg")
    give_line(state, "a", "Stuttgart", "Würzburg", "Frankfurt-Main")
    seen: dict[str, Action] = {}
    for action in GAME.legal_actions(state, "a"):
        seen.setdefault(str(action["type"]), action)
    seen["line"] = {"type": "line", "cities": ["Stuttgart", "Mannheim", "Saarbrücken"]}
    assert set(seen) == {"done", "build_plant", "upgrade", "move", "line", "tp"}
    for action in seen.values():
        why = _hint(monkeypatch, state, "a", action)
        assert why.startswith("/"), why
        command = why.split(" — ")[0].split(":")[0]
        name, *args = command[1:].split()
        assert parsed(state, "a", name, args) == action, why
    assert command_text(state, "a", seen["line"]) == "/line Stuttgart Saarbrücken via Mannheim"


def test_the_command_of_each_legal_move_plays_that_move() -> None:
    """A whole game between heuristic bots: every legal move of every position (auction,
    purchase, building, power) has a command that reads back to it, except a one-segment
    line where the cheapest free route runs elsewhere ("/line A B" takes that route, and the
    command has no way to say "the direct segment"): no command then, rather than a wrong one."""
    state = GAME.setup(["a", "b", "c"], {"regions": "random"}, 3)
    rng = Rng(new_rng_state(3))
    kinds: set[str] = set()
    while not GAME.is_over(state):
        player = GAME.current_players(state)[0]
        for action in GAME.legal_actions(state, player):
            command = command_text(state, player, action)
            if command is None:
                cities = action["cities"]
                assert action["type"] == "line" and len(cities) == 2, action
                assert route(state, player, cities[0], cities[1]) != cities
                continue
            kinds.add(str(action["type"]))
            name, *args = command[1:].split()
            again = GAME.parse(state, player, name, args)
            assert isinstance(again, dict), command
            if action["type"] == "power" and not action["plants"]:
                again.pop("cities", None)  # "/power none": no plant, no city
            assert canonical_json(again) == canonical_json(action), command
        GAME.apply(state, player, GAME.bots["heuristic"](state, player, rng))
    assert kinds >= {"open", "raise", "pass", "buy", "done", "build_plant", "line", "power"}
