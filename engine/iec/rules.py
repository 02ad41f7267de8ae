"""IEC rules: setup, the 14 phases of a turn, every action, view, result (pure; no I/O).

The state is plain JSON. A turn is phase 0 (order, self-destruction) and phases 1..14 of IEC-27.
Automatic phases (1, 2, 12, 13) resolve at once; in the others the players act one after another
in the phase's order (IEC-S-10.4), and a player is asked only when he has a real choice there;
with rules version 2 (the default) the SIMULTANEOUS_PHASES are declared by all at once instead
(together.py), then carried out in that order.
Standing orders (power, Intergrid gifts, extraction, mixing, transfers, self-destruction,
Flexible Order, anti-missile) may be changed at any time and are used until changed.
"""

from __future__ import annotations

from typing import Any

from engine.core import N_, IllegalAction, Rng
from engine.core.jsonstate import copy_state
from engine.core.rng import new_rng_state
from engine.iec import production, secret
from engine.iec.choices import has_choice, must_choose_tech
from engine.iec.model import (
    SIMULTANEOUS_PHASES,
    Event,
    State,
    _discover,  # noqa: F401 (re-exported)
    _ev,
    _new_building,
    _put,  # noqa: F401 (re-exported)
    _put_back,  # noqa: F401 (re-exported)
    _reveal,
    _roll,
    _take,  # noqa: F401 (re-exported)
    available_techs,  # noqa: F401 (re-exported)
    capacity,
    delivery_order,  # noqa: F401 (re-exported)
    deposit_at,  # noqa: F401 (re-exported)
    free,  # noqa: F401 (re-exported)
    has_tech,
    link_range,  # noqa: F401 (re-exported)
    linked,  # noqa: F401 (re-exported)
    load_of,
    mine_limit,  # noqa: F401 (re-exported)
    missing,  # noqa: F401 (re-exported)
    nominal,  # noqa: F401 (re-exported)
    own,
    owns_tech,
    param,
    placement_error,  # noqa: F401 (re-exported)
    power_candidates,
    power_slots,
    powered,  # noqa: F401 (re-exported)
    public_tech,
    reactor_capacity,
    rules_version,
    scen,
    stock,  # noqa: F401 (re-exported)
    tech_cost,  # noqa: F401 (re-exported)
    tech_mode,  # noqa: F401 (re-exported)
    undamaged,  # noqa: F401 (re-exported)
    working_reactor,
)
from engine.iec.scenario import GOODS, SIMPLE, load, scenario_ids
from engine.iec.secret import auto_activate
from engine.iec.state_types import AnyBuilding, IECState, PlainState, plain

Action = dict[str, Any]

PHASE_NAMES: dict[int, str] = {
    0: N_("turn start"),
    1: N_("radiation"),
    2: N_("natural hazards"),
    3: N_("power allocation"),
    4: N_("de-mining"),
    5: N_("mine laying"),
    6: N_("site preparation"),
    7: N_("building modules"),
    8: N_("mine activation"),
    9: N_("missile fire"),
    10: N_("transmission"),
    11: N_("science"),
    12: N_("moving goods"),
    13: N_("extraction"),
    14: N_("technologies"),
}
# Phase 4 runs on private standing choices only (Minesweepers is secret, corrections 1.1).
INTERACTIVE = (3, 5, 6, 7, 8, 9, 10, 11, 14)
MINE_WAR_PHASES = (4, 5, 8)
ORDERED_PHASES = tuple(range(3, 15))
STANDING = (
    "power",
    "give",
    "extract",
    "mix",
    "transfers",
    "deliver",
    "destroy",
    "flex",
    "antimissile",
    # Secret choices, given privately in advance (corrections 1.1, "No side channel"): used in
    # the phase they concern, so no phase waits only for the holder of a secret technology.
    "use",
    "sweep",
    "peek",
    "subsidy",
)
# Buildings whose output goes to a linked storage the owner chooses (IEC-S-10.5, IEC-S-18.5).
DELIVERING = ("mine", "mixer", "developer")
PHASE_ACTIONS: dict[int, tuple[str, ...]] = {
    3: ("power", "done"),
    5: ("lay", "relocate", "done"),
    6: ("prepare", "done"),
    7: ("build", "recycle", "done"),
    8: ("activate", "done"),
    9: ("fire", "done"),
    10: ("transmit", "done"),
    11: ("research", "done"),
    14: ("tech", "done"),
}
POWER_PRIORITY = (
    "storage",
    "mine",
    "mixer",
    "developer",
    "transmitter",
    "laboratory",
    "launcher",
    "reactor",
)


