"""Chat layer of the variant: chat words -> actions, state -> texts, buttons, autocomplete.

The auction, region and shared texts come from the base game's chat layer (city and
resource words, event lines); this module adds the variant's commands: /plant, /upgrade,
/move, /line, /tp, /power with cities and a hybrid mix, and the quotes
/cost line|plant|move, /income, /board. Each command is declared once (engine/core/commands.py's
`CommandTable`): the spec, its usage line and the function that reads it stand together.
Pure: it reads the state through `view`, `rules` queries and `quotes`, never changing it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from engine.core import canonical_json
from engine.core.commands import ArgKind, Call, CommandTable
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
from engine.core.sentences import join_list, sentence_gap
from engine.powergrid import commands as base
from engine.powergrid import market as mk
from engine.powergrid import names
from engine.powergrid.arg_kinds import complete_cities, complete_regions
from engine.powergrid.chat_view import choosable_regions
from engine.powergrid_alt import ending, purchase, quotes
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
    plants_text,
    refusal_text,
    tokens_text,
    undoable,
)
from engine.powergrid_alt.view import view as _view

__all__ = [
    "COMMANDS",
    "OPTIONS",
    "TABLE",
    "USAGE",
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
    "plants_text",
    "tokens_text",
    "undoable",
]

_ENGLISH = EnglishTranslator()

# Each command declared once: its spec and usage line right above the function that reads it
# (engine/core/commands.py). The auction words the variant shares with the base game keep the
# base game's declaration (`TABLE.declared`); its standing orders (max=, /maxbid) are not
# offered.
TABLE = CommandTable()

# --------------------------------------------------------------------------------------------
# The argument kinds: the base game's readers, the variant's map and plants to complete
# --------------------------------------------------------------------------------------------


def _complete_city(state: State | None, player: str | None, prefix: str) -> list[str]:
    if state is None:  # no game yet: the base game's answer (every city of every map)
        return base.TABLE.complete(None, player, "city", prefix)
    am = alt_map(state["map"])
    cities = [c for n in r.play_nodes(state) for c in am.members[n]]
    return complete_cities(prefix, cities, state["map"])


def _complete_plant(state: State | None, player: str | None, prefix: str) -> list[str]:
    if state is None:
        return []
    numbers = list(mk.current_market(state))
    if player in state["players"]:
        numbers += state["players"][player]["plants"]
    digits = prefix.strip().lstrip("#")
    return [str(n) for n in dict.fromkeys(numbers) if str(n).startswith(digits)][
        : base.MAX_COMPLETIONS
    ]


def _complete_region(state: State | None, player: str | None, prefix: str) -> list[str]:
    """The base game's answer on the variant's view ("wsch" -> "Wschód"): it had none."""
    return [] if state is None else complete_regions(prefix, _view(state, player))


def _read_cities(call: Call, words: Sequence[str]) -> list[str]:
    return base.cities_of(_view(call.state, call.player), words)


def _read_region(call: Call, words: Sequence[str]) -> str:
    return base.region_of(_view(call.state, call.player), words, call.t)


TABLE.kind(base.TABLE.kinds["int"])
TABLE.kind(base.TABLE.kinds["resource"])
TABLE.kind(ArgKind("plant", read=base.TABLE.kinds["plant"].read, complete=_complete_plant))
TABLE.kind(ArgKind("city", read=_read_cities, complete=_complete_city))
TABLE.kind(ArgKind("region", read=_read_region, complete=_complete_region))


def _usage(call: Call, words: Sequence[str] = ()) -> ParseError:
    """The command's usage line as the error, naming the first word that did not fit."""
    return ParseError(call.spec.usage, word=words[0] if words else "")


def _base_spec(name: str) -> CommandSpec:
    spec = base.TABLE.spec(name)
    if spec is None:
        raise KeyError(f"the base game declares no /{name}")
    return spec


