"""The result of an IEC game, said once (found playing, 2026-12-03: "Koniec gry.
Klasyfikacja: Bot 2 > Bot > ann." from the game_over event, then the table's own ranking, and
no VP anywhere). The over state's turn text names every company's place with the figures
that decided it (IEC-S-9: VP, then intact modules, then science; IEC-S-24 and corrections
1.1: every survivor above every eliminated company, which keeps half its VP); the game_over
event has no chat line of its own, and stays as it was recorded."""

from __future__ import annotations

from engine.core import EnglishTranslator
from engine.iec import rules
from engine.iec.game import IEC
from tests.engine.iec.helpers import add, empty

GAME = IEC()
T = EnglishTranslator()


def _three() -> tuple[dict, list[str]]:
    st, names = empty(3)
    for p, cells in zip(names, (("B7", "C3"), ("W10", "V14"), ("W7", "V3")), strict=True):
        add(st, p, "reactor", cells[0])
        add(st, p, "mixer", cells[1])
    st["turn"], st["phase"] = 20, 14
    return st, names


def _over(st: dict) -> dict:
    events: list[dict] = []
    rules._game_over(st, events)
    (event,) = events
    assert event["type"] == "game_over" and event["ranking"] == rules.result(st)
    return event


def test_iec_s9_the_ranking_shows_vp_and_the_tie_break_only_where_it_decided() -> None:
    st, (a, b, c) = _three()
    st["players"][a]["vp"], st["players"][b]["vp"], st["players"][c]["vp"] = 12, 12, 9
    st["buildings"]["C3"]["modules"] = 1  # a's mixer damaged: fewer intact modules than b
    event = _over(st)
    assert GAME.describe_event(st, event, T) is None  # said once, by the turn text
    text = GAME.describe_turn(st, None, T)
    assert text == (
        f"Game over after turn 20. Ranking: 1. {b}: 12 VP (10 intact modules); "
        f"2. {a}: 12 VP (9 intact modules); 3. {c}: 9 VP."
    )
    assert GAME.describe_turn(st, a, T) == text  # the same for every reader


def test_iec_s9_a_shared_place_shows_every_figure_compared() -> None:
    st, (a, b, c) = _three()
    st["players"][a]["vp"], st["players"][b]["vp"], st["players"][c]["vp"] = 5, 5, 7
    st["players"][a]["science"] = st["players"][b]["science"] = 2
    _over(st)
    assert GAME.describe_turn(st, None, T) == (
        f"Game over after turn 20. Ranking: 1. {c}: 7 VP; "
        f"2. {a}: 5 VP (10 intact modules, 2 science points); "
        f"2. {b}: 5 VP (10 intact modules, 2 science points)."
    )


def test_iec_s24_an_eliminated_company_ranks_below_with_halved_vp() -> None:
    """Corrections 1.1: the survivor wins even with fewer VP; eliminated companies rank
    among themselves by halved VP (rounded down)."""
    st, (a, b, c) = _three()
    st["turn"], st["phase"] = 7, 9
    st["players"][a]["vp"], st["players"][b]["vp"], st["players"][c]["vp"] = 1, 9, 6
    for loser in (b, c):  # no reactor left
        del st["buildings"][
            next(
                k
                for k, v in st["buildings"].items()
                if v["owner"] == loser and v["kind"] == "reactor"
            )
        ]
    events: list[dict] = []
    rules._eliminations(st, events)
    assert [e["type"] for e in events] == ["eliminated", "eliminated", "game_over"]
    assert all(GAME.describe_event(st, e, T) for e in events[:2])
    assert GAME.describe_event(st, events[-1], T) is None
    assert GAME.describe_turn(st, None, T) == (
        f"Game over in turn 7: only {a}'s company is left. Ranking: 1. {a}: 1 VP; "
        f"2. {b}: 4 VP (eliminated, halved from 9 VP); "
        f"3. {c}: 3 VP (eliminated, halved from 6 VP)."
    )


def test_every_word_of_the_result_goes_through_the_catalogs() -> None:
    class Marked:
        def gettext(self, message: str) -> str:
            return "<" + message + ">"

        def ngettext(self, singular: str, plural: str, n: int) -> str:
            return "<" + (singular if n == 1 else plural) + ">"

    st, (a, b, c) = _three()
    st["players"][a]["vp"], st["players"][b]["vp"] = 3, 3
    st["buildings"]["C3"]["modules"] = 1
    _over(st)
    assert GAME.describe_turn(st, None, Marked()) == (
        f"<Game over after turn 20. Ranking: <1. {b}: 3 VP (<10 intact modules>)>; "
        f"<2. {a}: 3 VP (<9 intact modules>)>; <3. {c}: 0 VP>.>"
    )
