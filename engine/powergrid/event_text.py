"""The chat lines of Power Grid events (every event type of CONTRACT.md has one), the
standing-order phrases and the final ranking. A private event (a standing order placed,
cancelled or dropped) has no public line; its owner reads `describe_private_event`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.errors import Term, worded
from engine.core.protocol import EnglishTranslator, Event, State, Translator
from engine.core.sentences import Listed, sentence_gap
from engine.powergrid import chat_view as cv
from engine.powergrid.chat_view import View, plant_no
from engine.powergrid.wording import (
    RESOURCES,
    count_text,
    join,
    money_text,
    phase_text,
    resource_text,
)

_ENGLISH = EnglishTranslator()


def order_lines(orders: dict[str, Any], t: Translator) -> list[str]:
    """One short phrase per standing order of the viewer (view["orders"])."""
    out: list[str] = []
    for kind, data in orders.items():
        if kind == "maxbid":
            out.append(
                t.gettext("bid on plant {plant} up to {limit}").format(
                    plant=data.get("plant"), limit=money_text(t, data.get("limit"))
                )
            )
        elif kind == "pass_plant":
            out.append(t.gettext("pass on plant {plant}").format(plant=data.get("plant")))
        elif kind == "pass_round":
            out.append(t.gettext("pass for this auction round"))
        elif kind == "buy_auto":
            if data.get("limit") is None:
                out.append(t.gettext("buy fuel for one run automatically"))
            else:
                out.append(
                    t.gettext("buy fuel for one run automatically, up to {limit}").format(
                        limit=money_text(t, data["limit"])
                    )
                )
        elif kind == "build_plan" and not data.get("cities"):
            out.append(t.gettext("build nothing on your turn"))
        elif kind == "build_plan":
            out.append(
                t.gettext("build {cities} on your turn").format(
                    cities=join(t, data.get("cities") or [])
                )
            )
        elif kind == "power_auto":
            out.append(t.gettext("power the most cities automatically"))
    return out


def orders_text(view: View, player: str, t: Translator) -> str:
    lines = order_lines(view.get("orders") or {}, t)
    text = (
        t.gettext("Your standing orders: {orders}.").format(orders="; ".join(lines))
        if lines
        else t.gettext("You have no standing orders.")
    )
    dropped = [
        e
        for e in view.get("log") or []
        if e.get("type") == "order_dropped" and e.get("player") == player
    ]
    for event in dropped:
        text += sentence_gap(text) + order_dropped_private(event, t)
    return text


def order_dropped_private(e: Event, t: Translator) -> str:
    terms, lists = set(e.get("terms") or ()), set(e.get("lists") or ())
    params = {
        k: Term(v) if k in terms else Listed(v) if k in lists else v
        for k, v in (e.get("params") or {}).items()
    }
    reason = worded(t, str(e.get("reason_key", "")), params)
    return t.gettext("Dropped in round {round}: {reason}").format(
        round=e.get("round", 0), reason=reason
    )


# --- quotes -------------------------------------------------------------------------------


def ranking_text(view: View, ranking: list[list[str]], t: Translator) -> str:
    """The final ranking with the figures that decide it (PG-53; ALT-44 and ALT-D-22 alike):
    cities powered, then money (revealed at the end even under hidden money, PG-9), and the
    city count (the variant: its plants and TPs, one per city) for a player tied on both."""
    players = view["players"]

    def figures(name: str) -> tuple[int, int]:
        me = players.get(name, {})
        return (int(me.get("powered") or 0), int(me.get("money") or 0))

    keys = [figures(name) for group in ranking for name in group]
    parts: list[str] = []
    place = 1
    for group in ranking:
        for name in group:
            me = players.get(name, {})
            powered = me.get("powered") or 0
            fields = {
                "place": place,
                "player": name,
                "powered": t.ngettext("{n} city powered", "{n} cities powered", powered).format(
                    n=powered
                ),
                "money": money_text(t, me.get("money")),
            }
            if keys.count(figures(name)) > 1:  # the third figure decides (or ties) them
                n = len(me.get("cities") or [])
                parts.append(
                    t.gettext("{place}. {player} ({powered}, {money}, {cities})").format(
                        cities=t.ngettext("{n} city", "{n} cities", n).format(n=n), **fields
                    )
                )
            else:
                parts.append(t.gettext("{place}. {player} ({powered}, {money})").format(**fields))
        place += len(group)
    return "; ".join(parts)


def describe_event(state: State, event: Event, t: Translator = _ENGLISH) -> str | None:
    """One chat line for an event (every event type of the CONTRACT has one)."""
    kind = event.get("type", "")
    if kind == "game_over":
        # No line of its own: the table posts the over state's turn text once, which carries
        # the ranking with its figures (turn_text.py "Game over after round ..."); the event
        # itself is unchanged (replays and their hashes).
        return None
    if event.get("private"):
        # A private event (a standing order placed, cancelled or dropped) has no public line:
        # the table does not learn that a limit or a plan exists (issue 20, PG-22); its owner
        # reads `describe_private_event`.
        return None
    return event_line(event, t)


def describe_private_event(state: State, event: Event, t: Translator = _ENGLISH) -> str | None:
    """The line for the event's owner alone (`event["player"]` of a private event)."""
    if event.get("type") == "game_over":
        return None  # said once, by the over state's turn text (describe_event)
    return event_line(event, t)


