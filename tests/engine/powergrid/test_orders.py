"""Standing orders (issue 12) and the simultaneous bureaucracy: same outcomes, fewer prompts."""

from __future__ import annotations

import copy
import json
from typing import Any

from engine.core import EnglishTranslator, IllegalAction, Rng, canonical_json, replay
from engine.core.errors import Term
from engine.core.protocol import Reply
from engine.core.rng import new_rng_state
from engine.powergrid import GAME, bots, commands, event_text, orders
from engine.powergrid.data import income_for
from engine.powergrid.rules import build_options
from tests.engine.marking import Marking
from tests.engine.powergrid.helpers import (
    NAMES,
    act,
    all_regions,
    give,
    illegal,
    new_game,
    set_market,
    set_phase,
    types,
)

State = dict[str, Any]
T = EnglishTranslator()


def auction_round2(money: dict[str, int] | None = None) -> State:
    s = set_phase(all_regions(new_game(3, 1)), "auction", order=["a", "b", "c"])
    set_market(s, [10, 11, 12, 13, 20, 21, 22, 23], [30, 31, 32])
    for name, amount in (money or {"a": 60, "b": 60, "c": 60}).items():
        give(s, name, money=amount)
    return s


def winner(events: list[dict[str, Any]]) -> tuple[str, int]:
    won = next(e for e in events if e["type"] == "auction_won")
    return won["player"], won["price"]


def without_orders(s: State) -> str:
    """The state apart from the orders bookkeeping (orders and the short public log)."""
    rest = {k: v for k, v in s.items() if k not in ("orders", "log")}
    return canonical_json(rest)


# ------------------------------------------------------------------ proxy bidding


def _manual_auction(s: State, limits: dict[str, int], opener: str, plant: int) -> list[dict]:
    """Humans who raise by the minimum step while their limit allows, else pass."""
    events = act(s, opener, type="open", plant=plant, bid=plant)
    while s["auction"] is not None:
        name = s["auction"]["turn"]
        bid = s["auction"]["bid"] + 1
        if bid <= limits[name]:
            events = act(s, name, type="raise", bid=bid)
        else:
            events = act(s, name, type="pass")
    return events


def test_proxy_bids_give_the_winner_and_price_of_scripted_manual_bidding() -> None:
    for limits in ({"a": 25, "b": 22, "c": 18}, {"a": 14, "b": 30, "c": 21}):
        manual = auction_round2()
        manual_events = _manual_auction(manual, limits, "a", 13)
        proxy = auction_round2()
        act(proxy, "a", type="open", plant=13, bid=13, max=limits["a"])
        act(proxy, "c", type="order", kind="maxbid", plant=13, limit=limits["c"])  # off turn
        events = act(proxy, "b", type="order", kind="maxbid", plant=13, limit=limits["b"])
        assert proxy["auction"] is None and "orders" not in proxy  # nobody was asked again
        assert winner(events) == winner(manual_events)
        assert without_orders(proxy) == without_orders(manual)
        assert all(e.get("by_order") for e in events if e["type"] in ("bid", "passed"))


def test_pg21_equal_limits_go_to_the_earlier_bid_whatever_the_parity() -> None:
    for opening in (10, 11):  # both parities of the minimum-step race
        s = auction_round2()
        act(s, "a", type="open", plant=10, bid=opening, max=20)  # placed first
        events = act(s, "b", type="order", kind="maxbid", plant=10, limit=20)
        if s["auction"] is not None:
            events = act(s, "c", type="pass")
        assert winner(events)[0] == "a"
        assert winner(events)[1] in (19, 20)
        assert s["players"]["b"]["plants"] == []


def test_pg22_a_limit_above_the_money_is_refused_and_changes_nothing() -> None:
    s = auction_round2({"a": 60, "b": 15, "c": 60})
    act(s, "a", type="open", plant=13, bid=13)
    illegal(s, "b", "PG-22", type="order", kind="maxbid", plant=13, limit=16)  # off turn
    illegal(s, "b", "PG-22", type="raise", bid=14, max=16)  # on turn
    illegal(s, "c", "PG-21", type="order", kind="maxbid", plant=13, limit=13)
    illegal(s, "c", "PG-21", type="order", kind="maxbid", plant=12, limit=30)


