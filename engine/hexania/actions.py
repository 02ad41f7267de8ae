"""The five actions of Hexania (HEX-3..22), priced and checked on a copy of the position.

`plan(pos, action)` checks one action against its preconditions and computes what it would do
(HEX-T-5 steps 1-5): the cells taken and left, the enemy pieces destroyed, the armour paid, the
merged figure and its collapse. It never changes the state; `rules.apply` commits a plan.
A refused action comes back as `Refusal` (rule id + English template), so the legal-action
generator can try many candidates without raising.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import N_, IllegalAction, State
from engine.hexania.board import (
    BIRTH_COST,
    CELL_SET,
    COLLAPSE_MASS,
    DIRECTIONS,
    HOMELANDS,
    NEIGHBOURS,
    STEP,
    lines_along,
    sort_cells,
)
from engine.hexania.figures import Figures, components


@dataclass
class Refusal:
    rule_id: str
    message: str
    params: dict[str, Any] = field(default_factory=dict)

    def error(self) -> IllegalAction:
        return IllegalAction(self.rule_id, self.message, **self.params)


@dataclass
class Plan:
    """What one action does, fixed by the start-of-action masses (HEX-D-16)."""

    kind: str
    player: str
    base: int  # birth 1; growth/regroup mass; movement inertia (or lines, HEX-OPT-D)
    steps: int = 0
    armour: list[dict[str, Any]] = field(default_factory=list)  # per attacked figure
    added: list[str] = field(default_factory=list)  # cells the player's pieces take
    vacated: list[str] = field(default_factory=list)  # cells the player's pieces leave
    destroyed: dict[str, str] = field(default_factory=dict)  # enemy cell -> owner
    merged: set[str] = field(default_factory=set)  # the acting figure after the action
    collapse: bool = False
    keep: str | None = None

    @property
    def armour_cost(self) -> int:
        return sum(a["cost"] for a in self.armour)

    @property
    def cost(self) -> int:
        return self.base + self.steps + self.armour_cost

    def final_new_cells(self) -> list[str]:
        """Cells newly held by the player after the action (the HEX-12 check, HEX-D-14)."""
        if self.collapse:
            return [self.keep] if self.keep is not None and self.keep in self.added else []
        return self.added


class _Path:
    __slots__ = ("enemy", "enemy_count", "figset", "positions", "seen", "stop")

    def __init__(self, fig: list[str]) -> None:
        self.figset = set(fig)
        self.positions: list[list[str]] = []  # cells after 1, 2, ... steps
        self.enemy: list[str] = []  # enemy cells swept, in order of discovery
        self.enemy_count: list[int] = []  # len(enemy) after 1, 2, ... steps
        self.seen: set[str] = set()
        self.stop: tuple[str, str] | None = None  # why the path cannot go further


class Position:
    """One player's view of a position for pricing actions: figures, homelands, points."""

    def __init__(self, state: State, player: str) -> None:
        self.state = state
        self.board: dict[str, str] = state["board"]
        self.player = player
        self.opts: dict[str, Any] = state["options"]
        self.figs = Figures(self.board)
        self.own_cells = {c for c, o in self.board.items() if o == player}
        self._paths: dict[tuple[int, str], _Path] = {}
        self._rests: dict[str, tuple[dict[str, int], int]] = {}
        turn = state.get("turn")
        self.points: int | None = (
            turn["points"] if turn is not None and turn["player"] == player else None
        )
        active = [p for p in state["order"] if p not in state["eliminated"]]
        self.homeland: tuple[str, ...] = (
            HOMELANDS[state["sides"][player]] if player in active else ()
        )
        self.blocked = [c for c in self.homeland if self.board.get(c, player) != player]
        self.forbidden = forbidden_cells(state, player, active)

    def path(self, fig: list[str], direction: str, steps: int) -> _Path:
        """The straight path of a figure, walked lazily and shared by all step counts."""
        key = (self.figs.of[fig[0]], direction)
        path = self._paths.get(key)
        if path is None:
            path = self._paths[key] = _Path(fig)
        figset = path.figset
        board, me = self.board, self.player
        while len(path.positions) < steps and path.stop is None:
            current = path.positions[-1] if path.positions else fig
            moved = []
            for c in current:
                n = STEP[c][direction]
                if n is None:
                    path.stop = ("HEX-D-11", c)
                    break
                owner = board.get(n)
                if owner == me and n not in figset:
                    path.stop = ("HEX-8", n)
                    break
                if owner is not None and owner != me and n not in path.seen:
                    path.seen.add(n)
                    path.enemy.append(n)
                moved.append(n)
            if path.stop is None:
                path.positions.append(moved)
                path.enemy_count.append(len(path.enemy))
        return path

    def rest_components(self, source: str, fig: list[str]) -> tuple[dict[str, int], int]:
        """Components of a figure without the piece on `source`: cell -> component number."""
        cached = self._rests.get(source)
        if cached is None:
            comp: dict[str, int] = {}
            parts = components(c for c in fig if c != source)
            for i, part in enumerate(parts):
                for c in part:
                    comp[c] = i
            cached = self._rests[source] = (comp, len(parts))
        return cached

    def own(self, cell: str) -> bool:
        return self.board.get(cell) == self.player

    def enemy(self, cell: str) -> bool:
        owner = self.board.get(cell)
        return owner is not None and owner != self.player


