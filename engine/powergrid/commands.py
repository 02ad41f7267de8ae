"""Power Grid chat layer: chat words -> actions, state -> texts, buttons and autocomplete.

Pure: reads the state only through `GAME.view` (VIEW.md), the map files and `quotes.py`;
never changes the state. English texts are marked for translation: `N_` for templates
kept in data (help texts, errors), `t.gettext`/`t.ngettext` where a Translator is at hand.

Reading order: the command table, `parse` (one function per command), the texts
(`describe_turn`, `describe_event`, the quotes), then buttons and autocomplete.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from engine.core.errors import N_, IllegalAction, ParseError
from engine.core.protocol import (
    Action,
    ArgSpec,
    CommandSpec,
    EnglishTranslator,
    Event,
    Reply,
    State,
    Translator,
)
from engine.powergrid import market as mk
from engine.powergrid import names
from engine.powergrid.options import OPTIONS

__all__ = [
    "COMMANDS",
    "OPTIONS",
    "buttons",
    "complete",
    "describe_event",
    "describe_turn",
    "is_picture_event",
    "parse",
    "undoable",
]

View = dict[str, Any]
RESOURCES = ("coal", "oil", "garbage", "uranium")
HYBRID_FUELS = ("coal", "oil")
MAX_COMPLETIONS = 25
MAX_TURN_TEXT = 1500
_MAPS_DIR = Path(__file__).parent / "data" / "maps"
_ENGLISH = EnglishTranslator()

# --------------------------------------------------------------------------------------------
# The command table
# --------------------------------------------------------------------------------------------

_PLANT = ArgSpec("plant", "plant", N_("a plant number, e.g. 13"))
_AMOUNT = ArgSpec("amount", "int", N_("Elektro; +5 means 5 more than the high bid"))

COMMANDS: list[CommandSpec] = [
    CommandSpec(
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
    ),
    CommandSpec(
        "maxbid",
        N_(
            "Private proxy bid on the plant being auctioned: when it is your turn the game "
            "raises by the minimum step up to your limit, then passes for you."
        ),
        (ArgSpec("limit", "int", N_("the most you will pay, in Elektro")),),
        ("/maxbid 25",),
    ),
    CommandSpec(
        "raise",
        N_("Bid more on the plant being auctioned: an amount, or +n over the high bid."),
        (ArgSpec("amount", "int", _AMOUNT.help, required=False),),
        ("/raise 21", "/raise +5"),
    ),
    CommandSpec(
        "pass",
        N_(
            "Pass: on the plant being auctioned when you are bidding, or for the whole "
            "auction phase when it is your choice. /pass round: no more auctions for me this "
            "round. /pass plant: pass on this auction when the turn reaches me."
        ),
        (ArgSpec("when", "rest", N_("round or plant: pass in advance"), required=False),),
        ("/pass", "/pass round", "/pass plant"),
    ),
    CommandSpec(
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
    ),
    CommandSpec(
        "buy",
        N_("Buy resources, always the cheapest first: a resource and a count, repeatable."),
        (
            ArgSpec("resource", "resource", N_("coal (c), oil (o), garbage (g), uranium (u)")),
            ArgSpec("count", "int", N_("how many"), required=False),
            ArgSpec("more", "rest", N_("more resource/count pairs"), required=False),
        ),
        ("/buy coal 3", "/buy c 2 o 3", "/buy uranium 1", "/buy auto limit=30"),
    ),
    CommandSpec(
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
    ),
    CommandSpec(
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
    ),
    CommandSpec("done", N_("End your turn of buying or building."), (), ("/done",)),
    CommandSpec(
        "region",
        N_("Choose a region for the play area (it must border the regions already chosen)."),
        (ArgSpec("region", "region", N_("a region name or id")),),
        ("/region NW", "/region north-west"),
    ),
    CommandSpec(
        "orders",
        N_("Your standing orders (only you see them) and any that were dropped."),
        (),
        ("/orders",),
        kind="quote",
    ),
    CommandSpec(
        "cancel",
        N_("Cancel your standing orders: all, or one kind (bid, pass, buy, build, power)."),
        (ArgSpec("kind", "rest", N_("bid, pass, buy, build, power or all"), required=False),),
        ("/cancel", "/cancel build"),
    ),
    CommandSpec(
        "cost",
        N_(
            "What building in these cities would cost you now: route and house slot per "
            "city, and a cheaper order if there is one."
        ),
        (ArgSpec("city", "city", N_("a city name or its first letters"), repeated=True),),
        ("/cost Berlin", "/cost frankfurt-m wiesbaden"),
        kind="quote",
    ),
    CommandSpec(
        "price",
        N_("What buying n tokens of a resource costs right now."),
        (
            ArgSpec("resource", "resource", N_("coal, oil, garbage or uranium")),
            ArgSpec("count", "int", N_("how many"), required=False),
        ),
        ("/price coal 3", "/price u 1"),
        kind="quote",
    ),
    CommandSpec(
        "income",
        N_("How many cities you can power with your plants and resources, and the income."),
        (),
        ("/income",),
        kind="quote",
    ),
    CommandSpec(
        "market",
        N_("The plant market and the resource market."),
        (),
        ("/market",),
        kind="quote",
    ),
    CommandSpec(
        "plants",
        N_("Every player's plants, resources, money and cities."),
        (),
        ("/plants",),
        kind="quote",
    ),
]

USAGE: dict[str, str] = {
    "bid": N_("Usage: /bid <plant> [<amount>] [max=<limit>], e.g. /bid 13 15 max=25"),
    "maxbid": N_("Usage: /maxbid <limit>, e.g. /maxbid 25"),
    "orders": N_("Usage: /orders"),
    "cancel": N_("Usage: /cancel [bid|pass|buy|build|power|all]"),
    "raise": N_("Usage: /raise <amount> or /raise +<more>, e.g. /raise 21 or /raise +5"),
    "pass": N_("Usage: /pass, /pass round or /pass plant"),
    "discard": N_(
        "Usage: /discard <plant> [keep <n> <resource> ...], e.g. /discard 4 or "
        "/discard 5 keep 2 coal 2 oil"
    ),
    "buy": N_(
        "Usage: /buy <resource> <count> [<resource> <count> ...], e.g. /buy coal 3 oil 2, "
        "or /buy auto [limit=<money>]"
    ),
    "build": N_(
        "Usage: /build <city> [<city> ...], e.g. /build Berlin Magdeburg, "
        "or /build plan <city> [<city> ...] (or none)"
    ),
    "power": N_(
        "Usage: /power [<plant> ...] [coal=<n> oil=<n>], e.g. /power 4 7, or /power, or /power auto"
    ),
    "done": N_("Usage: /done"),
    "region": N_("Usage: /region <region>, e.g. /region NW"),
    "cost": N_("Usage: /cost <city> [<city> ...], e.g. /cost Berlin Magdeburg"),
    "price": N_("Usage: /price <resource> [<count>], e.g. /price coal 3"),
    "income": N_("Usage: /income"),
    "market": N_("Usage: /market"),
    "plants": N_("Usage: /plants"),
}

RESOURCE_NAMES = {
    "coal": N_("coal"),
    "oil": N_("oil"),
    "garbage": N_("garbage"),
    "uranium": N_("uranium"),
}
PLANT_TYPES = {
    "coal": N_("coal"),
    "oil": N_("oil"),
    "hybrid": N_("hybrid"),
    "garbage": N_("garbage"),
    "uranium": N_("uranium"),
    "eco": N_("eco"),
    "fusion": N_("fusion"),
}
PHASES = {
    "regions": N_("choosing regions"),
    "auction": N_("auction (phase 2)"),
    "resources": N_("buying resources (phase 3)"),
    "build": N_("building (phase 4)"),
    "bureaucracy": N_("bureaucracy (phase 5)"),
    "over": N_("game over"),
}

# What a player may type for a resource (prefixes of these words are accepted too).
RESOURCE_WORDS: dict[str, str] = {
    "coal": "coal",
    "c": "coal",
    "oil": "oil",
    "o": "oil",
    "garbage": "garbage",
    "trash": "garbage",
    "waste": "garbage",
    "g": "garbage",
    "uranium": "uranium",
    "u": "uranium",
    "kohle": "coal",
    "ol": "oil",
    "oel": "oil",
    "mull": "garbage",
    "muell": "garbage",
    "уголь": "coal",
    "нефть": "oil",
    "мусор": "garbage",
    "уран": "uranium",
    "wegiel": "coal",
    "ropa": "oil",
    "smieci": "garbage",
    "煤": "coal",
    "石油": "oil",
    "油": "oil",
    "垃圾": "garbage",
    "鈾": "uranium",
    "铀": "uranium",
}

# --------------------------------------------------------------------------------------------
# Reading the state
# --------------------------------------------------------------------------------------------


def _view(state: State, player: str | None) -> View:
    from engine.powergrid.view import view  # late: keeps importing this module light

    return view(state, player)


@cache
def _map_file(map_id: str) -> str:
    return (_MAPS_DIR / f"{map_id}.json").read_text(encoding="utf-8")


def load_map(map_id: str) -> dict[str, Any]:
    """The map file `data/maps/<map_id>.json` (a fresh copy; callers may not share it)."""
    if not re.fullmatch(r"[a-z0-9_]+", map_id):
        raise ValueError(f"bad map id {map_id!r}")
    data: dict[str, Any] = json.loads(_map_file(map_id))
    return data


def _all_cities(view: View) -> list[str]:
    return [c["name"] for c in load_map(view["map"])["cities"]]


def _cities_in_play(view: View) -> list[str]:
    regions = set(view.get("regions_in_play") or [])
    return [c["name"] for c in load_map(view["map"])["cities"] if c["region"] in regions]


def _regions(view: View) -> list[dict[str, str]]:
    regions: list[dict[str, str]] = load_map(view["map"])["regions"]
    return regions


def choosable_regions(view: View) -> list[dict[str, str]]:
    """Regions that may be chosen now (PG-8): not yet chosen, bordering a chosen one."""
    chosen = set(view.get("regions_chosen") or [])
    adjacency = {frozenset(pair) for pair in load_map(view["map"])["region_adjacency"]}
    return [
        r
        for r in _regions(view)
        if r["id"] not in chosen
        and (not chosen or any(frozenset((r["id"], c)) in adjacency for c in chosen))
    ]


def _region_label(region: dict[str, str]) -> str:
    """ "NW (North-West)"; just the name when it already starts with the id."""
    name = region.get("name", region["id"])
    if names.words(name)[:1] == names.words(region["id"]):
        return name
    return f"{region['id']} ({name})"


def money_text(t: Translator, amount: int | None) -> str:
    if amount is None:
        return "?"
    return t.gettext("{amount} E").format(amount=amount)


def resource_text(t: Translator, resource: str) -> str:
    return t.gettext(RESOURCE_NAMES.get(resource, resource))


def _plant_text(t: Translator, plant: dict[str, Any]) -> str:
    """ "13 eco →1" / "4 coal 2→1": number, type, resources per run → cities."""
    kind = t.gettext(PLANT_TYPES.get(plant.get("type", ""), plant.get("type", "")))
    cost = plant.get("cost", 0)
    if cost:
        return f"{plant['number']} {kind} {cost}→{plant.get('output', 0)}"
    return f"{plant['number']} {kind} →{plant.get('output', 0)}"


def phase_text(t: Translator, phase: str) -> str:
    return t.gettext(PHASES.get(phase, phase))


def _join(items: Sequence[str]) -> str:
    return ", ".join(items)


# --------------------------------------------------------------------------------------------
# Words -> values
# --------------------------------------------------------------------------------------------

_INT = re.compile(r"\d{1,6}")
PLANT_WORD = re.compile(r"(?:#|p|plant|no\.?)?(\d{1,3})", re.IGNORECASE)


def int_word(word: str, command: str) -> int:
    if not _INT.fullmatch(word):
        raise ParseError(USAGE[command], word=word)
    return int(word)


def _plant_number(word: str, command: str) -> int:
    found = PLANT_WORD.fullmatch(word.strip())
    if not found:
        raise ParseError(USAGE[command], word=word)
    return int(found.group(1))


def resource_of(word: str) -> str:
    """The resource a word names: "coal", "c", "ur", "trash", "Kohle" ... (prefixes accepted)."""
    key = "".join(names.words(word))
    if not key:
        raise ParseError(N_("Name a resource: coal, oil, garbage or uranium."))
    if key in RESOURCE_WORDS:
        return RESOURCE_WORDS[key]
    found = {res for alias, res in RESOURCE_WORDS.items() if alias.startswith(key)}
    if len(found) == 1:
        return found.pop()
    if found:
        raise ParseError(
            N_('"{word}" could mean {candidates}.'),
            word=word,
            candidates=", ".join(sorted(found)),
        )
    raise ParseError(
        N_('Unknown resource "{word}": use coal (c), oil (o), garbage (g) or uranium (u).'),
        word=word,
    )


def _candidates_text(items: Sequence[str], limit: int = 12) -> str:
    shown = list(items[:limit])
    if len(items) > limit:
        shown.append("…")
    return ", ".join(shown)


def cities_of(view: View, chat_words: Sequence[str]) -> list[str]:
    """City names from chat words: prefixes, any case and accents, multi-word names.

    Names are matched against the cities in play first; a city of the map outside the play
    area is refused with PG-8.
    """
    in_play = _cities_in_play(view)
    everywhere = _all_cities(view)
    out: list[str] = []
    for part in names.split_names(chat_words, in_play):
        if part.match.unique is not None:
            out.append(part.match.unique)
            continue
        if part.match.names:
            raise ParseError(
                N_('"{word}" could be {candidates}. Type more letters.'),
                word=part.text,
                candidates=_join(part.match.names),
            )
        outside = names.match(part.text, everywhere)
        if outside.names:
            raise IllegalAction(
                "PG-8",
                N_("{city} is outside the regions in play."),
                city=_join(outside.names),
            )
        raise ParseError(
            N_('Unknown city "{word}". Cities in play: {candidates}'),
            word=part.text,
            candidates=_candidates_text(sorted(in_play, key=names.words)),
        )
    return out


def region_of(view: View, chat_words: Sequence[str]) -> str:
    """A region id from its id or name ("NW", "north-west", "nord")."""
    regions = _regions(view)
    text = " ".join(chat_words)
    by_label: dict[str, str] = {}
    for region in regions:
        by_label[region["id"]] = region["id"]
        by_label[region.get("name", region["id"])] = region["id"]
    found = names.match(text, by_label)
    ids = sorted({by_label[label] for label in found.names})
    if len(ids) == 1:
        return ids[0]
    if ids:
        raise ParseError(
            N_('"{word}" could be {candidates}. Type more letters.'),
            word=text,
            candidates=_join(ids),
        )
    raise ParseError(
        N_('Unknown region "{word}". Regions: {candidates}'),
        word=text,
        candidates=_join([_region_label(r) for r in regions]),
    )


# --------------------------------------------------------------------------------------------
# parse
# --------------------------------------------------------------------------------------------


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
    command = name.strip().lstrip("/").casefold()
    handler = _PARSERS.get(command)
    if handler is None:
        raise ParseError(
            N_("Unknown command /{name}. Commands: {commands}"),
            name=command,
            commands=" ".join(f"/{c.name}" for c in COMMANDS),
        )
    words = [w for arg in args for w in arg.split()]
    return handler(state, player, words, t or _ENGLISH)


def _no_args(command: str, words: list[str]) -> None:
    if words:
        raise ParseError(USAGE[command], word=words[0])


def _market_numbers(view: View) -> list[int]:
    return [p["number"] for p in view["plant_market"]["current"]]


def _amount(word: str, base: int, command: str) -> int:
    """An absolute amount "21", or "+5" meaning base + 5."""
    if word.startswith("+"):
        return base + int_word(word[1:], command)
    return int_word(word, command)


_LIMIT_WORD = re.compile(r"(?:max|limit|up\s*to)[=:]?(\d{1,6})?", re.IGNORECASE)


def _limit_of(words: list[str], command: str) -> tuple[list[str], int | None]:
    """Split off "max=25" / "max 25" / "limit=30": (other words, the limit or None)."""
    rest: list[str] = []
    limit: int | None = None
    i = 0
    while i < len(words):
        found = _LIMIT_WORD.fullmatch(words[i])
        if found is None:
            rest.append(words[i])
            i += 1
            continue
        if limit is not None:
            raise ParseError(USAGE[command], word=words[i])
        if found.group(1) is not None:
            limit = int(found.group(1))
            i += 1
        elif i + 1 < len(words) and _INT.fullmatch(words[i + 1]):
            limit = int(words[i + 1])
            i += 2
        else:
            raise ParseError(USAGE[command], word=words[i])
    return rest, limit


def _acting(view: View, player: str) -> bool:
    return player in (view.get("current_players") or [])


def _order(kind: str, **fields: Any) -> Action:
    return {"type": "order", "kind": kind, **fields}


def _parse_bid(state: State, player: str, words: list[str], t: Translator) -> Action:
    view = _view(state, player)
    auction = view.get("auction")
    words, limit = _limit_of(words, "bid")
    if not words or len(words) > 2:
        raise ParseError(USAGE["bid"])
    if limit is not None and not _acting(view, player):
        # Not my turn: the limit becomes a proxy order on the plant being auctioned.
        number = auction["plant"]["number"] if auction else None
        plant = _plant_number(words[0], "bid")
        if auction is None or plant != number:
            raise IllegalAction(
                "PG-21",
                N_("A limit can be set only on the plant being auctioned ({number})."),
                number=number if number is not None else "-",
                plant=plant,
            )
        return _order("maxbid", plant=plant, limit=limit)
    action = _parse_bid_now(view, words)
    if limit is not None:
        action["max"] = limit
    return action


def _parse_bid_now(view: View, words: list[str]) -> Action:
    auction = view.get("auction")
    if auction is not None:
        number = auction["plant"]["number"]
        if len(words) == 1:
            bid = _amount(words[0], auction["high_bid"], "bid")
            if bid == number and bid <= auction["high_bid"]:
                # "/bid 13" while 13 is on auction: bid on it, the smallest raise.
                bid = auction["high_bid"] + 1
            return {"type": "raise", "bid": bid}
        plant = _plant_number(words[0], "bid")
        if plant != number:
            raise IllegalAction(
                "PG-21",
                N_("Plant {number} is being auctioned, not {plant}: /raise <amount> or /pass."),
                number=number,
                plant=plant,
            )
        return {"type": "raise", "bid": _amount(words[1], auction["high_bid"], "bid")}
    plant = _plant_number(words[0], "bid")
    market = _market_numbers(view)
    if plant not in market:
        raise IllegalAction(
            "PG-20",
            N_("Plant {plant} is not in the current market: {market}."),
            plant=plant,
            market=_join([str(n) for n in market]),
        )
    bid = plant if len(words) == 1 else _amount(words[1], plant, "bid")
    return {"type": "open", "plant": plant, "bid": bid}


def _parse_raise(state: State, player: str, words: list[str], t: Translator) -> Action:
    if len(words) > 1:
        raise ParseError(USAGE["raise"])
    view = _view(state, player)
    auction = view.get("auction")
    if auction is None:
        raise IllegalAction(
            "PG-21", N_("No plant is being auctioned; open one with /bid <plant> <amount>.")
        )
    high = auction["high_bid"]
    return {"type": "raise", "bid": _amount(words[0], high, "raise") if words else high + 1}


def _parse_maxbid(state: State, player: str, words: list[str], t: Translator) -> Action:
    if len(words) != 1:
        raise ParseError(USAGE["maxbid"])
    auction = _view(state, player).get("auction")
    if auction is None:
        raise IllegalAction("PG-21", N_("No plant is being auctioned now."))
    limit = int_word(words[0].lstrip("="), "maxbid")
    return _order("maxbid", plant=auction["plant"]["number"], limit=limit)


def _parse_pass(state: State, player: str, words: list[str], t: Translator) -> Action:
    if not words:
        return {"type": "pass"}
    if len(words) != 1:
        raise ParseError(USAGE["pass"])
    word = words[0].casefold()
    if word in ("round", "phase", "all"):
        return _order("pass_round")
    if word in ("plant", "this", "auction"):
        auction = _view(state, player).get("auction")
        if auction is None:
            raise IllegalAction("PG-21", N_("No plant is being auctioned now."))
        return _order("pass_plant", plant=auction["plant"]["number"])
    raise ParseError(USAGE["pass"], word=words[0])


def _parse_done(state: State, player: str, words: list[str], t: Translator) -> Action:
    _no_args("done", words)
    return {"type": "done"}


def _own_plants(view: View, player: str) -> list[dict[str, Any]]:
    me = view["players"].get(player)
    return list(me["plants"]) if me else []


def _own_plant(view: View, player: str, word: str, command: str) -> int:
    number = _plant_number(word, command)
    own = [p["number"] for p in _own_plants(view, player)]
    if number not in own:
        raise ParseError(
            N_("You do not own plant {plant}. Your plants: {plants}"),
            plant=number,
            plants=_join([str(n) for n in own]) or "-",
        )
    return number


def _parse_discard(state: State, player: str, words: list[str], t: Translator) -> Action | Reply:
    if not words:
        raise ParseError(USAGE["discard"])
    view = _view(state, player)
    plant = _own_plant(view, player, words[0], "discard")
    action: Action = {"type": "discard", "plant": plant}
    rest = words[1:]
    keep_word = bool(rest) and rest[0].casefold() == "keep"
    if keep_word:
        rest = rest[1:]
    if rest:  # PG-27: the tokens the player keeps
        keep: dict[str, int] = {}
        for resource, count in _resource_counts(rest, "discard"):
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
            command = _keep_command(plant, option)
            label = _keep_text(t, option)
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
            extra={"choices": [_keep_command(plant, o) for o in options]},
        )
    return action


def keep_choices(view: View, player: str, plant: int) -> list[dict[str, int]]:
    """PG-27: the ways to keep the most tokens after discarding `plant` (default first)."""
    me = view["players"].get(player, {})
    others = [p["number"] for p in me.get("plants", []) if p["number"] != plant]
    have = {r: int(me.get("resources", {}).get(r, 0)) for r in RESOURCES}
    return mk.keep_options(mk.capacities(others), have)


def _keep_command(plant: int, option: dict[str, int]) -> str:
    # coal and oil always named: an unnamed resource would keep as many as fit
    words = [f"{option[r]} {r}" for r in RESOURCES if r in HYBRID_FUELS or option[r]]
    return f"/discard {plant} keep " + " ".join(words)


def _keep_text(t: Translator, option: dict[str, int]) -> str:
    kept = [f"{n} {resource_text(t, r)}" for r, n in option.items() if n]
    return _join(kept) if kept else t.gettext("nothing")


_SPLIT_COUNT = re.compile(r"^(\d+)(\D.*)$|^(\D.*?)(\d+)$")


def split_counts(words: list[str]) -> list[str]:
    """Split "coal=3", "c3", "3coal" into separate words."""
    out: list[str] = []
    for word in words:
        for piece in re.split(r"[=:×x*](?=\d)|(?<=\d)[×x*]", word):
            if not piece:
                continue
            if PLANT_WORD.fullmatch(piece):
                out.append(piece)
                continue
            found = _SPLIT_COUNT.match(piece)
            if found and found.group(1):
                out += [found.group(1), found.group(2)]
            elif found and found.group(3):
                out += [found.group(3), found.group(4)]
            else:
                out.append(piece)
    return out


def _resource_counts(words: list[str], command: str) -> list[tuple[str, int]]:
    """Pairs of resource and count, in either order; a missing count means 1."""
    tokens = split_counts(words)
    pairs: list[tuple[str, int]] = []
    i = 0
    while i < len(tokens):
        word = tokens[i]
        if _INT.fullmatch(word):
            if i + 1 >= len(tokens) or _INT.fullmatch(tokens[i + 1]):
                raise ParseError(USAGE[command], word=word)
            pairs.append((resource_of(tokens[i + 1]), int(word)))
            i += 2
            continue
        resource = resource_of(word)
        if i + 1 < len(tokens) and _INT.fullmatch(tokens[i + 1]):
            pairs.append((resource, int(tokens[i + 1])))
            i += 2
        else:
            pairs.append((resource, 1))
            i += 1
    return pairs


def _parse_buy(state: State, player: str, words: list[str], t: Translator) -> Action | list[Action]:
    if not words:
        raise ParseError(USAGE["buy"])
    if words[0].casefold() == "auto":
        rest, limit = _limit_of(words[1:], "buy")
        if rest:
            raise ParseError(USAGE["buy"], word=rest[0])
        return _order("buy_auto", limit=limit)
    merged: dict[str, int] = {}
    for resource, count in _resource_counts(words, "buy"):
        merged[resource] = merged.get(resource, 0) + count
    actions = [{"type": "buy", "resource": res, "count": n} for res, n in merged.items() if n > 0]
    if not actions:
        raise ParseError(USAGE["buy"])
    return actions[0] if len(actions) == 1 else actions


def _parse_build(
    state: State, player: str, words: list[str], t: Translator
) -> Action | list[Action]:
    if not words:
        raise ParseError(USAGE["build"])
    plan = words[0].casefold() == "plan"
    if plan:
        words = words[1:]
        if not words:
            raise ParseError(USAGE["build"])
        if len(words) == 1 and names.words(words[0]) in (["none"], ["nothing"], ["0"]):
            return _order("build_plan", cities=[])  # build nothing when my turn comes
    view = _view(state, player)
    cities = cities_of(view, words)
    repeated = sorted({c for c in cities if cities.count(c) > 1})
    if repeated:
        raise IllegalAction(
            "PG-38", N_("You can build only one house in {city}."), city=repeated[0]
        )
    if plan:
        return _order("build_plan", cities=cities)
    actions = [{"type": "build", "city": city} for city in cities]
    return actions[0] if len(actions) == 1 else actions


def _parse_region(state: State, player: str, words: list[str], t: Translator) -> Action:
    if not words:
        raise ParseError(USAGE["region"])
    return {"type": "choose_region", "region": region_of(_view(state, player), words)}


# --- /power -------------------------------------------------------------------------------


def _fuel_prices(view: View) -> dict[str, int]:
    """What one more token of each resource would cost now (scarce ones count as dear)."""
    prices: dict[str, int] = {}
    for resource in RESOURCES:
        spaces = view["resource_market"].get(resource, [])
        available = [s["price"] for s in spaces if s.get("count", 0) > 0]
        prices[resource] = min(available) if available else 20
    return prices


def best_power(view: View, player: str) -> tuple[list[int], int, int, int]:
    """The plants to run for the most cities powered, burning the cheapest fuel.

    Returns (plants, hybrid coal, hybrid oil, cities powered). Ties: least fuel value at the
    current market prices, then fewer plants, then lower numbers.
    """
    me = view["players"][player]
    plants = me["plants"]
    have = dict(me["resources"])
    city_count = len(me["cities"])
    prices = _fuel_prices(view)
    best: tuple[tuple[int, int, int, list[int]], list[int], int, int, int] | None = None
    for size in range(len(plants) + 1):
        for chosen in itertools.combinations(plants, size):
            need = {r: 0 for r in RESOURCES}
            hybrid = 0
            output = 0
            for plant in chosen:
                output += plant.get("output", 0)
                kind = plant.get("type")
                if kind == "hybrid":
                    hybrid += plant.get("cost", 0)
                elif kind in need:
                    need[kind] += plant.get("cost", 0)
            if any(need[r] > have.get(r, 0) for r in RESOURCES):
                continue
            spare_coal = have.get("coal", 0) - need["coal"]
            spare_oil = have.get("oil", 0) - need["oil"]
            if hybrid > spare_coal + spare_oil:
                continue
            split: tuple[int, int, int] | None = None
            for coal in range(min(hybrid, spare_coal), -1, -1):
                oil = hybrid - coal
                if oil > spare_oil:
                    break
                value = coal * prices["coal"] + oil * prices["oil"]
                if split is None or value < split[0]:
                    split = (value, coal, oil)
            if split is None:
                continue
            base_value = sum(need[r] * prices[r] for r in RESOURCES)
            powered = min(output, city_count)
            numbers = sorted(p["number"] for p in chosen)
            key = (-powered, base_value + split[0], len(numbers), numbers)
            if best is None or key < best[0]:
                best = (key, numbers, split[1], split[2], powered)
    if best is None:
        return [], 0, 0, 0
    return best[1], best[2], best[3], best[4]


def _parse_power(state: State, player: str, words: list[str], t: Translator) -> Action:
    view = _view(state, player)
    if player not in view["players"]:
        raise ParseError(N_("You are not playing in this game."))
    if len(words) == 1 and words[0].casefold() == "auto":
        return _order("power_auto")
    if not words:
        plants, coal, oil, _ = best_power(view, player)
        action: Action = {"type": "power", "plants": plants}
        if coal or oil:
            action["coal"] = coal
            action["oil"] = oil
        return action
    if len(words) == 1 and names.words(words[0]) in (["none"], ["0"], ["nothing"]):
        return {"type": "power", "plants": []}
    chosen: list[int] = []
    fuel: dict[str, int] = {}
    tokens = split_counts(words)
    i = 0
    while i < len(tokens):
        word = tokens[i]
        if PLANT_WORD.fullmatch(word):
            number = _own_plant(view, player, word, "power")
            if number in chosen:
                raise ParseError(USAGE["power"], word=word)
            chosen.append(number)
            i += 1
            continue
        try:
            resource = resource_of(word)
        except ParseError:
            raise ParseError(USAGE["power"], word=word) from None
        if resource not in HYBRID_FUELS:
            raise ParseError(
                N_("Only what hybrid plants burn can be chosen: coal=<n> oil=<n>."),
            )
        if i + 1 >= len(tokens) or not _INT.fullmatch(tokens[i + 1]):
            raise ParseError(USAGE["power"], word=word)
        fuel[resource] = fuel.get(resource, 0) + int(tokens[i + 1])
        i += 2
    if not chosen:
        raise ParseError(USAGE["power"])
    action = {"type": "power", "plants": sorted(chosen)}
    if fuel:
        action["coal"] = fuel.get("coal", 0)
        action["oil"] = fuel.get("oil", 0)
    return action


# --- standing orders ------------------------------------------------------------------------

_CANCEL_KINDS = {
    "bid": ["maxbid"],
    "maxbid": ["maxbid"],
    "pass": ["pass_plant", "pass_round"],
    "buy": ["buy_auto"],
    "build": ["build_plan"],
    "power": ["power_auto"],
    "all": [],
}


def _parse_cancel(state: State, player: str, words: list[str], t: Translator) -> Action:
    if len(words) > 1 or (words and words[0].casefold() not in _CANCEL_KINDS):
        raise ParseError(USAGE["cancel"], word=words[0] if words else "")
    return {"type": "cancel", "kinds": _CANCEL_KINDS[words[0].casefold()] if words else []}


def _parse_orders(state: State, player: str, words: list[str], t: Translator) -> Reply:
    _no_args("orders", words)
    return Reply(orders_text(_view(state, player), player, t), private=True)


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
                    cities=_join(data.get("cities") or [])
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
        text += " " + _ev_order_dropped_private(event, t)
    return text


def _ev_order_dropped_private(e: Event, t: Translator) -> str:
    params = dict(e.get("params") or {})
    try:
        reason = t.gettext(str(e.get("reason_key", ""))).format(**params)
    except (KeyError, IndexError, ValueError):
        reason = str(e.get("reason_key", ""))
    return t.gettext("Dropped in round {round}: {reason}").format(
        round=e.get("round", 0), reason=reason
    )


# --- quotes -------------------------------------------------------------------------------


def _parse_cost(state: State, player: str, words: list[str], t: Translator) -> Reply:
    if not words:
        raise ParseError(USAGE["cost"])
    from engine.powergrid import quotes

    view = _view(state, player)
    if player not in view["players"]:
        raise ParseError(N_("You are not playing in this game."))
    cities = cities_of(view, words)
    quote = quotes.connection_quote(state, player, cities)
    return Reply(cost_text(quote, t), extra={"quote": quote})


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
    if len(quote.get("items", [])) != 1:
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
        reason = quote.get("reason")
        lines.append(
            t.gettext("Not possible now: {reason}").format(reason=t.gettext(reason))
            if reason
            else t.gettext("Not possible now.")
        )
    return "\n".join(lines)


def _parse_price(state: State, player: str, words: list[str], t: Translator) -> Reply:
    pairs = _resource_counts(words, "price") if words else []
    if len(pairs) != 1 or pairs[0][1] < 1:  # "/price coal 0" asks for nothing
        raise ParseError(USAGE["price"])
    resource, n = pairs[0]
    from engine.powergrid import quotes

    quote = quotes.resource_quote(state, resource, n)
    return Reply(price_text(resource, n, quote, t), extra={"quote": quote})


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
        text += " " + t.ngettext(
            "(only {n} on the market)", "(only {n} on the market)", available
        ).format(n=available)
    return text


def _parse_income(state: State, player: str, words: list[str], t: Translator) -> Reply:
    _no_args("income", words)
    from engine.powergrid import quotes

    view = _view(state, player)
    if player not in view["players"]:
        raise ParseError(N_("You are not playing in this game."))
    quote = quotes.income_quote(state, player)
    return Reply(income_text(quote, t), extra={"quote": quote})


def income_text(quote: dict[str, Any], t: Translator) -> str:
    powered = int(quote.get("powered", 0))
    plants = quote.get("plants") or []
    text = t.ngettext("You can power {n} city", "You can power {n} cities", powered).format(
        n=powered
    )
    if plants:
        text += " " + t.ngettext("with plant {plants}", "with plants {plants}", len(plants)).format(
            plants=_join([str(p) for p in plants])
        )
    return (
        text
        + ": "
        + t.gettext("income {income}.").format(income=money_text(t, quote.get("income", 0)))
    )


def _parse_market(state: State, player: str, words: list[str], t: Translator) -> Reply:
    _no_args("market", words)
    return Reply(market_text(_view(state, player), t))


def market_text(view: View, t: Translator) -> str:
    market = view["plant_market"]
    lines = [
        t.gettext("Current plants: {plants}").format(
            plants=_join([_plant_text(t, p) for p in market["current"]]) or "-"
        )
    ]
    future = [_plant_text(t, p) for p in market.get("future", [])]
    if market.get("step3_card"):
        future.append(t.gettext("Step 3 card"))
    if future:
        lines.append(t.gettext("Future plants: {plants}").format(plants=_join(future)))
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
                spaces=_join(on_sale) or "-",
                supply=view.get("supply", {}).get(resource, 0),
            )
        )
    return "\n".join(lines)


def _parse_plants(state: State, player: str, words: list[str], t: Translator) -> Reply:
    _no_args("plants", words)
    # A public answer: with hidden money it shows nobody's money, the asker's included.
    return Reply(plants_text(_view(state, None if state.get("hidden_money") else player), t))


def plants_text(view: View, t: Translator) -> str:
    lines: list[str] = []
    order = view.get("player_order") or view.get("seat_order") or list(view["players"])
    for name in order:
        me = view["players"][name]
        plants = _join([_plant_text(t, p) for p in me["plants"]]) or "-"
        stock = _join(
            [f"{n} {resource_text(t, r)}" for r, n in me.get("resources", {}).items() if n]
        )
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


_PARSERS: dict[
    str, Callable[[State, str, list[str], Translator], Action | list[Action] | Reply]
] = {
    "bid": _parse_bid,
    "maxbid": _parse_maxbid,
    "orders": _parse_orders,
    "cancel": _parse_cancel,
    "raise": _parse_raise,
    "pass": _parse_pass,
    "discard": _parse_discard,
    "buy": _parse_buy,
    "build": _parse_build,
    "power": _parse_power,
    "done": _parse_done,
    "region": _parse_region,
    "cost": _parse_cost,
    "price": _parse_price,
    "income": _parse_income,
    "market": _parse_market,
    "plants": _parse_plants,
}


# --------------------------------------------------------------------------------------------
# Texts: the turn and the events
# --------------------------------------------------------------------------------------------


def describe_turn(state: State, player: str | None, t: Translator = _ENGLISH) -> str:
    """A short paragraph: round, step, phase, who must act and what exactly is expected."""
    return turn_text(_view(state, player), player, t)


def _ranking_text(view: View, ranking: list[list[str]], t: Translator) -> str:
    parts: list[str] = []
    place = 1
    for group in ranking:
        for name in group:
            me = view["players"].get(name, {})
            powered = me.get("powered") or 0
            parts.append(
                t.gettext("{place}. {player} ({powered}, {money})").format(
                    place=place,
                    player=name,
                    powered=t.ngettext("{n} city powered", "{n} cities powered", powered).format(
                        n=powered
                    ),
                    money=money_text(t, me.get("money")),
                )
            )
        place += len(group)
    return "; ".join(parts)


def turn_text(view: View, player: str | None, t: Translator) -> str:
    """`describe_turn` on a view (VIEW.md)."""
    phase = view.get("phase", "")
    if phase == "over":
        ranking = view.get("ranking") or []
        return t.gettext("Game over after round {round}. {ranking}").format(
            round=view.get("round", 0), ranking=_ranking_text(view, ranking, t)
        )[:MAX_TURN_TEXT]
    head = t.gettext("Round {round}, step {step}: {phase}.").format(
        round=view.get("round", 0),
        step=view.get("step", 1),
        phase=phase_text(t, phase),
    )
    if view.get("step3_pending"):
        head += " " + t.gettext("Step 3 begins with the next phase.")
    lines = [head]
    who = _join(view.get("current_players") or [])
    expected = view.get("expected", "")
    if expected == "choose_region":
        regions = _join([_region_label(r) for r in choosable_regions(view)])
        chosen = view.get("regions_chosen") or []
        if chosen:
            lines.append(t.gettext("Chosen: {regions}.").format(regions=_join(chosen)))
        lines.append(
            t.gettext("{who}: choose a region — /region <region> ({regions}).").format(
                who=who, regions=regions
            )
        )
    elif expected == "choose_plant":
        market = _join([_plant_text(t, p) for p in view["plant_market"]["current"]])
        if view.get("round", 1) == 1:
            text = t.gettext(
                "{who}: choose a plant to auction — /bid <plant> [<amount>]. Market: {market}. "
                "In round 1 everyone must buy a plant."
            )
        else:
            text = t.gettext(
                "{who}: choose a plant to auction — /bid <plant> [<amount>] — or /pass for "
                "this round. Market: {market}."
            )
        lines.append(text.format(who=who, market=market))
    elif expected == "bid" and view.get("auction"):
        auction = view["auction"]
        lines.append(
            t.gettext(
                "{who}: your bid on plant {plant}, at {high} now ({leader}) — "
                "/raise <amount> or /pass"
            ).format(
                who=who,
                plant=_plant_text(t, auction["plant"]),
                high=auction["high_bid"],
                leader=auction.get("leader", ""),
            )
        )
    elif expected == "discard":
        names_ = view.get("pending_discard") or who
        me = view["players"].get(names_, {})
        lines.append(
            t.gettext("{who}: one plant too many — /discard <plant> (you own {plants}).").format(
                who=names_,
                plants=_join([str(p["number"]) for p in me.get("plants", [])]),
            )
        )
    elif expected == "buy":
        lines.append(
            t.gettext(
                "{who}: buy resources — /buy <resource> <n>, e.g. /buy coal 2 (/price coal 2 "
                "for a quote), then /done."
            ).format(who=who)
        )
    elif expected == "build":
        slots = int(view.get("slots_open", 1))
        lines.append(
            t.gettext(
                "{who}: build — /build <city> [<city> ...] (/cost <city> for a quote), then /done."
            ).format(who=who)
            + " "
            + t.ngettext(
                "A city holds {n} house now.", "A city holds {n} houses now.", slots
            ).format(n=slots)
        )
    elif expected == "power":
        text = t.gettext(
            "{who}: power your cities — /power runs the best plants, or /power <plant> ..."
        ).format(who=who)
        current = view.get("current_players") or []
        if len(current) == 1 and current[0] in view["players"]:
            _, _, _, powered = best_power(view, current[0])
            text += " " + t.ngettext(
                "(/power alone powers {n} city)", "(/power alone powers {n} cities)", powered
            ).format(n=powered)
        lines.append(text)
    elif who:
        lines.append(t.gettext("Waiting for {who}.").format(who=who))
    if player is not None and view.get("orders"):
        # view["orders"] holds only the viewer's own orders (view.py), never anyone else's.
        lines.append(
            t.gettext("Your standing orders: {orders}.").format(
                orders="; ".join(order_lines(view["orders"], t))
            )
        )
    if player is not None and player in view["players"]:
        me = view["players"][player]
        if me.get("money") is not None:
            lines.append(
                t.gettext("You have {money}, {cities} and plants {plants}.").format(
                    money=money_text(t, me["money"]),
                    cities=t.ngettext("{n} city", "{n} cities", len(me["cities"])).format(
                        n=len(me["cities"])
                    ),
                    plants=_join([str(p["number"]) for p in me["plants"]]) or "-",
                )
            )
    return " ".join(lines)[:MAX_TURN_TEXT]


def describe_event(state: State, event: Event, t: Translator = _ENGLISH) -> str | None:
    """One chat line for an event (every event type of the CONTRACT has one)."""
    kind = event.get("type", "")
    if kind == "game_over":
        view = _view(state, None)
        ranking = event.get("ranking") or view.get("ranking") or []
        return t.gettext("Game over! {ranking}").format(ranking=_ranking_text(view, ranking, t))
    if event.get("private"):
        # A private event (a standing order placed, cancelled or dropped) has no public line:
        # the table does not learn that a limit or a plan exists (issue 20, PG-22); its owner
        # reads `describe_private_event`.
        return None
    return _event_line(event, t)


def describe_private_event(state: State, event: Event, t: Translator = _ENGLISH) -> str | None:
    """The line for the event's owner alone (`event["player"]` of a private event)."""
    if event.get("type") == "game_over":
        return describe_event(state, event, t)
    return _event_line(event, t)


