"""The strong bot's own policy in IEC (issue 24): the economic bot's network planning, played
for transmissions only, guarded against a launcher rush, and raiding in games of three+.

Measured against the economic bot and the rush (bench/bots.py), three things decide a game
of twenty turns: the one mixer's product per turn (IEC-S-15), the BC a transmitter launches
(IEC-S-17, the only VP), and the transmitter's modules. So:
- the mixers make BC, AB first only while a build waits for it (a damaged transmitter, a
  counter launcher, a growth project of `best_projects`; under fire BC stays first), AC
  first only for a launcher facing a rival launcher, and AB last always (a fallback: with
  BC alone a storage full of A and B stalled a network for good) (`mix_wants`);
- no laboratory, research or Mine War token: each costs the BC or AC that transmissions
  and missiles need (a technology costs 3+ science points, each a BC and an AC, IEC-S-16,
  IEC-S-8.3);
- a damaged transmitter is rebuilt before anything else (IEC-S-18.2 b);
- a transmitter the rush removed is built again (a site linked to the storage holding the BC,
  AB first till then): without one BC scores nothing (+1.1 points against the rush, paired);
- in a duel against a rival launcher a second transmitter, with the start stock's AB kept
  from turn 1 (`_wait_and_see`, `_wants_transmitter`): the rush fires at the transmitter
  with the fewest modules, so the new one (one module) takes its missiles while the first
  keeps launching: 60.2 % -> 79.5 % of 1000 two-player games against the rush (paired);
- a lone BC waits out high radiation (`transmit`).
Why the economic bot won 4-player games (seeded logs, 120 games): not technology (it buys
none in 20 turns) nor growth (every company ends capped by its 10 power places, and the
mines it adds pay for their AB too late), but the start network's ~11 BC, which dice spread
widely. So in games of three companies or more the policy lowers the rivals' output
instead: its first build is a launcher beside a storage (the rush's placement, on the
start stock's AB), fed with the AC the mixer makes when it cannot make BC, firing at what a
rival cannot replace: his home mines and first storage lie beyond his developer's range
(IEC-S-18.2), and a mine has one module (`raid_fire`). Measured with the policy alone: 42 %
of 120 four-player games against three economic bots (26 % before), 7.8 VP against their
5.5; AC made before BC lost more VP than the raids took from the rivals. Two companies raid
too, with the AC left once no rival launcher is in reach (counter fire comes first): +2.85
points (±1.65, paired) over 1000 two-player games against the rush.
Among three companies or more, while a rival's launcher can reach one of the player's
buildings (IEC-16.1, IEC-S-19.3) the player answers in kind: his developer prepares and
builds a launcher next to a storage (IEC-S-18, the same placement as the rush's), he powers
storages and launchers first (IEC-15.2), and in phase 9 his launchers fire at the rival
launchers first (a launcher the rush builds has one module, so one hit removes it, IEC-S-20)
before anything else. In a duel he builds no counter launcher: the rush fires about three
missiles a game (its AC comes from one mixer), so its damage, the transmitter included
(built again when removed, `_lost_transmitter`), costs less than a launcher's AB and the AC
it burns: +6 points (paired, 2000 two-player games) once the transmitter is built again.
Everything it reads is public (the buildings, their modules and owners, storage contents)
or the player's own, so the policy peeks at nothing.
"""

from __future__ import annotations

from typing import Any

from engine.core import Action, Rng, State
from engine.iec import choices as ch
from engine.iec import rush, together
from engine.iec.bots import (
    _phase_build,
    _phase_prepare,
    _reach_cells,
    _room,
    _secret_orders,
    any_project,
    ch_nominal,
    phase_action,
    power_ranking,
    standing_update,
    turns_left,
)
from engine.iec.rules import own, power_slots, scen, stock

Building = dict[str, Any]


