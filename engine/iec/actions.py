"""apply() for IEC: each action is validated fully before any change (legal_actions() lives in
engine/iec/legal.py and is re-exported here)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import N_, IllegalAction, Listed, Rng
from engine.iec import choices as ch
from engine.iec import together
from engine.iec.legal import legal_actions
from engine.iec.model import acting
from engine.iec.orders import _bad, _cell, _own_building, standing
from engine.iec.rules import (
    PHASE_ACTIONS,
    STANDING,
    Action,
    Event,
    State,
    _compute_power,
    _discover,
    _ev,
    _new_building,
    _put,
    _put_back,
    _reveal,
    _roll,
    _take,
    advance,
    has_tech,
    linked,
    lose_module,
    mine_limit,
    own,
    owns_tech,
    param,
    placement_error,
    public_tech,
    scen,
    stock,
    tech_cost,
    undamaged,
)
from engine.iec.scenario import KINDS, SIMPLE
from engine.iec.secret import auto_activate, unlinked_warning
from engine.iec.state_types import AnyBuilding, PlainState, plain
from engine.iec.techs import MINE_WAR_TECHS, TECHS


def _powered_own(state: State, player: str, action: Action, key: str, kind: str) -> AnyBuilding:
    b = _own_building(state, player, _cell(state, action, key), kind)
    if not b["powered"]:
        raise _bad(
            "IEC-9", N_("Your building on {cell} is not powered."), kind=kind, cell=b["cell"]
        )
    return b


def _pick_building(
    state: State, player: str, action: Action, key: str, kind: str, tag: str
) -> AnyBuilding:
    """The named building, or the first powered one of that kind that can still act."""
    if action.get(key) is None:
        b = ch.first_ready(state, player, kind, tag)
        if b is not None:
            return b
        raise _bad("IEC-9", N_("None of your powered buildings of that type can act."), kind=kind)
    return _powered_own(state, player, action, key, kind)


def _source(state: State, b: AnyBuilding, action: Action) -> str | None:
    """IEC-S-10.5: the owner may name the linked storage goods are drawn from first."""
    cell = action.get("from")
    if cell is None:
        return None
    if cell not in {st["cell"] for st in linked(state, b)}:
        raise _bad(
            "IEC-S-10.5",
            N_("{cell} is not a powered storage of yours linked to {building}."),
            cell=cell,
            building=b["cell"],
        )
    return str(cell)


# ---------------------------------------------------------------- phase actions


# The chat command of an action type where the two differ (one /transfer sends all moves).
_COMMAND_OF = {"transfers": "transfer"}


def _command(kind: str) -> str:
    return "/" + _COMMAND_OF.get(kind, kind)


def check_turn(state: State, player: str, kind: str) -> None:
    """Refuse an action the moment does not take: the game is over, it is not the player's
    turn, or the phase takes other actions (IEC-27)."""
    if state["over"]:
        raise _bad("IEC-S-9", N_("The game is over."))
    if player not in acting(state):
        raise _bad("IEC-S-10.4", N_("It is not your turn."))
    check_phase(state, kind)


def check_phase(state: State, kind: str) -> None:
    """IEC-27: each phase takes its own actions; the refusal names their commands."""
    takes = PHASE_ACTIONS.get(state["phase"], ())
    if kind not in takes:
        raise _bad(
            "IEC-27",
            N_("{action} is not possible in this phase; it takes {commands}."),
            action=_command(kind),
            commands=Listed(_command(k) for k in takes),
        )


def _do_done(state: State, player: str, action: Action, events: list[Event]) -> None:
    if state["phase"] == 14 and ch.must_choose_tech(state, player):
        raise _bad(
            "IEC-24",
            N_("Science points: {points}. You must choose a technology."),
            points=state["players"][player]["science"],
        )
    if state["phase"] == 3:
        _compute_power(state, player, events)
    state["done"].append(player)


def _lay_checks(state: State, player: str, cells: list[str]) -> None:
    allowed = set(ch.lay_cells(state, player))
    for c in cells:
        if c not in allowed:
            raise _bad(
                "IEC-S-21",
                N_(
                    "{cell}: tokens go on building-free cells without your token, within 12 cm "
                    "of your powered developer and of your powered storage holding AC."
                ),
                cell=c,
            )


def _do_lay(state: State, player: str, action: Action, events: list[Event]) -> None:
    pl = state["players"][player]
    if pl["laid"]:
        raise _bad("IEC-19", N_("You already laid or moved tokens this turn."))
    real, fake = action.get("real", []), action.get("fake", [])
    if not isinstance(real, list) or not isinstance(fake, list):
        raise _bad("IEC-S-21", N_("Name the real and the fake cells."))
    placement = N_("A placement holds 1 real mine (2 with Total Mine War).")
    if not 1 <= len(real) <= 2:
        raise _bad("IEC-D-3", placement)
    if len(fake) > int(param(state, "max_fakes_per_lay")):
        raise _bad("IEC-19", N_("At most 2 fake tokens per turn."))
    cells = [*real, *fake]
    if len(cells) > int(param(state, "max_tokens_per_lay")) or len(set(cells)) != len(cells):
        raise _bad("IEC-19", N_("Up to 3 tokens, each on a different cell."))
    _lay_checks(state, player, cells)
    payer = _mine_payer(state, player, real[0], action.get("from"))
    # Last, the limits Total Mine War raises (IEC-TECH-18): while it is not revealed, whether
    # they refuse, and the limit named, tell his technologies, so only he hears it (IEC-S-23,
    # corrections 1.1); every refusal above reads alike for everyone.
    hidden = not public_tech(state, player, 18)
    if len(real) > (2 if has_tech(state, player, 18) else 1):
        raise _bad("IEC-D-3", placement, secret=hidden)
    if pl["mines_used"] + len(real) > mine_limit(state, player):
        raise _bad(
            "IEC-S-8.4",
            N_("You have used all your real mines (limit {m})."),
            secret=hidden,
            m=mine_limit(state, player),
        )
    payer["goods"]["AC"] -= 1
    pl["mines_used"] += len(real)
    if len(real) > 1 or pl["mines_used"] > int(param(state, "M")):
        _reveal(state, player, 18, events)
    for c in sorted(cells, key=scen(state).index.__getitem__):
        state["tokens"].append(
            {"id": state["next_token"], "owner": player, "cell": c, "real": c in real, "up": False}
        )
        state["next_token"] += 1
    pl["laid"] = True
    _ev(
        state,
        events,
        "tokens_laid",
        player=player,
        cells=sorted(cells),
        paid=payer["cell"],
        private_to=player,
        secret={"real": sorted(real)},
    )


def _mine_payer(state: State, player: str, cell: str, named: Any) -> dict[str, Any]:
    """IEC-S-21 (corrections 1.1): the owner chooses which eligible storage pays the AC (a
    powered own storage holding AC within reach of the real mine); default: the one holding
    the most AC (then map order), so the payer does not single out the real token."""
    s = scen(state)
    r = int(param(state, "mine_lay_range_factor")) * int(s.buildings["storage"]["range"])
    eligible = [
        st
        for st in own(state, player, "storage")
        if st["powered"] and st["goods"]["AC"] > 0 and s.within(st["cell"], cell, r)
    ]
    if named is not None:
        for st in eligible:
            if st["cell"] == named:
                return st
        raise _bad(
            "IEC-S-21",
            N_("{cell} is not a powered storage of yours holding AC within reach of {mine}."),
            cell=named,
            mine=cell,
        )
    return max(eligible, key=lambda st: (st["goods"]["AC"], -s.index[st["cell"]]))


def _do_relocate(state: State, player: str, action: Action, events: list[Event]) -> None:
    pl = state["players"][player]
    if pl["laid"]:
        raise _bad("IEC-21", N_("You already laid or moved tokens this turn."))
    src, dst = _cell(state, action, "from"), _cell(state, action, "to")
    # IEC-S-21 b (corrections 1.1): any one of his own tokens, face down or up.
    tok = next(iter(own_tokens_at(state, player, src)), None)
    if tok is None:
        raise _bad("IEC-21", N_("You have no token on {cell}."), cell=src)
    _lay_checks(state, player, [dst])
    tok["cell"] = dst
    pl["laid"] = True
    _ev(state, events, "token_moved", player=player, src=src, dst=dst)


def own_tokens_at(state: State, player: str, cell: str) -> list[dict[str, Any]]:
    return [t for t in plain(state)["tokens"] if t["owner"] == player and t["cell"] == cell]


def _do_prepare(state: State, player: str, action: Action, events: list[Event]) -> None:
    dev = _powered_own(state, player, action, "developer", "developer")
    if {"prepare", "recycle"} & set(dev["used"]):
        raise _bad("IEC-S-18.1", N_("This developer already prepared a site this turn."))
    cell = _cell(state, action, "cell")
    if cell not in ch.prep_cells(state, dev):
        raise _bad(
            "IEC-S-18.1",
            N_("{cell} must be an empty buildable cell without a site within {r} cm."),
            cell=cell,
            r=ch.dev_range(state),
        )
    dev["used"].append("prepare")
    state["sites"][cell] = player
    _ev(state, events, "site_prepared", player=player, cell=cell, developer=dev["cell"])


def _attempt(
    state: State,
    player: str,
    dev: AnyBuilding,
    cell: str,
    kind: Any,
    prefer: str | None,
    events: list[Event],
) -> bool:
    """One build attempt (IEC-S-18.2): 2 AB, d6; a failure loses 1 AB, the other returns."""
    threshold = ch.build_threshold(state, dev)
    sources = _take(state, dev, "AB", ch.module_cost(state), prefer=prefer)
    roll = _roll(state)
    ok = roll >= threshold
    _ev(
        state,
        events,
        "build_roll",
        player=player,
        developer=dev["cell"],
        cell=cell,
        kind=kind,
        roll=roll,
        need=threshold,
        success=ok,
        rolled=True,
    )
    if not ok:
        for src in sources[int(param(state, "failed_build_loss_AB")) :]:
            _put_back(state, src, "AB")
    return ok


_DRILLING = N_("Only Remote Drilling lets you choose the deposit.")


def _do_build(state: State, player: str, action: Action, events: list[Event]) -> None:
    dev = _powered_own(state, player, action, "developer", "developer")
    if not ch.can_build_attempt(dev):
        raise _bad("IEC-S-18.2", N_("This developer has no build attempt left this turn."))
    cell = _cell(state, action, "cell")
    s = scen(state)
    if not s.within(dev["cell"], cell, ch.dev_range(state)):
        raise _bad("IEC-14", N_("{cell} is beyond the developer's range."), cell=cell)
    target = state["buildings"].get(cell)
    kind = action.get("kind")
    choice = action.get("deposit")
    if target is not None:
        if target["owner"] != player or undamaged(state, target):
            raise _bad(
                "IEC-S-18.2", N_("Only your own incomplete or damaged buildings can be rebuilt.")
            )
        kind = target["kind"]
    else:
        if cell not in state["sites"]:
            raise _bad("IEC-S-18.2", N_("{cell} is not a prepared site."), cell=cell)
        if kind not in KINDS:
            raise _bad("IEC-14", N_("Name the building type."))
        err = placement_error(state, cell, str(kind))
        if err is not None:
            raise err
        if choice is not None and choice not in (0, 1):
            raise _bad("IEC-TECH-1", _DRILLING)
    cost = ch.module_cost(state)
    if stock(state, dev, "AB") < cost:
        raise _bad(
            "IEC-S-18.2",
            N_("A module costs {n} AB from storages linked to the developer."),
            n=cost,
        )
    prefer = _source(state, dev, action)
    if choice is not None and not owns_tech(state, player, 1):
        # Last: only he may know that he lacks Remote Drilling (IEC-S-23, corrections 1.1).
        raise _bad("IEC-TECH-1", _DRILLING, secret=True)
    dev["used"].append("build")
    ok = _attempt(state, player, dev, cell, kind, prefer, events)
    if not ok and has_tech(state, player, 15) and stock(state, dev, "AB") >= cost:
        # IEC-TECH-15: the re-attempt follows at once (a standing choice, "auto" by default),
        # so nobody is asked again only because of a secret technology.
        _reveal(state, player, 15, events)
        ok = _attempt(state, player, dev, cell, kind, prefer, events)
    if not ok:
        return
    if target is not None:
        target["modules"] += 1
        if target["modules"] >= int(s.buildings[kind]["modules"]):
            target["complete"] = True
        _ev(
            state,
            events,
            "module_built",
            player=player,
            cell=cell,
            kind=kind,
            modules=target["modules"],
        )
    else:
        b = _new_building(state, player, str(kind), cell, 1)
        _ev(
            state,
            events,
            "module_built",
            player=player,
            cell=cell,
            kind=kind,
            modules=b["modules"],
            new=True,
        )
        unlinked_warning(state, b, events)
        if kind == "mine":
            _discover(state, cell, player, choice, events)


def _do_recycle(state: State, player: str, action: Action, events: list[Event]) -> None:
    dev = _powered_own(state, player, action, "developer", "developer")
    if not ch.developer_free(dev):
        raise _bad("IEC-S-18.5", N_("This developer cannot recycle this turn."))
    target = _cell(state, action, "target")
    if target not in ch.recycle_targets(state, dev):
        raise _bad(
            "IEC-S-18.5",
            N_("{cell} holds no building you may recycle within the developer's range."),
            cell=target,
        )
    if not owns_tech(state, player, 14):
        # Last, and to him alone: whether he owns Recycling is his secret until he uses it
        # (IEC-S-23, corrections 1.1); every refusal above reads alike for everyone.
        raise _bad("IEC-TECH-14", N_("You need Recycling for this."), secret=True)
    threshold = ch.recycle_threshold(state, dev)
    dev["used"].append("recycle")
    _reveal(state, player, 14, events)
    lose_module(state, target, events, "recycled")
    tries = 1
    while True:
        roll = _roll(state)
        ok = roll >= threshold
        to = _put(state, dev, "AB", events) if ok else None
        _ev(
            state,
            events,
            "recycled",
            player=player,
            developer=dev["cell"],
            target=target,
            roll=roll,
            need=threshold,
            success=ok,
            to=to,
            again=tries > 1,
            rolled=True,
        )
        # IEC-TECH-15 with Recycling: one more recovery roll when the developer's damage made
        # it fail; at once, like the build re-attempt.
        if ok or tries > 1 or threshold <= 1 or not has_tech(state, player, 15):
            break
        _reveal(state, player, 15, events)
        tries += 1


def _do_activate(state: State, player: str, action: Action, events: list[Event]) -> None:
    cell = _cell(state, action, "cell")
    toks = own_tokens_at(state, player, cell)
    if not toks:
        raise _bad("IEC-22", N_("You have no token on {cell}."), cell=cell)
    # IEC-S-22: one detonation test per token per activation phase; a mine that did not
    # detonate may be activated again only in a later turn (IEC-22).
    toks = [t for t in toks if t.get("tested") != state["turn"]]
    if not toks:
        raise _bad(
            "IEC-S-22",
            N_(
                "Your mine on {cell} was already activated this turn; "
                "it may be activated again in a later turn."
            ),
            cell=cell,
        )
    tok = toks[0]
    if not tok["real"]:
        plain(state)["tokens"].remove(tok)
        _ev(state, events, "token_activated", player=player, cell=cell, real=False, revealed=True)
        return
    tok["up"] = True
    tok["tested"] = state["turn"]
    _ev(state, events, "token_activated", player=player, cell=cell, real=True, revealed=True)
    b = state["buildings"].get(cell)
    if b is None:
        return
    scatter = has_tech(state, player, 17)
    need = int(param(state, "mine_detonation_scatter" if scatter else "mine_detonation"))
    if scatter:
        _reveal(state, player, 17, events)
    roll = _roll(state)
    ok = roll >= need
    _ev(
        state,
        events,
        "mine_test",
        player=player,
        cell=cell,
        target=b["owner"],
        roll=roll,
        need=need,
        success=ok,
        rolled=True,
    )
    if ok:
        plain(state)["tokens"].remove(tok)
        lose_module(state, cell, events, "mine")


def out_of_range(state: State, launchers: Sequence[AnyBuilding], cell: str) -> IllegalAction:
    """IEC-16.1: `cell` is beyond twice the base range of each of `launchers`; the refusal
    names the nearest and its distance (IEC-S-3: 2 cm per cell, Euclidean)."""
    s = scen(state)
    base = int(s.buildings["launcher"]["range"])
    reach = base * int(param(state, "launcher_extended_factor"))
    la = min(launchers, key=lambda b: s.d2(b["cell"], cell))
    return _bad(
        "IEC-16.1",
        N_(
            "{cell} is {d} cm from your launcher on {launcher}; a launcher fires up to "
            "{reach} cm, twice its base range of {base} cm."
        ),
        cell=cell,
        d=f"{s.distance(la['cell'], cell):.1f}",
        launcher=la["cell"],
        reach=reach,
        base=base,
    )


def _do_fire(state: State, player: str, action: Action, events: list[Event]) -> None:
    la = _powered_own(state, player, action, "launcher", "launcher")
    if "fire" in la["used"]:
        raise _bad("IEC-16.2", N_("This launcher already fired this turn."))
    targets = action.get("targets")
    if not isinstance(targets, dict) or not targets:
        raise _bad("IEC-S-19.1", N_("Declare targets and missiles."))
    whole = undamaged(state, la)
    one_target = N_(
        "A launcher fires at one building per turn (two with Multiple Targets when undamaged)."
    )
    if len(targets) > (2 if whole else 1):  # beyond what any technology allows: public
        raise _bad("IEC-16.5", one_target)
    total = 0
    thresholds: dict[str, int] = {}
    for cell, n in targets.items():
        if not isinstance(n, int) or n < 1:
            raise _bad("IEC-S-19.1", N_("Each target needs at least one missile."))
        b = state["buildings"].get(cell)
        if b is None or b["owner"] == player:
            raise _bad("IEC-S-19.6", N_("{cell} holds no enemy building."), cell=cell)
        thr = ch.hit_threshold(state, la, cell)
        if thr is None:
            raise out_of_range(state, [la], cell)
        thresholds[cell] = thr
        total += n
    if stock(state, la, "AC") < total:
        raise _bad("IEC-16.3", N_("Each missile costs 1 AC from a linked storage."))
    prefer = _source(state, la, action)
    # Last, the limits Multiple Targets and Missile Salvo raise on an undamaged launcher: while
    # the technology is not revealed, whether they refuse, and the shots named, tell it, so
    # only he hears it (IEC-S-23, corrections 1.1); every refusal above reads alike for all.
    if len(targets) > ch.launcher_max_targets(state, la):
        raise _bad("IEC-16.5", one_target, secret=not public_tech(state, player, 10))
    shots = ch.launcher_shots(state, la)
    if total > shots:
        raise _bad(
            "IEC-S-19.2",
            N_("Shots this launcher has this turn: {n}."),
            secret=whole and not public_tech(state, player, 9),
            n=shots,
        )
    _take(state, la, "AC", total, prefer=prefer)
    la["used"].append("fire")
    if shots > int(param(state, "launcher_shots")) and total > int(param(state, "launcher_shots")):
        _reveal(state, player, 9, events)
    if len(targets) > 1:
        _reveal(state, player, 10, events)
    s = scen(state)
    base = int(s.buildings["launcher"]["range"])
    for cell in sorted(targets):
        n = targets[cell]
        thr = thresholds[cell]
        if thr == int(param(state, "launcher_base_hit")) and not s.within(la["cell"], cell, base):
            _reveal(state, player, 12, events)
        rolls = [_roll(state) for _ in range(n)]
        hits = sum(1 for r in rolls if r >= thr)
        _ev(
            state,
            events,
            "missiles",
            player=player,
            launcher=la["cell"],
            target=cell,
            rolls=rolls,
            need=thr,
            hits=hits,
            rolled=True,
        )
        if hits and cell in state["buildings"] and hits > _intercepts(state, cell, hits, events):
            lose_module(state, cell, events, "missile")


def _interceptors(state: State, cell: str) -> list[dict[str, Any]]:
    """IEC-S-19.5: the target owner's powered undamaged launchers in base range, with AC."""
    owner = state["buildings"][cell]["owner"]
    if not has_tech(state, owner, 11) or not state["players"][owner]["orders"]["antimissile"]:
        return []
    s = scen(state)
    base = int(s.buildings["launcher"]["range"])
    return [
        la
        for la in own(state, owner, "launcher")
        if la["powered"]
        and undamaged(state, la)
        and "intercept" not in la["used"]
        and s.within(la["cell"], cell, base)
        and stock(state, la, "AC") > 0
    ]


