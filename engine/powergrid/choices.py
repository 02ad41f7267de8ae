"""What a Power Grid player could do now, read from his view (VIEW.md): the ways to keep
tokens after a discard (PG-27), the plants that power the most cities for the least fuel
value, and the fuel one run of every plant still needs. Buttons, /power without numbers, the
turn text and the default move build on these."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter

from engine.core.errors import N_, IllegalAction
from engine.core.protocol import State
from engine.core.sentences import Listed
from engine.powergrid import chat_view as cv
from engine.powergrid import market as mk
from engine.powergrid.bureaucracy import cheapest_run
from engine.powergrid.chat_view import View, plant_no
from engine.powergrid.data import SLOT_PRICES
from engine.powergrid.network import INF, Network, network
from engine.powergrid.wording import HYBRID_FUELS, RESOURCES


def keep_choices(view: View, player: str, plant: int) -> list[dict[str, int]]:
    """PG-27: the ways to keep the most tokens after discarding `plant` (default first)."""
    return mk.keep_options(*_after_discard(view, player, plant))


def _after_discard(view: View, player: str, plant: int) -> tuple[dict[str, int], dict[str, int]]:
    """The storage of the player's other plants and the tokens he holds."""
    me = view["players"].get(player, {})
    others = [p["number"] for p in me.get("plants", []) if p["number"] != plant]
    have = {r: int(me.get("resources", {}).get(r, 0)) for r in RESOURCES}
    return mk.capacities(others), have


def fuel_prices(view: View) -> dict[str, int]:
    """What one more token of each resource would cost now (scarce ones count as dear)."""
    prices: dict[str, int] = {}
    for resource in RESOURCES:
        spaces = view["resource_market"].get(resource, [])
        available = [s["price"] for s in spaces if s.get("count", 0) > 0]
        prices[resource] = min(available) if available else 20
    return prices


def best_power(view: View, player: str) -> tuple[list[int], int, int, int]:
    """The plants to run for the most cities powered, burning the cheapest fuel at the
    market's prices now: (plants, hybrid coal, hybrid oil, cities powered). The same choice
    as the standing order /power auto (bureaucracy.cheapest_run), read from the view."""
    me = view["players"][player]
    have = {r: int(me["resources"].get(r, 0)) for r in RESOURCES}
    numbers = sorted(p["number"] for p in me["plants"])
    return cheapest_run(numbers, have, len(me["cities"]), fuel_prices(view))


@dataclass(frozen=True)
class Shortfall:
    """A city of one /build that the money left after the command's earlier cities does not
    pay (PG-37): its price, that money, and those earlier cities."""

    city: str
    cost: int
    money: int
    earlier: tuple[str, ...]


def build_shortfall(view: View, player: str, cities: Sequence[str]) -> Shortfall | None:
    """PG-37 for several cities built one after the other, each from the houses before it
    (as the rules build them): the first city the money left does not pay. None when every
    city is paid, when the first one is not (the rules' own refusal says what it costs), or
    when a city before it cannot be built at all (the rules refuse that first)."""
    me = view["players"].get(player)
    if me is None or me.get("money") is None:
        return None
    nw = network(view["map"], tuple(view.get("regions_in_play") or ()))
    owned = [nw.index[c] for c in me["cities"]]
    money, houses = int(me["money"]), int(me.get("houses_left", 0))
    slots = int(view.get("slots_open") or view.get("step") or 1)
    for i, city in enumerate(cities):
        owners = (view.get("cities") or {}).get(city, [])
        cost = _house_cost(nw, owned, owners, player, slots, city)
        if cost is None or i >= houses:
            return None
        if cost > money:
            return Shortfall(city, cost, money, tuple(cities[:i])) if i else None
        money -= cost
        owned.append(nw.index[city])
    return None


# PG-37 for a later city of one /build: the money it names is what the earlier cities leave,
# and the refusal says so (it read as if he had that money now).
SHORT_AFTER_ONE = N_("{city} costs {cost} E, but after {earlier} you would have {money} E left.")
SHORT_AFTER_MANY = N_(
    "{city} costs {cost} E, but after {earlier} and {last} you would have {money} E left."
)