def _one_city(call: Call, words: Sequence[str]) -> str:
    found: list[str] = call.read("city", words)
    if len(found) != 1:
        raise _usage(call, words)
    return found[0]


# --------------------------------------------------------------------------------------------
# The commands
# --------------------------------------------------------------------------------------------

_CITY = ArgSpec("city", "city", N_("a city name or its first letters"))
_PLANT = ArgSpec("plant", "plant", N_("a plant number, e.g. 13"))


@TABLE.command(
    "bid",
    N_(
        "Open an auction on a plant of the current market (the opening bid defaults to "
        "its number), or bid on the plant being auctioned."
    ),
    (_PLANT, ArgSpec("amount", "int", N_("your bid in Elektro"), required=False)),
    ("/bid 13 15", "/bid 7"),
    usage=N_("Usage: /bid <plant> [<amount>], or /bid <amount> in an auction, e.g. /bid 13 15"),
)
def _bid(call: Call) -> Action:
    auction = call.state["auction"]
    words = call.words
    if auction is not None:
        amount = words[-1]
        if amount.startswith("+"):
            more: int = call.read("int", [amount[1:]])
            return {"type": "raise", "bid": auction["bid"] + more}
        bid: int = call.read("int", [amount])
        if len(words) == 1 and bid == auction["plant"] and bid <= auction["bid"]:
            bid = auction["bid"] + 1
        return {"type": "raise", "bid": bid}
    plant: int = call.read("plant", words[:1])
    opening: int = plant if len(words) == 1 else call.read("int", words[1:])
    return {"type": "open", "plant": plant, "bid": opening}


@TABLE.declared(_base_spec("raise"))
def _raise(call: Call) -> Action:
    auction = call.state["auction"]
    if auction is None:
        raise IllegalAction(
            "PG-21", N_("No plant is being auctioned; open one with /bid <plant> <amount>.")
        )
    if not call.words:
        return {"type": "raise", "bid": auction["bid"] + 1}
    word = call.words[0]
    if word.startswith("+"):
        more: int = call.read("int", [word[1:]])
        return {"type": "raise", "bid": auction["bid"] + more}
    bid: int = call.read("int", [word])
    return {"type": "raise", "bid": bid}


# Not the base game's /pass: the alternative rules have no standing orders, so no
# `/pass round` or `/pass plant` (a word after /pass is refused, not silently dropped).
@TABLE.command(
    "pass",
    N_(
        "Pass: on the plant being auctioned when you are bidding, or for the whole "
        "auction phase when it is your choice."
    ),
    (),
    ("/pass",),
    usage=N_("Usage: /pass"),
)
def _pass(call: Call) -> Action:
    if call.words:
        raise _usage(call, call.words)
    return {"type": "pass"}


# /done and /region are the base game's, declaration and reader both (the reader reads the
# region through this table's kinds: the variant's map).
for _name in ("done", "region"):
    TABLE.add(_base_spec(_name), base.TABLE.handlers[_name])


@TABLE.command(
    "buy",
    N_("Buy resources onto one of your built plants (ALT-10), cheapest first."),
    (
        ArgSpec("resource", "resource", N_("coal, oil, garbage or uranium")),
        ArgSpec("count", "int", N_("how many"), required=False),
        ArgSpec("plant", "plant", N_("the built plant to store them on"), required=False),
    ),
    ("/buy coal 2 4", "/buy oil 3"),
    usage=N_("Usage: /buy <resource> [<count>] [<plant>], e.g. /buy coal 2 4"),
)
def _buy(call: Call) -> Action:
    words = call.words
    action: Action = {"type": "buy", "resource": call.read("resource", words[:1]), "count": 1}
    if len(words) >= 2:
        if not base.NUMBER_WORD.fullmatch(words[1]):
            raise _usage(call, words[1:])
        action["count"] = base.count_of(words[1])  # "-1", "1.5", "0": not a count (PG-31)
    if len(words) == 3:
        action["plant"] = call.read("plant", words[2:])
    return action


