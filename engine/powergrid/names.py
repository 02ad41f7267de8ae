"""Matching what a chat player types against a list of names (cities, regions, ...).

Generic: nothing here knows a map. A name matches a query when, ignoring case, accents and
punctuation, the query is

1. the whole name ("frankfurt main" = "Frankfurt (Main)"), or
2. a prefix of it, with or without spaces ("dussel" -> "Düsseldorf", "frankfurt-m" and
   "frankfurtm" -> "Frankfurt (Main)", "salt l c" -> "Salt Lake City"), or
3. the start of a later word of it ("oder" -> "Frankfurt (Oder)"), tried only when 1 and 2
   find nothing.

German umlauts match both as the plain vowel and with an "e" ("dusseldorf", "duesseldorf"),
and "ß" as "ss". The best tier that finds something decides; several names in that tier
make the query ambiguous.

Multi-word names arrive split into chat words; `split_names` reads a list of words as a
sequence of names, taking at each position the longest run of words that names something.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})
_NON_WORD = re.compile(r"[\W_]+")


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def words(text: str) -> list[str]:
    """Lower-case words of `text`: accents dropped, punctuation as spaces."""
    plain = _strip_accents(text.replace("ß", "ss").replace("ẞ", "ss")).casefold()
    return [w for w in _NON_WORD.split(plain) if w]


def _variants(name: str) -> list[list[str]]:
    """The word lists a name may be typed as (plain vowels; umlauts spelt with an "e")."""
    out = [words(name)]
    expanded = words(name.translate(_UMLAUTS))
    if expanded != out[0]:
        out.append(expanded)
    return out


@dataclass(frozen=True)
class Match:
    """The names a query found, in their tier (1 exact, 2 prefix, 3 later word; 0 nothing)."""

    names: tuple[str, ...]
    tier: int

    @property
    def unique(self) -> str | None:
        return self.names[0] if len(self.names) == 1 else None


def _tier(query: list[str], name_words: list[str]) -> int:
    if not query or not name_words:
        return 0
    q_compact = "".join(query)
    n_compact = "".join(name_words)
    if q_compact == n_compact:
        return 1
    if n_compact.startswith(q_compact):
        return 2
    if len(query) <= len(name_words) and all(
        n.startswith(q) for q, n in zip(query, name_words[: len(query)])
    ):
        return 2
    for start in range(1, len(name_words)):
        rest = name_words[start:]
        if len(query) <= len(rest) and all(n.startswith(q) for q, n in zip(query, rest)):
            return 3
    return 0


def match(query: str, names: Iterable[str]) -> Match:
    """All names the query may mean, best tier only (see the module docstring)."""
    q = words(query)
    found: dict[int, list[str]] = {}
    for name in names:
        best = 0
        for variant in _variants(name):
            tier = _tier(q, variant)
            if tier and (best == 0 or tier < best):
                best = tier
        if best:
            found.setdefault(best, []).append(name)
    if not found:
        return Match((), 0)
    tier = min(found)
    return Match(tuple(sorted(set(found[tier]))), tier)


def prefixed(prefix: str, names: Iterable[str], limit: int = 25) -> list[str]:
    """Autocomplete: names the prefix may mean (any tier), best tier first, then by name."""
    q = words(prefix)
    scored: list[tuple[int, str]] = []
    for name in names:
        if not q:
            scored.append((0, name))
            continue
        tiers = [t for v in _variants(name) if (t := _tier(q, v))]
        if tiers:
            scored.append((min(tiers), name))
    scored.sort(key=lambda item: (item[0], words(item[1]), item[1]))
    return [name for _, name in scored[:limit]]


@dataclass(frozen=True)
class Split:
    """One name read from a run of chat words: `words` is the text, `match` what it means."""

    text: str
    match: Match


def split_names(chat_words: Sequence[str], names: Sequence[str]) -> list[Split]:
    """Read chat words as a sequence of names, greedily taking the longest run that matches.

    A run of several words counts only when it starts a name (tiers 1-2); a run that
    matches nothing becomes a Split with an empty match of that single word, so
    the caller can name it in an error. Ambiguous runs are returned as they are.
    """
    out: list[Split] = []
    i = 0
    while i < len(chat_words):
        taken: Split | None = None
        for j in range(len(chat_words), i, -1):
            text = " ".join(chat_words[i:j])
            found = match(text, names)
            # A run of several words must start a name: "berlin oder" is two names.
            if found.names and (j == i + 1 or found.tier <= 2):
                taken = Split(text, found)
                i = j
                break
        if taken is None:
            taken = Split(chat_words[i], Match((), 0))
            i += 1
        out.append(taken)
    return out
