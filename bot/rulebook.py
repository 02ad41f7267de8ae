"""The rules in the chat: `/rules`, `/rules <id>`, `/rules <word>` (issue 25).

Each game keeps its rulebook as data, engine/<game>/data/rulebook.toml: a short how-to-play
(`howto`, one paragraph per entry), the rules (`[[rule]]`: id, title, text, the commands it
concerns) and a glossary (`[[term]]`). A rulebook may name another game's as its base
(`extends`): Power Grid with the alternative rules answers PG-n from the base game's book.
Every string is a catalog message (bot/locale/update.py extracts them), so `answer` gives the
text in the reader's language through the translator `t`; searching looks at both the
translated and the English text, so "/rules build" works in every language.

This module is pure: no I/O beyond reading the packaged data files, no chat state.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import engine
from bot.i18n import LANGUAGES, translator
from engine.core.protocol import Translator
from engine.core.sentences import join_list

ENGINE_DIR = Path(engine.__file__).resolve().parent
SYNONYMS = Path(__file__).resolve().parent / "locale" / "search_synonyms.json"
MAX_HITS = 8  # rules listed for a search; more are counted, not shown
MAX_TERMS = 4  # glossary entries listed for a search


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    text: str
    commands: tuple[str, ...] = ()
    # the base game's rules this one stands for (`replaces`): in this game they are not
    # listed, and /rules PG-51 answers with the variant's ALT-43
    replaces: tuple[str, ...] = ()


@dataclass(frozen=True)
class Term:
    term: str
    text: str


@dataclass(frozen=True)
class Rulebook:
    game: str
    extends: str | None
    howto: tuple[str, ...]
    rules: tuple[Rule, ...]
    glossary: tuple[Term, ...]


def path(game_id: str) -> Path:
    return ENGINE_DIR / game_id / "data" / "rulebook.toml"


def available() -> list[str]:
    """The games that have a rulebook, sorted."""
    return sorted(p.parent.parent.name for p in ENGINE_DIR.glob("*/data/rulebook.toml"))


def parse(data: dict) -> Rulebook:
    """A rulebook from the decoded TOML (checked: ids unique, every field a string)."""
    rules = tuple(
        Rule(
            id=str(r["id"]),
            title=str(r["title"]),
            text=str(r["text"]),
            commands=tuple(str(c) for c in r.get("commands", ())),
            replaces=tuple(str(c) for c in r.get("replaces", ())),
        )
        for r in data.get("rule", ())
    )
    ids = [r.id for r in rules]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{data.get('game')}: a rule id appears twice")
    return Rulebook(
        game=str(data["game"]),
        extends=str(data["extends"]) if data.get("extends") else None,
        howto=tuple(str(p) for p in data.get("howto", ())),
        rules=rules,
        glossary=tuple(Term(str(g["term"]), str(g["text"])) for g in data.get("term", ())),
    )


@cache
def load(game_id: str) -> Rulebook:
    """The game's rulebook; KeyError when it has none."""
    file = path(game_id)
    if not file.exists():
        raise KeyError(f"no rulebook for {game_id!r}")
    with file.open("rb") as fh:
        book = parse(tomllib.load(fh))
    if book.game != game_id:
        raise ValueError(f"{file}: game = {book.game!r}, expected {game_id!r}")
    return book


def _chain(game_id: str) -> Iterator[Rulebook]:
    """The game's rulebook, then the one it extends, and so on."""
    seen: set[str] = set()
    current: str | None = game_id
    while current and current not in seen:
        seen.add(current)
        book = load(current)
        yield book
        current = book.extends


def rules(game_id: str) -> list[Rule]:
    """Every rule /rules <id> answers in this game: its own, then those of its base game
    that none of its own replaces (found playing, 2026-12-02: "/rules income" in the
    alternative rules listed the base game's end at 17 cities, PG-51)."""
    found: dict[str, Rule] = {}
    replaced: set[str] = set()
    for book in _chain(game_id):
        for rule in book.rules:
            if rule.id not in replaced:
                found.setdefault(rule.id, rule)
        replaced |= {old for rule in book.rules for old in rule.replaces}
    return list(found.values())


def glossary(game_id: str) -> list[Term]:
    found: dict[str, Term] = {}
    for book in _chain(game_id):
        for term in book.glossary:
            found.setdefault(term.term.casefold(), term)
    return list(found.values())


