"""City aliases per map (issue 18): data/aliases/<map>.json read by engine/powergrid/aliases.py."""

from __future__ import annotations

import re
import unicodedata

import pytest

from engine.powergrid.aliases import (
    KINDS,
    LANGUAGES,
    alias_key,
    aliases,
    canonical_city,
    region_names,
    spellings,
)
from engine.powergrid.data import MAPS, game_map
from engine.powergrid.names import match
from tests.bot.test_translation_quality import SIMPLIFIED_ONLY

_CYRILLIC = re.compile(r"^[\u0400-\u04ff][\u0400-\u04ff \-]*$")
_CJK = re.compile(r"^[\u3400-\u9fff]+$")


@pytest.mark.parametrize("map_id", MAPS)
def test_every_city_of_the_map_has_a_russian_polish_and_chinese_name(map_id: str) -> None:
    table = spellings(map_id)
    assert set(table) == set(game_map(map_id).cities)
    for city, names in table.items():
        for lang in LANGUAGES:
            assert names[lang], f"{map_id}: {city} has no {lang} name"
            assert all(n.strip() == n and n for n in names[lang]), (city, lang)


@pytest.mark.parametrize("map_id", MAPS)
def test_alias_scripts_fit_their_language(map_id: str) -> None:
    for city, names in spellings(map_id).items():
        assert all(_CYRILLIC.match(n) for n in names["ru"]), (city, names["ru"])
        assert all(_CJK.match(n) for n in names["zh_Hant"]), (city, names["zh_Hant"])
        simplified = {ch for n in names["zh_Hant"] for ch in n if ch in SIMPLIFIED_ONLY}
        assert not simplified, (city, simplified)
        assert all(n.isascii() for n in names["ascii"]), (city, names["ascii"])
        # Polish names are Latin script (Polish letters allowed), no Cyrillic or CJK.
        for name in names["pl"]:
            assert all(
                not ch.isalpha() or unicodedata.name(ch).startswith("LATIN") for ch in name
            ), (city, name)


@pytest.mark.parametrize("map_id", MAPS)
def test_no_alias_names_two_cities(map_id: str) -> None:
    owners: dict[str, set[str]] = {}
    for city, names in spellings(map_id).items():
        for name in (city, *(n for kind in KINDS for n in names[kind])):
            owners.setdefault(alias_key(name), set()).add(city)
    clashes = {key: cities for key, cities in owners.items() if len(cities) > 1}
    assert not clashes
    table = aliases(map_id)  # raises on a clash as well
    assert set(table) == set(owners)
    assert all(table[key] in owners[key] for key in table)


def test_no_alias_names_cities_of_two_maps() -> None:
    seen: dict[str, str] = {}
    for map_id in MAPS:
        for key, city in aliases(map_id).items():
            assert seen.setdefault(key, city) == city, (key, seen[key], city)


@pytest.mark.parametrize("map_id", MAPS)
def test_an_alias_does_not_shadow_typing_another_city(map_id: str) -> None:
    """An alias is not the start of another city's name: typing "la" must still reach Las
    Vegas by prefix, and no alias may swallow such a prefix."""
    cities = game_map(map_id).cities
    for key, city in aliases(map_id).items():
        for other in cities:
            if other != city:
                assert not alias_key(other).startswith(key), (key, city, other)


@pytest.mark.parametrize(
    ("typed", "city"),
    [
        ("Мюнхен", "München"),
        ("мюнхен", "München"),
        ("Monachium", "München"),
        ("慕尼黑", "München"),
        ("Muenchen", "München"),
        ("Munchen", "München"),
        ("Кёльн", "Köln"),
        ("Кельн", "Köln"),
        ("Kolonia", "Köln"),
        ("科隆", "Köln"),
        ("Koeln", "Köln"),
        ("Франкфурт-на-Одере", "Frankfurt-Oder"),
        ("Frankfurt nad Menem", "Frankfurt-Main"),
        ("Akwizgran", "Aachen"),
        ("Нюрнберг", "Nürnberg"),
    ],
)
def test_germany_aliases_find_the_city(typed: str, city: str) -> None:
    assert canonical_city(typed, game_map("germany").cities) == city


