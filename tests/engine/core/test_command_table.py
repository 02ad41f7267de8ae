"""engine/core/commands.py: one declaration per command (issue 26). The declared arguments
drive the parser: one-word arguments are counted by the table before the handler runs, the
usage line comes from the declaration, and an argument kind reads and completes its words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engine.core.commands import DID_YOU_MEAN, ArgKind, Call, CommandTable, word_range
from engine.core.errors import ParseError
from engine.core.protocol import Action, ArgSpec, EnglishTranslator
from engine.hexania import commands as hexania
from engine.powergrid import commands as powergrid

T = EnglishTranslator()


def small_table() -> CommandTable:
    table = CommandTable(aliases={"p": "price"})

    def read_int(call: Call, words: Sequence[str]) -> int:
        if not words[0].isdigit():
            raise call.usage_error(words[0])
        return int(words[0])

    table.kind(ArgKind("int", read=read_int, complete=lambda s, p, prefix: ["1", "2", "10"]))

    @table.command(
        "price",
        "what n of it cost",
        (ArgSpec("what", "str"), ArgSpec("n", "int", required=False)),
        ("/price coal 3",),
        usage="Usage: /price <what> [<n>]",
    )
    def _price(call: Call) -> Action:
        n = call.read("int", call.words[1:]) if len(call.words) > 1 else 1
        return {"type": "price", "what": call.words[0], "n": n}

    @table.command("say", "say anything", (ArgSpec("text", "rest"),), ("/say hi",), usage="U")
    def _say(call: Call) -> Action:
        return {"type": "say", "words": list(call.words)}

    return table


def test_the_declared_arguments_count_the_words() -> None:
    table = small_table()
    assert table.parse({}, "ann", "price", ["coal"], T) == {"type": "price", "what": "coal", "n": 1}
    assert table.parse({}, "ann", "/P", ["coal 3"], T) == {"type": "price", "what": "coal", "n": 3}
    with pytest.raises(ParseError) as err:
        table.parse({}, "ann", "price", [], T)
    assert err.value.message_key == "Usage: /price <what> [<n>]" and err.value.params == {}
    with pytest.raises(ParseError) as err:
        table.parse({}, "ann", "price", ["coal", "3", "oil"], T)
    assert err.value.params == {"word": "oil"}  # the first word too many


def test_a_kind_reads_its_words_and_refuses_with_the_usage_line() -> None:
    with pytest.raises(ParseError) as err:
        small_table().parse({}, "ann", "price", ["coal", "x"], T)
    assert err.value.message_key == "Usage: /price <what> [<n>]"
    assert err.value.params == {"word": "x"}


def test_words_of_a_rest_argument_are_left_to_the_handler() -> None:
    table = small_table()
    assert word_range(table.specs[1].args) is None
    assert table.parse({}, "ann", "say", ["a b", "c"], T) == {
        "type": "say",
        "words": ["a", "b", "c"],
    }


def test_an_unknown_command_lists_the_declared_ones() -> None:
    with pytest.raises(ParseError) as err:
        small_table().parse({}, "ann", "/Nope", [], T)
    assert err.value.params == {"name": "nope", "commands": "/price /say"}


def test_a_mistyped_command_names_the_nearest_one() -> None:
    """Found playing, 2026-12-03: "/bidd 20" listed every command but did not say /bid, as the
    table does for its own ("/stauts": did you mean /status?)."""
    table = small_table()
    for typed, meant in [("/prcie", "price"), ("pricee", "price"), ("sya", "say")]:
        with pytest.raises(ParseError) as err:
            table.parse({}, "ann", typed, ["coal"], T)
        assert err.value.message_key == DID_YOU_MEAN
        assert err.value.params == {"name": typed.lstrip("/"), "command": meant}
    with pytest.raises(ParseError) as err:
        powergrid.TABLE.parse({}, "ann", "bidd", ["20"], T)
    assert err.value.english() == (
        "Unknown command /bidd. Did you mean /bid? /help lists the commands."
    )


def test_a_command_is_declared_once() -> None:
    table = small_table()
    with pytest.raises(ValueError, match="declared twice"):
        table.add(table.specs[0], lambda call: {})


def test_completion_goes_through_the_kind() -> None:
    table = small_table()
    assert table.complete(None, None, "int", "") == ["1", "2", "10"]
    assert table.complete(None, None, "city", "") == []


@pytest.mark.parametrize("module", [powergrid, hexania])
def test_every_game_command_is_one_declaration(module: Any) -> None:
    table: CommandTable = module.TABLE
    assert [s.name for s in table.specs] == [s.name for s in module.COMMANDS]
    assert set(table.handlers) == {s.name for s in table.specs}
    for spec in table.specs:
        counted = word_range(spec.args) is not None and table.count_words
        # A command whose words the table counts refuses with its own usage line.
        assert spec.usage or not counted, spec.name


def test_powergrid_usage_comes_from_the_declarations() -> None:
    assert {s.name: s.usage for s in powergrid.COMMANDS} == powergrid.USAGE
    assert all(u.startswith("Usage: /") for u in powergrid.USAGE.values())


def test_a_variant_answers_a_command_declared_elsewhere_under_that_declaration() -> None:
    """`declared(spec)`: the spec is kept whole (name, arguments, help, usage line) and the
    table still counts its one-word arguments before the variant's handler runs."""
    base = small_table()
    price = base.spec("price")
    assert price is not None
    variant = CommandTable()

    @variant.declared(price)
    def _price(call: Call) -> Action:
        return {"type": "variant price", "words": list(call.words)}

    assert variant.specs == [price] and variant.specs[0] is price
    assert variant.usage == {"price": "Usage: /price <what> [<n>]"}
    assert variant.parse({}, "ann", "price", ["oil"], T) == {
        "type": "variant price",
        "words": ["oil"],
    }
    with pytest.raises(ParseError) as err:
        variant.parse({}, "ann", "price", ["oil", "2", "3"], T)
    assert err.value.message_key == price.usage and err.value.params == {"word": "3"}
    with pytest.raises(ValueError, match="declared twice"):
        variant.declared(price)(_price)
