"""Sentences joined as their language sets them.

English, Russian and Polish put a space between two sentences; Chinese puts none after its
full-width marks ("……（步驟 3）。p1：購買燃料"), where a space reads as a gap in the line. The
rule is typographic, not a language switch: a sentence that ends in a full-width mark is
followed directly, any other by one space, so English, Russian and Polish text joins exactly
as `" ".join` did.
"""

from __future__ import annotations

# Marks after which Chinese sets no space: the full stop and its kin, and closing brackets.
FULL_WIDTH_ENDS = frozenset("。！？；：，、）」』】")


def sentence_gap(text: str) -> str:
    """What goes between `text` and a sentence added to it: nothing after a full-width mark,
    else one space (`text += sentence_gap(text) + more`)."""
    return "" if text and text[-1] in FULL_WIDTH_ENDS else " "


def join_sentences(*parts: str) -> str:
    """The non-empty parts as one text: "A. B." in English, "甲。乙。" in Chinese."""
    text = ""
    for part in parts:
        if not part:
            continue
        text = part if not text else text + sentence_gap(text) + part
    return text
