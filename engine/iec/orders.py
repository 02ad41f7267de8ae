"""Standing orders and private choices (IEC-S-10.5, IEC-15.2, corrections 1.1): accepted at any
time, used until changed, never advancing the game (the table takes them off turn: `anytime`)."""

from __future__ import annotations

from typing import Any

from engine.core import N_, IllegalAction, Term
from engine.iec import choices as ch
from engine.iec.model import acting, deposit_at, placement_error
from engine.iec.rules import (
    DELIVERING,
    INTERACTIVE,
    Action,
    Event,
    State,
    _compute_power,
    _ev,
    has_tech,
    owns_tech,
    power_candidates,
    power_slots,
    scen,
)
from engine.iec.scenario import GOODS, KINDS, RECIPES
from engine.iec.secret import activate_now
from engine.iec.state_types import AnyBuilding, Subsidy, Transfer
from engine.iec.techs import TECHS

# A subsidy's cell that no later turn can make buildable for its type (not buildable, a mine
# off the deposits): refused when ordered. An occupied cell or one too close to a building
# may free up, so such an order waits (`/techs` says why it cannot land yet).
NEVER_BUILDABLE = frozenset({"IEC-10", "IEC-S-4", "IEC-14"})


def _bad(rule: str, msg: str, **kw: Any) -> IllegalAction:
    return IllegalAction(rule, msg, **kw)


def _cell(state: State, action: Action, key: str) -> str:
    c = action.get(key)
    if not scen(state).is_cell(c):
        raise _bad("IEC-S-2", N_("{value} is not a cell of the map."), value=c)
    return str(c)


def _own_building(state: State, player: str, cell: str, kind: str | None) -> AnyBuilding:
    b = state["buildings"].get(cell)
    if b is None or b["owner"] != player or (kind is not None and b["kind"] != kind):
        raise _bad(
            "IEC-7",
            # "of that type" when no type was named (/destroy R3) read as a type missing
            N_("{cell} holds no building of yours of that type.")
            if kind is not None
            else N_("{cell} holds no building of yours."),
            kind=kind or "building",
            cell=cell,
        )
    return b


def standing(state: State, player: str, action: Action, events: list[Event]) -> None:
    kind = action["type"]
    pl = state["players"][player]
    orders = pl["orders"]
    if kind == "power":
        cells = action.get("buildings")
        if not isinstance(cells, list):
            raise _bad("IEC-15.2", N_("List the buildings to power."))
        cands = {b["cell"] for b in power_candidates(state, player)}
        for c in cells:
            if c not in cands:
                raise _bad("IEC-15.2", N_("{cell} is not one of your buildings to power."), cell=c)
        if len(set(cells)) != len(cells):
            raise _bad("IEC-15.2", N_("A building is listed twice."))
        in_phase = state["phase"] == 3 and player in acting(state)
        if in_phase and len(cells) > power_slots(state, player):
            raise _bad(
                "IEC-15.1",
                N_("Buildings you can power besides your reactors: {n}."),
                n=power_slots(state, player),
            )
        orders["power"] = list(cells)
        if in_phase:
            _compute_power(state, player, events)
            state["done"].append(player)
            return
    elif kind == "give":
        to, n = action.get("to"), action.get("count")
        if not isinstance(to, str) or to not in state["players"] or to == player:
            raise _bad("IEC-15.5", N_("Give power as: player and a number of buildings."))
        if not isinstance(n, int) or n < 0:
            raise _bad("IEC-15.5", N_("Give power as: player and a number of buildings."))
        # Accepted whatever the technologies: refusing would tell the giver whether the
        # recipient secretly owns Intergrid Transformation. It acts in phase 3 only when one
        # side has it (IEC-TECH-4), and then reveals it.
        if n == 0:
            orders["give"].pop(to, None)
        else:
            orders["give"][to] = n
    elif kind == "extract":
        mine = _own_building(state, player, _cell(state, action, "mine"), "mine")
        res = action.get("resource")
        dep = deposit_at(state, mine["cell"])
        if res not in dep:
            raise _bad("IEC-S-13", N_("This mine's deposit has no {resource}."), resource=res)
        orders["extract"][mine["cell"]] = res
    elif kind == "mix":
        recipes = action.get("recipes")
        if not isinstance(recipes, list) or any(r not in RECIPES for r in recipes):
            raise _bad("IEC-S-15", N_("Recipes are AB, BC and AC."))
        orders["mix"] = list(dict.fromkeys(recipes))
    elif kind == "transfers":
        moves = action.get("moves")
        if not isinstance(moves, list):
            raise _bad("IEC-S-14", N_("List the transfers."))
        s = scen(state)
        r = int(s.buildings["storage"]["range"])
        clean: list[Transfer] = []
        for mv in moves:
            if not isinstance(mv, dict):
                raise _bad("IEC-S-14", N_("List the transfers."))
            a = _own_building(state, player, _cell(state, mv, "from"), "storage")
            b = _own_building(state, player, _cell(state, mv, "to"), "storage")
            g, n = mv.get("good"), mv.get("n")
            if a is b or not s.within(a["cell"], b["cell"], r):
                raise _bad(
                    "IEC-S-14",
                    N_("Goods move only between two of your storages at most {r} cm apart."),
                    r=r,
                )
            if not isinstance(g, str) or g not in GOODS or not isinstance(n, int) or n < 1:
                raise _bad("IEC-S-14", N_("A transfer needs a good and a positive number."))
            clean.append({"from": a["cell"], "to": b["cell"], "good": g, "n": n})
        orders["transfers"] = clean
    elif kind == "deliver":
        named = action.get("building")
        src = state["buildings"].get(named) if isinstance(named, str) else None
        if src is None or src["owner"] != player or src["kind"] not in DELIVERING:
            raise _bad(
                "IEC-S-10.5",
                N_("Name one of your mines, mixers or developers, then storages."),
            )
        cells = action.get("storages")
        if not isinstance(cells, list) or len(set(map(str, cells))) != len(cells):
            raise _bad("IEC-S-10.5", N_("List each storage once."))
        for c in cells:
            _own_building(state, player, _cell(state, {"cell": c}, "cell"), "storage")
        if cells:
            orders.setdefault("deliver", {})[src["cell"]] = list(cells)
        else:
            orders.setdefault("deliver", {}).pop(src["cell"], None)
    elif kind == "destroy":
        b = _own_building(state, player, _cell(state, action, "cell"), None)
        if action.get("cancel"):
            orders["destroy"] = [c for c in orders["destroy"] if c != b["cell"]]
        elif b["cell"] not in orders["destroy"]:
            orders["destroy"].append(b["cell"])
    elif kind == "flex":
        # The words are checked first, alike for everyone; whether he may declare at all
        # tells his technologies, so only he hears it (IEC-S-23, corrections 1.1).
        ph, pos = action.get("phase"), action.get("position")
        if not isinstance(ph, int) or ph not in (*INTERACTIVE, 12, 13):
            raise _bad("IEC-TECH-3", N_("Choose a phase from 3 to 14."))
        if pos not in ("first", "last", "unchanged"):
            raise _bad("IEC-TECH-3", N_("Position is first, last or unchanged."))
        if not has_tech(state, player, 3):
            raise _bad("IEC-TECH-3", N_("You need Flexible Order for this."), secret=True)
        if pos == "unchanged":
            orders["flex"].pop(str(ph), None)
        else:
            orders["flex"][str(ph)] = pos
    elif kind == "antimissile":
        orders["antimissile"] = bool(action.get("on"))
    else:
        _secret_order(state, player, action, events)
    # what was ordered, worded for him alone (order_words.py): his /log names each order
    secret = {"order": kind, "action": dict(action)}
    _ev(state, events, "order_set", player=player, private_to=player, secret=secret)


