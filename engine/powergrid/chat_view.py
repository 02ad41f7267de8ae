"""What the Power Grid chat layer reads: a player's view of the state (VIEW.md) and the map
files (the cities and regions in play). `view_of` is the one way the chat layer reads a
state (tests stand hand-made views in for states by patching it)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from typing import Any

from engine.core.protocol import State, Translator
from engine.core.sentences import join_list
from engine.powergrid import names
from engine.powergrid.data import MAPS, map_text

View = dict[str, Any]


def view_of(state: State, player: str | None) -> View:
    from engine.powergrid.view import view  # late: keeps importing the chat layer light

    return view(state, player)


def load_map(map_id: str) -> dict[str, Any]:
    """The map file `data/maps/<map_id>.json` (a fresh copy; callers may not share it)."""
    data: dict[str, Any] = json.loads(map_text(map_id))
    return data


def all_cities(view: View) -> list[str]:
    return [c["name"] for c in load_map(view["map"])["cities"]]


def cities_in_play(view: View) -> list[str]:
    regions = set(view.get("regions_in_play") or [])
    return [c["name"] for c in load_map(view["map"])["cities"] if c["region"] in regions]


def regions_of(view: View) -> list[dict[str, str]]:
    regions: list[dict[str, str]] = load_map(view["map"])["regions"]
    return regions


def choosable_regions(view: View) -> list[dict[str, str]]:
    """Regions that may be chosen now (PG-8): not yet chosen, bordering a chosen one."""
    chosen = set(view.get("regions_chosen") or [])
    adjacency = {frozenset(pair) for pair in load_map(view["map"])["region_adjacency"]}
    return [
        r
        for r in regions_of(view)
        if r["id"] not in chosen
        and (not chosen or any(frozenset((r["id"], c)) in adjacency for c in chosen))
    ]


def region_label(region: dict[str, str], t: Translator | None = None) -> str:
    """ "NW (North-West)", the name in the reader's words with `t` ("NW (Северо-Запад)"; the
    map legend's names, engine/powergrid/render/words.py); just the name when its English
    form starts with the id ("Purple (North-West)": "Fioletowy (północny zachód)", never
    "purple (Fioletowy (północny zachód))", the English id before the reader's name)."""
    english = region.get("name", region["id"])
    name = english if t is None else t.gettext(english)
    if names.words(english)[:1] == names.words(region["id"]):
        return name
    return f"{region['id']} ({name})"


@cache
def _regions_by_id() -> dict[str, dict[str, str]]:
    """Every bundled map's regions by id (each map has its own ids: "NW" ..., "purple" ...),
    for the texts that name a region without its map (event lines). Read only."""
    return {r["id"]: r for map_id in MAPS for r in load_map(map_id)["regions"]}


def region_text(region_id: str, t: Translator) -> str:
    """A region id as the reader reads it (PG-8): "NW (Północny zachód)", "Fioletowy
    (północny zachód)"; an id no map has as it is."""
    region = _regions_by_id().get(region_id)
    return region_id if region is None else region_label(region, t)


def regions_text(region_ids: Iterable[str], t: Translator) -> str:
    """Several regions as the reader reads them, listed in his words ("chosen" lists, the
    log)."""
    return join_list(t, (region_text(r, t) for r in region_ids))


def own_plants(view: View, player: str) -> list[dict[str, Any]]:
    me = view["players"].get(player)
    return list(me["plants"]) if me else []


def market_numbers(view: View) -> list[int]:
    return [p["number"] for p in view["plant_market"]["current"]]


def acting(view: View, player: str) -> bool:
    return player in (view.get("current_players") or [])


def plant_no(event: dict[str, Any]) -> Any:
    """The plant number of an event (a number, or a plant as the view shows it)."""
    plant = event.get("plant")
    return plant.get("number") if isinstance(plant, dict) else plant