def _intercepts(state: State, cell: str, hits: int, events: list[Event]) -> int:
    """Standing policy: try to cancel only when every hit can be answered. Returns cancels."""
    las = _interceptors(state, cell)
    if not las or len(las) < hits:
        return 0
    owner = state["buildings"][cell]["owner"]
    high = state["radiation"] > int(param(state, "high_radiation_above"))
    need = int(
        param(state, "antimissile_threshold_high_radiation" if high else "antimissile_threshold")
    )
    _reveal(state, owner, 11, events)
    cancelled = 0
    for la in las[:hits]:
        _take(state, la, "AC", 1)
        la["used"].append("intercept")
        roll = _roll(state)
        ok = roll >= need
        cancelled += ok
        _ev(
            state,
            events,
            "intercept",
            player=owner,
            launcher=la["cell"],
            target=cell,
            roll=roll,
            need=need,
            success=ok,
            rolled=True,
        )
        if not ok:
            break
    return cancelled


def _do_transmit(state: State, player: str, action: Action, events: list[Event]) -> None:
    transmitter = _pick_building(state, player, action, "building", "transmitter", "transmit")
    if "transmit" in transmitter["used"]:
        raise _bad("IEC-S-17", N_("This transmitter already launched this turn."))
    if stock(state, transmitter, "BC") < 1:
        raise _bad("IEC-S-17", N_("No BC in a storage linked to the transmitter."))
    prefer = _source(state, transmitter, action)
    transmitter["used"].append("transmit")
    need = ch.transmit_threshold(state)
    launches, bonus_tried = 1, False
    while launches:
        launches -= 1
        _take(state, transmitter, "BC", 1, prefer=prefer)
        roll = _roll(state)
        ok = roll >= need
        if ok:
            state["players"][player]["vp"] += 1
        _ev(
            state,
            events,
            "transmitted",
            player=player,
            cell=transmitter["cell"],
            roll=roll,
            need=need,
            success=ok,
            vp=state["players"][player]["vp"],
            rolled=True,
        )
        # IEC-TECH-8: announced (and revealed) only when it can act: a BC is left to launch.
        if (
            not bonus_tried
            and has_tech(state, player, 8)
            and undamaged(state, transmitter)
            and stock(state, transmitter, "BC") > 0
        ):
            bonus_tried = True
            _reveal(state, player, 8, events)
            b = _roll(state)
            _ev(
                state,
                events,
                "bonus_roll",
                player=player,
                cell=transmitter["cell"],
                roll=b,
                rolled=True,
            )
            if b >= int(param(state, "bonus_roll_min")):
                launches += 1


