"""Fast legal-action generation (HEX-T-5): the same actions, in the same order, as pricing every
candidate through `actions.plan`, but with cheap incremental checks.

`rules.checked_legal` is the reference: it builds every structurally possible action and runs it
through the full validation path (`actions.plan`, `actions.check_complete`). Here each candidate
is priced from per-position tables instead, so no `Plan` is built for a refused one:

* the mass of the figure an action leaves (HEX-10) is a sum of whole-figure masses: the cell
  taken joins exactly the player's figures (or, for a regroup, the parts of the figure without
  the moved piece) that touch it, so collapse (HEX-13) is decided without a search, and the
  merged cells are only listed when the figure does collapse;
* a figure's regroup targets come from its border cells (sorted once per figure) and the pieces
  of the figure each border cell touches, instead of a sorted set per moved piece;
* a movement walks each direction once (translation tables per direction), with the armour of
  the swept enemy figures (HEX-15) kept as a running sum.

tests/engine/hexania/test_legal_speed_invariants.py checks both paths give identical lists.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any, cast

from engine.core import Action
from engine.hexania import actions as act
from engine.hexania.board import (
    BIRTH_COST,
    COLLAPSE_MASS,
    DIRECTION_NAMES,
    INDEX,
    NEIGHBOURS,
    STEP_TO,
    lines_along,
)
from engine.hexania.figures import components


def legal_actions(pos: act.Position) -> Iterator[Action]:
    """Legal affordable actions of `pos.player`, in the order of `rules.checked_legal`.

    An action that makes a figure collapse comes once per cell the player may keep.
    """
    for action, _ in _generate(pos, False):
        yield action


def _armour(owner: str, mass: int, cost: int, cells: list[str]) -> dict[str, Any]:
    """One attacked figure's entry in `Plan.armour`, as `actions._armour` writes it."""
    return {"owner": owner, "mass": mass, "cost": cost, "cells": cells}


def legal_plans(pos: act.Position) -> Iterator[tuple[Action, act.Plan]]:
    """`legal_actions` with the plan `actions.plan` would give each (the same `Plan`, field
    for field: tests/engine/hexania/test_legal_speed_invariants.py), built from the tables
    here instead of re-validating every action (the rollouts' bots price every legal move).
    """
    return cast(Iterator[tuple[Action, act.Plan]], _generate(pos, True))


