"""Rules version 2, phases declared at once (engine/iec/together.py): whether a company is
still deciding never tells a secret technology (issue 20; corrections 1.1 "No side channel
through prompts", IEC-S-23, IEC-S-26).

Each test builds two states that differ only in the holder's secret technologies, plays the
same moves on both and compares everything the other company and the group receive: who is
still deciding (`current_players`), the turn line, the public events and their lines, the
buttons posted in the group, the forced /done, the other company's and the spectator's view and
the picture drawn for them.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.core import EnglishTranslator, IllegalAction, canonical_json
from engine.iec import GAME, choices, rules
from engine.iec.model import param
from tests.engine.iec.helpers import add, dice, empty
from tests.engine.iec.test_simultaneous import _open

T = EnglishTranslator()
State = dict[str, Any]


def _seen(state: State, events: list[dict[str, Any]], obs: str, pictures: bool = False) -> Any:
    public = [
        ({k: v for k, v in e.items() if k != "secret"}, GAME.describe_event(state, e, T))
        for e in events
    ]
    out = [
        public,
        GAME.current_players(state),
        GAME.describe_turn(state, None, T),
        GAME.describe_turn(state, obs, T),
        canonical_json(GAME.view(state, obs)),
        canonical_json(GAME.view(state, None)),
        [GAME.buttons(state, p, T) for p in GAME.current_players(state)],
        [GAME.forced_action(state, p) for p in state["seats"]],
    ]
    if pictures:
        out += [GAME.render(state, obs, T), GAME.render(state, None, T)]
    return out


def _two_transmitters() -> tuple[State, str, str]:
    """P1 with two transmitters fed by one storage holding 2 BC; P2 with one; phase 10."""
    st, (p1, p2) = empty(rules_version="2")
    add(st, p1, "reactor", "B7")
    add(st, p2, "reactor", "W10")
    add(st, p1, "transmitter", "G3")
    add(st, p1, "transmitter", "G5")
    add(st, p1, "storage", "E3", goods={"BC": 2})
    add(st, p2, "transmitter", "R14")
    add(st, p2, "storage", "T14", goods={"BC": 2})
    st["radiation"] = 8
    return _open(st, 10), p1, p2


def test_iec_tech_8_fast_transmission_does_not_end_a_declaration_early() -> None:
    """IEC-TECH-8 secret (auto): its bonus launch in the planning copy used the second BC, so
    P1 was done at once, while without it he was still deciding (the leak). Now both go on."""
    base, p1, p2 = _two_transmitters()
    assert GAME.current_players(base) == [p1, p2]
    a, b = copy.deepcopy(base), copy.deepcopy(base)
    a["players"][p1]["techs"].append(8)  # Fast Transmission, secret, standing choice "auto"
    b["players"][p1]["techs"].append(9)  # as many technologies: Missile Salvo, idle here
    seen = []
    for st in (a, b):
        with dice(3, 6, 6, 6, 6, 6):  # every planning roll a success, bonus included
            st, events = GAME.apply(st, p1, {"type": "transmit", "building": "G3"})
        assert GAME.current_players(st) == [p1, p2]  # G5 may still transmit, as far as known
        seen.append(_seen(st, events, p2, pictures=True))
    assert seen[0] == seen[1]


def test_iec_tech_8_fast_transmission_resolves_and_a_lapsed_declaration_is_named() -> None:
    """The same P1 declares both transmitters; at resolution Fast Transmission launches the
    second BC (revealed first: the allowed difference), and G5's declaration lapses."""
    st, p1, p2 = _two_transmitters()
    st["players"][p1]["techs"].append(8)
    for move in ("G3", "G5"):
        with dice(*[3, 1] * 6):  # the planning copies' bonus rolls fail
            st = GAME.apply(st, p1, {"type": "transmit", "building": move})[0]
    assert GAME.current_players(st) == [p2]  # both transmitters declared: nothing left
    with dice(3, 6, 3):  # G3 succeeds, the bonus launches the second BC
        events = GAME.apply(st, p2, {"type": "done"})[1]
    kinds = [e["type"] for e in events]
    assert kinds.index("tech_revealed") < kinds.index("bonus_roll")
    lapsed = [e for e in events if e["type"] == "declaration_lapsed"]
    assert [(e["player"], e["action"]) for e in lapsed] == [(p1, "transmit")]
    assert GAME.describe_event(st, lapsed[0], T)
    assert st["buildings"]["E3"]["goods"]["BC"] == 0


def test_iec_s26_which_move_was_declared_does_not_show_in_the_buttons() -> None:
    """The group sees every prompted player's buttons: after P1 declares G3 or G5 they are
    the same (a declaration stays secret until all are made, together.py)."""
    base, p1, p2 = _two_transmitters()
    seen = []
    for cell in ("G3", "G5"):
        with dice(*[3, 1] * 4):
            st, events = GAME.apply(copy.deepcopy(base), p1, {"type": "transmit", "building": cell})
        seen.append(_seen(st, events, p2))
        assert ("Transmit G3 (p1)", "/transmit G3") in GAME.buttons(st, p1, T)
    assert seen[0] == seen[1]


def _science(version: str = "2") -> tuple[State, str, str]:
    """Phase 14: P1 holds one technology and science for a second (cost T + Q) but not, at
    the usual cost, for a third; P2 must choose a first technology (so the phase stays open
    while P1 declares)."""
    st, (p1, p2) = empty(rules_version=version)
    add(st, p1, "reactor", "B7")
    add(st, p2, "reactor", "W10")
    st["players"][p1]["techs"] = [5]
    st["players"][p1]["revealed"] = []
    t_, q = int(param(st, "T")), int(param(st, "Q"))
    # After the second technology (T + Q) he keeps T: exactly what Super Computer would let
    # the third cost (T + max(0, 2 - 2) Q), never what it costs without (T + 2Q).
    st["players"][p1]["science"] = (t_ + q) + t_
    st["players"][p2]["science"] = t_
    return _open(st, 14), p1, p2


