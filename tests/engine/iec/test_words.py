"""Building types and technologies typed in the players' own words (engine/iec/words.py):
read back as the prompts and `/techs` print them in each language, and autocompleted in the
script being typed, so what autocomplete offers is always a command the game reads."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.i18n import LANGUAGES, translator
from engine.core import ParseError, Translator
from engine.iec import GAME, words
from engine.iec.lines import KIND_NAMES
from engine.iec.scenario import KINDS
from engine.iec.techs import TECHS
from tests.engine.iec.helpers import add, at, empty
from tests.engine.iec.test_command_table import new

OTHER = [lang for lang in LANGUAGES if lang != "en"]


def parsed(
    st: dict[str, Any], player: str, command: str, said: list[str], t: Translator | None = None
) -> dict[str, Any]:
    out = GAME.parse(st, player, command, said, t)
    assert isinstance(out, dict), out
    return out


def test_the_words_file_starts_with_the_names_the_catalogs_print() -> None:
    """data/aliases/words.json lists first, per language, the very name a prompt prints: a
    catalog change that renamed a building or a technology would leave it unreadable."""
    data = json.loads(words.WORDS.read_text(encoding="utf-8"))
    assert sorted(data["kinds"]) == sorted(KINDS)
    assert sorted(int(n) for n in data["techs"]) == sorted(TECHS)
    for lang in OTHER:
        t = translator(lang)
        for kind in KINDS:
            assert data["kinds"][kind][lang][0] == t.gettext(KIND_NAMES[kind]), (lang, kind)
        for n, name in TECHS.items():
            assert data["techs"][str(n)][lang][0] == t.gettext(name), (lang, n)


@pytest.mark.parametrize("lang", OTHER)
def test_every_printed_name_reads_back_in_any_language(lang: str) -> None:
    """IEC-S-23: `/use` takes a technology as `/techs` prints it, in the reader's language or
    another (a Polish player at a Russian table); `/build` a building type as the prompt
    names it (IEC-27 phase 7), the first word of a name of two enough."""
    st = new(2)
    p1 = st["seats"][0]
    t = translator(lang)
    for n, name in TECHS.items():
        said = t.gettext(name).split()
        for reader in ("en", lang):
            action = GAME.parse(st, p1, "use", [*said, "off"], translator(reader))
            assert action == {"type": "use", "tech": n, "mode": "off"}, (lang, name)
    for kind in KINDS:
        word = t.gettext(KIND_NAMES[kind]).split()[0]
        assert parsed(st, p1, "subsidy", [word, "J13"], translator("en"))["kind"] == kind


def test_what_autocomplete_offers_is_read_back() -> None:
    """Discord's autocomplete offers "2 Super Computer": once refused as an unknown
    technology; now the number with its own name after it is that technology, and a name
    that is another's is still refused."""
    st = new(2)
    p1 = st["seats"][0]
    for prefix in ("", "2 ", "супер", "za", "遠", "1"):
        for offered in GAME.complete(st, p1, "tech", prefix):
            n = int(offered.split()[0])
            assert parsed(st, p1, "use", offered.split())["tech"] == n
    with pytest.raises(ParseError):
        GAME.parse(st, p1, "use", ["2", "Missile", "Salvo"])
    assert parsed(st, p1, "use", ["25"])["tech"] == 25  # the rules refuse it, by id
    assert GAME.complete(st, p1, "tech", "супер") == ["2 Суперкомпьютер"]
    assert GAME.complete(st, p1, "tech", "2 ") == ["2 Super Computer"]


def test_building_types_complete_in_the_script_being_typed() -> None:
    st = new(2)
    p1 = st["seats"][0]
    assert GAME.complete(st, p1, "kind", "") == list(KINDS)
    assert GAME.complete(st, p1, "kind", "tr") == ["transmitter"]  # not also «transmiter»
    assert GAME.complete(st, p1, "kind", "ша") == ["шахта"]
    assert GAME.complete(st, p1, "kind", "kop") == ["kopalnia"]
    assert GAME.complete(st, p1, "kind", "пуск") == ["пусковая установка"]  # read whole
    assert GAME.complete(st, p1, "kind", "ракетная у") == ["ракетная установка"]
    assert GAME.complete(st, p1, "kind", "倉") == ["倉庫"]


def test_build_reads_a_kind_named_in_another_language() -> None:
    """IEC-27 phase 7: «kopalnia» at a table whose reader reads Russian is a mine; an unknown
    word is still refused with the building-type error."""
    st, (p1, _p2) = empty()
    add(st, p1, "developer", "E5")
    at(st, 7, p1)
    ru = translator("ru")
    polish = GAME.parse(st, p1, "build", ["E6", "kopalnia"], ru)
    english = GAME.parse(st, p1, "build", ["E6", "mine"], ru)
    assert polish == english
    with pytest.raises(ParseError) as err:
        GAME.parse(st, p1, "build", ["E6", "zamek"], ru)
    assert err.value.message_key == "Unknown building type {value}."


def test_fold_ignores_case_accents_and_spacing() -> None:
    assert words.fold("  Transformacja  MIĘDZYSIECIOWA ") == "transformacja miedzysieciowa"
    assert words.named("trał", words.tech_names()) == 19
    assert words.named("tral minowy", words.tech_names()) == 19
    assert words.named("zaawansowane", words.tech_names()) is None  # two of them


