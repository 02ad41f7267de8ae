"""Chat layer: commands, prompts with quotes, events, buttons, completion, undo, picture."""

from __future__ import annotations

import copy
import io
import re

import pytest

from bot.i18n import translator
from engine.core import EnglishTranslator, IllegalAction, ParseError, Reply, Rng
from engine.core.rng import new_rng_state
from engine.iec import GAME, actions, commands
from tests.engine.iec.helpers import add, at, empty

T = EnglishTranslator()


def test_parse_fire_finds_own_launcher_and_counts() -> None:
    st, (p1, p2) = empty()
    add(st, p1, "launcher", "I5")
    add(st, p2, "storage", "R3")
    assert GAME.parse(st, p1, "fire", ["R3", "2"]) == {
        "type": "fire",
        "launcher": "I5",
        "targets": {"R3": 2},
    }
    fire = GAME.parse(st, p1, "fire", ["I5", "R3"])
    assert isinstance(fire, dict) and fire["targets"] == {"R3": 1}


def test_iec_16_1_fire_out_of_range_says_how_far_and_the_limit() -> None:
    """IEC-16.1: a launcher fires up to twice its base range of 20 cm; a target beyond every
    launcher is refused with that rule, the distance to the nearest (IEC-S-3) and the limit,
    whether the launcher is named or picked."""
    from bot.i18n import explain

    st, (p1, p2) = empty()
    add(st, p1, "launcher", "A1")
    add(st, p1, "launcher", "C3")  # the nearer one: 2 * sqrt(21² + 13²) = 49.4 cm to X16
    add(st, p2, "storage", "X16")
    at(st, 9, p1)
    with pytest.raises(IllegalAction) as picked:
        GAME.parse(st, p1, "fire", ["X16"])
    assert picked.value.rule_id == "IEC-16.1"
    assert picked.value.params["launcher"] == "C3" and picked.value.params["d"] == "49.4"
    assert picked.value.english() == (
        "X16 is 49.4 cm from your launcher on C3; a launcher fires up to 40 cm, "
        "twice its base range of 20 cm."
    )
    with pytest.raises(IllegalAction) as named:
        actions.apply(st, p1, {"type": "fire", "launcher": "A1", "targets": {"X16": 1}})
    assert named.value.rule_id == "IEC-16.1" and named.value.params["launcher"] == "A1"
    assert "X16" in explain("ru", named.value) and "(IEC-16.1)" in explain("ru", named.value)
    for la in ("A1", "C3"):
        st["buildings"][la]["used"] = ["fire"]
    with pytest.raises(IllegalAction) as fired:
        GAME.parse(st, p1, "fire", ["X16"])
    assert fired.value.rule_id == "IEC-S-19.1"
    with pytest.raises(IllegalAction) as none:
        GAME.parse(st, p2, "fire", ["A1"])
    assert none.value.rule_id == "IEC-16.2"


def test_parse_build_and_lay_and_errors() -> None:
    st, (p1, _p2) = empty()
    add(st, p1, "developer", "E5")
    assert GAME.parse(st, p1, "build", ["g6", "mine"]) == {
        "type": "build",
        "cell": "G6",
        "kind": "mine",
        "developer": "E5",
    }
    assert GAME.parse(st, p1, "lay", ["H7+H8", "H6"]) == {
        "type": "lay",
        "real": ["H7", "H8"],
        "fake": ["H6"],
    }
    at(st, 7, p1)  # in another phase the phase's refusal comes first (IEC-27)
    with pytest.raises(ParseError):
        GAME.parse(st, p1, "build", ["Z99"])
    assert isinstance(GAME.parse(st, p1, "status", []), Reply)


def test_describe_turn_quotes_cost_and_odds() -> None:
    st, (p1, p2) = empty()
    add(st, p1, "reactor", "B7")
    add(st, p1, "launcher", "I5")
    add(st, p1, "storage", "I7", goods={"AC": 2})
    add(st, p2, "storage", "R3")
    at(st, 9, p1)
    st["buildings"]["I5"]["powered"] = True
    text = GAME.describe_turn(st, p1, T)
    assert "R3" in text and "3+ (67%)" in text and "1 AC" in text
    assert text.splitlines()[2] == "For example: /fire R3 1"  # the form, from the choices


def test_describe_event_hides_secret_technology() -> None:
    st, (p1, _p2) = empty()
    line = GAME.describe_event(
        st, {"type": "tech_chosen", "player": p1, "cost": 3, "secret": {"tech": 8}}, T
    )
    assert line is not None and "Fast" not in line and p1 in line
    assert GAME.describe_event(st, {"type": "order_set"}, T) is None


def test_undoable_false_after_rolls_or_reveals() -> None:
    assert GAME.undoable([{"type": "site_prepared"}])
    assert not GAME.undoable([{"type": "build_roll", "rolled": True}])
    assert not GAME.undoable([{"type": "token_activated", "revealed": True}])


def test_picture_at_end_of_each_turn() -> None:
    assert GAME.is_picture_event({"type": "turn_ended"})
    assert not GAME.is_picture_event({"type": "mixed"})


