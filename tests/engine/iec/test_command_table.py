"""IEC's chat commands, each declared once in a `CommandTable` (issue 26): the declaration is
what the parser reads (its argument kinds read and complete the words), and the same list
gives the help, Telegram's menu and Discord's options."""

from __future__ import annotations

import pytest

from engine.core import EnglishTranslator, ParseError, Reply
from engine.core.commands import CommandTable
from engine.iec import GAME, commands
from tests.engine.iec.helpers import add, at, empty, new

T = EnglishTranslator()

NAMES = [
    "power",
    "give",
    "extract",
    "mix",
    "transfer",
    "deliver",
    "destroy",
    "flex",
    "antimissile",
    "use",
    "sweep",
    "lay",
    "relocate",
    "prepare",
    "build",
    "recycle",
    "activate",
    "fire",
    "transmit",
    "research",
    "tech",
    "peek",
    "subsidy",
    "done",
    "status",
    "techs",
]


def test_every_command_is_one_declaration_with_its_handler() -> None:
    table: CommandTable = commands.TABLE
    assert [s.name for s in table.specs] == NAMES == [s.name for s in GAME.commands]
    assert set(table.handlers) == set(NAMES)
    assert {s.name for s in table.specs if s.kind == "info"} == {"status", "techs"}


def test_every_declared_kind_is_read_by_one_object() -> None:
    """Each argument kind of the declarations (other than a fixed choice or the rest of the
    line) has a reader in the table; every kind but numbers also completes."""
    kinds = {a.kind for s in commands.COMMANDS for a in s.args} - {"choice", "rest"}
    assert kinds == {"cell", "player", "int", "tech", "kind", "area"}
    for kind in kinds:
        assert commands.TABLE.kinds[kind].read is not None, kind
        assert (commands.TABLE.kinds[kind].complete is None) == (kind == "int"), kind


def test_from_follows_the_commands_that_declare_it() -> None:
    """IEC-S-10.5: `from <storage>` names where the goods are taken first."""
    assert {"build", "fire", "transmit", "research", "lay"} == commands.FROM_COMMANDS
    st, (p1, _p2) = empty()
    add(st, p1, "storage", "E3")
    assert GAME.parse(st, p1, "research", ["G1", "from", "E3"]) == {
        "type": "research",
        "building": "G1",
        "from": "E3",
    }
    with pytest.raises(ParseError) as err:
        GAME.parse(st, p1, "destroy", ["G1", "from", "E3"])
    assert err.value.message_key == "Only build, fire, transmit, research and lay take from."


def test_names_any_case_alias_and_unknown() -> None:
    st = new(2)
    p1 = st["seats"][0]
    assert GAME.parse(st, p1, "/PASS", []) == {"type": "done"}
    assert GAME.parse(st, p1, "Done", []) == {"type": "done"}
    with pytest.raises(ParseError) as err:
        GAME.parse(st, p1, "nope", [])
    assert err.value.message_key == "Unknown command /{name}."
    assert err.value.params["name"] == "nope"


def test_the_kinds_read_the_words() -> None:
    st = new(3)
    p1, p2 = st["seats"][:2]
    assert GAME.parse(st, p1, "give", [p2.upper(), "2"]) == {"type": "give", "to": p2, "count": 2}
    with pytest.raises(ParseError) as err:
        GAME.parse(st, p1, "give", [p2, "two"])
    assert err.value.message_key == "{value} is not a number."
    with pytest.raises(ParseError) as err:
        GAME.parse(st, p1, "give", [p2])
    assert err.value.message_key == "Missing argument."
    assert GAME.parse(st, p1, "extract", ["a1", "b"]) == {
        "type": "extract",
        "mine": "A1",
        "resource": "B",
    }
    assert GAME.parse(st, p1, "mix", ["bc", "ab"]) == {"type": "mix", "recipes": ["BC", "AB"]}
    assert GAME.parse(st, p1, "mix", ["none"]) == {"type": "mix", "recipes": []}
    assert GAME.parse(st, p1, "flex", ["9", "LAST"]) == {
        "type": "flex",
        "phase": 9,
        "position": "last",
    }
    assert GAME.parse(st, p1, "use", ["super", "computer", "off"]) == {
        "type": "use",
        "tech": 2,
        "mode": "off",
    }
    assert GAME.parse(st, p1, "subsidy", ["trans", "j13"]) == {
        "type": "subsidy",
        "kind": "transmitter",
        "cell": "J13",
    }
    assert GAME.parse(st, p1, "transfer", ["c1", "e3", "a", "1"]) == {
        "type": "transfers",
        "moves": [{"from": "C1", "to": "E3", "good": "A", "n": 1}],
    }
    with pytest.raises(ParseError) as err:
        GAME.parse(st, p1, "relocate", ["H7", "Z99"])
    assert err.value.params == {"value": "Z99"}


