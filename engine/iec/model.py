"""The IEC state's shared queries and mutators: scenario parameters, ownership, power, links,
stocks, technologies and the event helper. The phases (rules.py) and the modules they drive
(choices.py, production.py, secret.py) all build on these; nothing here imports them back.
"""

from __future__ import annotations

from typing import Any

from engine.core import N_, IllegalAction, Rng
from engine.iec.scenario import GOODS, KINDS, SIMPLE, Scenario, load
from engine.iec.state_types import AnyBuilding, Building, plain
from engine.iec.state_types import State as IecState
from engine.iec.techs import MINE_WAR_TECHS, TECHS

# The rule functions take the typed state or a plain dict (state_types.py).
State = IecState


Event = dict[str, Any]


def scen(state: State) -> Scenario:
    return load(state["scenario"])


def param(state: State, key: str) -> Any:
    return scen(state).params[key]


def _ev(state: State, events: list[Event], etype: str, **kw: Any) -> Event:
    e: Event = {"type": etype, "turn": state["turn"], "phase": state["phase"], **kw}
    events.append(e)
    return e


def _roll(state: State) -> int:
    return Rng(state["rng"]).die()


def owns_tech(state: State, player: str, tech: int) -> bool:
    return tech in state["players"][player]["techs"]


def public_tech(state: State, player: str, tech: int) -> bool:
    """Revealed, hence known to all: only such technologies may shape who is asked to act."""
    return tech in state["players"][player]["revealed"]


def tech_mode(state: State, player: str, tech: int) -> str:
    """The owner's private standing choice for a technology: "auto" (default) or "off"."""
    return str(state["players"][player]["orders"].get("use", {}).get(str(tech), "auto"))


def has_tech(state: State, player: str, tech: int) -> bool:
    """Whether the technology acts now (corrections 1.1, IEC-S-23): it has no effect until its
    owner activates it; "auto" activates it (and reveals it) the first time it acts."""
    pl = state["players"][player]
    if tech not in pl["techs"]:
        return False
    return tech in pl["revealed"] or tech_mode(state, player, tech) == "auto"


def _reveal(state: State, player: str, tech: int, events: list[Event]) -> None:
    """Activation reveals the technology to all, Super Computer too (corrections 1.1)."""
    pl = state["players"][player]
    if tech in pl["techs"] and tech not in pl["revealed"]:
        pl["revealed"].append(tech)
        _ev(state, events, "tech_revealed", player=player, tech=tech, revealed=True)


def nominal(state: State, b: AnyBuilding) -> int:
    return int(scen(state).buildings[b["kind"]]["modules"])


def missing(state: State, b: AnyBuilding) -> int:
    return nominal(state, b) - int(b["modules"])


def undamaged(state: State, b: AnyBuilding) -> bool:
    return missing(state, b) == 0


def own(state: State, player: str, kind: str | None = None) -> list[dict[str, Any]]:
    blds: dict[str, Any] = plain(state)["buildings"]  # handed to the bots as plain dicts
    if kind is None:
        return [blds[c] for c in sorted([c for c, b in blds.items() if b["owner"] == player])]
    found = [b for b in blds.values() if b["kind"] == kind and b["owner"] == player]
    if len(found) > 1:
        found.sort(key=lambda b: b["cell"])
    return found


def working_reactor(b: AnyBuilding) -> bool:
    return b["kind"] == "reactor" and bool(b["complete"]) and b["modules"] >= 1


def powered(state: State, player: str, kind: str) -> list[dict[str, Any]]:
    return [b for b in own(state, player, kind) if b["powered"]]


def tech_cost(state: State, player: str) -> int:
    """IEC-23 / IEC-TECH-2: T + kQ, or T + max(0, k-2)Q with Super Computer."""
    k = len(state["players"][player]["techs"])
    if has_tech(state, player, 2):
        k = max(0, k - 2)
    return int(param(state, "T")) + k * int(param(state, "Q"))


def mine_limit(state: State, player: str) -> int:
    m = int(param(state, "M"))
    return m * 3 // 2 if has_tech(state, player, 18) else m


def available_techs(state: State, player: str) -> list[int]:
    owned = state["players"][player]["techs"]
    return [t for t in TECHS if t not in owned and (state["mine_war"] or t not in MINE_WAR_TECHS)]


