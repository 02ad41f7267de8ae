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


# Cycles inside engine rules that other work of issue 26 removes (the rules engineers own
# these modules); any other cycle, and every cycle touching bot/, fails.
KNOWN_ENGINE_CYCLES = (
    {"engine.iec.choices", "engine.iec.production", "engine.iec.rules", "engine.iec.secret"},
)


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
    found = [c for c in cycles(graph()) if c not in KNOWN_ENGINE_CYCLES]
    assert not found, found


def test_the_reminders_do_not_import_the_table() -> None:
    assert "bot.table" not in graph()["bot.reminders"]
    assert "bot.table" not in graph()["bot.scheduler"]


def test_no_module_of_bot_passes_about_800_lines() -> None:
    long = {
        str(p.relative_to(ROOT)): n
        for p in (ROOT / "bot").rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, long
