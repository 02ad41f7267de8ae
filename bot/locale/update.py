"""Extract, update and compile boardchat's translations (run `make i18n`, or this file).

    python bot/locale/update.py            # extract -> boardchat.pot, update each .po, compile .mo
    python bot/locale/update.py --check    # change nothing; exit 1 when something is out of date

Steps:
1. Extract every marked message from bot/ and engine/ (keywords in babel.cfg at the repository
   root) into bot/locale/boardchat.pot. Locations name the file without a line number, so moving
   code around does not touch the catalogs.
2. Merge the template into bot/locale/<lang>/LC_MESSAGES/boardchat.po for every language in
   `bot.i18n.LANGUAGES` except English (the source). New messages arrive untranslated; messages
   that left the code are kept as obsolete (`#~`) entries so a translation is never lost.
   Fuzzy matching is off by default (a guessed translation is worse than English); `--fuzzy`
   turns it on, and fuzzy entries are not compiled until a translator removes the flag.
3. Compile each .po into boardchat.mo next to it (both are committed and shipped in the wheel).

Files are rewritten only when their content changes (dates in the headers are ignored), so
re-running the script on an unchanged tree leaves `git status` clean.
"""

from __future__ import annotations

import argparse
import copy
import io
import sys
import tomllib
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

LOCALE_DIR = Path(__file__).resolve().parent
ROOT = LOCALE_DIR.parent.parent
CONFIG = ROOT / "babel.cfg"
DOMAIN = "boardchat"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
SOURCES = ("bot", "engine")
TARGETS = ("ru", "zh_Hant", "pl")
PROJECT = "boardchat"
BUGS = "https://github.com/boardchat/boardchat/issues"
# Dates are pinned for reproducible files; the real history is git's.
EPOCH = datetime(2025, 1, 1)
WIDTH = 100


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


# ---------------------------------------------------------------------------- extraction
def extract() -> Catalog:
    """All marked messages of bot/ and engine/, in source order (files sorted by path)."""
    with CONFIG.open(encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh, filename=str(CONFIG))
    template = Catalog(
        project=PROJECT,
        version="",
        msgid_bugs_address=BUGS,
        copyright_holder="boardchat contributors",
        creation_date=EPOCH,
        charset="utf-8",
        fuzzy=False,
    )
    for source in SOURCES:
        found = extract_from_dir(
            str(ROOT / source),
            method_map=_relative_map(method_map, source),
            options_map=_relative_options(options_map, source),
            comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True,
        )
        for filename, lineno, message, comments, context in found:
            path = f"{source}/{Path(filename).as_posix()}"
            if path.startswith("bot/locale/"):
                continue
            template.add(
                message,
                None,
                [(path, lineno)],
                auto_comments=comments,
                context=context,
            )
    _check_placeholders_consistent(template)
    return template


def _relative_map(method_map: list[tuple[str, str]], source: str) -> list[tuple[str, str]]:
    """babel.cfg patterns are relative to the repository; extract_from_dir wants them
    relative to the scanned directory."""
    prefix = f"{source}/"
    return [(p[len(prefix) :], m) for p, m in method_map if p.startswith(prefix)]


def _relative_options(options_map: dict[str, dict], source: str) -> dict[str, dict]:
    prefix = f"{source}/"
    return {p[len(prefix) :]: o for p, o in options_map.items() if p.startswith(prefix)}


def _check_placeholders_consistent(template: Catalog) -> None:
    """A plural message must name the same placeholders in both forms; warn otherwise."""
    from bot.locale.checks import placeholders

    for message in template:
        if message.id and message.pluralizable:
            one, many = message.id[0], message.id[1]
            if placeholders(one) - placeholders(many):
                where = ", ".join(f for f, _ in message.locations)
                print(f"warning: singular has placeholders the plural lacks: {one!r} ({where})")