@pytest.mark.parametrize(
    ("typed", "city"),
    [
        ("Нью-Йорк", "New York"),
        ("нью йорк", "New York"),
        ("Nowy Jork", "New York"),
        ("紐約", "New York"),
        ("Новый Орлеан", "New Orleans"),
        ("紐奧良", "New Orleans"),
        ("Сент-Луис", "St. Louis"),
        ("Saint Louis", "St. Louis"),
        ("Waszyngton", "Washington"),
        ("舊金山", "San Francisco"),
    ],
)
def test_usa_aliases_find_the_city(typed: str, city: str) -> None:
    assert canonical_city(typed, game_map("usa").cities) == city


def test_an_alias_only_answers_with_a_name_of_the_given_list() -> None:
    germany = game_map("germany").cities
    assert canonical_city("Нью-Йорк", germany) is None  # a USA city, not in the list
    assert canonical_city("Мюнхен", ["Berlin", "Hamburg"]) is None
    assert canonical_city("Москва", germany) is None
    assert canonical_city("", germany) is None


def test_alias_key_ignores_case_accents_and_punctuation() -> None:
    assert alias_key("Frankfurt (Oder)") == alias_key("frankfurt-oder") == "frankfurtoder"
    assert alias_key("Кёльн") == alias_key("КЕЛЬН")
    assert alias_key("Nowy  Jork") == "nowyjork"
    assert alias_key("紐約") == "紐約"


@pytest.mark.parametrize("map_id", MAPS)
def test_every_alias_leads_to_a_name_the_matcher_finds_alone(map_id: str) -> None:
    """How engine/powergrid/names.py is to use the table: look the query up first
    (canonical_city), then match the canonical name; it must name exactly that city."""
    cities = game_map(map_id).cities
    for city, names in spellings(map_id).items():
        for alias in (n for kind in KINDS for n in names[kind]):
            found = canonical_city(alias, cities)
            assert found == city, (alias, found)
            assert match(found, cities).unique == city


@pytest.mark.parametrize("map_id", MAPS)
def test_region_names_are_the_catalogs_and_read_back_as_their_region(map_id: str) -> None:
    """The prompts print a region as "E (Wschód)" in the reader's words (chat_view.
    region_label); /region read only the id and the English name (found playing,
    2026-12-02). The data file holds each catalog's name, and each reads back."""
    from bot.i18n import tr
    from engine.powergrid.chat_view import regions_of
    from engine.powergrid.reading import region_of

    spelt = region_names(map_id)
    view = {"map": map_id, "regions_in_play": [], "phase": "regions"}
    regions = regions_of(view)
    for region in regions:
        for lang in LANGUAGES:
            name = tr(lang, region["name"])
            assert name in spelt[region["id"]], (map_id, lang, name)
            assert region_of(view, name.split()) == region["id"], (lang, name)
            first = re.split(r"\s*[（(]", name)[0]
            assert region_of(view, [first]) == region["id"], (lang, first)


def test_region_autocomplete_answers_in_the_script_typed() -> None:
    """Autocomplete offers the reader's names when neither an id nor an English name fits,
    and /region reads each offer back."""
    from engine.powergrid import GAME
    from engine.powergrid.arg_kinds import _complete_region
    from engine.powergrid.reading import region_of

    state = GAME.setup(["a", "b", "c"], {"map": "germany", "regions": "choose"}, 1)
    assert _complete_region(state, "a", "wsch")[0] == "Wschód"
    assert _complete_region(state, "a", "Вос")[0] == "Восток"
    assert _complete_region(state, "a", "we")[0] == "West"
    view = {"map": "germany"}
    for prefix, first in (("wsch", "E"), ("Вос", "E"), ("西", "NW")):
        offers = _complete_region(state, "a", prefix)
        assert region_of(view, offers[0].split()) == first, offers
        assert len({region_of(view, o.split()) for o in offers}) == len(offers) == 3