def is_first_turn(state: State, player: str) -> bool:
    turn = state.get("turn")
    taken = state["turns"][player]
    if turn is not None and turn["player"] == player:
        return bool(taken == 1)
    return bool(taken == 0)


def forbidden_cells(state: State, player: str, active: list[str]) -> frozenset[str]:
    """Homeland cells of others `player` may not hold at the end of an action.

    HEX-12: during his first turn, every other player's homeland. HEX-OPT-B (replaces it):
    the homeland of each other player none of whose pieces has been destroyed yet.
    Homelands of eliminated players are ordinary cells (HEX-2.5).
    """
    others = [p for p in active if p != player]
    if state["options"]["guard"]:
        owners = [p for p in others if not state["lost_piece"][p]]
    elif is_first_turn(state, player):
        owners = others
    else:
        return frozenset()
    return frozenset(c for p in owners for c in HOMELANDS[state["sides"][p]])


def _own_figure(pos: Position, cell: Any, rule: str) -> list[str] | Refusal:
    if not isinstance(cell, str) or cell not in CELL_SET:
        return Refusal("syntax", N_("{cell} is not a cell of the board."), {"cell": str(cell)})
    if not pos.own(cell):
        return Refusal(rule, N_("You have no piece on {cell}."), {"cell": cell})
    return pos.figs.figure_at(cell)


def _target(pos: Position, cell: Any) -> str | Refusal:
    if not isinstance(cell, str) or cell not in CELL_SET:
        return Refusal("syntax", N_("{cell} is not a cell of the board."), {"cell": str(cell)})
    return cell


def _armour(pos: Position, attacker_mass: int, cells: list[str], full: bool = False) -> list[Any]:
    """Armour for each enemy figure with a piece on `cells` (HEX-15, HEX-20)."""
    seen: dict[int, dict[str, Any]] = {}
    for c in cells:
        owner = pos.board.get(c)
        if owner is None or owner == pos.player:
            continue
        n = pos.figs.of[c]
        if n not in seen:
            mass = len(pos.figs.cells[n])
            cost = mass if full else max(0, mass - attacker_mass)
            seen[n] = {"owner": owner, "mass": mass, "cost": cost, "cells": []}
        seen[n]["cells"].append(c)
    return list(seen.values())


def _merged(own: set[str], vacated: list[str], added: list[str]) -> set[str]:
    """The player's figure holding `added` once the action is done (HEX-10)."""
    gone = set(vacated)
    seen = set(added)
    stack = list(added)
    while stack:
        c = stack.pop()
        for nb in NEIGHBOURS[c]:
            if nb not in seen and nb in own and nb not in gone:
                seen.add(nb)
                stack.append(nb)
    return seen


def _resolve(pos: Position, plan: Plan, keep: Any) -> Plan | Refusal:
    """Merging (HEX-10), collapse (HEX-13) and the homeland check (HEX-12 / HEX-OPT-B)."""
    plan.merged = _merged(pos.own_cells, plan.vacated, plan.added)
    if len(plan.merged) >= COLLAPSE_MASS and not pos.opts["bastions"]:
        plan.collapse = True
        if keep is None:
            plan.keep = None
        elif not isinstance(keep, str) or keep not in plan.merged:
            return Refusal(
                "HEX-13",
                N_("The figure collapses at mass {mass}; keep one of its own cells, not {cell}."),
                {"mass": len(plan.merged), "cell": str(keep)},
            )
        else:
            plan.keep = keep
        # Only the kept piece stays; if it is an old cell, no new cell is held.
        if plan.keep is not None and plan.keep not in plan.added:
            return _homeland_check(pos, plan, [])
        return _homeland_check(pos, plan, [plan.keep] if plan.keep is not None else [])
    if keep is not None:
        return Refusal("HEX-13", N_("Nothing collapses, so there is no cell to keep."))
    return _homeland_check(pos, plan, plan.added)


