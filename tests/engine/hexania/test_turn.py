"""The turn: HEX-T-2/T-3, HEX-2 (spending, ending, elimination), HEX-17 bonus, the winner."""

import re

import pytest

from engine.core import EnglishTranslator, IllegalAction
from engine.hexania import GAME, rules
from engine.hexania.board import SIDE_ORDER
from tests.engine.hexania.helpers import (
    events_of,
    finish_turn,
    frozen,
    pieces,
    position,
    refusal_texts,
    set_next_roll,
)

T = EnglishTranslator()


def test_hex1_two_to_six_players() -> None:
    for n in (1, 7):
        with pytest.raises(IllegalAction) as err:
            GAME.setup([f"p{i}" for i in range(n)], {}, 1)
        assert err.value.rule_id == "HEX-1"
    assert GAME.min_players == 2 and GAME.max_players == 6


def test_hext2_rolloff_then_clockwise_by_side() -> None:
    for seed in range(30):
        players = ["a", "b", "c", "d"]
        state = GAME.setup(players, {}, seed)
        final = state["rolloff"][-1]
        best = max(final.values())
        assert [p for p, v in final.items() if v == best] == [state["order"][0]]
        for earlier in state["rolloff"][:-1]:
            top = max(earlier.values())
            assert set(final) == {p for p, v in earlier.items() if v == top} or len(final) < len(
                earlier
            )
        sides = [SIDE_ORDER.index(state["sides"][p]) for p in state["order"]]
        i = sides.index(min(sides))
        assert sides[i:] + sides[:i] == sorted(sides)
        assert GAME.current_players(state) == [state["order"][0]]


def test_hexd23_game_starts_empty_and_first_action_is_a_birth() -> None:
    state = GAME.setup(["a", "b", "c"], {}, 5)
    assert state["board"] == {}
    first = GAME.current_players(state)[0]
    kinds = {a["type"] for a in GAME.legal_actions(state, first)}
    assert kinds == {"birth", "end"}


def test_hext3_points_are_the_roll_plus_last_turns_bonus() -> None:
    state = GAME.setup(["a", "b"], {}, 9)
    turn = state["turn"]
    assert 2 <= sum(turn["dice"]) <= 12 and turn["points"] == sum(turn["dice"]) + turn["bonus"]
    assert turn["bonus"] == 0


def test_ex_hex20_hex17_bonus_is_spent_next_turn_only() -> None:
    state = position(
        {
            "blue": ["L12", "L13", "L14"],
            "red": ["M12", "M13", "M14", "N14", "P12", "P13", "P14"],
        },
        points=9,
    )
    set_next_roll(state, (2, 3))
    _, events = GAME.apply(
        state, "blue", {"type": "move", "figure": "L12", "dir": "SE", "steps": 5}
    )
    assert events_of(events, "turn_ended")[0]["reason"] == "no_points"
    assert state["turn"]["player"] == "red" and state["turn"]["points"] == 5
    GAME.apply(state, "red", {"type": "birth", "cell": "W6"})
    set_next_roll(state, (3, 3))
    _, events = finish_turn(state, "red")
    rolled = events_of(events, "dice_rolled")[0]
    assert rolled == {
        "type": "dice_rolled",
        "round": 4,
        "player": "blue",
        "dice": [3, 3],
        "bonus": 7,
        "points": 13,
    }
    # HEX-2.2 / HEX-D-17: unused points and bonus expire
    GAME.apply(state, "blue", {"type": "birth", "cell": "A5"})
    set_next_roll(state, (1, 1))
    finish_turn(state, "blue")
    GAME.apply(state, "red", {"type": "grow", "figure": "W6", "cell": "W7"})
    set_next_roll(state, (4, 4))
    _, events = finish_turn(state, "red")
    assert events_of(events, "dice_rolled")[0]["points"] == 8


