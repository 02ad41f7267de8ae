"""Chat words -> values for the Power Grid commands: numbers, plant numbers, resources (in
several languages, prefixes accepted), city and region names (prefixes, any case and
accents, several words), "coal=3"-style counts and "max=25" limits. A word that does not fit
raises the calling command's usage line (`usage`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.core.errors import N_, IllegalAction, ParseError
from engine.core.protocol import EnglishTranslator, Translator
from engine.core.sentences import Listed
from engine.powergrid import names
from engine.powergrid.aliases import region_names
from engine.powergrid.chat_view import (
    View,
    all_cities,
    cities_in_play,
    own_plants,
    regions_of,
    regions_text,
)
from engine.powergrid.data import RESOURCE_TERMS
from engine.powergrid.wording import RESOURCES, candidates, join, resource_text

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
    "燃煤": "coal",  # the zh_Hant catalog's word, the one the prompts print
    "石油": "oil",
    "油": "oil",
    "垃圾": "garbage",
    "廢物": "garbage",  # the zh_Hant catalog's word
    "废物": "garbage",
    "鈾": "uranium",
    "铀": "uranium",
}

_ENGLISH = EnglishTranslator()

# --------------------------------------------------------------------------------------------
# Reading the state
# --------------------------------------------------------------------------------------------


INT_WORD = re.compile(r"\d{1,6}")
PLANT_WORD = re.compile(r"(?:#|p|plant|no\.?)?(\d{1,3})", re.IGNORECASE)
# Anything a player may type as a number: signed, with a decimal point or comma ("-1", "1.5",
# "1,5", ".5"). As a count only a whole number is read (`count_of`); any other number is
# refused as a count, never read as a resource word ("-" was "Name a resource") nor cut into
# a count and a word ("oil=-1" bought 1 oil).
NUMBER_WORD = re.compile(r"[-+\u2212]?(?:\d+(?:[.,]\d+)?|\.\d+)")
_NUMBER = NUMBER_WORD.pattern
BAD_COUNT = N_('"{word}" is not a count: give a whole number of at least {least}.')


def read_int(word: str, usage: str) -> int:
    if not INT_WORD.fullmatch(word):
        raise ParseError(usage, word=word)
    return int(word)


def count_of(word: str, least: int = 1) -> int:
    """A count typed by a player: a whole number of at least `least` (1 for a purchase,
    PG-31; 0 for the tokens kept, PG-27). Any other number is refused as a count."""
    if word.isdecimal() and int(word) >= least:
        return int(word)
    raise ParseError(BAD_COUNT, word=word, least=least)


def plant_number(word: str, usage: str) -> int:
    found = PLANT_WORD.fullmatch(word.strip())
    if not found:
        raise ParseError(usage, word=word)
    return int(found.group(1))


def resource_of(word: str, t: Translator = _ENGLISH) -> str:
    """The resource a word names: "coal", "c", "ur", "trash", "Kohle", "węgiel" ... (prefixes
    accepted). A refusal names the resources in the reader's words (PG-3): `Term`s the table
    translates, or for the candidates of a prefix the words of `t`, the reader's."""
    key = "".join(names.words(word))
    if not key:
        raise ParseError(
            N_("Name a resource: {coal}, {oil}, {garbage} or {uranium}."), **RESOURCE_TERMS
        )
    if key in RESOURCE_WORDS:
        return RESOURCE_WORDS[key]
    found = {res for alias, res in RESOURCE_WORDS.items() if alias.startswith(key)}
    if len(found) == 1:
        return found.pop()
    if found:
        raise ParseError(
            N_('"{word}" could mean {candidates}.'),
            word=word,
            candidates=join(t, [resource_text(t, r) for r in RESOURCES if r in found]),
        )
    raise ParseError(
        N_('Unknown resource "{word}": use {coal}, {oil}, {garbage} or {uranium}.'),
        word=word,
        **RESOURCE_TERMS,
    )


def cities_of(view: View, chat_words: Sequence[str]) -> list[str]:
    """City names from chat words: prefixes, any case and accents, multi-word names.

    Names are matched against the cities in play first; a city of the map outside the play
    area is refused with PG-8.
    """
    in_play = cities_in_play(view)
    everywhere = all_cities(view)
    out: list[str] = []
    for part in names.split_names(chat_words, in_play):
        if part.match.unique is not None:
            out.append(part.match.unique)
            continue
        if part.match.names:
            raise ParseError(
                N_('"{word}" could be {candidates}. Type more letters.'),
                word=part.text,
                candidates=Listed(part.match.names),
            )
        outside = names.match(part.text, everywhere)
        if outside.names:
            raise IllegalAction(
                "PG-8",
                N_("{city} is outside the regions in play."),
                city=Listed(outside.names),
            )
        raise ParseError(
            N_('Unknown city "{word}". Cities in play: {candidates}'),
            word=part.text,
            candidates=candidates(sorted(in_play, key=names.words)),
        )
    return out


