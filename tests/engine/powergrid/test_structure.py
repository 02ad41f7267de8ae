"""The base game and its variant (issue 26, the variant part): no import cycle between the
Power Grid modules (rules.py no longer imports orders.py), and the base never asks whether
it is playing the variant (the variant overrides `current_players` for its Phase 5)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from engine.powergrid import GAME
from engine.powergrid_alt import GAME as ALT
from engine.powergrid_alt import rules as alt_rules
from tests.engine.powergrid.helpers import new_game, set_phase

ENGINE = Path(__file__).resolve().parents[3] / "engine"


def _modules() -> dict[str, Path]:
    out = {}
    for path in ENGINE.rglob("*.py"):
        name = ".".join(path.relative_to(ENGINE.parent).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


def _imports(path: Path, known: dict[str, Path]) -> set[str]:
    """Every engine module `path` imports, at the top or inside a function."""
    deps = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("engine"):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                deps.add(sub if sub in known else node.module)
        elif isinstance(node, ast.Import):
            deps.update(a.name for a in node.names if a.name.startswith("engine"))
    return {d for d in deps if d in known}


def test_no_import_cycle_among_the_power_grid_modules() -> None:
    known = _modules()
    graph = {name: _imports(path, known) - {name} for name, path in known.items()}
    assert "engine.powergrid.orders" not in graph["engine.powergrid.rules"]

    def reach(start: str) -> set[str]:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for dep in graph[todo.pop()]:
                if dep not in seen:
                    seen.add(dep)
                    todo.append(dep)
        return seen

    cyclic = [m for m in graph if m.startswith("engine.powergrid") and m in reach(m)]
    assert cyclic == []


def test_the_base_never_tests_for_the_variant_id() -> None:
    for path in (ENGINE / "powergrid").glob("*.py"):
        text = path.read_text()
        assert not re.search(r"\[\"game\"\]\s*[!=]=", text), path.name


def test_phase_5_simultaneous_in_the_base_in_turn_in_the_variant() -> None:
    state = set_phase(new_game(3, 1), "bureaucracy", order=["a", "b", "c"])
    assert GAME.current_players(state) == ["a", "b", "c"]  # PG-42
    alt = ALT.setup(["a", "b", "c"], {}, 1)
    alt.update(phase="bureaucracy", turn=1, order=["a", "b", "c"])
    assert alt_rules.current_players(alt) == ["b"]  # ALT-30: in player order
    assert ALT.current_players(alt) == ["b"]
