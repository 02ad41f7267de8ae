"""Power Grid chat commands: each declared once — its spec (name, typed arguments, help,
examples, usage line) right above the function that reads it — in the order players see them
(engine/core/commands.py's `CommandTable`). The argument kinds (city, region, plant,
resource, int) are read and autocompleted by one object each.

The rest of the chat layer is split by job: chat_view.py (views and maps), reading.py
(words -> values), wording.py (values -> words), command_words.py (actions -> the commands
that play them, read back by `command_text` here), choices.py (what a player could do now),
turn_text.py, event_text.py, quote_text.py (the texts) and buttons.py. This module keeps
their public names importable from here (the variant and the tests use them).
"""

from __future__ import annotations

from typing import Any

from engine.core import canonical_json
from engine.core.commands import Call, CommandTable
from engine.core.errors import N_, IllegalAction, ParseError
from engine.core.protocol import (
    Action,
    ArgSpec,
    CommandSpec,
    EnglishTranslator,
    Reply,
    State,
    Translator,
)
from engine.core.sentences import Listed
from engine.powergrid import chat_view as cv
from engine.powergrid import names
from engine.powergrid.arg_kinds import MAX_COMPLETIONS, register_kinds
from engine.powergrid.bureaucracy import power_action
from engine.powergrid.buttons import buttons, buttons_for
from engine.powergrid.chat_view import (
    View,
    acting,
    choosable_regions,
    load_map,
    market_numbers,
)
from engine.powergrid.choices import (
    best_power,
    fuel_for_one_run,
    keep_choices,
    refuse_shortfall,
)
from engine.powergrid.command_words import CANCEL_KINDS, command_words, hybrid_fuel
from engine.powergrid.event_text import (
    EVENT_TEXTS,
    EVENT_TYPES,
    describe_event,
    describe_private_event,
    is_picture_event,
    order_lines,
    orders_text,
    undoable,
)
from engine.powergrid.options import OPTIONS
from engine.powergrid.quote_text import (
    cost_text,
    income_text,
    market_text,
    plants_text,
    price_text,
)
from engine.powergrid.reading import (
    INT_WORD,
    NUMBER_WORD,
    PLANT_WORD,
    RESOURCE_WORDS,
    amount_of,
    cities_of,
    count_of,
    limit_of,
    own_plant,
    plant_number,
    read_int,
    region_of,
    resource_counts,
    resource_of,
    split_counts,
)
from engine.powergrid.turn_text import MAX_TURN_TEXT, describe_turn, turn_text
from engine.powergrid.wording import (
    HYBRID_FUELS,
    PHASES,
    PLANT_TYPES,
    RESOURCE_NAMES,
    RESOURCES,
    keep_command,
    keep_text,
    money_text,
    phase_text,
    resource_text,
)

__all__ = [
    "COMMANDS",
    "EVENT_TEXTS",
    "EVENT_TYPES",
    "HYBRID_FUELS",
    "MAX_COMPLETIONS",
    "MAX_TURN_TEXT",
    "NUMBER_WORD",
    "OPTIONS",
    "PHASES",
    "PLANT_TYPES",
    "PLANT_WORD",
    "RESOURCES",
    "RESOURCE_NAMES",
    "RESOURCE_WORDS",
    "TABLE",
    "USAGE",
    "best_power",
    "buttons",
    "buttons_for",
    "choosable_regions",
    "cities_of",
    "command_text",
    "complete",
    "cost_text",
    "count_of",
    "describe_event",
    "describe_private_event",
    "describe_turn",
    "fuel_for_one_run",
    "income_text",
    "int_word",
    "is_picture_event",
    "keep_choices",
    "load_map",
    "market_text",
    "money_text",
    "order_lines",
    "orders_text",
    "parse",
    "phase_text",
    "plants_text",
    "price_text",
    "region_of",
    "resource_of",
    "resource_text",
    "split_counts",
    "turn_text",
    "undoable",
]

_ENGLISH = EnglishTranslator()

TABLE = CommandTable()
register_kinds(TABLE)  # int, plant, resource, city, region (arg_kinds.py)

# --------------------------------------------------------------------------------------------
# The commands
# --------------------------------------------------------------------------------------------

_PLANT = ArgSpec("plant", "plant", N_("a plant number, e.g. 13"))
_AMOUNT = ArgSpec("amount", "int", N_("Elektro; +5 means 5 more than the high bid"))


