"""Phase 2: auction (PG-20..PG-30, PG-D-9, PG-D-21) and the round-1 re-order (PG-17)."""

from __future__ import annotations

import pickle

import pytest

from engine.core import EnglishTranslator, IllegalAction, Reply
from engine.powergrid import GAME
from engine.powergrid.data import STEP3
from tests.engine.marking import Marking
from tests.engine.powergrid.helpers import (
    act,
    give,
    illegal,
    new_game,
    set_market,
    set_phase,
    tokens_conserved,
    types,
)

T = EnglishTranslator()
DECK = [20, 21, 22, 23, 24, 25, 26, 27, 28, STEP3]


def round2(n: int = 3, market: list[int] | None = None) -> dict:
    s = new_game(n, 1)
    set_phase(s, "auction", round_=2, order=["a", "b", "c", "d", "e", "f"][:n])
    set_market(s, market or [3, 4, 5, 6, 7, 8, 9, 10], list(DECK))
    return s


def test_pg20_chooser_opens_only_current_market_plants_at_least_their_number() -> None:
    s = round2()
    assert GAME.current_players(s) == ["a"]
    illegal(s, "a", "PG-20", type="open", plant=7, bid=7)  # future market
    illegal(s, "a", "PG-20", type="open", plant=5, bid=4)
    act(s, "a", type="open", plant=5, bid=6)
    assert s["auction"]["bid"] == 6 and s["auction"]["leader"] == "a"


def test_pg20_chooser_who_passes_takes_no_further_part() -> None:
    s = round2()
    act(s, "a", type="pass")
    assert s["players"]["a"]["passed"] and GAME.current_players(s) == ["b"]
    act(s, "b", type="open", plant=3, bid=3)
    assert "a" not in s["auction"]["bidders"]


def test_pg21_bidding_goes_clockwise_in_seat_order_from_the_chooser() -> None:
    s = round2(4)
    s["order"] = ["c", "a", "d", "b"]  # player order differs from seats a, b, c, d
    act(s, "c", type="open", plant=4, bid=4)
    assert s["auction"]["turn"] == "d"
    act(s, "d", type="raise", bid=5)
    assert s["auction"]["turn"] == "a"
    act(s, "a", type="pass")
    assert s["auction"]["turn"] == "b"


def test_pg21_raise_must_beat_the_high_bid_and_pass_is_for_this_plant_only() -> None:
    s = round2()
    act(s, "a", type="open", plant=3, bid=3)
    illegal(s, "b", "PG-21", type="raise", bid=3)
    act(s, "b", type="pass")
    act(s, "c", type="pass")
    assert 3 in s["players"]["a"]["plants"]
    # b passed on plant 3 only; he chooses now and may start another auction
    assert GAME.current_players(s) == ["b"]
    act(s, "b", type="open", plant=4, bid=4)
    assert s["auction"]["turn"] == "c"


def test_pg22_no_bid_above_own_money() -> None:
    s = round2()
    give(s, "b", money=12)
    act(s, "a", type="open", plant=3, bid=3)
    err = illegal(s, "b", "PG-22", type="raise", bid=13)
    assert "12" in err.english()
    illegal(s, "a", "PG-15", type="raise", bid=4)


def test_pgd9_bidders_who_cannot_raise_are_auto_passed() -> None:
    s = round2()
    give(s, "b", money=6)
    act(s, "a", type="open", plant=5, bid=6)
    assert "b" not in s["auction"]["bidders"] and s["auction"]["turn"] == "c"


def test_pgd9_no_auto_pass_with_hidden_money() -> None:
    s = new_game(3, 1, hidden_money="yes")
    set_phase(s, "auction", round_=2, order=["a", "b", "c"])
    give(s, "b", money=6)
    act(s, "a", type="open", plant=5, bid=6)
    assert s["auction"]["turn"] == "b"
    illegal(s, "b", "PG-22", type="raise", bid=7)


def test_pgd21_chooser_without_possible_rivals_buys_at_the_plant_number() -> None:
    s = round2()
    give(s, "b", money=5)
    give(s, "c", money=4)
    events = act(s, "a", type="open", plant=6, bid=9)
    won = next(e for e in events if e["type"] == "auction_won")
    assert won["price"] == 6 and s["players"]["a"]["money"] == 44


