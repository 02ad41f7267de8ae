"""Power Grid's argument kinds (int, plant, resource, city, region): how each is read from
chat words and autocompleted, declared on the command table by `register_kinds`."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine.core.commands import ArgKind, CommandTable
from engine.core.protocol import State
from engine.powergrid import chat_view as cv
from engine.powergrid import names
from engine.powergrid.aliases import alias_prefixed, region_names
from engine.powergrid.chat_view import (
    View,
    cities_in_play,
    load_map,
    market_numbers,
    own_plants,
    regions_of,
)
from engine.powergrid.data import MAPS_DIR
from engine.powergrid.reading import (
    RESOURCE_WORDS,
    cities_of,
    plant_number,
    read_int,
    region_of,
    resource_of,
)
from engine.powergrid.wording import RESOURCES

MAX_COMPLETIONS = 25


def _complete_resource(state: State | None, player: str | None, prefix: str) -> list[str]:
    key = "".join(names.words(prefix))
    meant = {res for alias, res in RESOURCE_WORDS.items() if alias.startswith(key)}
    return [r for r in RESOURCES if r in meant]


def complete_cities(prefix: str, cities: Sequence[str], map_id: str | None) -> list[str]:
    """The cities among `cities` that `prefix` may begin: as the map spells them
    ("ham" -> Hamburg), then as the readers do, in Russian, Polish, Chinese or ASCII ("Гамб",
    "漢", "Mona" -> the canonical name, which /build reads back; engine/powergrid/aliases.py).
    The alternative rules complete their cities with it too."""
    found = names.prefixed(prefix, cities, MAX_COMPLETIONS)
    spelt = [c for c in alias_prefixed(prefix, cities, map_id) if c not in found]
    return [*found, *spelt][:MAX_COMPLETIONS]


@cache
def _every_city() -> tuple[str, ...]:
    maps = [load_map(path.stem) for path in MAPS_DIR.glob("*.json")]
    return tuple(sorted({c["name"] for m in maps for c in m["cities"]}))


def _complete_city(state: State | None, player: str | None, prefix: str) -> list[str]:
    if state is None:  # no game yet: every city of every map
        return complete_cities(prefix, _every_city(), None)
    cities = cities_in_play(cv.view_of(state, player))
    return complete_cities(prefix, cities, str(state.get("map")))


def _complete_region(state: State | None, player: str | None, prefix: str) -> list[str]:
    if state is None:
        return []
    return complete_regions(prefix, cv.view_of(state, player))


def complete_regions(prefix: str, view: View) -> list[str]:
    """The regions of the view's map that `prefix` may begin: by name or id, else in the
    reader's words ("wsch" -> "Wschód"). The alternative rules complete theirs with it."""
    regions = regions_of(view)
    labels = [r.get("name", r["id"]) for r in regions]
    by_id = [
        r.get("name", r["id"])
        for r in regions
        if r["id"].casefold().startswith(prefix.strip().casefold())
    ]
    found = names.prefixed(prefix, labels, MAX_COMPLETIONS)
    if not found and not by_id:  # the reader's words ("wsch" -> "Wschód"), which /region reads
        spelt = region_names(str(view.get("map")))
        found = names.prefixed(
            prefix, [n for r in regions for n in spelt.get(r["id"], ())], MAX_COMPLETIONS
        )
    return [*found, *[x for x in by_id if x not in found]][:MAX_COMPLETIONS]


def _complete_plant(state: State | None, player: str | None, prefix: str) -> list[str]:
    if state is None:
        return []
    view = cv.view_of(state, player)
    numbers: list[int] = []
    if view.get("auction"):
        numbers.append(view["auction"]["plant"]["number"])
    numbers += market_numbers(view)
    if player is not None:
        numbers += [p["number"] for p in own_plants(view, player)]
    digits = prefix.strip().lstrip("#")
    seen: list[str] = []
    for number in numbers:
        text = str(number)
        if text.startswith(digits) and text not in seen:
            seen.append(text)
    return seen[:MAX_COMPLETIONS]


def register_kinds(table: CommandTable) -> None:
    """Declare the argument kinds on the command table."""
    table.kind(ArgKind("int", read=lambda call, words: read_int(words[0], call.spec.usage)))
    table.kind(
        ArgKind(
            "plant",
            read=lambda call, words: plant_number(words[0], call.spec.usage),
            complete=_complete_plant,
        )
    )
    table.kind(
        ArgKind(
            "resource",
            read=lambda call, words: resource_of(words[0], call.t),
            complete=_complete_resource,
        )
    )
    table.kind(
        ArgKind(
            "city",
            read=lambda call, words: cities_of(cv.view_of(call.state, call.player), words),
            complete=_complete_city,
        )
    )
    table.kind(
        ArgKind(
            "region",
            read=lambda call, words: region_of(cv.view_of(call.state, call.player), words, call.t),
            complete=_complete_region,
        )
    )