@TABLE.command(
    "bid",
    N_(
        "Open an auction on a plant of the current market (the opening bid defaults to "
        "its number), or bid on the plant being auctioned. max=<limit> makes a private "
        "proxy bid: the game raises for you by the minimum step up to the limit, even "
        "before it is your turn."
    ),
    (
        _PLANT,
        ArgSpec("amount", "int", N_("your bid in Elektro"), required=False),
        ArgSpec("max", "rest", N_("max=<limit>: raise for me up to this"), required=False),
    ),
    ("/bid 13 15", "/bid 7", "/bid 13 15 max=25"),
    usage=N_("Usage: /bid <plant> [<amount>] [max=<limit>], e.g. /bid 13 15 max=25"),
)
def _bid(call: Call) -> Action:
    state, player, words, usage = call.state, call.player, call.words, call.spec.usage
    view = cv.view_of(state, player)
    auction = view.get("auction")
    words, limit = limit_of(words, usage)
    if not words or len(words) > 2:
        raise ParseError(usage)
    if limit is not None and not acting(view, player):
        # Not my turn: the limit becomes a proxy order on the plant being auctioned.
        plant = plant_number(words[0], usage)
        if auction is None:  # (not "... being auctioned (-)": there is none, PG-21)
            raise IllegalAction("PG-21", N_("No plant is being auctioned now."), plant=plant)
        number = auction["plant"]["number"]
        if plant != number:
            raise IllegalAction(
                "PG-21",
                N_("A limit can be set only on the plant being auctioned ({number})."),
                number=number,
                plant=plant,
            )
        return _order("maxbid", plant=plant, limit=limit)
    action = _bid_now(view, words, usage)
    if limit is not None:
        action["max"] = limit
    return action


@TABLE.command(
    "maxbid",
    N_(
        "Private proxy bid on the plant being auctioned: when it is your turn the game "
        "raises by the minimum step up to your limit, then passes for you."
    ),
    (ArgSpec("limit", "int", N_("the most you will pay, in Elektro")),),
    ("/maxbid 25",),
    usage=N_("Usage: /maxbid <limit>, e.g. /maxbid 25"),
)
def _maxbid(call: Call) -> Action:
    auction = cv.view_of(call.state, call.player).get("auction")
    if auction is None:
        raise IllegalAction("PG-21", N_("No plant is being auctioned now."))
    limit: int = call.read("int", [call.words[0].lstrip("=")])
    return _order("maxbid", plant=auction["plant"]["number"], limit=limit)


@TABLE.command(
    "raise",
    N_("Bid more on the plant being auctioned: an amount, or +n over the high bid."),
    (ArgSpec("amount", "int", _AMOUNT.help, required=False),),
    ("/raise 21", "/raise +5"),
    usage=N_("Usage: /raise <amount> or /raise +<more>, e.g. /raise 21 or /raise +5"),
)
def _raise(call: Call) -> Action:
    state, player, words, usage = call.state, call.player, call.words, call.spec.usage
    view = cv.view_of(state, player)
    auction = view.get("auction")
    if auction is None:
        raise IllegalAction(
            "PG-21", N_("No plant is being auctioned; open one with /bid <plant> <amount>.")
        )
    high = auction["high_bid"]
    return {"type": "raise", "bid": amount_of(words[0], high, usage) if words else high + 1}


@TABLE.command(
    "pass",
    N_(
        "Pass: on the plant being auctioned when you are bidding, or for the whole "
        "auction phase when it is your choice. /pass round: no more auctions for me this "
        "round. /pass plant: pass on this auction when the turn reaches me."
    ),
    (
        ArgSpec(
            "when",
            "choice",
            N_("round or plant: pass in advance"),
            required=False,
            choices=("round", "plant"),
        ),
    ),
    ("/pass", "/pass round", "/pass plant"),
    usage=N_("Usage: /pass, /pass round or /pass plant"),
)
def _pass(call: Call) -> Action:
    state, player, words, usage = call.state, call.player, call.words, call.spec.usage
    if not words:
        return {"type": "pass"}
    if len(words) != 1:
        raise ParseError(usage)
    word = words[0].casefold()
    if word in ("round", "phase", "all"):
        return _order("pass_round")
    if word in ("plant", "this", "auction"):
        auction = cv.view_of(state, player).get("auction")
        if auction is None:
            raise IllegalAction("PG-21", N_("No plant is being auctioned now."))
        return _order("pass_plant", plant=auction["plant"]["number"])
    raise ParseError(usage, word=words[0])


