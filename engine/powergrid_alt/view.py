"""`view(state, viewer)` for the variant: the base view's shape (engine/powergrid/VIEW.md)
with the variant's board: built plants in cities with their tokens, hands (public,
ALT-D-4), TPs, owned and hanging lines, each region's pollution and nuclear count, the
displacers, the MSE of every city in play, and the Step 2 threshold of ALT-40.
"""

from __future__ import annotations

from typing import Any

from engine.powergrid.data import PLANTS
from engine.powergrid.view import markets_view
from engine.powergrid_alt import purchase
from engine.powergrid_alt import rules as r
from engine.powergrid_alt.graph import alt_map, mse2


def view(state: State, viewer: str | None) -> dict[str, Any]:
    over = state["phase"] == "over"
    hide_money = state["hidden_money"] and not over
    am = alt_map(state["map"])
    players: dict[str, Any] = {}
    for name in state["seats"]:
        p = state["players"][name]
        built = []
        for n in r.built_plants(state, name):
            site = state["built"][str(n)]
            built.append({**PLANTS[n].as_dict(), "city": site["city"], "stored": dict(site["res"])})
        players[name] = {
            "money": p["money"] if (not hide_money or viewer == name) else None,
            "plants": [
                {**PLANTS[n].as_dict(), "city": state["built"].get(str(n), {}).get("city")}
                for n in p["plants"]
            ],
            "hand": [PLANTS[n].as_dict() for n in r.hand(state, name)],
            "built": built,
            "cities": list(p["cities"]),
            "tps": [c for c in p["cities"] if name in state["tps"].get(c, [])],
            "networks": r.networks(state, name),
            "bought_plant": p["bought"],
            "passed": p["passed"],
            "done": p["done"],
            "powered": p["powered"],
        }
    regions = list(state["regions"])
    return {
        "game": r.GAME_ID,
        "map": state["map"],
        "round": state["round"],
        "step": state["step"],
        "step3_pending": state["step3_pending"],
        "phase": state["phase"],
        "final_round": state["final"],
        "regions_in_play": regions if state["phase"] != "regions" else list(am.region.values()),
        "regions_chosen": regions,
        "seat_order": list(state["seats"]),
        "player_order": list(state["order"]),
        "current_players": r.current_players(state),
        "expected": r.expected(state),
        "players": players,
        "double_cities": {n: list(am.members[n]) for n in am.nodes if am.is_double(n)},
        "plants_in_cities": {
            b["city"]: sorted(int(k) for k, v in state["built"].items() if v["city"] == b["city"])
            for b in state["built"].values()
        },
        "plant_owner": {k: v["owner"] for k, v in state["built"].items()},
        "tps": {c: list(o) for c, o in state["tps"].items() if o},
        "lines": [
            {
                "id": ln["id"],
                "owner": ln["owner"],
                "cities": list(ln["nodes"]),
                "segments": list(ln["segs"]),
                "cost": r.line_cost(state, ln),
                "hanging_at": [
                    c for c in (ln["nodes"][0], ln["nodes"][-1]) if r.is_hanging_at(state, ln, c)
                ],
            }
            for ln in state["lines"]
        ],
        "displacer": dict(state["displacer"]),
        "pollution": {
            reg: {
                "level": r.pollution(state, reg),
                "limit": r.POLLUTION_LIMIT,
                "nuclear": r.nuclear_count(state, reg),
            }
            for reg in regions
        },
        "mse2": {n: mse2(state["map"], regions, n) for n in r.play_nodes(state)}
        if state["phase"] != "regions"
        else {},
        "uncovered": [n for n in r.play_nodes(state) if not r.covered(state, n)]
        if state["phase"] != "regions"
        else [],
        **markets_view(state),
        "pending_discard": None,
        "region_pickers": list(state["region_pickers"]),
        "thresholds": {"step2": r.step2_threshold(state), "tps_per_city": r.MAX_TPS},
        "idle_rounds": state["idle"],
        "end_vote": _vote_view(state),
        # Private entries (a purchase declared in version 2) reach their owner only, and so
        # does the shortfall of one carried out (`private_to`, purchase.resolve).
        "log": _log_view(state, viewer),
        # Version 2: the viewer's own purchases declared so far; nobody else's declaration
        # (purchase or power) is shown before all are carried out.
        "rules_version": int(state.get("rules_version", 1)),
        "my_declared_buys": purchase.declared(state, viewer) if viewer is not None else [],
        "ranking": [list(g) for g in state["ranking"]] if state["ranking"] else None,
    }


State = r.State


def _log_view(state: State, viewer: str | None) -> list[dict[str, Any]]:
    """The log as `viewer` may read it: another player's private entry left out; the part of
    an entry `private_to` another player (how many he wanted of a declared purchase: his
    secret, PG-9 option) taken off, the entry left out when it has no public part."""
    out: list[dict[str, Any]] = []
    for e in state["log"]:
        if e.get("private") and e.get("player") != viewer:
            continue
        owner = e.get("private_to")
        if owner is not None and owner != viewer:
            if e.get("type") == "purchase_short":
                continue
            out.append({k: v for k, v in e.items() if k not in ("wanted", "private_to")})
            continue
        out.append(dict(e))
    return out


def _vote_view(state: State) -> dict[str, Any] | None:
    """The open vote to end by agreement (ending.py): who proposed, who agreed, who not yet."""
    vote = state.get("end_vote")
    if vote is None:
        return None
    yes = list(vote["yes"])
    return {"by": vote["by"], "yes": yes, "waiting": [p for p in state["order"] if p not in yes]}
