"""Rules version 2 (issue 17; engine/iec/together.py): the phases where no company's choice
depends on another's are declared by everybody at once, in secret, and carried out in the
phase's order (IEC-M-21, IEC-S-10.4, IEC-26)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.core import EnglishTranslator, IllegalAction, canonical_json
from engine.iec import GAME, rules
from engine.iec.model import SIMULTANEOUS_PHASES
from tests.engine.iec.helpers import add, dice, empty

T = EnglishTranslator()
State = dict[str, Any]


def _open(st: State, phase: int) -> State:
    """Phase `phase` just begun (its automatic start already done): ask whoever decides."""
    st["phase"], st["phase_open"], st["actor"], st["done"] = phase, True, None, []
    st.pop("actors", None)  # (left by the setup's own first phase)
    st.pop("pending", None)
    rules.advance(st, [])
    return st


def _transmitters(version: str = "2") -> tuple[State, str, str]:
    """P1 and P2 each with a reactor, a transmitter and BC in a linked storage, phase 10."""
    st, (p1, p2) = empty(rules_version=version)
    add(st, p1, "reactor", "B7")
    add(st, p2, "reactor", "W10")
    add(st, p1, "transmitter", "G3")
    add(st, p1, "storage", "E3", goods={"BC": 2})
    add(st, p2, "transmitter", "R14")
    add(st, p2, "storage", "T14", goods={"BC": 2})
    st["radiation"] = 8  # transmission succeeds on 3+
    return _open(st, 10), p1, p2


def test_iec_m21_s10_4_version2_transmission_asks_everybody_at_once() -> None:
    st, p1, p2 = _transmitters()
    assert GAME.current_players(st) == [p1, p2]
    one, _, _ = _transmitters("1")
    assert GAME.current_players(one) == [p1]  # version 1: one after another


def test_iec_26_version2_declarations_are_carried_out_in_phase_order() -> None:
    """P2 declares first, yet P1 (first in the phase order) rolls first: the dice fall as
    they would in turn."""
    st, p1, p2 = _transmitters()
    events = GAME.apply(st, p2, {"type": "transmit", "building": "R14"})[1]
    assert [e["type"] for e in events] == ["declared", "declaration_done"]
    assert st["players"][p2]["vp"] == 0 and st["buildings"]["T14"]["goods"]["BC"] == 2
    # P1's own move is first checked on a copy (it rolls there too: the first die), then
    # judged on a second copy as the table sees it (the second die: is he done?), then the
    # declarations are carried out: P1's roll, then P2's.
    with dice(2, 2, 6, 1):
        events = GAME.apply(st, p1, {"type": "transmit", "building": "G3"})[1]
    rolls = [(e["player"], e["roll"]) for e in events if e["type"] == "transmitted"]
    assert rolls == [(p1, 6), (p2, 1)]
    assert (st["players"][p1]["vp"], st["players"][p2]["vp"]) == (1, 0)
    assert (st["turn"], st["phase"]) != (1, 10)  # the phase is over, the game went on


def test_iec_s26_version2_a_pending_declaration_is_secret() -> None:
    """Noninterference: P1 receives the same whether P2 declared a transmission or stopped."""
    a, p1, p2 = _transmitters()
    b = copy.deepcopy(a)
    ev_a = GAME.apply(a, p2, {"type": "transmit", "building": "R14"})[1]
    ev_b = GAME.apply(b, p2, {"type": "done"})[1]
    for viewer in (p1, None):
        assert canonical_json(GAME.view(a, viewer)) == canonical_json(GAME.view(b, viewer))
        assert GAME.describe_turn(a, viewer, T) == GAME.describe_turn(b, viewer, T)
    assert GAME.buttons(a, p1, T) == GAME.buttons(b, p1, T)
    assert GAME.legal_actions(a, p1) == GAME.legal_actions(b, p1)
    assert GAME.current_players(a) == GAME.current_players(b) == [p1]
    public_a = [GAME.describe_event(a, e, T) for e in ev_a]
    public_b = [GAME.describe_event(b, e, T) for e in ev_b]
    assert [x for x in public_a if x] == [x for x in public_b if x]
    # The owner alone reads his declaration, and sees it in his own view.
    (declared,) = [e for e in ev_a if e["type"] == "declared"]
    assert declared["private_to"] == p2
    assert "R14" in (GAME.describe_private_event(a, declared, T) or "")
    assert GAME.view(a, p2)["my_pending"] == [{"type": "transmit", "building": "R14"}]
    assert "my_pending" in GAME.view(a, p1) and GAME.view(a, p1)["my_pending"] == []


def test_iec_s17_version2_each_move_is_checked_after_own_declarations() -> None:
    st, p1, p2 = _transmitters()
    add(st, p1, "transmitter", "G1")
    st = _open(st, 10)
    GAME.apply(st, p1, {"type": "transmit", "building": "G3"})
    with pytest.raises(IllegalAction) as info:  # the same transmitter twice
        GAME.apply(st, p1, {"type": "transmit", "building": "G3"})
    assert info.value.rule_id == "IEC-S-17"
    assert GAME.legal_actions(st, p1) == [
        {"type": "transmit", "building": "G1"},
        {"type": "done"},
    ]
    # With one BC between them, the first declaration leaves nothing to decide: he is done.
    st, p1, p2 = _transmitters()
    add(st, p1, "transmitter", "G1")
    st["buildings"]["E3"]["goods"]["BC"] = 1
    st = _open(st, 10)
    GAME.apply(st, p1, {"type": "transmit", "building": "G3"})
    assert GAME.current_players(st) == [p2]


def test_iec_s17_version2_a_declaration_that_no_longer_applies_lapses() -> None:
    st, p1, p2 = _transmitters()
    GAME.apply(st, p2, {"type": "transmit", "building": "R14"})
    st["buildings"]["T14"]["goods"]["BC"] = 0  # (e.g. Fast Transmission used it up)
    events = GAME.apply(st, p1, {"type": "done"})[1]
    lapsed = [e for e in events if e["type"] == "declaration_lapsed"]
    assert [(e["player"], e["action"]) for e in lapsed] == [(p2, "transmit")]
    line = GAME.describe_event(st, lapsed[0], T)
    assert line is not None and "lapses" in line


def test_iec_24_version2_done_refused_while_a_technology_must_be_chosen() -> None:
    st, (p1, p2) = empty(rules_version="2")
    add(st, p1, "reactor", "B7")
    add(st, p2, "reactor", "W10")
    st["players"][p1]["science"] = 3
    st["players"][p2]["science"] = 3
    st = _open(st, 14)
    assert GAME.current_players(st) == [p1, p2]
    with pytest.raises(IllegalAction) as info:
        GAME.apply(st, p1, {"type": "done"})
    assert info.value.rule_id == "IEC-24"
    GAME.apply(st, p2, {"type": "tech", "tech": 5})
    assert "tech" not in json.dumps(GAME.view(st, p1)["players"][p2]["techs"])
    assert GAME.view(st, p1)["players"][p2]["science"] == 3  # not spent before all decide
    GAME.apply(st, p1, {"type": "tech", "tech": 7})
    assert st["players"][p2]["techs"] == [5] and st["players"][p1]["techs"] == [7]


def test_iec_s_23_version2_super_computer_leaves_more_to_choose_and_asks_again() -> None:
    """IEC-S-23: while his points cover his next technology he must choose. Super Computer
    (IEC-TECH-2) declared first acts as the next purchases are carried out: 21 points buy
    three technologies at 3, not the 3 + 5 + 7 he planned with, and 12 points are left with
    the next at 5. The phase asks him again instead of ending (found play-testing,
    2026-12-04)."""
    st, (p1, p2) = empty(rules_version="2")
    add(st, p1, "reactor", "B7")
    add(st, p2, "reactor", "W10")
    st["players"][p1]["science"] = 21
    st = _open(st, 14)
    turn = st["turn"]
    assert GAME.current_players(st) == [p1]
    for tech in (2, 13, 11):  # then nothing more he can plan for: his part is done
        events = GAME.apply(st, p1, {"type": "tech", "tech": tech})[1]
    assert st["players"][p1]["techs"] == [2, 13, 11] and st["players"][p1]["science"] == 12
    assert "turn_ended" not in [e["type"] for e in events]
    assert (st["turn"], st["phase"]) == (turn, 14) and GAME.current_players(st) == [p1]
    GAME.apply(st, p1, {"type": "tech", "tech": 5})  # 5 points: 7 left, the next costs 7
    GAME.apply(st, p1, {"type": "tech", "tech": 6})  # carried out: 0 left
    assert st["players"][p1]["techs"] == [2, 13, 11, 5, 6] and st["players"][p1]["science"] == 0
    assert st["phase"] != 14 or p1 not in GAME.current_players(st)


def test_iec_19_version2_tokens_appear_only_when_everybody_has_laid() -> None:
    st, (p1, p2) = empty(rules_version="2")
    add(st, p1, "reactor", "B7")
    add(st, p2, "reactor", "W10")
    add(st, p1, "developer", "E5")
    add(st, p1, "storage", "E3", goods={"AC": 2})
    add(st, p2, "developer", "T12")
    add(st, p2, "storage", "T14", goods={"AC": 2})
    st = _open(st, 5)
    assert GAME.current_players(st) == [p1, p2]
    GAME.apply(st, p2, {"type": "lay", "real": ["S12"], "fake": []})
    assert st["tokens"] == [] and GAME.view(st, p1)["tokens"] == []
    GAME.apply(st, p1, {"type": "lay", "real": ["F5"], "fake": ["G5"]})
    cells = sorted(t["cell"] for t in st["tokens"])
    assert cells == ["F5", "G5", "S12"]
    # Token ids follow the phase order, as in turn: P1's first.
    assert [t["owner"] for t in sorted(st["tokens"], key=lambda t: t["id"])] == [p1, p1, p2]


def test_iec_m21_phases_with_interaction_stay_in_turn() -> None:
    """Missile fire (IEC-S-10.4: a launcher destroyed by an earlier player does not fire)."""
    st, (p1, p2) = empty(rules_version="2")
    add(st, p1, "reactor", "B7")
    add(st, p2, "reactor", "W10")
    add(st, p1, "launcher", "I5")
    add(st, p1, "storage", "I7", goods={"AC": 3})
    add(st, p2, "launcher", "N5")
    add(st, p2, "storage", "N7", goods={"AC": 3})
    st = _open(st, 9)
    assert 9 not in SIMULTANEOUS_PHASES
    assert GAME.current_players(st) == [p1]


def test_issue17_iec_forced_done_never_names_a_player_with_a_choice() -> None:
    st, p1, p2 = _transmitters()
    assert GAME.forced_action(st, p1) is None and GAME.forced_action(st, p2) is None
    GAME.apply(st, p2, {"type": "transmit", "building": "R14"})
    assert GAME.forced_action(st, p2) is None  # done already: not asked any more


@pytest.mark.parametrize("kind, building", [("transmit", "G3"), ("research", "E5")])
def test_iec_s10_4_private_line_names_the_building_a_bare_move_defaults_to(
    kind: str, building: str
) -> None:
    """`/transmit` (or `/research`) with no cell acts with the first powered building that can
    (IEC-S-10.4 declarations, IEC-9): the owner's private line names it, not "-"."""
    st, p1, _ = _transmitters()
    if kind == "research":
        add(st, p1, "laboratory", "E5")
        st["buildings"]["E3"]["goods"]["AC"] = 2
        st = _open(st, 11)
    events = GAME.apply(st, p1, {"type": kind})[1]
    (declared,) = [e for e in events if e["type"] == "declared"]
    line = GAME.describe_private_event(st, declared, T) or ""
    assert f"from {building}" in line or f"on {building}" in line, line
    assert " - " not in line and "from -" not in line and "on -" not in line
    if kind == "transmit":  # P2 still decides: the declaration waits, as given
        assert st["pending"][p1] == [{"type": kind}]


def test_the_last_declaration_s_owner_line_says_everybody_has_decided() -> None:
    """Found playing (2026-12-02): the last company to decide read "It is carried out when
    everybody has decided" after the results of that phase (and /log says it of every past
    declaration); once the state is past the declaration's phase, the line says so."""
    st, p1, p2 = _transmitters()
    first = GAME.apply(st, p2, {"type": "transmit", "building": "R14"})[1][0]
    pending = GAME.describe_private_event(st, first, T) or ""
    assert "transmit from R14" in pending and "when everybody has decided" in pending, pending
    with dice(2, 2, 6, 1):
        events = GAME.apply(st, p1, {"type": "transmit", "building": "G3"})[1]
    (last,) = [e for e in events if e["type"] == "declared"]
    for event, cell in ((last, "G3"), (first, "R14")):
        line = GAME.describe_private_event(st, event, T) or ""
        assert line == f"Your choice: transmit from {cell} (transmission). Everybody has decided."
