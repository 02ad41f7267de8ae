"""Standing orders (issue 12): fewer round trips in asynchronous play, same outcome.

An order is a decision taken in advance. It lives in the state (`state["orders"]`, present
only while somebody holds one), arrives through the action log like any move, and is
carried out inside `apply`: whenever the turn passes to a player whose order covers it,
the engine performs exactly the actions that player could have sent, and marks their
events `"by_order": true`. So `current_players` never names a player whose order will act.

    state["orders"][player] = {
        "maxbid":     {"plant": 13, "limit": 20, "seq": 1},  # proxy bid on this auction
        "pass_plant": {"plant": 13},                         # pass on this auction
        "pass_round": {},                                    # pass in this round's Phase 2
        "buy_auto":   {"limit": 30 | None},                  # standing: fuel for one run
        "build_plan": {"cities": ["Berlin", ...]},           # next build turn ([]: none)
        "power_auto": {},                                    # standing: best /power
    }

Actions (any seated player, at any time): `{"type": "order", "kind": ..., ...fields}` and
`{"type": "cancel", "kinds": [...]}` (empty: all). Bids may carry `"max"` (rules.py).

Orders are checked again when they act. A proxy bid raises by the minimum step while its
limit (and PG-22, the money) allows, then passes. Between equal limits the earlier order
wins, as the earlier of two equal calls would in a live auction: the later one stops one
short. A build plan skips a city that became full, unreachable or unaffordable and tells
its owner (`order_dropped`, private); when it skipped one, the turn stays open so the
owner may build elsewhere. Private events are shown in the view to their owner only.
"""

from __future__ import annotations

from typing import Any

from engine.core import N_, IllegalAction, Listed
from engine.core.errors import Term, Worded
from engine.powergrid import market as mk
from engine.powergrid import rules
from engine.powergrid.bureaucracy import cheapest_run, power_action
from engine.powergrid.data import HOUSES, RESOURCES, game_map
from engine.powergrid.rules import Action, Event, State

KINDS = ("maxbid", "pass_plant", "pass_round", "buy_auto", "build_plan", "power_auto")
RULE = "PG-O"  # standing orders: performed as their owner's own moves (CONTRACT.md)
MAX_ORDER_STEPS = 1000  # orders always make progress; this only bounds a defect


# ===================================================================== placing


def apply_order(state: State, player: str, action: Action) -> tuple[State, list[Event]]:
    """`apply` for "order" and "cancel": validate, store, then let due orders act."""
    if player not in state["players"]:
        raise IllegalAction("PG-7", N_("You are not playing in this game."))
    events: list[Event] = []
    if action["type"] == "cancel":
        _cancel(state, player, action, events)
    else:
        kind = action.get("kind")
        check = _CHECKS.get(str(kind))
        if check is None:
            raise IllegalAction(
                RULE,
                N_("Unknown order {kind}; orders are: {kinds}."),
                kind=str(kind),
                kinds=Listed(KINDS),
            )
        data = check(state, player, action)
        # The owner's line names the order as placed (the log shows old events against the
        # current state, whose order of that kind may be another by then): the private
        # event carries it (view.py shows it to its owner alone).
        placed = {str(kind): _as_placed(data)}
        if kind == "maxbid":
            data["seq"] = _next_seq(state)
        book = state.setdefault("orders", {})
        book.setdefault(player, {})[str(kind)] = data
        rules.emit(
            state,
            events,
            "order_placed",
            player=player,
            order=str(kind),
            orders=placed,
            private=True,
        )
    if "orders" in state:
        run(state, events)
    return state, events


def set_proxy(state: State, player: str, plant: int, limit: int) -> None:
    """A bid's `max` (already validated by the bid): the proxy for this auction."""
    book = state.setdefault("orders", {})
    book.setdefault(player, {})["maxbid"] = {
        "plant": plant,
        "limit": limit,
        "seq": _next_seq(state),
    }


def _next_seq(state: State) -> int:
    """Proxy bids are ranked by when they were placed (ties: the earlier wins)."""
    seqs = [m["maxbid"]["seq"] for m in state.get("orders", {}).values() if "maxbid" in m]
    return max(seqs, default=0) + 1