def _homeland_check(pos: Position, plan: Plan, new_cells: list[str]) -> Plan | Refusal:
    bad = [c for c in new_cells if c in pos.forbidden]
    if bad:
        rule = "HEX-OPT-B" if pos.opts["guard"] else "HEX-12"
        owner = next(p for p, s in pos.state["sides"].items() if bad[0] in HOMELANDS[s])
        if rule == "HEX-12":
            msg = N_("In your first turn you may not end on {cell}, a homeland cell of {owner}.")
        else:
            msg = N_("{cell} is a homeland cell of {owner}, who has not lost a piece yet.")
        return Refusal(rule, msg, {"cell": bad[0], "owner": owner})
    return plan


def plan_birth(pos: Position, action: dict[str, Any]) -> Plan | Refusal:
    cell = _target(pos, action.get("cell"))
    if isinstance(cell, Refusal):
        return cell
    if cell not in pos.homeland:
        return Refusal("HEX-3", N_("{cell} is not a cell of your homeland."), {"cell": cell})
    plan = Plan("birth", pos.player, BIRTH_COST, added=[cell])
    if pos.own(cell):
        return Refusal("HEX-3", N_("{cell} is already taken."), {"cell": cell})
    if pos.blocked:
        if not pos.opts["birthattack"]:
            return Refusal(
                "HEX-5",
                N_("Another player's piece stands on your homeland ({cell}): no births."),
                {"cell": pos.blocked[0]},
            )
        if not pos.enemy(cell):
            return Refusal(
                "HEX-OPT-G",
                N_("Your homeland is occupied: births only on occupied cells ({cell})."),
                {"cell": pos.blocked[0]},
            )
        plan.armour = _armour(pos, 0, [cell], full=True)
        plan.destroyed = {cell: pos.board[cell]}
    if not pos.opts["mergebirth"] and any(pos.own(n) for n in NEIGHBOURS[cell]):
        return Refusal(
            "HEX-11", N_("A piece born on {cell} would merge with your figure."), {"cell": cell}
        )
    return _resolve(pos, plan, action.get("keep"))


def plan_grow(pos: Position, action: dict[str, Any]) -> Plan | Refusal:
    fig = _own_figure(pos, action.get("figure"), "HEX-4")
    if isinstance(fig, Refusal):
        return fig
    cell = _target(pos, action.get("cell"))
    if isinstance(cell, Refusal):
        return cell
    if pos.own(cell):
        return Refusal("HEX-4", N_("{cell} already holds your piece."), {"cell": cell})
    figset = set(fig)
    if not any(n in figset for n in NEIGHBOURS[cell]):
        return Refusal(
            "HEX-4",
            N_("{cell} does not touch the figure on {figure}."),
            {"cell": cell, "figure": action["figure"]},
        )
    m = len(fig)
    plan = Plan("grow", pos.player, m, added=[cell])
    if pos.enemy(cell):
        plan.armour = _armour(pos, m, [cell])
        plan.destroyed = {cell: pos.board[cell]}
    return _resolve(pos, plan, action.get("keep"))