def rival_launchers(state: State, player: str) -> list[Building]:
    """Rival launchers (with a module left) that can reach one of the player's buildings."""
    out = []
    for la in state["buildings"].values():
        if la["kind"] != "launcher" or la["owner"] == player or la["modules"] < 1:
            continue
        if any(state["buildings"][c]["owner"] == player for c, _thr in ch.fire_targets(state, la)):
            out.append(la)
    return out


def _launcher_cells(state: State, player: str) -> list[str]:
    """Free cells for a launcher: it fires the AC of a linked storage (IEC-S-19.1)."""
    return _cells_by_storage(state, player, "launcher", "AC")


def _cells_by_storage(state: State, player: str, kind: str, good: str) -> list[str]:
    """Free cells for a building of `kind` within link range of one of the player's storages,
    those of the storage holding the most `good` first (what the building uses), then nearest
    to it."""
    s = scen(state)
    link = int(s.buildings[kind]["link"])
    cells: dict[str, tuple[int, int]] = {}
    for st in own(state, player, "storage"):
        for c in s.near(st["cell"], link):
            if kind in ch.kinds_for(state, c):
                key = (-int(st["goods"].get(good, 0)), s.d2(c, st["cell"]))
                cells[c] = min(cells.get(c, key), key)
    return sorted(cells, key=lambda c: (cells[c], c))


def _ready_developers(state: State, player: str) -> list[dict[str, Any]]:
    """Own developers that can make a build attempt now: powered, an attempt left, and the AB
    for a module in a linked storage (IEC-S-18)."""
    return [
        d
        for d in own(state, player, "developer")
        if d["powered"]
        and ch.can_build_attempt(d)
        and stock(state, d, "AB") >= ch.module_cost(state)
    ]


def _build(state: State, player: str) -> Action | None:
    if own(state, player, "launcher"):
        return None
    s = scen(state)
    r = ch.dev_range(state)
    for d in _ready_developers(state, player):
        for cell, owner in sorted(state["sites"].items()):
            if owner != player or not s.within(cell, d["cell"], r):
                continue
            if "launcher" in ch.kinds_for(state, cell):
                return {"type": "build", "developer": d["cell"], "cell": cell, "kind": "launcher"}
    return None


def _counter_fire(state: State, player: str) -> Action | None:
    """IEC-S-19: every shot a launcher has at the most hittable rival launcher in reach
    (fewest modules, then the best threshold)."""
    for la in own(state, player, "launcher"):
        if not la["powered"] or not ch.can_fire(state, la):
            continue
        shots = min(ch.launcher_shots(state, la), stock(state, la, "AC"))
        if shots < 1:
            continue
        targets = [
            (b["modules"], thr, cell)
            for cell, thr in ch.fire_targets(state, la)
            for b in (state["buildings"][cell],)
            if b["kind"] == "launcher"
        ]
        if targets:
            cell = min(targets)[2]
            return {"type": "fire", "launcher": la["cell"], "targets": {cell: shots}}
    return None


def _transmitter_repair(state: State, player: str) -> Action | None:
    """IEC-S-18.2 (b): rebuild a module of a damaged own transmitter first: every turn it is
    down (or one more hit from gone) costs a launch, the only source of VP (IEC-S-17)."""
    if turns_left(state) < 2:
        return None
    s = scen(state)
    r = ch.dev_range(state)
    for d in _ready_developers(state, player):
        for tm in own(state, player, "transmitter"):
            if tm["modules"] < ch_nominal(state, tm) and s.within(tm["cell"], d["cell"], r):
                return {"type": "build", "developer": d["cell"], "cell": tm["cell"]}
    return None


def _lost_transmitter(state: State, player: str) -> bool:
    """Every own transmitter removed (IEC-S-20) with a turn left for a new one to launch
    (IEC-S-18.4: a building operates from the turn after its first module)."""
    return turns_left(state) >= 1 and not own(state, player, "transmitter")


SECOND_TRANSMITTER_TURNS = 3  # turns left (after this one) for a second transmitter to pay