def _auction_of(state: State, player: str, plant: Any) -> dict[str, Any]:
    auction = state["auction"]
    if state["phase"] != "auction" or auction is None:
        raise IllegalAction("PG-21", N_("No plant is being auctioned now."))
    if plant != auction["plant"]:
        raise IllegalAction(
            "PG-21",
            N_("Plant {number} is being auctioned, not {plant}."),
            number=auction["plant"],
            plant=str(plant),
        )
    if player not in auction["bidders"]:
        raise IllegalAction(
            "PG-21", N_("You are not bidding on plant {plant}."), plant=auction["plant"]
        )
    return dict(auction)


def _check_maxbid(state: State, player: str, action: Action) -> dict[str, Any]:
    auction = _auction_of(state, player, action.get("plant"))
    limit = action.get("limit")
    if not rules.is_int(limit) or limit <= auction["bid"]:
        raise IllegalAction(
            "PG-21",
            N_("You must bid more than {high} E."),
            high=auction["bid"],
            bid=str(limit),
        )
    money = state["players"][player]["money"]
    if limit > money:
        raise IllegalAction(
            "PG-22",
            N_("You cannot bid more than your money ({money} E)."),
            money=money,
            secret=state["hidden_money"],
        )
    return {"plant": auction["plant"], "limit": limit}


def _check_pass_plant(state: State, player: str, action: Action) -> dict[str, Any]:
    auction = _auction_of(state, player, action.get("plant"))
    return {"plant": auction["plant"]}


def _check_pass_round(state: State, player: str, action: Action) -> dict[str, Any]:
    if state["phase"] != "auction":
        raise IllegalAction("PG-20", N_("You can pass for the round only in the auction phase."))
    if state["round"] == 1:
        raise IllegalAction(
            "PG-25", N_("In round 1 every player must buy a power plant; you cannot pass.")
        )
    p = state["players"][player]
    if p["bought"] or p["passed"]:
        raise IllegalAction("PG-23", N_("You take no further part in this auction phase."))
    return {}


def _check_buy_auto(state: State, player: str, action: Action) -> dict[str, Any]:
    limit = action.get("limit")
    if limit is not None and (not rules.is_int(limit) or limit < 0):
        raise IllegalAction(RULE, N_("The money limit must be a whole number of Elektro."))
    return {"limit": limit}


def _check_build_plan(state: State, player: str, action: Action) -> dict[str, Any]:
    cities = action.get("cities")
    if not isinstance(cities, list):  # empty: build nothing this time (PG-35 allows it)
        raise IllegalAction(RULE, N_("Name the cities to build, in order."))
    gm = game_map(state["map"])
    for city in cities:
        if city not in gm.index:
            raise IllegalAction("PG-1", N_("There is no city called {city}."), city=str(city))
        if state["regions"] and gm.city_region[gm.index[city]] not in state["regions"]:
            raise IllegalAction("PG-8", N_("{city} is outside the regions in play."), city=city)
        if city in state["players"][player]["cities"]:
            raise IllegalAction("PG-38", N_("You already have a house in {city}."), city=city)
    if len(set(cities)) != len(cities):
        raise IllegalAction("PG-38", N_("You can build only one house in {city}."), city=cities[0])
    if len(cities) > HOUSES - len(state["players"][player]["cities"]):
        raise IllegalAction("PG-38", N_("You have no houses left."))
    return {"cities": list(cities)}


def _check_power_auto(state: State, player: str, action: Action) -> dict[str, Any]:
    return {}


_CHECKS = {
    "maxbid": _check_maxbid,
    "pass_plant": _check_pass_plant,
    "pass_round": _check_pass_round,
    "buy_auto": _check_buy_auto,
    "build_plan": _check_build_plan,
    "power_auto": _check_power_auto,
}


def _cancel(state: State, player: str, action: Action, events: list[Event]) -> None:
    kinds = action.get("kinds") or list(KINDS)
    if not isinstance(kinds, list) or any(k not in KINDS for k in kinds):
        raise IllegalAction(
            RULE,
            N_("Unknown order {kind}; orders are: {kinds}."),
            kind=str(kinds),
            kinds=Listed(KINDS),
        )
    mine = state.get("orders", {}).get(player, {})
    gone = [k for k in KINDS if k in kinds and k in mine]
    if not gone:
        raise IllegalAction(RULE, N_("You have no such standing order."))
    cancelled = {k: _as_placed(mine[k]) for k in gone}  # as they stood (see apply_order)
    for kind in gone:
        del mine[kind]
    if not mine:
        del state["orders"][player]
        if not state["orders"]:
            del state["orders"]
    rules.emit(
        state,
        events,
        "orders_cancelled",
        player=player,
        kinds=gone,
        orders=cancelled,
        private=True,
    )


