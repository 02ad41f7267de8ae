"""Pure price quotes for the chat: a line's route, price and the income it would bring.

`route` finds the cheapest chain of free segments between two cities that the player may
lay (ALT-22/26, ALT-D-12); `line_quote` checks a whole line against the rules on a copy of
the state and reports its price and the income of its end city afterwards (ALT-34/35/37).
"""

from __future__ import annotations

import heapq
from typing import Any

from engine.core import IllegalAction
from engine.core.jsonstate import copy_state
from engine.powergrid_alt import rules as r
from engine.powergrid_alt.graph import alt_map, distance

State = r.State


def route(state: State, player: str, start: str, end: str) -> list[str] | None:
    """The cheapest chain of unowned segments from `start` to `end` through cities the
    player holds nothing in (Dijkstra), or None."""
    am = alt_map(state["map"])
    owned = r.owned_segments(state)
    in_play = set(r.play_nodes(state))
    own = set(state["players"][player]["cities"])
    best = {start: 0}
    prev: dict[str, str] = {}
    heap = [(0, start)]
    while heap:
        d, node = heapq.heappop(heap)
        if node == end:
            path = [end]
            while path[-1] != start:
                path.append(prev[path[-1]])
            return path[::-1]
        if d > best.get(node, 1 << 30) or (node != start and node in own):
            continue
        for seg in am.incident[node]:
            nxt = seg.other(node)
            if seg.key in owned or nxt not in in_play:
                continue
            nd = d + seg.cost
            if nd < best.get(nxt, 1 << 30):
                best[nxt] = nd
                prev[nxt] = node
                heapq.heappush(heap, (nd, nxt))
    return None


def line_quote(state: State, player: str, cities: list[str]) -> dict[str, Any]:
    """{"ok", "rule", "reason", "cities", "segments": [{"from", "to", "cost"}], "total",
    "tp", "income2"} (refused: also "reason_key", "reason_params" to word it): the price of
    laying the line now and the income (in half-Elektro) of its end city once laid (0 when no
    plant feeds it)."""
    am = alt_map(state["map"])
    out: dict[str, Any] = {
        "ok": False,
        "rule": None,
        "reason": None,
        "cities": list(cities),
        "segments": [],
        "total": 0,
        "tp": False,
        "income2": 0,
    }
    try:
        plan = r.line_check(state, player, cities)
    except IllegalAction as err:
        out["rule"], out["reason"] = err.rule_id, err.english()
        # the params as raised, `Term`s and `Worded`s (a `Listed`) included: the quote is an
        # answer, never stored, and texts._reason words them in its reader's language
        out["reason_key"], out["reason_params"] = err.message_key, err.params
        return out
    segs = am.segments
    out.update(
        ok=True,
        cities=plan["nodes"],
        segments=[
            {"from": a, "to": b, "cost": segs[k].cost}
            for a, b, k in zip(plan["nodes"], plan["nodes"][1:], plan["segs"])
        ],
        total=plan["cost"],
        tp=plan["tp"],
    )
    trial = copy_state(state)
    r._line(trial, player, {"type": "line", "cities": cities}, [])
    end = plan["nodes"][-1]
    if r.qualifying_lines(trial, end) or end in r.plant_nodes(trial, player):
        out["income2"] = r.city_income2(trial, player, end)
    return out


def power_quote(state: State, player: str) -> dict[str, Any]:
    """What running every runnable plant would power and pay now (ALT-31..ALT-39)."""
    plants = r.runnable(state, player)
    known = r.Incomes(state)
    cities = r.best_selection(state, player, plants, known)
    bank, others = r.penalties(state, player, cities)
    return {
        "plants": plants,
        "cities": cities,
        "income": -(-r.income2(state, player, cities, known) // 2),
        "penalty_bank": bank,
        "penalty_players": others,
    }


def move_quote(state: State, player: str, action: dict[str, Any]) -> dict[str, Any]:
    """{"ok", "rule", "reason", "fee", "distance", "from_city", "to_city"} (refused: also
    "reason_key", "reason_params"): the ALT-21 fee
    of one transfer between two built plants (ALT-D-8: the cheapest map route, ALT-D-9:
    once per transfer), checked against the rules as it stands now."""
    out: dict[str, Any] = {
        "ok": False,
        "rule": None,
        "reason": None,
        "fee": 0,
        "distance": 0,
        "from_city": None,
        "to_city": None,
    }
    try:
        src, dst, _tokens, fee = r.move_check(state, player, action)
    except IllegalAction as err:
        out["rule"], out["reason"] = err.rule_id, err.english()
        out["reason_key"], out["reason_params"] = err.message_key, err.params
        return out
    a, b = state["built"][str(src)]["city"], state["built"][str(dst)]["city"]
    out.update(
        ok=True,
        fee=fee,
        distance=distance(state["map"], state["regions"], a, b),
        from_city=a,
        to_city=b,
    )
    return out
