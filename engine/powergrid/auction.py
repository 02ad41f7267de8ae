"""Phase 2, the auction of power plants (PG-20..30): choosing a plant, bidding clockwise,
passing, the fourth plant's discard (PG-26/27) and the end of the phase."""

from __future__ import annotations

import bisect
from typing import Any

from engine.core import N_, IllegalAction, Listed
from engine.powergrid import market as mk
from engine.powergrid.basics import (
    Action,
    Event,
    chooser,
    emit,
    forget_orders,
    is_int,
    limits,
    log_event,
    log_plant_removed,
    order_book,
    reorder,
    start_turn_phase,
)
from engine.powergrid.data import RESOURCES
from engine.powergrid.plant_market import draw_plant, lowest_plant, resolve_step3
from engine.powergrid.state_types import PGState, plain
from engine.powergrid.wording import KeepOptions


def start_auction_phase(state: PGState, events: list[Event]) -> None:
    state["phase"] = "auction"
    state["turn"] = 0
    for p in state["players"].values():
        p["bought"] = False
        p["passed"] = False
        p["done"] = False
    log_event(state, events, {"type": "phase_started", "round": state["round"], "phase": "auction"})
    _auction_continue(state, events)


def _auction_continue(state: PGState, events: list[Event]) -> None:
    """PG-24/PG-30: the next chooser acts, or the phase ends when nobody is left."""
    if chooser(state) is None:
        _end_auction_phase(state, events)


def open_auction(state: PGState, player: str, action: Action, events: list[Event]) -> None:
    plant, bid = action.get("plant"), action.get("bid")
    money = state["players"][player]["money"]
    current = mk.current_market(state)
    if not is_int(plant) or plant not in current:
        raise IllegalAction(
            "PG-20",
            N_("Plant {plant} is not in the current market ({market})."),
            plant=str(plant),
            market=Listed(current),
        )
    if bid is None:
        bid = plant
    if not is_int(bid) or bid < plant:
        raise IllegalAction(
            "PG-20", N_("The opening bid must be at least {plant} E."), plant=plant, bid=str(bid)
        )
    if bid > money:
        raise IllegalAction(
            "PG-22",
            N_("You cannot bid more than your money ({money} E)."),
            money=money,
            secret=state["hidden_money"],
        )
    limit = _proxy_limit(action, bid, money, state["hidden_money"])
    players = state["players"]
    seats = state["seats"]
    i = seats.index(player)
    rotated = seats[i + 1 :] + seats[:i]
    others = [n for n in rotated if not players[n]["bought"] and not players[n]["passed"]]
    # PG-D-21: nobody eligible to bid against the chooser (PG-D-9 auto-pass judged against
    # the plant's number, unless money is hidden) -> he buys at the plant's number, and no
    # auction is opened, so no "puts plant 4 up for auction at 10" line for a bid that
    # nobody asked for and he does not pay (found play-testing "/bid 4 10").
    able = others if state["hidden_money"] else [n for n in others if players[n]["money"] > plant]
    if not able:
        _win(state, player, plant, plant, events, unopposed=True)
        return
    log_event(
        state,
        events,
        {
            "type": "auction_opened",
            "round": state["round"],
            "player": player,
            "plant": plant,
            "bid": bid,
        },
    )
    state["auction"] = {
        "plant": plant,
        "bid": bid,
        "leader": player,
        "bidders": [n for n in seats if n == player or n in others],
        "turn": player,
    }
    if limit is not None:
        _set_proxy(state, player, plant, limit, events)
    _next_bidder(state, player, events)


def _next_bidder(state: PGState, after: str, events: list[Event]) -> None:
    """PG-21: clockwise (seat order) from `after`; PG-D-9 auto-passes those who cannot raise."""
    auction = state["auction"]
    assert auction is not None  # called only while a plant is being auctioned
    players = state["players"]
    seats = state["seats"]
    leader = auction["leader"]
    bidders = auction["bidders"]
    check_money = not state["hidden_money"]
    n = len(seats)
    i = seats.index(after)
    for k in range(1, n + 1):
        name = seats[(i + k) % n]
        if name == leader:
            break
        if name not in bidders:
            continue
        if check_money and players[name]["money"] <= auction["bid"]:
            bidders.remove(name)
            log_event(
                state,
                events,
                {
                    "type": "passed",
                    "round": state["round"],
                    "player": name,
                    "plant": auction["plant"],
                    "auto": True,
                },
            )
            continue
        auction["turn"] = name
        return
    # Everybody else has passed: the leader buys at his bid (PG-21).
    state["auction"] = None
    _win(state, auction["leader"], auction["plant"], auction["bid"], events)


