"""The chat layer: phone-sized commands, quotes, texts, buttons, completion, undo, pictures."""

import pytest

from engine.core import Action, EnglishTranslator, IllegalAction, ParseError, Reply
from engine.hexania import GAME
from tests.engine.hexania.helpers import finish_turn, position

T = EnglishTranslator()


def action_of(parsed: Action | list[Action] | Reply) -> Action:
    """The one action a command parsed to (not a reply, not several)."""
    assert isinstance(parsed, dict)
    return parsed


def test_chat_commands_parse_to_actions() -> None:
    state = position({"blue": ["L12"]})
    assert GAME.parse(state, "blue", "spawn", ["a6"]) == {"type": "birth", "cell": "A6"}
    assert GAME.parse(state, "blue", "grow", ["L12", "l13"]) == {
        "type": "grow",
        "figure": "L12",
        "cell": "L13",
    }
    assert GAME.parse(state, "blue", "move", ["L12", "se", "3"]) == {
        "type": "move",
        "figure": "L12",
        "dir": "SE",
        "steps": 3,
    }
    assert action_of(GAME.parse(state, "blue", "move", ["L12", "E"]))["steps"] == 1
    assert GAME.parse(state, "blue", "regroup", ["L10", "L14", "keep=L11"]) == {
        "type": "regroup",
        "from": "L10",
        "to": "L14",
        "keep": "L11",
    }
    assert action_of(GAME.parse(state, "blue", "grow", ["L2", "L13", "L7"]))["keep"] == "L7"
    for name, args in [("spawn", ["Z9"]), ("move", ["L12"]), ("move", ["L12", "UP"]), ("grow", [])]:
        with pytest.raises(ParseError):
            GAME.parse(state, "blue", name, args)
    assert {c.name for c in GAME.commands} >= {"spawn", "grow", "move", "regroup", "end", "cost"}
    assert next(c for c in GAME.commands if c.name == "cost").kind == "quote"


def test_hex2_4_end_without_acting_asks_for_confirmation() -> None:
    state = position({"blue": ["L12"]})
    reply = GAME.parse(state, "blue", "end", [])
    assert isinstance(reply, Reply) and "/end yes" in reply.text
    assert GAME.parse(state, "blue", "end", ["yes"]) == {"type": "end"}
    # "confirm", the word /abort takes, confirms too (found playing, 2026-12-03)
    assert GAME.parse(state, "blue", "end", ["confirm"]) == {"type": "end"}
    state["turn"]["actions"] = 1
    assert GAME.parse(state, "blue", "end", []) == {"type": "end"}


def test_hex18_cost_quote_prices_without_acting() -> None:
    state = position(
        {"blue": ["L12", "L13", "L14"], "red": ["N11", "N12", "N13", "N14", "N15"]}, points=7
    )
    before = GAME.text(state)
    reply = GAME.parse(state, "blue", "cost", ["move", "L12", "SE", "3"])
    assert isinstance(reply, Reply)
    assert "inertia 3 + 3 steps + armour 2" in reply.text and "= 8 points" in reply.text
    assert "not enough" in reply.text and "Destroys 3 pieces" in reply.text
    assert reply.extra["ok"] is False and reply.extra["cost"] == 8
    bad = GAME.parse(state, "blue", "cost", ["/regroup", "L12", "L20"])
    assert isinstance(bad, Reply) and "HEX-9" in bad.text
    assert GAME.text(state) == before


def test_describe_turn_and_events_are_english_lines() -> None:
    state = position({"blue": ["L12"]}, points=9)
    text = GAME.describe_turn(state, "blue", T)
    assert "blue rolled 6+6" in text and "/move" in text
    _, events = GAME.apply(state, "blue", {"type": "move", "figure": "L12", "dir": "E", "steps": 2})
    assert (
        GAME.describe_event(state, events[0], T)
        == "blue: L12 moves 2 steps E (east), now at L14 (cost 3, 6 left)."
    )
    _, events = finish_turn(state, "blue")
    lines = [GAME.describe_event(state, e, T) for e in events]
    assert lines[0] == "blue can do nothing more; turn over (0 points lost)."
    assert all(isinstance(line, str) and line for line in lines)