# ---------------------------------------------------------------- small helpers


def alive(state: State) -> list[str]:
    return [p for p in state["seats"] if not state["players"][p]["eliminated"]]


# ---------------------------------------------------------------- storages and links


def _discard_excess(state: State, st: AnyBuilding, events: list[Event]) -> None:
    excess = load_of(st) - capacity(state, st)
    lost: dict[str, int] = {}
    while excess > 0:
        order = [g for g in SIMPLE if st["goods"][g]] or [g for g in GOODS if st["goods"][g]]
        g = max(order, key=lambda x: st["goods"][x])
        st["goods"][g] -= 1
        lost[g] = lost.get(g, 0) + 1
        excess -= 1
    if lost:
        _ev(
            state,
            events,
            "goods_discarded",
            player=st["owner"],
            cell=st["cell"],
            goods=lost,
            capacity=capacity(state, st),
        )


# ---------------------------------------------------------------- buildings


def lose_module(state: State, cell: str, events: list[Event], cause: str) -> None:
    """One module destroyed; 0 modules -> building removed with its goods (IEC-S-20)."""
    b = state["buildings"][cell]
    b["modules"] -= 1
    _ev(
        state,
        events,
        "module_lost",
        player=b["owner"],
        cell=cell,
        kind=b["kind"],
        left=b["modules"],
        cause=cause,
    )
    if b["modules"] <= 0:
        del state["buildings"][cell]
        _ev(state, events, "building_removed", player=b["owner"], cell=cell, kind=b["kind"])
    elif b["kind"] == "storage":
        _discard_excess(state, b, events)


# ---------------------------------------------------------------- setup


def setup(players: list[str], options: dict[str, str], seed: int) -> PlainState:
    scen_id = options.get("scenario", "chat_standard")
    if scen_id not in scenario_ids():
        raise IllegalAction("IEC-S-0", N_("Unknown scenario {scenario}."), scenario=scen_id)
    s = load(scen_id)
    lo, hi = s.raw["players"]["min"], s.raw["players"]["max"]
    if not lo <= len(players) <= hi or len(set(players)) != len(players):
        raise IllegalAction(
            "IEC-S-25", N_("This scenario needs {lo} to {hi} players."), lo=lo, hi=hi
        )
    version = str(options.get("rules_version", "1"))
    if version not in ("1", "2"):
        raise IllegalAction("IEC-S-0", N_("rules_version must be 1 or 2."))
    war = options.get("mine_war", "on" if s.params["mine_war"] else "off")
    if war not in ("on", "off"):
        raise IllegalAction("IEC-S-8", N_("mine_war must be on or off."))
    state: IECState = {
        "game": "iec",
        # Version 2 declares the SIMULTANEOUS_PHASES by everybody at once (together.py); a
        # game stored before the option existed has no value and replays in turn.
        "rules_version": int(version),
        "scenario": scen_id,
        "mine_war": war == "on",
        "rng": new_rng_state(seed),
        "turn": 1,
        "phase": 0,
        "phase_open": False,
        "actor": None,
        "done": [],
        "radiation": 0,
        "over": False,
        "buildings": {},
        "sites": {},
        "tokens": [],
        "next_token": 1,
        "areas": {},
        "players": {},
        "seats": [],
        "order": [],
        "phase_order": {},
        "used_mines": {},
    }
    rng = Rng(state["rng"])
    seats = s.raw["seats"][str(len(players))]
    shuffled = list(players)
    rng.shuffle(shuffled)
    for seat, p in zip(seats, shuffled):
        state["seats"].append(p)
        state["used_mines"][p] = 0
        state["players"][p] = {
            "seat": seat,
            "vp": 0,
            "science": 0,
            "techs": [],
            "revealed": [],
            "eliminated": False,
            "final_vp": None,
            "mines_used": 0,
            "received": 0,
            "given": 0,
            "peeks": {},
            "subsidy_used": False,
            "laid": False,
            "declared": {},
            "orders": {
                "power": [],
                "give": {},
                "extract": {},
                "mix": ["AB", "BC", "AC"],
                "transfers": [],
                "deliver": {},
                "destroy": [],
                "flex": {},
                "antimissile": True,
                "use": {},
                "sweep": None,
                "peek": None,
                "subsidy": None,
            },
        }
        for item in s.raw["start"][seat]:
            b = _new_building(state, p, item["kind"], item["cell"], 99)
            b["since"] = 0
            b["powered"] = True
            for g, n in item.get("goods", {}).items():
                b["goods"][g] = n
    k = int(s.raw["deposits_per_area"])
    for area_id, area in sorted(s.areas.items()):
        if area.get("fixed"):
            state["areas"][area_id] = {"candidates": [area["fixed"]], "deposit": area["fixed"]}
        else:
            pool = list(s.classes[area["class"]])
            rng.shuffle(pool)
            state["areas"][area_id] = {"candidates": sorted(pool[:k]), "deposit": None}
    opening: list[Event] = []
    advance(state, opening)
    # Turn 1's automatic phases (IEC-26's order roll, IEC-27 phases 1-2: radiation, natural
    # factors) run before any move, so no move's post tells them: the table's "begins" post
    # does (commands.describe_start). Phase 3's power assignments stay out (the picture shows
    # them). Dropped when turn 2 begins (`_start_turn`).
    state["opening"] = [e for e in opening if e["type"] not in ("power", "power_given")]
    return plain(state)


