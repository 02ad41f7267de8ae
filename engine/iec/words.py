"""What a player may type for a building type or a technology, in any of the chat's languages.

The English names, the names the prompts print in each language (data/aliases/words.json,
kept equal to the catalogs by tests/engine/iec/test_words.py) and a few common synonyms. Case
and accents are ignored ("miedzysieciowa" is "międzysieciowa"). A player reads a name in his
own language in a prompt or in `/techs` and types it back; a Polish player at a Russian table
may type his own word too. Autocomplete offers the word in the script being typed.
"""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from engine.iec.scenario import KINDS
from engine.iec.techs import TECHS

WORDS = Path(__file__).parent / "data" / "aliases" / "words.json"
V = TypeVar("V")
# Letters with no decomposition into a plain letter and an accent (Polish ł).
_PLAIN = str.maketrans({"ł": "l", "Ł": "L"})


def fold(text: str) -> str:
    """Lower case, accents dropped (ł as l), runs of spaces as one: how words compare."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_PLAIN))
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(plain.casefold().split())


@lru_cache(maxsize=1)
def _data() -> dict[str, dict[str, dict[str, list[str]]]]:
    loaded: dict[str, dict[str, dict[str, list[str]]]] = json.loads(
        WORDS.read_text(encoding="utf-8")
    )
    return loaded


@lru_cache(maxsize=1)
def kind_names() -> tuple[tuple[str, str], ...]:
    """(name as written, building type) for every language's names, English first."""
    out = [(kind, kind) for kind in KINDS]
    for kind, langs in _data()["kinds"].items():
        out += [(name, kind) for names in langs.values() for name in names]
    return tuple(out)


@lru_cache(maxsize=1)
def tech_names() -> tuple[tuple[str, int], ...]:
    """(name as written, technology number) for every language's names, English first."""
    out = [(name, n) for n, name in TECHS.items()]
    for n, langs in _data()["techs"].items():
        out += [(name, int(n)) for names in langs.values() for name in names]
    return tuple(out)


def named(word: str, names: tuple[tuple[str, V], ...]) -> V | None:
    """What `word` names: a whole name, else a prefix that only one thing's names begin with;
    None when it names nothing or several things."""
    key = fold(word)
    if not key:
        return None
    whole = {value for name, value in names if fold(name) == key}
    if len(whole) == 1:
        return whole.pop()
    begun = {value for name, value in names if fold(name).startswith(key)}
    return begun.pop() if len(begun) == 1 else None


def begun_by(prefix: str, names: tuple[tuple[str, V], ...], limit: int) -> list[tuple[str, V]]:
    """For each thing some name of which `prefix` begins, its first such name (as written;
    English first): one answer per thing, in the order of `names`. A name of several words
    is offered whole («пусковая установка»): the commands read it whole."""
    key = fold(prefix)
    out: list[tuple[str, V]] = []
    seen: list[V] = []
    for name, value in names:
        if value in seen:
            continue
        if fold(name).startswith(key):
            out.append((name, value))
            seen.append(value)
    return out[:limit]
