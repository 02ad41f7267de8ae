"""Every token a player may activate is a button (found play-testing, 2026-12, seed 5: bob
held 6 tokens in phase 8 and got "[Activate F6] [F7] [F8] [D4] [C5] [Done]"; his real mine on
D6 could only be typed). The buttons are posted in the group: they come in the map's cell
order, whatever is real (IEC-S-26), and with Done they fit the table's limit (bot/context.py
MAX_BUTTONS, Discord's 5 rows)."""

from __future__ import annotations

import copy
from typing import Any

from engine.core import EnglishTranslator
from engine.iec import GAME, rules
from engine.iec.techs import TECHS
from engine.iec.turn_text import MAX_CHOICES

from .helpers import add, at, two

T = EnglishTranslator()
# The play-tester's six tokens, in the order they were laid (turn 1, then turn 3's by cell).
SIX = ["F6", "F7", "F8", "D4", "C5", "D6"]


def _holding(cells: list[str], real: set[str]) -> tuple[dict[str, Any], str]:
    st, p1, _ = two()
    st["tokens"] = [
        {"id": i, "owner": p1, "cell": c, "real": c in real, "up": False}
        for i, c in enumerate(cells, start=1)
    ]
    st["next_token"] = len(cells) + 1
    return at(st, 8, p1), p1


def _map_order(st: dict[str, Any], cells: list[str]) -> list[str]:
    index = rules.scen(st).index
    return sorted(cells, key=index.__getitem__)


def test_iec_s22_each_of_six_tokens_is_a_button_then_done() -> None:
    st, p1 = _holding(SIX, {"F6", "D6"})
    cmds = [cmd for _label, cmd in GAME.buttons(st, p1, T)]
    assert cmds == [f"/activate {c}" for c in ["D4", "C5", "D6", "F6", "F7", "F8"]] + ["/done"]
    assert ("Activate D6", "/activate D6") in GAME.buttons(st, p1, T)
    # the prompt lists them in the same order
    assert "Activate a token: D4, C5, D6, F6, F7, F8." in GAME.describe_turn(st, p1, T)


def test_iec_s26_the_activation_buttons_do_not_tell_which_token_is_real() -> None:
    """The same buttons and prompt whichever of the tokens are real, in whatever order they
    were laid."""
    seen = set()
    for real in ({"F6", "D6"}, {"F7"}, {"D4", "C5"}, set()):
        for cells in (SIX, list(reversed(SIX))):
            st, p1 = _holding(cells, real)
            seen.add((tuple(GAME.buttons(st, p1, T)), GAME.describe_turn(st, p1, T)))
    assert len(seen) == 1


def test_iec_s22_the_most_tokens_a_company_can_hold_are_all_buttons() -> None:
    """Chat Standard: M = 4 real mines, 6 with Total Mine War (IEC-TECH-18), one per placement
    of up to 3 tokens: 18 tokens, and Done."""
    st, p1 = _holding([], set())
    most = rules.param(st, "max_tokens_per_lay") * (rules.param(st, "M") * 3 // 2)
    assert most == 18 and most <= MAX_CHOICES
    free = [c for c in rules.scen(st).cells if c not in st["buildings"]][:most]
    st, p1 = _holding(free, set(free[::3]))
    cmds = [cmd for _label, cmd in GAME.buttons(st, p1, T)]
    assert cmds == [f"/activate {c}" for c in _map_order(st, free)] + ["/done"]


def test_iec_24_every_technology_to_choose_is_a_button() -> None:
    """Phase 14, a technology must be chosen (no Done): all of them, not the first five."""
    st, p1, _ = two()
    st["players"][p1]["science"] = 3
    at(st, 14, p1)
    assert st["mine_war"]
    cmds = [cmd for _label, cmd in GAME.buttons(st, p1, T)]
    assert cmds == [f"/tech {n}" for n in TECHS]
    assert len(TECHS) <= MAX_CHOICES


def _two_launchers() -> tuple[dict[str, Any], str]:
    st, p1, p2 = two()
    add(st, p1, "launcher", "I5")
    add(st, p1, "launcher", "I8")
    add(st, p1, "storage", "I7", goods={"AC": 4})
    for cell in ("R3", "R5", "R7"):
        add(st, p2, "storage", cell)
    at(st, 9, p1)
    return st, p1


def test_iec_s19_every_missile_target_is_a_button_naming_its_launcher() -> None:
    """Two launchers, three targets each, 2 missiles: 12 single-target choices (it was 5: the
    second launcher had none); the label says which launcher fires."""
    st, p1 = _two_launchers()
    singles = [
        (a["launcher"], *next(iter(a["targets"].items())))
        for a in GAME.legal_actions(st, p1)
        if a["type"] == "fire" and len(a["targets"]) == 1
    ]
    assert {la for la, _c, _n in singles} == {"I5", "I8"} and len(singles) > 5
    btns = GAME.buttons(st, p1, T)
    assert btns[:-1] == [
        (f"Fire {c} x{n} from {la}", f"/fire {la} {c} {n}") for la, c, n in singles
    ]
    assert btns[-1] == ("Done", "/done")
    # one launcher: the label as before
    del st["buildings"]["I8"]
    assert ("Fire R3 x1", "/fire I5 R3 1") in GAME.buttons(st, p1, T)


def _one_launcher_four_targets(revealed: bool) -> tuple[dict[str, Any], str]:
    st, p1 = _two_launchers()
    del st["buildings"]["I8"]
    st["players"][p1]["techs"] = [10]
    st["players"][p1]["revealed"] = [10] if revealed else []
    return st, p1


def test_iec_tech_10_every_pair_of_targets_is_a_button() -> None:
    """A revealed IEC-TECH-10 (two targets a turn): a button per pair of targets, one missile at
    each, after the single-target ones (it was one sample pair, then none: only typed)."""
    st, p1 = _one_launcher_four_targets(revealed=True)
    btns = GAME.buttons(st, p1, T)
    pairs = [(label, cmd) for label, cmd in btns if "+" in label]
    targets = ["R3", "R5", "R7", "W10"]  # the three storages and P2's reactor
    assert pairs == [
        (f"Fire {c} + {d}", f"/fire I5 {c} 1 {d} 1")
        for i, c in enumerate(targets)
        for d in targets[i + 1 :]
    ]
    assert btns.index(pairs[0]) > btns.index(("Fire W10 x2", "/fire I5 W10 2"))
    assert btns[-1] == ("Done", "/done")
    for _label, cmd in pairs:  # each button's command is a legal two-target shot
        words = cmd.split()[1:]
        action = GAME.parse(st, p1, "fire", words)
        assert action == {"type": "fire", "launcher": "I5", "targets": {words[1]: 1, words[3]: 1}}
        after, events = GAME.apply(copy.deepcopy(st), p1, action)
        assert after["buildings"]["I7"]["goods"]["AC"] == 2  # one AC a missile (IEC-16.3)
        assert [e["type"] for e in events].count("missiles") == 2  # one volley at each target


def test_iec_s23_an_unrevealed_tech_10_shapes_no_button() -> None:
    """The buttons are posted in the group: an unrevealed technology adds no pair (corrections
    1.1); its owner types the two-target shot."""
    st, p1 = _one_launcher_four_targets(revealed=False)
    assert not [label for label, _cmd in GAME.buttons(st, p1, T) if "+" in label]
    st2, _ = _one_launcher_four_targets(revealed=False)
    st2["players"][p1]["techs"] = []
    assert GAME.buttons(st, p1, T) == GAME.buttons(st2, p1, T)
