"""Power Grid words its turn and its buttons from views (`view_speaks`, issue 23): the table
builds one public view per move and asks everything of it. The buttons come from the public
view; before, they came from the player's own view with his money masked under hidden money
(issue 20). Both must give the same buttons in every position, and nothing may write into
the shared view."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import Rng, canonical_json
from engine.core.protocol import EnglishTranslator
from engine.core.rng import new_rng_state
from engine.powergrid.buttons import buttons_for
from engine.powergrid.game import PowerGrid
from engine.powergrid.turn_text import turn_text
from engine.powergrid.view import view

GAME = PowerGrid()
T = EnglishTranslator()


def _masked_own_view_buttons(state: dict[str, Any], player: str) -> list[tuple[str, str]]:
    """The buttons as they were worked out before: his own view, his money hidden when
    hidden money is on (PG-9)."""
    own = view(state, player)
    if state.get("hidden_money") and player in own["players"]:
        own["players"][player] = {**own["players"][player], "money": None}
    return buttons_for(own, player, T)


@pytest.mark.parametrize(
    "seed, options",
    [
        (1, {"hidden_money": "yes"}),
        (2, {"regions": "choose"}),
        (3, {"map": "usa", "hidden_money": "yes", "regions": "choose"}),
    ],
)
def test_public_view_gives_each_players_buttons_and_the_turn(
    seed: int, options: dict[str, str]
) -> None:
    players = ["ann", "bob", "cyd", "dan"][: 2 + seed]
    defaults = {o.key: o.default for o in GAME.options}
    state = GAME.setup(players, {**defaults, **options}, seed)
    chooser = Rng(new_rng_state(seed))
    asked = 0
    while not GAME.is_over(state):
        public = GAME.view(state, None)
        before = canonical_json(public)
        assert GAME.describe_turn_in(public, None, T) == turn_text(view(state, None), None, T)
        assert GAME.describe_turn(state, "ann", T) == turn_text(view(state, "ann"), "ann", T)
        for player in players:
            found = GAME.buttons_in(public, player, T)
            assert found == _masked_own_view_buttons(state, player)
            assert found == GAME.buttons(state, player, T)
            asked += bool(found)
        assert canonical_json(public) == before  # the one view of the move stays as built
        player = GAME.current_players(state)[0]
        state, _ = GAME.apply(state, player, chooser.choice(GAME.legal_actions(state, player)))
    assert asked > 100