def test_hex6_a_move_report_names_the_cell_the_named_piece_reached() -> None:
    """HEX-6: with a figure on N12, O11, O12, `/move O12 SE 3` was reported "now at Q12",
    where N12 went; O12 landed on R12. Every piece of the figure named gives its own
    landing cell; grow and regroup name the cell taken (HEX-4, HEX-9)."""
    figure = ["N12", "O11", "O12"]
    landed = {"N12": "Q12", "O11": "R11", "O12": "R12"}
    for named, cell in landed.items():
        state = position({"blue": figure, "red": ["A1"]})
        move = GAME.parse(state, "blue", "move", [named, "SE", "3"])
        assert isinstance(move, dict)
        after, events = GAME.apply(state, "blue", move)
        assert after["board"].get(cell) == "blue"
        line = GAME.describe_event(after, events[0], T)
        assert (
            line == f"blue: {named} moves 3 steps SE (south-east), now at {cell} (cost 6, 6 left)."
        ), line
    state = position({"blue": figure, "red": ["A1"]})
    grow = GAME.parse(state, "blue", "grow", ["O12", "P12"])
    assert isinstance(grow, dict)
    after, events = GAME.apply(state, "blue", grow)
    assert "grows onto P12" in (GAME.describe_event(after, events[0], T) or "")
    regroup = GAME.parse(after, "blue", "regroup", ["N12", "P11"])
    assert isinstance(regroup, dict)
    after, events = GAME.apply(after, "blue", regroup)
    assert "regroup N12 to P11" in (GAME.describe_event(after, events[0], T) or "")
    assert after["board"].get("P11") == "blue" and "N12" not in after["board"]


def test_hex2_counts_go_through_ngettext() -> None:
    one = {"type": "turn_ended", "player": "blue", "reason": "no_points", "lost": 1}
    assert GAME.describe_event({}, one, T) == "blue can do nothing more; turn over (1 point lost)."
    rolled = {"type": "dice_rolled", "player": "red", "dice": [1, 1], "bonus": 0, "points": 2}
    assert GAME.describe_event({}, rolled, T) == "red rolls 1+1 = 2 points."
    state = position({"blue": ["L12"], "red": ["L13"]}, points=1)
    assert "1 point left." in GAME.describe_turn(state, "blue", T)
    reply = GAME.parse(state, "blue", "cost", ["move", "L12", "W", "1"])
    assert isinstance(reply, Reply) and "1 step = 2 points; you have 1 — not enough." in reply.text
    reply = GAME.parse(state, "blue", "cost", ["grow", "L12", "L13"])
    assert isinstance(reply, Reply)
    assert "/grow L12 L13: mass 1 + armour" in reply.text and "Destroys 1 piece " in reply.text

    class Marked:
        def gettext(self, message: str) -> str:
            return "<" + message + ">"

        def ngettext(self, singular: str, plural: str, n: int) -> str:
            return "<" + (singular if n == 1 else plural) + ">"

    assert GAME.describe_event({}, one, Marked()) == (
        "<blue can do nothing more; turn over (1 point lost).>"
    )
    marked = GAME.parse(state, "blue", "cost", ["move", "L12", "W", "1"], Marked())
    assert isinstance(marked, Reply) and "<1 step>" in marked.text


def test_hex2_buttons_offer_births_and_no_end() -> None:
    state = position({}, points=5)
    buttons = GAME.buttons(state, "blue")
    assert buttons == [
        ("Spawn A4", "/spawn A4"),
        ("Spawn A5", "/spawn A5"),
        ("Spawn A6", "/spawn A6"),
    ]
    assert GAME.buttons(state, "red") == []


def test_complete_cells_prefers_own_pieces_and_homeland() -> None:
    state = position({"blue": ["L12", "B3"]})
    assert GAME.complete(state, "blue", "cell", "")[:4] == ["B3", "L12", "A4", "A5"]
    assert GAME.complete(state, "blue", "cell", "l1")[:3] == ["L12", "L1", "L10"]
    assert GAME.complete(None, None, "cell", "w1") == ["W1", "W10", "W11", "W12"]
    assert GAME.complete(state, "blue", "direction", "s") == ["SW", "SE"]