def test_iec_tech_2_super_computer_chosen_in_a_declaration_acts_only_at_resolution() -> None:
    """A technology chosen in phase 14 declared at once is secret (`tech_chosen` names only
    the count): choosing Super Computer must not keep P1 deciding (a third technology at its
    lowered cost) while any other choice ends his part."""
    base, p1, p2 = _science()
    assert GAME.current_players(base) == [p1, p2]
    seen = []
    for tech in (2, 6):
        st = copy.deepcopy(base)
        st, events = GAME.apply(st, p1, {"type": "tech", "tech": tech})
        seen.append(_seen(st, events, p2))
        assert GAME.current_players(st) == [p2]  # P1 is done either way
    assert seen[0] == seen[1]


def test_iec_tech_2_super_computer_reveals_itself_when_it_lowers_a_cost() -> None:
    """IEC-S-23 (corrections 1.1): a technology acts only revealed; Super Computer lowering
    the public cost of a technology (`tech_chosen` carries the cost) reveals it first."""
    st, p1, _p2 = _science("1")
    pl = st["players"][p1]
    pl["techs"], pl["revealed"] = [2], []
    events = GAME.apply(st, p1, {"type": "tech", "tech": 6})[1]
    kinds = [e["type"] for e in events]
    assert "tech_revealed" in kinds and 2 in pl["revealed"]
    assert kinds.index("tech_revealed") < kinds.index("tech_chosen")
    chosen = next(e for e in events if e["type"] == "tech_chosen")
    assert chosen["cost"] == int(param(st, "T"))  # T + max(0, 1 - 2) Q


def test_iec_tech_9_missile_salvo_does_not_show_in_the_buttons_before_use() -> None:
    """Phase 9 (in turn, either version): the buttons, posted in the group, offered a third
    missile only to a secret Missile Salvo owner (IEC-TECH-9); it shows once revealed."""
    seen = []
    for techs in ([9], [7]):
        st, (p1, p2) = empty()
        add(st, p1, "reactor", "B7")
        add(st, p2, "reactor", "W10")
        add(st, p1, "launcher", "I5")
        add(st, p1, "storage", "I7", goods={"AC": 3})
        add(st, p2, "storage", "R3")
        st["players"][p1]["techs"] = techs
        st["phase"], st["phase_open"], st["actor"], st["done"] = 9, True, None, []
        st.pop("actors", None)
        st.pop("pending", None)
        rules.advance(st, [])
        assert GAME.current_players(st) == [p1]
        seen.append(_seen(st, [], p2))
        assert ("Fire R3 x3", "/fire I5 R3 3") not in GAME.buttons(st, p1, T)
    assert seen[0] == seen[1]
    st["players"][p1]["techs"] = [9]
    st["players"][p1]["revealed"] = [9]
    assert ("Fire R3 x3", "/fire I5 R3 3") in GAME.buttons(st, p1, T)


def _laying() -> tuple[State, str, str]:
    """Phase 5, version 2: P1 and P2 each with a powered developer and a storage with AC, so
    both may lay tokens; nobody has reached the real-mine limit (Total Mine War not needed)."""
    st, (p1, p2) = empty(rules_version="2")
    add(st, p1, "reactor", "B7")
    add(st, p2, "reactor", "W10")
    add(st, p1, "developer", "E5")
    add(st, p1, "storage", "E3", goods={"AC": 3})
    add(st, p2, "developer", "T12")
    add(st, p2, "storage", "T14", goods={"AC": 3})
    return _open(st, 5), p1, p2


def test_iec_tech_18_the_last_declaration_ends_the_part_at_the_same_moment() -> None:
    """Issue 20, item "done at once": a declaration that leaves nothing to do ends the
    company's part (`declaration_done`) at once; whether it does must not hang on a secret.
    P1 holds Total Mine War, secret (auto), or not: one lay ends his part the same way,
    and so does the lay of 2 real mines only the secret allows (counted, as the table can
    judge it, as his one placement of the turn, IEC-19), until the resolution reveals it."""
    base, p1, p2 = _laying()
    assert GAME.current_players(base) == [p1, p2]
    cells = choices.lay_cells(base, p1)
    assert len(cells) >= 3
    one = {"type": "lay", "real": [cells[0]], "fake": [cells[1]]}
    two = {"type": "lay", "real": [cells[0], cells[1]], "fake": []}
    seen = []
    # As many technologies each time (the count is public): Missile Salvo is idle here.
    for techs, action in (([9], one), ([18], one), ([18], two)):
        st = copy.deepcopy(base)
        st["players"][p1]["techs"] = list(techs)
        st, events = GAME.apply(st, p1, action)
        kinds = [e["type"] for e in events]
        assert "declaration_done" in kinds and "tech_revealed" not in kinds, kinds
        assert GAME.current_players(st) == [p2]
        seen.append(_seen(st, events, p2, pictures=True))
    assert seen[0] == seen[1] == seen[2]
    with pytest.raises(IllegalAction):  # without the secret, 2 real mines are refused (to P1)
        GAME.apply(copy.deepcopy(base), p1, two)
    done = copy.deepcopy(base)
    done["players"][p1]["techs"] = [18]
    done = GAME.apply(GAME.apply(done, p1, two)[0], p2, {"type": "done"})[0]
    assert 18 in done["players"][p1]["revealed"]  # the resolution reveals it (allowed)