def _wants_transmitter(state: State, player: str) -> bool:
    """A new transmitter: none left (`_lost_transmitter`), or in a duel against a rival who
    has a launcher (public, IEC-S-26) a second one while `SECOND_TRANSMITTER_TURNS` are left.
    The rush fires at the transmitter with the fewest modules first (rush.py), so a second one
    of a single module (it operates, IEC-S-20) takes the missiles (one hit removes it) while
    the first keeps launching; with two, a turn of low radiation launches two BC (IEC-S-17).
    Against a rival without a launcher its AB is better spent on growth (measured: built
    anyway, -8.7 points in duels against the economic bot)."""
    if _lost_transmitter(state, player):
        return True
    return (
        duel(state)
        and _rival_launcher(state, player)
        and len(own(state, player, "transmitter")) < 2
        and turns_left(state) >= SECOND_TRANSMITTER_TURNS
    )


def _wait_and_see(state: State) -> bool:
    """Turn 1 of a duel: the start stock's AB waits a turn (the site may be prepared) until
    the rival's first building shows whether a launcher threatens (IEC-S-18.4: the rush's
    launcher, built in turn 1, fires from turn 2, after phase 7 where the second transmitter
    is built; declarations of a turn-1 phase stay secret till all are made)."""
    return duel(state) and state["turn"] == 1


def _transmitter_cells(state: State, player: str) -> list[str]:
    """Free cells for a new transmitter: it launches a linked storage's BC (IEC-S-17)."""
    return _cells_by_storage(state, player, "transmitter", "BC")


def _transmitter_prepare(state: State, player: str) -> Action | None:
    """IEC-S-18.1: with no transmitter left (the rush took it), a site for a new one: BC
    without a transmitter scores nothing (IEC-S-17), and the policy never built one again."""
    if not _wants_transmitter(state, player):
        return None
    wanted = _transmitter_cells(state, player)
    if any(state["sites"].get(c) == player for c in wanted):
        return None  # prepared already: phase 7 builds on it
    return ch.prepare_first(state, player, wanted)


def _transmitter_build(state: State, player: str) -> Action | None:
    """IEC-S-18.2 (a): the first module of a new transmitter on an own site linked to a
    storage (one module operates, IEC-S-20)."""
    if not _wants_transmitter(state, player):
        return None
    s = scen(state)
    r = ch.dev_range(state)
    wanted = set(_transmitter_cells(state, player))
    for d in _ready_developers(state, player):
        for cell, owner in sorted(state["sites"].items()):
            if owner == player and cell in wanted and s.within(cell, d["cell"], r):
                return {
                    "type": "build",
                    "developer": d["cell"],
                    "cell": cell,
                    "kind": "transmitter",
                }
    return None


def _damaged_transmitter(state: State, player: str) -> bool:
    return any(tm["modules"] < ch_nominal(state, tm) for tm in own(state, player, "transmitter"))


def _rival_launcher(state: State, player: str) -> bool:
    return any(
        b["kind"] == "launcher" and b["owner"] != player and b["modules"] >= 1
        for b in state["buildings"].values()
    )


def _needs_ab(state: State, player: str) -> bool:
    """A build waits for AB: a damaged transmitter, a counter launcher, or an economic
    project on a prepared site or a cell the developers reach."""
    if turns_left(state) < 3:
        return False
    if _damaged_transmitter(state, player):
        return True
    counter = rival_launchers(state, player) and not duel(state)
    if (counter or raiding(state)) and not own(state, player, "launcher"):
        return True
    if turns_left(state) < 4:
        return False
    sites = [c for c, w in state["sites"].items() if w == player]
    if _room(state, player) < 1 and not sites:
        return False  # no power place for a new building (`project_score`)
    return any_project(state, player, _reach_cells(state, player) + sites, NO_PROJECTS)