def test_hex2_end_refused_while_an_action_is_affordable() -> None:
    state = position({"blue": ["L12"]}, points=3)
    GAME.apply(state, "blue", {"type": "grow", "figure": "L12", "cell": "L13"})
    assert state["turn"]["player"] == "blue" and state["turn"]["points"] == 2
    assert {"type": "end"} not in GAME.legal_actions(state, "blue")
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, "blue", {"type": "end"})
    # the refusal names HEX-2 and the cheapest affordable action of each kind
    assert err.value.rule_id == "HEX-2"
    assert err.value.params["points"] == 2
    # a `Listed`, listed in its reader's words when the table fills the message
    assert str(err.value.params["actions"]) == (
        "/spawn A4 (1), /grow L12 K11 (2), /regroup L12 K12 (2)"
    )
    assert state["turn"]["player"] == "blue" and state["turn"]["points"] == 2


def test_hex2_the_end_refusal_leaves_its_rule_id_to_the_table() -> None:
    """The table adds " (HEX-2)" and "See /rules HEX-2." to a refusal (bot.i18n.explain), so
    the game's text names no rule (found playing: "The turn ends only when nothing is
    affordable (HEX-2). Points left: 8; ... (HEX-2) See /rules HEX-2.")."""
    from bot.i18n import explain

    state = position({"blue": ["L12"]}, points=3)
    GAME.apply(state, "blue", {"type": "grow", "figure": "L12", "cell": "L13"})
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, "blue", {"type": "end"})
    assert err.value.rule_id == "HEX-2" and "HEX-2" not in err.value.english()
    assert explain("en", err.value).count("HEX-2") == 1


def test_no_refusal_of_hexania_names_a_rule_in_its_text() -> None:
    """Every refusal's rule id goes in its `rule_id` alone: the table words it (see above)."""
    found = refusal_texts("engine/hexania")
    assert len(found) > 30  # the scan reads the refusals
    assert [f for f in found if re.search(r"\bHEX-[A-Z0-9]", f[2])] == []


def test_hex2_turn_ends_only_when_nothing_is_affordable() -> None:
    state = position({"blue": ["L12"]}, points=3)
    GAME.apply(state, "blue", {"type": "grow", "figure": "L12", "cell": "L13"})
    _, events = GAME.apply(state, "blue", {"type": "grow", "figure": "L12", "cell": "L14"})
    # mass 3 with no point left: nothing is affordable, the turn ended by itself
    assert events_of(events, "turn_ended")[0] == {
        "type": "turn_ended",
        "round": 3,
        "player": "blue",
        "reason": "no_points",
        "lost": 0,
        "actions": 2,
    }
    assert GAME.current_players(state) == ["red"]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, "blue", {"type": "end"})
    assert err.value.rule_id == "HEX-T-2"


def test_hex2_2_only_points_that_buy_nothing_are_lost() -> None:
    # red stands on blue's whole homeland: no birth (HEX-5); blue's one piece, 2 points
    home = ["A4", "A5", "A6", "A7", "A8", "A9"]
    state = position({"blue": ["L12"], "red": home}, points=2)
    _, events = GAME.apply(state, "blue", {"type": "grow", "figure": "L12", "cell": "L13"})
    # mass 2 with 1 point: growth, regroup (2) and movement (3) are all out of reach
    ended = events_of(events, "turn_ended")[0]
    assert ended["reason"] == "no_points" and ended["lost"] == 1
    assert GAME.current_players(state) == ["red"]


def test_hex2_4_ending_without_acting_eliminates() -> None:
    state = position({"blue": ["L12"], "red": ["L2"]}, players=("blue", "red", "green"))
    _, events = GAME.apply(state, "blue", {"type": "end"})
    assert events_of(events, "eliminated")[0]["reason"] == "resigned"
    assert state["eliminated"] == ["blue"] and pieces(state, "blue") == []


