"""Autocomplete in the reader's script (found by an outside tester of the Discord adapter,
2026-12: `/build Бер`, `Гамб`, `漢` offered nothing while "Мюнхен" and "紐約" were read): a
prefix of a city's Russian, Polish, Chinese or ASCII name offers the city under the name the
parser reads, in the base game and in the alternative rules; regions likewise in both."""

from __future__ import annotations

from typing import Any

import pytest

from engine.powergrid import GAME
from engine.powergrid import chat_view as cv
from engine.powergrid.reading import cities_of
from engine.powergrid_alt import GAME as ALT
from engine.powergrid_alt.view import view as alt_view

GAMES = [GAME, ALT]

# (typed, the city offered first) per language: the tester's words and one more each
CITIES = {
    "en": [("Hamb", "Hamburg"), ("ham", "Hamburg"), ("dussel", "Düsseldorf")],
    "ru": [("Бер", "Berlin"), ("Гамб", "Hamburg"), ("мюнх", "München")],
    "pl": [("Kilo", "Kiel"), ("Mona", "München"), ("Kolo", "Köln")],
    "zh_Hant": [("漢", "Hamburg"), ("柏", "Berlin"), ("慕尼", "München")],
}


def _state(game: Any) -> dict[str, Any]:
    return game.setup(["a", "b", "c"], {"map": "germany"}, 1)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
@pytest.mark.parametrize("lang", sorted(CITIES))
def test_a_city_is_offered_for_a_prefix_of_its_name_in_any_language(game: Any, lang: str) -> None:
    state = _state(game)
    for typed, city in CITIES[lang]:
        offered = game.complete(state, "a", "city", typed)
        assert offered and offered[0] == city, (typed, offered)
        # what is offered is what /build reads: the canonical name
        view = (cv.view_of if game is GAME else alt_view)(state, "a")
        assert cities_of(view, offered[0].split()) == [city]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_the_map_s_own_spellings_come_first_and_each_city_once(game: Any) -> None:
    state = _state(game)
    assert game.complete(state, "a", "city", "Kil") == ["Kiel"]  # Kiel, Kilonia: once
    assert game.complete(state, "a", "city", "Ko") == ["Köln", "Konstanz"]
    assert game.complete(state, "a", "city", "Kol") == ["Köln"]  # "Kolonia"
    assert game.complete(state, "a", "city", "Mün") == ["München", "Münster"]
    assert game.complete(state, "a", "city", "Han")[0] == "Hannover"
    assert game.complete(state, "a", "city", "Berlin Бре") == []  # one name, not two
    assert game.complete(state, "a", "city", "Бре") == ["Bremen"]
    assert game.complete(state, "a", "city", "zzz") == []
    assert len(game.complete(state, "a", "city", "")) == 25


def test_without_a_game_every_map_s_cities_in_every_language() -> None:
    assert GAME.complete(None, None, "city", "Бер") == ["Berlin"]
    assert GAME.complete(None, None, "city", "Нью") == ["New York"]
    assert GAME.complete(None, None, "city", "紐約") == ["New York"]


def test_a_city_outside_the_map_in_play_is_not_offered() -> None:
    state = GAME.setup(["a", "b", "c"], {"map": "usa"}, 1)
    assert GAME.complete(state, "a", "city", "Гамб") == []
    assert GAME.complete(state, "a", "city", "Нью")[0] == "New York"


@pytest.mark.parametrize(
    ("typed", "first"),
    [("North", "North-East"), ("Вос", "Восток"), ("Pół", "Północny wschód"), ("西", "西北")],
)
def test_the_alternative_rules_complete_regions_as_the_base_game(typed: str, first: str) -> None:
    for game in GAMES:
        assert game.complete(_state(game), "a", "region", typed)[0] == first


def test_completion_stays_fast() -> None:
    import time

    state = _state(GAME)
    GAME.complete(state, "a", "city", "Гамб")
    began = time.perf_counter()
    for typed in ("Гамб", "漢", "Mona", "ham", "") * 20:
        GAME.complete(state, "a", "city", typed)
    assert (time.perf_counter() - began) / 100 < 0.005


def _cut(spelling: str) -> list[str]:
    """Every start of a spelling a player may send, from two characters on, cut after a
    letter ("Mo", "Mon", ..., "Nowy J", "Nowy Jo", ..., "Halle (Saale"; not "Halle (")."""
    return [spelling[:k] for k in range(2, len(spelling) + 1) if spelling[k - 1].isalnum()]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
@pytest.mark.parametrize("map_id", ["germany", "usa"])
def test_a_city_s_name_begun_in_the_reader_s_language_is_read_as_autocomplete_offers_it(
    game: Any, map_id: str
) -> None:
    """Found playing (2026-12): a Polish player's "/build Monach" was an unknown city, though
    autocomplete offered München for it (the parser read only a whole foreign spelling,
    "Monachium"; Telegram has no autocomplete, so the prefix is what is sent). Every start of
    every city's Russian, Polish, Chinese and ASCII spelling that autocomplete offers one city
    for is read as that city; one offered with others is never read as a city not offered."""
    from engine.core.errors import ParseError
    from engine.powergrid.aliases import spellings

    state = game.setup(["a", "b", "c"], {"map": map_id}, 1)
    view = (cv.view_of if game is GAME else alt_view)(state, "a")
    for city, kinds in spellings(map_id).items():
        for spelling in (s for names in kinds.values() for s in names):
            for typed in _cut(spelling):
                offered = game.complete(state, "a", "city", typed)
                assert city in offered or len(offered) == 25, (typed, offered)
                try:
                    read = cities_of(view, typed.split())
                except ParseError:
                    assert len(offered) > 1, (typed, offered)  # "could be …": type more
                    continue
                assert read == [city] if offered == [city] else read[0] in offered, (typed, read)


def test_monach_builds_in_munchen() -> None:
    state = _state(GAME)
    view = cv.view_of(state, "a")
    assert cities_of(view, ["Monach"]) == ["München"]
    assert cities_of(view, ["Мюнх", "Гамб"]) == ["München", "Hamburg"]
    assert cities_of(view, ["慕尼", "Kilo"]) == ["München", "Kiel"]