def test_a_prefix_of_two_building_types_is_refused_with_both_names() -> None:
    """IEC-27 phase 7: "mi" once built a mine for a player who meant a mixer (the first
    English type it began); now it names both, in the reader's language, and builds nothing.
    A prefix of one type is still that type."""
    from bot.i18n import explain

    st, (p1, _p2) = empty()
    add(st, p1, "developer", "E5")
    at(st, 7, p1)
    for word, lang, said in (
        ("mi", "en", "mi could be: mine, mixer. Type more of the name."),
        ("la", "ru", "la может означать: лаборатория, пусковая установка."),
    ):
        with pytest.raises(ParseError) as err:
            GAME.parse(st, p1, "build", ["E6", word], translator(lang))
        assert explain(lang, err.value).startswith(said)
    assert parsed(st, p1, "build", ["E6", "mix"])["kind"] == "mixer"
    assert parsed(st, p1, "build", ["E6", "lau"])["kind"] == "launcher"


def _every_kind_name() -> list[tuple[str, str]]:
    """(name, building type) for every name of data/aliases/words.json, in every language."""
    data = json.loads(words.WORDS.read_text(encoding="utf-8"))
    return [
        (name, kind)
        for kind, langs in data["kinds"].items()
        for names in langs.values()
        for name in names
    ]


def test_the_words_file_has_names_of_several_words() -> None:
    """The tests below would prove nothing if no name had two words."""
    assert ("пусковая установка", "launcher") in _every_kind_name()
    assert ("wyrzutnia rakietowa", "launcher") in _every_kind_name()


@pytest.mark.parametrize("lang", ["en", *OTHER])
def test_build_reads_a_building_type_of_several_words_whole(lang: str) -> None:
    """IEC-27 phase 7: the Russian prompt lists «пусковая установка» among a site's types,
    and `/build E7 пусковая установка` was refused: «Неизвестный тип здания установка.» (the
    second word read as another argument); «wyrzutnia rakietowa» likewise. Every name of
    every language is read whole, whatever the reader's language, with the developer's
    cell and the deposit's number around it in any order."""
    st, (p1, _p2) = empty()
    add(st, p1, "developer", "E5")
    at(st, 7, p1)
    t = translator(lang)
    for name, kind in _every_kind_name():
        said = name.split()
        assert parsed(st, p1, "build", ["E7", *said], t)["kind"] == kind, name
        again = parsed(st, p1, "build", ["E7", "E5", *said, "2"], t)
        assert (again["kind"], again["developer"], again["deposit"]) == (kind, "E5", 1), name
        sub = parsed(st, p1, "subsidy", [*said, "J13"], t)  # IEC-TECH-16
        assert (sub["kind"], sub["cell"]) == (kind, "J13"), name
    with pytest.raises(ParseError) as err:  # a name followed by a stray word is not a type
        GAME.parse(st, p1, "build", ["E7", "пусковая", "установка", "zamek"], t)
    assert err.value.message_key == "Unknown building type {value}."


def test_what_autocomplete_offers_for_a_building_type_is_built() -> None:
    """The completion of a building type is a name /build reads back, of several words too."""
    st, (p1, _p2) = empty()
    add(st, p1, "developer", "E5")
    at(st, 7, p1)
    for prefix in ("", "пуск", "ракет", "wyrz", "launch", "發", "ла", "k"):
        offered = GAME.complete(st, p1, "kind", prefix)
        assert offered, prefix
        for name in offered:
            kind = words.named(name, words.kind_names())
            assert parsed(st, p1, "build", ["E7", *name.split()])["kind"] == kind, name


@pytest.mark.parametrize("lang", OTHER)
def test_every_technology_name_reads_back_whole(lang: str) -> None:
    """IEC-S-23: every name of words.json, of one word or several, in /use (with or without
    a mode after it) and in /tech."""
    st = new(2)
    p1 = st["seats"][0]
    data = json.loads(words.WORDS.read_text(encoding="utf-8"))
    t = translator(lang)
    for n, langs in data["techs"].items():
        for name in langs[lang]:
            said = name.split()
            assert parsed(st, p1, "use", said, t) == {"type": "use", "tech": int(n), "mode": "now"}
            assert parsed(st, p1, "use", [*said, "auto"], t)["tech"] == int(n)
            assert parsed(st, p1, "tech", said, t) == {"type": "tech", "tech": int(n)}


def test_the_prompt_example_of_a_launcher_is_read_back_in_russian() -> None:
    """The phase 7 prompt's example names the type as the reader reads it, and /build reads
    that example back (it gave the English word for a name of two words)."""
    from engine.iec.turn_text import _kind_word

    st, (p1, _p2) = empty()
    add(st, p1, "developer", "E5")
    at(st, 7, p1)
    ru = translator("ru")
    assert _kind_word(ru, "launcher") == "пусковая установка"
    assert parsed(st, p1, "build", ["E7", *_kind_word(ru, "launcher").split()], ru)["kind"] == (
        "launcher"
    )


def test_whole_line_completion_reads_a_type_of_two_words_as_one_argument() -> None:
    """Found playing (2026-12-02): Discord's whole-line completion placed arguments by counting
    words, so after «пусковая установка» it offered the `from` words instead of the developer's
    cell, and a half-typed second word of the type completed nothing (IEC-27 phase 7)."""
    from bot.completion import CompletionMixin

    st, (p1, _p2) = empty()
    add(st, p1, "developer", "E5")
    at(st, 7, p1)

    def offered(typed: str) -> list[str]:
        return CompletionMixin._complete_args(None, GAME, st, p1, "build", 0, typed)  # type: ignore[arg-type]

    assert offered("E6 пус") == ["E6 пусковая установка"]
    assert offered("E6 пусковая у") == ["E6 пусковая установка"]
    assert "E6 пусковая установка E5" in offered("E6 пусковая установка E")
    # the developer's cell comes after a type of two words as after one of one word
    cells = [line.split()[-1] for line in offered("E6 mine E")]
    assert cells and offered("E6 wyrzutnia rakietowa E") == [
        f"E6 wyrzutnia rakietowa {cell}" for cell in cells
    ]
