"""/hint leads with the command that plays its move (commands.command_text), as the
alternative rules' hints do: the table could take a command only from a button, and a build
("Hint: Build Magdeburg: 10 E, cheapest connection"), most buys, discards and runs have none.
Every command is checked by reading it back through the game's own parser."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.core import EnglishTranslator, Rng, canonical_json
from engine.core.protocol import Action, State
from engine.core.rng import new_rng_state
from engine.core.search import Arm, Decision
from engine.powergrid import GAME
from engine.powergrid import strong as pg_strong
from engine.powergrid.commands import command_text
from tests.engine.powergrid.helpers import act, give, new_game, set_market, set_phase
from tests.engine.powergrid.test_auction import _pg27_choice, round2


def _reads_back(state: State, player: str, command: str) -> Action:
    name, *args = command[1:].split()
    again = GAME.parse(state, player, name, args)
    assert isinstance(again, dict), command
    return again


@pytest.mark.parametrize(("map_id", "seed", "players"), [("germany", 3, 3), ("usa", 5, 4)])
def test_the_command_of_each_legal_move_plays_that_move(
    map_id: str, seed: int, players: int
) -> None:
    """A whole game between heuristic bots, the regions chosen by the players (PG-8): every
    legal move of every position of every player asked (the region choice, the auction,
    discards, purchases, building, the simultaneous Phase 5) has a command that reads back
    to it: multi-word cities ("/build Salt Lake City") and "/power none" included."""
    state = GAME.setup(["a", "b", "c", "d"][:players], {"map": map_id, "regions": "choose"}, seed)
    rng = Rng(new_rng_state(seed))
    kinds: set[str] = set()
    spaced = False
    while not GAME.is_over(state):
        for player in GAME.current_players(state):
            for action in GAME.legal_actions(state, player):
                command = command_text(state, player, action)
                assert command is not None, action
                assert command.startswith(f"/{_NAMES[str(action['type'])]}"), command
                again = _reads_back(state, player, command)
                assert canonical_json(again) == canonical_json(action), command
                kinds.add(str(action["type"]))
                spaced |= action["type"] == "build" and " " in action["city"]
        player = GAME.current_players(state)[0]
        GAME.apply(state, player, GAME.bots["heuristic"](state, player, rng))
    assert kinds == set(_NAMES)
    assert spaced == (map_id == "usa")  # Germany's names are one word ("Frankfurt-Main")


_NAMES = {
    "choose_region": "region",
    "open": "bid",
    "raise": "raise",
    "pass": "pass",
    "discard": "discard",
    "buy": "buy",
    "done": "done",
    "build": "build",
    "power": "power",
}


def test_pg42_a_run_names_what_its_hybrids_burn() -> None:
    """PG-42 with hybrid plant 5 (coal and/or oil, 2 a run): the mix the action gives is
    spelt out, the fuel it leaves unnamed worked out as the rules do (the rest of the need);
    no mix, no fuel words (the engine burns coal first); an impossible count, no command."""
    s = set_phase(new_game(3, 1), "bureaucracy", order=["a", "b", "c"])
    give(s, "a", plants=[5, 12], res={"coal": 2, "oil": 3}, cities=["Kiel"])
    cases: dict[str, dict[str, Any]] = {
        "/power 5 coal=1 oil=1": {"type": "power", "plants": [5], "coal": 1, "oil": 1},
        "/power 5 coal=0 oil=2": {"type": "power", "plants": [5], "oil": 2},
        "/power 5 12 coal=2 oil=2": {"type": "power", "plants": [5, 12], "coal": 2},
        "/power 5": {"type": "power", "plants": [5]},
        "/power none": {"type": "power", "plants": []},
    }
    for command, action in cases.items():
        assert command_text(s, "a", action) == command
        act(copy.deepcopy(s), "a", **_reads_back(s, "a", command))  # legal, as the action
    assert command_text(s, "a", {"type": "power", "plants": [5], "coal": 3, "oil": -1}) is None


def test_pg27_a_discard_says_which_tokens_to_keep_or_takes_the_default() -> None:
    """PG-26/27: without plant 10 the player chooses what his hybrid keeps; a discard that
    names the tokens says them, one that leaves them to the rules says "keep" (typed alone,
    "/discard 10" asks which to keep instead of playing the move)."""
    s = _pg27_choice()
    chosen = {"type": "discard", "plant": 10, "keep": {"coal": 2, "oil": 6}}
    assert command_text(s, "a", chosen) == "/discard 10 keep 2 coal 6 oil"
    assert command_text(s, "a", {"type": "discard", "plant": 10}) == "/discard 10 keep"
    assert command_text(s, "a", {"type": "discard", "plant": 13}) == "/discard 13"


def test_bids_and_standing_orders_have_their_commands() -> None:
    """The auction (PG-20, PG-21, a proxy limit PG-22 max=) and the standing orders (PG-O)."""
    s = round2()
    set_market(s, [3, 4, 5, 6, 7, 8, 9, 10])
    assert command_text(s, "a", {"type": "open", "plant": 3, "bid": 3}) == "/bid 3"
    assert command_text(s, "a", {"type": "open", "plant": 3, "bid": 7}) == "/bid 3 7"
    proxy = {"type": "open", "plant": 4, "bid": 4, "max": 10}
    assert command_text(s, "a", proxy) == "/bid 4 4 max=10"
    assert command_text(s, "a", {"type": "open", "plant": 30, "bid": 30}) is None  # not offered
    act(s, "a", type="open", plant=3, bid=3)
    bidder = GAME.current_players(s)[0]
    cases: dict[str, Action] = {
        "/raise 4": {"type": "raise", "bid": 4},
        "/bid 3 6 max=12": {"type": "raise", "bid": 6, "max": 12},
        "/pass": {"type": "pass"},
        "/pass plant": {"type": "order", "kind": "pass_plant", "plant": 3},
        "/pass round": {"type": "order", "kind": "pass_round"},
        "/maxbid 9": {"type": "order", "kind": "maxbid", "plant": 3, "limit": 9},
        "/buy auto": {"type": "order", "kind": "buy_auto", "limit": None},
        "/buy auto limit=30": {"type": "order", "kind": "buy_auto", "limit": 30},
        "/build plan none": {"type": "order", "kind": "build_plan", "cities": []},
        "/power auto": {"type": "order", "kind": "power_auto"},
        "/cancel": {"type": "cancel", "kinds": []},
        "/cancel pass": {"type": "cancel", "kinds": ["pass_plant", "pass_round"]},
    }
    for command, action in cases.items():
        assert command_text(s, bidder, action) == command
        assert _reads_back(s, bidder, command) == action
    assert command_text(s, bidder, {"type": "unknown"}) is None


def _hint(monkeypatch: pytest.MonkeyPatch, state: State, player: str, action: Action) -> str:
    """The hint's words when the search chooses `action` (a lone candidate)."""
    decision = Decision(action=action, arms=[Arm(action)], iterations=0)
    monkeypatch.setattr(pg_strong, "decide", lambda *args, **kwargs: decision)
    return pg_strong.hint(state, player, EnglishTranslator())[1]