def mix_wants(state: State, player: str) -> list[str]:
    """The mixers' recipes: BC (the transmitters' good, IEC-S-17); AB first while a build
    waits for it and less than a module's worth is stored (second under fire); AC first
    for a launcher that has a rival launcher to answer (IEC-16.3) and under 2 in stock."""
    totals: dict[str, int] = {}
    for st in own(state, player, "storage"):
        for g, n in st["goods"].items():
            totals[g] = totals.get(g, 0) + n
    wants = ["BC"]
    if totals.get("AB", 0) < ch.module_cost(state) and _needs_ab(state, player):
        # Growth first (a module pays back over the turns left); under fire BC first.
        wants.insert(len(wants) if rival_launchers(state, player) else 0, "AB")
    if (
        own(state, player, "launcher")
        and _rival_launcher(state, player)
        and totals.get("AC", 0) < 2
    ):
        wants.insert(0, "AC")
    elif own(state, player, "launcher") and raiding(state) and totals.get("AC", 0) < 2:
        # Missiles only from what BC leaves: measured, AC made before BC (even only while
        # none is stored and ten turns are left) costs more VP than the raids take.
        wants.insert(1, "AC")
    if (
        _lost_transmitter(state, player)
        and turns_left(state) >= 2
        and totals.get("AB", 0) < ch.module_cost(state)
    ):
        # No transmitter: BC waits for one (IEC-S-17), so the AB for its module comes first.
        wants = ["AB"] + [w for w in wants if w != "AB"]
    if "AB" not in wants:
        # A fallback, so the mixer never stalls: with BC alone a storage full of A and B
        # (the mines' C then finds no room) blocked a network for the rest of the game.
        wants.append("AB")
    return wants


def duel(state: State) -> bool:
    """Two companies left: the launcher war decides the game (the rush's idea is the answer
    to itself, with the rival's launcher as the first target)."""
    return sum(1 for p in state["players"].values() if not p.get("eliminated")) == 2


NO_PROJECTS = frozenset({"laboratory", "launcher"})


def _power(state: State, player: str) -> Action:
    """IEC-15.2: the economic ranking without a laboratory (the strong bot researches no
    technology: a science point costs a BC that a transmitter turns into VP)."""
    if own(state, player, "launcher") and (rival_launchers(state, player) or raiding(state)):
        return rush._power(state, player)
    blds = state["buildings"]
    ranked = [c for c in power_ranking(state, player) if blds[c]["kind"] != "laboratory"]
    return {"type": "power", "buildings": ranked[: power_slots(state, player)]}


def transmit(state: State, player: str) -> Action | None:
    """IEC-S-17: launch a BC unless the radiation is high (success 4+ at R 9-12 against 3+ or
    2+ below) while the transmitter has a single BC and turns left to launch it at better
    odds: with the mixers making under one BC a turn the transmitter idles often anyway, so
    a BC kept for a calmer turn is rarely a launch lost."""
    late = turns_left(state) < 1
    for tm in own(state, player, "transmitter"):
        if not tm["powered"] or "transmit" in tm["used"]:
            continue
        bc = stock(state, tm, "BC")
        if bc > 0 and (late or bc >= 2 or ch.transmit_threshold(state) <= HOLD_ABOVE):
            return {"type": "transmit", "building": tm["cell"]}
    return None


HOLD_ABOVE = 3  # the worst threshold a lone BC is launched at before the last turn
# Measured (policy alone, paired on tuning seeds 80000-80199, 200 games each): launching a
# lone BC at any threshold (4) 44.5 % against three economic bots and 50.5 % against the rush,
# holding it at 3+ too (2) 38 % and 55 %, this 52 % and 59 %; holding two BC at 4+ 49 % and 60 %.


def raiding(state: State) -> bool:
    """Three companies or more: a launcher beside the first storage raids the rivals' home
    mines (see `raid_fire`)."""
    alive = sum(1 for p in state["players"].values() if not p.get("eliminated"))
    return alive >= 3 and turns_left(state) >= RAID_TURNS


RAID_TURNS = 3
RAID_VALUE = {"mine": 3.0, "storage": 2.0, "mixer": 1.5, "transmitter": 1.5}
# Measured (same seeds): other weights (storage 4, mixer 4, the leaders cubed) and RAID_TURNS 1
# or 6 changed no game: the start AC pays for about one shot a game, at a home mine. AC made
# first in turns 1-3 (1-6): 39 % (31 %) against 52 %; no AC made at all: 49 %.