@TABLE.command(
    "discard",
    N_(
        "Discard one of your old plants after buying one too many; if your other plants "
        "cannot store all your tokens, say which to keep (PG-27)."
    ),
    (
        ArgSpec("plant", "plant", N_("one of your plants")),
        ArgSpec(
            "keep",
            "rest",
            N_("keep <n> <resource> ...: the tokens to keep (default: coal first)"),
            required=False,
        ),
    ),
    ("/discard 4", "/discard 5 keep 2 coal 2 oil"),
    usage=N_(
        "Usage: /discard <plant> [keep <n> <resource> ...], e.g. /discard 4 or "
        "/discard 5 keep 2 coal 2 oil"
    ),
)
def _discard(call: Call) -> Action | Reply:
    state, player, words, t, usage = call.state, call.player, call.words, call.t, call.spec.usage
    if not words:
        raise ParseError(usage)
    view = cv.view_of(state, player)
    plant = own_plant(view, player, words[0], usage)
    action: Action = {"type": "discard", "plant": plant}
    rest = words[1:]
    keep_word = bool(rest) and rest[0].casefold() == "keep"
    if keep_word:
        rest = rest[1:]
    if rest:  # PG-27: the tokens the player keeps
        keep: dict[str, int] = {}
        for resource, count in resource_counts(rest, usage, t):
            keep[resource] = keep.get(resource, 0) + count
        action["keep"] = keep
        return action
    options = keep_choices(view, player, plant)
    if len(options) > 1 and not keep_word:
        # PG-27: a real choice; `/discard <plant> keep` alone takes the default (the first)
        lines = [
            t.gettext(
                "Without plant {plant} your plants cannot store all your tokens (PG-27). "
                "Choose what to keep:"
            ).format(plant=plant)
        ]
        for i, option in enumerate(options):
            command = keep_command(plant, option)
            label = keep_text(t, option)
            if i == 0:
                lines.append(
                    t.gettext("{command} — {tokens} (default: /discard {plant} keep)").format(
                        command=command, tokens=label, plant=plant
                    )
                )
            else:
                lines.append(f"{command} — {label}")
        return Reply(
            "\n".join(lines),
            private=True,
            extra={"choices": [keep_command(plant, o) for o in options]},
        )
    return action


@TABLE.command(
    "buy",
    N_("Buy resources, always the cheapest first: a resource and a count, repeatable."),
    (
        ArgSpec("resource", "resource", N_("coal (c), oil (o), garbage (g), uranium (u)")),
        ArgSpec("count", "int", N_("how many"), required=False),
        ArgSpec("more", "rest", N_("more resource/count pairs"), required=False),
    ),
    ("/buy coal 3", "/buy c 2 o 3", "/buy uranium 1", "/buy auto limit=30"),
    usage=N_(
        "Usage: /buy <resource> <count> [<resource> <count> ...], e.g. /buy coal 3 oil 2, "
        "or /buy auto [limit=<money>]"
    ),
)
def _buy(call: Call) -> Action | list[Action]:
    words, usage = call.words, call.spec.usage
    if not words:
        raise ParseError(usage)
    if words[0].casefold() == "auto":
        rest, limit = limit_of(words[1:], usage)
        if rest:
            raise ParseError(usage, word=rest[0])
        return _order("buy_auto", limit=limit)
    merged: dict[str, int] = {}
    for resource, count in resource_counts(words, usage, call.t, least=1):  # PG-31
        merged[resource] = merged.get(resource, 0) + count
    actions = [{"type": "buy", "resource": res, "count": n} for res, n in merged.items() if n > 0]
    if not actions:
        raise ParseError(usage)
    return actions[0] if len(actions) == 1 else actions


