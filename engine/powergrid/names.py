"""Matching what a chat player types against a list of names (cities, regions, ...).

Generic: nothing here knows a map. A name matches a query when, ignoring case, accents and
punctuation, the query is

1. the whole name ("frankfurt main" = "Frankfurt (Main)"), or
2. a prefix of it, with or without spaces ("dussel" -> "Düsseldorf", "frankfurt-m" and
   "frankfurtm" -> "Frankfurt (Main)", "salt l c" -> "Salt Lake City"), or
3. the start of a later word of it ("oder" -> "Frankfurt (Oder)"), tried only when 1 and 2
   find nothing.

Before the tiers, one dict look-up: the query as a Russian, Polish or Chinese spelling (or
an ASCII form) of a city in the list ("Мюнхен" -> "München", engine/powergrid/aliases.py)
is that city, an exact match. The start of such a spelling ("Monach", "Мюнх", "慕尼") is a
prefix of its city, tier 2 like the name's own prefixes: what autocomplete offers for it
(engine/powergrid/arg_kinds.py `complete_cities`) is what /build reads from it.

German umlauts match both as the plain vowel and with an "e" ("dusseldorf", "duesseldorf"),
and "ß" as "ss". The best tier that finds something decides; several names in that tier
make the query ambiguous.

Multi-word names arrive split into chat words; `split_names` reads a list of words as a
sequence of names, taking at each position the longest run of words that names something —
a name or another language's spelling of one ("Frankfurt nad Odrą", "Нью Йорк", "Frankfurt
am Main"). A run of several words must spell at most as many letters as the longest name or
alias, and every word of it must have a letter, so the work grows linearly with the number of
words typed (a flood of "/cost Kiel Kiel ..." or "/build Kiel - - - ..." stays cheap).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.powergrid.aliases import alias_key, alias_keys, canonical_city

_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})
_NON_WORD = re.compile(r"[\W_]+")


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def words(text: str) -> list[str]:
    """Lower-case words of `text`: accents dropped, punctuation as spaces."""
    plain = _strip_accents(text.replace("ß", "ss").replace("ẞ", "ss")).casefold()
    return [w for w in _NON_WORD.split(plain) if w]


@lru_cache(maxsize=8192)
def _variants(name: str) -> tuple[list[str], ...]:
    """The word lists a name may be typed as (plain vowels; umlauts spelt with an "e")."""
    out = [words(name)]
    expanded = words(name.translate(_UMLAUTS))
    if expanded != out[0]:
        out.append(expanded)
    return tuple(out)


@dataclass(frozen=True)
class Match:
    """The names a query found, in their tier (1 exact, 2 prefix, 3 later word; 0 nothing)."""

    names: tuple[str, ...]
    tier: int

    @property
    def unique(self) -> str | None:
        return self.names[0] if len(self.names) == 1 else None


def _tier(query: list[str], name_words: list[str], n_compact: str | None = None) -> int:
    if not query or not name_words:
        return 0
    q_compact = "".join(query)
    if n_compact is None:
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


class _Index:
    """The spellings of a list of names, computed once for many queries."""

    def __init__(self, names: Iterable[str]) -> None:
        self.entries = [
            (name, [(v, "".join(v)) for v in _variants(name)]) for name in dict.fromkeys(names)
        ]
        self.names = frozenset(name for name, _ in self.entries)
        # The compact forms a run of words may spell: the names' and their aliases'.
        spelt = [compact for _, vs in self.entries for _, compact in vs]
        self.spellings = alias_keys(self.names)  # alias key -> city
        spelt += list(self.spellings)
        self.longest = max((len(compact) for compact in spelt), default=0)
        self.prefixes = {compact[:k] for compact in spelt for k in range(1, 1 + len(compact))}

    def match(self, q: list[str]) -> Match:
        # Another language's spelling of a name in the list: one look-up, no scan.
        alias = canonical_city("".join(q), self.names) if q else None
        if alias is not None:
            return Match((alias,), 1)
        found: dict[int, list[str]] = {}
        for name, variants in self.entries:
            best = 0
            for variant, compact in variants:
                tier = _tier(q, variant, compact)
                if tier and (best == 0 or tier < best):
                    best = tier
            if best:
                found.setdefault(best, []).append(name)
        spelt = self.spelt_from(q)
        if spelt and 1 not in found:
            found[2] = [*found.get(2, []), *spelt]
        if not found:
            return Match((), 0)
        tier = min(found)
        return Match(tuple(sorted(set(found[tier]))), tier)

    def spelt_from(self, q: list[str]) -> set[str]:
        """The names one of whose spellings in another language begins with the words `q`
        ("monach" -> München, Monachium): a Polish, Russian or Chinese reader's prefix."""
        typed = alias_key("".join(q))
        if not typed:
            return set()
        return {city for key, city in self.spellings.items() if key.startswith(typed)}

    def may_start(self, q: list[str]) -> bool:
        """Whether several words `q` may be the whole or the start of a name (tiers 1-2). If
        not, no longer run starting with them may be either (both tests only get stricter)."""
        if "".join(q) in self.prefixes:
            return True
        return any(
            len(q) <= len(v) and all(n.startswith(w) for w, n in zip(q, v))
            for _, variants in self.entries
            for v, _ in variants
        )


@lru_cache(maxsize=64)
def _index(names: tuple[str, ...]) -> _Index:
    """The index of a list of names, built once per list (a map's cities, a game's regions)."""
    return _Index(names)


def match(query: str, names: Iterable[str]) -> Match:
    """All names the query may mean, best tier only (see the module docstring)."""
    return _index(tuple(names)).match(words(query))


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
    Linear in the number of words: at each position only the runs that may still start a
    name are looked at (at most as many words as the longest name has letters), and a run
    read once is not read again.
    """
    index = _index(tuple(names))
    typed = [words(w) for w in chat_words]
    seen: dict[str, Match] = {}

    def read(i: int, j: int) -> Match:
        text = " ".join(chat_words[i:j])
        found = seen.get(text)
        if found is None:
            found = seen[text] = index.match([w for ws in typed[i:j] for w in ws])
        return found

    out: list[Split] = []
    i = 0
    while i < len(chat_words):
        # The runs of two or more words that may still start a name, shortest first.
        end = i + 1
        run = list(typed[i])
        while end < len(chat_words) and len("".join(run)) <= index.longest:
            if not run or not typed[end]:  # a word without a letter ends a run
                break
            run += typed[end]
            if not index.may_start(run):
                break
            end += 1
        taken: Split | None = None
        for j in range(end, i, -1):
            found = read(i, j)
            # A run of several words must start a name: "berlin oder" is two names.
            if found.names and (j == i + 1 or found.tier <= 2):
                taken = Split(" ".join(chat_words[i:j]), found)
                i = j
                break
        if taken is None:
            taken = Split(chat_words[i], Match((), 0))
            i += 1
        out.append(taken)
    return out
