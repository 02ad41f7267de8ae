"""IEC's /rules says how the game plays its phases (IEC-S-10.4): the how-to-play and the rule
name the phases declared by everybody at once from the game's own lists (SIMULTANEOUS_PHASES,
PHASE_NAMES), in every language. A Russian player read 'Ход состоит из 14 фаз, в каждой игроки
действуют по очереди', where the default rules version declares five of them at once."""

from __future__ import annotations

import pytest

from bot import rulebook
from bot.i18n import LANGUAGES, translator
from engine.iec.model import SIMULTANEOUS_PHASES
from engine.iec.options import OPTIONS
from engine.iec.rules import INTERACTIVE, PHASE_NAMES
from tests.engine.iec.helpers import new


def _howto(start: str) -> str:
    """The how-to-play paragraph (its msgid) that begins with `start`."""
    return next(p for p in rulebook.load("iec").howto if p.startswith(start))


def test_iec_s10_4_the_summary_describes_the_default_rules_version() -> None:
    """The summary tells the default version's phases at once; the other version by name."""
    default = next(o.default for o in OPTIONS if o.key == "rules_version")
    assert default == "2" and new(rules_version=default)["rules_version"] == 2
    assert "rules_version=1" in _howto("Played one company after another")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_iec_s10_4_the_summary_names_the_phases_declared_at_once(lang: str) -> None:
    t = translator(lang)
    at_once = t.gettext(_howto("Decided by everybody at once"))
    in_turn = t.gettext(_howto("Played one company after another"))
    rule = rulebook.find_rule("iec", "IEC-S-10.4")
    assert rule is not None
    rule_text = t.gettext(rule.text)
    name = {p: t.gettext(PHASE_NAMES[p]) for p in INTERACTIVE}
    for p in SIMULTANEOUS_PHASES:
        assert name[p] in at_once and name[p] in rule_text, name[p]
        assert name[p] not in in_turn, name[p]
    for p in set(INTERACTIVE) - set(SIMULTANEOUS_PHASES):
        assert name[p] in in_turn and name[p] not in at_once, name[p]
    assert "rules_version=1" in in_turn and "rules_version=1" in rule_text
    # the turn's paragraph lists every phase by the name the pictures and /status give it
    howto = rulebook.howto("iec", t)
    assert all(t.gettext(PHASE_NAMES[p]) in howto for p in range(1, 15))
    assert "в каждой игроки действуют по очереди" not in howto


def test_iec_tech19_minesweepers_is_a_cell_named_in_advance() -> None:
    """Corrections 1.1: a secret technology's choice is given privately beforehand (phase 4
    runs on standing choices only), not asked in the demining phase."""
    rule = rulebook.find_rule("iec", "IEC-TECH-19")
    assert rule is not None and "/sweep" in rule.text and "in advance" in rule.text