def _owned(state: State, player: str, tech: int) -> None:
    """IEC-S-23 (corrections 1.1, "No side channel"): whether he owns a technology is his
    secret, so the refusal goes to him alone (`secret`), never into the group. Each order
    checks its words before, alike for everyone, so that a public refusal never depends on
    his technologies either."""
    if not owns_tech(state, player, tech):
        raise _bad(
            f"IEC-TECH-{tech}",
            N_("You have not discovered {tech_name}."),
            secret=True,
            tech_name=Term(TECHS[tech]),  # worded in the reader's language, as /flex's
        )


def _secret_order(state: State, player: str, action: Action, events: list[Event]) -> None:
    """Private choices a secret technology allows, made in advance (corrections 1.1)."""
    kind = action["type"]
    orders = state["players"][player]["orders"]
    if kind == "use":
        tech, mode = action.get("tech"), action.get("mode", "now")
        if tech not in TECHS or mode not in ("now", "auto", "off"):
            raise _bad("IEC-S-23", N_("Use a technology as: number, then now, auto or off."))
        _owned(state, player, int(tech))
        if mode == "now":
            activate_now(state, player, int(tech), events)
        else:
            orders.setdefault("use", {})[str(tech)] = mode
    elif kind == "sweep":
        if not state["mine_war"]:
            raise _bad("IEC-S-8.5", N_("Mine War is off in this game."))
        cell = None if action.get("cell") is None else _cell(state, action, "cell")
        _owned(state, player, 19)
        if cell is not None and not ch.in_sweep_reach(state, player, cell):
            # Saved, it would never act while no developer stands near (found play-testing,
            # 2026-12-04): the player is told now, as a build out of range is.
            raise _bad(
                "IEC-S-22",
                N_("{cell} is more than {cm} cm from each of your developers."),
                cell=cell,
                cm=ch.sweep_range(state),
            )
        orders["sweep"] = cell
    elif kind == "peek":
        area = action.get("area")
        if area is not None and area not in ch.open_areas(state):
            raise _bad("IEC-TECH-1", N_("{area} is not an undiscovered area."), area=area)
        _owned(state, player, 1)
        orders["peek"] = area
    elif kind == "subsidy":
        order: Subsidy | None = None
        if action.get("cell") is not None:
            cell = _cell(state, action, "cell")
            kind_ = action.get("kind")
            if kind_ not in KINDS:
                raise _bad("IEC-14", N_("Name the building type."))
            order = {"kind": str(kind_), "cell": cell}
            err = placement_error(state, cell, str(kind_))
            if err is not None and err.rule_id in NEVER_BUILDABLE:
                raise err  # it could never land there (found play-testing, 2026-12-04)
        _owned(state, player, 16)
        # Public: a used subsidy landed in phase 14 and so revealed the technology.
        if state["players"][player]["subsidy_used"]:
            raise _bad("IEC-D-10", N_("Government Subsidy is used once per game."))
        orders["subsidy"] = order
