"""Hexania rules: setup, the turn (roll, act, end), elimination and the winner.

A game of Hexania reads as follows. Setup (HEX-G-9, HEX-T-2): players take sides at random,
roll off for the start, and play proceeds clockwise by side; the board is empty (HEX-D-23).
A turn (HEX-T-3, HEX-2): the player rolls two dice; points = dice + last turn's bonus. If no
action is affordable he is eliminated (HEX-2.4, HEX-D-7). Otherwise he performs actions
(`actions.py`) in any order while he can pay; the turn ends only when nothing is affordable
(HEX-2, corrections 1.1: /end is refused while an action is affordable), and only the points
that buy nothing are lost (HEX-2.2). /end before any action is a resignation (HEX-2.4).
Destroyed enemy pieces give bonus points for his next turn (HEX-17). The last player standing
wins; with the round limit (HEX-OPT-LIMIT, an addition to the source) the player with most
pieces after round R wins, then the one with more bonus earned in round R, else it is shared.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from engine.core import N_, Action, Event, IllegalAction, Listed, Ranking, Rng, State
from engine.core.rng import new_rng_state
from engine.hexania import actions as act
from engine.hexania import legal
from engine.hexania.board import (
    BIRTH_COST,
    DICE,
    DIE_SIDES,
    DIRECTION_NAMES,
    HOMELANDS,
    NEIGHBOURS,
    SIDE_ORDER,
    SIDES_BY_PLAYERS,
)
from engine.hexania.figures import Figures, components
from engine.hexania.options import normalize
from engine.hexania.state_types import HexaniaState, HexState, Turn, plain

MIN_PLAYERS = 2
MAX_PLAYERS = 6


# --------------------------------------------------------------------------- setup


def setup(players: list[str], options: dict[str, str], seed: int) -> State:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalAction("HEX-1", N_("Hexania is played by 2 to 6 players."))
    if len(set(players)) != len(players):
        raise IllegalAction("HEX-1", N_("Each player sits once."))
    opts = normalize(options)
    rng_box = new_rng_state(seed)
    rng = Rng(rng_box)
    # HEX-G-9: players are assigned to the used sides at random.
    sides = list(SIDES_BY_PLAYERS[len(players)])
    seated = list(players)
    rng.shuffle(seated)
    side_of = dict(zip(seated, sides))
    # HEX-T-2 / HEX-D-5: roll-off, tied highest re-roll among themselves.
    rolloff: list[dict[str, int]] = []
    contenders = list(players)
    while True:
        rolls = {p: sum(rng.die(DIE_SIDES) for _ in range(DICE)) for p in contenders}
        rolloff.append(rolls)
        best = max(rolls.values())
        contenders = [p for p in contenders if rolls[p] == best]
        if len(contenders) == 1:
            break
    starter = contenders[0]
    clockwise = sorted(players, key=lambda p: SIDE_ORDER.index(side_of[p]))
    i = clockwise.index(starter)
    order = clockwise[i:] + clockwise[:i]
    state: HexaniaState = {
        "game": "hexania",
        "players": list(players),
        "options": opts,
        "rng": rng_box,
        "board": {},
        "eliminated": [],
        "lost_piece": {p: False for p in players},
        "bonus": {p: 0 for p in players},
        "round_bonus": {p: 0 for p in players},
        "turns": {p: 0 for p in players},
        "round": 1,
        "pending": list(order),
        "turn": None,
        "last": None,
        "over": False,
        "result": None,
        "end_reason": None,
        "sides": side_of,
        "order": order,
        "rolloff": rolloff,
    }
    _begin_next_turn(state, [])
    return plain(state)


# --------------------------------------------------------------------------- queries


def active_players(state: HexState) -> list[str]:
    return [p for p in state["order"] if p not in state["eliminated"]]


def running_turn(state: HexState) -> Turn:
    """The turn being played (callers know one runs: its player is acting)."""
    turn = state["turn"]
    if turn is None:
        raise IllegalAction("HEX-T-2", N_("It is not your turn."))
    return turn


def current_players(state: HexState) -> list[str]:
    turn = state["turn"]
    return [] if state["over"] or turn is None else [turn["player"]]


def candidate_actions(pos: act.Position) -> Iterator[Action]:
    """Every structurally possible action of `pos.player` (unchecked, without keep cells).

    Moves come per figure and direction with growing steps; the caller stops a direction at the
    first step that leaves the board or meets an own piece.
    """
    board, me = pos.board, pos.player
    points = pos.points if pos.points is not None else 0
    if points >= BIRTH_COST:
        for cell in pos.homeland:
            if board.get(cell) != me:
                yield {"type": "birth", "cell": cell}
    for fig in pos.figs.of_player(me):
        if len(fig) > points:  # growth and regroup cost at least the mass
            continue
        anchor = fig[0]
        figset = set(fig)
        border = sorted({n for c in fig for n in NEIGHBOURS[c] if board.get(n) != me})
        for cell in border:
            yield {"type": "grow", "figure": anchor, "cell": cell}
        if len(fig) >= 2:
            for src in fig:
                rest = figset - {src}
                targets = sorted({n for c in rest for n in NEIGHBOURS[c] if board.get(n) != me})
                for cell in targets:
                    yield {"type": "regroup", "from": src, "to": cell}


def checked_legal(pos: act.Position, limit: int | None) -> Iterator[tuple[Action, act.Plan]]:
    """Legal affordable actions with their plans (stops after `limit`): the reference.

    Every candidate goes through the full validation path (`act.plan`). An action that makes a
    figure collapse comes once per cell the player may keep. `legal.legal_actions` gives the
    same actions in the same order far faster; the tests compare the two.
    """
    found = 0
    points = pos.points if pos.points is not None else 0

    def accept(action: Action, plan_: act.Plan) -> Iterator[tuple[Action, act.Plan]]:
        if plan_.collapse and plan_.keep is None:
            for keep in act.keep_choices(pos, plan_):
                yield {**action, "keep": keep}, replace(plan_, keep=keep)
        elif act.check_complete(pos, plan_) is None:
            yield action, plan_

    for action in candidate_actions(pos):
        p = act.plan(pos, action)
        if isinstance(p, act.Plan) and p.cost <= points:
            if not p.collapse:
                yield action, p
                found += 1
                if limit is not None and found >= limit:
                    return
                continue
            for item in accept(action, p):
                yield item
                found += 1
                if limit is not None and found >= limit:
                    return
    for fig in pos.figs.of_player(pos.player):
        base_min = 1 if pos.opts["viscous"] else len(fig)
        for direction in DIRECTION_NAMES:
            for steps in range(1, points - base_min + 1):
                action = {"type": "move", "figure": fig[0], "dir": direction, "steps": steps}
                p = act.plan(pos, action)
                if isinstance(p, act.Refusal):
                    if p.rule_id in ("HEX-D-11", "HEX-8"):
                        break
                    continue
                if p.cost > points:
                    break
                if not p.collapse:
                    yield action, p
                    found += 1
                    if limit is not None and found >= limit:
                        return
                    continue
                for item in accept(action, p):
                    yield item
                    found += 1
                    if limit is not None and found >= limit:
                        return


def legal_plans(state: HexState, player: str) -> list[tuple[Action, act.Plan]]:
    """Every legal affordable action of the current player with what it would do."""
    if player not in current_players(state):
        return []
    # The plans come with the actions (legal.legal_plans): the same as `act.plan` gives
    # (tests/engine/hexania/test_legal_speed_invariants.py), without re-validating each.
    return list(legal.legal_plans(act.Position(plain(state), player)))


def legal_actions(state: HexState, player: str) -> list[Action]:
    """The affordable actions; /end only before acting (a resignation, HEX-2.4) or when
    nothing is affordable (HEX-2: the turn never ends early by choice)."""
    if player not in current_players(state):
        return []
    out = list(legal.legal_actions(act.Position(plain(state), player)))
    if not out or running_turn(state)["actions"] == 0:
        out.append({"type": "end"})
    return out


def can_act(state: HexState, player: str) -> bool:
    """At least one affordable legal action (HEX-2 turn end, HEX-2.4 elimination)."""
    return any(True for _ in legal.legal_actions(act.Position(plain(state), player)))


# At most this many examples in the HEX-2 refusal of /end (the cheapest of each kind).
AFFORDABLE_EXAMPLES = 4


def affordable_examples(state: HexState, player: str) -> list[tuple[Action, int]]:
    """HEX-2: the cheapest affordable action of each kind (birth, grow, move, regroup)."""
    cheapest: dict[str, tuple[Action, int]] = {}
    for action, plan_ in legal_plans(state, player):
        kind = action["type"]
        if kind not in cheapest or plan_.cost < cheapest[kind][1]:
            cheapest[kind] = (action, plan_.cost)
    order = ("birth", "grow", "move", "regroup")
    return [cheapest[k] for k in order if k in cheapest][:AFFORDABLE_EXAMPLES]


# --------------------------------------------------------------------------- apply


def price(state: HexState, player: str, action: Action) -> act.Plan:
    """The plan of an action, checked except for the points (for /cost quotes)."""
    pos = act.Position(plain(state), player)
    pos.points = None
    p = act.plan(pos, action)
    if isinstance(p, act.Refusal):
        raise p.error()
    return p


def apply(state: HexState, player: str, action: Action) -> tuple[State, list[Event]]:
    if state["over"]:
        raise IllegalAction("HEX-2.6", N_("The game is over."))
    if player not in current_players(state):
        raise IllegalAction("HEX-T-2", N_("It is not your turn."))
    if not isinstance(action, dict):
        raise IllegalAction("syntax", N_("An action is a JSON object."))
    events: list[Event] = []
    if action.get("type") == "end":
        if set(action) - {"type"}:
            raise IllegalAction("syntax", N_("/end takes no arguments."))
        turn = running_turn(state)
        if turn["actions"] == 0:
            # HEX-2.4: a player who will not act in his turn is eliminated.
            _eliminate(state, player, "resigned", events)
        else:
            # HEX-2 (corrections 1.1): actions go on until nothing affordable remains. The
            # table adds " (HEX-2)" and "See /rules HEX-2." to a refusal: not in the text.
            examples = affordable_examples(state, player)
            if examples:
                raise IllegalAction(
                    "HEX-2",
                    N_(
                        "The turn ends only when nothing is affordable. "
                        "Points left: {points}; still affordable, e.g. {actions}."
                    ),
                    points=turn["points"],
                    actions=Listed(f"{act.action_text(a)} ({c})" for a, c in examples),
                )
            _end_turn(state, "no_points", events)
        _begin_next_turn(state, events)
        return plain(state), events
    pos = act.Position(plain(state), player)
    p = act.plan(pos, action)
    if isinstance(p, act.Refusal):
        raise p.error()
    refusal = act.check_complete(pos, p)
    if refusal is not None:
        raise refusal.error()
    _commit(state, pos, p, action, events)
    if not can_act(state, player):
        _end_turn(state, "no_points", events)
        _begin_next_turn(state, events)
    return plain(state), events


def _commit(
    state: HexState, pos: act.Position, p: act.Plan, action: Action, events: list[Event]
) -> None:
    board = state["board"]
    player = p.player
    rnd = state["round"]
    turn = running_turn(state)
    turn["points"] -= p.cost
    turn["actions"] += 1
    for c in p.vacated:
        del board[c]
    for c in p.destroyed:
        del board[c]
    for c in p.added:
        board[c] = player
    event: Event = {
        "type": p.kind,
        "round": rnd,
        "player": player,
        "cost": p.cost,
        "base": p.base,
        "steps": p.steps,
        "armour": p.armour_cost,
        "points_left": turn["points"],
        "cells": list(p.added),
    }
    if p.kind == "birth":
        event["cell"] = action["cell"]
    elif p.kind == "grow":
        event.update(figure=action["figure"], cell=action["cell"])
    elif p.kind == "move":
        # HEX-6: the report names where the named piece landed. `added` lists the landing
        # cells in the order of `vacated` (the figure's cells), not the named piece first:
        # "O12 moves SE 3, now at Q12" was said of a piece that reached R12.
        landed = p.added[p.vacated.index(action["figure"])]
        event.update(figure=action["figure"], dir=action["dir"], cell=landed)
    else:
        event.update(src=action["from"], cell=action["to"])
    event["mass"] = 1 if p.collapse else len(p.merged)
    events.append(event)
    # HEX-14..17: destroyed pieces, the split of what remains, bonus for the next turn.
    by_victim: dict[str, list[str]] = {}
    for c, owner in p.destroyed.items():
        by_victim.setdefault(owner, []).append(c)
    for victim, cells in by_victim.items():
        hit = [a for a in p.armour if a["owner"] == victim]
        parts = []
        for a in hit:
            fig = pos.figs.figure_at(a["cells"][0])
            remain = [c for c in fig if c not in p.destroyed]
            parts.append(sorted(len(g) for g in components(remain)))
        state["lost_piece"][victim] = True
        events.append(
            {
                "type": "destroyed",
                "round": rnd,
                "player": player,
                "victim": victim,
                "cells": cells,
                "count": len(cells),
                "remains": parts,
            }
        )
    if p.destroyed:
        state["bonus"][player] += len(p.destroyed)
        state["round_bonus"][player] += len(p.destroyed)
    # HEX-13: collapse, keeping the chosen cell; no bonus to anyone.
    if p.collapse:
        for c in p.merged:
            if c != p.keep:
                del board[c]
        events.append(
            {
                "type": "collapsed",
                "round": rnd,
                "player": player,
                "mass": len(p.merged),
                "keep": p.keep,
                "removed": len(p.merged) - 1,
            }
        )


# --------------------------------------------------------------------------- turn flow


def _roll(state: HexState) -> list[int]:
    rng = Rng(state["rng"])
    return [rng.die(DIE_SIDES) for _ in range(DICE)]


def _end_turn(state: HexState, reason: str, events: list[Event]) -> None:
    turn = running_turn(state)
    events.append(
        {
            "type": "turn_ended",
            "round": state["round"],
            "player": turn["player"],
            "reason": reason,
            "lost": turn["points"],
            "actions": turn["actions"],
        }
    )
    state["turn"] = None
    _close_round_if_done(state, events)


def _eliminate(state: HexState, player: str, reason: str, events: list[Event]) -> None:
    """HEX-2.4/2.5: out of the game, pieces removed at once, no bonus for anyone."""
    removed = [c for c, o in state["board"].items() if o == player]
    for c in removed:
        del state["board"][c]
    state["eliminated"].append(player)
    state["bonus"][player] = 0
    if state["turn"] is not None and state["turn"]["player"] == player:
        state["turn"] = None
    events.append(
        {
            "type": "eliminated",
            "round": state["round"],
            "player": player,
            "reason": reason,
            "removed": len(removed),
        }
    )
    if len(active_players(state)) == 1:
        _game_over(state, "last_player", events)
    else:
        _close_round_if_done(state, events)


def _close_round_if_done(state: HexState, events: list[Event]) -> None:
    if state["over"]:
        return
    active = active_players(state)
    state["pending"] = [p for p in state["pending"] if p in active]
    if state["pending"] or (state["turn"] is not None):
        return
    events.append({"type": "round_ended", "round": state["round"]})
    limit = state["options"]["rounds"]
    if limit and state["round"] >= limit:
        _game_over(state, "round_limit", events)
        return
    state["round"] += 1
    state["round_bonus"] = {p: 0 for p in state["players"]}
    state["pending"] = list(active)
    events.append({"type": "round_started", "round": state["round"]})


def _next_player(state: HexState) -> str:
    order = state["order"]
    last = state["last"]
    start = 0 if last is None else order.index(last) + 1
    for i in range(len(order)):
        p = order[(start + i) % len(order)]
        if p not in state["eliminated"]:
            return p
    raise AssertionError("no active player")


def _begin_next_turn(state: HexState, events: list[Event]) -> None:
    """HEX-T-3: the next player rolls; HEX-D-7: he is eliminated if he cannot act."""
    while not state["over"]:
        player = _next_player(state)
        state["last"] = player
        state["turns"][player] += 1
        if player in state["pending"]:
            state["pending"].remove(player)
        dice = _roll(state)
        bonus = state["bonus"][player]
        state["bonus"][player] = 0
        state["turn"] = {
            "player": player,
            "dice": dice,
            "bonus": bonus,
            "points": sum(dice) + bonus,
            "actions": 0,
        }
        events.append(
            {
                "type": "dice_rolled",
                "round": state["round"],
                "player": player,
                "dice": dice,
                "bonus": bonus,
                "points": sum(dice) + bonus,
            }
        )
        if can_act(state, player):
            return
        _eliminate(state, player, "no_action", events)


def _game_over(state: HexState, reason: str, events: list[Event]) -> None:
    state["over"] = True
    state["turn"] = None
    state["end_reason"] = reason
    state["result"] = ranking(state, reason)
    event: Event = {
        "type": "game_over",
        "round": state["round"],
        "reason": reason,
        "ranking": state["result"],
    }
    if reason == "round_limit":
        event["criterion"] = deciding_criterion(state)
    events.append(event)


def deciding_criterion(state: HexState) -> str:
    """HEX-OPT-LIMIT: what decided the round-limit result: "pieces", "bonus" or "shared"."""
    active = active_players(state)
    winners = (state["result"] or ranking(state, "round_limit"))[0]
    if len(winners) > 1:
        return "shared"
    top = pieces_of(state, winners[0])
    if sum(1 for p in active if pieces_of(state, p) == top) > 1:
        return "bonus"
    return "pieces"


def pieces_of(state: HexState, player: str) -> int:
    return sum(1 for o in state["board"].values() if o == player)


def ranking(state: HexState, reason: str) -> Ranking:
    """HEX-2.6: last player standing; at the round limit most pieces, then round-R bonus."""
    active = active_players(state)
    out: Ranking = []
    if reason == "round_limit":
        keys = sorted(
            {(pieces_of(state, p), state["round_bonus"][p]) for p in active}, reverse=True
        )
        for key in keys:
            out.append([p for p in active if (pieces_of(state, p), state["round_bonus"][p]) == key])
    else:
        out.append(active)
    out.extend([p] for p in reversed(state["eliminated"]))
    return out


def is_over(state: HexState) -> bool:
    return bool(state["over"])


def result(state: HexState) -> Ranking:
    return list(state["result"] or [])


# --------------------------------------------------------------------------- view


def view(state: HexState, viewer: str | None) -> dict[str, Any]:
    """Everything but the RNG (which would tell future dice); Hexania has no secrets."""
    active = active_players(state)
    figs = Figures(state["board"])
    players: dict[str, Any] = {}
    for seat, p in enumerate(state["players"]):
        mine = figs.of_player(p)
        players[p] = {
            "seat": seat,
            "side": state["sides"][p],
            "homeland": list(HOMELANDS[state["sides"][p]]) if p in active else [],
            "active": p in active,
            "pieces": sum(len(f) for f in mine),
            "figures": [{"cells": f, "mass": len(f)} for f in mine],
            "bonus_next": state["bonus"][p],
            "round_bonus": state["round_bonus"][p],
            "turns": state["turns"][p],
            "lost_piece": state["lost_piece"][p],
        }
    turn = state["turn"]
    return {
        "game": "hexania",
        "viewer": viewer,
        "round": state["round"],
        "rounds": state["options"]["rounds"],
        "options": dict(state["options"]),
        "order": list(state["order"]),
        "rolloff": [dict(r) for r in state["rolloff"]],
        "current_players": current_players(state),
        "turn": None if turn is None else {**turn, "dice": list(turn["dice"])},
        "players": players,
        "board": dict(state["board"]),
        "eliminated": list(state["eliminated"]),
        "over": state["over"],
        "result": state["result"],
        "end_reason": state["end_reason"],
    }
