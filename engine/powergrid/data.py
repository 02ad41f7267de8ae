"""Power Grid game data (PG-1..PG-6, PG-11), loaded once from the JSON files in `data/`.

Everything here is immutable after import; rules modules read these constants and never
the files. Maps are compiled into integer-indexed graphs so the build phase can use
precomputed shortest-path matrices (see `network.py`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.core.errors import Term

_DIR = Path(__file__).with_name("data")
MAPS_DIR = _DIR / "maps"

RESOURCES = ("coal", "oil", "garbage", "uranium")
# The resources as a refusal's parameters ({coal}, {oil}, ...): `Term`s the table words in the
# reader's language (PG-3: they were English in every language). Typed Any: spread into
# IllegalAction(**...), whose other keywords are not str.
RESOURCE_TERMS: dict[str, Any] = {r: Term(r) for r in RESOURCES}
# The Step 3 card lives in the deck and the market as this number: it sorts above every
# plant, so "the high end of the future market" (PG-47) is simply the end of the list.
STEP3 = 99


def _load(name: str) -> Any:
    with (_DIR / name).open(encoding="utf-8") as fh:
        return json.load(fh)


_PLANTS_FILE = _load("plants.json")
TABLES: dict[str, Any] = _load("tables.json")


@dataclass(frozen=True)
class Plant:
    number: int
    type: str  # coal, oil, hybrid, garbage, uranium, eco, fusion
    cost: int  # R: tokens burned per use
    output: int  # P: cities powered

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "type": self.type, "cost": self.cost, "output": self.output}


PLANTS: dict[int, Plant] = {
    p["number"]: Plant(p["number"], p["type"], p["cost"], p["output"])
    for p in _PLANTS_FILE["plants"]
}
# Each plant as views show it, built once (views ask for ~20 plants each, three views a move):
# `plant_dict` hands out a copy, since a view belongs to its caller.
_PLANT_DICTS: dict[int, dict[str, Any]] = {n: p.as_dict() for n, p in PLANTS.items()}


def plant_dict(number: int) -> dict[str, Any]:
    """`PLANTS[number].as_dict()`, a fresh dict (copied from one built at import)."""
    return _PLANT_DICTS[number].copy()


INITIAL_PLANT_MARKET: list[int] = list(_PLANTS_FILE["initial_market"])
TOP_OF_DECK: int = _PLANTS_FILE["top_of_deck"]

PAYMENT: list[int] = list(TABLES["payment"])
START_MONEY: int = TABLES["start_money"]
HOUSES: int = TABLES["houses"]
SLOT_PRICES: list[int] = list(TABLES["slot_prices"])
TOTALS: dict[str, int] = dict(TABLES["totals"])


def income_for(powered: int) -> int:
    """PG-4 payment table; PG-D-1: more than 20 cities pays the 20-city amount."""
    return PAYMENT[min(powered, len(PAYMENT) - 1)]


def restock_amounts(n_players: int, step: int) -> dict[str, int]:
    """PG-5: tokens added per resource for this player count and step (a fresh dict)."""
    return dict(restock_row(n_players, step))


@cache
def restock_row(n_players: int, step: int) -> dict[str, int]:
    """`restock_amounts`, built once per player count and step and shared: read only."""
    row = TABLES["restock"][str(n_players)][step - 1]
    return dict(zip(TABLES["restock_order"], row))


_PLAYER_COUNTS: dict[int, dict[str, int]] = {
    int(n): dict(row) for n, row in TABLES["player_count"].items()
}


def player_count(n_players: int) -> dict[str, int]:
    """PG-6: regions, setup removals, plant limit, Step 2 and end thresholds (read-only)."""
    return _PLAYER_COUNTS[n_players]


# PG-3: the price of every slot of each resource track, cheapest first. A market holding
# n tokens fills exactly the n most expensive slots (tokens are always bought cheapest
# first and restocked most expensive first), so a count is a complete description.
SLOT_PRICE_LISTS: dict[str, list[int]] = {
    res: [price for price, slots in spaces for _ in range(slots)]
    for res, spaces in TABLES["market_spaces"].items()
}
CAPACITY: dict[str, int] = {res: len(prices) for res, prices in SLOT_PRICE_LISTS.items()}


def initial_market_counts() -> dict[str, int]:
    """PG-11: the fixed initial fill, as token counts (it fills the most expensive slots)."""
    return {res: sum(TABLES["initial_market"][res].values()) for res in RESOURCES}


@dataclass(frozen=True)
class GameMap:
    id: str
    name: str
    regions: tuple[str, ...]
    region_adjacency: frozenset[frozenset[str]]
    cities: tuple[str, ...]
    index: dict[str, int]
    city_region: tuple[str, ...]
    # adjacency lists: for each city index, (neighbour index, cost)
    edges: tuple[tuple[tuple[int, int], ...], ...]
    raw: dict[str, Any]

    def regions_adjacent(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.region_adjacency


@cache
def map_text(map_id: str) -> str:
    """The map file data/maps/<map_id>.json as text: the one reader of the map files (the
    rules' `game_map`, the chat's `chat_view.load_map` and the picture's layout parse it)."""
    if not re.fullmatch(r"[a-z0-9_]+", map_id):
        raise ValueError(f"bad map id {map_id!r}")
    return (MAPS_DIR / f"{map_id}.json").read_text(encoding="utf-8")


@cache
def game_map(map_id: str) -> GameMap:
    raw = json.loads(map_text(map_id))
    cities = tuple(c["name"] for c in raw["cities"])
    index = {name: i for i, name in enumerate(cities)}
    adj: list[list[tuple[int, int]]] = [[] for _ in cities]
    for a, b, cost in raw["connections"]:
        adj[index[a]].append((index[b], cost))
        adj[index[b]].append((index[a], cost))
    return GameMap(
        id=raw["id"],
        name=raw["name"],
        regions=tuple(r["id"] for r in raw["regions"]),
        region_adjacency=frozenset(frozenset(p) for p in raw["region_adjacency"]),
        cities=cities,
        index=index,
        city_region=tuple(c["region"] for c in raw["cities"]),
        edges=tuple(tuple(e) for e in adj),
        raw=raw,
    )


MAPS = ("germany", "usa")
