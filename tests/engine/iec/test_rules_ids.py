"""Every rule id of the IEC digest answers /rules <id> (found playing, 2026-12-03: "/rules
IEC-S-26" answered "nothing about IEC-S-26": the rulebook, engine/iec/data/rulebook.toml,
held 52 of the digest's 146 ids)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot import rulebook
from engine.core import EnglishTranslator

DIGEST = Path("/work/shared/rules/iec.md")
RULE_ID = re.compile(r"IEC-[A-Z]*-?\d+(?:\.\d+)?")
T = EnglishTranslator()


def digest_ids() -> list[str]:
    return sorted(set(RULE_ID.findall(DIGEST.read_text(encoding="utf-8"))))


@pytest.mark.skipif(not DIGEST.exists(), reason="the rules digest is not here")
def test_every_id_of_the_digest_resolves_in_the_rulebook() -> None:
    ids = digest_ids()
    assert len(ids) >= 140 and "IEC-S-26" in ids
    missing = [rid for rid in ids if rulebook.find_rule("iec", rid) is None]
    assert not missing, missing
    for rid in ids:
        assert rulebook.answer("iec", rid, T).startswith(f"{rid} · "), rid


def test_iec_s26_secrecy_is_explained() -> None:
    text = rulebook.answer("iec", "IEC-S-26", T)
    assert text.startswith("IEC-S-26 · Public and secret information\n")
    assert "Secret" in text and "face-down token" in text
    assert rulebook.answer("iec", "iec-s-26", T) == text  # found loosely, like the others


def test_the_rulebook_keeps_the_corrections() -> None:
    """Corrections 1.1: a launcher fires 2 missiles from its first module (IEC-S-19.2);
    survivors rank above every eliminated company (IEC-S-24)."""
    assert "damaged or not" in rulebook.answer("iec", "IEC-S-19.2", T)
    assert "fires 1" not in rulebook.answer("iec", "IEC-S-19.2", T)
    assert "ranks above every eliminated" in rulebook.answer("iec", "IEC-S-24", T)