def test_pass_plant_passes_when_the_turn_arrives_and_only_on_that_plant() -> None:
    s = auction_round2()
    act(s, "a", type="open", plant=13, bid=13)
    act(s, "c", type="order", kind="pass_plant", plant=13)
    events = act(s, "b", type="raise", bid=14)  # c's turn: the order passes for c
    assert {"type": "passed", "player": "c"}.items() <= next(
        e for e in events if e["type"] == "passed"
    ).items()
    assert GAME.current_players(s) == ["a"]
    act(s, "a", type="pass")
    assert s["players"]["b"]["plants"] == [13] and "orders" not in s


def test_pass_round_passes_whenever_asked_in_this_rounds_auction_only() -> None:
    s = auction_round2()
    act(s, "c", type="order", kind="pass_round")
    act(s, "a", type="open", plant=13, bid=13)
    assert GAME.current_players(s) == ["b"]
    events = act(s, "b", type="raise", bid=14)  # c passes on 13 by order, a is asked
    assert GAME.current_players(s) == ["a"]
    events = act(s, "a", type="pass")  # b wins; a chooses again
    events = act(s, "a", type="pass")  # a passes the phase; c would choose: order passes
    assert s["players"]["c"]["passed"] and s["phase"] == "resources"
    assert "orders" not in s and any(e.get("by_order") for e in events)
    round1 = new_game(3, 1)
    illegal(round1, "a", "PG-25", type="order", kind="pass_round")


# ------------------------------------------------------------------ orders checked again


def build_phase() -> State:
    s = all_regions(new_game(3, 1))
    set_phase(s, "build", order=["a", "b", "c"])  # c builds first, then b, then a
    give(s, "c", cities=["Kiel"], money=50)
    give(s, "b", cities=[], money=50)
    return s


def test_build_plan_skips_a_full_city_tells_only_its_owner_and_keeps_the_turn() -> None:
    s = build_phase()
    act(s, "b", type="order", kind="build_plan", cities=["Flensburg"])  # off turn
    act(s, "c", type="build", city="Flensburg")  # now full in Step 1
    before = copy.deepcopy(s)
    events = act(s, "c", type="done")  # b's turn: the plan is checked again
    dropped = [e for e in events if e["type"] == "order_dropped"]
    assert len(dropped) == 1 and dropped[0]["player"] == "b" and dropped[0]["private"]
    assert dropped[0]["rule"] == "PG-38"
    assert s["players"]["b"] == before["players"]["b"] and s["cities"] == before["cities"]
    assert GAME.current_players(s) == ["b"] and "orders" not in s  # b decides again
    assert any(e["type"] == "order_dropped" for e in GAME.view(s, "b")["log"])
    assert not any(e["type"] == "order_dropped" for e in GAME.view(s, "a")["log"])
    assert not any(e["type"] == "order_dropped" for e in GAME.view(s, None)["log"])
    # issue 20: no public line at all; the owner's private line names no city.
    assert commands.describe_event(s, dropped[0], commands._ENGLISH) is None
    line = commands.describe_private_event(s, dropped[0], commands._ENGLISH)
    assert line and "Flensburg" not in line and "b" in line
    reply = commands.parse(s, "b", "orders", [])
    assert isinstance(reply, Reply) and reply.private and "full" in reply.text


def test_build_plan_skips_an_unaffordable_city_and_builds_the_rest() -> None:
    s = build_phase()
    give(s, "b", money=12)
    act(s, "b", type="order", kind="build_plan", cities=["Hamburg", "München"])
    events = act(s, "c", type="done")
    assert [e["city"] for e in events if e["type"] == "city_built"] == ["Hamburg"]
    dropped = next(e for e in events if e["type"] == "order_dropped")
    assert dropped["rule"] == "PG-37" and dropped["params"]["city"] == "München"
    assert s["players"]["b"]["money"] == 2 and GAME.current_players(s) == ["b"]


def test_a_dropped_orders_reason_words_its_terms_for_the_reader() -> None:
    """The event is JSON, where a `Term` is a plain string: the event names its terms so
    the owner's line says «coal» in his language, not the English word."""
    event = {
        "type": "order_dropped",
        "player": "b",
        "round": 3,
        "reason_key": "No {resource} left.",
        "params": {"resource": "coal", "city": "Essen"},
        "terms": ["resource"],
    }
    s = build_phase()
    err = IllegalAction("PG-29", "No {resource} left.", resource=Term("coal"), city="Essen")
    told: list[dict[str, Any]] = []
    orders._tell(s, told, "b", "build_plan", err)
    assert told[0]["terms"] == ["resource"] and told[0]["params"]["resource"] == "coal"
    line = event_text.order_dropped_private(event, Marking())
    assert "«coal»" in line and "«Essen»" not in line
    assert event_text.order_dropped_private({**event, "terms": []}, Marking()).count("«coal»") == 0


