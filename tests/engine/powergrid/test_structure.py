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


def test_no_module_of_power_grid_hexania_or_core_passes_about_800_lines() -> None:
    """Issue 26: modules split along their jobs (rules.py by phase, commands.py by job)."""
    long = {
        str(path.relative_to(ENGINE)): n
        for folder in ("powergrid", "hexania", "core")
        for path in (ENGINE / folder).rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > 820
    }
    assert not long, long


BASE_RULES_NAMES = (
    "after_purchase", "begin_step3", "choose_region", "current_players", "draw_plant", "emit",
    "end_bureaucracy", "expected", "lowest_plant", "max_cities", "open_auction", "pass_turn",
    "raise_bid", "random_connected_regions", "remove_too_low", "require_expected",
    "resolve_step3", "setup", "start_game", "start_turn_phase", "build_options",
    "cheapest_city", "limits", "net", "register_orders", "chooser", "is_over", "apply",
)  # fmt: skip
BASE_COMMANDS_NAMES = (
    "COMMANDS", "EVENT_TEXTS", "HYBRID_FUELS", "MAX_COMPLETIONS", "PLANT_WORD", "RESOURCE_WORDS",
    "USAGE", "cities_of", "complete", "int_word", "is_picture_event", "money_text", "phase_text",
    "region_of", "resource_of", "resource_text", "split_counts", "undoable", "RESOURCE_NAMES",
    "cost_text",
)  # fmt: skip


def test_the_variant_finds_the_base_names_it_builds_on() -> None:
    """The names engine/powergrid_alt and the tests import from the base stay where they were
    before the split (rules.py and commands.py re-export them)."""
    from engine.powergrid import commands, rules

    assert all(callable(getattr(rules, name)) for name in BASE_RULES_NAMES)
    assert all(hasattr(commands, name) for name in BASE_COMMANDS_NAMES)


def test_one_reader_of_the_map_files() -> None:
    """Issue 26, one implementation per idea: the rules' graph, the chat's map data and the
    picture's layout all parse data.map_text; no other module opens data/maps/."""
    from engine.powergrid.data import game_map, map_text

    readers = sorted(
        str(path.relative_to(ENGINE))
        for folder in ("powergrid", "powergrid_alt")
        for path in (ENGINE / folder).rglob("*.py")
        if re.search(r"MAPS_DIR\s*/|[\"']maps/", path.read_text(encoding="utf-8"))
    )
    assert readers == ["powergrid/data.py"]
    assert game_map("germany").raw["cities"][0]["name"] in map_text("germany")


def test_the_chats_power_and_the_standing_order_choose_the_same_run() -> None:
    """Issue 26, one solver: /power without plants (read from the view) and /power auto (read
    from the state) both come from bureaucracy.cheapest_run (PG-42: most cities first)."""
    from engine.core import Rng
    from engine.core.rng import new_rng_state
    from engine.powergrid import chat_view, commands, orders

    state = new_game(3, 2)
    rng = Rng(new_rng_state(2))
    compared = 0
    for _ in range(400):
        if GAME.is_over(state):
            break
        player = GAME.current_players(state)[0]
        if state["phase"] == "bureaucracy":
            chat = GAME.parse(state, player, "power", [])
            assert chat == orders.auto_power(state, player)
            view = chat_view.view_of(state, player)
            assert chat["plants"] == commands.best_power(view, player)[0]
            compared += 1
        state, _events = GAME.apply(state, player, GAME.bots["heuristic"](state, player, rng))
    assert compared >= 6


_MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse"}
# Where a Power Grid log may change: `log_event` appends and trims (its all-public memo,
# `_PUBLIC_LOG`, is right only while entries come in through it alone), the trims it calls.
_LOG_WRITERS = {
    ("basics.py", "log_event"),
    ("basics.py", "_drop_overflow"),
    ("basics.py", "trim_log"),
}


def _is_log(node: ast.AST, aliases: set[str]) -> bool:
    if isinstance(node, ast.Subscript):
        key = node.slice
        return isinstance(key, ast.Constant) and key.value == "log"
    return isinstance(node, ast.Name) and node.id in aliases


def _log_writes(path: Path) -> list[tuple[str, int]]:
    """(function, line) of every change to a game's log in `path`: a mutating method called
    on `...["log"]` or on a name bound to it, an item or slice of it assigned or deleted, `+=`
    on it, or the log handed whole to another list (two states sharing one log)."""
    found: list[tuple[str, int]] = []
    tree = ast.parse(path.read_text())
    for fn in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
        aliases = {
            t.id
            for n in ast.walk(fn)
            if isinstance(n, ast.Assign) and _is_log(n.value, set())
            for t in n.targets
            if isinstance(t, ast.Name)
        }
        for n in ast.walk(fn):
            hit = False
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
                hit = n.func.attr in _MUTATORS and _is_log(n.func.value, aliases)
            elif isinstance(n, ast.AugAssign):
                hit = _is_log(n.target, aliases)
            elif isinstance(n, ast.Assign | ast.Delete):
                targets = n.targets
                hit = any(
                    isinstance(t, ast.Subscript) and _is_log(t.value, aliases) for t in targets
                )
                if isinstance(n, ast.Assign) and any(_is_log(t, set()) for t in targets):
                    # a fresh empty log is fine; another state's log would be shared
                    hit = hit or not (isinstance(n.value, ast.List) and not n.value.elts)
            if hit:
                found.append((fn.name, getattr(n, "lineno", 0)))
    return found


def test_a_power_grid_log_changes_only_through_log_event() -> None:
    """`log_event` keeps one all-public log as a memo (engine/powergrid/basics.py, issue 24):
    an entry added or removed any other way would leave it stale, and a private entry could
    then be trimmed wrongly or a public one kept past LOG_SIZE. No other writer exists."""
    writes = [
        (path.relative_to(ENGINE).as_posix(), fn, line)
        for folder in ("powergrid", "powergrid_alt")
        for path in sorted((ENGINE / folder).rglob("*.py"))
        for fn, line in _log_writes(path)
        if not (path.parent.name == "powergrid" and (path.name, fn) in _LOG_WRITERS)
    ]
    assert writes == []


def test_the_log_writer_scan_sees_the_writes_it_forbids(tmp_path: Path) -> None:
    """The scan above finds each kind of write (else it would pass on anything)."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def a(state):\n    state['log'].append(1)\n"
        "def b(state):\n    log = state['log']\n    log.extend([1])\n"
        "def c(state):\n    del state['log'][0]\n"
        "def d(state):\n    state['log'] += [1]\n"
        "def e(state, other):\n    state['log'] = other['log']\n"
        "def f(state):\n    state['log'][0] = 1\n"
        "def g(state):\n    state['log'] = []\n    n = len(state['log'])\n"
    )
    assert [fn for fn, _ in _log_writes(sample)] == ["a", "b", "c", "d", "e", "f"]
