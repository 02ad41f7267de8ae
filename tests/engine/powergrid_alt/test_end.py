"""ALT-40..ALT-46: Step 2, the end, the final round, the fallback end, double cities."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import EnglishTranslator, ParseError
from engine.powergrid_alt import GAME, ending
from engine.powergrid_alt import rules as r
from engine.powergrid_alt.graph import alt_map

from .helpers import act, build_turn, give_hand, give_line, give_plant, give_tp, illegal, new_game


def _fill(state: dict[str, Any], player: str, n_plants: int, n_tps: int) -> None:
    nodes = [n for n in r.play_nodes(state) if not r.covered(state, n)]
    plants = [13, 18, 22, 27, 33, 37, 44]
    for i in range(n_plants):
        give_plant(state, player, plants[i], nodes.pop(0))
    for _ in range(n_tps):
        give_tp(state, player, nodes.pop(0))


def _end_phase_4(state: dict[str, Any]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for name in list(reversed(state["order"])):
        events += act(state, name, {"type": "done"})
    return events


def test_alt40_ex_alt6_three_players_seven_plants_and_tps_start_step_2() -> None:
    state = new_game(3)
    build_turn(state, "a", ["b", "c"])
    _fill(state, "a", 2, 5)
    events = _end_phase_4(state)
    assert state["step"] == 2
    assert any(e["type"] == "step_started" and e["step"] == 2 for e in events)


def test_alt40_ex_alt6_two_players_need_ten() -> None:
    state = new_game(2)
    build_turn(state, "a", ["b"])
    _fill(state, "a", 2, 7)
    _end_phase_4(state)
    assert state["step"] == 1
    state = new_game(2)
    build_turn(state, "a", ["b"])
    _fill(state, "a", 2, 8)
    _end_phase_4(state)
    assert state["step"] == 2


def test_alt_d20_hand_plants_do_not_count_for_step_2() -> None:
    state = new_game(3)
    build_turn(state, "a", ["b", "c"])
    _fill(state, "a", 1, 5)
    give_hand(state, "a", 40, 42)
    _end_phase_4(state)
    assert state["step"] == 1


def test_alt43_alt44_ex_alt13_full_coverage_ends_after_a_paid_phase_5() -> None:
    state = new_game(2)
    build_turn(state, "a", ["b"])
    nodes = [n for n in r.play_nodes(state)]
    give_plant(state, "a", 13, nodes[0])
    give_plant(state, "b", 18, nodes[1])
    for n in nodes[2:]:
        give_tp(state, "b", n)
    assert r.conserved(state)
    events = _end_phase_4(state)
    assert any(e["type"] == "final_round" and e["reason"] == "covered" for e in events)
    assert state["phase"] == "bureaucracy" and state["final"]
    state["players"]["a"]["money"] = 40
    state["players"]["b"]["money"] = 55
    rm = dict(state["rm"])
    market = list(state["market"])
    for name in list(state["order"]):
        act(state, name, {"type": "power", "plants": [13] if name == "a" else [18]})
    assert state["phase"] == "over"
    assert state["rm"] == rm and state["market"] == market  # no restock, no market update
    # neither has lines: each powers only its plant city (5 E); money decides
    assert [state["players"][n]["powered"] for n in ("a", "b")] == [1, 1]
    assert state["ranking"] == [["b"], ["a"]]


def test_alt44_ex_alt13_most_powered_then_money() -> None:
    state = new_game(2)
    for name, powered, cash in (("a", 14, 40), ("b", 14, 55)):
        state["players"][name]["powered"] = powered
        state["players"][name]["money"] = cash
    assert r.ranking(state) == [["b"], ["a"]]
    state["players"]["a"]["powered"] = 15
    assert r.ranking(state) == [["a"], ["b"]]


def test_alt_d22_tie_then_plants_and_tps_then_shared() -> None:
    state = new_game(3)
    for name in ("a", "b", "c"):
        state["players"][name]["powered"] = 3
        state["players"][name]["money"] = 10
    give_tp(state, "c", "Kiel")
    assert r.ranking(state) == [["c"], ["a", "b"]]


def test_alt45_idle_rounds_no_longer_end_the_game() -> None:
    # corrections 1.1: two Phase 4s without building are no end condition
    state = new_game(2)
    build_turn(state, "a", ["b"])
    _end_phase_4(state)
    assert state["idle"] == 1 and not state["final"]
    for name in list(state["order"]):
        act(state, name, {"type": "power", "plants": []})
    # next round: auction, resources, build without building
    while state["phase"] != "build":
        who = r.current_players(state)[0]
        act(state, who, {"type": "pass"} if state["phase"] == "auction" else {"type": "done"})
    events = _end_phase_4(state)
    assert state["idle"] == 2 and not state["final"]
    assert not any(e["type"] == "final_round" for e in events)
    assert state["phase"] == "bureaucracy"


def _one_city_left(state: dict[str, Any], blocked: bool = True) -> str:
    """Every city but Kiel covered by a's TPs; no plant left to build; b owns every
    connection of Kiel (and has no plant or TP to start from), so nobody can reach it."""
    last = "Kiel"
    for node in r.play_nodes(state):
        if node != last:
            give_tp(state, "a", node)
    state["deck"], state["market"] = [], []
    for p in state["players"].values():
        p["plants"] = []
    am = alt_map(state["map"])
    for seg in am.incident[last][: None if blocked else -1]:
        give_line(state, "b", last, seg.other(last))
    return last


def test_alt45_fallback_end_when_no_remaining_city_can_ever_be_covered() -> None:
    state = new_game(2)
    build_turn(state, "a", ["b"])
    last = _one_city_left(state)
    assert not r.covered(state, last) and ending.nothing_coverable(state)
    events = _end_phase_4(state)
    assert [e["reason"] for e in events if e["type"] == "final_round"] == ["unreachable"]
    assert state["final"] and state["phase"] == "bureaucracy"


def test_alt45_no_fallback_while_a_plant_or_a_tp_could_still_cover_a_city() -> None:
    # a plant that may still be built (an eco plant in the deck) could go to Kiel
    state = new_game(2)
    build_turn(state, "a", ["b"])
    _one_city_left(state)
    state["deck"] = [13]
    assert not ending.nothing_coverable(state)
    # a dirty plant over the region's pollution limit could not, a clean one could
    state["deck"] = [32]
    region = alt_map(state["map"]).region["Kiel"]
    heavy = next(
        n for n in r.play_nodes(state) if alt_map(state["map"]).region[n] == region and n != "Kiel"
    )
    state["tps"][heavy].remove("a")
    give_plant(state, "a", 24, heavy)  # garbage, pollution 2: 2 + 3 of plant 32 = 5 is allowed
    assert not ending.nothing_coverable(state)
    del state["built"]["24"]  # plant 24 leaves the game
    state["players"]["a"]["plants"].remove(24)
    give_plant(state, "a", 31, heavy)  # coal, pollution 3: 3 + 3 > 5 (ALT-18)
    assert r.pollution(state, region) == 3 and ending.nothing_coverable(state)
    # one free connection from a's network into Kiel: a TP could cover it
    state = new_game(2)
    build_turn(state, "a", ["b"])
    _one_city_left(state, blocked=False)
    assert not ending.nothing_coverable(state)
    assert not any(e["type"] == "final_round" for e in _end_phase_4(state))
    assert not state["final"]


def _vote_game() -> dict[str, Any]:
    state = new_game(3)
    build_turn(state, "a", ["b", "c"])
    return state


def test_alt45_end_by_agreement_is_a_table_vote_accepted_off_turn() -> None:
    state = _vote_game()
    assert r.current_players(state) == ["a"]
    events = act(state, "b", {"type": "propose_end"})  # b is not the current player
    assert events[-1]["type"] == "end_proposed" and events[-1]["waiting"] == ["c", "a"]
    illegal(state, "b", {"type": "propose_end"}, "ALT-45")
    illegal(state, "b", {"type": "accept_end"}, "ALT-45")  # the proposer agreed already
    assert GAME.legal_actions(state, "a")[:2] == [{"type": "accept_end"}, {"type": "decline_end"}]
    act(state, "c", {"type": "accept_end"})
    assert not state["final"]
    events = act(state, "a", {"type": "accept_end"})
    assert [e["type"] for e in events] == ["end_accepted", "final_round"]
    assert events[-1]["reason"] == "agreement" and state["final"]
    assert state["end_vote"] is None
    illegal(state, "a", {"type": "propose_end"}, "ALT-45")
    # said in the phase it is said in (found playing: "This is the final Phase 5." in Phase 2)
    en = EnglishTranslator()
    assert "This round's Phase 5 is the last one." in GAME.describe_turn(state, "a", en)
    # scored as ALT-44: the round plays on to its Phase 5, which ends the game
    _end_phase_4(state)
    assert state["phase"] == "bureaucracy"
    assert "This is the final Phase 5." in GAME.describe_turn(state, None, en)
    for name in list(state["order"]):
        act(state, name, {"type": "power", "plants": []})
    assert r.is_over(state) and state["ranking"]


def test_alt45_one_refusal_closes_the_vote() -> None:
    state = _vote_game()
    act(state, "a", {"type": "propose_end"})
    act(state, "b", {"type": "accept_end"})
    events = act(state, "c", {"type": "decline_end"})
    assert events[-1]["type"] == "end_declined" and state["end_vote"] is None
    assert not state["final"]
    illegal(state, "a", {"type": "accept_end"}, "ALT-45")
    illegal(state, "a", {"type": "decline_end"}, "ALT-45")
    illegal(state, "z", {"type": "propose_end"}, "ALT-45")
    assert GAME.anytime({"type": "decline_end"}) and not GAME.anytime({"type": "done"})


def test_alt45_the_vote_replays_like_every_move() -> None:
    from engine.core.replay import replay

    players = ["a", "b"]
    state = GAME.setup(players, {}, 4)
    log = [("b", {"type": "propose_end"}), ("a", {"type": "accept_end"})]
    for who, action in log:
        state, _ = GAME.apply(state, who, action)
    assert state["final"]
    again = replay(GAME, players, {}, 4, log)
    assert again == state


def test_alt45_building_resets_the_idle_count() -> None:
    state = new_game(2)
    state["idle"] = 1
    build_turn(state, "a", ["b"])
    give_hand(state, "a", 13)
    act(state, "a", {"type": "build_plant", "plant": 13, "city": "Kiel"})
    _end_phase_4(state)
    assert state["idle"] == 0 and not state["final"]


def test_alt46_double_city_is_one_node_with_two_plants_of_different_players() -> None:
    state = new_game(3)
    build_turn(state, "a", ["b", "c"])
    give_hand(state, "a", 13, 18)
    act(state, "a", {"type": "build_plant", "plant": 13, "city": "Essen"})
    assert state["built"]["13"]["city"] == "Duisburg"
    illegal(state, "a", {"type": "build_plant", "plant": 18, "city": "Duisburg"}, "ALT-D-25")
    give_hand(state, "b", 22)
    build_turn(state, "b", ["a", "c"])
    act(state, "b", {"type": "build_plant", "plant": 22, "city": "Duisburg"})
    assert r.plants_in(state, "Duisburg") == [13, 22]
    give_hand(state, "c", 27)
    build_turn(state, "c", ["a", "b"])
    illegal(state, "c", {"type": "build_plant", "plant": 27, "city": "Essen"}, "ALT-14")


def test_alt46_double_city_connections_attach_to_the_node_and_one_tp_covers_it() -> None:
    state = new_game(3)
    build_turn(state, "a", ["b", "c"])
    give_plant(state, "a", 13, "Münster")
    act(state, "a", {"type": "line", "cities": ["Münster", "Essen"]})
    assert state["tps"]["Duisburg"] == ["a"] and r.covered(state, "Duisburg")
    act(state, "a", {"type": "line", "cities": ["Duisburg", "Düsseldorf"]})
    assert "Düsseldorf|Essen" in r.owned_segments(state)


def test_alt24_no_tp_once_a_double_city_holds_a_plant() -> None:
    state = new_game(3)
    build_turn(state, "a", ["b", "c"])
    give_plant(state, "b", 13, "Duisburg")
    give_plant(state, "a", 18, "Münster")
    illegal(state, "a", {"type": "line", "cities": ["Münster", "Essen"]}, "ALT-24")


def test_alt41_step_2_displacement_is_allowed() -> None:
    state = new_game(3)
    build_turn(state, "a", ["b", "c"], step=2)
    give_plant(state, "b", 13, "Freiburg")
    give_tp(state, "b", "Stuttgart")
    give_line(state, "b", "Freiburg", "Stuttgart")
    give_hand(state, "a", 18)
    act(state, "a", {"type": "build_plant", "plant": 18, "city": "Stuttgart"})
    assert state["displacer"] == {"Stuttgart": "a"}


def test_alt45_endgame_chat_command_proposes_answers_and_says_who_waits() -> None:
    t = EnglishTranslator()
    state = _vote_game()
    assert GAME.parse(state, "b", "endgame", []) == {"type": "propose_end"}
    events = act(state, "b", {"type": "propose_end"})
    assert GAME.describe_event(state, events[-1], t) == (
        "b proposes to end the game after this round's Phase 5 (scored as ALT-44). "
        "Everybody must agree: /endgame yes or /endgame no. Waiting for c, a."
    )
    assert GAME.parse(state, "c", "endgame", []) == {"type": "accept_end"}
    assert GAME.parse(state, "c", "endgame", ["yes"]) == {"type": "accept_end"}
    assert GAME.parse(state, "c", "endgame", ["no"]) == {"type": "decline_end"}
    with pytest.raises(ParseError):
        GAME.parse(state, "c", "endgame", ["maybe"])
    assert GAME.buttons(state, "c", t)[:2] == [
        ("End the game", "/endgame yes"),
        ("Play on", "/endgame no"),
    ]
    assert GAME.buttons(state, "b", t) == []  # b agreed and is not the current player
    assert "waiting for c, a" in GAME.describe_turn(state, "c", t)
    events = act(state, "c", {"type": "accept_end"}) + act(state, "a", {"type": "accept_end"})
    assert [GAME.describe_event(state, e, t) for e in events] == [
        "c agrees to end the game; waiting for a.",
        "a agrees to end the game.",
        "Everybody agreed to end the game: this round's Phase 5 is the last one.",
    ]


_EN = EnglishTranslator()


def _over(state: dict[str, Any], figures: dict[str, tuple[int, int]]) -> dict[str, Any]:
    for name, (powered, cash) in figures.items():
        state["players"][name]["powered"] = powered
        state["players"][name]["money"] = cash
    state["phase"] = "over"
    state["ranking"] = r.ranking(state)
    return state


@pytest.mark.parametrize("viewer", [None, "a", "b"])
def test_alt44_pg9_the_game_over_text_ranks_with_the_deciding_figures(viewer: str | None) -> None:
    """The over state's turn text is the one result line (the event has none): cities
    powered, then money, every money shown at the end even under hidden money (PG-9)."""
    state = _over(new_game(3, hidden_money="yes"), {"a": (14, 40), "b": (14, 55), "c": (9, 99)})
    state["round"] = 12
    assert GAME.describe_turn(state, viewer, _EN) == (
        "Game over after round 12. 1. b (14 cities powered, 55 E); "
        "2. a (14 cities powered, 40 E); 3. c (9 cities powered, 99 E)"
    )


def test_alt_d22_a_tie_on_cities_and_money_shows_the_plants_and_tps() -> None:
    state = new_game(3)
    give_tp(state, "c", "Kiel")
    _over(state, {"a": (3, 10), "b": (3, 10), "c": (3, 10)})
    assert state["ranking"] == [["c"], ["a", "b"]]
    assert GAME.describe_turn(state, None, _EN) == (
        "Game over after round 1. 1. c (3 cities powered, 10 E, 1 city); "
        "2. a (3 cities powered, 10 E, 0 cities); 2. b (3 cities powered, 10 E, 0 cities)"
    )


def test_alt44_the_game_over_event_has_no_line_of_its_own() -> None:
    state = new_game(2)
    build_turn(state, "a", ["b"])
    nodes = list(r.play_nodes(state))
    give_plant(state, "a", 13, nodes[0])
    give_plant(state, "b", 18, nodes[1])
    for n in nodes[2:]:
        give_tp(state, "b", n)
    _end_phase_4(state)
    events: list[dict[str, Any]] = []
    for name in list(state["order"]):
        events += act(state, name, {"type": "power", "plants": [13] if name == "a" else [18]})
    (over,) = [e for e in events if e["type"] == "game_over"]
    assert over["ranking"] == [["b"], ["a"]]  # the event is unchanged (replays)
    assert GAME.describe_event(state, over, _EN) is None
    assert GAME.describe_private_event(state, over, _EN) is None
    assert GAME.describe_turn(state, None, _EN).startswith("Game over after round 2. 1. b (")