@TABLE.command(
    "plant",
    N_("Build a plant from your hand in a city for 10 E (pollution limits apply)."),
    (_PLANT, _CITY),
    ("/plant 13 Kiel", "/plant 4 essen"),
    usage=N_("Usage: /plant <plant> <city>, e.g. /plant 13 Kiel"),
)
def _plant(call: Call) -> Action:
    words = call.words
    if len(words) < 2:
        raise _usage(call, words)
    return {
        "type": "build_plant",
        "plant": call.read("plant", words[:1]),
        "city": _one_city(call, words[1:]),
    }


@TABLE.command(
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
    usage=N_(
        "Usage: /upgrade <old plant> <new plant> [<plant for the tokens> ...], "
        "e.g. /upgrade 10 25 or /upgrade 10 25 31"
    ),
)
def _upgrade(call: Call) -> Action:
    words = call.words
    if len(words) < 2:
        raise _usage(call, words)
    action: Action = {
        "type": "upgrade",
        "old": call.read("plant", words[:1]),
        "new": call.read("plant", words[1:2]),
    }
    if len(words) > 2:  # ALT-20: where the tokens the new plant cannot store go first
        action["into"] = [call.read("plant", [w]) for w in words[2:]]
    return action


@TABLE.command(
    "move",
    N_("Move tokens between two of your built plants: 1 E per started 10 of route cost."),
    (
        ArgSpec("count", "int", N_("how many tokens")),
        ArgSpec("resource", "resource", N_("coal, oil, garbage or uranium")),
        ArgSpec("from", "plant", N_("source plant")),
        ArgSpec("to", "plant", N_("destination plant")),
    ),
    ("/move 2 coal 4 25",),
    usage=N_("Usage: /move <count> <resource> <from plant> <to plant>, e.g. /move 2 coal 4 25"),
)
def _move(call: Call) -> Action:
    return _move_action(call, call.words)


def _move_action(call: Call, words: Sequence[str]) -> Action:
    """`<count> <resource> <from> <to>` (also the words after /cost move)."""
    if len(words) != 4 or not words[0].isdigit():
        raise _usage(call, words)
    return {
        "type": "move",
        "from": call.read("plant", words[2:3]),
        "to": call.read("plant", words[3:4]),
        "tokens": {call.read("resource", words[1:2]): int(words[0])},
    }


@TABLE.command(
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
    usage=N_("Usage: /line <from> <to> [via <city> ...], e.g. /line Freiburg Stuttgart"),
)
def _line(call: Call) -> Action:
    return {"type": "line", "cities": _line_cities(call, call.words)}


# "via" as /help line prints it in each chat language ("[через...]", "[przez...]",
# "[經過...]", the catalogs' <via>; tests/engine/powergrid_alt/test_chat.py keeps them equal):
# "/line Kolonia Akwizgran przez Düsseldorf" read "przez" as a city (found playing, 2026-12-02)
VIA_WORDS = frozenset({"via", "через", "przez", "經過", "经过"})


def _line_cities(call: Call, words: Sequence[str]) -> list[str]:
    """`<from> <to> [via <city> ...]` -> the chain of cities (auto-routed without via)."""
    state, player = call.state, call.player
    lowered = [w.casefold() for w in words]
    via: list[str] = []
    marks = [i for i, w in enumerate(lowered) if w in VIA_WORDS]
    if marks:
        i = marks[0]
        via = call.read("city", words[i + 1 :])
        words = words[:i]
    ends: list[str] = call.read("city", words)
    if len(ends) != 2:
        raise _usage(call, words)
    am = alt_map(state["map"])
    start, end = (am.alias.get(c, c) for c in ends)
    if start == end and ends[0] != ends[1]:  # "/line Essen Duisburg" (found playing)
        raise IllegalAction(
            "ALT-46",
            N_("{a} and {b} are one double city; a line runs from one city to another."),
            a=ends[0],
            b=ends[1],
        )
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