def _event_line(event: Event, t: Translator) -> str | None:
    text = EVENT_TEXTS.get(event.get("type", ""))
    if text is None:
        return None
    line = text(event, t)
    # The tag marks the player's own move made by their order, never a phase line the order
    # happened to trigger (issue 20: the tag spilled onto "Now: ..." lines).
    if event.get("by_order") and event.get("player"):
        line += " " + t.gettext("(standing order)")
    return line


def _plant_no(event: Event) -> Any:
    plant = event.get("plant")
    return plant.get("number") if isinstance(plant, dict) else plant


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
            player=e["player"], regions=_join(regions or [])
        )
    return t.gettext("Regions in play: {regions}.").format(regions=_join(regions or []))


def _ev_region_chosen(e: Event, t: Translator) -> str:
    return t.gettext("{player} chooses region {region}.").format(
        player=e.get("player", ""), region=e.get("region", "")
    )


def _ev_player_order(e: Event, t: Translator) -> str:
    return t.gettext("Player order: {order}.").format(order=_join(e.get("order", [])))


def _ev_auction_opened(e: Event, t: Translator) -> str:
    return t.gettext("{player} puts plant {plant} up for auction at {bid}.").format(
        player=e.get("player", ""), plant=_plant_no(e), bid=e.get("bid", e.get("price", ""))
    )


