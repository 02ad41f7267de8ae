"""IEC-S-26: the owner's private line of a standing order names the order (found playing,
2026-12: his /log listed "Standing order saved." a dozen times; which one was which?), in his
language; the table's line of it stays none."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import LANGUAGES, translator
from engine.iec import GAME
from engine.iec.lines import describe_private_event
from tests.engine.iec.helpers import new

PLAIN = "Standing order saved."


def _owned(state: dict[str, Any], player: str) -> dict[str, list[str]]:
    cells: dict[str, list[str]] = {}
    for cell, b in sorted(state["buildings"].items()):
        if b["owner"] == player:
            cells.setdefault(b["kind"], []).append(cell)
    return cells


def _orders(state: dict[str, Any], player: str, rival: str) -> list[tuple[str, list[str]]]:
    """(command, the words its line must carry) for the orders any company may give."""
    cells = _owned(state, player)
    mine, storage, mixer = cells["mine"][0], cells["storage"], cells["mixer"][0]
    area = sorted(a for a, v in state["areas"].items() if v["deposit"] is None)[0]
    return [
        ("/mix BC AB", ["BC", "AB"]),
        ("/mix AC", ["AC"]),
        ("/mix none", []),
        (f"/extract {mine} A", [mine, "A"]),
        (f"/transfer {storage[0]} {storage[1]} A 1", [storage[0], storage[1], "A"]),
        (f"/deliver {mixer} {storage[1]}", [mixer, storage[1]]),
        (f"/deliver {mixer} none", [mixer]),
        (f"/destroy {mixer}", [mixer]),
        (f"/destroy {mixer} cancel", [mixer]),
        (f"/give {rival} 2", [rival, "2"]),
        (f"/give {rival} 0", [rival]),
        ("/antimissile on", []),
        ("/antimissile off", []),
        (f"/power {mixer} {mine}", [mixer, mine]),
        ("/power none", []),
        ("/transfer none", []),
        # the secret technologies' private choices (corrections 1.1)
        ("/flex 9 last", ["9"]),
        ("/flex 9 unchanged", ["9"]),
        ("/use 13 off", []),
        ("/use 13 auto", []),
        (f"/sweep {mine}", [mine]),
        ("/sweep none", []),
        (f"/peek {area}", [area]),
        ("/peek none", []),
        ("/subsidy transmitter J13", ["J13"]),
        ("/subsidy none", []),
    ]


def _saved(state: dict[str, Any], player: str, command: str) -> dict[str, Any]:
    name, *words = command.lstrip("/").split()
    action = GAME.parse(state, player, name, words)
    assert isinstance(action, dict), (command, action)
    _after, events = GAME.apply(state, player, action)
    [event] = [e for e in events if e.get("type") == "order_set"]
    return event


@pytest.mark.parametrize("lang", LANGUAGES)
def test_iec_s26_the_owner_s_line_names_his_order(lang: str) -> None:
    state = new(2, seed=3)
    player, rival = list(state["players"])
    state["players"][player]["techs"] = [1, 3, 11, 13, 16, 19]  # all unrevealed
    t = translator(lang)
    plain = t.gettext(PLAIN)
    lines = []
    for command, words in _orders(state, player, rival):
        event = _saved(state, player, command)
        line = GAME.describe_private_event(state, event, t)
        assert line is not None and line != plain and line.startswith(plain[:-1]), (command, line)
        assert all(w in line for w in words), (command, line)
        assert GAME.describe_event(state, event, t) is None  # the table reads nothing of it
        english = GAME.describe_private_event(state, event, translator("en"))
        assert lang == "en" or line != english, line  # in his language
        lines.append(line)
    assert len(set(lines)) == len(lines), lines  # each order its own line


def test_the_mix_line_in_each_language() -> None:
    state = new(2, seed=3)
    player = next(iter(state["players"]))
    event = _saved(state, player, "/mix BC AB")
    said = {lang: GAME.describe_private_event(state, event, translator(lang)) for lang in LANGUAGES}
    assert said == {
        "en": "Standing order saved: mixers make BC, AB, most wanted first.",
        "ru": "Постоянный приказ сохранён: смесители производят BC, AB, начиная с самого нужного.",
        "pl": "Stałe zlecenie zapisane: miksery wytwarzają BC, AB, od najbardziej potrzebnego.",
        "zh_Hant": "常駐指令已儲存：混合器依優先順序製造 BC、AB。",
    }


def test_an_order_saved_before_its_words_were_kept_reads_as_it_did() -> None:
    """A stored game's older event has no `action`: its line stays the plain one."""
    state = new(2, seed=3)
    player = next(iter(state["players"]))
    event = {"type": "order_set", "player": player, "private_to": player}
    event["secret"] = {"order": "mix"}
    assert describe_private_event(state, event, translator("en")) == PLAIN