def test_build_plan_fully_built_ends_the_turn_by_order() -> None:
    s = build_phase()
    act(s, "b", type="order", kind="build_plan", cities=["Hamburg"])
    events = act(s, "c", type="done")
    built = next(e for e in events if e["type"] == "city_built")
    assert built["by_order"] and GAME.current_players(s) == ["a"]


def test_buy_auto_fills_one_run_cheapest_first_within_the_limit() -> None:
    s = set_phase(new_game(3, 1), "resources", order=["a", "b", "c"])
    give(s, "c", plants=[4, 5], money=50)  # coal 2, hybrid 2: 4 coal at 1,1,1,2
    give(s, "b", plants=[7], money=50)
    assert orders.auto_buys(s, "c", None) == [("coal", 4)]
    assert orders.auto_buys(s, "c", 3) == [("coal", 3)]
    act(s, "b", type="order", kind="buy_auto", limit=100)
    events = act(s, "c", type="order", kind="buy_auto", limit=3)
    assert [(e["player"], e["count"]) for e in events if e["type"] == "resources_bought"] == [
        ("c", 3),
        ("b", 3),
    ]
    assert GAME.current_players(s) == ["a"]
    assert s["orders"]["b"]["buy_auto"] == {"limit": 100}  # standing: stays for next round


def test_buy_auto_with_nothing_to_buy_says_so_in_public_without_money() -> None:
    """Issue 20: the order ends the turn with a public line, never the reason (PG-22)."""
    lines = []
    for money, limit in ((0, None), (80, 0), (3, 50)):
        s = set_phase(new_game(3, 1), "resources", order=["a", "b", "c"])
        s["hidden_money"] = True
        give(s, "c", plants=[4], money=50)
        give(s, "b", plants=[7], money=money)
        act(s, "b", type="order", kind="buy_auto", limit=limit)
        if money == 3:  # fuel for one run already held: nothing is missing
            s["players"]["b"]["res"]["oil"] = 3
        events = act(s, "c", type="done")
        mine = [e for e in events if e.get("player") == "b"]
        assert [e["type"] for e in mine] == ["bought_nothing"], mine
        assert GAME.current_players(s) == ["a"]
        line = GAME.describe_event(s, mine[0], T)
        lines.append(line)
        assert line == "b buys nothing. (standing order)"
        assert "E" not in line.replace("(standing order)", "")
        log = [e for e in GAME.view(s, "a")["log"] if e["type"] == "bought_nothing"]
        assert log and "money" not in log[-1] and "limit" not in log[-1]
    assert len(set(lines)) == 1  # the same words whatever kept him from buying


# ------------------------------------------------------------------ privacy, restart


def test_nobody_elses_view_or_turn_text_shows_a_limit_or_an_order() -> None:
    s = auction_round2()
    act(s, "a", type="open", plant=13, bid=13, max=29)
    act(s, "c", type="order", kind="maxbid", plant=13, limit=27)
    act(s, "c", type="order", kind="build_plan", cities=["Kiel"])
    for viewer in ("b", None):
        text = json.dumps(GAME.view(s, viewer))
        assert "29" not in text and "27" not in text and "Kiel" not in text
        turn = commands.describe_turn(s, viewer)
        assert "29" not in turn and "27" not in turn and "standing" not in turn
    assert GAME.view(s, "c")["orders"]["maxbid"] == {"plant": 13, "limit": 27}
    assert "up to 27 E" in commands.describe_turn(s, "c")
    assert "29" not in commands.describe_turn(s, "c")


def test_orders_survive_a_json_round_trip_and_replay_from_the_log() -> None:
    players = NAMES[:4]
    s = GAME.setup(players, {}, 5)
    rng = Rng(new_rng_state(5))
    log: list[tuple[str, dict]] = []
    for _ in range(400):
        player = GAME.current_players(s)[0]
        action = bots.random_order(s, player, rng) if rng.below(3) == 0 else None
        if action is None or s["phase"] in ("regions", "over"):
            action = bots.heuristic_bot(s, player, rng)
        GAME.apply(s, player, action)
        log.append((player, json.loads(json.dumps(action))))
        text = canonical_json(s)
        assert canonical_json(json.loads(text)) == text
        if GAME.is_over(s):
            break
    assert any(a["type"] == "order" for _, a in log)
    assert canonical_json(replay(GAME, players, {}, 5, log)) == canonical_json(s)