def _ev_bid(e: Event, t: Translator) -> str:
    return t.gettext("{player} bids {bid}.").format(
        player=e.get("player", ""), bid=e.get("bid", e.get("amount", ""))
    )


def _ev_passed(e: Event, t: Translator) -> str:
    player = e.get("player", "")
    plant = _plant_no(e)
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
    return t.gettext("{player} buys plant {plant} for {price}.").format(
        player=e.get("player", ""), plant=_plant_no(e), price=money_text(t, e.get("price", 0))
    )


def _ev_plant_discarded(e: Event, t: Translator) -> str:
    text = t.gettext("{player} discards plant {plant}.").format(
        player=e.get("player", ""), plant=_plant_no(e)
    )
    returned = e.get("returned") or {}
    if returned:  # PG-27: what the remaining plants could not keep
        tokens = _join([f"{n} {resource_text(t, r)}" for r, n in returned.items()])
        text += " " + t.gettext("{tokens} back to the supply.").format(tokens=tokens)
    return text


def _ev_plant_drawn(e: Event, t: Translator) -> str:
    return t.gettext("Plant {plant} comes into the market.").format(plant=_plant_no(e))


def _ev_plant_removed(e: Event, t: Translator) -> str:
    if e.get("under_deck"):
        return t.gettext("Plant {plant} goes under the deck.").format(plant=_plant_no(e))
    return t.gettext("Plant {plant} leaves the game.").format(plant=_plant_no(e))


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
    if added:
        return t.gettext("The resource market is restocked: {added}.").format(
            added=_join([f"+{n} {resource_text(t, r)}" for r, n in added.items()])
        )
    return t.gettext("The resource market is restocked.")