def test_pgd21_the_last_chooser_buys_without_an_auction_whatever_bid_he_types() -> None:
    """Round 1, 2 players: b passed on plant 3, which a bought; b, whom nobody can bid
    against, types "/bid 4 10": he buys plant 4 for 4 E, and neither the event nor its line
    speaks of an auction at 10 (found play-testing: "b puts plant 4 up for auction at 10.")."""
    s = new_game(2, 1)
    set_phase(s, "auction", round_=1, order=["a", "b"])
    set_market(s, [3, 4, 5, 6, 7, 8, 9, 10], list(DECK))
    act(s, "a", type="open", plant=3, bid=3)
    contested = act(s, "b", type="pass")
    won_by_a = next(e for e in contested if e["type"] == "auction_won")
    assert "unopposed" not in won_by_a  # a bought after bidding (PG-21): the event as before
    typed = GAME.parse(s, "b", "bid", ["4", "10"])
    assert isinstance(typed, dict)
    events = act(s, "b", **typed)
    assert "auction_opened" not in types(events)
    won = next(e for e in events if e["type"] == "auction_won")
    assert won["price"] == 4 and won["unopposed"] is True
    assert s["players"]["b"]["money"] == 46
    lines = [GAME.describe_event(s, e, T) for e in events]
    assert lines[0] == "b buys plant 4 for 4 E; no one else can bid on it (PG-D-21)."
    assert not any("up for auction" in (line or "") for line in lines)


def test_pgd21_an_opposed_opening_is_still_an_auction_at_the_bid() -> None:
    s = round2()
    events = act(s, "a", type="open", plant=5, bid=9)
    assert types(events) == ["auction_opened"]
    assert GAME.describe_event(s, events[0], T) == "a puts plant 5 up for auction at 9."


def test_pg23_one_plant_per_round() -> None:
    s = round2()
    act(s, "a", type="open", plant=3, bid=3)
    act(s, "b", type="pass")
    act(s, "c", type="pass")
    assert s["players"]["a"]["bought"]
    act(s, "b", type="open", plant=4, bid=4)
    assert "a" not in s["auction"]["bidders"]
    assert GAME.current_players(s) == ["c"]


def test_pg24_chooser_who_lost_chooses_again() -> None:
    s = round2()
    act(s, "a", type="open", plant=3, bid=3)
    act(s, "b", type="raise", bid=4)
    act(s, "c", type="pass")
    act(s, "a", type="pass")
    assert 3 in s["players"]["b"]["plants"]
    assert GAME.current_players(s) == ["a"]


def test_pg25_round_one_forbids_passing() -> None:
    s = new_game(3, 2)
    first = GAME.current_players(s)[0]
    illegal(s, first, "PG-25", type="pass")
    assert {"type": "pass"} not in GAME.legal_actions(s, first)
    # a refusal of another move names what may be sent: not /pass (found playing, 2026-12-04)
    err = illegal(s, first, "PG-14", type="done")
    assert err.english() == "You cannot do that now; the game expects /bid."


def test_pg26_fourth_plant_discards_an_old_one() -> None:
    s = round2()
    give(s, "a", plants=[11, 12, 14])
    act(s, "a", type="open", plant=3, bid=3)
    act(s, "b", type="pass")
    act(s, "c", type="pass")
    assert s["pending_discard"] == {"player": "a", "plant": 3}
    assert GAME.current_players(s) == ["a"]
    # PG-26: discard before the replacement draw and before the next choice
    assert 20 not in s["market"]
    illegal(s, "a", "PG-26", type="discard", plant=3)  # PG-D-11: not the new one
    illegal(s, "a", "PG-26", type="discard", plant=40)
    err = illegal(s, "a", "PG-14", type="open", plant=4, bid=4)
    # the refusal names the command the moment takes, not an action type ("expects: discard")
    assert err.english() == "You cannot do that now; the game expects /discard."
    events = act(s, "a", type="discard", plant=11)
    assert s["players"]["a"]["plants"] == [3, 12, 14]
    assert types(events)[:2] == ["plant_discarded", "plant_drawn"] and 20 in s["market"]


def test_pg26_two_players_may_own_four_plants() -> None:
    s = round2(2)
    give(s, "a", plants=[11, 12, 14])
    act(s, "a", type="open", plant=3, bid=3)
    act(s, "b", type="pass")
    assert s["pending_discard"] is None and len(s["players"]["a"]["plants"]) == 4


def test_pg27_resources_of_a_discarded_plant_move_or_return_to_supply() -> None:
    s = round2()
    give(s, "a", plants=[8, 10, 12], res={"coal": 8})  # 6 on 8, 2 on 10
    set_market(s, [3, 4, 5, 6, 7, 9, 13, 14], list(DECK))
    act(s, "a", type="open", plant=3, bid=3)  # oil plant: stores no coal
    act(s, "b", type="pass")
    act(s, "c", type="pass")
    supply = s["supply"]["coal"]
    act(s, "a", type="discard", plant=8)
    # 10 (coal, 4) and 12 (hybrid, 4) keep 8 coal; nothing returns
    assert s["players"]["a"]["res"]["coal"] == 8 and s["supply"]["coal"] == supply
    assert tokens_conserved(s)


