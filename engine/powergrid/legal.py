"""`legal_actions`: every legal move, or a representative sample when there are too many.

Bids are sampled (minimum raise, +5, +10, all-in); builds list every reachable affordable
city; buys list every count from 1 to what is affordable and storable. Each list always
holds a way to make progress (pass, done, or a purchase in round 1).
"""

from __future__ import annotations

from engine.powergrid import market as mk
from engine.powergrid.data import RESOURCES, game_map
from engine.powergrid.rules import Action, State, build_options, current_players, expected


def legal_actions(state: State, player: str) -> list[Action]:
    if player not in current_players(state):
        return []
    want = expected(state)
    p = state["players"][player]
    money = p["money"]
    out: list[Action] = []
    if want == "choose_region":
        gm = game_map(state["map"])
        chosen = state["regions"]
        for r in gm.regions:
            if r not in chosen and (not chosen or any(gm.regions_adjacent(r, c) for c in chosen)):
                out.append({"type": "choose_region", "region": r})
    elif want == "choose_plant":
        if state["round"] != 1:
            out.append({"type": "pass"})
        for n in mk.current_market(state):
            if n <= money:
                out.append({"type": "open", "plant": n, "bid": n})
    elif want == "bid":
        high = state["auction"]["bid"]
        out.append({"type": "pass"})
        for bid in sorted({high + 1, high + 5, high + 10, money}):
            if high < bid <= money:
                out.append({"type": "raise", "bid": bid})
    elif want == "discard":
        new = state["pending_discard"]["plant"]
        out.extend({"type": "discard", "plant": n} for n in p["plants"] if n != new)
    elif want == "buy":
        out.append({"type": "done"})
        cap = mk.capacities(p["plants"])
        for r in RESOURCES:
            most = min(mk.room_for(cap, p["res"], r), state["rm"][r])
            total = 0
            for count, price in enumerate(mk.resource_prices(state["rm"][r], r, most), 1):
                total += price
                if total > money:
                    break
                out.append({"type": "buy", "resource": r, "count": count})
    elif want == "build":
        out.append({"type": "done"})
        for city, cost in build_options(state, player):
            if cost > money:
                break
            out.append({"type": "build", "city": city})
    elif want == "power":
        plants = p["plants"]
        for mask in range(1 << len(plants)):
            chosen = [plants[i] for i in range(len(plants)) if mask >> i & 1]
            if mk.fuel_plan(chosen, p["res"]) is not None:
                out.append({"type": "power", "plants": chosen})
    return out
