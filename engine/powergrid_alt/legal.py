"""`legal_actions` for the variant: every legal move, or a representative sample.

The auction phases are the base game's. Purchases list every count onto every built plant;
Phase 4 lists every plant build and upgrade, transfers of a whole resource, TPs in passed-
through cities and lines of one segment (plus two segments through a city that cannot take
a TP). Power lists subsets of the runnable plants (capped), the engine choosing the cities.
Every list holds a way to make progress (`done`, `pass` or a power action).
"""

from __future__ import annotations

from itertools import combinations

from engine.core import IllegalAction
from engine.powergrid import legal as base_legal
from engine.powergrid import market as mk
from engine.powergrid.data import RESOURCES
from engine.powergrid_alt import ending, purchase
from engine.powergrid_alt import rules as r
from engine.powergrid_alt.graph import alt_map

Action = r.Action
State = r.State
MAX_POWER_SUBSETS = 64


def legal_actions(state: State, player: str) -> list[Action]:
    if player not in r.current_players(state):
        return []
    # an open vote to end by agreement is answered first (ending.py); proposing is not listed
    return ending.vote_actions(state, player) + _turn_actions(state, player)


def _turn_actions(state: State, player: str) -> list[Action]:
    want = r.expected(state)
    if want in ("choose_region", "choose_plant", "bid"):
        return base_legal.legal_actions(state, player)
    if want == "buy":
        return buy_actions(state, player)
    if want == "build":
        return build_actions(state, player)
    if want == "power":
        return power_actions(state, player)
    return []


def _ok(state: State, player: str, action: Action) -> bool:
    check = {
        "build_plant": lambda: r.build_plant_check(state, player, action["plant"], action["city"]),
        "upgrade": lambda: r.upgrade_check(state, player, action["old"], action["new"]),
        "move": lambda: r.move_check(state, player, action),
        "line": lambda: r.line_check(state, player, action["cities"]),
    }[action["type"]]
    try:
        check()
    except IllegalAction:
        return False
    return True


def buy_actions(state: State, player: str) -> list[Action]:
    """Every purchase open now; in version 2 after the player's own declared purchases (the
    market as it stands: nobody else's declaration is known, purchase.py)."""
    out: list[Action] = [{"type": "done"}]
    state = purchase.planned(state, player)
    money = state["players"][player]["money"]
    for plant in r.built_plants(state, player):
        for res in RESOURCES:
            most = min(r.room_on(state, plant, res), state["rm"][res])
            total = 0
            for count, price in enumerate(mk.resource_prices(state["rm"][res], res, most), 1):
                total += price
                if total > money:
                    break
                out.append({"type": "buy", "resource": res, "count": count, "plant": plant})
    return out


def line_candidates(state: State, player: str) -> list[list[str]]:
    """Routes of one segment, or two through a city where the player cannot end."""
    am = alt_map(state["map"])
    owned = r.owned_segments(state)
    in_play = set(r.play_nodes(state))
    own = state["players"][player]["cities"]
    starts = r.line_starts(state, player)

    def can_end(node: str) -> bool:
        if node in own:
            return True
        tps = state["tps"].get(node, [])
        return not r.plants_in(state, node) and len(tps) < r.MAX_TPS

    routes: list[list[str]] = []
    for s in starts:
        for seg in am.incident[s]:
            b = seg.other(s)
            if seg.key in owned or b not in in_play:
                continue
            if can_end(b):
                routes.append([s, b])
            elif b not in own:
                for seg2 in am.incident[b]:
                    c = seg2.other(b)
                    if c != s and seg2.key not in owned and c in in_play and can_end(c):
                        routes.append([s, b, c])
    unique = {tuple(x) for x in routes}
    return [list(x) for x in sorted(unique)]


def build_actions(state: State, player: str) -> list[Action]:
    out: list[Action] = [{"type": "done"}]
    money = state["players"][player]["money"]
    hand = r.hand(state, player)
    mine = r.built_plants(state, player)
    if money >= r.PLANT_COST:
        for plant in hand:
            for node in r.play_nodes(state):
                a = {"type": "build_plant", "plant": plant, "city": node}
                if _ok(state, player, a):
                    out.append(a)
    for old in mine:
        for new in hand:
            a = {"type": "upgrade", "old": old, "new": new}
            if _ok(state, player, a):
                out.append(a)
    for src in mine:
        held = state["built"][str(src)]["res"]
        for dst in mine:
            for res in RESOURCES:
                count = min(held[res], r.room_on(state, dst, res)) if dst != src else 0
                if count:
                    a = {"type": "move", "from": src, "to": dst, "tokens": {res: count}}
                    if _ok(state, player, a):
                        out.append(a)
    if money >= r.TP_COST:
        for node in sorted(
            {n for ln in state["lines"] if ln["owner"] == player for n in ln["nodes"][1:-1]}
        ):
            try:
                r.tp_check(state, player, node)
            except IllegalAction:
                continue
            out.append({"type": "tp", "city": node})
    for route in line_candidates(state, player):
        a = {"type": "line", "cities": route}
        if _ok(state, player, a):
            out.append(a)
    return out


def power_actions(state: State, player: str) -> list[Action]:
    plants = r.runnable(state, player)
    out: list[Action] = []
    for k in range(len(plants), -1, -1):
        for combo in combinations(plants, k):
            out.append({"type": "power", "plants": list(combo)})
            if len(out) >= MAX_POWER_SUBSETS:
                return out
    return out