def capacity(state: State, st: AnyBuilding, public: bool = False) -> int:
    """IEC-S-14 / IEC-S-20: 4 (5 with Compression) undamaged, 2 per intact module otherwise.
    `public`: counting Compression only once revealed (what everyone can compute)."""
    if undamaged(state, st):
        base = int(param(state, "storage_capacity"))
        tech = public_tech if public else has_tech
        return base + 1 if tech(state, st["owner"], 7) else base
    return int(param(state, "storage_per_module")) * int(st["modules"])


def load_of(st: AnyBuilding) -> int:
    return sum(st["goods"].values())


def free(state: State, st: AnyBuilding, public: bool = False) -> int:
    return capacity(state, st, public) - load_of(st)


def link_range(state: State, b: AnyBuilding) -> int:
    return int(scen(state).buildings[b["kind"]]["link"])


def linked(state: State, b: AnyBuilding) -> list[dict[str, Any]]:
    """IEC-S-10.5: own powered storages within the building's link distance."""
    s = scen(state)
    r = link_range(state, b)
    return [
        st
        for st in powered(state, b["owner"], "storage")
        if st is not b and s.within(st["cell"], b["cell"], r)
    ]


def stock(state: State, b: AnyBuilding, good: str) -> int:
    return sum(st["goods"][good] for st in linked(state, b))


def _take(state: State, b: AnyBuilding, good: str, n: int, prefer: str | None = None) -> list[str]:
    """Remove n units of good from storages linked to b; returns the source cell per unit."""
    sources = linked(state, b)
    sources.sort(key=lambda st: (st["cell"] != prefer, st["cell"]))
    taken: list[str] = []
    for st in sources:
        while len(taken) < n and st["goods"][good] > 0:
            st["goods"][good] -= 1
            taken.append(st["cell"])
    return taken


def delivery_order(state: State, b: AnyBuilding) -> list[str]:
    """The owner's standing destination choice for b's output (IEC-S-10.5), best first."""
    orders = state["players"][b["owner"]]["orders"]
    return list(orders.get("deliver", {}).get(b["cell"], []))


def _put(state: State, b: AnyBuilding, good: str, events: list[Event]) -> str | None:
    """Deliver one unit to a storage linked to b with free space (IEC-S-10.5).

    The owner chooses the destination: storages named in his standing `deliver` order for b
    come first, in his order. Without an order (or when those are full or unlinked) the
    default is: simple goods to the storage holding most simple goods (the mixer's input),
    compound goods to the one holding fewest, then most free space, then map order.
    """
    targets = [st for st in linked(state, b) if free(state, st) > 0]
    if not targets:
        return None
    # The choice among storages uses public capacities only; a hidden Compression place is
    # used (and revealed) only when no storage has a public free place (no side channel).
    targets = [st for st in targets if free(state, st, public=True) > 0] or targets
    simple = good in SIMPLE
    chosen = delivery_order(state, b)

    def key(st: dict[str, Any]) -> tuple[int, int, int, str]:
        simples = sum(st["goods"][g] for g in SIMPLE)
        rank = chosen.index(st["cell"]) if st["cell"] in chosen else len(chosen)
        return (rank, -simples if simple else simples, -free(state, st, True), st["cell"])

    st = min(targets, key=key)
    st["goods"][good] += 1
    if load_of(st) > int(param(state, "storage_capacity")):
        _reveal(state, st["owner"], 7, events)
    return str(st["cell"])


def _put_back(state: State, cell: str, good: str) -> None:
    st = state["buildings"].get(cell)
    if st is not None:
        st["goods"][good] += 1


def _new_building(state: State, owner: str, kind: str, cell: str, modules: int) -> AnyBuilding:
    full = int(scen(state).buildings[kind]["modules"])
    b: Building = {
        "cell": cell,
        "owner": owner,
        "kind": kind,
        "modules": min(modules, full),
        "complete": min(modules, full) >= full,
        "since": state["turn"],
        "powered": False,
        "used": [],
    }
    if kind == "storage":
        b["goods"] = dict.fromkeys(GOODS, 0)
    state["buildings"][cell] = b
    state["sites"].pop(cell, None)
    return b


