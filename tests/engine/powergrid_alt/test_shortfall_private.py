"""Rules version 2: a declared purchase the market or the money no longer covers when it is
carried out (PG-32, ALT-12) is cut; the group reads only what was bought, and the shortfall
("wanted 2") goes to the buyer alone: his declaration is secret (purchase.py) and, under the
`hidden_money` option, the shortfall would bound his money (PG-9, PG-22). Found playing: the
group line said "ann buys 1 oil for 3 E onto plant 3. (wanted 2: ...)"."""

from __future__ import annotations

import pytest

from engine.core import EnglishTranslator, Reply, canonical_json
from engine.core.applied import event_owner
from engine.powergrid_alt import GAME
from tests.engine.powergrid_alt.helpers import act, give_plant, money, new_game, set_phase

_EN = EnglishTranslator()


def _resolved(hidden: str, coal: int) -> tuple[dict, list[dict]]:
    """c (first to resolve, PG-31) declares 4 coal of the market's `coal`; a declared 3."""
    state = new_game(3, rules_version="2", hidden_money=hidden)
    set_phase(state, "resources", order=["a", "b", "c"])
    give_plant(state, "a", 4, "Kiel")
    give_plant(state, "b", 10, "Hamburg")
    give_plant(state, "c", 8, "Berlin")
    money(state, "a", 100)
    act(state, "c", {"type": "buy", "resource": "coal", "count": 4, "plant": 8})
    state["rm"]["coal"] = coal
    act(state, "a", {"type": "buy", "resource": "coal", "count": 3, "plant": 4})
    act(state, "a", {"type": "done"})
    act(state, "b", {"type": "done"})
    events = act(state, "c", {"type": "done"})
    return state, events


@pytest.mark.parametrize("hidden", ["yes", "no"])
def test_pg9_pg22_a_cut_purchase_says_only_what_was_bought_in_the_group(hidden: str) -> None:
    state, events = _resolved(hidden, 5)
    (bought,) = [e for e in events if e["type"] == "resources_bought" and e["player"] == "a"]
    assert bought["count"] == 1 and bought["wanted"] == 3
    assert event_owner(bought) == "a"
    public = GAME.describe_event(state, bought, _EN)
    assert public is not None and "wanted" not in public and "3" not in public.split("for")[0]
    assert public.startswith("a buys 1 coal for")
    mine = GAME.describe_private_event(state, bought, _EN)
    assert mine == "You wanted 3 coal onto plant 4; the market or your money covered only 1."


@pytest.mark.parametrize("hidden", ["yes", "no"])
def test_pg9_a_declaration_nothing_of_which_was_bought_has_no_group_line(hidden: str) -> None:
    state, events = _resolved(hidden, 4)  # c leaves a no coal
    (short,) = [e for e in events if e["type"] == "purchase_short"]
    assert short["player"] == "a" and event_owner(short) == "a"
    assert not GAME.describe_event(state, short, _EN)
    assert GAME.describe_private_event(state, short, _EN) == (
        "You wanted 3 coal onto plant 4, but the market or your money ran short: nothing bought."
    )


@pytest.mark.parametrize("coal", [4, 5])
def test_pg9_the_views_of_others_do_not_tell_the_shortfall(coal: int) -> None:
    """Nobody but a reads in the log how much a wanted (a's view keeps his shortfall)."""
    state, _ = _resolved("yes", coal)
    for viewer in ("b", "c", None):
        log = GAME.view(state, viewer)["log"]
        assert not any("wanted" in e or e["type"] == "purchase_short" for e in log)
        assert "private_to" not in canonical_json(log)
    mine = GAME.view(state, "a")["log"]
    assert any("wanted" in e for e in mine)


def test_pg22_alt12_a_purchase_cut_by_money_is_told_to_the_buyer_alone() -> None:
    """a declares 3 coal with just the money they cost now; c, resolving first (PG-31), buys
    the cheap ones, so a can pay only 2 at the prices left (PG-32): the group reads "a buys
    2 coal", not that his money ran out (PG-9 option: hidden)."""
    state = new_game(3, rules_version="2", hidden_money="yes")
    set_phase(state, "resources", order=["a", "b", "c"])
    give_plant(state, "a", 4, "Kiel")
    give_plant(state, "c", 8, "Berlin")
    quote = GAME.parse(state, "a", "price", ["coal", "3"])
    assert isinstance(quote, Reply)
    price = quote.extra["quote"]["total"]
    money(state, "a", price)
    act(state, "a", {"type": "buy", "resource": "coal", "count": 3, "plant": 4})
    act(state, "c", {"type": "buy", "resource": "coal", "count": 3, "plant": 8})
    events = [e for name in ("a", "b", "c") for e in act(state, name, {"type": "done"})]
    (bought,) = [e for e in events if e["type"] == "resources_bought" and e["player"] == "a"]
    assert 0 < bought["count"] < 3 and bought["price"] <= price
    public = GAME.describe_event(state, bought, _EN)
    assert public == f"a buys {bought['count']} coal for {bought['price']} E onto plant 4."
    assert GAME.describe_private_event(state, bought, _EN) == (
        f"You wanted 3 coal onto plant 4; the market or your money covered only {bought['count']}."
    )
