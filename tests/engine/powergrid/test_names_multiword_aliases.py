"""Multi-word city names in other languages (issue 18): "Frankfurt nad Menem", "Франкфурт на
Одере", "Nowy Jork", "Frankfurt am Main" typed among other cities in one /build. The name
splitter takes the longest run of words that is a name or an alias (data/aliases/<map>.json),
and its work stays linear in the number of words typed."""

from __future__ import annotations

from typing import Any

import pytest

from engine.powergrid import aliases, chat_view, names
from tests.engine.powergrid.test_commands import make_view, p

GERMANY = list(aliases.spellings("germany"))
USA = list(aliases.spellings("usa"))


def _read(text: str, cities: list[str]) -> list[tuple[str, str | None]]:
    return [(s.text, s.match.unique) for s in names.split_names(text.split(), cities)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Frankfurt nad Menem Kiel", [("Frankfurt nad Menem", "Frankfurt-Main"), ("Kiel", "Kiel")]),
        ("Kiel Frankfurt am Main", [("Kiel", "Kiel"), ("Frankfurt am Main", "Frankfurt-Main")]),
        (
            "Франкфурт на Одере Берлин",
            [("Франкфурт на Одере", "Frankfurt-Oder"), ("Берлин", "Berlin")],
        ),
        (
            "Frankfurt an der Oder Frankfurt nad Menem",
            [
                ("Frankfurt an der Oder", "Frankfurt-Oder"),
                ("Frankfurt nad Menem", "Frankfurt-Main"),
            ],
        ),
        ("Halle (Saale) Lipsk", [("Halle (Saale)", "Halle"), ("Lipsk", "Leipzig")]),
    ],
)
def test_multiword_aliases_among_other_cities_germany(
    text: str, expected: list[tuple[str, str]]
) -> None:
    assert _read(text, GERMANY) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Nowy Jork Boston", [("Nowy Jork", "New York"), ("Boston", "Boston")]),
        ("Нью Йорк Новый Орлеан", [("Нью Йорк", "New York"), ("Новый Орлеан", "New Orleans")]),
        (
            "Солт Лейк Сити Канзас Сити",
            [("Солт Лейк Сити", "Salt Lake City"), ("Канзас Сити", "Kansas City")],
        ),
        ("Saint Louis Nowy Orlean", [("Saint Louis", "St. Louis"), ("Nowy Orlean", "New Orleans")]),
    ],
)
def test_multiword_aliases_among_other_cities_usa(
    text: str, expected: list[tuple[str, str]]
) -> None:
    assert _read(text, USA) == expected


def test_an_alias_of_a_city_outside_the_list_is_not_taken() -> None:
    """Only the cities passed in count: "Nowy Jork" is unknown where New York is not listed."""
    parts = names.split_names(["Nowy", "Jork", "Boston"], ["Boston", "Chicago"])
    assert [s.match.unique for s in parts][-1] == "Boston"
    assert all(s.match.unique != "New York" for s in parts)


@pytest.fixture
def as_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let hand-made views stand in for states (the chat layer reads them via view_of)."""
    monkeypatch.setattr(chat_view, "view_of", lambda state, player: state)


@pytest.mark.usefixtures("as_view")
def test_build_several_cities_with_polish_and_russian_multiword_names() -> None:
    view: dict[str, Any] = make_view(phase="build", expected="build")
    view["regions_in_play"] = ["NE", "SW", "W", "E"]
    assert p(view, "alice", "/build Frankfurt nad Menem Berlin Frankfurt nad Odrą") == [
        {"type": "build", "city": "Frankfurt-Main"},
        {"type": "build", "city": "Berlin"},
        {"type": "build", "city": "Frankfurt-Oder"},
    ]
    assert p(view, "alice", "/build Франкфурт на Майне Берлин") == [
        {"type": "build", "city": "Frankfurt-Main"},
        {"type": "build", "city": "Berlin"},
    ]


def _work(words: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    """The letters the splitter reads: every run it looks up or tests as a start of a name."""
    read = [0]
    index_type = type(names._index(tuple(GERMANY)))
    match, may_start = index_type.match, index_type.may_start

    def counted_match(self: Any, q: list[str]) -> names.Match:
        read[0] += sum(map(len, q)) + 1
        return match(self, q)

    def counted_start(self: Any, q: list[str]) -> bool:
        read[0] += sum(map(len, q)) + 1
        return may_start(self, q)

    with monkeypatch.context() as m:
        m.setattr(index_type, "match", counted_match)
        m.setattr(index_type, "may_start", counted_start)
        names.split_names(words, GERMANY)
    return read[0]


@pytest.mark.parametrize(
    "unit",
    [
        ["Frankfurt", "nad"],  # a run that starts an alias and stops
        ["Kiel", "-"],  # punctuation-only words between names
        ["Франкфурт", "на"],
        ["frankfurt", "an", "der"],
        ["Kiel"],
    ],
)
def test_split_names_is_linear_in_the_words_typed(
    unit: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    small = _work(unit * 500, monkeypatch)
    large = _work(unit * 4000, monkeypatch)
    # 8 times the words: about 8 times the work (a quadratic reader would do ~64 times).
    assert large <= small * 9, (small, large)