def placement_error(state: State, cell: str, kind: str) -> IllegalAction | None:
    """IEC-S-2..S-4 and IEC-S-3 intervals for a new building of `kind` on `cell`."""
    s = scen(state)
    if not s.is_cell(cell):
        return IllegalAction("IEC-S-2", N_("{cell} is not a cell of the map."), cell=cell)
    if kind not in KINDS:
        return IllegalAction("IEC-14", N_("Unknown building type {kind}."), kind=kind)
    if cell not in s.buildable:
        return IllegalAction("IEC-10", N_("Nothing can be built on {cell}."), cell=cell)
    if cell in state["buildings"]:
        return IllegalAction("IEC-S-2", N_("{cell} already holds a building."), cell=cell)
    if kind == "mine" and cell not in s.area_of:
        return IllegalAction("IEC-S-4", N_("Mines may only be built on deposits."), cell=cell)
    mine_int = int(s.buildings[kind]["interval"])
    widest = max(int(b["interval"]) for b in s.buildings.values())
    blds = state["buildings"]
    for near in s.near(cell, widest):
        other = blds.get(near)
        if other is None:
            continue
        m = max(mine_int, int(s.buildings[other["kind"]]["interval"]))
        if s.d2(cell, other["cell"]) < m * m:
            return IllegalAction(
                "IEC-S-3",
                N_("{cell} is closer than {interval} cm to the building on {other}."),
                cell=cell,
                interval=m,
                other=other["cell"],
            )
    return None


def _discover(
    state: State, cell: str, player: str, choice: int | None, events: list[Event]
) -> None:
    """IEC-12.4 / IEC-S-6: the first mine on an area fixes its deposit."""
    area_id = scen(state).area_of.get(cell)
    if area_id is None:
        return
    area = state["areas"][area_id]
    if area["deposit"] is not None:
        return
    if choice is not None and owns_tech(state, player, 1):  # the choice activates it
        pick = area["candidates"][choice]
        _reveal(state, player, 1, events)
    else:
        pick = Rng(state["rng"]).choice(area["candidates"])
    area["deposit"] = pick
    _ev(state, events, "deposit_revealed", area=area_id, deposit=pick, player=player, revealed=True)


def deposit_at(state: State, cell: str) -> dict[str, int]:
    area_id = scen(state).area_of.get(cell)
    if area_id is None:
        return {}
    dep = state["areas"][area_id]["deposit"]
    return dict(scen(state).deposits[dep]) if dep else {}


def reactor_capacity(state: State, player: str, with_bonus: bool = True) -> tuple[int, int]:
    """(capacity, working reactors) of IEC-15 / IEC-S-24; IEC-TECH-13 on undamaged reactors."""
    x = int(param(state, "X"))
    bonus = -(-x * int(param(state, "energy_recovery_factor_percent")) // 100)
    cap = n = 0
    for b in own(state, player, "reactor"):
        if working_reactor(b):
            n += 1
            if with_bonus and has_tech(state, player, 13) and undamaged(state, b):
                cap += bonus
            else:
                cap += x
    return cap, n


def power_candidates(state: State, player: str) -> list[dict[str, Any]]:
    return [b for b in own(state, player) if b["modules"] >= 1 and b["kind"] != "reactor"]


def power_slots(state: State, player: str) -> int:
    pl = state["players"][player]
    cap, n = reactor_capacity(state, player)
    return max(0, cap + pl["received"] - pl["given"] - n)


# Phases whose choices are declared by everybody at once in rules version 2 (issue 17): in
# each, what a player may do depends only on his own buildings, goods, tokens, technologies
# and the phase's public facts, never on what another player does in the same phase (IEC-M-21,
# IEC-S-10.4): 3 power (Intergrid gifts are standing orders settled when the phase begins),
# 5 mine laying (a token may share a cell with other players' tokens, IEC-20), 10
# transmission, 11 science, 14 technologies. Phases 6-9 stay in turn: a site, a build, a mine
# or a missile changes what the next player may do.
SIMULTANEOUS_PHASES = (3, 5, 10, 11, 14)


def rules_version(state: State) -> int:
    """1 for games stored before issue 17 (no value recorded), else the recorded version."""
    return int(state.get("rules_version", 1))


def acting(state: State) -> list[str]:
    """Who must act now: everybody still declaring in a simultaneous phase (`actors`), else
    the one `actor` of a phase played in turn."""
    if state["over"]:
        return []
    if "actors" in state:
        return list(state["actors"])
    return [] if state["actor"] is None else [state["actor"]]