def test_buttons_and_complete() -> None:
    st, (p1, _p2) = empty()
    add(st, p1, "reactor", "B7")
    add(st, p1, "transmitter", "G3", powered=True)
    add(st, p1, "storage", "E3", goods={"BC": 1})
    at(st, 10, p1)
    assert ("Transmit G3", "/transmit G3") in GAME.buttons(st, p1)
    assert GAME.complete(st, p1, "kind", "tr") == ["transmitter"]
    assert "E5" in GAME.complete(None, None, "cell", "e")


def test_standing_orders_need_no_turn_and_do_not_advance() -> None:
    st, (p1, p2) = empty()
    at(st, 9, p2)
    actions.apply(st, p1, {"type": "mix", "recipes": ["BC"]})
    assert st["players"][p1]["orders"]["mix"] == ["BC"] and st["actor"] == p2
    with pytest.raises(IllegalAction):
        actions.apply(st, p1, {"type": "mix", "recipes": ["ZZ"]})


def test_render_png_palette_and_width() -> None:
    from PIL import Image

    st = GAME.setup(["a", "b", "c"], {}, 2)
    png = GAME.render(st, "a")
    im = Image.open(io.BytesIO(png))
    assert im.format == "PNG" and im.mode == "P" and im.size[0] <= 1280


def test_describe_turn_for_spectator_and_over() -> None:
    st = GAME.setup(["a", "b"], {}, 2)
    assert "Turn 1/20" in commands.describe_turn(st, None, T)


def test_every_prompt_s_example_command_is_a_legal_move() -> None:
    """The prompt ends each phase's choices with "For example: /prepare D4" (IEC-27 phases 5-11)
    made from those very choices, so a newcomer learns the command's form; every example
    shown on the way through seeded games parses and is accepted as it stands."""
    seen: set[str] = set()
    worded: set[str] = set()
    cut = 0  # prompts whose list was cut: "F3 (+12)." says how many more, never "F3 ...."
    for seed, t in ((1, T), (2, translator("ru")), (3, translator("zh_Hant"))):
        state = GAME.setup(["ann", "bob", "cyd"], {}, seed)
        rng = Rng(new_rng_state(seed))
        for _ in range(3000):
            if GAME.is_over(state) or state["turn"] > 10:
                break
            player = GAME.current_players(state)[0]
            said = GAME.describe_turn(state, player, t)
            assert "..." not in said, said
            cut += bool(re.search(r"\w \(\+\d+\)", said))
            for example in re.findall(r"(?:For example: |Например: |例如：)(\S.*)", said):
                name, *args = example[1:].split()
                parsed = GAME.parse(state, player, name, args, t)
                assert not isinstance(parsed, Reply), example
                for action in parsed if isinstance(parsed, list) else [parsed]:
                    GAME.apply(copy.deepcopy(state), player, action)  # raises if refused
                seen.add(name)
                worded |= {a for a in args if not a.isascii()}  # a kind in the reader's words
            bot = GAME.bots["rush" if player == "ann" else "economic"]  # a launcher fires
            state, _ = GAME.apply(state, player, bot(state, player, rng))
    assert {"lay", "prepare", "build", "transmit", "fire"} <= seen, seen
    assert worded, "no /build example named a kind in Russian or Chinese"
    assert cut, "no prompt cut a list"


def test_iec_s18_1_the_prepare_prompt_offers_sites_where_a_building_fits() -> None:
    """IEC-S-18.1 lets a developer prepare any empty buildable cell in reach, but a site the
    intervals (IEC-S-3) leave empty of every building type is prepared in vain: the prompt
    lists (and its example takes) the sites where something fits now."""
    from engine.iec import choices as ch

    st, (p1, _p2) = empty()
    dev = add(st, p1, "developer", "E5")
    add(st, p1, "storage", "E3", goods={"AB": 2})
    add(st, p1, "reactor", "G6")  # a reactor keeps every type 5 cm away (IEC-S-3)
    at(st, 6, p1)
    legal = ch.prep_cells(st, dev)
    useful = [c for c in legal if ch.kinds_for(st, c)]
    assert 0 < len(useful) < len(legal)  # near the reactor nothing fits
    text = GAME.describe_turn(st, p1, T)
    listed = text.split("may prepare one of: ")[1].split(" (free)")[0].split(", ")
    assert listed == useful[:24]
    assert f"For example: /prepare {useful[0]}" in text


def test_no_refusal_of_iec_names_a_rule_in_its_text() -> None:
    """The table adds " (IEC-...)" and "See /rules IEC-..." to every refusal (bot.i18n.explain),
    so a refusal's own text names no rule (found playing Hexania: "(HEX-2) ... (HEX-2)")."""
    from tests.engine.hexania.helpers import refusal_texts  # the same scan for both games

    found = refusal_texts("engine/iec")
    assert len(found) > 100  # the scan reads the refusals
    assert [f for f in found if re.search(r"\bIEC-[A-Z0-9]", f[2])] == []