def test_ex_hex2_no_pieces_and_blocked_homeland_eliminates() -> None:
    state = position({"red": ["A5"]}, turn="red", acted=1)
    for dice in [(6, 6), (1, 1)]:  # whatever the roll
        trial = __import__("copy").deepcopy(state)
        set_next_roll(trial, dice)
        _, events = finish_turn(trial, "red")
        assert events_of(events, "eliminated")[0]["player"] == "blue"
        assert trial["eliminated"] == ["blue"] and GAME.result(trial) == [["red"], ["blue"]]


def test_ex_hex3_four_points_against_masses_5_and_6_eliminates() -> None:
    green = ["L2", "L3", "L4", "L5", "L6", "P10", "P11", "P12", "P13", "P14", "P15"]
    state = position({"green": green, "red": ["W4", "W5"]}, players=("red", "green"), turn="red")
    state["turn"]["actions"] = 1
    set_next_roll(state, (1, 3))
    _, events = finish_turn(state, "red")
    assert events_of(events, "dice_rolled")[-1]["points"] == 4
    assert events_of(events, "eliminated")[0] == {
        "type": "eliminated",
        "round": 3,
        "player": "green",
        "reason": "no_action",
        "removed": 11,
    }
    # HEX-2.6: the last player remaining wins
    assert GAME.is_over(state) and GAME.result(state) == [["red"], ["green"]]
    # with five points the mass-5 figure could grow
    state = position({"green": green, "red": ["W4", "W5"]}, players=("red", "green"), turn="green")
    state["turn"]["points"] = 5
    assert rules.can_act(state, "green")


def test_ex_hex4_birth_forbidden_by_rule_11_eliminates_on_3_points() -> None:
    green = ["A5", "B6", "B7", "A7", "A9", "B10", "B11", "B12"]
    state = position({"blue": green}, points=3)
    assert not rules.can_act(state, "blue")
    assert GAME.legal_actions(state, "blue") == [{"type": "end"}]
    state["turn"]["points"] = 4
    assert rules.can_act(state, "blue")


def test_hex2_5_eliminated_homeland_becomes_ordinary() -> None:
    state = position(
        {"blue": ["C14"], "red": ["L2"]},
        players=("blue", "ne", "red"),
        sides=("N", "NE", "S"),
        first=True,
        points=12,
    )
    state["board"] = {"C14": "blue", "L2": "red"}
    before = frozen(state)
    with pytest.raises(IllegalAction):
        GAME.apply(state, "blue", {"type": "move", "figure": "C14", "dir": "SE", "steps": 1})
    assert frozen(state) == before
    state["eliminated"].append("ne")
    GAME.apply(state, "blue", {"type": "move", "figure": "C14", "dir": "SE", "steps": 1})
    assert pieces(state, "blue") == ["D15"]


def test_hex2_6_round_limit_most_pieces_then_round_bonus() -> None:
    state = GAME.setup(["a", "b"], {"rounds": "1"}, 3)
    first, second = state["order"]
    GAME.apply(state, first, {"type": "birth", "cell": _home(state, first)[0]})
    finish_turn(state, first)
    GAME.apply(state, second, {"type": "birth", "cell": _home(state, second)[0]})
    _, events = finish_turn(state, second)
    over = events_of(events, "game_over")[0]
    # one piece each, no bonus: a shared victory
    assert over["reason"] == "round_limit" and over["ranking"] == [[first, second]]
    assert over["criterion"] == "shared"
    assert GAME.is_over(state) and GAME.current_players(state) == []
    # more pieces wins; tie on pieces -> more bonus earned in the last round
    state = position({"blue": ["L2", "L3"], "red": ["L12"]}, options={"rounds": "3"})
    assert rules.ranking(state, "round_limit") == [["blue"], ["red"]]
    state = position({"blue": ["L2"], "red": ["L12"]}, options={"rounds": "3"})
    state["round_bonus"]["red"] = 2
    assert rules.ranking(state, "round_limit") == [["red"], ["blue"]]


def _home(state: dict, player: str) -> list[str]:
    from engine.hexania.board import HOMELANDS

    return list(HOMELANDS[state["sides"][player]])