# ===================================================================== carrying out


def run(state: State, events: list[Event]) -> None:
    """Let due orders act until the turn rests with a player who has no order for it."""
    for _ in range(MAX_ORDER_STEPS):
        if "orders" not in state or not _step(state, events):
            return


def _mine(state: State, player: str) -> dict[str, Any]:
    book: dict[str, dict[str, Any]] = state.get("orders", {})
    return book.get(player, {})


def _drop(state: State, player: str, kind: str) -> None:
    book = state["orders"]
    mine = book[player]
    mine.pop(kind, None)
    if not mine:
        del book[player]
        if not book:
            del state["orders"]


def _do(state: State, player: str, action: Action, events: list[Event]) -> None:
    """One move on the player's behalf; its events (and the player's share of what follows,
    plus the unowned phase events) are marked `by_order`."""
    start = len(events)
    rules._HANDLERS[action["type"]](state, player, action, events)
    for event in events[start:]:
        if event.get("player", player) == player:
            event["by_order"] = True


def _tell(state: State, events: list[Event], player: str, kind: str, err: IllegalAction) -> None:
    # the words of the game among the params ("coal"): JSON keeps no `Term`, so the event
    # names them for the reader's catalog (event_text.order_dropped_private); a `Listed` (the
    # plants a run lacks fuel for) is kept as its items, listed in the reader's words there
    terms = sorted(k for k, v in err.params.items() if isinstance(v, Term))
    lists = sorted(k for k, v in err.params.items() if isinstance(v, Listed))
    rules.emit(
        state,
        events,
        "order_dropped",
        player=player,
        order=kind,
        rule=err.rule_id,
        reason_key=err.message_key,
        params={  # another `Worded` (the PG-27 keep options) as its English: JSON keeps no words
            k: list(v.items) if isinstance(v, Listed) else str(v) if isinstance(v, Worded) else v
            for k, v in err.params.items()
            if isinstance(v, (str, int, Worded))
        },
        private=True,
        **({"terms": terms} if terms else {}),
        **({"lists": lists} if lists else {}),
    )


def _step(state: State, events: list[Event]) -> bool:
    """Carry out one due order; False when no order covers the current turn."""
    phase = state["phase"]
    if phase == "auction":
        return _auction_step(state, events)
    if phase == "resources":
        name = rules.current_players(state)[0]
        order = _mine(state, name).get("buy_auto")
        if order is None:
            return False
        buys = auto_buys(state, name, order["limit"])
        for resource, count in buys:
            _do(state, name, {"type": "buy", "resource": resource, "count": count}, events)
        if not buys:
            # Issue 20: the turn passes in public, so the table reads why ("bob buys
            # nothing"), never the reason (the money, the limit or full plants stay private).
            rules.emit(state, events, "bought_nothing", player=name, by_order=True)
        _do(state, name, {"type": "done"}, events)
        return True
    if phase == "build":
        name = rules.current_players(state)[0]
        plan = _mine(state, name).get("build_plan")
        if plan is None:
            return False
        _drop(state, name, "build_plan")
        skipped = False
        for city in plan["cities"]:
            try:
                _do(state, name, {"type": "build", "city": city}, events)
            except IllegalAction as err:  # checked again now: full, cut off, unaffordable
                _tell(state, events, name, "build_plan", err)
                skipped = True
        if not skipped:
            _do(state, name, {"type": "done"}, events)
        return True
    if phase == "bureaucracy":
        for name in rules.current_players(state):
            if "power_auto" in _mine(state, name):
                _do(state, name, auto_power(state, name), events)
                return True
    return False


def _auction_step(state: State, events: list[Event]) -> bool:
    if state["pending_discard"] is not None:
        return False
    auction = state["auction"]
    if auction is None:
        name = rules.chooser(state)
        if name is not None and "pass_round" in _mine(state, name):
            _do(state, name, {"type": "pass"}, events)
            return True
        return False
    name = auction["turn"]
    mine = _mine(state, name)
    if not mine:
        return False
    plant = auction["plant"]
    if "pass_round" in mine or mine.get("pass_plant", {}).get("plant") == plant:
        if "pass_plant" in mine:
            _drop(state, name, "pass_plant")
        _do(state, name, {"type": "pass"}, events)
        return True
    proxy = mine.get("maxbid")
    if proxy is None or proxy["plant"] != plant:
        return False
    bid = auction["bid"] + 1  # the minimum step, as a human would
    if bid <= proxy_limit(state, name, proxy, auction):
        _do(state, name, {"type": "raise", "bid": bid}, events)
    else:
        _drop(state, name, "maxbid")
        _do(state, name, {"type": "pass"}, events)
    return True