# ---------------------------------------------------------------- phases


def _turn_order(state: State, events: list[Event]) -> list[str]:
    """IEC-26 / IEC-S-10.1-2: VP highest first; ties roll 2d6, higher first, re-roll ties."""
    rng = Rng(state["rng"])
    groups: dict[int, list[str]] = {}
    for p in alive(state):
        groups.setdefault(state["players"][p]["vp"], []).append(p)
    order: list[str] = []
    for vp in sorted(groups, reverse=True):
        group = groups[vp]
        order.extend(_break_ties(state, group, rng, events, "order_roll", high_first=True))
    return order


def _break_ties(
    state: State, group: list[str], rng: Rng, events: list[Event], kind: str, high_first: bool
) -> list[str]:
    if len(group) <= 1:
        return list(group)
    dice = 2 if kind == "order_roll" else 1
    rolls = {p: sum(rng.die() for _ in range(dice)) for p in group}
    _ev(state, events, kind, rolls=dict(rolls), rolled=True)
    by: dict[int, list[str]] = {}
    for p, r in rolls.items():
        by.setdefault(r, []).append(p)
    out: list[str] = []
    for r in sorted(by, reverse=high_first):
        out.extend(_break_ties(state, by[r], rng, events, kind, high_first))
    return out


def _declare_flex(state: State) -> None:
    """IEC-S-10.3: Flexible Order declarations are made privately at phase 0 (the standing
    `flex` order of that moment); each becomes public when its phase begins (corrections 1.1)."""
    state["phase_order"] = {}
    for p in state["seats"]:
        pl = state["players"][p]
        pl["declared"] = dict(pl["orders"]["flex"]) if owns_tech(state, p, 3) else {}


def _phase_order(state: State, ph: int, events: list[Event]) -> None:
    """IEC-TECH-3 / IEC-S-10.3: this phase's declarations are announced (and Flexible Order
    revealed); first/last applied, collisions by d6, lowest roller first."""
    order = [p for p in state["order"] if not state["players"][p]["eliminated"]]
    movers = [
        p
        for p in order
        if state["players"][p].get("declared", {}).get(str(ph), "unchanged") != "unchanged"
    ]
    for p in movers:
        _reveal(state, p, 3, events)
        pos = state["players"][p]["declared"][str(ph)]
        _ev(state, events, "flex_declared", player=p, position=pos, revealed=True)
    if len(movers) > 1:
        movers = _break_ties(state, movers, Rng(state["rng"]), events, "flex_roll", False)
    for p in movers:
        order.remove(p)
        if state["players"][p]["declared"][str(ph)] == "first":
            order.insert(0, p)
        else:
            order.append(p)
    state["phase_order"][str(ph)] = order


