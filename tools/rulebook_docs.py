"""Write docs/rules/<game>.md from each game's rulebook (engine/<game>/data/rulebook.toml).

    python tools/rulebook_docs.py           # (re)write the files; `make docs` runs this
    python tools/rulebook_docs.py --check   # change nothing; exit 1 when a file is stale

The pages are English, the catalogs' source language; the chat answers `/rules` in the
reader's language from the same data (bot/rulebook.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot import rulebook  # noqa: E402
from engine.registry import games  # noqa: E402

DOCS = ROOT / "docs" / "rules"


def page(game_id: str) -> str:
    book = rulebook.load(game_id)
    name = games()[game_id].name if game_id in games() else game_id
    out = [
        f"# {name}: rules",
        "",
        f"Generated from `engine/{game_id}/data/rulebook.toml` by `tools/rulebook_docs.py`"
        " (`make docs`); edit the data file, not this page. In a chat, `/rules` shows the"
        " same text in the reader's language.",
        "",
        "## How to play",
        "",
    ]
    for paragraph in book.howto:
        out += [paragraph, ""]
    if book.extends:
        base = games()[book.extends].name if book.extends in games() else book.extends
        out += [
            f"Every rule not listed here is {base}'s: see [{book.extends}.md]({book.extends}.md).",
            "",
        ]
    out += ["## Rules", ""]
    for rule in book.rules:
        out += [f"### {rule.id} · {rule.title}", "", rule.text, ""]
        if rule.replaces:
            out += [f"In place of the base game's {', '.join(rule.replaces)}.", ""]
        if rule.commands:
            out += ["Commands: " + ", ".join(f"`/{c}`" for c in rule.commands), ""]
    out += ["## Glossary", ""]
    for term in book.glossary:
        out.append(f"- **{term.term}**: {term.text}")
    out.append("")
    return "\n".join(out)


def index() -> str:
    out = ["# Rules", "", "One page per game, generated from the games' rulebooks:", ""]
    for game_id in rulebook.available():
        name = games()[game_id].name if game_id in games() else game_id
        out.append(f"- [{name}]({game_id}.md)")
    out.append("")
    return "\n".join(out)


def expected() -> dict[Path, str]:
    files = {DOCS / f"{g}.md": page(g) for g in rulebook.available()}
    files[DOCS / "README.md"] = index()
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify only; exit 1 if stale")
    args = parser.parse_args(argv)
    stale = [p for p, text in expected().items() if not p.exists() or p.read_text("utf-8") != text]
    if args.check:
        for p in stale:
            print(f"out of date: {p.relative_to(ROOT)} (run `make docs`)")
        return 1 if stale else 0
    DOCS.mkdir(parents=True, exist_ok=True)
    for p in stale:
        p.write_text(expected()[p], encoding="utf-8")
        print(f"wrote {p.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