def _do_research(state: State, player: str, action: Action, events: list[Event]) -> None:
    lab = _pick_building(state, player, action, "building", "laboratory", "research")
    if "research" in lab["used"]:
        raise _bad("IEC-S-16", N_("This laboratory already worked this turn."))
    if stock(state, lab, "BC") < 1 or stock(state, lab, "AC") < 1:
        raise _bad("IEC-S-16", N_("A laboratory needs 1 BC and 1 AC from linked storages."))
    prefer = _source(state, lab, action)
    lab["used"].append("research")
    _take(state, lab, "BC", 1, prefer=prefer)
    _take(state, lab, "AC", 1, prefer=prefer)
    roll = _roll(state)
    need = int(param(state, "lab_threshold"))
    ok = roll >= need
    if ok:
        state["players"][player]["science"] += 1
    _ev(
        state,
        events,
        "research",
        player=player,
        cell=lab["cell"],
        roll=roll,
        need=need,
        success=ok,
        science=state["players"][player]["science"],
        rolled=True,
    )


def _do_tech(state: State, player: str, action: Action, events: list[Event]) -> None:
    tech = action.get("tech")
    pl = state["players"][player]
    if tech not in TECHS:
        raise _bad("IEC-25", N_("Technologies are numbered 1 to 19."))
    if not state["mine_war"] and tech in MINE_WAR_TECHS:
        raise _bad("IEC-S-8.5", N_("Mine War is off in this game."))
    cost = tech_cost(state, player)
    if pl["science"] < cost:
        # The cost named is lower with an unrevealed Super Computer (IEC-TECH-2): then only
        # he may read it (IEC-S-23); the number of technologies owned is public.
        hidden = bool(pl["techs"]) and not public_tech(state, player, 2)
        raise _bad(
            "IEC-23",
            N_("Science points the next technology costs: {cost}."),
            secret=hidden,
            cost=cost,
        )
    if tech in pl["techs"]:
        # Which technologies he owns is his secret (IEC-S-24, IEC-S-23): to him alone.
        raise _bad("IEC-24", N_("You already have this technology."), secret=True)
    if has_tech(state, player, 2) and len(pl["techs"]) >= 1:
        # IEC-TECH-2 lowers the public cost: using it reveals it (IEC-S-23, corrections 1.1).
        _reveal(state, player, 2, events)
    pl["science"] -= cost
    pl["techs"].append(tech)
    _ev(
        state,
        events,
        "tech_chosen",
        player=player,
        cost=cost,
        count=len(pl["techs"]),
        private_to=player,
        secret={"tech": tech},
    )


