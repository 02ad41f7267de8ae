"""The answers to the Power Grid quote commands in words: /cost, /price, /income, /market,
/plants (the figures come from quotes.py and the player's view)."""

from __future__ import annotations

from typing import Any

from engine.core.errors import NP_, worded
from engine.core.protocol import Translator
from engine.core.sentences import sentence_gap
from engine.powergrid.chat_view import View
from engine.powergrid.wording import (
    RESOURCES,
    count_text,
    join,
    money_text,
    plant_text,
    resource_text,
)


def cost_text(quote: dict[str, Any], t: Translator) -> str:
    lines: list[str] = []
    for item in quote.get("items", []):
        path = item.get("path") or []
        if item.get("connection", 0) or len(path) > 1:
            route = "–".join(path)
            lines.append(
                t.gettext("{city}: {connection} via {route} + {slot} house = {cost}").format(
                    city=item["city"],
                    connection=item.get("connection", 0),
                    route=route,
                    slot=item.get("slot", 0),
                    cost=money_text(t, item.get("cost", 0)),
                )
            )
        else:
            lines.append(
                t.gettext("{city}: {slot} house = {cost}").format(
                    city=item["city"],
                    slot=item.get("slot", 0),
                    cost=money_text(t, item.get("cost", 0)),
                )
            )
    if len(quote.get("items", [])) > 1:  # none priced (refused at once): no "Total: 0 E"
        lines.append(t.gettext("Total: {total}").format(total=money_text(t, quote.get("total", 0))))
    order = quote.get("cheapest_order") or []
    given = [item["city"] for item in quote.get("items", [])]
    cheaper = quote.get("cheapest_total", 0) < quote.get("total", 0)
    if order and order != given and cheaper:  # only when strictly cheaper
        lines.append(
            t.gettext("Cheaper in this order: /build {cities} ({total})").format(
                cities=" ".join(order), total=money_text(t, quote["cheapest_total"])
            )
        )
    if not quote.get("ok", True):
        key = quote.get("reason_key")
        lines.append(
            t.gettext("Not possible now: {reason}").format(
                reason=worded(t, key, quote.get("reason_params") or {})
            )
            if key
            else t.gettext("Not possible now.")
        )
    return "\n".join(lines)


def price_text(resource: str, n: int, quote: dict[str, Any], t: Translator) -> str:
    name = resource_text(t, resource)
    prices = [int(p) for p in quote.get("prices", [])]
    available = int(quote.get("available", 0))
    if not prices:
        return t.gettext("No {resource} is on the market.").format(resource=name)
    sums = "+".join(str(p) for p in prices)
    text = t.gettext("{n} {resource}: {sums} = {total}").format(
        n=len(prices), resource=name, sums=sums, total=money_text(t, quote.get("total", 0))
    )
    if available < n:
        text += sentence_gap(text) + t.ngettext(
            "(only {n} on the market)", "(only {n} on the market)", available
        ).format(n=available)
    return text


# /income in one sentence per case, so that each language orders it as it reads ("使用發電廠
# 4、7，你可以為 3 座城市供電"): the phrases glued in English order read backwards in Chinese.
# One plant and several are two messages (the plants' word does not depend on how many).
INCOME_NO_PLANT = NP_(
    "You can power {n} city: income {income}.", "You can power {n} cities: income {income}."
)
INCOME_ONE_PLANT = NP_(
    "With plant {plants} you can power {n} city: income {income}.",
    "With plant {plants} you can power {n} cities: income {income}.",
)
INCOME_PLANTS = NP_(
    "With plants {plants} you can power {n} city: income {income}.",
    "With plants {plants} you can power {n} cities: income {income}.",
)


def income_text(quote: dict[str, Any], t: Translator) -> str:
    """/income: the cities the best run powers, with which plants, and its income (PG-42)."""
    powered = int(quote.get("powered", 0))
    plants = quote.get("plants") or []
    forms = INCOME_PLANTS if len(plants) > 1 else INCOME_ONE_PLANT if plants else INCOME_NO_PLANT
    return t.ngettext(*forms, powered).format(
        n=powered,
        plants=join(t, [str(p) for p in plants]),
        income=money_text(t, quote.get("income", 0)),
    )


def market_text(view: View, t: Translator) -> str:
    market = view["plant_market"]
    lines = [
        t.gettext("Current plants: {plants}").format(
            plants=join(t, [plant_text(t, p) for p in market["current"]]) or "-"
        )
    ]
    future = [plant_text(t, p) for p in market.get("future", [])]
    if market.get("step3_card"):
        future.append(t.gettext("Step 3 card"))
    if future:
        lines.append(t.gettext("Future plants: {plants}").format(plants=join(t, future)))
    lines.append(
        t.ngettext(
            "{n} plant left in the deck", "{n} plants left in the deck", view.get("deck_size", 0)
        ).format(n=view.get("deck_size", 0))
    )
    for resource in RESOURCES:
        spaces = view["resource_market"].get(resource, [])
        on_sale = [
            t.gettext("{count} at {price}").format(count=s["count"], price=s["price"])
            for s in spaces
            if s.get("count", 0)
        ]
        lines.append(
            t.gettext("{resource}: {spaces} (supply {supply})").format(
                resource=resource_text(t, resource),
                spaces=join(t, on_sale) or "-",
                supply=view.get("supply", {}).get(resource, 0),
            )
        )
    return "\n".join(lines)


def plants_text(view: View, t: Translator) -> str:
    lines: list[str] = []
    order = view.get("player_order") or view.get("seat_order") or list(view["players"])
    for name in order:
        me = view["players"][name]
        plants = join(t, [plant_text(t, p) for p in me["plants"]]) or "-"
        stock = join(t, [count_text(t, r, n) for r, n in me.get("resources", {}).items() if n])
        line = t.gettext("{player} ({money}, {cities}): {plants}").format(
            player=name,
            money=money_text(t, me.get("money")),
            cities=t.ngettext("{n} city", "{n} cities", len(me.get("cities", []))).format(
                n=len(me.get("cities", []))
            ),
            plants=plants,
        )
        if stock:
            line += " — " + stock
        lines.append(line)
    return "\n".join(lines)