def refuse_shortfall(state: State, player: str, cities: Sequence[str]) -> None:
    """Refuse a /build whose money runs out after its first city, naming the cities paid
    before (only on the builder's turn: else the table says whose turn it is)."""
    view = cv.view_of(state, player)  # the module's: tests stand views in for states
    if view.get("expected") != "build" or player not in (view.get("current_players") or []):
        return
    short = build_shortfall(view, player, cities)
    if short is None:
        return
    *before, last = short.earlier
    raise IllegalAction(
        "PG-37",
        SHORT_AFTER_MANY if before else SHORT_AFTER_ONE,
        city=short.city,
        cost=short.cost,
        money=short.money,
        earlier=Listed(before) if before else last,
        last=last,
        secret=bool(state.get("hidden_money")),  # PG-9: his money, told to him alone
    )


def _house_cost(
    nw: Network, owned: list[int], owners: list[str], player: str, slots: int, city: str
) -> int | None:
    """PG-36..38: route and slot price of a house in `city`, None where none may be built."""
    target = nw.index.get(city)
    if target is None or not nw.in_play[target] or player in owners or len(owners) >= slots:
        return None
    connection = nw.connection_cost(owned, target)
    return None if connection >= INF else connection + SLOT_PRICES[len(owners)]


def just_bought(view: View, player: str) -> int | None:
    for event in reversed(view.get("log") or []):
        if event.get("type") == "auction_won" and event.get("player") == player:
            number = plant_no(event)
            return number if isinstance(number, int) else None
    return None


def next_prices(view: View, resource: str, n: int) -> list[int]:
    """PG-32: the prices of the next n tokens of a resource (fewer if the market runs out)."""
    return _on_sale(view, resource)[:n]


def _on_sale(view: View, resource: str) -> list[int]:
    """The prices of every token of a resource in the market, cheapest first."""
    return list(_tokens(_spaces_key(view, resource)))


def _spaces_key(view: View, resource: str) -> tuple[tuple[int, int], ...]:
    """A market's spaces as (price, tokens on it) pairs: the memos' key."""
    spaces = view["resource_market"].get(resource, [])
    try:
        return tuple(map(_PRICE_AND_COUNT, spaces))
    except KeyError:  # a space without a count (a hand-made view) holds no token
        return tuple((s["price"], s.get("count", 0)) for s in spaces)


_PRICE_AND_COUNT = itemgetter("price", "count")


@lru_cache(maxsize=1024)
def _tokens(spaces: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    prices: list[int] = []
    for price, count in spaces:
        prices += [price] * count
    return tuple(sorted(prices))


def fuel_for_one_run(view: View, player: str) -> list[tuple[str, int, int]]:
    """What to buy so every plant can run once: [(resource, count, price)], cheapest fuel
    for the hybrids; empty when nothing is missing or nothing is on sale.

    It depends only on the plants, the tokens held and the market, and every button set of
    the resource phase asks it: worked out once per such key (bounded memo)."""
    me = view["players"][player]
    have = me["resources"]
    return list(
        _refill(
            tuple(p["number"] for p in me["plants"]),
            tuple(have.get(r, 0) for r in RESOURCES),
            tuple(_spaces_key(view, r) for r in RESOURCES),
        )
    )


# Keyed by the whole market (about 40 numbers): fewer entries than the other memos.
@lru_cache(maxsize=1024)
def _refill(
    plants: tuple[int, ...],
    held: tuple[int, ...],
    market: tuple[tuple[tuple[int, int], ...], ...],
) -> tuple[tuple[str, int, int], ...]:
    need, hybrid = mk.run_needs(plants)
    have = dict(zip(RESOURCES, held, strict=True))
    buy = {r: max(0, need[r] - have[r]) for r in RESOURCES}
    spare = sum(max(0, have[r] - need[r]) for r in HYBRID_FUELS)
    # Each resource's tokens, cheapest first: `next_prices(view, r, n)` is `on_sale[r][:n]`.
    on_sale = {r: _tokens(spaces) for r, spaces in zip(RESOURCES, market, strict=True)}
    for _ in range(max(0, hybrid - spare)):
        # the price of one more token of each fuel (999: none left)
        costs = {r: on_sale[r][buy[r]] if len(on_sale[r]) > buy[r] else 999 for r in HYBRID_FUELS}
        cheaper = min(HYBRID_FUELS, key=lambda r: costs[r])
        buy[cheaper] += 1
    out: list[tuple[str, int, int]] = []
    for resource in RESOURCES:
        prices = on_sale[resource][: buy[resource]]
        if prices:
            out.append((resource, len(prices), sum(prices)))
    return tuple(out)
