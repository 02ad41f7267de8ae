"""Chat layer of the variant: chat words -> actions, state -> texts, buttons, autocomplete.

The auction, region and shared texts come from the base game's chat layer (city and
resource words, event lines); this module adds the variant's commands: /plant, /upgrade,
/move, /line, /tp, /power with cities and a hybrid mix, and the quotes
/cost line|plant|move, /income, /board.
Pure: it reads the state through `view`, `rules` queries and `quotes`, never changing it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

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
from engine.powergrid import commands as base
from engine.powergrid import market as mk
from engine.powergrid import names
from engine.powergrid_alt import ending, quotes
from engine.powergrid_alt import rules as r
from engine.powergrid_alt.graph import alt_map
from engine.powergrid_alt.options import OPTIONS
from engine.powergrid_alt.texts import (
    board_text,
    cost_text,
    describe_event,
    describe_private_event,
    describe_turn,
    is_picture_event,
    move_text,
    tokens_text,
    undoable,
)
from engine.powergrid_alt.view import view as _view

__all__ = [
    "COMMANDS",
    "OPTIONS",
    "board_text",
    "buttons",
    "complete",
    "cost_text",
    "describe_event",
    "describe_private_event",
    "describe_turn",
    "is_picture_event",
    "move_text",
    "parse",
    "tokens_text",
    "undoable",
]

View = dict[str, Any]
_ENGLISH = EnglishTranslator()
_CITY = ArgSpec("city", "city", N_("a city name or its first letters"))
_PLANT = ArgSpec("plant", "plant", N_("a plant number, e.g. 13"))

COMMANDS: list[CommandSpec] = [
    CommandSpec(
        "bid",
        N_(
            "Open an auction on a plant of the current market (the opening bid defaults to "
            "its number), or bid on the plant being auctioned."
        ),
        (_PLANT, ArgSpec("amount", "int", N_("your bid in Elektro"), required=False)),
        ("/bid 13 15", "/bid 7"),
    ),
    # the base game's auction words; its standing orders (max=, /maxbid) are not offered
    *[c for c in base.COMMANDS if c.name in ("raise", "pass", "region", "done")],
    CommandSpec(
        "buy",
        N_("Buy resources onto one of your built plants (ALT-10), cheapest first."),
        (
            ArgSpec("resource", "resource", N_("coal, oil, garbage or uranium")),
            ArgSpec("count", "int", N_("how many"), required=False),
            ArgSpec("plant", "plant", N_("the built plant to store them on"), required=False),
        ),
        ("/buy coal 2 4", "/buy oil 3"),
    ),
    CommandSpec(
        "plant",
        N_("Build a plant from your hand in a city for 10 E (pollution limits apply)."),
        (_PLANT, _CITY),
        ("/plant 13 Kiel", "/plant 4 essen"),
    ),
    CommandSpec(
        "upgrade",
        N_(
            "Replace a built plant by a hand plant of the same type (or fusion), free; its "
            "tokens move onto the new plant, then onto your other plants that store them."
        ),
        (
            ArgSpec("old", "plant", N_("the built plant")),
            ArgSpec("new", "plant", N_("the hand plant")),
            ArgSpec(
                "into",
                "rest",
                N_("your other plants to take the tokens first (default: lowest number first)"),
                required=False,
            ),
        ),
        ("/upgrade 10 25", "/upgrade 10 25 31"),
    ),
    CommandSpec(
        "move",
        N_("Move tokens between two of your built plants: 1 E per started 10 of route cost."),
        (
            ArgSpec("count", "int", N_("how many tokens")),
            ArgSpec("resource", "resource", N_("coal, oil, garbage or uranium")),
            ArgSpec("from", "plant", N_("source plant")),
            ArgSpec("to", "plant", N_("destination plant")),
        ),
        ("/move 2 coal 4 25",),
    ),
    CommandSpec(
        "line",
        N_(
            "Lay your own line from your plant or TP to a city (a TP there costs 5 E); "
            "without 'via' the cheapest free route is taken."
        ),
        (
            ArgSpec("from", "city", N_("your plant or TP city")),
            ArgSpec("to", "city", N_("the end city")),
            ArgSpec("via", "rest", N_("via <city> ... : cities passed through"), required=False),
        ),
        ("/line Freiburg Stuttgart", "/line Freiburg Würzburg via Stuttgart"),
    ),
    CommandSpec(
        "tp",
        N_("Place a TP (5 E) in a city one of your lines passes through."),
        (_CITY,),
        ("/tp Stuttgart",),
    ),
    CommandSpec(
        "power",
        N_(
            "Run plants and earn income. Without arguments: every plant that has fuel, "
            "the best cities. Plant numbers choose the plants, city names the cities, "
            "coal=n oil=n what the hybrid plants burn."
        ),
        (
            ArgSpec(
                "what",
                "rest",
                N_("plant numbers, city names, coal=n oil=n"),
                required=False,
            ),
        ),
        ("/power", "/power 4 13", "/power 13 Stuttgart", "/power 5 12 coal=3 oil=1", "/power none"),
    ),
    CommandSpec(
        "endgame",
        N_(
            "Propose to end the game by agreement: a table vote, scored as ALT-44 after this "
            "round's Phase 5; /endgame yes or /endgame no answers an open vote."
        ),
        (
            ArgSpec(
                "answer",
                "choice",
                N_("yes or no: your answer to the open vote"),
                required=False,
                choices=("yes", "no"),
            ),
        ),
        ("/endgame", "/endgame yes", "/endgame no"),
    ),
    CommandSpec(
        "cost",
        N_(
            "Price a line (and the income its end city would bring), a plant or a transfer "
            "of resources before paying."
        ),
        (
            ArgSpec(
                "what",
                "rest",
                N_("line <from> <to> [via ...] | plant <n> <city> | move <n> <res> <from> <to>"),
            ),
        ),
        (
            "/cost line Freiburg Würzburg via Stuttgart",
            "/cost plant 13 Kiel",
            "/cost move 2 coal 4 25",
        ),
        kind="quote",
    ),
    CommandSpec(
        "income",
        N_("What powering now would pay: cities, income, penalties."),
        (),
        ("/income",),
        kind="quote",
    ),
    CommandSpec(
        "board",
        N_("Plants in cities, TPs, lines and each region's pollution."),
        (),
        ("/board",),
        kind="quote",
    ),
]

USAGE: dict[str, str] = {
    "bid": N_("Usage: /bid <plant> [<amount>], or /bid <amount> in an auction, e.g. /bid 13 15"),
    "buy": N_("Usage: /buy <resource> [<count>] [<plant>], e.g. /buy coal 2 4"),
    "plant": N_("Usage: /plant <plant> <city>, e.g. /plant 13 Kiel"),
    "upgrade": N_(
        "Usage: /upgrade <old plant> <new plant> [<plant for the tokens> ...], "
        "e.g. /upgrade 10 25 or /upgrade 10 25 31"
    ),
    "move": N_("Usage: /move <count> <resource> <from plant> <to plant>, e.g. /move 2 coal 4 25"),
    "line": N_("Usage: /line <from> <to> [via <city> ...], e.g. /line Freiburg Stuttgart"),
    "tp": N_("Usage: /tp <city>, e.g. /tp Stuttgart"),
    "power": N_(
        "Usage: /power [<plant> ...] [<city> ...] [coal=<n> oil=<n>], e.g. /power 4 13, "
        "/power 5 coal=1 oil=1, or /power"
    ),
    "cost": N_(
        "Usage: /cost line <from> <to> [via <city> ...] | /cost plant <plant> <city> | "
        "/cost move <count> <resource> <from plant> <to plant>"
    ),
    "endgame": N_("Usage: /endgame to propose ending the game, /endgame yes or /endgame no"),
    "income": N_("Usage: /income"),
    "board": N_("Usage: /board"),
}


# --------------------------------------------------------------------------------------------
# parse
# --------------------------------------------------------------------------------------------


def parse(
    state: State, player: str, name: str, args: list[str], t: Translator | None = None
) -> Action | list[Action] | Reply:
    command = name.strip().lstrip("/").casefold()
    words = [w for arg in args for w in arg.split()]
    tr = t or _ENGLISH
    handler = _PARSERS.get(command)
    if handler is None:
        raise ParseError(
            N_("Unknown command /{name}. Commands: {commands}"),
            name=command,
            commands=" ".join(f"/{c.name}" for c in COMMANDS),
        )
    return handler(state, player, words, tr)


def _usage(command: str, words: Sequence[str] = ()) -> ParseError:
    return ParseError(USAGE[command], word=words[0] if words else "")


def _plant(word: str, command: str) -> int:
    found = base.PLANT_WORD.fullmatch(word.strip())
    if not found:
        raise _usage(command, [word])
    return int(found.group(1))


def _cities(state: State, player: str, words: Sequence[str]) -> list[str]:
    return base.cities_of(_view(state, player), words)


def _one_city(state: State, player: str, words: Sequence[str], command: str) -> str:
    found = _cities(state, player, words)
    if len(found) != 1:
        raise _usage(command, words)
    return found[0]


def _parse_bid(state: State, player: str, words: list[str], t: Translator) -> Action:
    auction = state["auction"]
    if not words or len(words) > 2:
        raise _usage("bid", words)
    if auction is not None:
        amount = words[-1]
        if amount.startswith("+"):
            return {"type": "raise", "bid": auction["bid"] + base.int_word(amount[1:], "bid")}
        bid = base.int_word(amount, "bid")
        if len(words) == 1 and bid == auction["plant"] and bid <= auction["bid"]:
            bid = auction["bid"] + 1
        return {"type": "raise", "bid": bid}
    plant = _plant(words[0], "bid")
    bid = plant if len(words) == 1 else base.int_word(words[1], "bid")
    return {"type": "open", "plant": plant, "bid": bid}


def _parse_raise(state: State, player: str, words: list[str], t: Translator) -> Action:
    auction = state["auction"]
    if auction is None:
        raise IllegalAction(
            "PG-21", N_("No plant is being auctioned; open one with /bid <plant> <amount>.")
        )
    if not words:
        return {"type": "raise", "bid": auction["bid"] + 1}
    word = words[0]
    if word.startswith("+"):
        return {"type": "raise", "bid": auction["bid"] + base.int_word(word[1:], "raise")}
    return {"type": "raise", "bid": base.int_word(word, "raise")}


def _parse_pass(state: State, player: str, words: list[str], t: Translator) -> Action:
    return {"type": "pass"}


def _parse_done(state: State, player: str, words: list[str], t: Translator) -> Action:
    return {"type": "done"}


def _parse_endgame(state: State, player: str, words: list[str], t: Translator) -> Action:
    """The table vote to end by agreement (ALT-45, ending.py)."""
    answer = [w.casefold() for w in words]
    if answer == ["yes"]:
        return {"type": "accept_end"}
    if answer == ["no"]:
        return {"type": "decline_end"}
    if answer:
        raise _usage("endgame", words)
    vote = state.get("end_vote")
    if vote is not None and player not in vote["yes"]:
        return {"type": "accept_end"}
    return {"type": "propose_end"}


def _parse_region(state: State, player: str, words: list[str], t: Translator) -> Action:
    if not words:
        raise ParseError(base.USAGE["region"])
    return {"type": "choose_region", "region": base.region_of(_view(state, player), words)}


def _parse_buy(state: State, player: str, words: list[str], t: Translator) -> Action:
    if not 1 <= len(words) <= 3:
        raise _usage("buy", words)
    action: Action = {"type": "buy", "resource": base.resource_of(words[0]), "count": 1}
    if len(words) >= 2:
        action["count"] = base.int_word(words[1], "buy") if words[1].isdigit() else 0
        if not words[1].isdigit():
            raise _usage("buy", words[1:])
    if len(words) == 3:
        action["plant"] = _plant(words[2], "buy")
    return action


def _parse_plant(state: State, player: str, words: list[str], t: Translator) -> Action:
    if len(words) < 2:
        raise _usage("plant", words)
    return {
        "type": "build_plant",
        "plant": _plant(words[0], "plant"),
        "city": _one_city(state, player, words[1:], "plant"),
    }


def _parse_upgrade(state: State, player: str, words: list[str], t: Translator) -> Action:
    if len(words) < 2:
        raise _usage("upgrade", words)
    action: Action = {
        "type": "upgrade",
        "old": _plant(words[0], "upgrade"),
        "new": _plant(words[1], "upgrade"),
    }
    if len(words) > 2:  # ALT-20: where the tokens the new plant cannot store go first
        action["into"] = [_plant(w, "upgrade") for w in words[2:]]
    return action


def _parse_move(state: State, player: str, words: list[str], t: Translator) -> Action:
    if len(words) != 4 or not words[0].isdigit():
        raise _usage("move", words)
    return {
        "type": "move",
        "from": _plant(words[2], "move"),
        "to": _plant(words[3], "move"),
        "tokens": {base.resource_of(words[1]): int(words[0])},
    }


def _line_cities(state: State, player: str, words: list[str]) -> list[str]:
    """`<from> <to> [via <city> ...]` -> the chain of cities (auto-routed without via)."""
    lowered = [w.casefold() for w in words]
    via: list[str] = []
    if "via" in lowered:
        i = lowered.index("via")
        via = _cities(state, player, words[i + 1 :])
        words = words[:i]
    ends = _cities(state, player, words)
    if len(ends) != 2:
        raise _usage("line", words)
    am = alt_map(state["map"])
    start, end = (am.alias.get(c, c) for c in ends)
    if via:
        return [start, *(am.alias.get(c, c) for c in via), end]
    found = quotes.route(state, player, start, end)
    if found is None:
        raise IllegalAction(
            "ALT-22",
            N_("There is no free route from {a} to {b} for you."),
            a=am.label(start),
            b=am.label(end),
        )
    return found


def _parse_line(state: State, player: str, words: list[str], t: Translator) -> Action:
    return {"type": "line", "cities": _line_cities(state, player, words)}


def _parse_tp(state: State, player: str, words: list[str], t: Translator) -> Action:
    if not words:
        raise _usage("tp", words)
    return {"type": "tp", "city": _one_city(state, player, words, "tp")}


def _parse_power(state: State, player: str, words: list[str], t: Translator) -> Action:
    """Plant numbers, city names and a hybrid mix "coal=n oil=n" (also "coal 3", "3coal"),
    in any order; a count always follows or precedes its resource word."""
    if [w.casefold() for w in words] == ["none"]:
        return {"type": "power", "plants": [], "cities": []}
    tokens = base.split_counts(words)
    numbers: list[str] = []
    rest: list[str] = []
    fuel: dict[str, int] = {}
    i = 0
    while i < len(tokens):
        word = tokens[i]
        resource = _fuel_word(word)
        if resource is not None:
            if i + 1 < len(tokens) and tokens[i + 1].isdigit():
                fuel[resource] = fuel.get(resource, 0) + int(tokens[i + 1])
                i += 2
                continue
            if numbers and numbers[-1].isdigit() and i > 0 and tokens[i - 1] == numbers[-1]:
                fuel[resource] = fuel.get(resource, 0) + int(numbers.pop())  # "3coal"
                i += 1
                continue
            raise _usage("power", [word])
        if word.lstrip("#").isdigit():
            numbers.append(word)
        else:
            rest.append(word)
        i += 1
    plants = [_plant(w, "power") for w in numbers] if numbers else r.runnable(state, player)
    action: Action = {"type": "power", "plants": plants}
    if rest:
        action["cities"] = _cities(state, player, rest)
    for resource, count in fuel.items():
        action[resource] = count
    return action


def _fuel_word(word: str) -> str | None:
    """ "coal" or "oil" when the word is a resource word (no prefixes, so that city names
    stay cities), else None; another resource is an error: only hybrids have a choice."""
    resource = base.RESOURCE_WORDS.get("".join(names.words(word)))
    if resource is None:
        return None
    if resource not in base.HYBRID_FUELS:
        raise ParseError(N_("Only what hybrid plants burn can be chosen: coal=<n> oil=<n>."))
    return resource


def _parse_cost(state: State, player: str, words: list[str], t: Translator) -> Reply:
    if not words:
        raise _usage("cost", words)
    what = words[0].casefold()
    if what == "plant" and len(words) >= 3:
        number = _plant(words[1], "cost")
        city = _one_city(state, player, words[2:], "cost")
        try:
            r.build_plant_check(state, player, number, city)
        except IllegalAction as err:
            return Reply(
                t.gettext("Not possible: {reason}").format(reason=err.english()), private=True
            )
        return Reply(
            t.gettext("Plant {plant} in {city}: 10 E.").format(plant=number, city=city),
            private=True,
        )
    if what == "move":
        action = _parse_move(state, player, words[1:], t)
        quote = quotes.move_quote(state, player, action)
        return Reply(move_text(state, action, quote, t), private=True, extra={"quote": quote})
    if what == "line":
        words = words[1:]
    cities = _line_cities(state, player, words)
    quote = quotes.line_quote(state, player, cities)
    return Reply(cost_text(state, quote, t), private=True, extra={"quote": quote})


def _parse_income(state: State, player: str, words: list[str], t: Translator) -> Reply:
    q = quotes.power_quote(state, player)
    am = alt_map(state["map"])
    text = t.ngettext(
        "Running {plants} powers {n} city ({cities}): {income} E; penalties {bank} E.",
        "Running {plants} powers {n} cities ({cities}): {income} E; penalties {bank} E.",
        len(q["cities"]),
    ).format(
        plants=", ".join(map(str, q["plants"])) or "-",
        n=len(q["cities"]),
        cities=", ".join(am.label(c) for c in q["cities"]) or "-",
        income=q["income"],
        bank=q["penalty_bank"] + sum(q["penalty_players"].values()),
    )
    return Reply(text, private=True, extra={"quote": q})


def _parse_board(state: State, player: str, words: list[str], t: Translator) -> Reply:
    # A public answer: with hidden money it shows nobody's money, the asker's included (as
    # the base game's /plants, issue 20).
    return Reply(board_text(state, t))


_PARSERS: dict[str, Callable[[State, str, list[str], Translator], Action | Reply]] = {
    "bid": _parse_bid,
    "raise": _parse_raise,
    "pass": _parse_pass,
    "done": _parse_done,
    "region": _parse_region,
    "endgame": _parse_endgame,
    "buy": _parse_buy,
    "plant": _parse_plant,
    "upgrade": _parse_upgrade,
    "move": _parse_move,
    "line": _parse_line,
    "tp": _parse_tp,
    "power": _parse_power,
    "cost": _parse_cost,
    "income": _parse_income,
    "board": _parse_board,
}


# --------------------------------------------------------------------------------------------
# Buttons and autocomplete
# --------------------------------------------------------------------------------------------


def buttons(state: State, player: str, t: Translator = _ENGLISH) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if ending.vote_actions(state, player):  # an open vote to end: every seated player answers
        out += [(t.gettext("End the game"), "/endgame yes"), (t.gettext("Play on"), "/endgame no")]
    if player not in r.current_players(state):
        return out
    want = r.expected(state)
    if want == "choose_plant":
        # Buttons are posted in the group: under hidden money they must not be filtered by
        # the player's money (the affordable plants would tell it), issue 20.
        money = None if state["hidden_money"] else state["players"][player]["money"]
        out += [
            (str(n), f"/bid {n}") for n in mk.current_market(state) if money is None or n <= money
        ]
        if state["round"] != 1:
            out.append((t.gettext("Pass"), "/pass"))
    elif want == "bid":
        out += [(t.gettext("+1"), "/raise"), (t.gettext("Pass"), "/pass")]
    elif want in ("buy", "build"):
        out.append((t.gettext("Done"), "/done"))
    elif want == "power":
        out += [(t.gettext("Power"), "/power"), (t.gettext("Run nothing"), "/power none")]
    return out


def complete(state: State | None, player: str | None, kind: str, prefix: str) -> list[str]:
    if kind == "city" and state is not None:
        am = alt_map(state["map"])
        cities = [c for n in r.play_nodes(state) for c in am.members[n]]
        return names.prefixed(prefix, cities, base.MAX_COMPLETIONS)
    if kind == "plant" and state is not None:
        numbers = list(mk.current_market(state))
        if player in state["players"]:
            numbers += state["players"][player]["plants"]
        digits = prefix.strip().lstrip("#")
        return [str(n) for n in dict.fromkeys(numbers) if str(n).startswith(digits)][
            : base.MAX_COMPLETIONS
        ]
    if kind in ("resource", "city"):
        return base.complete(None, player, kind, prefix)
    return []
