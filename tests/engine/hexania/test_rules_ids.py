"""Every rule id of the Hexania digest answers /rules <id>, the options' ids (HEX-OPT-x) too
(the rulebook held 19 of the digest's 67 numbered ids; found playing, 2026-12-03, with IEC)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot import rulebook
from engine.core import EnglishTranslator

DIGEST = Path("/work/shared/rules/hexania.md")
RULE_ID = re.compile(r"HEX-[A-Z]*-?\d+(?:\.\d+)?")
OPTION_ID = re.compile(r"HEX-OPT-[A-Z]+")
T = EnglishTranslator()


@pytest.mark.skipif(not DIGEST.exists(), reason="the rules digest is not here")
def test_every_id_of_the_digest_resolves_in_the_rulebook() -> None:
    text = DIGEST.read_text(encoding="utf-8")
    ids = sorted(set(RULE_ID.findall(text)) | set(OPTION_ID.findall(text)))
    assert len(ids) >= 70 and {"HEX-2.3", "HEX-G-3", "HEX-OPT-LIMIT"} <= set(ids)
    missing = [rid for rid in ids if rulebook.find_rule("hexania", rid) is None]
    assert not missing, missing
    for rid in ids:
        assert rulebook.answer("hexania", rid, T).startswith(f"{rid} · "), rid


def test_the_withdrawn_decision_says_so() -> None:
    """Corrections 1.1: HEX-2.3 / HEX-D-6 (stopping early) is withdrawn."""
    assert "Withdrawn" in rulebook.answer("hexania", "HEX-D-6", T)
    assert "/end is refused while one is" in rulebook.answer("hexania", "HEX-2.3", T)