def test_pg27_excess_returns_to_the_supply_not_the_market() -> None:
    s = round2()
    give(s, "a", plants=[8, 10, 11], res={"coal": 10, "uranium": 2})
    act(s, "a", type="open", plant=3, bid=3)
    act(s, "b", type="pass")
    act(s, "c", type="pass")
    market_coal, supply = s["rm"]["coal"], s["supply"]["coal"]
    act(s, "a", type="discard", plant=8)  # 10 stores 4 coal
    assert s["players"]["a"]["res"]["coal"] == 4
    assert s["supply"]["coal"] == supply + 6 and s["rm"]["coal"] == market_coal
    assert tokens_conserved(s)


def _pg27_choice() -> dict:
    """a bought oil plant 3 and must discard; without coal plant 10 his hybrid 12 is the
    only room for coal, and it competes with the oil that plant 3 cannot hold."""
    s = round2()
    give(s, "a", plants=[10, 12, 13], res={"coal": 4, "oil": 2})
    act(s, "a", type="open", plant=3, bid=3)
    act(s, "b", type="pass")
    act(s, "c", type="pass")
    give(s, "a", res={"coal": 4, "oil": 6})  # 4 coal on 10; 4 oil on 3, 2 on 12
    return s


def test_pg27_the_player_chooses_which_tokens_to_keep() -> None:
    s = _pg27_choice()
    supply = dict(s["supply"])
    events = act(s, "a", type="discard", plant=10, keep={"coal": 2, "oil": 6})
    assert s["players"]["a"]["res"]["coal"] == 2 and s["players"]["a"]["res"]["oil"] == 6
    assert s["supply"]["coal"] == supply["coal"] + 2 and s["supply"]["oil"] == supply["oil"]
    assert events[0]["returned"] == {"coal": 2} and tokens_conserved(s)
    line = GAME.describe_event(s, events[0], T)
    assert line == "a discards plant 10. 2 coal back to the supply."
    # more than the remaining plants hold, or more than he has: refused, nothing changes
    s = _pg27_choice()
    illegal(s, "a", "PG-27", type="discard", plant=10, keep={"coal": 4, "oil": 6})
    illegal(s, "a", "PG-27", type="discard", plant=10, keep={"coal": 5})
    illegal(s, "a", "PG-27", type="discard", plant=10, keep={"coal": "all"})
    # the default keeps coal first (as many tokens as fit)
    act(s, "a", type="discard", plant=10)
    assert s["players"]["a"]["res"]["coal"] == 4 and s["players"]["a"]["res"]["oil"] == 4


def test_pg27_prompt_with_buttons_and_a_default() -> None:
    s = _pg27_choice()
    buttons = GAME.buttons(s, "a")
    assert buttons[:3] == [
        ("Discard 10, keep 4 coal, 4 oil (default)", "/discard 10 keep 4 coal 4 oil"),
        ("Discard 10, keep 3 coal, 5 oil", "/discard 10 keep 3 coal 5 oil"),
        ("Discard 10, keep 2 coal, 6 oil", "/discard 10 keep 2 coal 6 oil"),
    ]
    assert ("Discard 12", "/discard 12") in buttons and ("Discard 13", "/discard 13") in buttons
    # typed without a choice: the prompt lists the options and the default
    reply = GAME.parse(s, "a", "discard", ["10"])
    assert isinstance(reply, Reply) and reply.private
    assert "PG-27" in reply.text and "(default: /discard 10 keep)" in reply.text
    assert reply.extra["choices"][2] == "/discard 10 keep 2 coal 6 oil"
    assert GAME.parse(s, "a", "discard", ["10", "keep"]) == {"type": "discard", "plant": 10}
    action = GAME.parse(s, "a", "discard", ["10", "keep", "3", "coal", "5", "oil"])
    assert action == {"type": "discard", "plant": 10, "keep": {"coal": 3, "oil": 5}}
    act(s, "a", **action)
    assert s["players"]["a"]["res"]["coal"] == 3 and s["players"]["a"]["res"]["oil"] == 5
    # no choice to make: no prompt
    s = _pg27_choice()
    assert GAME.parse(s, "a", "discard", ["13"]) == {"type": "discard", "plant": 13}