@TABLE.command(
    "build",
    N_(
        "Build houses in one or more cities, in this order; each pays the cheapest route. "
        "/build plan <city> ... builds them when your turn comes."
    ),
    (ArgSpec("city", "city", N_("a city name or its first letters"), repeated=True),),
    (
        "/build Berlin",
        "/build dussel essen",
        "/build New York Boston",
        "/build plan Kiel",
        "/build plan none",
    ),
    usage=N_(
        "Usage: /build <city> [<city> ...], e.g. /build Berlin Magdeburg, "
        "or /build plan <city> [<city> ...] (or none)"
    ),
)
def _build(call: Call) -> Action | list[Action]:
    words, usage = call.words, call.spec.usage
    if not words:
        raise ParseError(usage)
    plan = words[0].casefold() == "plan"
    if plan:
        words = words[1:]
        if not words:
            raise ParseError(usage)
        if len(words) == 1 and names.words(words[0]) in (["none"], ["nothing"], ["0"]):
            return _order("build_plan", cities=[])  # build nothing when my turn comes
    cities: list[str] = call.read("city", words)
    repeated = sorted({c for c in cities if cities.count(c) > 1})
    if repeated:
        raise IllegalAction(
            "PG-38", N_("You can build only one house in {city}."), city=repeated[0]
        )
    if plan:
        return _order("build_plan", cities=cities)
    if len(cities) > 1:
        refuse_shortfall(call.state, call.player, cities)
    actions = [{"type": "build", "city": city} for city in cities]
    return actions[0] if len(actions) == 1 else actions


@TABLE.command(
    "power",
    N_(
        "Run plants and earn income. Without plant numbers: power the most cities, "
        "burning the cheapest fuel. coal=n oil=n choose what hybrid plants burn. "
        "/power auto does that for you every round."
    ),
    (
        ArgSpec("plants", "plant", N_("the plants to run"), required=False, repeated=True),
        ArgSpec("fuel", "rest", N_("coal=n oil=n for hybrid plants"), required=False),
    ),
    ("/power", "/power 4 7", "/power 5 coal=1 oil=1", "/power none", "/power auto"),
    usage=N_(
        "Usage: /power [<plant> ...] [coal=<n> oil=<n>], e.g. /power 4 7, or /power, or /power auto"
    ),
)
def _power(call: Call) -> Action:
    state, player, words, usage = call.state, call.player, call.words, call.spec.usage
    view = cv.view_of(state, player)
    if player not in view["players"]:
        raise ParseError(N_("You are not playing in this game."))
    if len(words) == 1 and words[0].casefold() == "auto":
        return _order("power_auto")
    if not words:
        plants, coal, oil, _ = best_power(view, player)
        return power_action(plants, coal, oil)
    if len(words) == 1 and names.words(words[0]) in (["none"], ["0"], ["nothing"]):
        return {"type": "power", "plants": []}
    chosen: list[int] = []
    fuel: dict[str, int] = {}
    tokens = split_counts(words)
    i = 0
    while i < len(tokens):
        word = tokens[i]
        if PLANT_WORD.fullmatch(word):
            number = own_plant(view, player, word, usage)
            if number in chosen:
                raise ParseError(usage, word=word)
            chosen.append(number)
            i += 1
            continue
        try:
            resource = resource_of(word)
        except ParseError:
            raise ParseError(usage, word=word) from None
        if resource not in HYBRID_FUELS:
            raise ParseError(
                N_("Only what hybrid plants burn can be chosen: coal=<n> oil=<n>."),
            )
        if i + 1 >= len(tokens) or not INT_WORD.fullmatch(tokens[i + 1]):
            raise ParseError(usage, word=word)
        fuel[resource] = fuel.get(resource, 0) + int(tokens[i + 1])
        i += 2
    if not chosen:
        raise ParseError(usage)
    action: Action = {"type": "power", "plants": sorted(chosen)}
    if fuel:
        action["coal"] = fuel.get("coal", 0)
        action["oil"] = fuel.get("oil", 0)
    return action


@TABLE.command(
    "done",
    N_("End your turn of buying or building."),
    (),
    ("/done",),
    usage=N_("Usage: /done"),
)
def _done(call: Call) -> Action:
    return {"type": "done"}


@TABLE.command(
    "region",
    N_("Choose a region for the play area (it must border the regions already chosen)."),
    (ArgSpec("region", "region", N_("a region name or id")),),
    ("/region NW", "/region north-west"),
    usage=N_("Usage: /region <region>, e.g. /region NW"),
)
def _region(call: Call) -> Action:
    if not call.words:
        raise call.usage_error()
    return {"type": "choose_region", "region": call.read("region")}


