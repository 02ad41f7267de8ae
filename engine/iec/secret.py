"""Secret technologies and secret choices (IEC-S-23, IEC-S-26, corrections 1.1).

A technology has no effect until its owner activates it, and activation reveals it to all.
It is activated by a private command (`/use N`, or a command that only the technology allows),
or by the owner's private standing choice made in advance: mode "auto" (the default) activates
it the first time it acts, "off" keeps it asleep. Choices that only a secret technology allows
(Minesweepers' sweep, Remote Drilling's peek, Government Subsidy's landing) are standing orders
given privately beforehand and carried out when their phase begins, so no phase waits only for
the holder of a secret: who is asked to act depends on public information only.
"""

from __future__ import annotations

from engine.iec import choices as ch
from engine.iec.model import (
    Event,
    State,
    _discover,
    _ev,
    _new_building,
    _reveal,
    available_techs,
    own,
    owns_tech,
    param,
    placement_error,
    power_candidates,
    public_tech,
    reactor_capacity,
    scen,
    tech_cost,
    tech_mode,
)
from engine.iec.state_types import AnyBuilding


def _sleeping(state: State, player: str, tech: int) -> bool:
    """Owned, not yet revealed, and set to activate itself when it acts."""
    return (
        owns_tech(state, player, tech)
        and not public_tech(state, player, tech)
        and tech_mode(state, player, tech) == "auto"
    )


def auto_activate(state: State, player: str, ph: int, events: list[Event]) -> None:
    """Before anyone is asked in phase `ph`: reveal the "auto" technologies that change what
    `player` may do there, so that the question asked depends on revealed facts only."""
    pl = state["players"][player]
    if pl["eliminated"]:
        return
    if ph == 3 and _sleeping(state, player, 13):
        # IEC-TECH-13: needed only when the base capacity leaves buildings unpowered.
        base, n = reactor_capacity(state, player, with_bonus=False)
        full, _ = reactor_capacity(state, player)
        base_slots = max(0, base + pl["received"] - pl["given"] - n)
        if full > base and len(power_candidates(state, player)) > base_slots:
            _reveal(state, player, 13, events)
    elif ph == 5 and _sleeping(state, player, 18):
        # IEC-TECH-18: needed only once the M real mines of the base limit are used.
        m = int(param(state, "M"))
        if m <= pl["mines_used"] < m * 3 // 2 and ch.lay_cells(state, player):
            _reveal(state, player, 18, events)
    elif ph == 14 and _sleeping(state, player, 2):
        # IEC-TECH-2: used when the player buys a technology at the lowered cost.
        k = len(pl["techs"])
        if k >= 1 and pl["science"] >= tech_cost(state, player) and available_techs(state, player):
            _reveal(state, player, 2, events)


def activate_now(state: State, player: str, tech: int, events: list[Event]) -> None:
    """`/use N`: the owner reveals and activates a technology at once."""
    _reveal(state, player, tech, events)


# ---------------------------------------------------------------- phase 4: Minesweepers


def run_sweeps(state: State, events: list[Event]) -> None:
    """IEC-TECH-19 / IEC-S-22 / IEC-D-5: each standing sweep order clears one cell of all
    tokens (real ones to the used pool); the order is used once, when it can act."""
    for p in state["phase_order"].get("4", state["order"]):
        orders = state["players"][p]["orders"]
        cell = orders.get("sweep")
        if not cell or state["players"][p]["eliminated"] or not owns_tech(state, p, 19):
            continue
        if cell not in ch.sweep_cells(state, p):
            continue
        gone = [t for t in state["tokens"] if t["cell"] == cell]
        state["tokens"] = [t for t in state["tokens"] if t["cell"] != cell]
        for t in gone:
            if t["real"]:
                state["used_mines"][t["owner"]] = state["used_mines"].get(t["owner"], 0) + 1
        orders["sweep"] = None
        _reveal(state, p, 19, events)
        _ev(
            state,
            events,
            "swept",
            player=p,
            cell=cell,
            tokens=[{"owner": t["owner"], "real": t["real"]} for t in gone],
            revealed=True,
        )


# ---------------------------------------------------------------- phase 14: peek, subsidy


def run_phase14_orders(state: State, events: list[Event]) -> None:
    """IEC-TECH-1 peek and IEC-TECH-16 landing, from the owners' standing orders."""
    for p in state["phase_order"].get("14", state["order"]):
        if state["players"][p]["eliminated"]:
            continue
        _peek(state, p, events)
        _subsidy(state, p, events)


def _peek(state: State, player: str, events: list[Event]) -> None:
    """IEC-TECH-1 / IEC-S-23: one area per turn, its two deposits shown to the player only;
    using the technology reveals it (corrections 1.1)."""
    pl = state["players"][player]
    area = pl["orders"].get("peek")
    if not area or not owns_tech(state, player, 1):
        return
    pl["orders"]["peek"] = None
    if area not in ch.open_areas(state):
        return
    _reveal(state, player, 1, events)
    pl["peeks"][area] = list(state["areas"][area]["candidates"])
    _ev(
        state,
        events,
        "peeked",
        player=player,
        private_to=player,
        secret={"area": area, "deposits": pl["peeks"][area]},
    )


def _subsidy(state: State, player: str, events: list[Event]) -> None:
    """IEC-TECH-16 / IEC-D-10: once per game, from turn 5, 2 modules of a new building."""
    pl = state["players"][player]
    order = pl["orders"].get("subsidy")
    if not order or not ch.subsidy_possible(state, player):
        return
    cell, kind = str(order["cell"]), str(order["kind"])
    err = placement_error(state, cell, kind)
    if err is not None:
        return  # the order waits (the owner sees it in /techs); no event: it would show
    pl["orders"]["subsidy"] = None
    pl["subsidy_used"] = True
    _reveal(state, player, 16, events)
    b = _new_building(state, player, kind, cell, int(param(state, "subsidy_modules")))
    _ev(state, events, "subsidy", player=player, cell=cell, kind=kind, modules=b["modules"])
    unlinked_warning(state, b, events)
    if kind == "mine":
        _discover(state, cell, player, None, events)


def unlinked_warning(state: State, b: AnyBuilding, events: list[Event]) -> None:
    """A new mine or launcher with no own storage within its link distance (IEC-S-10.5) can
    neither deliver nor draw goods: warn the table."""
    if b["kind"] not in ("mine", "launcher"):
        return
    s = scen(state)
    r = int(s.buildings[b["kind"]]["link"])
    if not any(s.within(st["cell"], b["cell"], r) for st in own(state, b["owner"], "storage")):
        _ev(state, events, "unlinked", player=b["owner"], cell=b["cell"], kind=b["kind"], r=r)


__all__ = ["activate_now", "auto_activate", "run_phase14_orders", "run_sweeps"]
