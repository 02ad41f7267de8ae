"""Bots: `random` (uniform among legal phase actions) and `economic` (builds, mixes, transmits).

Both choose only from `legal_actions`, so every move they make is legal.
"""

from __future__ import annotations

from typing import Any

from engine.core import Action, BotFn, Rng, State
from engine.iec import choices as ch
from engine.iec.actions import legal_actions
from engine.iec.rules import own, scen

TECH_PREFERENCE = (8, 5, 6, 13, 7, 15, 2, 9, 12, 11, 10, 14, 16, 4, 1, 3, 17, 18, 19)
WANTED = (
    ("transmitter", 2),
    ("mixer", 2),
    ("storage", 3),
    ("laboratory", 1),
    ("launcher", 1),
    ("transmitter", 3),
    ("storage", 4),
    ("mixer", 3),
    ("developer", 2),
    ("reactor", 2),
)
KIND_VALUE = {"reactor": 3, "transmitter": 2, "launcher": 2, "developer": 1.5}


def random_bot(state: State, player: str, rng: Rng) -> Action:
    return rng.choice(legal_actions(state, player))


def _wanted_kind(state: State, player: str, kinds: list[str]) -> str | None:
    counts: dict[str, int] = {}
    for b in own(state, player):
        counts[b["kind"]] = counts.get(b["kind"], 0) + 1
    for kind, n in WANTED:
        if counts.get(kind, 0) < n and kind in kinds:
            return kind
    return None


def _score(state: State, player: str, a: Action) -> float:
    t = a["type"]
    if t in ("transmit", "research"):
        return 10.0
    if t == "tech":
        return 20.0 - TECH_PREFERENCE.index(a["tech"])
    if t == "power":
        return 0.5
    if t == "build":
        cell = a["cell"]
        if a.get("kind") is None:
            return 8.0
        if a["kind"] == "mine":
            return 7.0 if sum(1 for _ in own(state, player, "mine")) < 5 else 1.0
        want = _wanted_kind(state, player, [a["kind"]])
        return 6.0 - 0.01 * scen(state).cells.index(cell) if want else -1.0
    if t == "prepare":
        s = scen(state)
        if a["cell"] in s.area_of and ch.kinds_for(state, a["cell"]):
            return 4.0
        return 3.0 if ch.kinds_for(state, a["cell"]) else -1.0
    if t == "fire":
        score = 6.0
        for cell, n in a["targets"].items():
            b = state["buildings"][cell]
            thr = ch.hit_threshold(state, state["buildings"][a["launcher"]], cell) or 7
            score += n * (7 - thr) / 6 + KIND_VALUE.get(b["kind"], 1.0)
        return score
    if t == "activate":
        b = state["buildings"].get(a["cell"])
        return 6.0 if b is not None and b["owner"] != player else -1.0
    if t == "sweep":
        mine = all(tok["owner"] == player for tok in state["tokens"] if tok["cell"] == a["cell"])
        return -1.0 if mine else 3.0
    if t == "subsidy":
        return 3.0 if a["kind"] in ("transmitter", "mixer", "storage") else 1.0
    if t == "peek":
        return 1.0
    return 0.0


def _mix_order(state: State, player: str) -> list[str]:
    totals: dict[str, int] = {"AB": 0, "BC": 0, "AC": 0}
    for st in own(state, player, "storage"):
        for g in totals:
            totals[g] += st["goods"][g]
    needs_ac = bool(own(state, player, "laboratory") or own(state, player, "launcher"))
    wanted = {"AB": 2, "BC": 2, "AC": 1 if needs_ac else 0}
    return sorted(totals, key=lambda g: (totals[g] - wanted[g], g))


def _transfers(state: State, player: str) -> list[dict[str, Any]]:
    """Move compound goods from storages fed by mines to storages that are not."""
    s = scen(state)
    stores = own(state, player, "storage")
    mines = own(state, player, "mine")
    r_mine = int(s.buildings["mine"]["link"])
    r_st = int(s.buildings["storage"]["range"])

    def fed(st: dict[str, Any]) -> bool:
        return any(s.within(st["cell"], m["cell"], r_mine) for m in mines)

    moves = []
    for a in stores:
        for b in stores:
            if a is not b and fed(a) and not fed(b) and s.within(a["cell"], b["cell"], r_st):
                moves += [
                    {"from": a["cell"], "to": b["cell"], "good": g, "n": 4}
                    for g in ("AB", "BC", "AC")
                ]
    return moves


def economic_bot(state: State, player: str, rng: Rng) -> Action:
    orders = state["players"][player]["orders"]
    mix = _mix_order(state, player)
    if orders["mix"] != mix:
        return {"type": "mix", "recipes": mix}
    moves = _transfers(state, player)
    if orders["transfers"] != moves:
        return {"type": "transfers", "moves": moves}
    acts = legal_actions(state, player)
    best: list[Action] = []
    best_score = 0.0
    for a in acts:
        s = _score(state, player, a)
        if s > best_score + 1e-9:
            best, best_score = [a], s
        elif abs(s - best_score) <= 1e-9 and s > 0:
            best.append(a)
    if not best:
        done = [a for a in acts if a["type"] == "done"]
        return done[0] if done else acts[0]
    return best[0] if len(best) == 1 else rng.choice(best)


BOTS: dict[str, BotFn] = {"random": random_bot, "economic": economic_bot}

__all__: list[Any] = ["BOTS"]