def plan_move(pos: Position, action: dict[str, Any]) -> Plan | Refusal:
    fig = _own_figure(pos, action.get("figure"), "HEX-6")
    if isinstance(fig, Refusal):
        return fig
    direction = action.get("dir")
    if direction not in DIRECTIONS:
        return Refusal(
            "syntax", N_("Direction is one of E, NE, NW, W, SW, SE, not {dir}."), {"dir": direction}
        )
    steps = action.get("steps")
    if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
        return Refusal("HEX-7", N_("Steps must be a whole number from 1."))
    path = pos.path(fig, direction, steps)
    if len(path.positions) < steps:
        assert path.stop is not None
        rule, cell = path.stop
        if rule == "HEX-D-11":
            return Refusal(
                "HEX-D-11",
                N_("The figure on {figure} would leave the board."),
                {"figure": action["figure"]},
            )
        return Refusal(
            "HEX-8",
            N_("The figure on {figure} may not pass through your piece on {cell}."),
            {"figure": action["figure"], "cell": cell},
        )
    current = path.positions[steps - 1]
    m = len(fig)
    base = lines_along(fig, direction) if pos.opts["viscous"] else m
    plan = Plan("move", pos.player, base, steps=steps, added=current, vacated=list(fig))
    enemy_swept = path.enemy[: path.enemy_count[steps - 1]]
    if enemy_swept:
        plan.armour = _armour(pos, m, enemy_swept)
        plan.destroyed = {c: pos.board[c] for c in enemy_swept}
    return _resolve(pos, plan, action.get("keep"))


def plan_regroup(pos: Position, action: dict[str, Any]) -> Plan | Refusal:
    source = action.get("from")
    fig = _own_figure(pos, source, "HEX-9")
    if isinstance(fig, Refusal):
        return fig
    assert isinstance(source, str)
    cell = _target(pos, action.get("to"))
    if isinstance(cell, Refusal):
        return cell
    m = len(fig)
    if m < 2:
        return Refusal("HEX-9", N_("A single piece cannot regroup; move or grow it."))
    if pos.own(cell):
        return Refusal("HEX-9", N_("{cell} already holds your piece."), {"cell": cell})
    comp, parts = pos.rest_components(source, fig)
    touched = {comp[n] for n in NEIGHBOURS[cell] if n in comp}
    if not touched:
        return Refusal("HEX-9", N_("{cell} does not touch the rest of the figure."), {"cell": cell})
    # F \ {p} ∪ {t} is connected iff t joins every part of F \ {p} (HEX-D-12)
    if not pos.opts["split"] and len(touched) < parts:
        return Refusal(
            "HEX-9",
            N_("Moving {src} to {cell} would break the figure apart."),
            {"src": source, "cell": cell},
        )
    plan = Plan("regroup", pos.player, m, added=[cell], vacated=[source])
    if pos.enemy(cell):
        plan.armour = _armour(pos, m, [cell])
        plan.destroyed = {cell: pos.board[cell]}
    return _resolve(pos, plan, action.get("keep"))


PLANNERS = {
    "birth": plan_birth,
    "grow": plan_grow,
    "move": plan_move,
    "regroup": plan_regroup,
}


def plan(pos: Position, action: dict[str, Any]) -> Plan | Refusal:
    kind = action.get("type")
    planner = PLANNERS.get(kind) if isinstance(kind, str) else None
    if planner is None:
        return Refusal("syntax", N_("Unknown action {type}."), {"type": str(kind)})
    return planner(pos, action)


def check_complete(pos: Position, plan_: Plan) -> Refusal | None:
    """The last checks of HEX-T-5: a collapse needs its kept cell; the action must be paid."""
    if plan_.collapse and plan_.keep is None:
        return Refusal(
            "HEX-13",
            N_("The figure reaches mass {mass} and collapses: name the cell to keep (keep=...)."),
            {"mass": len(plan_.merged)},
        )
    if pos.points is not None and plan_.cost > pos.points:
        return Refusal(
            "HEX-18",
            N_("That costs {cost} points; you have {points}."),
            {"cost": plan_.cost, "points": pos.points},
        )
    return None


def keep_choices(pos: Position, plan_: Plan) -> list[str]:
    """Cells the owner may keep in a collapse that satisfy HEX-12 / HEX-OPT-B."""
    return [c for c in sort_cells(plan_.merged) if c not in plan_.added or c not in pos.forbidden]


def action_text(action: dict[str, Any]) -> str:
    """The chat command that performs `action` (HEX-G-4 cell names)."""
    kind = action["type"]
    if kind == "birth":
        text = f"/spawn {action['cell']}"
    elif kind == "grow":
        text = f"/grow {action['figure']} {action['cell']}"
    elif kind == "move":
        text = f"/move {action['figure']} {action['dir']} {action['steps']}"
    elif kind == "regroup":
        text = f"/regroup {action['from']} {action['to']}"
    else:
        return "/end"
    if "keep" in action:
        text += f" keep={action['keep']}"
    return text