def _region_words(view: View) -> dict[str, str]:
    """Every word that names a region of the view's map -> its id: the id, the English
    name and the names in the chat languages (as the prompts print them)."""
    by_label: dict[str, str] = {}
    spelt = region_names(str(view.get("map")))
    for region in regions_of(view):
        by_label[region["id"]] = region["id"]
        by_label[region.get("name", region["id"])] = region["id"]
        for name in spelt.get(region["id"], ()):
            by_label[name] = region["id"]
    return by_label


def region_of(view: View, chat_words: Sequence[str], t: Translator = _ENGLISH) -> str:
    """A region id from its id or name ("NW", "north-west", "Fioletowy"); a refusal names
    the regions in the words of `t`, the reader's (PG-8), as the prompt does."""
    text = " ".join(chat_words)
    by_label = _region_words(view)
    ids = sorted({by_label[label] for label in names.match(text, by_label).names})
    if len(ids) == 1:
        return ids[0]
    if ids:
        raise ParseError(
            N_('"{word}" could be {candidates}. Type more letters.'),
            word=text,
            candidates=regions_text(ids, t),
        )
    raise ParseError(
        N_('Unknown region "{word}". Regions: {candidates}'),
        word=text,
        candidates=regions_text([r["id"] for r in regions_of(view)], t),
    )


# --------------------------------------------------------------------------------------------
# parse
# --------------------------------------------------------------------------------------------


def amount_of(word: str, base: int, usage: str) -> int:
    """An absolute amount "21", or "+5" meaning base + 5."""
    if word.startswith("+"):
        return base + read_int(word[1:], usage)
    return read_int(word, usage)


LIMIT_WORD = re.compile(r"(?:max|limit|up\s*to)[=:]?(\d{1,6})?", re.IGNORECASE)


def limit_of(words: list[str], usage: str) -> tuple[list[str], int | None]:
    """Split off "max=25" / "max 25" / "limit=30": (other words, the limit or None)."""
    rest: list[str] = []
    limit: int | None = None
    i = 0
    while i < len(words):
        found = LIMIT_WORD.fullmatch(words[i])
        if found is None:
            rest.append(words[i])
            i += 1
            continue
        if limit is not None:
            raise ParseError(usage, word=words[i])
        if found.group(1) is not None:
            limit = int(found.group(1))
            i += 1
        elif i + 1 < len(words) and INT_WORD.fullmatch(words[i + 1]):
            limit = int(words[i + 1])
            i += 2
        else:
            raise ParseError(usage, word=words[i])
    return rest, limit


def own_plant(view: View, player: str, word: str, usage: str) -> int:
    number = plant_number(word, usage)
    own = [p["number"] for p in own_plants(view, player)]
    if number not in own:
        if len(own) == 1:  # "Your plants: 4" read as a count (a refusal has no plural forms)
            raise ParseError(
                N_("You do not own plant {plant}; your only plant is {owned}."),
                plant=number,
                owned=own[0],
            )
        raise ParseError(
            N_("You do not own plant {plant}. Your plants: {plants}"),
            plant=number,
            plants=Listed(map(str, own)) if own else "-",
        )
    return number


SPLIT_COUNT = re.compile(rf"^({_NUMBER})(\D.*)$|^(\D.*?)({_NUMBER})$")


def split_counts(words: list[str]) -> list[str]:
    """Split "coal=3", "c3", "3coal" into separate words; a number keeps its sign and
    decimals ("oil=-1" -> "oil", "-1"; "c1.5" -> "c", "1.5") for `count_of` to refuse."""
    out: list[str] = []
    for word in words:
        for piece in re.split(r"[=:](?=[-+\u2212]?\.?\d)|[×x*](?=\d)|(?<=\d)[×x*]", word):
            if not piece:
                continue
            if PLANT_WORD.fullmatch(piece) or NUMBER_WORD.fullmatch(piece):
                out.append(piece)
                continue
            found = SPLIT_COUNT.match(piece)
            if found and found.group(1):
                out += [found.group(1), found.group(2)]
            elif found and found.group(3):
                out += [found.group(3), found.group(4)]
            else:
                out.append(piece)
    return out


def resource_counts(
    words: list[str], usage: str, t: Translator = _ENGLISH, least: int = 0
) -> list[tuple[str, int]]:
    """Pairs of resource and count, in either order; a missing count means 1 (`t`: the
    reader's words for a refusal, as `resource_of`). A count below `least`, negative or not
    whole is refused as a count (`count_of`)."""
    tokens = split_counts(words)
    pairs: list[tuple[str, int]] = []
    i = 0
    while i < len(tokens):
        word = tokens[i]
        if NUMBER_WORD.fullmatch(word):
            count = count_of(word, least)
            if i + 1 >= len(tokens) or NUMBER_WORD.fullmatch(tokens[i + 1]):
                raise ParseError(usage, word=word)
            pairs.append((resource_of(tokens[i + 1], t), count))
            i += 2
            continue
        resource = resource_of(word, t)
        if i + 1 < len(tokens) and NUMBER_WORD.fullmatch(tokens[i + 1]):
            pairs.append((resource, count_of(tokens[i + 1], least)))
            i += 2
        else:
            pairs.append((resource, 1))
            i += 1
    return pairs