def test_hex2_6_round_is_one_turn_of_every_remaining_player() -> None:
    state = GAME.setup(["a", "b", "c"], {"rounds": "off"}, 4)
    order = state["order"]
    seen = []
    for _ in range(6):
        p = GAME.current_players(state)[0]
        seen.append((state["round"], p))
        GAME.apply(state, p, {"type": "birth", "cell": _home(state, p)[2 * state["round"] - 2]})
        if GAME.current_players(state) == [p]:
            finish_turn(state, p)
    assert seen == [(rnd, p) for rnd in (1, 2) for p in order]
    assert state["options"]["rounds"] == 0 and not GAME.is_over(state)


def _limit_over(pieces: dict[str, list[str]], red_bonus: int) -> tuple[dict, dict]:
    """The last turn of a 1-round game: blue grows once and spends the rest."""
    state = position(pieces, options={"rounds": "3"}, points=1)
    state["pending"] = []
    state["round_bonus"]["red"] = red_bonus
    after, events = GAME.apply(state, "blue", {"type": "grow", "figure": "L2", "cell": "L3"})
    return after, events_of(events, "game_over")[0]


def test_hex_opt_limit_result_names_its_deciding_criterion() -> None:
    """Corrections 1.1: the result line names what decided it. The result is said once, by
    the over state's turn text (the game_over event has no line of its own), with every
    player's pieces and, where they separated tied players, the last round's bonus points."""
    # 3 pieces against 2: the most pieces decide
    state, over = _limit_over({"blue": ["L2", "L20"], "red": ["L12", "L13"]}, 5)
    assert over["ranking"][0] == ["blue"] and over["criterion"] == "pieces"
    assert GAME.describe_event(state, over, T) is None
    assert GAME.describe_turn(state, None, T) == (
        "Round 3 of 3. Round limit reached: blue wins with the most pieces. "
        "Ranking: 1. blue (3 pieces); 2. red (2 pieces)."
    )
    # 2 pieces each, red destroyed 2 pieces in the last round: bonus points decide
    state, over = _limit_over({"blue": ["L2"], "red": ["L12", "L13"]}, 2)
    assert over["ranking"] == [["red"], ["blue"]] and over["criterion"] == "bonus"
    assert GAME.describe_turn(state, "blue", T) == (
        "Round 3 of 3. Round limit reached: red wins on bonus points earned in the last round "
        "(tied on pieces). Ranking: 1. red (2 pieces, 2 bonus points in the last round); "
        "2. blue (2 pieces, 0 bonus points in the last round)."
    )
    # tied on both: shared
    state, over = _limit_over({"blue": ["L2"], "red": ["L12", "L13"]}, 0)
    assert over["ranking"] == [["blue", "red"]] and over["criterion"] == "shared"
    text = GAME.describe_turn(state, None, T)
    assert "Round limit reached: blue, red share the victory" in text
    assert "1. blue (2 pieces, 0 bonus points in the last round); 1. red (2 pieces" in text


def test_hex2_6_the_last_player_standing_is_said_once_with_the_ranking() -> None:
    """HEX-2.6: the last player remaining wins; the others rank by how long they lasted
    (HEX-2.5, the last one out first). The game_over event has no chat line of its own."""
    state = position(
        {"blue": ["L12"], "red": ["A1"], "green": ["W1"]}, players=("blue", "red", "green")
    )
    rules._eliminate(state, "green", "resigned", [])
    events: list = []
    rules._eliminate(state, "red", "resigned", events)
    over = events_of(events, "game_over")[0]
    assert over["reason"] == "last_player" and GAME.is_over(state)
    assert GAME.describe_event(state, over, T) is None
    assert GAME.describe_turn(state, None, T).endswith(
        "blue is the last player standing and wins! "
        "Ranking: 1. blue; 2. red (eliminated); 3. green (eliminated)."
    )
