"""Sentences and lists joined as their language sets them.

English, Russian and Polish put a space between two sentences; Chinese puts none after its
full-width marks ("……（步驟 3）。p1：購買燃料"), where a space reads as a gap in the line. The
rule is typographic, not a language switch: a sentence that ends in a full-width mark is
followed directly, any other by one space, so English, Russian and Polish text joins exactly
as `" ".join` did.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core.errors import N_, Worded

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


# TRANSLATORS: who must act and what ("cyd: choose a plant to auction"), a list of players
# before the colon: the chat's prompt ("@ann, @bo: ...") and the board pictures' panel.
WHO_DOES = N_("{players}: {what}")

# TRANSLATORS: the separator between the items of a list (players, cells, plants, rule ids):
# "ann, bo, cyd". Chinese enumerates with the enumeration comma: "ann、bo、cyd".
LIST_SEPARATOR = N_(", ")


def join_list(t: Any, items: Iterable[str]) -> str:
    """The items as one list in the words of translator `t` ("ann, bo" in English, Russian
    and Polish; "ann、bo" in Chinese, where an ASCII comma reads as a foreign mark)."""
    return str(t.gettext(LIST_SEPARATOR)).join(items)


class Listed(Worded):
    """A list in a refusal's parameters (the players the table waits for), joined in its
    reader's words when the message is filled: the rules raise without a translator. Never
    in a state or an event: those stay plain JSON (join there with `join_list` and the
    translator of the text that words the event)."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[object]) -> None:
        self.items = tuple(str(item) for item in items)

    def words(self, t: Any) -> str:
        return join_list(t, self.items)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Listed) and other.items == self.items

    def __hash__(self) -> int:
        return hash(self.items)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Listed, (self.items,))