def _start_turn(state: State, events: list[Event]) -> None:
    state.pop("opening", None)  # turn 1's, for the "begins" post only (setup)
    for b in state["buildings"].values():
        b["used"] = []
    for p in state["seats"]:
        state["players"][p]["laid"] = False
    state["order"] = _turn_order(state, events)
    _ev(state, events, "turn_started", order=list(state["order"]))
    for p in state["order"]:  # IEC-8 / IEC-D-1: self-destruction at the start of the turn
        orders = state["players"][p]["orders"]
        for cell in orders["destroy"]:
            b = state["buildings"].get(cell)
            if b is not None and b["owner"] == p:
                del state["buildings"][cell]
                _ev(state, events, "self_destroyed", player=p, cell=cell, kind=b["kind"])
        orders["destroy"] = []
    _declare_flex(state)


def _radiation(state: State, events: list[Event]) -> None:
    """IEC-S-11: R = 2d6 + modifier, clamped to 1..12."""
    rng = Rng(state["rng"])
    dice = [rng.die(), rng.die()]
    r = max(1, min(12, sum(dice) + int(param(state, "radiation_modifier"))))
    state["radiation"] = r
    _ev(state, events, "radiation", value=r, dice=dice, rolled=True)


def _hazards(state: State, events: list[Event]) -> None:
    """IEC-S-12: each building on a seismic cell loses a module on a d6 of 1."""
    s = scen(state)
    limit = int(param(state, "seismic_loss_max_roll"))
    for cell in sorted(state["buildings"]):
        if cell in s.seismic and cell in state["buildings"]:
            roll = _roll(state)
            _ev(state, events, "seismic", cell=cell, roll=roll, rolled=True)
            if roll <= limit:
                lose_module(state, cell, events, "seismic")


def _compute_power(state: State, player: str, events: list[Event]) -> None:
    """IEC-15.2 / IEC-S-24: reactors first, then the standing list, then a default order."""
    slots = power_slots(state, player)
    cands = power_candidates(state, player)
    by_cell = {b["cell"]: b for b in cands}
    chosen: list[str] = []
    for cell in state["players"][player]["orders"]["power"]:
        if cell in by_cell and cell not in chosen and len(chosen) < slots:
            chosen.append(cell)
    rest = sorted(
        (b for b in cands if b["cell"] not in chosen),
        key=lambda b: (POWER_PRIORITY.index(b["kind"]), b["cell"]),
    )
    for b in rest:
        if len(chosen) >= slots:
            break
        chosen.append(b["cell"])
    chosen_set = set(chosen)
    for b in own(state, player):
        b["powered"] = working_reactor(b) or b["cell"] in chosen_set
    cap0, n = reactor_capacity(state, player, with_bonus=False)
    pl = state["players"][player]
    if len(chosen) + n > cap0 + pl["received"] - pl["given"]:
        _reveal(state, player, 13, events)
    # The places shown count Energy Recovery only once revealed (an unrevealed "auto" one
    # changes nothing here: it was revealed at the phase start if it powers more).
    cap1, _ = reactor_capacity(state, player, with_bonus=public_tech(state, player, 13))
    shown = max(0, cap1 + pl["received"] - pl["given"] - n)
    _ev(state, events, "power", player=player, powered=sorted(chosen), slots=shown)