HANDLERS = {
    "done": _do_done,
    "power": standing,
    "lay": _do_lay,
    "relocate": _do_relocate,
    "prepare": _do_prepare,
    "build": _do_build,
    "recycle": _do_recycle,
    "activate": _do_activate,
    "fire": _do_fire,
    "transmit": _do_transmit,
    "research": _do_research,
    "tech": _do_tech,
}


def apply(state: State, player: str, action: Action) -> tuple[PlainState, list[Event]]:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise _bad("syntax", N_("An action is a dict with a type."))
    if player not in state["players"]:
        raise _bad("IEC-7", N_("You are not playing this game."))
    if state["players"][player]["eliminated"]:
        raise _bad("IEC-15.4", N_("You have been eliminated."))
    kind = action["type"]
    events: list[Event] = []
    in_turn = (
        not state["over"]
        and player in acting(state)
        and kind in PHASE_ACTIONS.get(state["phase"], ())
    )
    if kind in STANDING and not in_turn:
        if state["over"]:
            raise _bad("IEC-S-9", N_("The game is over."))
        standing(state, player, action, events)
        return plain(state), events
    if kind not in HANDLERS:
        raise _bad("syntax", N_("Unknown action {action}."), action=kind)
    check_turn(state, player, kind)
    if "actors" in state:  # rules version 2: a phase declared by everybody at once
        together.declare(state, player, action, events)
        if not state["actors"]:
            together.resolve(state, events)
            advance(state, events)
        return plain(state), events
    HANDLERS[kind](state, player, action, events)
    if not state["over"] and player not in state["done"]:
        auto_activate(state, player, state["phase"], events)
    if (
        not state["over"]
        and player not in state["done"]
        and not ch.has_choice(state, player, state["phase"])
    ):
        state["done"].append(player)
    if player in state["done"]:
        state["actor"] = None
        advance(state, events)
    return plain(state), events


together.register(HANDLERS)

__all__ = ["SIMPLE", "Rng", "apply", "legal_actions"]
