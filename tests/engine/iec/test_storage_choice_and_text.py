"""IEC-S-10.5 storage choice (deliver orders, `from`), plural/kind/private texts, buttons."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import EnglishTranslator, IllegalAction
from engine.iec import GAME, actions, commands, production, rules
from tests.engine.iec.helpers import add, at, dice, do, empty

T = EnglishTranslator()


def two() -> tuple[dict[str, Any], str, str]:
    st, (p1, p2) = empty()
    add(st, p1, "reactor", "B7")
    add(st, p2, "reactor", "W10")
    return st, p1, p2


class Recording:
    """A translator that maps some msgids and records every call (gettext("") is an error)."""

    def __init__(self, table: dict[str, str] | None = None) -> None:
        self.table = table or {}
        self.plural_calls: list[tuple[str, str, int]] = []

    def gettext(self, message: str) -> str:
        assert message, "gettext('') returns the catalog header"
        return self.table.get(message, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        self.plural_calls.append((singular, plural, n))
        return singular if n == 1 else plural


# ---------------------------------------------------------------- IEC-S-10.5 storage choice


def test_iec_s10_5_deliver_order_chooses_the_mixer_output_storage() -> None:
    st, p1, _ = two()
    add(st, p1, "mixer", "C3")
    c1 = add(st, p1, "storage", "C1", goods={"B": 1, "C": 1})
    e3 = add(st, p1, "storage", "E3")
    st["players"][p1]["orders"]["mix"] = ["BC"]
    st["phase_order"]["12"] = [p1]
    actions.apply(st, p1, {"type": "deliver", "building": "C3", "storages": ["C1"]})
    production.mix_and_move(st, [])
    assert c1["goods"]["BC"] == 1 and e3["goods"]["BC"] == 0


def test_iec_s10_5_without_order_compounds_go_to_the_storage_with_fewest_simple_goods() -> None:
    st, p1, _ = two()
    add(st, p1, "mixer", "C3")
    c1 = add(st, p1, "storage", "C1", goods={"A": 1, "B": 1, "C": 1})
    e3 = add(st, p1, "storage", "E3")
    st["players"][p1]["orders"]["mix"] = ["BC"]
    st["phase_order"]["12"] = [p1]
    production.mix_and_move(st, [])
    assert e3["goods"]["BC"] == 1 and c1["goods"]["BC"] == 0


def test_iec_s10_5_deliver_order_falls_back_when_the_chosen_storage_is_full() -> None:
    st, p1, _ = two()
    add(st, p1, "mine", "A1")
    add(st, p1, "storage", "C1", goods={"A": 4})
    b1 = add(st, p1, "storage", "B1")
    st["players"][p1]["orders"]["extract"]["A1"] = "B"
    actions.apply(st, p1, {"type": "deliver", "building": "A1", "storages": ["C1", "B1"]})
    with dice(6):
        production.extract(st, [])
    assert b1["goods"]["B"] == 1


def test_iec_s10_5_deliver_order_needs_own_mine_mixer_or_developer_and_storages() -> None:
    st, p1, p2 = two()
    add(st, p1, "transmitter", "G3")
    add(st, p1, "mixer", "C3")
    add(st, p2, "storage", "V16")
    with pytest.raises(IllegalAction):
        actions.apply(st, p1, {"type": "deliver", "building": "G3", "storages": []})
    with pytest.raises(IllegalAction):
        actions.apply(st, p1, {"type": "deliver", "building": "C3", "storages": ["V16"]})
    actions.apply(st, p1, {"type": "deliver", "building": "C3", "storages": []})
    assert "C3" not in st["players"][p1]["orders"]["deliver"]


def test_iec_s10_5_transmit_from_names_a_linked_storage_else_refused() -> None:
    st, p1, _ = two()
    add(st, p1, "transmitter", "G3")
    e3 = add(st, p1, "storage", "E3", goods={"BC": 1})
    g5 = add(st, p1, "storage", "G5", goods={"BC": 1})
    add(st, p1, "storage", "C1", goods={"BC": 1})  # 8 cm from G3: not linked
    at(st, 10, p1)
    with pytest.raises(IllegalAction) as err:
        do(st, p1, {"type": "transmit", "building": "G3", "from": "C1"})
    assert err.value.rule_id == "IEC-S-10.5"
    with dice(6):
        do(st, p1, {"type": "transmit", "building": "G3", "from": "G5"})
    assert (e3["goods"]["BC"], g5["goods"]["BC"]) == (1, 0)


def test_iec_s10_5_chat_from_and_deliver_commands() -> None:
    st, p1, _ = two()
    add(st, p1, "transmitter", "G3")
    add(st, p1, "mixer", "C3")
    assert GAME.parse(st, p1, "transmit", ["G3", "from", "e3"]) == {
        "type": "transmit",
        "building": "G3",
        "from": "E3",
    }
    assert GAME.parse(st, p1, "deliver", ["C3", "E3", "C1"]) == {
        "type": "deliver",
        "building": "C3",
        "storages": ["E3", "C1"],
    }
    deliver = GAME.parse(st, p1, "deliver", ["C3", "none"])
    assert isinstance(deliver, dict) and deliver["storages"] == []
    with pytest.raises(IllegalAction):
        GAME.parse(st, p1, "mix", ["BC", "from", "E3"])


# ---------------------------------------------------------------- texts


def test_iec_s19_missile_line_uses_ngettext_for_hits() -> None:
    st, p1, _ = two()
    t = Recording()
    ev = {"type": "missiles", "player": p1, "launcher": "I5", "target": "R3", "need": 3}
    one = GAME.describe_event(st, {**ev, "rolls": [4, 1], "hits": 1}, t)
    many = GAME.describe_event(st, {**ev, "rolls": [4, 5], "hits": 2}, t)
    assert one is not None and one.endswith("1 hit.")
    assert many is not None and many.endswith("2 hits.")
    assert [n for _s, _p, n in t.plural_calls] == [1, 2]


def test_iec_15_5_power_given_line_uses_ngettext_for_buildings() -> None:
    st, p1, p2 = two()
    line = GAME.describe_event(st, {"type": "power_given", "player": p1, "to": p2, "count": 1}, T)
    assert line == f"{p1} gives power for 1 building to {p2}."


def test_iec_s19_launcher_quote_and_power_quote_use_ngettext() -> None:
    st, p1, p2 = two()
    add(st, p1, "launcher", "I5", modules=1)
    add(st, p1, "storage", "I7", goods={"AC": 1})
    add(st, p2, "storage", "R3")
    at(st, 9, p1)
    t = Recording()
    text = commands.describe_turn(st, p1, t)
    assert "2 shots, 1 AC each" in text  # IEC-16.4: 2 missiles from the first module
    assert any(n == 2 and "shot," in s for s, _p, n in t.plural_calls)


def test_iec_24_tech_name_never_asks_gettext_for_an_empty_string() -> None:
    st, p1, _ = two()
    t = Recording()
    for ev in (
        {"type": "turn_started", "order": [p1]},
        {"type": "tech_revealed", "player": p1, "tech": 8},
        {"type": "tech_chosen", "player": p1, "cost": 3, "secret": {"tech": 8}},
    ):
        GAME.describe_event(st, ev, t)
    line = GAME.describe_event(st, {"type": "tech_revealed", "player": p1, "tech": 8}, t)
    assert line == f"{p1} reveals Fast Transmission."


def test_iec_14_building_kinds_are_translated_inside_sentences() -> None:
    st, p1, _ = two()
    t = Recording({"storage": "Lager", "missile": "Rakete"})
    line = GAME.describe_event(
        st,
        {
            "type": "module_lost",
            "player": p1,
            "cell": "E3",
            "kind": "storage",
            "left": 1,
            "cause": "missile",
        },
        t,
    )
    assert line == f"{p1}'s Lager on E3 loses a module (1 left, Rakete)."
    assert set(commands.KIND_NAMES) == set(rules.scen(st).buildings)


def test_iec_s26_done_and_action_buttons_are_translated() -> None:
    st, p1, _ = two()
    add(st, p1, "transmitter", "G3")
    add(st, p1, "storage", "E3", goods={"BC": 1})
    at(st, 10, p1)
    t = Recording({"Done": "Fertig", "Transmit {cell}": "Senden {cell}"})
    assert GAME.buttons(st, p1, t) == [("Senden G3", "/transmit G3"), ("Fertig", "/done")]
    assert GAME.buttons(st, p1)[-1] == ("Done", "/done")


# ---------------------------------------------------------------- private events (IEC-S-26)


def test_iec_s26_private_events_public_line_hides_secret_owner_line_shows_it() -> None:
    st, p1, _ = two()
    laid = {
        "type": "tokens_laid",
        "player": p1,
        "cells": ["H6", "H7", "H8"],
        "paid": "E3",
        "private_to": p1,
        "secret": {"real": ["H7"]},
    }
    public = GAME.describe_event(st, laid, T)
    assert public == f"{p1} lays tokens on H6, H7, H8."
    assert GAME.describe_private_event(st, laid, T) == "Only you know: your real mine is on H7."
    chosen = {
        "type": "tech_chosen",
        "player": p1,
        "cost": 3,
        "count": 1,
        "private_to": p1,
        "secret": {"tech": 13},
    }
    assert "Energy Recovery" not in (GAME.describe_event(st, chosen, T) or "")
    assert "Energy Recovery" in (GAME.describe_private_event(st, chosen, T) or "")
    peek = {
        "type": "peeked",
        "player": p1,
        "area": "I-NW",
        "private_to": p1,
        "secret": {"deposits": ["I-2", "I-6"]},
    }
    assert GAME.describe_event(st, peek, T) is None
    assert "I-2 / I-6" in (GAME.describe_private_event(st, peek, T) or "")
    assert GAME.describe_private_event(st, {"type": "radiation", "value": 5}, T) is None


def test_iec_s26_every_event_with_a_secret_is_private_in_bot_games() -> None:
    st = GAME.setup(["a", "b", "c"], {}, 5)
    from engine.core import Rng

    rng = Rng({"s": 9})
    seen: set[str] = set()
    while not GAME.is_over(st):
        (p,) = GAME.current_players(st)
        st, events = GAME.apply(st, p, GAME.bots["random"](st, p, rng))
        for e in events:
            if "secret" in e:
                assert e.get("private_to") == e["player"]
                seen.add(e["type"])
                line = GAME.describe_event(st, e, T) or ""
                for value in e["secret"].values():
                    for item in value if isinstance(value, list) else [value]:
                        if e["type"] == "tokens_laid":
                            continue  # the cells are public, which one is real is not
                        assert str(item) not in line
    assert "tokens_laid" in seen


def test_a_declared_laying_without_fakes_names_the_real_mine_alone() -> None:
    """Found playing (2026-12-02): "/lay E2" with no fakes was confirmed as "real mine on
    E2, fakes on -"."""
    st, p1, _ = two()
    declared = {"type": "declared", "player": p1, "phase": 5, "private_to": p1}
    alone = {**declared, "secret": {"action": {"type": "lay", "real": ["E2"], "fake": []}}}
    line = GAME.describe_private_event(st, alone, T) or ""
    assert "real mine on E2 (" in line and "fakes" not in line and " -" not in line, line
    both = {**declared, "secret": {"action": {"type": "lay", "real": ["E2"], "fake": ["F3"]}}}
    assert "real mine on E2, a fake on F3" in (GAME.describe_private_event(st, both, T) or "")


def test_destroying_a_cell_without_a_building_of_yours_names_no_type() -> None:
    """Found playing (2026-12-02): "/destroy R3" on a rival's cell said "R3 holds no building
    of yours of that type", though no type was named."""
    st, p1, _ = two()
    with pytest.raises(IllegalAction) as info:
        GAME.apply(st, p1, {"type": "destroy", "cell": "R3"})
    assert info.value.english() == "R3 holds no building of yours.", info.value.english()