def _repairable(state: State, b: Building) -> bool:
    """Whether one of the owner's developers reaches the building (IEC-S-18.2 b: a module is
    rebuilt only within a developer's range)."""
    s = scen(state)
    r = ch.dev_range(state)
    return any(s.within(b["cell"], d["cell"], r) for d in own(state, b["owner"], "developer"))


def raid_fire(state: State, player: str) -> Action | None:
    """IEC-S-19: fire at what the rival cannot replace: a home mine or storage his developer
    does not reach (IEC-S-18.2) is lost for the rest of the game, and a mine has one module
    (IEC-14); the leaders' buildings first, and among rivals the one with the most mines
    (measured, four players: +1.25 points, about ±0.8, over 2400 games paired)."""
    top = max(p["vp"] for p in state["players"].values())
    best: tuple[float, str, Action] | None = None
    for la in own(state, player, "launcher"):
        if not la["powered"] or not ch.can_fire(state, la):
            continue
        shots = min(ch.launcher_shots(state, la), stock(state, la, "AC"))
        if shots < 1:
            continue
        for cell, thr in ch.fire_targets(state, la):
            b = state["buildings"][cell]
            value = RAID_VALUE.get(b["kind"], 0.0)
            if not value:
                continue
            if not _repairable(state, b):
                value *= 2.0
            value /= b["modules"]
            value *= 1.0 + state["players"][b["owner"]]["vp"] / (1.0 + top)
            value *= 1.0 - ((thr - 1) / 6) ** shots
            # Spread over the rivals: the one with the most mines left first, so a second
            # shot goes to a rival still whole rather than the last home mine of the one hit
            # already (a duel has one rival: the same targets in the same order).
            value *= max(1, len(own(state, b["owner"], "mine")))
            if best is None or (-value, cell) < (-best[0], best[1]):
                fire = {"type": "fire", "launcher": la["cell"], "targets": {cell: shots}}
                best = (value, cell, fire)
    return best[2] if best else None


def guarded_bot(state: State, player: str, rng: Rng) -> Action:
    planned = together.planned(state, player)  # rules version 2: after his own declarations
    order = standing_update(planned, player, mix_wants(planned, player)) or _secret_orders(
        planned, player
    )
    if order is not None:
        return order
    threat = bool(rival_launchers(planned, player))
    # A counter launcher only among three companies or more: in a duel the rush's few shots
    # cost less than the launcher's AB and AC (see the module docstring).
    counter = threat and not duel(planned)
    raid = raiding(planned)
    ph = planned["phase"]
    act: Action | None = None
    if ph == 3:
        act = _power(planned, player)
    elif ph == 5:
        act = None  # a real mine costs an AC a counter launcher may need (IEC-S-21)
    elif ph == 6:
        act = _transmitter_prepare(planned, player)
        if act is None and (counter or raid) and not own(planned, player, "launcher"):
            act = rush.prepare_site(planned, player, _launcher_cells(planned, player))
        if act is None:
            act = _phase_prepare(planned, player, NO_PROJECTS)
    elif ph == 7:
        act = _transmitter_repair(planned, player) or _transmitter_build(planned, player)
        if act is None and (counter or raid):
            act = _build(planned, player)
        if act is None and not _wait_and_see(planned):
            act = _phase_build(planned, player, NO_PROJECTS)
    elif ph == 9:
        act = _counter_fire(planned, player) or (
            rush._fire(planned, player) if duel(planned) and threat else None
        )
        if act is None and (raid or duel(planned)):
            # Two companies (IEC-S-19): once no rival launcher is in reach, AC left over still
            # takes his home mines, which his developer cannot rebuild (`raid_fire`).
            act = raid_fire(planned, player)
    elif ph == 10:
        act = transmit(planned, player)
    elif ph == 11:
        act = None
    else:
        return phase_action(planned, player, rng)
    return act if act is not None else {"type": "done"}
