"""Figures are the connected components of one player's pieces (HEX-T-1, DECISION HEX-D-3).

They are never stored: merging (HEX-10) and splitting (HEX-16) follow from recomputing them.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.hexania.board import INDEX, NEIGHBOURS


class Figures:
    """All figures of a position: `of[cell]` -> figure number, `cells[n]`, `owner[n]`."""

    __slots__ = ("cells", "of", "owner")

    def __init__(self, board: dict[str, str]) -> None:
        of: dict[str, int] = {}
        cells: list[list[str]] = []
        owner: list[str] = []
        get = board.get
        for start in sorted(board, key=INDEX.__getitem__):
            if start in of:
                continue
            who = board[start]
            n = len(cells)
            of[start] = n
            group = [start]
            stack = [start]
            while stack:
                for nb in NEIGHBOURS[stack.pop()]:
                    if nb not in of and get(nb) == who:
                        of[nb] = n
                        group.append(nb)
                        stack.append(nb)
            cells.append(group)
            owner.append(who)
        self.of = of
        self.cells = cells
        self.owner = owner

    def figure_at(self, cell: str) -> list[str]:
        return self.cells[self.of[cell]]

    def mass_at(self, cell: str) -> int:
        return len(self.cells[self.of[cell]])

    def of_player(self, player: str) -> list[list[str]]:
        return [c for c, o in zip(self.cells, self.owner) if o == player]


def components(cells: Iterable[str]) -> list[list[str]]:
    """Connected components of a set of cells (one player's pieces)."""
    left = set(cells)
    out: list[list[str]] = []
    while left:
        start = left.pop()
        group = [start]
        stack = [start]
        while stack:
            c = stack.pop()
            for nb in NEIGHBOURS[c]:
                if nb in left:
                    left.remove(nb)
                    group.append(nb)
                    stack.append(nb)
        out.append(group)
    return out


def is_connected(cells: set[str]) -> bool:
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    stack = [start]
    while stack:
        c = stack.pop()
        for nb in NEIGHBOURS[c]:
            if nb in cells and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return len(seen) == len(cells)


def component_of(start: Iterable[str], cells: set[str]) -> set[str]:
    """The cells of `cells` connected to any of `start` (which must lie in `cells`)."""
    seen = set(start)
    stack = list(seen)
    while stack:
        c = stack.pop()
        for nb in NEIGHBOURS[c]:
            if nb in cells and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return seen