def event_line(event: Event, t: Translator) -> str | None:
    text = EVENT_TEXTS.get(event.get("type", ""))
    if text is None:
        return None
    line = text(event, t)
    # The tag marks the player's own move made by their order, never a phase line the order
    # happened to trigger (issue 20: the tag spilled onto "Now: ..." lines).
    if event.get("by_order") and event.get("player"):
        line += sentence_gap(line) + t.gettext("(standing order)")
    return line


def _ev_round_started(e: Event, t: Translator) -> str:
    return t.gettext("Round {round} begins.").format(round=e.get("round", 0))


def _ev_phase_started(e: Event, t: Translator) -> str:
    phase = e.get("phase", "")
    return t.gettext("Now: {phase}.").format(phase=phase_text(t, phase))


def _ev_phase_ended(e: Event, t: Translator) -> str:
    phase = e.get("phase", "")
    return t.gettext("End of {phase}.").format(phase=phase_text(t, phase))


def _ev_regions_chosen(e: Event, t: Translator) -> str:
    regions = e.get("regions")
    if regions is None and e.get("region") is not None:
        regions = [e["region"]]
    if e.get("player"):
        return t.gettext("{player} chooses {regions}.").format(
            player=e["player"], regions=cv.regions_text(regions or [], t)
        )
    return t.gettext("Regions in play: {regions}.").format(
        regions=cv.regions_text(regions or [], t)
    )


def _ev_region_chosen(e: Event, t: Translator) -> str:
    return t.gettext("{player} chooses region {region}.").format(
        player=e.get("player", ""), region=cv.region_text(str(e.get("region", "")), t)
    )


def describe_start(state: State, t: Translator) -> str:
    """The opening as setup drew it, for the table's "begins" post: the random player order
    (PG-10) that the region choice (PG-8) and the first auction follow, and the regions when
    they were drawn too (PG-D-3)."""
    text = t.gettext("Player order, drawn at random (PG-10): {order}.").format(
        order=join(t, state["order"])
    )
    named = {r["id"]: r for r in cv.regions_of({"map": state["map"]})}
    drawn = state["options"].get("regions") == "random"
    if drawn and len(state["regions"]) < len(named):  # not ALT-4's all six
        text += sentence_gap(text) + t.gettext("Regions in play: {regions}.").format(
            regions=join(t, [cv.region_label(named[r], t) for r in state["regions"]])
        )
    return text


def _ev_player_order(e: Event, t: Translator) -> str:
    return t.gettext("Player order: {order}.").format(order=join(t, e.get("order", [])))


def _ev_auction_opened(e: Event, t: Translator) -> str:
    return t.gettext("{player} puts plant {plant} up for auction at {bid}.").format(
        player=e.get("player", ""), plant=plant_no(e), bid=e.get("bid", e.get("price", ""))
    )


def _ev_bid(e: Event, t: Translator) -> str:
    return t.gettext("{player} bids {bid}.").format(
        player=e.get("player", ""), bid=e.get("bid", e.get("amount", ""))
    )