# ------------------------------------------------------------------ bureaucracy


def test_simultaneous_bureaucracy_equals_sequential_pg42_in_any_declaration_order() -> None:
    def phase5() -> State:
        s = set_phase(new_game(3, 1), "bureaucracy", order=["b", "c", "a"])
        give(s, "a", plants=[4, 13], res={"coal": 2}, cities=["Kiel", "Hamburg"])
        give(s, "b", plants=[5], res={"coal": 1, "oil": 3}, cities=["Bremen"])
        give(s, "c", plants=[7], res={"oil": 3}, cities=["Berlin", "Halle", "Leipzig"])
        return s

    plan = {"a": [4, 13], "b": [5], "c": [7]}
    results = []
    for declared in (["a", "b", "c"], ["c", "a", "b"], ["b", "c", "a"]):
        s = phase5()
        money = {p: s["players"][p]["money"] for p in "abc"}
        for p in declared:
            events = act(s, p, type="power", plants=plan[p])
        powered = [e for e in events if e["type"] == "powered"]
        assert [e["player"] for e in powered] == ["b", "c", "a"]  # PG-42: player order
        expected = {"a": 2, "b": 1, "c": 2}
        for e in powered:
            assert e["cities"] == expected[e["player"]]
            assert s["players"][e["player"]]["money"] == money[e["player"]] + income_for(
                expected[e["player"]]
            )
        results.append((canonical_json(s), [e for e in events if e["type"] != "power_declared"]))
    assert all(r == results[0] for r in results)


def test_power_auto_is_what_power_without_plants_would_do() -> None:
    compared = 0
    for seed in (3, 4):
        s = GAME.setup(NAMES[:4], {}, seed)
        rng = Rng(new_rng_state(seed))
        while not GAME.is_over(s) and s["round"] < 8:
            player = GAME.current_players(s)[0]
            if s["phase"] == "bureaucracy":
                parsed = commands.parse(s, player, "power", [])
                assert orders.auto_power(s, player) == parsed
                compared += 1
            GAME.apply(s, player, bots.heuristic_bot(s, player, rng))
    assert compared > 20


def test_power_auto_declares_at_once_so_only_the_others_are_asked() -> None:
    s = set_phase(new_game(3, 1), "build", order=["a", "b", "c"])
    act(s, "b", type="order", kind="power_auto")
    for p in ("c", "b"):
        act(s, p, type="done")
    events = act(s, "a", type="done")
    assert s["phase"] == "bureaucracy" and GAME.current_players(s) == ["a", "c"]
    assert next(e for e in events if e["type"] == "power_declared")["by_order"]


# ------------------------------------------------------------------ the whole game


def _limit(s: State, player: str, plant: int) -> int | None:
    """A deterministic, seat-distinct limit (no equal limits, so no tie rule is involved)."""
    raw = plant + 2 + 3 * s["seats"].index(player)
    return raw if raw <= s["players"][player]["money"] else None


def _plan(s: State, player: str) -> list[str]:
    return [c for c, _ in build_options(s, player)[:2]]