def _key(text: str) -> str:
    """An id compared loosely: "pg21", "PG-21", "(PG-21)" and "pg 21" are one key."""
    return re.sub(r"[^0-9a-z.]", "", text.casefold()).strip(".")


def find_rule(game_id: str, rule_id: str) -> Rule | None:
    """The rule of that id in this game: a base rule the game replaces answers with the rule
    that replaces it (a refusal of the shared code may cite it)."""
    wanted = _key(rule_id)
    if not wanted:
        return None
    listed = rules(game_id)
    return next((r for r in listed if _key(r.id) == wanted), None) or next(
        (r for r in listed if wanted in map(_key, r.replaces)), None
    )


def _game_name(game_id: str, t: Translator) -> str:
    """The game's name as its edition in the reader's language is called (issue 18)."""
    from engine.registry import games

    game = games().get(game_id)
    return t.gettext(game.name) if game is not None else game_id


# ---------------------------------------------------------------------------- answers
def answer(game_id: str, query: str | None, t: Translator) -> str:
    """The reply to `/rules [query]` for a game, in the translator's language."""
    try:
        load(game_id)
    except KeyError:
        return t.gettext("There is no rulebook for this game yet.")
    q = (query or "").strip()
    if not q:
        return howto(game_id, t)
    rule = find_rule(game_id, q)
    if rule is not None:
        return rule_text(rule, t)
    return search(game_id, q, t)


def howto(game_id: str, t: Translator) -> str:
    book = load(game_id)
    lines = [t.gettext("{game}: how to play").format(game=_game_name(game_id, t))]
    lines += [t.gettext(p) for p in book.howto]
    lines.append(
        t.gettext("/rules <id> explains a rule, e.g. {example}; /rules <word> searches.").format(
            example=f"/rules {rules(game_id)[0].id}" if rules(game_id) else "/rules"
        )
    )
    return "\n\n".join(lines)


def rule_text(rule: Rule, t: Translator) -> str:
    lines = [f"{rule.id} · {t.gettext(rule.title)}", t.gettext(rule.text)]
    if rule.replaces:
        lines.append(
            t.gettext("In place of the base game's {rules}.").format(
                rules=join_list(t, rule.replaces)
            )
        )
    if rule.commands:
        lines.append(
            t.gettext("Commands: {commands}").format(
                commands=join_list(t, (f"/{c}" for c in rule.commands))
            )
        )
    return "\n".join(lines)


def _matches(needle: str, *texts: str, loose: bool = False) -> bool:
    """Every word of the query occurs in one of the texts (case-insensitive); with `loose`,
    in another form of it (`_stem`) or as the catalogs' word for it (`_synonym`)."""
    hay = " ".join(texts).casefold()
    words = needle.casefold().split()
    if needle.casefold() in hay:
        return True
    if not loose:
        return bool(words) and all(w in hay for w in words)
    return bool(words) and all(_stem(w) in hay or _synonym(w) in hay for w in words)


@cache
def _synonyms() -> dict[str, str]:
    with SYNONYMS.open(encoding="utf-8") as fh:
        return {k: v for k, v in json.load(fh).items() if not k.startswith("_")}


def _synonym(word: str) -> str:
    """The catalogs' word for a query word that means the same ("aukcja" -> "licytac",
    "拍賣" -> "競標"; bot/locale/search_synonyms.json), else the word's stem."""
    for start, word_used in _synonyms().items():
        if word.startswith(start):
            return word_used
    return _stem(word)


def _stem(word: str) -> str:
    """A long word without its last two letters: the query's nominative finds the text's
    other cases and plurals ("aukcja" finds "aukcji", "станция" finds "станцию", "plants"
    finds "plant"; found playing, 2026-12-03: "/rules aukcja" found nothing). Short words and
    words with digits (ids, "PG-12") stay whole."""
    if len(word) < 6 or not word.isalpha():
        return word
    return word[: max(5, len(word) - 2)]


@cache
def _in_every_language(msgid: str) -> str:
    """A rulebook text in every catalog language at once: a query in any of them finds its
    rule, so a group post in the chat's language answers the asker's word too (found
    playing, 2026-11-29: "/rules броня" found nothing for a Polish chat)."""
    return " ".join(translator(lang).gettext(msgid) for lang in LANGUAGES)


