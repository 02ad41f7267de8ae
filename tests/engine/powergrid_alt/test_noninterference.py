"""Noninterference in Power Grid (alternative rules) (issue 20): hidden money (hidden_money=yes)
and the deck order never reach the observer. The variant has no standing orders; the check
and its allowed reveals are tests/engine/powergrid/noninterference.py's."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import EnglishTranslator
from engine.powergrid_alt import GAME
from tests.engine.powergrid.noninterference import check


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_alt_hidden_money_and_deck_observer_output_depends_on_public_information_only(
    data: st.DataObject,
) -> None:
    check(data, GAME, reveal=_short_penalty)


def _short_penalty(first: list[dict[str, Any]], holder: str) -> bool:
    """ALT-36 with ALT-D-18: penalties are forced payments in public, and what the holder
    cannot pay is forgiven, so the amount he pays tells that his money fell short."""
    return (
        len(first) == 2
        and all(e.get("type") == "powered" and e.get("player") == holder for e in first)
        and {k: v for k, v in first[0].items() if not k.startswith("penalty")}
        == {k: v for k, v in first[1].items() if not k.startswith("penalty")}
    )


def test_alt_buttons_in_the_group_do_not_depend_on_hidden_money() -> None:
    """The prompt's buttons are posted in the group: with hidden_money=yes they are the same
    whatever the prompted player holds (found by the check above: no /bid buttons at 0 E)."""
    state = GAME.setup(["p0", "p1", "p2"], {"hidden_money": "yes"}, 0)
    while GAME.current_players(state) and _expected(state) != "choose_plant":
        p = GAME.current_players(state)[0]
        state, _ = GAME.apply(state, p, GAME.legal_actions(state, p)[0])
    player = GAME.current_players(state)[0]
    shown = []
    for money in (0, 3, 30, 120):
        state["players"][player]["money"] = money
        shown.append(GAME.buttons(state, player, EnglishTranslator()))
    assert all(b == shown[-1] for b in shown) and any(c.startswith("/bid") for _, c in shown[0])


def _expected(state: dict[str, Any]) -> str:
    return str(GAME.view(state, None).get("expected", ""))
