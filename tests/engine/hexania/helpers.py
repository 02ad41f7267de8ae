"""Small builders of Hexania positions for the tests."""

from __future__ import annotations

from typing import Any

from engine.core import Rng, canonical_json
from engine.hexania import GAME
from engine.hexania.board import SIDE_ORDER, SIDES_BY_PLAYERS


def position(
    pieces: dict[str, list[str]] | None = None,
    *,
    players: tuple[str, ...] = ("blue", "red"),
    sides: tuple[str, ...] | None = None,
    turn: str = "blue",
    points: int = 12,
    first: bool = False,
    acted: int = 0,
    options: dict[str, str] | None = None,
    dice: tuple[int, int] = (6, 6),
) -> dict[str, Any]:
    """A state where `turn` has `points` to spend and `pieces` stand on the board.

    `sides` defaults to the HEX-G-9 sides for the player count, in player order. Every player
    has had a turn already unless `first` (then it is everybody's first round).
    """
    state = GAME.setup(list(players), dict(options or {}), 1)
    sides = sides or SIDES_BY_PLAYERS[len(players)]
    state["sides"] = dict(zip(players, sides))
    clockwise = sorted(players, key=lambda p: SIDE_ORDER.index(state["sides"][p]))
    i = clockwise.index(turn)
    state["order"] = clockwise[i:] + clockwise[:i]
    state["board"] = {c: owner for owner, cells in (pieces or {}).items() for c in cells}
    state["turns"] = {p: (1 if p == turn else 0) if first else 2 for p in players}
    state["turn"] = {
        "player": turn,
        "dice": list(dice),
        "bonus": points - sum(dice) if points > sum(dice) else 0,
        "points": points,
        "actions": acted,
    }
    state["last"] = turn
    state["pending"] = [p for p in state["order"] if p != turn]
    state["round"] = 1 if first else 3
    return state


def set_next_roll(state: dict[str, Any], dice: tuple[int, int]) -> None:
    """Make the game's RNG produce `dice` as the next roll (a seed search, deterministic)."""
    for s in range(100_000):
        box = {"s": s}
        rng = Rng(box)
        if (rng.die(), rng.die()) == dice:
            state["rng"] = {"s": s}
            return
    raise AssertionError("no seed found")


def pieces(state: dict[str, Any], player: str) -> list[str]:
    return sorted(c for c, o in state["board"].items() if o == player)


def frozen(state: dict[str, Any]) -> str:
    return canonical_json(state)


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def finish_turn(state: dict[str, Any], player: str) -> tuple[dict[str, Any], list[Any]]:
    """End `player`'s turn (he has acted) as if every point were spent.

    HEX-2 (rules v1.1): /end after acting is accepted only when nothing is affordable, so the
    tests that only need the next turn drop the points left first.
    """
    assert state["turn"]["actions"] > 0
    state["turn"]["points"] = 0
    return GAME.apply(state, player, {"type": "end"})


def refusal_texts(package: str) -> list[tuple[str, int, str]]:
    """(file, line, English text) of every refusal a game's modules raise: the message of each
    call to IllegalAction, Refusal, ParseError or a module's `_bad`, written in the call or
    through a name set to an `N_` text in the same module (the rule id is not read)."""
    import ast
    from pathlib import Path

    makers = {"IllegalAction": 1, "Refusal": 1, "_bad": 1, "ParseError": 0}  # the text's place
    out: list[tuple[str, int, str]] = []
    root = Path(__file__).resolve().parents[3]  # the repository
    for path in sorted((root / package).glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named: dict[str, list[str]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    named.setdefault(target.id, []).extend(_texts(node.value, {}))
        for node in ast.walk(tree):
            at = makers.get(_called(node)) if isinstance(node, ast.Call) else None
            if isinstance(node, ast.Call) and at is not None and len(node.args) > at:
                out += [(path.name, node.lineno, s) for s in _texts(node.args[at], named)]
    return out


def _called(call: Any) -> str:
    import ast

    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _texts(node: Any, named: dict[str, list[str]]) -> list[str]:
    """The `N_` texts (and plain strings) an argument holds or names."""
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name):
        return named.get(node.id, [])
    if isinstance(node, ast.Call) and _called(node) == "N_":
        return [s for a in node.args for s in _texts(a, named)]
    if isinstance(node, ast.IfExp):
        return _texts(node.body, named) + _texts(node.orelse, named)
    return []