def raise_bid(state: PGState, player: str, action: Action, events: list[Event]) -> None:
    auction = state["auction"]
    assert auction is not None  # called only while a plant is being auctioned
    bid: Any = action.get("bid")
    money = state["players"][player]["money"]
    if type(bid) is not int or bid <= auction["bid"]:
        raise IllegalAction(
            "PG-21", N_("You must bid more than {high} E."), high=auction["bid"], bid=str(bid)
        )
    if bid > money:
        raise IllegalAction(
            "PG-22",
            N_("You cannot bid more than your money ({money} E)."),
            money=money,
            secret=state["hidden_money"],
        )
    if action.get("max") is not None:
        limit = _proxy_limit(action, bid, money, state["hidden_money"])
        if limit is not None:
            _set_proxy(state, player, auction["plant"], limit, events)
    auction["bid"] = bid
    auction["leader"] = player
    log_event(
        state,
        events,
        {
            "type": "bid",
            "round": state["round"],
            "player": player,
            "plant": auction["plant"],
            "bid": bid,
        },
    )
    _next_bidder(state, player, events)


def _proxy_limit(action: Action, bid: int, money: int, secret: bool) -> int | None:
    """The optional `max` of a bid (proxy bidding, orders.py): None, or a limit above the bid.

    PG-22 applies to the limit as to any bid: never more than the bidder's money (`secret`:
    hidden money, so the refusal goes to the bidder alone).
    """
    limit = action.get("max")
    if limit is None:
        return None
    if not is_int(limit) or limit < bid:
        raise IllegalAction(
            "PG-21",
            N_("Your limit must be at least your bid ({bid} E)."),
            bid=bid,
            limit=str(limit),
        )
    if limit > money:
        raise IllegalAction(
            "PG-22",
            N_("You cannot bid more than your money ({money} E)."),
            money=money,
            secret=secret,
        )
    return limit if limit > bid else None


def _set_proxy(state: PGState, player: str, plant: int, limit: int, events: list[Event]) -> None:
    """A bid's `max=`: the proxy for this auction, and its owner's private line, as for a
    /maxbid left off turn (PG-O: the limit is his alone; found playing, 2026-12-03: a max
    typed on his own turn was never confirmed)."""
    order_book().set_proxy(plain(state), player, plant, limit)
    emit(
        state,
        events,
        "order_placed",
        player=player,
        order="maxbid",
        orders={"maxbid": {"plant": plant, "limit": limit}},
        private=True,
    )


def pass_turn(state: PGState, player: str, action: Action, events: list[Event]) -> None:
    auction = state["auction"]
    if auction is not None:
        # PG-21: pass on this plant only.
        auction["bidders"].remove(player)
        log_event(
            state,
            events,
            {
                "type": "passed",
                "round": state["round"],
                "player": player,
                "plant": auction["plant"],
                "auto": False,
            },
        )
        _next_bidder(state, player, events)
        return
    if state["round"] == 1:
        raise IllegalAction(
            "PG-25", N_("In round 1 every player must buy a power plant; you cannot pass.")
        )
    state["players"][player]["passed"] = True  # PG-20 (a)
    log_event(
        state,
        events,
        {"type": "passed", "round": state["round"], "player": player, "plant": None, "auto": False},
    )
    _auction_continue(state, events)