def _power_phase(state: State, events: list[Event]) -> None:
    for p in state["seats"]:
        state["players"][p]["received"] = 0
        state["players"][p]["given"] = 0
    for g in state["order"]:
        for r, k in sorted(state["players"][g]["orders"]["give"].items()):
            if r not in state["players"] or state["players"][r]["eliminated"] or r == g:
                continue
            if not (has_tech(state, g, 4) or has_tech(state, r, 4)):
                continue
            cap, n = reactor_capacity(state, g)
            spare = cap - n - state["players"][g]["given"]
            amount = max(0, min(int(k), spare))
            if amount:
                state["players"][g]["given"] += amount
                state["players"][r]["received"] += amount
                _reveal(state, g if has_tech(state, g, 4) else r, 4, events)
                _ev(state, events, "power_given", player=g, to=r, count=amount)

    for p in state["order"]:
        auto_activate(state, p, 3, events)
        _compute_power(state, p, events)


def _eliminations(state: State, events: list[Event]) -> None:
    """IEC-15.4 / IEC-S-24: no working reactor and no Intergrid power -> out, VP halved."""
    div = int(scen(state).raw["victory"]["eliminated_divisor"])
    working = {b["owner"] for b in state["buildings"].values() if working_reactor(b)}
    for p in alive(state):
        pl = state["players"][p]
        if p not in working and pl["received"] == 0:
            pl["eliminated"] = True
            pl["final_vp"] = pl["vp"] // div
            for cell in [c for c, b in state["buildings"].items() if b["owner"] == p]:
                del state["buildings"][cell]
            for cell in [c for c, who in state["sites"].items() if who == p]:
                del state["sites"][cell]
            state["tokens"] = [t for t in state["tokens"] if t["owner"] != p]
            for q in state["players"].values():
                q["orders"]["give"].pop(p, None)
            _ev(state, events, "eliminated", player=p, vp=pl["vp"], final_vp=pl["final_vp"])
    if len(alive(state)) <= 1 and not state["over"]:
        _game_over(state, events)


def _game_over(state: State, events: list[Event]) -> None:
    state["over"] = True
    state["actor"] = None
    _ev(state, events, "game_over", ranking=result(state))


def phase_active(state: State, ph: int) -> bool:
    return state["mine_war"] or ph not in MINE_WAR_PHASES


def _start_phase(state: State, events: list[Event]) -> None:
    ph = state["phase"]
    state["done"] = []
    state["phase_open"] = True
    if not phase_active(state, ph):
        return
    if ph in ORDERED_PHASES:
        _phase_order(state, ph, events)
    if ph == 0:
        _start_turn(state, events)
    elif ph == 1:
        _radiation(state, events)
    elif ph == 2:
        _hazards(state, events)
    elif ph == 3:
        _power_phase(state, events)
    elif ph == 4:
        secret.run_sweeps(state, events)
    elif ph == 12:
        production.mix_and_move(state, events)
    elif ph == 13:
        production.extract(state, events)
    elif ph == 14:
        secret.run_phase14_orders(state, events)


def _end_phase(state: State, events: list[Event]) -> None:
    ph = state["phase"]
    state["actor"] = None
    state["phase_open"] = False
    _eliminations(state, events)
    if state["over"]:
        return
    if ph == 14:
        _ev(state, events, "turn_ended")
        if state["turn"] >= int(param(state, "turns")):
            _game_over(state, events)
            return
        state["turn"] += 1
        state["phase"] = 0
    else:
        state["phase"] = ph + 1


def advance(state: State, events: list[Event]) -> None:
    """Run automatic work until some player must decide (or the game ends)."""
    while not state["over"]:
        if not state["phase_open"]:
            _start_phase(state, events)
            if state["over"]:
                return
        ph = state["phase"]
        if ph in INTERACTIVE and phase_active(state, ph) and at_once(state, ph):
            if "actors" not in state:
                _open_declarations(state, ph, events)
            if state["actors"]:
                return
            del state["actors"]  # everybody declared; together.resolve carried them out
            if ph == 14 and _choose_again(state, events):
                return
        elif ph in INTERACTIVE and phase_active(state, ph):
            for p in state["phase_order"][str(ph)]:
                if p in state["done"] or state["players"][p]["eliminated"]:
                    continue
                auto_activate(state, p, ph, events)
                if has_choice(state, p, ph):
                    state["actor"] = p
                    return
                state["done"].append(p)
        _end_phase(state, events)