@TABLE.command(
    "tp",
    N_("Place a TP (5 E) in a city one of your lines passes through."),
    (_CITY,),
    ("/tp Stuttgart",),
    usage=N_("Usage: /tp <city>, e.g. /tp Stuttgart"),
)
def _tp(call: Call) -> Action:
    if not call.words:
        raise _usage(call)
    return {"type": "tp", "city": _one_city(call, call.words)}


@TABLE.command(
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
    usage=N_(
        "Usage: /power [<plant> ...] [<city> ...] [coal=<n> oil=<n>], e.g. /power 4 13, "
        "/power 5 coal=1 oil=1, or /power"
    ),
)
def _power(call: Call) -> Action:
    """Plant numbers, city names and a hybrid mix "coal=n oil=n" (also "coal 3", "3coal"),
    in any order; a count always follows or precedes its resource word."""
    state, player, words = call.state, call.player, call.words
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
            raise _usage(call, [word])
        if word.lstrip("#").isdigit():
            numbers.append(word)
        else:
            rest.append(word)
        i += 1
    plants = [call.read("plant", [w]) for w in numbers] if numbers else r.runnable(state, player)
    action: Action = {"type": "power", "plants": plants}
    if rest:
        action["cities"] = call.read("city", rest)
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


@TABLE.command(
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
    usage=N_("Usage: /endgame to propose ending the game, /endgame yes or /endgame no"),
)
def _endgame(call: Call) -> Action:
    """The table vote to end by agreement (ALT-45, ending.py)."""
    answer = [w.casefold() for w in call.words]
    if answer == ["yes"]:
        return {"type": "accept_end"}
    if answer == ["no"]:
        return {"type": "decline_end"}
    if answer:
        raise _usage(call, call.words)
    vote = call.state.get("end_vote")
    if vote is not None and call.player not in vote["yes"]:
        return {"type": "accept_end"}
    return {"type": "propose_end"}


@TABLE.command(
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
    usage=N_(
        "Usage: /cost line <from> <to> [via <city> ...] | /cost plant <plant> <city> | "
        "/cost move <count> <resource> <from plant> <to plant>"
    ),
)
def _cost(call: Call) -> Reply:
    state, player, words, t = call.state, call.player, call.words, call.t
    if not words:
        raise _usage(call)
    what = words[0].casefold()
    if what == "plant" and len(words) >= 3:
        number: int = call.read("plant", words[1:2])
        city = _one_city(call, words[2:])
        try:
            r.build_plant_check(state, player, number, city)
        except IllegalAction as err:  # in the asker's words, with its rule (ALT-8, ALT-13 …)
            return Reply(refusal_text(err, t), private=True)
        return Reply(
            t.gettext("Plant {plant} in {city}: 10 E.").format(plant=number, city=city),
            private=True,
        )
    if what == "move":  # the words of /move, refused with its usage line
        move = TABLE.spec("move")
        assert move is not None
        action = _move_action(replace(call, spec=move), words[1:])
        quote = quotes.move_quote(state, player, action)
        return Reply(move_text(state, action, quote, t), private=True, extra={"quote": quote})
    if what == "line":
        words = words[1:]
    cities = _line_cities(call, words)
    line_quote = quotes.line_quote(state, player, cities)
    return Reply(cost_text(state, line_quote, t), private=True, extra={"quote": line_quote})