def _ev_power_declared(e: Event, t: Translator) -> str:
    return t.gettext("{player} has chosen what to power.").format(player=e.get("player", ""))


# Order events are private to their owner: the chat line says only that something happened
# (the owner reads the details with /orders), so nobody learns a limit or a plan.
def _ev_order_placed(e: Event, t: Translator) -> str:
    return t.gettext("{player} leaves a standing order.").format(player=e.get("player", ""))


def _ev_order_dropped(e: Event, t: Translator) -> str:
    return t.gettext(
        "{player}: one of your standing orders could not be carried out and was dropped "
        "(/orders for details)."
    ).format(player=e.get("player", ""))


def _ev_orders_cancelled(e: Event, t: Translator) -> str:
    return t.gettext("{player} cancels a standing order.").format(player=e.get("player", ""))


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

_PICTURE_EVENTS = frozenset({"phase_ended", "step_started", "game_over"})
_REVEALING_EVENTS = frozenset({"plant_drawn", "step3_card_drawn"})


def is_picture_event(event: Event) -> bool:
    """A board picture follows every phase, a new step and the end of the game."""
    return event.get("type") in _PICTURE_EVENTS


def undoable(events: list[Event]) -> bool:
    """False when the move revealed a card from the deck (CONTRACT: hidden or random info)."""
    return not any(e.get("type") in _REVEALING_EVENTS for e in events)