def _play(seed: int, use_orders: bool) -> tuple[State, int]:
    s = GAME.setup(NAMES[:4], {"regions": "random"}, seed)  # from the first auction on
    rng = Rng(new_rng_state(seed))
    prompts = 0
    seen: set[tuple[int, Any]] = set()
    plans: dict[str, list[str]] = {}
    if use_orders:
        for p in NAMES[:4]:
            act(s, p, type="order", kind="buy_auto")
            act(s, p, type="order", kind="power_auto")
    while not GAME.is_over(s) and s["round"] <= 6:
        auction = s["auction"]
        if use_orders and auction is not None and (s["round"], auction["plant"]) not in seen:
            seen.add((s["round"], auction["plant"]))
            for p in list(auction["bidders"]):
                if s["auction"] is None or p == s["auction"]["leader"]:
                    continue
                if p not in s["auction"]["bidders"]:
                    continue
                limit = _limit(s, p, auction["plant"])
                if limit is not None and limit > s["auction"]["bid"]:
                    act(s, p, type="order", kind="maxbid", plant=auction["plant"], limit=limit)
                else:
                    act(s, p, type="order", kind="pass_plant", plant=auction["plant"])
            continue
        if s["phase"] == "build" and (s["round"], "build") not in seen:
            seen.add((s["round"], "build"))
            plans = {p: _plan(s, p) for p in NAMES[:4]}  # decided when the phase starts
            if use_orders:
                for p in s["order"][::-1]:
                    if s["phase"] == "build" and not s["players"][p]["done"]:
                        act(s, p, type="order", kind="build_plan", cities=plans[p])
                continue
        player = GAME.current_players(s)[0]
        prompts += 1
        want = s["phase"] if s["phase"] != "auction" else None
        if s["phase"] == "auction":
            if s["pending_discard"] is not None:
                act(s, player, **bots.heuristic_bot(s, player, rng))
            elif s["auction"] is None:
                action = bots.heuristic_bot(s, player, rng)
                limit = _limit(s, player, action.get("plant", 0))
                if use_orders and action["type"] == "open" and limit and limit > action["bid"]:
                    action["max"] = limit
                act(s, player, **action)
            else:
                limit = _limit(s, player, s["auction"]["plant"])
                bid = s["auction"]["bid"] + 1
                if limit is not None and bid <= limit:
                    act(s, player, type="raise", bid=bid)
                else:
                    act(s, player, type="pass")
        elif want == "resources":
            for resource, count in orders.auto_buys(s, player, None):
                act(s, player, type="buy", resource=resource, count=count)
            act(s, player, type="done")
        elif want == "build":
            if not use_orders:
                for city in plans[player]:
                    try:
                        act(s, player, type="build", city=city)
                    except Exception:  # the same check the order makes: skip it
                        continue
            act(s, player, type="done")
        else:
            act(s, player, **orders.auto_power(s, player))
    return s, prompts


def test_same_decisions_manual_or_as_orders_give_the_same_state_with_fewer_prompts() -> None:
    for seed in (1, 2, 3):
        manual, asked_manual = _play(seed, use_orders=False)
        ordered, asked_orders = _play(seed, use_orders=True)
        assert without_orders(ordered) == without_orders(manual), seed
        assert asked_orders * 2 < asked_manual, (asked_orders, asked_manual)


def test_cancel_removes_orders_and_refuses_when_there_is_none() -> None:
    s = auction_round2()
    act(s, "b", type="order", kind="buy_auto", limit=10)
    act(s, "b", type="order", kind="power_auto")
    events = act(s, "b", type="cancel", kinds=["buy_auto"])
    assert types(events) == ["orders_cancelled"] and set(s["orders"]["b"]) == {"power_auto"}
    act(s, "b", type="cancel", kinds=[])
    assert "orders" not in s
    illegal(s, "b", "PG-O", type="cancel", kinds=[])
    illegal(s, "b", "PG-O", type="order", kind="teleport")


# ------------------------------------------------------------------ the owner's lines (PG-O)


def owners_line(s: State, event: dict[str, Any], t: Any = T) -> str:
    line = GAME.describe_private_event(s, event, t)
    assert line is not None and GAME.describe_event(s, event, t) is None  # his alone
    return line


def test_pg_o_placing_an_order_tells_its_owner_which_order_in_the_second_person() -> None:
    """Found playing: bob alone read "bob leaves a standing order.", which said nothing."""
    s = auction_round2()
    act(s, "a", type="open", plant=13, bid=13)
    hint = " /orders lists yours, /cancel takes one back."
    placed = {
        "maxbid": act(s, "c", type="order", kind="maxbid", plant=13, limit=20),
        "pass_round": act(s, "b", type="order", kind="pass_round"),
        "buy_auto": act(s, "c", type="order", kind="buy_auto", limit=30),
        "build_plan": act(s, "c", type="order", kind="build_plan", cities=["Berlin", "Kiel"]),
        "power_auto": act(s, "c", type="order", kind="power_auto"),
    }
    said = {kind: owners_line(s, events[0]) for kind, events in placed.items()}
    assert said == {
        "maxbid": "Your standing order: bid on plant 13 up to 20 E." + hint,
        "pass_round": "Your standing order: pass for this auction round." + hint,
        "buy_auto": "Your standing order: buy fuel for one run automatically, up to 30 E." + hint,
        "build_plan": "Your standing order: build Berlin, Kiel on your turn." + hint,
        "power_auto": "Your standing order: power the most cities automatically." + hint,
    }
    # every word through the reader's catalog (the money too)
    assert owners_line(s, placed["maxbid"][0], Marking()) == (
        "«Your standing order: «bid on plant 13 up to «20 E»». /orders lists yours, /cancel "
        "takes one back.»"
    )