def _first_sentence(text: str) -> str:
    m = re.match(r"(.+?[.!?。！？])(\s|$)", text)
    return m.group(1) if m else text


def search(game_id: str, query: str, t: Translator) -> str:
    """Rules whose title or text, and glossary entries whose term or text, contain the query
    (in the reader's language or in English; in another form or word for it when nothing has
    the query's own words). One rule found: its whole text. Rules about a command of that name
    ("build", "/build") and rules whose title matches come first."""
    needle = query.strip().strip("\"'“”«»")
    found = _found(game_id, needle, t, loose=False)
    if not any(found):
        found = _found(game_id, needle, t, loose=True)
    in_title, in_text, named, described = found
    hits = in_title + in_text
    # explanations that merely mention the word are shown only when no rule does
    terms = named + ([] if hits else described)
    if not hits and not terms:
        return t.gettext(
            "Nothing about “{query}” in the rules of {game}. /rules shows how to play."
        ).format(query=needle[:40], game=_game_name(game_id, t))
    if len(hits) == 1 and not terms:
        return rule_text(hits[0], t)
    lines = [
        t.gettext("“{query}” in the rules of {game}:").format(
            query=needle[:40], game=_game_name(game_id, t)
        )
    ]
    for term in terms[:MAX_TERMS]:
        lines.append(f"• {t.gettext(term.term)}: {t.gettext(term.text)}")
    for rule in hits[:MAX_HITS]:
        lines.append(
            f"{rule.id} · {t.gettext(rule.title)}: {_first_sentence(t.gettext(rule.text))}"
        )
    more = len(hits) - MAX_HITS
    if more > 0:
        lines.append(
            t.ngettext("… and {n} more rule.", "… and {n} more rules.", more).format(n=more)
        )
    if hits:
        lines.append(t.gettext("/rules <id> gives a rule's whole text."))
    return "\n".join(lines)


def hint(game_id: str, rule_id: str, t: Translator) -> str | None:
    """For a refusal: "See /rules PG-38." when the game's rulebook explains the rule, else None
    (a syntax error, or a game without a rulebook)."""
    try:
        rule = find_rule(game_id, rule_id)
    except KeyError:
        return None
    if rule is None:
        return None
    return t.gettext("See /rules {rule}.").format(rule=rule.id)


def _found(
    game_id: str, needle: str, t: Translator, loose: bool
) -> tuple[list[Rule], list[Rule], list[Term], list[Term]]:
    """The rules whose title, and those whose text, match; the glossary terms named, and
    those described. `loose`: a word matches in any form or synonym (`_synonym`)."""
    command = needle.lstrip("/").casefold()

    def matches(*texts: str) -> bool:
        return _matches(needle, *texts, loose=loose)

    in_title: list[Rule] = []
    in_text: list[Rule] = []
    for rule in rules(game_id):
        title, text = t.gettext(rule.title), t.gettext(rule.text)
        if command in rule.commands or matches(title, _in_every_language(rule.title), rule.id):
            in_title.append(rule)
        elif matches(text, _in_every_language(rule.text)):
            in_text.append(rule)
    named: list[Term] = []  # the query is (in) the term itself: "TP", "Elektro"
    described: list[Term] = []  # the query is in the explanation only
    for term in glossary(game_id):
        if matches(t.gettext(term.term), _in_every_language(term.term)):
            named.append(term)
        elif matches(t.gettext(term.text), _in_every_language(term.text)):
            described.append(term)
    return in_title, in_text, named, described


# ---------------------------------------------------------------------------- autocomplete
# Between a rule's id and its title in an autocomplete offer ("PG-21 · Торги"): /rules reads
# the words before it (`picked`), so an offer chosen on Discord answers that rule.
OFFER_MARK = "·"
MAX_OFFERS = 25
MAX_OFFER = 100  # characters: Discord's limit of an autocomplete value


def picked(words: list[str]) -> list[str]:
    """The words of `/rules` before an offer's mark: "PG-21 · Торги" is /rules PG-21."""
    return words[: words.index(OFFER_MARK)] if OFFER_MARK in words else words


@dataclass(frozen=True)
class _Entry:
    """A rule as autocomplete reads it: its id, title msgid, commands, and its title and text
    case-folded in each language (`by_lang`) and in all at once (`title_all`, `text_all`)."""

    id: str
    title: str  # msgid
    commands: tuple[str, ...]
    by_lang: tuple[tuple[str, str], ...]  # (title, text) per LANGUAGES
    title_all: str
    text_all: str