# --------------------------------------------------------------------------------------------
# Buttons and autocomplete
# --------------------------------------------------------------------------------------------


def buttons(state: State, player: str, t: Translator = _ENGLISH) -> list[tuple[str, str]]:
    """Small choices for `player` now, as (label, command text)."""
    view = _view(state, player)
    if state.get("hidden_money") and player in view["players"]:
        # Buttons are posted in the group: under hidden money they must not be filtered by
        # the player's money (the affordable bids would tell it), issue 20.
        view["players"][player] = {**view["players"][player], "money": None}
    return buttons_for(view, player, t)


def _just_bought(view: View, player: str) -> int | None:
    for event in reversed(view.get("log") or []):
        if event.get("type") == "auction_won" and event.get("player") == player:
            number = _plant_no(event)
            return number if isinstance(number, int) else None
    return None


def _next_prices(view: View, resource: str, n: int) -> list[int]:
    """PG-32: the prices of the next n tokens of a resource (fewer if the market runs out)."""
    prices: list[int] = []
    for space in view["resource_market"].get(resource, []):
        prices += [space["price"]] * space.get("count", 0)
    return sorted(prices)[:n]


def fuel_for_one_run(view: View, player: str) -> list[tuple[str, int, int]]:
    """What to buy so every plant can run once: [(resource, count, price)], cheapest fuel
    for the hybrids; empty when nothing is missing or nothing is on sale."""
    me = view["players"][player]
    need = {r: 0 for r in RESOURCES}
    hybrid = 0
    for plant in me["plants"]:
        if plant.get("type") == "hybrid":
            hybrid += plant.get("cost", 0)
        elif plant.get("type") in need:
            need[plant["type"]] += plant.get("cost", 0)
    have = me["resources"]
    buy = {r: max(0, need[r] - have.get(r, 0)) for r in RESOURCES}
    spare = sum(max(0, have.get(r, 0) - need[r]) for r in HYBRID_FUELS)
    for _ in range(max(0, hybrid - spare)):
        costs = {
            r: prices[-1] if len(prices := _next_prices(view, r, buy[r] + 1)) > buy[r] else 999
            for r in HYBRID_FUELS
        }
        cheaper = min(HYBRID_FUELS, key=lambda r: costs[r])
        buy[cheaper] += 1
    out: list[tuple[str, int, int]] = []
    for resource in RESOURCES:
        prices = _next_prices(view, resource, buy[resource])
        if prices:
            out.append((resource, len(prices), sum(prices)))
    return out


