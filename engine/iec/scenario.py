"""Scenario data (map, deposits, buildings, parameters) and the board geometry of IEC-S-1..S-3.

A scenario is one JSON file in `data/`; a second scenario is added by dropping another file
there. Distances are in cm: 1 cell = `cell_cm` cm, measured between cell centres (IEC-S-3).
All comparisons are made on squared integers, so they are exact.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
COLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
GOODS = ("A", "B", "C", "AB", "BC", "AC")
SIMPLE = ("A", "B", "C")
RECIPES = {"AB": ("A", "B"), "BC": ("B", "C"), "AC": ("A", "C")}
KINDS = (
    "reactor",
    "mine",
    "storage",
    "mixer",
    "laboratory",
    "transmitter",
    "developer",
    "launcher",
)


def scenario_ids() -> list[str]:
    return sorted(p.stem for p in DATA.glob("*.json"))


class Scenario:
    """Read-only view of one scenario file with precomputed cell tables."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw
        self.id: str = raw["id"]
        self.name: str = raw["name"]
        self.width: int = raw["width"]
        self.height: int = raw["height"]
        self.cell_cm: int = raw["cell_cm"]
        self.params: dict[str, Any] = raw["params"]
        self.buildings: dict[str, dict[str, Any]] = raw["buildings"]
        self.deposits: dict[str, dict[str, int]] = raw["deposits"]
        self.classes: dict[str, list[str]] = raw["classes"]
        self.areas: dict[str, dict[str, Any]] = raw["areas"]
        self.terrain: dict[str, dict[str, Any]] = raw["terrain"]
        self.map: list[str] = raw["map"]
        self.cells: list[str] = []
        self.xy: dict[str, tuple[int, int]] = {}
        self.area_of: dict[str, str] = {}
        self.buildable: set[str] = set()
        self.seismic: set[str] = set()
        self._near: dict[tuple[str, float], list[str]] = {}
        self.index: dict[str, int] = {}
        # Each kind's minimum distance to other buildings (cm) and the widest of them.
        self.interval: dict[str, int] = {k: int(b["interval"]) for k, b in self.buildings.items()}
        self.widest_interval: int = max(self.interval.values())
        for y in range(self.height):
            for x in range(self.width):
                name = f"{COLS[x]}{y + 1}"
                self.index[name] = len(self.cells)
                self.cells.append(name)
                self.xy[name] = (x, y)
                ter = self.terrain[self.map[y][x]]
                if ter.get("buildable"):
                    self.buildable.add(name)
                area = ter.get("area")
                if area:
                    self.area_of[name] = area
                    if self.areas[area].get("seismic"):
                        self.seismic.add(name)

    def d2(self, a: str, b: str) -> int:
        """Squared distance in cm² between two cell centres."""
        (ax, ay), (bx, by) = self.xy[a], self.xy[b]
        return self.cell_cm * self.cell_cm * ((ax - bx) ** 2 + (ay - by) ** 2)

    def within(self, a: str, b: str, r_cm: float) -> bool:
        # `d2` inlined: the bots' planning asks this about a million times a rollout batch.
        (ax, ay), (bx, by) = self.xy[a], self.xy[b]
        return self.cell_cm * self.cell_cm * ((ax - bx) ** 2 + (ay - by) ** 2) <= r_cm * r_cm

    def distance(self, a: str, b: str) -> float:
        return float(self.d2(a, b)) ** 0.5

    def near(self, cell: str, r_cm: float) -> list[str]:
        """All cells within r_cm of cell (cell included), in map order; cached."""
        key = (cell, r_cm)
        found = self._near.get(key)
        if found is None:
            found = [c for c in self.cells if self.within(cell, c, r_cm)]
            self._near[key] = found
        return found

    def is_cell(self, name: Any) -> bool:
        return isinstance(name, str) and name in self.xy


@cache
def load(scenario_id: str) -> Scenario:
    path = DATA / f"{scenario_id}.json"
    if not path.is_file() or "/" in scenario_id or "\\" in scenario_id:
        raise KeyError(scenario_id)
    with path.open(encoding="utf-8") as fh:
        return Scenario(json.load(fh))