def test_undoable_unless_dice_were_rolled_and_pictures_after_each_turn() -> None:
    state = position({"blue": ["L12"]}, points=9)
    _, events = GAME.apply(state, "blue", {"type": "grow", "figure": "L12", "cell": "L13"})
    assert GAME.undoable(events) and not any(GAME.is_picture_event(e) for e in events)
    _, events = finish_turn(state, "blue")
    assert not GAME.undoable(events)
    assert [e["type"] for e in events if GAME.is_picture_event(e)] == ["turn_ended"]


def test_illegal_chat_move_names_its_rule() -> None:
    state = position({"blue": ["L12"]}, points=9)
    action = GAME.parse(state, "blue", "spawn", ["L13"])
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, "blue", action)  # type: ignore[arg-type]
    assert err.value.rule_id == "HEX-3"


def test_hex_d5_the_opening_line_tells_sides_roll_off_and_order() -> None:
    """HEX-G-9 sides and the HEX-D-5 roll-off (seed 7: ann and bob tie twice) are drawn at
    setup, where no move speaks of them; the "begins" post carries this line."""
    state = GAME.setup(["ann", "bob", "cyd", "dan"], {}, 7)
    assert len(state["rolloff"]) == 3
    line = GAME.describe_start(state, T)
    assert line == (
        "Sides drawn at random (HEX-G-9): ann south, bob north, cyd north-east, "
        "dan south-west. Roll-off for the first turn (HEX-D-5): ann (9), bob (9), dan (8), "
        "cyd (7). "
        "Tied, they roll again: ann (6), bob (6). Tied, they roll again: bob (12), ann (3). "
        "bob starts; then clockwise: cyd, ann, dan."
    )
    assert state["order"][0] == "bob" == GAME.current_players(state)[0]


def test_move_usage_lines_mark_the_steps_optional_as_help_does() -> None:
    """Found playing (2026-12-02): /help move marks <steps> optional (default 1), while the
    usage refusals showed it as required."""
    spec = next(c for c in GAME.commands if c.name == "move")
    assert not next(a for a in spec.args if a.name == "steps").required
    assert spec.usage is not None and "[<steps>]" in spec.usage
    state = position({"blue": ["L12"], "red": ["A1"]})
    assert GAME.parse(state, "blue", "move", ["L12", "SE"]) == {
        "type": "move",
        "figure": "L12",
        "dir": "SE",
        "steps": 1,
    }
    with pytest.raises(ParseError) as info:
        GAME.parse(state, "blue", "move", ["L12", "SE", "3", "what"])
    assert "[<steps>]" in info.value.english()


def test_hex_g3_a_direction_is_said_with_its_name_in_the_readers_words() -> None:
    """HEX-G-3: the move line said the token alone, «в направлении NE» in a Russian chat
    (found playing, 2026-12-03). The token /move reads stays, its name follows in brackets,
    through the catalogs, in the event line and in the log's line alike."""
    from bot.i18n import translator
    from engine.hexania.board import DIRECTIONS, direction_text
    from engine.hexania.logtext import describe_action

    assert [direction_text(T, d) for d in ("E", "W", "NE", "SW")] == [
        "E (east)",
        "W (west)",
        "NE (north-east)",
        "SW (south-west)",
    ]
    assert direction_text(T, "UP") == "UP"
    ru = translator("ru")
    assert direction_text(ru, "NE") == "NE (" + ru.gettext("north-east") + ")"
    for d in DIRECTIONS:  # every direction has a name of its own
        assert direction_text(T, d) != d
    state = position({"blue": ["L12"]}, points=9)
    move = {"type": "move", "figure": "L12", "dir": "NE", "steps": 2}
    _, events = GAME.apply(state, "blue", dict(move))
    assert "moves 2 steps NE (north-east)" in (GAME.describe_event(state, events[0], T) or "")
    assert describe_action(state, "blue", move, T) == "blue moves L12 2 steps NE (north-east)."
    assert (
        describe_action(state, "blue", move, ru)
        == "blue двигает L12 на NE (северо-восток): 2 шага."
    )