def buttons_for(view: View, player: str, t: Translator) -> list[tuple[str, str]]:
    if player not in (view.get("current_players") or []):
        return []
    me = view["players"].get(player, {})
    money = me.get("money")
    expected = view.get("expected", "")
    out: list[tuple[str, str]] = []
    if expected == "bid" and view.get("auction") and view["auction"].get("turn") == player:
        high = view["auction"]["high_bid"]
        for step in (1, 5, 10):
            bid = high + step
            if money is None or bid <= money:
                out.append((f"+{step} → {bid}", f"/raise {bid}"))
        out.append((t.gettext("Pass"), "/pass"))
    elif expected == "choose_plant":
        for plant in view["plant_market"]["current"]:
            if money is None or plant["number"] <= money:
                out.append((_plant_text(t, plant), f"/bid {plant['number']}"))
        if view.get("round", 1) > 1:
            out.append((t.gettext("Pass"), "/pass"))
    elif expected == "discard":
        newest = _just_bought(view, player)
        for plant in me.get("plants", []):
            if plant["number"] == newest:
                continue
            options = keep_choices(view, player, plant["number"])
            if len(options) <= 1:
                out.append(
                    (
                        t.gettext("Discard {plant}").format(plant=plant["number"]),
                        f"/discard {plant['number']}",
                    )
                )
                continue
            # PG-27: one button per way to keep the most tokens; the first is the default
            for i, option in enumerate(options):
                label = (
                    N_("Discard {plant}, keep {tokens} (default)")
                    if i == 0
                    else N_("Discard {plant}, keep {tokens}")
                )
                out.append(
                    (
                        t.gettext(label).format(
                            plant=plant["number"], tokens=_keep_text(t, option)
                        ),
                        _keep_command(plant["number"], option),
                    )
                )
    elif expected == "buy":
        refill = fuel_for_one_run(view, player)
        if refill:
            cost = sum(price for _, _, price in refill)
            if money is None or cost <= money:
                label = _join([f"{n} {resource_text(t, r)}" for r, n, _ in refill])
                command = "/buy " + " ".join(f"{r[0]}{n}" for r, n, _ in refill)
                out.append(
                    (
                        t.gettext("Buy {what} ({cost})").format(
                            what=label, cost=money_text(t, cost)
                        ),
                        command,
                    )
                )
        out.append((t.gettext("Done"), "/done"))
    elif expected == "build":
        out.append((t.gettext("Done"), "/done"))
    elif expected == "power":
        out.append((t.gettext("Power max"), "/power"))
    elif expected == "choose_region":
        for region in choosable_regions(view):
            out.append((region.get("name", region["id"]), f"/region {region['id']}"))
    return out