def at_once(state: State, ph: int) -> bool:
    """Rules version 2: phase `ph` is declared by everybody at once (SIMULTANEOUS_PHASES)."""
    return rules_version(state) >= 2 and ph in SIMULTANEOUS_PHASES


def _choose_again(state: State, events: list[Event]) -> bool:
    """IEC-S-23: while a company's points cover its next technology it must choose one. The
    declarations carried out can leave it more than it planned for: Super Computer, chosen
    this phase, acts (and is revealed) as the next purchase is carried out and lowers its cost
    (found play-testing, 2026-12-04: 21 points, three technologies at 3, 12 points left with
    the next at 5, and the turn went on). Such a company is asked again, now that the lower
    cost is public; True when someone is."""
    again = [
        p
        for p in state["done"]
        if not state["players"][p]["eliminated"] and must_choose_tech(state, p)
    ]
    if not again:
        return False
    for p in again:
        state["done"].remove(p)
    _open_declarations(state, 14, events)
    if state["actors"]:
        return True
    del state["actors"], state["pending"]
    return False


def _open_declarations(state: State, ph: int, events: list[Event]) -> None:
    """Everybody with a real choice in phase `ph` declares at once (the same question as in
    turn, asked of all together); the others are done. Declarations are kept in `pending`
    until the last is made (together.py)."""
    actors: list[str] = []
    for p in state["phase_order"][str(ph)]:
        if p in state["done"] or state["players"][p]["eliminated"]:
            continue
        auto_activate(state, p, ph, events)
        if has_choice(state, p, ph):
            actors.append(p)
        else:
            state["done"].append(p)
    state["actors"] = actors
    state["pending"] = {p: [] for p in actors}


# ---------------------------------------------------------------- result and view


def score(state: State, player: str) -> int:
    pl = state["players"][player]
    final = pl["final_vp"]  # set when he is eliminated (IEC-S-25)
    return int(final if pl["eliminated"] and final is not None else pl["vp"])


def intact_modules(state: State, player: str) -> int:
    return sum(b["modules"] for b in own(state, player))


def result(state: State) -> list[list[str]]:
    """IEC-S-9 / IEC-S-24 (corrections 1.1): every surviving company ranks above every
    eliminated one (self-destruction never pays); then VP (halved for the eliminated), intact
    modules, science."""

    def key(p: str) -> tuple[int, int, int, int]:
        pl = state["players"][p]
        alive_ = 0 if pl["eliminated"] else 1
        return (alive_, score(state, p), intact_modules(state, p), pl["science"])

    groups: dict[tuple[int, int, int, int], list[str]] = {}
    for p in state["seats"]:
        groups.setdefault(key(p), []).append(p)
    return [sorted(groups[k]) for k in sorted(groups, reverse=True)]


def view(state: State, player: str | None) -> dict[str, Any]:
    """IEC-S-26: remove face-down token identities, secret technologies, peeks, orders, rng."""
    v: dict[str, Any] = copy_state(state)
    del v["rng"]
    v.pop("opening", None)  # public, but told once in the "begins" post (setup)
    v["viewer"] = player
    # Rules version 2: declarations stay secret until all are made (together.py); each
    # player sees his own only.
    pending = v.pop("pending", None)
    if pending is not None:
        v["my_pending"] = list(pending.get(player, [])) if player is not None else []
    for t in v["tokens"]:
        if not t["up"] and t["owner"] != player:
            del t["real"]
    for p, pl in v["players"].items():
        if p != player:
            pl["techs"] = list(pl["revealed"])
            pl["hidden_techs"] = len(state["players"][p]["techs"]) - len(pl["revealed"])
            del pl["peeks"]
            del pl["orders"]
            pl.pop("declared", None)
    peeks: dict[str, list[str]] = {}  # what the viewer's Remote Drilling showed him
    if player is not None and player in state["players"]:
        peeks = state["players"][player]["peeks"]
    for area_id, area in v["areas"].items():
        if not scen(state).areas[area_id].get("fixed"):
            area["candidates"] = list(peeks.get(area_id, []))
    return v
