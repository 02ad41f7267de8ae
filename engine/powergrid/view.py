"""`view(state, viewer)`: the only way state leaves the engine (VIEW.md).

Hidden information is removed here: the deck order and setup removals always (only the
deck size is shown), and other players' money under `hidden_money` until the game ends.
"""

from __future__ import annotations

from typing import Any

from engine.powergrid import market as mk
from engine.powergrid.data import _PLANT_DICTS, HOUSES, RESOURCES, STEP3, plant_dict
from engine.powergrid.rules import LOG_SIZE, State, current_players, expected, limits


def _own_orders(state: State, viewer: str | None) -> dict[str, Any]:
    if viewer is None or "orders" not in state:
        return {}
    from engine.powergrid.orders import owned_by

    return owned_by(state, viewer)


def _log(state: State, viewer: str | None) -> list[dict[str, Any]]:
    """The last LOG_SIZE entries the viewer may see: filtered first, then cut (issue 20), so
    nobody's private entries shorten another's view."""
    mine = [e for e in state["log"] if not e.get("private") or e.get("player") == viewer]
    return [e.copy() for e in mine[-LOG_SIZE:]]


def view(state: State, viewer: str | None) -> dict[str, Any]:
    over = state["phase"] == "over"
    hide_money = state["hidden_money"] and not over
    players: dict[str, Any] = {}
    for name in state["seats"]:
        p = state["players"][name]
        players[name] = {
            "money": p["money"] if (not hide_money or viewer == name) else None,
            "plants": [
                {**_PLANT_DICTS[n], "stored": {"coal": c, "oil": o, "garbage": g, "uranium": u}}
                for n, (c, o, g, u) in mk.placed(p["plants"], p["res"])
            ],
            "resources": dict(p["res"]),
            "cities": list(p["cities"]),
            "houses_left": HOUSES - len(p["cities"]),
            "bought_plant": p["bought"],
            "passed": p["passed"],
            "done": p["done"],
            "powered": p["powered"],
        }
    lim = limits(state)
    return {
        "game": "powergrid",
        "map": state["map"],
        "round": state["round"],
        "step": state["step"],
        "step3_pending": state["step3_pending"],
        "phase": state["phase"],
        "regions_in_play": list(state["regions"])
        if state["phase"] != "regions"
        else _all_regions(state),
        "regions_chosen": list(state["regions"]),
        "seat_order": list(state["seats"]),
        "player_order": list(state["order"]),
        "current_players": current_players(state),
        "expected": expected(state),
        "players": players,
        "cities": {c: list(o) for c, o in state["cities"].items()},
        "slots_open": state["step"],
        **markets_view(state),
        "pending_discard": None
        if state["pending_discard"] is None
        else state["pending_discard"]["player"],
        "region_pickers": list(state["region_pickers"]),
        "thresholds": {"step2": lim["step2"], "end": lim["end"], "max_plants": lim["max_plants"]},
        "log": _log(state, viewer),
        "orders": _own_orders(state, viewer),  # the viewer's standing orders, nobody else's
        "ranking": [list(g) for g in state["ranking"]] if state["ranking"] else None,
    }


def markets_view(state: State) -> dict[str, Any]:
    """The public market part of the view (plants, resources, supply, the running auction);
    the alternative rules share it unchanged."""
    auction = state["auction"]
    return {
        "plant_market": {
            "current": [plant_dict(n) for n in mk.current_market(state)],
            "future": [plant_dict(n) for n in mk.future_market(state)],
            "step3_card": STEP3 in state["market"],
        },
        "deck_size": len(state["deck"]),
        "resource_market": {r: mk.market_spaces(state["rm"][r], r) for r in RESOURCES},
        "supply": dict(state["supply"]),
        "auction": None
        if auction is None
        else {
            "plant": plant_dict(auction["plant"]),
            "high_bid": auction["bid"],
            "leader": auction["leader"],
            "bidders": list(auction["bidders"]),
            "turn": auction["turn"],
        },
    }


def _all_regions(state: State) -> list[str]:
    from engine.powergrid.data import game_map

    return list(game_map(state["map"]).regions)