def complete(state: State | None, player: str | None, kind: str, prefix: str) -> list[str]:
    """Autocomplete candidates (at most 25) for an argument kind."""
    if kind == "resource":
        key = "".join(names.words(prefix))
        meant = {res for alias, res in RESOURCE_WORDS.items() if alias.startswith(key)}
        return [r for r in RESOURCES if r in meant]
    if state is None:
        if kind == "city":
            every = sorted(
                {
                    c["name"]
                    for path in _MAPS_DIR.glob("*.json")
                    for c in load_map(path.stem)["cities"]
                }
            )
            return names.prefixed(prefix, every, MAX_COMPLETIONS)
        return []
    view = _view(state, player)
    if kind == "city":
        return names.prefixed(prefix, _cities_in_play(view), MAX_COMPLETIONS)
    if kind == "region":
        labels = [r.get("name", r["id"]) for r in _regions(view)]
        by_id = [
            r.get("name", r["id"])
            for r in _regions(view)
            if r["id"].casefold().startswith(prefix.strip().casefold())
        ]
        found = names.prefixed(prefix, labels, MAX_COMPLETIONS)
        return [*found, *[x for x in by_id if x not in found]][:MAX_COMPLETIONS]
    if kind == "plant":
        numbers: list[int] = []
        if view.get("auction"):
            numbers.append(view["auction"]["plant"]["number"])
        numbers += _market_numbers(view)
        if player is not None:
            numbers += [p["number"] for p in _own_plants(view, player)]
        digits = prefix.strip().lstrip("#")
        seen: list[str] = []
        for number in numbers:
            text = str(number)
            if text.startswith(digits) and text not in seen:
                seen.append(text)
        return seen[:MAX_COMPLETIONS]
    return []