@cache
def _entries(game_id: str, index: tuple[tuple[str, str], ...]) -> tuple[_Entry, ...]:
    """The rules /rules answers in this game, read once: its rulebook's, then the ids of its
    index (`Game.rules_index`: id -> title) the rulebook does not explain."""
    try:
        listed = [(r.id, r.title, r.text, r.commands) for r in rules(game_id)]
    except KeyError:
        listed = []
    known = {_key(i) for i, *_ in listed}
    listed += [(i, title, "", ()) for i, title in index if _key(i) not in known]
    listed.sort(key=lambda r: _id_order(r[0]))
    out: list[_Entry] = []
    for rid, title, text, commands in listed:
        by_lang = tuple(
            (translator(lang).gettext(title).casefold(), translator(lang).gettext(text).casefold())
            for lang in LANGUAGES
        )
        out.append(
            _Entry(
                rid,
                title,
                commands,
                by_lang,
                " ".join([*(t for t, _ in by_lang), rid.casefold()]),
                " ".join(x for _, x in by_lang),
            )
        )
    return tuple(out)


def _id_order(rule_id: str) -> tuple[tuple[int, str], ...]:
    """Ids in their natural order: PG-2, PG-9, PG-9a, PG-20."""
    return tuple(
        (int(part), "") if part.isdigit() else (-1, part)
        for part in re.split(r"(\d+)", rule_id)
        if part
    )


def _forms(needle: str, loose: bool) -> list[tuple[str, ...]]:
    """The forms each word of the query may take in a text (`_matches`)."""
    words = needle.casefold().split()
    return [(w, _stem(w), _synonym(w)) if loose else (w,) for w in words]


def _has(hay: str, needle: str, forms: list[tuple[str, ...]]) -> bool:
    return needle in hay or (bool(forms) and all(any(f in hay for f in fs) for fs in forms))


def offers(
    game_id: str, typed: str, lang: str, index: Mapping[str, str] | None = None
) -> list[str]:
    """Autocomplete of `/rules <typed>` in a game: "PG-21 · Торги", the rule's id and title.
    First the ids that begin with the typed text ("PG-2" -> PG-2, PG-20, ...), then the rules
    whose title, then whose text has the words, as `search` finds them (in any language, in
    another form or as the catalogs' word for it: "licyt", "拍賣"); every rule with nothing
    typed. The titles are in the reader's language `lang`, unless the words typed are found in
    no rule of his language but in another's: then in that one ("аукц" typed by a reader whose
    language the table does not know). `index`: the game's rule ids with titles
    (`Game.rules_index`), offered by id and title too. Read once per game: well under a
    millisecond a call."""
    entries = _entries(game_id, tuple((index or {}).items()))
    needle = typed.strip().strip("\"'“”«»").casefold()
    shown = LANGUAGES.index(lang) if lang in LANGUAGES else 0
    if not needle:
        chosen = list(entries)
    else:
        key = _key(needle)
        by_id = sorted(
            (e for e in entries if key and _key(e.id).startswith(key)),
            key=lambda e: _key(e.id) != key,
        )
        command = needle.lstrip("/")
        in_title: list[_Entry] = []
        in_text: list[_Entry] = []
        for loose in (False, True):
            forms = _forms(needle, loose)
            in_title = [
                e for e in entries if command in e.commands or _has(e.title_all, needle, forms)
            ]
            in_text = [e for e in entries if _has(e.text_all, needle, forms)]
            if in_title or in_text:
                break
        found = [*in_title, *in_text]
        if found and not by_id:
            speaking = [
                n
                for n in dict.fromkeys((shown, *range(len(LANGUAGES))))
                if any(_has(" ".join(e.by_lang[n]), needle, forms) for e in found)
            ]
            shown = speaking[0] if speaking else shown
        chosen = list({e.id: e for e in (*by_id, *in_title, *in_text)}.values())
    t = translator(LANGUAGES[shown])
    return [_offer(e, t) for e in chosen[:MAX_OFFERS]]


def _offer(entry: _Entry, t: Translator) -> str:
    text = f"{entry.id} {OFFER_MARK} {t.gettext(entry.title)}"
    return text if len(text) <= MAX_OFFER else text[: MAX_OFFER - 1].rstrip() + "…"