def _generate(pos: act.Position, with_plans: bool) -> Iterator[tuple[Action, act.Plan | None]]:
    """The legal actions, each with its plan when `with_plans` (else None: the table's
    `legal_actions` and `can_act` need no plans)."""
    board = pos.board
    me = pos.player
    points = pos.points if pos.points is not None else 0
    figs = pos.figs
    of = figs.of
    fig_cells = figs.cells
    opts = pos.opts
    own = pos.own_cells
    forbidden = pos.forbidden
    mine = [n for n, o in enumerate(figs.owner) if o == me]
    # A merged figure holds at most every own piece plus one new cell: below the collapse mass
    # nothing can collapse and no merged figure needs measuring.
    may_collapse = not opts["bastions"] and len(own) + 1 >= COLLAPSE_MASS
    # cell -> own figures with a piece next to it (the figures a piece there would join)
    touching: dict[str, set[int]] = {}
    if may_collapse:
        for x in own:
            i = of[x]
            for nb in NEIGHBOURS[x]:
                if nb in touching:
                    touching[nb].add(i)
                else:
                    touching[nb] = {i}
    no_ids: set[int] = set()
    Plan = act.Plan

    def collapsed(
        action: Action, plan: act.Plan | None, merged: set[str], added: set[str] | list[str]
    ) -> Iterator[tuple[Action, act.Plan | None]]:
        """The action once per cell the owner may keep (act.keep_choices, HEX-13, HEX-12)."""
        for c in sorted(merged, key=INDEX.__getitem__):
            if c not in added or c not in forbidden:
                kept = None if plan is None else replace(plan, merged=merged, collapse=True, keep=c)
                yield {**action, "keep": c}, kept

    def joined(cells: list[str], n: int) -> set[str]:
        """The figure a piece on `cells` belongs to once placed (HEX-10; `actions._merged`):
        those cells and every own figure but `n` with a piece next to them."""
        merged = set(cells)
        for c in cells:
            for x in NEIGHBOURS[c]:
                if x in own:
                    i = of[x]
                    if i != n:
                        merged.update(fig_cells[i])
        return merged

    def merged_of(cell: str, ids: set[int], parts: list[list[str]]) -> set[str]:
        merged = {cell}
        for i in ids:
            merged.update(fig_cells[i])
        for p in parts:
            merged.update(p)
        return merged

    def swept_armour(swept: list[str], m: int) -> list[dict[str, Any]]:
        """Armour per enemy figure swept, in order of its first cell (`actions._armour`)."""
        by_figure: dict[int, dict[str, Any]] = {}
        for c in swept:
            i = of[c]
            entry = by_figure.get(i)
            if entry is None:
                mass = len(fig_cells[i])
                entry = by_figure[i] = _armour(board[c], mass, max(0, mass - m), [])
            entry["cells"].append(c)
        return list(by_figure.values())

    # --- births (HEX-3, HEX-5, HEX-11, HEX-OPT-G, HEX-OPT-E)
    if points >= BIRTH_COST and pos.homeland and (not pos.blocked or opts["birthattack"]):
        merge_ok = opts["mergebirth"]
        for cell in pos.homeland:
            owner = board.get(cell)
            if owner == me:
                continue
            cost = BIRTH_COST
            if pos.blocked:
                if owner is None:
                    continue
                cost += len(fig_cells[of[cell]])  # full armour (HEX-OPT-G)
            if cost > points:
                continue
            if not merge_ok and any(x in own for x in NEIGHBOURS[cell]):
                continue  # HEX-11: a newborn piece may not merge at once
            ids = touching.get(cell, no_ids)
            action: Action = {"type": "birth", "cell": cell}
            plan = Plan("birth", me, BIRTH_COST, added=[cell]) if with_plans else None
            if plan is not None and pos.blocked:
                assert owner is not None
                mass = len(fig_cells[of[cell]])
                plan.armour = [_armour(owner, mass, mass, [cell])]
                plan.destroyed = {cell: owner}
            if may_collapse and 1 + sum(len(fig_cells[i]) for i in ids) >= COLLAPSE_MASS:
                yield from collapsed(action, plan, merged_of(cell, ids, []), [cell])
            elif cell not in forbidden:
                if plan is not None:
                    plan.merged = joined([cell], -1)
                yield action, plan

    # --- growth (HEX-4) and regroup (HEX-9)
    split_ok = opts["split"]
    for n in mine:
        fig = fig_cells[n]
        m = len(fig)
        if m > points:  # growth and regroup cost at least the mass
            continue
        anchor = fig[0]
        # border cell -> the figure's pieces next to it
        near: dict[str, list[str]] = {}
        for c in fig:
            for b in NEIGHBOURS[c]:
                if b not in own:
                    if b in near:
                        near[b].append(c)
                    else:
                        near[b] = [c]
        border = sorted(near)  # by name, as the reference does
        # the cost of taking each border cell: mass + armour of the enemy figure there (HEX-15)
        price: dict[str, int] = {}
        for b in border:
            price[b] = m + max(0, len(fig_cells[of[b]]) - m) if b in board else m
        # other own figures a piece on each border cell would join, and their mass
        others: dict[str, set[int]] = {}
        others_mass: dict[str, int] = {}
        if may_collapse:
            for b in border:
                ids = touching[b] - {n}
                others[b] = ids
                others_mass[b] = sum(len(fig_cells[i]) for i in ids)
        for cell in border:
            if price[cell] > points:
                continue
            action = {"type": "grow", "figure": anchor, "cell": cell}
            plan = Plan("grow", me, m, added=[cell]) if with_plans else None
            enemy = board.get(cell)
            if plan is not None and enemy is not None:
                mass = len(fig_cells[of[cell]])
                plan.armour = [_armour(enemy, mass, max(0, mass - m), [cell])]
                plan.destroyed = {cell: enemy}
            if may_collapse and 1 + m + others_mass[cell] >= COLLAPSE_MASS:
                yield from collapsed(action, plan, merged_of(cell, others[cell], [fig]), [cell])
            elif cell not in forbidden:
                if plan is not None:
                    plan.merged = joined([cell], -1)
                yield action, plan
        if m < 2:
            continue
        for src in fig:
            rest_parts = components(c for c in fig if c != src)
            whole = len(rest_parts)
            comp: dict[str, int] = {}
            if whole > 1:
                for i, part in enumerate(rest_parts):
                    for c in part:
                        comp[c] = i
            for cell in border:
                pieces = near[cell]
                if len(pieces) == 1 and pieces[0] == src:
                    continue  # touches only the moved piece
                if price[cell] > points:
                    continue
                parts = rest_parts
                if whole > 1:
                    touched = {comp[c] for c in pieces if c != src}
                    if len(touched) < whole:
                        if not split_ok:
                            continue  # HEX-9: would break the figure apart
                        parts = [rest_parts[i] for i in touched]
                action = {"type": "regroup", "from": src, "to": cell}
                plan = Plan("regroup", me, m, added=[cell], vacated=[src]) if with_plans else None
                enemy = board.get(cell)
                if plan is not None and enemy is not None:
                    mass = len(fig_cells[of[cell]])
                    plan.armour = [_armour(enemy, mass, max(0, mass - m), [cell])]
                    plan.destroyed = {cell: enemy}
                # at most 1 + (m - 1) + the other figures: measure only when that may collapse
                if may_collapse and m + others_mass[cell] >= COLLAPSE_MASS:
                    mass = 1 + sum(len(p) for p in parts) + others_mass[cell]
                    if mass >= COLLAPSE_MASS:
                        merged = merged_of(cell, others[cell], parts)
                        yield from collapsed(action, plan, merged, [cell])
                        continue
                if cell not in forbidden:
                    # the parts of the figure the cell touches, and the other figures it joins
                    if plan is not None:
                        plan.merged = joined([cell], n)
                        for part in parts:
                            plan.merged.update(part)
                    yield action, plan

    # --- movement (HEX-6, HEX-7, HEX-8, HEX-D-11)
    viscous = opts["viscous"]
    for n in mine:
        fig = fig_cells[n]
        m = len(fig)
        anchor = fig[0]
        figset = set(fig)
        base_min = 1 if viscous else m
        last = points - base_min
        if last < 1:
            continue
        for direction in DIRECTION_NAMES:
            base = lines_along(fig, direction) if viscous else m
            step_to = STEP_TO[direction]
            current: list[str] = fig
            armour = 0
            hit: set[int] = set()
            swept: list[str] = []  # enemy cells swept, in order (`actions.Position.path`)
            for steps in range(1, last + 1):
                ahead = [step_to[c] for c in current]
                blocked = False
                for t in ahead:
                    if t is None or (t in own and t not in figset):
                        blocked = True  # HEX-D-11 off the board, HEX-8 through an own piece
                        break
                    if t in board and t not in own:
                        if t not in swept:
                            swept.append(t)
                        e = of[t]
                        if e not in hit:
                            hit.add(e)
                            armour += max(0, len(fig_cells[e]) - m)
                if blocked or base + steps + armour > points:
                    break
                moved = current = cast(list[str], ahead)
                action = {"type": "move", "figure": anchor, "dir": direction, "steps": steps}
                plan = None
                if with_plans:
                    plan = Plan("move", me, base, steps=steps, added=moved, vacated=list(fig))
                if plan is not None and swept:
                    plan.armour = swept_armour(swept, m)
                    plan.destroyed = {c: board[c] for c in swept}
                if may_collapse:
                    ids = set()
                    for c in moved:
                        if c in touching:
                            ids |= touching[c]
                    ids.discard(n)
                    if m + sum(len(fig_cells[i]) for i in ids) >= COLLAPSE_MASS:
                        merged = set(moved)
                        for i in ids:
                            merged.update(fig_cells[i])
                        yield from collapsed(action, plan, merged, moved)
                        continue
                if not forbidden or not any(c in forbidden for c in moved):
                    if plan is not None:
                        plan.merged = joined(moved, n)
                    yield action, plan