@TABLE.command(
    "income",
    N_("What powering now would pay: cities, income, penalties."),
    (),
    ("/income",),
    kind="quote",
    usage=N_("Usage: /income"),
)
def _income(call: Call) -> Reply:
    state, t = call.state, call.t
    q = quotes.power_quote(state, call.player)
    am = alt_map(state["map"])
    bank = q["penalty_bank"] + sum(q["penalty_players"].values())
    if not q["plants"]:  # said in words, not "Running - powers 0 cities (-)"
        text = t.gettext("No plant of yours can run now; penalties {bank} E.").format(bank=bank)
        return Reply(text, private=True, extra={"quote": q})
    text = t.ngettext(
        "Running {plants} powers {n} city ({cities}): {income} E; penalties {bank} E.",
        "Running {plants} powers {n} cities ({cities}): {income} E; penalties {bank} E.",
        len(q["cities"]),
    ).format(
        plants=join_list(t, map(str, q["plants"])),
        n=len(q["cities"]),
        cities=join_list(t, (am.label(c) for c in q["cities"])) or "-",
        income=q["income"],
        bank=bank,
    )
    return Reply(text, private=True, extra={"quote": q})


# The base game's quotes where the rules agree (the resource market and the plant market
# are the base game's, ALT-10 on PG-31..PG-33): its declarations and texts, on this folder's
# view. A quote never tells another player's secret declaration or hidden money.


@TABLE.declared(_base_spec("price"))
def _price(call: Call) -> Reply:
    """PG-32: what n tokens cost now. Version 2's simultaneous Phase 3 (purchase.py): the
    asker's quote is taken after his own declared purchases, as his next /buy is checked;
    nobody else's is known (they stay secret), and the answer is his alone whether or not he
    declared anything (a public answer would tell the table that he did)."""
    state, player, t = call.state, call.player, call.t
    together = (
        state["phase"] == "resources"
        and purchase.simultaneous(state)
        and player in state["players"]
    )
    if not together:
        reply = base.TABLE.handlers["price"](call)
        assert isinstance(reply, Reply)
        return reply
    mine = base.TABLE.handlers["price"](replace(call, state=purchase.planned(state, player)))
    assert isinstance(mine, Reply)
    text = (
        mine.text
        + sentence_gap(mine.text)
        + t.gettext(
            "(the market as it stands after your own declared purchases; the price is set when "
            "everybody is done)"
        )
    )
    return Reply(text, private=True, extra=mine.extra)


@TABLE.declared(_base_spec("market"))
def _market(call: Call) -> Reply:
    """The plant market and the resource market as they stand (public: version 2's declared
    purchases are not in it until carried out)."""
    return Reply(base.market_text(_view(call.state, None), call.t))


# The base game's declaration (one help text for /plants in every game, issue 22); the
# answer is the variant's: built plants with their city and tokens, then the hand (ALT-8).
@TABLE.declared(_base_spec("plants"))
def _plants(call: Call) -> Reply:
    if not call.state["hidden_money"]:
        return Reply(plants_text(call.state, call.t))
    # PG-9: the group's answer shows nobody's money (as /board, issue 20); the asker's own
    # copy shows his (the table sends it to him alone).
    public, own = plants_text(call.state, call.t), plants_text(call.state, call.t, call.player)
    return Reply(public, own=own if own != public else None)


@TABLE.command(
    "board",
    N_("Plants in cities, TPs, lines and each region's pollution."),
    (),
    ("/board",),
    kind="quote",
    usage=N_("Usage: /board"),
)
def _board(call: Call) -> Reply:
    # A public answer: with hidden money it shows nobody's money, the asker's included (as
    # the base game's /plants, issue 20).
    return Reply(board_text(call.state, call.t))


# --------------------------------------------------------------------------------------------
# The table's entry points
# --------------------------------------------------------------------------------------------

COMMANDS: list[CommandSpec] = TABLE.specs
USAGE: dict[str, str] = dict(TABLE.usage)