def extract_rulebook(
    fileobj: IO[bytes],
    keywords: Any,
    comment_tags: Any,
    options: dict[str, Any],
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel extractor for the games' rulebooks (engine/<game>/data/rulebook.toml, registered in
    babel.cfg): every how-to-play paragraph, rule title and text, glossary term and text is a
    message. The comment names the game and the rule, for translators."""
    raw = fileobj.read()
    data = tomllib.loads(raw.decode("utf-8"))
    text = raw.decode("utf-8")
    game = str(data.get("game", "?"))

    def line_of(message: str) -> int:
        probe = message.replace("\\", "\\\\").replace('"', '\\"')[:60]
        at = text.find(probe)
        return text.count("\n", 0, at) + 1 if at >= 0 else 1

    for paragraph in data.get("howto", ()):
        yield line_of(paragraph), None, str(paragraph), [f"{game} rulebook: how to play"]
    for rule in data.get("rule", ()):
        rid = str(rule["id"])
        yield line_of(rule["title"]), None, str(rule["title"]), [f"{game} rulebook: title of {rid}"]
        yield line_of(rule["text"]), None, str(rule["text"]), [f"{game} rulebook: {rid}"]
    for term in data.get("term", ()):
        name = str(term["term"])
        yield line_of(name), None, name, [f"{game} rulebook: glossary term"]
        yield line_of(term["text"]), None, str(term["text"]), [f"{game} rulebook: glossary, {name}"]


# ---------------------------------------------------------------------------- catalogs
def new_catalog(lang: str) -> Catalog:
    return Catalog(
        locale=Locale.parse(lang),
        domain=DOMAIN,
        project=PROJECT,
        version="",
        msgid_bugs_address=BUGS,
        copyright_holder="boardchat contributors",
        creation_date=EPOCH,
        revision_date=EPOCH,
        language_team=f"{Locale.parse(lang).english_name} <{BUGS}>",
        charset="utf-8",
        fuzzy=False,
    )


def load_po(lang: str) -> Catalog:
    path = po_path(lang)
    if not path.exists():
        return new_catalog(lang)
    with path.open("rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


def updated(lang: str, template: Catalog, fuzzy: bool = False) -> Catalog:
    return merged(load_po(lang), template, fuzzy)


def merged(catalog: Catalog, template: Catalog, fuzzy: bool = False) -> Catalog:
    """`catalog` brought up to `template`: new messages in, old ones obsolete, returning ones
    revived with their translation."""
    # A copy: babel's update puts the template's own Message objects into the catalog for
    # new messages, so a translation revived into one language would show in the next.
    own = copy.deepcopy(template)
    catalog.update(own, no_fuzzy_matching=not fuzzy, update_header_comment=False)
    _revive_obsolete(catalog)
    catalog.fuzzy = False
    catalog.creation_date = EPOCH
    catalog.revision_date = EPOCH
    return catalog


def _revive_obsolete(catalog: Catalog) -> None:
    """A message that left the code and came back (same msgid) is live again: it takes back
    its old translation when it has none (same English text, so not fuzzy), and its `#~`
    copy goes, so a msgid is never both live and obsolete. babel's update keeps the old
    obsolete entries as they were and leaves the returning message untranslated."""
    for key in list(catalog.obsolete):
        live = catalog.get(key)
        if live is None:
            continue
        old = catalog.obsolete.pop(key)
        if live.pluralizable:
            forms = old.string
            same_shape = isinstance(forms, tuple | list) and len(forms) == catalog.num_plurals
        else:
            same_shape = isinstance(old.string, str)
        if same_shape and not _translated(live.string) and _translated(old.string):
            live.string = old.string


def po_bytes(catalog: Catalog, *, template: bool = False) -> bytes:
    buf = io.BytesIO()
    write_po(
        buf,
        catalog,
        width=WIDTH,
        sort_output=False,
        include_lineno=False,
        ignore_obsolete=False,
        include_previous=False,
        omit_header=False,
    )
    return buf.getvalue()


def mo_bytes(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def compile_errors(catalog: Catalog) -> list[str]:
    """babel's own checks (placeholder and plural-count checkers) plus ours."""
    from bot.locale.checks import problems

    errors = [
        f"{catalog.locale}: {message.id!r}: {err}"
        for message, errs in catalog.check()
        for err in errs
        if _translated(message.string)  # untranslated ones are counted, not errors
    ]
    errors += [f"{catalog.locale}: {p}" for p in problems(catalog)]
    return errors


def _same(path: Path, content: bytes) -> bool:
    if not path.exists():
        return False
    old = path.read_bytes()
    if path.suffix in (".po", ".pot"):
        return _strip_dates(old) == _strip_dates(content)
    return old == content


def _strip_dates(po: bytes) -> bytes:
    """The header lines that say when and by which Babel, not what: ignored when comparing."""
    return b"\n".join(
        line
        for line in po.splitlines()
        if not line.startswith((b'"POT-Creation-Date:', b'"PO-Revision-Date:', b'"Generated-By:'))
    )


def _write(path: Path, content: bytes, changed: list[Path]) -> None:
    if _same(path, content):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    changed.append(path)


# ---------------------------------------------------------------------------- main
def run(check: bool = False, fuzzy: bool = False, langs: Iterable[str] = TARGETS) -> int:
    template = extract()
    outputs: dict[Path, bytes] = {TEMPLATE: po_bytes(template, template=True)}
    errors: list[str] = []
    missing: dict[str, int] = {}
    for lang in langs:
        catalog = updated(lang, template, fuzzy)
        outputs[po_path(lang)] = po_bytes(catalog)
        outputs[mo_path(lang)] = mo_bytes(catalog)
        errors += compile_errors(catalog)
        missing[lang] = sum(1 for m in catalog if m.id and (m.fuzzy or not _translated(m.string)))
    total = sum(1 for m in template if m.id)

    if check:
        stale = [p for p, c in outputs.items() if not _same(p, c)]
        for path in stale:
            print(f"out of date: {path.relative_to(ROOT)}")
        for lang, n in missing.items():
            if n:
                print(f"{lang}: {n} of {total} messages untranslated")
        for err in errors:
            print(f"error: {err}")
        return 1 if stale or errors or any(missing.values()) else 0

    changed: list[Path] = []
    for path, content in outputs.items():
        _write(path, content, changed)
    for path in changed:
        print(f"wrote {path.relative_to(ROOT)}")
    print(f"{total} messages in {TEMPLATE.relative_to(ROOT)}")
    for lang, n in missing.items():
        print(f"{lang}: {total - n} translated, {n} untranslated or fuzzy")
    for err in errors:
        print(f"error: {err}", file=sys.stderr)
    return 1 if errors else 0


def _translated(string: str | tuple[str, ...] | list[str] | None) -> bool:
    if isinstance(string, str):
        return bool(string)
    return bool(string) and all(string or ())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify only; exit 1 if stale")
    parser.add_argument("--fuzzy", action="store_true", help="guess new translations (fuzzy)")
    args = parser.parse_args(argv)
    return run(check=args.check, fuzzy=args.fuzzy)


if __name__ == "__main__":
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