def _refused_keep() -> IllegalAction:
    """PG-27: the rules' refusal of a keep the other plants cannot store (4 coal and 6 oil
    in plants 12 and 3 with plant 10 discarded). The chat reads the words and leaves the
    check to the rules, so a bot's or a button's move is refused the same way."""
    s = _pg27_choice()
    action = GAME.parse(s, "a", "discard", ["10", "keep", "4", "coal", "6", "oil"])
    assert action == {"type": "discard", "plant": 10, "keep": {"coal": 4, "oil": 6}}
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, "a", action)
    return err.value


def test_pg27_a_keep_that_does_not_fit_is_refused_in_the_readers_words() -> None:
    """Found playing: the options came as "4 coal, 4 oil | …" for every reader (apply has no
    translator); they are now a `Worded` parameter the reader's translator words."""
    from engine.core.errors import word_params

    err = _refused_keep()
    assert err.rule_id == "PG-27"
    assert err.english() == (
        "Your other plants cannot keep those tokens; they can keep: "
        "4 coal, 4 oil | 3 coal, 5 oil | 2 coal, 6 oil."
    )
    # every count, resource and list separator
    assert word_params(Marking(), err.params)["options"] == (
        "«4 «coal»»«, »«4 «oil»» | «3 «coal»»«, »«5 «oil»» | «2 «coal»»«, »«6 «oil»»"
    )
    assert pickle.loads(pickle.dumps(err.params["options"])) == err.params["options"]


@pytest.mark.parametrize(
    ("lang", "options"),
    [
        ("ru", "уголь × 4, нефть × 4 | уголь × 3, нефть × 5 | уголь × 2, нефть × 6"),
        ("pl", "węgiel × 4, ropa × 4 | węgiel × 3, ropa × 5 | węgiel × 2, ropa × 6"),
        ("zh_Hant", "4 個燃煤、4 個石油 | 3 個燃煤、5 個石油 | 2 個燃煤、6 個石油"),
    ],
)
def test_catalogs_pg27_keep_options_in_the_readers_words(lang: str, options: str) -> None:
    from bot.i18n import explain

    refusal = explain(lang, _refused_keep())
    assert options in refusal and "coal" not in refusal


def test_pg27_the_chat_leaves_other_refusals_to_the_rules() -> None:
    """Not his discard, or the plant he just bought: the rules' reason, not PG-27's."""
    s = _pg27_choice()
    just_bought = GAME.parse(s, "a", "discard", ["3", "keep", "9", "coal"])
    assert isinstance(just_bought, dict)
    illegal(s, "a", "PG-26", **just_bought)
    s["pending_discard"] = None  # nobody is discarding now
    later = GAME.parse(s, "a", "discard", ["10", "keep", "9", "coal"])
    assert later == {"type": "discard", "plant": 10, "keep": {"coal": 9}}


def test_pg28_purchase_draws_the_top_card_and_resorts() -> None:
    s = round2(market=[3, 4, 5, 6, 7, 8, 9, 30])
    act(s, "a", type="open", plant=3, bid=3)
    act(s, "b", type="pass")
    events = act(s, "c", type="pass")
    assert "plant_drawn" in types(events)
    assert s["market"] == [4, 5, 6, 7, 8, 9, 20, 30] and s["deck"][0] == 21


def test_pg29_nobody_bought_removes_the_lowest_plant() -> None:
    s = round2()
    for p in ("a", "b", "c"):
        events = act(s, p, type="pass")
    removed = [e for e in events if e["type"] == "plant_removed"]
    assert removed[0]["plant"] == 3 and removed[0]["rule"] == "PG-29"
    assert s["market"] == [4, 5, 6, 7, 8, 9, 10, 20]
    assert s["phase"] == "resources"


def test_pg30_phase_ends_when_all_bought_or_passed() -> None:
    s = round2()
    act(s, "a", type="open", plant=3, bid=3)
    act(s, "b", type="pass")
    act(s, "c", type="pass")
    act(s, "b", type="pass")
    assert s["phase"] == "auction"
    events = act(s, "c", type="pass")
    assert s["phase"] == "resources" and "phase_ended" in types(events)


def test_pg17_round_one_order_is_recomputed_once_after_the_auction() -> None:
    s = new_game(3, 5)
    s["order"] = ["a", "b", "c"]
    set_market(s, [4, 6, 10, 11, 12, 13, 14, 15], list(DECK))
    act(s, "a", type="open", plant=4, bid=4)
    act(s, "b", type="pass")
    act(s, "c", type="pass")
    act(s, "b", type="open", plant=10, bid=10)
    act(s, "c", type="pass")
    act(s, "c", type="open", plant=6, bid=6)
    assert s["order"] == ["b", "c", "a"] and s["phase"] == "resources"