def parse(
    state: State, player: str, name: str, args: list[str], t: Translator | None = None
) -> Action | list[Action] | Reply:
    """Chat command -> action(s), or a Reply for quotes. Raises ParseError / IllegalAction."""
    return TABLE.parse(state, player, name, args, t)


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
    elif want == "choose_region":  # as the base game's (its prompt listed none, found playing)
        out += [
            (t.gettext(reg.get("name", reg["id"])), f"/region {reg['id']}")
            for reg in choosable_regions({"map": state["map"], "regions_chosen": state["regions"]})
        ]
    elif want in ("buy", "build"):
        out.append((t.gettext("Done"), "/done"))
    elif want == "power":
        out += [(t.gettext("Power"), "/power"), (t.gettext("Run nothing"), "/power none")]
    return out


def complete(state: State | None, player: str | None, kind: str, prefix: str) -> list[str]:
    """Autocomplete candidates (at most 25) for an argument kind."""
    return TABLE.complete(state, player, kind, prefix)


# --------------------------------------------------------------------------------------------
# The command that plays an action (what /hint leads with)
# --------------------------------------------------------------------------------------------


def _words_power(action: Action) -> list[str]:
    plants = [str(n) for n in action.get("plants") or []]
    if not plants:
        return ["none"]
    fuel = [f"{res}={action[res]}" for res in sorted(base.HYBRID_FUELS) if res in action]
    return [*plants, *(action.get("cities") or []), *fuel]


def _words_buy(action: Action) -> list[str]:
    plant = [str(action["plant"])] if "plant" in action else []
    return [str(action["resource"]), str(action["count"]), *plant]


def _words_line(action: Action) -> list[str]:
    start, *between, end = action["cities"]
    return [start, end, *(["via", *between] if between else [])]


def _words_move(action: Action) -> list[str]:
    ((res, count),) = action["tokens"].items()  # one resource a move (the command's form)
    return [str(count), res, str(action["from"]), str(action["to"])]


_COMMAND_WORDS: dict[str, tuple[str, Callable[[Action], list[str]]]] = {
    "choose_region": ("region", lambda a: [str(a["region"])]),
    "open": (
        "bid",
        lambda a: [str(a["plant"]), *([str(a["bid"])] if a["bid"] != a["plant"] else [])],
    ),
    "raise": ("raise", lambda a: [str(a["bid"])]),
    "pass": ("pass", lambda a: []),
    "done": ("done", lambda a: []),
    "buy": ("buy", _words_buy),
    "build_plant": ("plant", lambda a: [str(a["plant"]), a["city"]]),
    "upgrade": ("upgrade", lambda a: [str(a["old"]), str(a["new"]), *map(str, a.get("into", []))]),
    "move": ("move", _words_move),
    "line": ("line", _words_line),
    "tp": ("tp", lambda a: [a["city"]]),
    "power": ("power", _words_power),
    "propose_end": ("endgame", lambda a: []),
    "accept_end": ("endgame", lambda a: ["yes"]),
    "decline_end": ("endgame", lambda a: ["no"]),
}


def command_text(state: State, player: str, action: Action) -> str | None:
    """The chat command that plays `action` for `player` now, every choice spelt out ("/plant
    4 Kiel", "/line Essen Köln via Düsseldorf"), or None when none does. Checked by reading it
    back as the player's command would be read: a line typed without "via" takes the cheapest
    route, which may not be the action's, and then no command is offered rather than another
    move."""
    kind = str(action.get("type"))
    if kind not in _COMMAND_WORDS:
        return None
    name, words = _COMMAND_WORDS[kind]
    try:
        args = words(action)
        parsed = parse(state, player, name, " ".join(args).split())
    except (IllegalAction, KeyError, TypeError, ValueError):
        return None
    if isinstance(parsed, (list, Reply)) or _plain(parsed) != _plain(action):
        return None
    return " ".join(["/" + name, *args])


def _plain(action: Action) -> str:
    """An action's canonical text; a run of no plant powers no city, said or not."""
    if action.get("type") == "power" and not action.get("plants"):
        action = {k: v for k, v in action.items() if k != "cities"}
    return canonical_json(action)