def test_info_commands_answer_in_the_players_language() -> None:
    st, (p1, _p2) = empty()
    at(st, 10, p1)
    status = GAME.parse(st, p1, "status", [], T)
    techs = GAME.parse(st, p1, "techs", [], T)
    assert isinstance(status, Reply) and "phase 10" in status.text and not status.private
    assert isinstance(techs, Reply) and techs.private and "Science 0" in techs.text


def test_completion_goes_through_the_declared_kinds() -> None:
    st = new(2)
    p1 = st["seats"][0]
    assert GAME.complete(st, p1, "player", "") == st["seats"]
    assert GAME.complete(st, p1, "area", "ii-") == ["II-N", "II-S"]
    assert GAME.complete(st, p1, "tech", "2 ") == ["2 Super Computer"]
    assert GAME.complete(None, None, "area", "") == []
    assert GAME.complete(st, p1, "int", "1") == []


def test_antimissile_refuses_a_word_that_is_neither_on_nor_off() -> None:
    """`/antimissile maybe` once switched the system off without a word; now it is refused."""
    st = new(3)
    p1 = st["seats"][0]
    assert GAME.parse(st, p1, "antimissile", ["ON"]) == {"type": "antimissile", "on": True}
    assert GAME.parse(st, p1, "antimissile", ["off"]) == {"type": "antimissile", "on": False}
    with pytest.raises(ParseError) as err:
        GAME.parse(st, p1, "antimissile", ["maybe"])
    assert err.value.message_key == "/{command} takes one of: {choices}."
    assert err.value.params == {"command": "antimissile", "choices": "on, off"}


def test_every_argument_has_a_translated_help() -> None:
    """`/help lay` in Polish showed `prawdziwa: cell`: an argument with no help of its own
    showed its bare kind. Each IEC argument declares a help, and the catalogs word it."""
    from bot.i18n import tr

    for spec in GAME.commands:
        for arg in spec.args:
            assert arg.help, (spec.name, arg.name)
            for lang in ("ru", "pl", "zh_Hant"):
                assert tr(lang, arg.help) != arg.help, (lang, spec.name, arg.name)


def test_power_alone_shows_the_list_and_none_empties_it() -> None:
    """Found playing (2026-12-02): a bare /power saved an empty power list ("Standing order
    saved."), dropping the list of a player who typed it to see it (IEC-15.2: the list goes
    first, then the default order). It now shows the list; "/power none" (or the chat
    languages' word) empties it."""
    st = new(2)
    p1 = next(iter(st["players"]))
    st["players"][p1]["orders"]["power"] = ["E3", "E5"]
    shown = GAME.parse(st, p1, "power", [], t=T)
    assert isinstance(shown, Reply) and shown.private
    assert shown.text.startswith("Your power list: E3, E5 first, then the rest in the default")
    for word in ("none", "NONE", "нет", "brak", "無"):
        assert GAME.parse(st, p1, "power", [word]) == {"type": "power", "buildings": []}
    assert GAME.parse(st, p1, "power", ["E3"]) == {"type": "power", "buildings": ["E3"]}
    st["players"][p1]["orders"]["power"] = []
    empty_list = GAME.parse(st, p1, "power", [], t=T)
    assert isinstance(empty_list, Reply) and "in the default order" in empty_list.text