def _win(
    state: PGState,
    player: str,
    plant: int,
    price: int,
    events: list[Event],
    unopposed: bool = False,
) -> None:
    """`player` buys `plant` for `price` (PG-21); `unopposed`: without an auction, nobody
    being able to bid against him (PG-D-21), which his event says."""
    p = state["players"][player]
    p["money"] -= price
    bisect.insort(p["plants"], plant)
    p["bought"] = True  # PG-23
    state["market"].remove(plant)
    state["auction"] = None
    if "orders" in state:
        forget_orders(state, ("maxbid", "pass_plant"))  # they were for this auction only
    won: Event = {
        "type": "auction_won",
        "round": state["round"],
        "player": player,
        "plant": plant,
        "price": price,
    }
    if unopposed:
        won["unopposed"] = True
    log_event(state, events, won)
    if len(p["plants"]) > limits(state)["max_plants"]:
        # PG-26: the discard comes before the replacement draw and the next choice.
        state["pending_discard"] = {"player": player, "plant": plant}
        return
    after_purchase(state, events)


def after_purchase(state: PGState, events: list[Event]) -> None:
    draw_plant(state, events)  # PG-28 (+ PG-40, PG-47)
    _auction_continue(state, events)


# PG-27: a chosen keep the remaining plants cannot store; `options`: the ways they can.
CANNOT_KEEP = N_("Your other plants cannot keep those tokens; they can keep: {options}.")


def discard_plant(state: PGState, player: str, action: Action, events: list[Event]) -> None:
    pending = state["pending_discard"]
    assert pending is not None  # called only when a discard is expected
    p = state["players"][player]
    plant = action.get("plant")
    if plant == pending["plant"]:
        raise IllegalAction(
            "PG-26",
            N_("Discard one of your older plants, not plant {plant} that you just bought."),
            plant=plant,
        )
    if not is_int(plant) or plant not in p["plants"]:
        raise IllegalAction("PG-26", N_("You do not own plant {plant}."), plant=str(plant))
    # PG-27: tokens move to the remaining plants (incl. the new one); the rest go to supply.
    # The player may say which to keep ("keep": counts by resource); by default as many as
    # fit, coal before oil on hybrids.
    cap = mk.capacities([n for n in p["plants"] if n != plant])
    chosen = action.get("keep")
    if chosen is None:
        kept = mk.kept_after_discard(cap, p["res"])
    else:
        valid = isinstance(chosen, dict) and all(
            r in RESOURCES and is_int(n) for r, n in chosen.items()
        )
        found = mk.kept_as_chosen(cap, p["res"], chosen) if valid else None
        if found is None:  # the ways to keep, in the reader's words (KeepOptions)
            raise IllegalAction(
                "PG-27", CANNOT_KEEP, options=KeepOptions.of(mk.keep_options(cap, p["res"]))
            )
        kept = found
    assert isinstance(plant, int)  # one of the player's plants (checked above)
    p["plants"].remove(plant)
    returned = {}
    for r in RESOURCES:
        lost = p["res"][r] - kept[r]
        if lost:
            state["supply"][r] += lost
            returned[r] = lost
        p["res"][r] = kept[r]
    state["pending_discard"] = None
    log_event(
        state,
        events,
        {
            "type": "plant_discarded",
            "round": state["round"],
            "player": player,
            "plant": plant,
            "returned": returned,
        },
    )
    after_purchase(state, events)


def _end_auction_phase(state: PGState, events: list[Event]) -> None:
    for p in state["players"].values():
        if p["bought"]:
            break
    else:
        # PG-29: nobody bought: the lowest plant leaves the game and is replaced. A Step 3
        # card revealed by this draw is resolved at once (PG-47), which the check below does.
        low = lowest_plant(state)
        if low is not None:
            state["market"].remove(low)
            log_plant_removed(state, events, low, "PG-29", under_deck=False)
            draw_plant(state, events)
    if state["step3_drawn"]:
        resolve_step3(state, events)  # PG-47 in Phase 2: Step 3 begins with Phase 3
    if "orders" in state:
        forget_orders(state, ("pass_round",))  # "/pass round" lasts this round's Phase 2
    log_event(state, events, {"type": "phase_ended", "round": state["round"], "phase": "auction"})
    if state["round"] == 1:
        reorder(state)  # PG-17: once, after the first auction
        log_event(
            state,
            events,
            {"type": "player_order", "round": state["round"], "order": list(state["order"])},
        )
    start_turn_phase(state, "resources", events)