def _ev_passed(e: Event, t: Translator) -> str:
    player = e.get("player", "")
    plant = plant_no(e)
    if e.get("auto"):
        if plant is not None:
            return t.gettext("{player} cannot pay more and drops out on plant {plant}.").format(
                player=player, plant=plant
            )
        return t.gettext("{player} cannot afford any plant and passes.").format(player=player)
    if plant is not None:
        return t.gettext("{player} passes on plant {plant}.").format(player=player, plant=plant)
    return t.gettext("{player} passes for this auction round.").format(player=player)


def _ev_auction_won(e: Event, t: Translator) -> str:
    fields = {
        "player": e.get("player", ""),
        "plant": plant_no(e),
        "price": money_text(t, e.get("price", 0)),
    }
    if e.get("unopposed"):  # PG-D-21: no auction, at the plant's number
        return t.gettext(
            "{player} buys plant {plant} for {price}; no one else can bid on it (PG-D-21)."
        ).format(**fields)
    return t.gettext("{player} buys plant {plant} for {price}.").format(**fields)


def _ev_plant_discarded(e: Event, t: Translator) -> str:
    text = t.gettext("{player} discards plant {plant}.").format(
        player=e.get("player", ""), plant=plant_no(e)
    )
    returned = e.get("returned") or {}
    if returned:  # PG-27: what the remaining plants could not keep
        tokens = join(t, [count_text(t, r, n) for r, n in returned.items()])
        text += sentence_gap(text) + t.gettext("{tokens} back to the supply.").format(tokens=tokens)
    return text


def _ev_plant_drawn(e: Event, t: Translator) -> str:
    return t.gettext("Plant {plant} comes into the market.").format(plant=plant_no(e))


def _ev_plant_removed(e: Event, t: Translator) -> str:
    if e.get("under_deck"):
        return t.gettext("Plant {plant} goes under the deck.").format(plant=plant_no(e))
    return t.gettext("Plant {plant} leaves the game.").format(plant=plant_no(e))


def _ev_bought_nothing(e: Event, t: Translator) -> str:
    return t.gettext("{player} buys nothing.").format(player=e.get("player", ""))


def _ev_resources_bought(e: Event, t: Translator) -> str:
    count = int(e.get("count", 0))
    return t.ngettext(
        "{player} buys {count} {resource} for {price}.",
        "{player} buys {count} {resource} for {price}.",
        count,
    ).format(
        player=e.get("player", ""),
        count=count,
        resource=resource_text(t, e.get("resource", "")),
        price=money_text(t, e.get("price", 0)),
    )


def _ev_city_built(e: Event, t: Translator) -> str:
    return t.gettext("{player} builds in {city} for {cost}.").format(
        player=e.get("player", ""), city=e.get("city", ""), cost=money_text(t, e.get("cost", 0))
    )


def _ev_powered(e: Event, t: Translator) -> str:
    cities = int(e.get("cities", 0))
    if e.get("income") is None:
        return t.ngettext(
            "{player} powers {n} city.", "{player} powers {n} cities.", cities
        ).format(player=e.get("player", ""), n=cities)
    return t.ngettext(
        "{player} powers {n} city and earns {income}.",
        "{player} powers {n} cities and earns {income}.",
        cities,
    ).format(player=e.get("player", ""), n=cities, income=money_text(t, e.get("income", 0)))


def _ev_step_started(e: Event, t: Translator) -> str:
    step = e.get("step", 2)
    if step == 3:
        return t.gettext(
            "Step 3 begins: cities hold 3 houses and all six market plants are for sale."
        )
    if step == 2:
        return t.gettext("Step 2 begins: cities hold 2 houses.")
    return t.gettext("Step {step} begins.").format(step=step)


def _ev_step3_card_drawn(e: Event, t: Translator) -> str:
    return t.gettext("The Step 3 card is drawn.")


def _ev_market_restocked(e: Event, t: Translator) -> str:
    added = e.get("added") or {r: e[r] for r in RESOURCES if isinstance(e.get(r), int)}
    # PG-43: a full market or an empty supply adds 0. In the rules' order of goods: the log
    # keeps the event's keys sorted, so /log said "coal, garbage, oil" (found playing).
    added = {r: added[r] for r in RESOURCES if added.get(r)}
    if added:
        return t.gettext("The resource market is restocked: {added}.").format(
            added=join(t, [count_text(t, r, n) for r, n in added.items()])
        )
    return t.gettext("The resource market is restocked.")


