"""City names people know: Russian, Polish and Chinese spellings of each map's cities (issue 18).

The data is a file per map, `data/aliases/<map>.json` (not code): for every city of the map
its names in ru, pl and zh_Hant, and the ASCII forms people type ("Muenchen", "Munich").
Loaded once like the other game data (engine/powergrid/data.py); pure, no I/O after the
first call per map.

Aliases are compared by `alias_key`: case, accents, spaces and punctuation ignored, so
"Мюнхен", "мюнхен", "Nowy Jork", "nowyjork" and "Frankfurt (Oder)" / "frankfurt oder" all
find their city. Only exact alias keys are looked up here; prefixes (of canonical names and
of these spellings, "Monach" -> München) stay the job of engine/powergrid/names.py.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Collection
from functools import cache
from pathlib import Path
from typing import Any

from engine.powergrid.data import MAPS

_DIR = Path(__file__).with_name("data") / "aliases"
LANGUAGES = ("ru", "pl", "zh_Hant")
KINDS = (*LANGUAGES, "ascii")


def _load(map_id: str) -> Any:
    with (_DIR / f"{map_id}.json").open(encoding="utf-8") as fh:
        return json.load(fh)


def alias_key(text: str) -> str:
    """The form aliases are compared in: case-folded, accents dropped ("ё" = "е",
    "ü" = "u"), "ß" as "ss", everything but letters and digits removed."""
    plain = unicodedata.normalize("NFKD", text.replace("ß", "ss").replace("ẞ", "ss")).casefold()
    return "".join(ch for ch in plain if ch.isalnum() and not unicodedata.combining(ch))


@cache
def spellings(map_id: str) -> dict[str, dict[str, tuple[str, ...]]]:
    """city -> {"ru": (...), "pl": (...), "zh_Hant": (...), "ascii": (...)} as written in
    the data file of `map_id` ("germany", "usa")."""
    raw = _load(map_id)
    return {
        city: {kind: tuple(names.get(kind, ())) for kind in KINDS}
        for city, names in raw["cities"].items()
    }


@cache
def aliases(map_id: str) -> dict[str, str]:
    """alias key (see `alias_key`) -> canonical city name of `map_id`. Every city also
    answers to its own canonical name. An alias naming two cities is an error in the data
    file (tests/engine/powergrid/test_aliases.py checks there is none)."""
    table: dict[str, str] = {}
    for city, names in spellings(map_id).items():
        for name in (city, *(n for kind in KINDS for n in names[kind])):
            key = alias_key(name)
            if key and table.setdefault(key, city) != city:
                raise ValueError(f"{map_id}: alias {name!r} names {table[key]} and {city}")
    return table


@cache
def region_names(map_id: str) -> dict[str, tuple[str, ...]]:
    """region id -> its names in the chat languages, as the prompts print them ("Wschód",
    "東部", "Фиолетовый"), from the data file's "regions" (kept equal to the catalogs by
    tests/engine/powergrid/test_aliases.py); none for a map without alias data."""
    raw = _load(map_id).get("regions", {}) if map_id in MAPS else {}
    return {
        rid: tuple(n for lang in LANGUAGES for n in names.get(lang, ()))
        for rid, names in raw.items()
    }


@cache
def _all_maps() -> dict[str, str]:
    out: dict[str, str] = {}
    for map_id in MAPS:
        out.update(aliases(map_id))
    return out


def alias_keys(names: Collection[str]) -> dict[str, str]:
    """alias key -> city, for every spelling of the cities in `names` (any map): what a
    reader of several chat words needs to know which runs of words may still name a city."""
    return {key: city for key, city in _all_maps().items() if city in names}


def canonical_city(query: str, names: Collection[str]) -> str | None:
    """The name in `names` that `query` spells in another language or in ASCII
    ("Мюнхен" -> "München", "Nowy Jork" -> "New York", "紐約" -> "New York"), or None.

    `names` is whatever collection the caller matches against (the cities in play, or
    regions); only a name in it is returned, so an alias never picks a city outside it.
    One dict look-up and one membership test: no scan of the aliases."""
    city = _all_maps().get(alias_key(query))
    return city if city is not None and city in names else None


@cache
def _keyed(map_id: str | None) -> tuple[tuple[str, str], ...]:
    """(alias key, city) for every spelling of every city of `map_id` (None: every map), in
    the data file's order: what autocomplete scans for a prefix (none for a map without
    alias data)."""
    maps = MAPS if map_id is None else tuple(m for m in MAPS if m == map_id)
    return tuple(
        (key, city)
        for one in maps
        for city, names in spellings(one).items()
        for name in (n for kind in KINDS for n in names[kind])
        if (key := alias_key(name))
    )


def alias_prefixed(prefix: str, names: Collection[str], map_id: str | None = None) -> list[str]:
    """The cities in `names` that one of their spellings in another language begins with
    `prefix` ("Гамб" -> Hamburg, "漢" -> Hamburg, "Mona" -> München; case, accents, spaces
    and punctuation ignored as `alias_key` does), in the data file's order: autocomplete in
    the reader's script, offering the canonical name the parser reads. `map_id` narrows the
    scan to one map (None: every map). Nothing for an empty prefix."""
    typed = alias_key(prefix)
    if not typed:
        return []
    found = dict.fromkeys(city for key, city in _keyed(map_id) if key.startswith(typed))
    return [city for city in found if city in names]