def test_pg_o_an_old_order_event_names_the_order_as_placed_not_as_it_is_now() -> None:
    """The log shows old events against the current state: the event carries the order."""
    s = auction_round2()
    act(s, "a", type="open", plant=13, bid=13)
    first = act(s, "c", type="order", kind="maxbid", plant=13, limit=20)[0]
    act(s, "c", type="order", kind="maxbid", plant=13, limit=25)  # replaces it
    act(s, "c", type="order", kind="build_plan", cities=["Kiel"])
    assert "up to 20 E" in owners_line(s, first)
    gone = act(s, "c", type="cancel", kinds=[])[0]
    assert "orders" not in s  # nothing left in the book: the line still names them
    assert owners_line(s, gone) == (
        "You cancel your standing orders: bid on plant 13 up to 25 E; build Kiel on your turn."
    )
    act(s, "b", type="order", kind="buy_auto", limit=None)
    one = act(s, "b", type="cancel", kinds=["buy_auto"])[0]
    assert owners_line(s, one) == (
        "You cancel your standing order: buy fuel for one run automatically."
    )
    assert "up to 20 E" in owners_line(s, first)


def test_pg_o_an_order_event_logged_without_its_orders_still_reads_in_the_second_person() -> None:
    """Events stored before they carried `orders`."""
    s = auction_round2()
    placed = {"type": "order_placed", "round": 2, "player": "c", "order": "maxbid"}
    cancelled = {"type": "orders_cancelled", "round": 2, "player": "c", "kinds": ["maxbid"]}
    both = {**cancelled, "kinds": ["maxbid", "buy_auto"]}
    assert [owners_line(s, {**e, "private": True}) for e in (placed, cancelled, both)] == [
        "You leave a standing order. /orders lists yours, /cancel takes one back.",
        "You cancel 1 standing order.",
        "You cancel 2 standing orders.",
    ]


def test_pg_o_only_the_owner_sees_what_his_order_event_carries() -> None:
    """PG-22 / issue 20: the limit and the plan in the private events reach nobody else's
    view (view.py filters private entries), nor the table's lines."""
    s = auction_round2()
    act(s, "a", type="open", plant=13, bid=13)
    act(s, "c", type="order", kind="maxbid", plant=13, limit=27)
    plan = act(s, "c", type="order", kind="build_plan", cities=["Kiel"])[0]
    plan["orders"]["build_plan"]["cities"].append("Berlin")  # the event shares nothing
    assert GAME.view(s, "c")["orders"]["build_plan"] == {"cities": ["Kiel"]}
    plan["orders"]["build_plan"]["cities"].pop()
    act(s, "c", type="cancel", kinds=["build_plan"])
    for viewer in ("a", "b", None):
        seen = GAME.view(s, viewer)
        text = json.dumps(seen)
        assert "27" not in text and "Kiel" not in text and seen["orders"] == {}
        assert not [e for e in seen["log"] if e.get("private") or "orders" in e]
    lines = [GAME.describe_event(s, e, T) or "" for e in s["log"]]  # the table's lines
    assert not [line for line in lines if "27" in line or "Kiel" in line]
    mine = [e for e in GAME.view(s, "c")["log"] if e.get("private")]
    assert [e["orders"] for e in mine] == [
        {"maxbid": {"plant": 13, "limit": 27}},
        {"build_plan": {"cities": ["Kiel"]}},
        {"build_plan": {"cities": ["Kiel"]}},
    ]


def test_pg_o_a_max_typed_on_his_own_turn_is_confirmed_to_him_alone() -> None:
    """Found playing, 2026-12-03: `/bid 13 13 max=25` on his turn set the proxy (PG-21) and
    told him nothing, where the same limit left off turn was confirmed. Now both are."""
    s = auction_round2()
    opened = act(s, "a", type="open", plant=13, bid=13, max=25)
    (mine,) = [e for e in opened if e.get("private")]
    assert owners_line(s, mine).startswith("Your standing order: bid on plant 13 up to 25 E.")
    raised = act(s, "b", type="raise", bid=14, max=30)
    (his,) = [e for e in raised if e.get("private")]
    assert his["player"] == "b" and his["orders"] == {"maxbid": {"plant": 13, "limit": 30}}
    for viewer in ("c", None):  # PG-22: nobody else sees a limit
        seen = GAME.view(s, viewer)
        assert '"limit"' not in json.dumps(seen) and seen["orders"] == {}
        assert not [e for e in seen["log"] if e.get("private")]