def _ev_power_declared(e: Event, t: Translator) -> str:
    return t.gettext("{player} has chosen what to power.").format(player=e.get("player", ""))


# Order events are private to their owner (describe_event gives nobody a line): the line is
# his alone, in the second person, and names the orders the event carries as they were placed
# or cancelled, not as the state holds them later (an event logged before `orders` was added
# to it gets a line without them).
def _ev_order_placed(e: Event, t: Translator) -> str:
    lines = order_lines(e.get("orders") or {}, t)
    if not lines:
        return t.gettext("You leave a standing order. /orders lists yours, /cancel takes one back.")
    return t.gettext(
        "Your standing order: {order}. /orders lists yours, /cancel takes one back."
    ).format(order="; ".join(lines))


def _ev_order_dropped(e: Event, t: Translator) -> str:
    return t.gettext(
        "{player}: one of your standing orders could not be carried out and was dropped "
        "(/orders for details)."
    ).format(player=e.get("player", ""))


def _ev_orders_cancelled(e: Event, t: Translator) -> str:
    lines = order_lines(e.get("orders") or {}, t)
    if not lines:
        n = len(e.get("kinds") or ()) or 1
        return t.ngettext(
            "You cancel {n} standing order.", "You cancel {n} standing orders.", n
        ).format(n=n)
    return t.ngettext(
        "You cancel your standing order: {orders}.",
        "You cancel your standing orders: {orders}.",
        len(lines),
    ).format(orders="; ".join(lines))


EVENT_TEXTS: dict[str, Callable[[Event, Translator], str]] = {
    "round_started": _ev_round_started,
    "phase_started": _ev_phase_started,
    "phase_ended": _ev_phase_ended,
    "regions_chosen": _ev_regions_chosen,
    "region_chosen": _ev_region_chosen,
    "player_order": _ev_player_order,
    "auction_opened": _ev_auction_opened,
    "bid": _ev_bid,
    "passed": _ev_passed,
    "auction_won": _ev_auction_won,
    "plant_discarded": _ev_plant_discarded,
    "plant_drawn": _ev_plant_drawn,
    "plant_removed": _ev_plant_removed,
    "resources_bought": _ev_resources_bought,
    "bought_nothing": _ev_bought_nothing,
    "city_built": _ev_city_built,
    "powered": _ev_powered,
    "step_started": _ev_step_started,
    "step3_card_drawn": _ev_step3_card_drawn,
    "market_restocked": _ev_market_restocked,
    "power_declared": _ev_power_declared,
    "order_placed": _ev_order_placed,
    "order_dropped": _ev_order_dropped,
    "orders_cancelled": _ev_orders_cancelled,
}
EVENT_TYPES = (*EVENT_TEXTS, "game_over")

# `regions_chosen` ends the players' region choice (PG-8, before round 1's auction): a phase of
# its own, though no `phase_ended` says so (the event log stays as it was: replays and their
# hashes). Declared here, the table pictures the regions in play, captions the auction's
# picture after the auction (not "after choosing regions"), and round 1, which keeps the phase
# rule of bot/quiet.py until a round boundary is known, asks each player once with a ping in
# the auction (PG-14), though he chose a region just before. With regions=random the event
# comes in setup, which no move pictures. The alternative rules share it (ALT-4: two players
# choose five regions by PG-8).
_PICTURE_EVENTS = frozenset({"phase_ended", "regions_chosen", "step_started", "game_over"})
_REVEALING_EVENTS = frozenset({"plant_drawn", "step3_card_drawn"})


def is_picture_event(event: Event) -> bool:
    """A board picture follows every phase (the region choice's end included, PG-8), a new
    step and the end of the game."""
    return event.get("type") in _PICTURE_EVENTS


def undoable(events: list[Event]) -> bool:
    """False when the move revealed a card from the deck (CONTRACT: hidden or random info)."""
    return not any(e.get("type") in _REVEALING_EVENTS for e in events)


# --------------------------------------------------------------------------------------------
# Buttons and autocomplete
# --------------------------------------------------------------------------------------------
