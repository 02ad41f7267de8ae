"""The shape of the code (issue 26): no import cycle in bot/ or engine/ (imports made only for
type checking do not count: they never run), and no module past ~800 lines."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "engine")
MAX_LINES = 820


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def runtime_imports(path: Path, known: set[str]) -> set[str]:
    """Modules of ours that `path` imports when it runs (anywhere but under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for child in node.body for n in ast.walk(child))
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != me:
                found.add(name)
    return found


def graph() -> dict[str, set[str]]:
    files = [p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")]
    known = {module_name(p) for p in files}
    return {module_name(p): runtime_imports(p, known) for p in files}


def cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The import cycles: strongly connected groups of more than one module (Tarjan). A
    package importing its own modules is not a cycle back into the package."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if v.startswith(w + "."):
                continue
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(group)

    for v in sorted(edges):
        if v not in index:
            strong(v)
    return found


def test_the_cycle_finder_finds_cycles_and_only_cycles() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "p": {"p.x"}, "p.x": {"p"}}
    assert cycles(edges) == [{"a", "b", "c"}]


def test_no_import_cycle_in_bot_or_engine() -> None:
    # Every cycle fails, in engine/ as in bot/ (IEC's last one is gone: the shared queries
    # live in engine/iec/model.py, below the phases that drive them).
    found = cycles(graph())
    assert not found, found


def test_the_reminders_do_not_import_the_table() -> None:
    assert "bot.table" not in graph()["bot.reminders"]
    assert "bot.table" not in graph()["bot.scheduler"]


def test_the_bot_knows_no_games_rules() -> None:
    """bot/ reaches the games only through engine.core (the Game protocol) and the registry:
    /status's pace line once read Power Grid's and IEC's rules directly (now `Game.progress`)."""
    allowed = ("engine", "engine.core", "engine.registry")
    reached = {
        (module, name)
        for module, names in graph().items()
        if module.startswith("bot")
        for name in names
        if name.startswith("engine")
        and not any(name == a or name.startswith("engine.core.") for a in allowed)
    }
    assert not reached, sorted(reached)


def test_no_module_of_bot_passes_about_800_lines() -> None:
    long = {
        str(p.relative_to(ROOT)): n
        for p in (ROOT / "bot").rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, long


def private_uses_of_the_base_game(path: Path) -> list[str]:
    """`from engine.powergrid... import _x` and `alias._x` where alias names a module of
    engine.powergrid: what a variant may not build on (issue 26, declared extension points)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    base_aliases: set[str] = set()
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[:2] == [
            "engine",
            "powergrid",
        ]:
            for alias in node.names:
                if alias.name.startswith("_"):
                    found.append(f"{node.module}.{alias.name}")
                base_aliases.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[:2] == ["engine", "powergrid"]:
                    base_aliases.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and ast.unparse(node.value).split(".")[0] in base_aliases
        ):
            found.append(ast.unparse(node))
    return found


def test_the_variant_imports_no_private_name_of_the_base_game() -> None:
    found = {
        str(p.relative_to(ROOT)): uses
        for p in sorted((ROOT / "engine" / "powergrid_alt").rglob("*.py"))
        if (uses := private_uses_of_the_base_game(p))
    }
    assert not found, found


def test_the_private_name_finder_finds_both_forms(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from engine.powergrid.render.board import _name_masks, tiles\n"
        "from engine.powergrid import render as base\n"
        "base._palette('de')\n"
        "tiles._ok = 1\n"
        "self_thing._fine = 2\n",
        encoding="utf-8",
    )
    assert sorted(private_uses_of_the_base_game(sample)) == [
        "base._palette",
        "engine.powergrid.render.board._name_masks",
        "tiles._ok",
    ]


def test_the_base_game_never_tests_for_a_variant_id() -> None:
    """The base rules know no variant: the id `powergrid_alt` is no value in their code."""
    found = [
        str(p.relative_to(ROOT))
        for p in sorted((ROOT / "engine" / "powergrid").rglob("*.py"))
        if any(
            isinstance(n, ast.Constant) and n.value == "powergrid_alt"
            for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        )
    ]
    assert not found, found