def proxy_limit(state: State, player: str, proxy: dict[str, Any], auction: dict[str, Any]) -> int:
    """What the proxy may bid now: its limit within the money (PG-22), one less while an
    earlier proxy of another bidder still in the auction holds the same limit."""
    limit = min(int(proxy["limit"]), state["players"][player]["money"])
    book = state["orders"]
    for other in auction["bidders"]:
        theirs = book.get(other, {}).get("maxbid") if other != player else None
        if (
            theirs is not None
            and theirs["plant"] == proxy["plant"]
            and theirs["limit"] == proxy["limit"]
            and theirs["seq"] < proxy["seq"]
        ):
            return min(limit, int(proxy["limit"]) - 1)
    return limit


# ===================================================================== what "auto" means


def _next_price(state: State, resource: str, taken: int) -> int | None:
    """PG-32: the price of the next token after `taken` more were bought; None if sold out."""
    prices = mk.resource_prices(state["rm"][resource], resource, taken + 1)
    return prices[-1] if len(prices) > taken else None


def auto_buys(state: State, player: str, limit: int | None) -> list[tuple[str, int]]:
    """/buy auto: the fuel every plant needs for one run at the next bureaucracy, bought a
    token at a time, always the cheapest token still needed (hybrids take whichever of coal
    and oil is cheaper), while it fits (PG-33) and the spend stays within the money and the
    limit. Returns (resource, count) in resource order."""
    p = state["players"][player]
    need, hybrid = mk.run_needs(p["plants"])
    have = p["res"]
    missing = {r: max(0, need[r] - have[r]) for r in RESOURCES}
    spare = sum(max(0, have[r] - need[r]) for r in ("coal", "oil"))
    hybrid_missing = max(0, hybrid - spare)
    budget = p["money"] if limit is None else min(limit, p["money"])
    cap = mk.capacities(p["plants"])
    held = dict(have)
    bought = {r: 0 for r in RESOURCES}
    spent = 0
    while True:
        best: tuple[int, int, str, bool] | None = None
        for i, r in enumerate(RESOURCES):
            own = missing[r] > 0
            hyb = hybrid_missing > 0 and r in ("coal", "oil")
            if not (own or hyb) or mk.room_for(cap, held, r) <= 0:
                continue
            price = _next_price(state, r, bought[r])
            if price is not None and (best is None or (price, i) < best[:2]):
                best = (price, i, r, own)
        if best is None or spent + best[0] > budget:
            break
        price, _, r, own = best
        spent += price
        bought[r] += 1
        held[r] += 1
        if own:
            missing[r] -= 1
        else:
            hybrid_missing -= 1
    return [(r, bought[r]) for r in RESOURCES if bought[r]]


def auto_power(state: State, player: str) -> Action:
    """/power auto (and /power without plants): the run powering the most cities, burning
    the fuel worth least at the market's current prices; then fewer plants, lower numbers
    (bureaucracy.cheapest_run, the chat's /power choice too)."""
    p = state["players"][player]
    prices = {r: (_next_price(state, r, 0) or 20) for r in RESOURCES}
    plants, coal, oil, _ = cheapest_run(p["plants"], p["res"], len(p["cities"]), prices)
    return power_action(plants, coal, oil)


def owned_by(state: State, player: str | None) -> dict[str, Any]:
    """The viewer's own orders (for `view`); nobody else's."""
    if player is None:
        return {}
    mine = state.get("orders", {}).get(player, {})
    return {k: _as_placed(data) for k, data in mine.items()}


def _as_placed(data: dict[str, Any]) -> dict[str, Any]:
    """An order's fields as its owner gave them (without the proxy's rank `seq`), copied: a
    view or an event shares nothing with the book."""
    return {f: list(v) if isinstance(v, list) else v for f, v in data.items() if f != "seq"}


def register() -> None:
    """Hand the standing orders to rules.py (engine/powergrid/__init__.py calls this)."""
    rules.register_orders(rules.OrderBook(apply=apply_order, run=run, set_proxy=set_proxy))