@TABLE.command(
    "orders",
    N_("Your standing orders (only you see them) and any that were dropped."),
    (),
    ("/orders",),
    kind="quote",
    usage=N_("Usage: /orders"),
)
def _orders(call: Call) -> Reply:
    state, player, t = call.state, call.player, call.t
    return Reply(orders_text(cv.view_of(state, player), player, t), private=True)


@TABLE.command(
    "cancel",
    N_("Cancel your standing orders: all, or one kind (bid, pass, buy, build, power)."),
    (ArgSpec("kind", "rest", N_("bid, pass, buy, build, power or all"), required=False),),
    ("/cancel", "/cancel build"),
    usage=N_("Usage: /cancel [bid|pass|buy|build|power|all]"),
)
def _cancel(call: Call) -> Action:
    words, usage = call.words, call.spec.usage
    if len(words) > 1 or (words and words[0].casefold() not in CANCEL_KINDS):
        raise ParseError(usage, word=words[0] if words else "")
    return {"type": "cancel", "kinds": CANCEL_KINDS[words[0].casefold()] if words else []}


@TABLE.command(
    "cost",
    N_(
        "What building in these cities would cost you now: route and house slot per "
        "city, and a cheaper order if there is one."
    ),
    (ArgSpec("city", "city", N_("a city name or its first letters"), repeated=True),),
    ("/cost Berlin", "/cost frankfurt-m wiesbaden"),
    kind="quote",
    usage=N_("Usage: /cost <city> [<city> ...], e.g. /cost Berlin Magdeburg"),
)
def _cost(call: Call) -> Reply:
    state, player, words, t, usage = call.state, call.player, call.words, call.t, call.spec.usage
    if not words:
        raise ParseError(usage)
    from engine.powergrid import quotes

    view = cv.view_of(state, player)
    if player not in view["players"]:
        raise ParseError(N_("You are not playing in this game."))
    cities = cities_of(view, words)
    quote = quotes.connection_quote(state, player, cities)
    # under hidden money (PG-9) a quote tells whether the asker can pay: his alone
    return Reply(cost_text(quote, t), private=state["hidden_money"], extra={"quote": quote})


@TABLE.command(
    "price",
    N_("What buying n tokens of a resource costs right now."),
    (
        ArgSpec("resource", "resource", N_("coal, oil, garbage or uranium")),
        ArgSpec("count", "int", N_("how many"), required=False),
    ),
    ("/price coal 3", "/price u 1"),
    kind="quote",
    usage=N_("Usage: /price <resource> [<count>], e.g. /price coal 3"),
)
def _price(call: Call) -> Reply:
    state, words, t, usage = call.state, call.words, call.t, call.spec.usage
    pairs = resource_counts(words, usage, t, least=1) if words else []
    if len(pairs) != 1:  # ("/price coal 0" asks for nothing: refused as a count)
        raise ParseError(usage)
    resource, n = pairs[0]
    from engine.powergrid import quotes

    quote = quotes.resource_quote(state, resource, n)
    return Reply(price_text(resource, n, quote, t), extra={"quote": quote})


@TABLE.command(
    "income",
    N_("How many cities you can power with your plants and resources, and the income."),
    (),
    ("/income",),
    kind="quote",
    usage=N_("Usage: /income"),
)
def _income(call: Call) -> Reply:
    state, player, t = call.state, call.player, call.t
    from engine.powergrid import quotes

    view = cv.view_of(state, player)
    if player not in view["players"]:
        raise ParseError(N_("You are not playing in this game."))
    quote = quotes.income_quote(state, player)
    return Reply(income_text(quote, t), extra={"quote": quote})


@TABLE.command(
    "market",
    N_("The plant market and the resource market."),
    (),
    ("/market",),
    kind="quote",
    usage=N_("Usage: /market"),
)
def _market(call: Call) -> Reply:
    state, player, t = call.state, call.player, call.t
    return Reply(market_text(cv.view_of(state, player), t))