def test_a_build_hint_leads_with_the_build_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found play-testing: "Hint: Build Magdeburg: 10 E, cheapest connection" named no
    command (no button builds); now it begins with the /build that plays it."""
    s = set_phase(new_game(3, 1), "build", order=["a", "b", "c"])
    player = GAME.current_players(s)[0]
    city = next(a["city"] for a in GAME.legal_actions(s, player) if a["type"] == "build")
    why = _hint(monkeypatch, s, player, {"type": "build", "city": city})
    assert why.startswith(f"/build {city} — Build {city}: "), why


def test_every_kind_of_hint_leads_with_a_command_that_plays_its_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One move of each kind a heuristic game offers: the hint begins with a command, and
    that command reads back to the move."""
    state = GAME.setup(["a", "b", "c"], {"regions": "choose"}, 3)
    rng = Rng(new_rng_state(3))
    seen: set[str] = set()
    while not GAME.is_over(state) and len(seen) < len(_NAMES):
        player = GAME.current_players(state)[0]
        for action in GAME.legal_actions(state, player):
            kind = str(action["type"])
            if kind in seen:
                continue
            seen.add(kind)
            why = _hint(monkeypatch, state, player, action)
            assert why.startswith("/"), why
            command = why.split(" — ")[0].split(":")[0]
            assert _reads_back(state, player, command) == action, why
        GAME.apply(state, player, GAME.bots["heuristic"](state, player, rng))
    assert seen == set(_NAMES)


def test_pg8_a_region_hint_says_what_the_rule_asks_of_it_in_the_readers_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """PG-8: the first region starts the area, each next one must border it. Found
    play-testing: "/region NW — Choose region NW" repeated the id; the reason now names the
    region and the neighbour already in play, translated (a Polish reader, Polish names)."""
    from bot.i18n import translator

    state = GAME.setup(["a", "b", "c"], {"regions": "choose"}, 3)
    first = GAME.current_players(state)[0]
    nw = {"type": "choose_region", "region": "NW"}
    why = _hint(monkeypatch, state, first, nw)
    assert why == "/region NW — Choose North-West: the area of play starts there", why
    GAME.apply(state, first, nw)
    second = GAME.current_players(state)[0]
    west = next(a for a in GAME.legal_actions(state, second) if a["region"] in ("W", "NE"))
    why = _hint(monkeypatch, state, second, west)
    assert why.endswith("it borders North-West, already in play"), why
    monkeypatch.setattr(pg_strong, "decide", lambda *args, **kwargs: Decision(west, [Arm(west)], 0))
    polish = pg_strong.hint(state, second, translator("pl"))[1]
    assert "North" not in polish and "in play" not in polish, polish


def test_pg42_a_power_hint_quotes_the_run_it_plays_not_the_best_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """PG-42: a search may run fewer plants to keep fuel; its hint said the best run's cities
    and income all the same (found play-testing). Now the words match the run."""
    s = set_phase(new_game(3, 1), "bureaucracy", order=["a", "b", "c"])
    give(s, "a", plants=[4, 13], res={"coal": 2, "oil": 0}, cities=["Kiel", "Flensburg"])
    # plant 4: 2 coal for 1 city; plant 13: eco, 1 city (no fuel)
    assert _hint(monkeypatch, s, "a", {"type": "power", "plants": [4, 13]}).endswith(
        "Power 2 cities: 33 E income"
    )
    assert _hint(monkeypatch, s, "a", {"type": "power", "plants": [13]}).endswith(
        "Power 1 city: 22 E income"
    )
