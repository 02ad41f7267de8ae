"""legal_actions() for IEC: the phase actions open to the actor, as the engine or the table
(without his unrevealed technologies) may judge them."""

from __future__ import annotations

from engine.iec import choices as ch
from engine.iec import together
from engine.iec.model import acting
from engine.iec.rules import (
    Action,
    State,
    available_techs,
    own,
    power_candidates,
    power_slots,
    stock,
)
from engine.iec.techs import MINE_WAR_TECHS, TECHS


def legal_actions(state: State, player: str, public: bool = False) -> list[Action]:
    """The phase actions open to the actor (a sample for mine laying); standing orders aside.
    In a phase declared at once (rules version 2), those still open after his own
    declarations (together.planned); `public`: as the table can judge them, without his
    unrevealed technologies (for what the group sees: buttons, the forced /done)."""
    if state["over"] or player not in acting(state):
        return []
    if public or state.get("pending", {}).get(player):
        state = together.planned(state, player, public=public)
    ph = state["phase"]
    out: list[Action] = []
    if ph == 3:
        slots = power_slots(state, player)
        cands = [b["cell"] for b in power_candidates(state, player)]
        out.append({"type": "power", "buildings": cands[:slots]})
        out.append({"type": "power", "buildings": cands[-slots:] if slots else []})
    elif ph == 5:
        cells = ch.lay_cells(state, player)
        if ch.can_lay(state, player):
            for i, c in enumerate(cells):
                out.append({"type": "lay", "real": [c], "fake": []})
                if i + 2 < len(cells) and i % 3 == 0:
                    out.append({"type": "lay", "real": [c], "fake": [cells[i + 1], cells[i + 2]]})
        for t in ch.own_tokens(state, player):
            out += [{"type": "relocate", "from": t["cell"], "to": c} for c in cells[:6]]
    elif ph == 6:
        for d in own(state, player, "developer"):
            if d["powered"] and not ({"prepare", "recycle"} & set(d["used"])):
                out += [
                    {"type": "prepare", "developer": d["cell"], "cell": c}
                    for c in ch.prep_cells(state, d)
                ]
    elif ph == 7:
        for d in own(state, player, "developer"):
            if not d["powered"]:
                continue
            if ch.can_build_attempt(d) and stock(state, d, "AB") >= ch.module_cost(state):
                for cell, kinds in ch.build_targets(state, d):
                    if kinds:
                        out += [
                            {"type": "build", "developer": d["cell"], "cell": cell, "kind": k}
                            for k in kinds
                        ]
                    else:
                        out.append({"type": "build", "developer": d["cell"], "cell": cell})
            # IEC-TECH-14 unrevealed: the table (public) may not offer Recycling, else his
            # forced /done and buttons would tell it (corrections 1.1); the owner may use it.
            if ch.can_recycle(state, d, public=public):
                out += [
                    {"type": "recycle", "developer": d["cell"], "target": c}
                    for c in ch.recycle_targets(state, d)
                ]
    elif ph == 8:
        out += [
            {"type": "activate", "cell": t["cell"]} for t in ch.activatable_tokens(state, player)
        ]
    elif ph == 9:
        for la in own(state, player, "launcher"):
            if la["powered"] and ch.can_fire(state, la):
                n = min(ch.launcher_shots(state, la), stock(state, la, "AC"))
                tg = ch.fire_targets(state, la)
                for cell, _thr in tg:
                    out += [
                        {"type": "fire", "launcher": la["cell"], "targets": {cell: k}}
                        for k in range(1, n + 1)
                    ]
                if ch.launcher_max_targets(state, la) > 1 and n >= 2 and len(tg) >= 2:
                    out.append(
                        {
                            "type": "fire",
                            "launcher": la["cell"],
                            "targets": {tg[0][0]: 1, tg[1][0]: 1},
                        }
                    )
    elif ph == 10:
        out += [
            {"type": "transmit", "building": t["cell"]}
            for t in own(state, player, "transmitter")
            if t["powered"] and "transmit" not in t["used"] and stock(state, t, "BC") > 0
        ]
    elif ph == 11:
        out += [
            {"type": "research", "building": lab["cell"]}
            for lab in own(state, player, "laboratory")
            if lab["powered"]
            and "research" not in lab["used"]
            and stock(state, lab, "BC") > 0
            and stock(state, lab, "AC") > 0
        ]
    elif ph == 14 and ch.must_choose_tech(state, player):
        pool = available_techs(state, player)
        if public:  # his unrevealed technologies are secret: none is left out (IEC-S-23)
            seen = state["players"][player]["revealed"]
            pool = [
                t for t in TECHS if t not in seen and (state["mine_war"] or t not in MINE_WAR_TECHS)
            ]
        return [{"type": "tech", "tech": t} for t in pool]
    out.append({"type": "done"})
    return out