@TABLE.command(
    "plants",
    N_("Every player's plants, resources, money and cities."),
    (),
    ("/plants",),
    kind="quote",
    usage=N_("Usage: /plants"),
)
def _plants(call: Call) -> Reply:
    state, player, t = call.state, call.player, call.t
    if not state.get("hidden_money"):
        return Reply(plants_text(cv.view_of(state, player), t))
    # PG-9: the group's answer shows nobody's money; the asker's own copy shows his (the
    # table sends it to him alone; asked in a private chat, he reads only that).
    public, own = plants_text(cv.view_of(state, None), t), plants_text(cv.view_of(state, player), t)
    return Reply(public, own=own if own != public else None)


def _bid_now(view: View, words: list[str], usage: str) -> Action:
    auction = view.get("auction")
    if auction is not None:
        number = auction["plant"]["number"]
        if len(words) == 1:
            bid = amount_of(words[0], auction["high_bid"], usage)
            if bid == number and bid <= auction["high_bid"]:
                # "/bid 13" while 13 is on auction: bid on it, the smallest raise.
                bid = auction["high_bid"] + 1
            return {"type": "raise", "bid": bid}
        plant = plant_number(words[0], usage)
        if plant != number:
            raise IllegalAction(
                "PG-21",
                N_("Plant {number} is being auctioned, not {plant}: /raise <amount> or /pass."),
                number=number,
                plant=plant,
            )
        return {"type": "raise", "bid": amount_of(words[1], auction["high_bid"], usage)}
    plant = plant_number(words[0], usage)
    market = market_numbers(view)
    if plant not in market:
        raise IllegalAction(
            "PG-20",
            N_("Plant {plant} is not in the current market: {market}."),
            plant=plant,
            market=Listed(map(str, market)),
        )
    bid = plant if len(words) == 1 else amount_of(words[1], plant, usage)
    return {"type": "open", "plant": plant, "bid": bid}


def _order(kind: str, **fields: Any) -> Action:
    return {"type": "order", "kind": kind, **fields}


# --------------------------------------------------------------------------------------------
# The table's entry points
# --------------------------------------------------------------------------------------------

COMMANDS: list[CommandSpec] = TABLE.specs
USAGE: dict[str, str] = dict(TABLE.usage)


def parse(
    state: State,
    player: str,
    name: str,
    args: list[str],
    t: Translator | None = None,
) -> Action | list[Action] | Reply:
    """Chat command -> action(s), or a Reply for quotes. Raises ParseError / IllegalAction.

    `t` translates quote texts (English when omitted). The state is never changed.
    """
    return TABLE.parse(state, player, name, args, t)


def complete(state: State | None, player: str | None, kind: str, prefix: str) -> list[str]:
    """Autocomplete candidates (at most 25) for an argument kind."""
    return TABLE.complete(state, player, kind, prefix)


def int_word(word: str, command: str) -> int:
    """A whole number, or the usage line of `command` as the error (the variant's parsers)."""
    return read_int(word, USAGE[command])


# --------------------------------------------------------------------------------------------
# The command that plays an action (what /hint leads with)
# --------------------------------------------------------------------------------------------


def command_text(state: State, player: str, action: Action) -> str | None:
    """The chat command that plays `action` for `player` now, every choice spelt out
    ("/build Frankfurt-Main", "/bid 13 15", "/discard 5 keep 2 coal 0 oil", "/power 5 7
    coal=1 oil=2"), or None when none does. Checked by reading it back as the player's
    command is read: a command that would give another move (or a question, or several
    moves) is never offered. A discard whose tokens the rules would keep by default says
    "keep" when the parser would otherwise ask which to keep (PG-27)."""
    try:
        name, words = command_words(state, action)
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    tries = [words]
    if action.get("type") == "discard" and "keep" not in action:
        tries.append([*words, "keep"])  # PG-27: "/discard 5 keep" takes the default
    for args in tries:
        try:
            parsed = parse(state, player, name, " ".join(args).split())
        except (IllegalAction, KeyError, TypeError, ValueError):
            continue
        if not isinstance(parsed, (list, Reply)) and _plain(parsed) == _plain(action):
            return " ".join(["/" + name, *args])
    return None


def _plain(action: Action) -> str:
    """An action's canonical text: the plants of a run in order, and the hybrids' fuel with
    both coal and oil named when one is (PG-42: the other is the rest of their need)."""
    if action.get("type") == "power":
        fuel = hybrid_fuel(action) if isinstance(action.get("plants"), list) else {}
        action = {**action, "plants": sorted(action.get("plants") or []), **fuel}
    return canonical_json(action)
