"""Issue 25: the rules in the chat (bot/rulebook.py) and the generated docs/rules pages."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

from bot import rulebook
from bot.i18n import LANGUAGES, translator
from engine.core.protocol import EnglishTranslator
from engine.registry import games

ROOT = Path(__file__).resolve().parents[2]
EN = EnglishTranslator()
# A rule id as the engine writes it in a refusal: PG-21, PG-9a, ALT-D-11, HEX-2.6, IEC-S-8.4,
# IEC-TECH-3 ("syntax" is a parse error, not a rule).
RULE_ID = re.compile(r"""["']((?:PG|ALT|HEX|IEC)(?:-[A-Z]+)?-\d+(?:\.\d+)?[a-z]?)["']""")


def refusal_ids(game_id: str) -> set[str]:
    """Every rule id written as a string in the game's code (and, for a game built on another
    one, in its base game's code): a superset of the ids its IllegalAction can carry."""
    folders = {game_id}
    book = rulebook.load(game_id)
    if book.extends:
        folders.add(book.extends)
    found: set[str] = set()
    for folder in folders:
        for source in (ROOT / "engine" / folder).glob("*.py"):
            found |= set(RULE_ID.findall(source.read_text(encoding="utf-8")))
    return found


def test_every_game_has_a_rulebook() -> None:
    assert rulebook.available() == sorted(games())


@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_refusal_rule_id_resolves_in_every_language(game_id: str) -> None:
    ids = refusal_ids(game_id)
    assert len(ids) >= 10
    for lang in LANGUAGES:
        t = translator(lang)
        for rule_id in sorted(ids):
            rule = rulebook.find_rule(game_id, rule_id)
            assert rule is not None, f"{game_id}: /rules {rule_id} has no entry"
            text = rulebook.answer(game_id, rule_id, t)
            assert text.startswith(f"{rule.id} · {t.gettext(rule.title)}\n"), text
            assert t.gettext(rule.text) in text
            if lang != "en":
                assert t.gettext(rule.text) != rule.text, f"{lang}: {rule_id} untranslated"
            assert rulebook.hint(game_id, rule_id, t) is not None


@pytest.mark.parametrize("game_id", sorted(games()))
def test_rules_without_query_is_a_one_screen_how_to_play(game_id: str) -> None:
    for lang in LANGUAGES:
        t = translator(lang)
        text = rulebook.answer(game_id, "", t)
        assert text.startswith(
            t.gettext("{game}: how to play").format(game=t.gettext(games()[game_id].name))
        )
        assert 300 < len(text) < 1800, (lang, len(text))
        book = rulebook.load(game_id)
        for paragraph in book.howto:
            assert t.gettext(paragraph) in text
            if lang != "en":
                assert t.gettext(paragraph) != paragraph
        assert "/" in text  # names the commands to use


def test_rule_ids_are_found_loosely() -> None:
    for query in ("PG-21", "pg-21", "pg21", "(PG-21)", "PG 21"):
        assert rulebook.answer("powergrid", query, EN).startswith("PG-21 · Bidding\n")
    assert rulebook.answer("powergrid", "pg-9a", EN).startswith("PG-9a · Paying")
    assert rulebook.answer("iec", "iec-s-8.4", EN).startswith("IEC-S-8.4 ·")
    assert "Commands: /bid, /raise, /pass, /maxbid" in rulebook.answer("powergrid", "PG-21", EN)


def test_the_alternative_rules_answer_base_rules_from_the_base_book() -> None:
    text = rulebook.answer("powergrid_alt", "PG-21", EN)
    assert text.startswith("PG-21 · Bidding")
    assert rulebook.find_rule("powergrid", "ALT-22") is None


def test_search_finds_words_in_titles_texts_and_the_glossary() -> None:
    build = rulebook.answer("powergrid", "build", EN)
    assert "PG-37 · Further cities" in build and "PG-36 · First city" in build
    step2 = rulebook.answer("powergrid", "step 2", EN)
    assert "PG-46 · Step 2 trigger" in step2
    tp = rulebook.answer("powergrid_alt", "TP", EN)
    assert tp.splitlines()[1].startswith("• TP: Transformer substation")
    inertia = rulebook.answer("hexania", "inertia", EN)
    assert "Inertia:" in inertia and "HEX-6" in inertia
    assert "I-2" in rulebook.answer("iec", "deposit", EN)
    assert "Elektro (E)" in rulebook.answer("powergrid", "elektro", EN)
    nothing = rulebook.answer("powergrid", "zeppelin", EN)
    assert nothing.startswith("Nothing about “zeppelin”")


def test_search_in_the_readers_language() -> None:
    ru = translator("ru")
    text = rulebook.answer("powergrid_alt", "подстанция", ru)
    assert text.splitlines()[1].startswith("• ТП: Трансформаторная подстанция"), text
    zh = translator("zh_Hant")
    # the translated title of PG-38 finds the rule in Chinese
    title = zh.gettext("Slots and steps")
    assert title != "Slots and steps"
    assert "PG-38" in rulebook.answer("powergrid", title, zh)
    # English words still work in any language
    assert "PG-46" in rulebook.answer("powergrid", "step 2", translator("pl"))


def test_a_search_with_one_hit_gives_the_whole_rule() -> None:
    text = rulebook.answer("hexania", "collapses", EN)
    assert text.startswith("HEX-13 · Collapse\n")


def test_hint_names_the_rules_command_and_skips_syntax_errors() -> None:
    assert rulebook.hint("powergrid", "PG-38", EN) == "See /rules PG-38."
    assert rulebook.hint("powergrid_alt", "PG-21", EN) == "See /rules PG-21."
    assert rulebook.hint("powergrid", "syntax", EN) is None
    assert rulebook.hint("nogame", "PG-38", EN) is None
    assert rulebook.answer("nogame", "", EN) == "There is no rulebook for this game yet."


def test_rulebook_strings_are_in_the_catalog_template() -> None:
    pot = (ROOT / "bot" / "locale" / "boardchat.pot").read_text(encoding="utf-8")
    for game_id in rulebook.available():
        book = rulebook.load(game_id)
        for rule in book.rules:
            assert f'"{rule.title}"' in pot, rule.title
        assert f"#: engine/{game_id}/data/rulebook.toml" in pot


def _docs_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rulebook_docs", ROOT / "tools/rulebook_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_rules_pages_are_fresh() -> None:
    tool = _docs_tool()
    for path, text in tool.expected().items():
        assert path.exists(), f"{path} missing: run `make docs`"
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run `make docs`"
    page = (ROOT / "docs/rules/powergrid.md").read_text(encoding="utf-8")
    assert "### PG-21 · Bidding" in page and "## Glossary" in page


@pytest.mark.parametrize("game_id", sorted(games()))
def test_refusals_met_in_play_resolve_with_rules(game_id: str) -> None:
    """Beyond the ids written in the code: the ids of refusals actually raised when moves are
    tried out of turn, out of phase or with changed numbers, along a seeded bot game."""
    import copy
    import random

    from engine.core.errors import IllegalAction
    from engine.core.rng import Rng

    game = games()[game_id]
    players = ["alice", "bob", "carol"]
    state = game.setup(players, {}, 11)
    bot = list(game.bots.values())[-1]
    rng, pick = Rng({"s": 11}), random.Random(11)
    seen: set[str] = set()
    stale: list[dict] = []
    steps = 0
    while not game.is_over(state) and steps < 400:
        actor = game.current_players(state)[0]
        if steps % 3 == 0:
            tries = list(stale[-6:])
            for action in game.legal_actions(state, actor)[:6]:
                bent = dict(action)
                for key, value in action.items():
                    if isinstance(value, int) and not isinstance(value, bool):
                        bent[key] = value + pick.choice((-50, -1, 1, 7, 99))
                tries += [action, bent]
            for action in tries:
                for player in players:
                    try:
                        game.apply(copy.deepcopy(state), player, action)
                    except IllegalAction as err:
                        seen.add(err.rule_id)
        action = bot(state, actor, rng)
        stale.append(action)
        state, _ = game.apply(state, actor, action)
        steps += 1
    seen.discard("syntax")
    assert len(seen) >= 3, seen
    for rule_id in sorted(seen):
        assert rulebook.find_rule(game_id, rule_id) is not None, f"{game_id}: {rule_id}"
        for lang in LANGUAGES:
            assert rulebook.hint(game_id, rule_id, translator(lang)) is not None


def test_a_query_in_another_language_finds_its_rule_in_the_readers_words() -> None:
    """Found playing (2026-11-29): "/rules броня" asked by a Russian reader in a Polish chat
    found nothing in the group's copy. Every catalog language's words find a rule."""
    from bot.i18n import translator

    said = rulebook.search("hexania", "броня", translator("pl"))
    assert "HEX-15" in said and "броня" in said
    assert translator("pl").gettext("Armour") in said or "Pancerz" in said


@pytest.mark.parametrize(
    ("query", "lang"),
    [("aukcja", "pl"), ("licytacji", "pl"), ("拍賣", "zh_Hant"), ("торги", "ru"), ("aukcje", "pl")],
)
def test_a_search_finds_the_auction_rule_by_another_word_or_form(query: str, lang: str) -> None:
    """Found playing, 2026-12-03: "/rules aukcja" and "/rules 拍賣" found nothing, the
    catalogs say "licytacja" and "競標" (bot/locale/search_synonyms.json); an inflected form
    finds its word too (PG-21, the auction)."""
    assert "PG-21" in rulebook.search("powergrid", query, translator(lang))


def test_a_short_or_numbered_query_is_not_cut() -> None:
    said = rulebook.search("powergrid", "PG-2", translator("en"))
    assert "PG-21" not in said.split("\n")[0]
    assert "Nothing about" in rulebook.search("powergrid", "zzzzzzq", translator("en"))


def test_the_alternative_rules_replace_the_base_rules_they_change() -> None:
    """Found playing (2026-12-02): "/rules income" in the alternative rules listed PG-51 (the
    base game's end at 17 cities), and ALT-33, ALT-36 (the penalty the bureaucracy line
    charges) and ALT-43 answered "Nothing about…"."""
    income = rulebook.answer("powergrid_alt", "income", EN)
    assert "ALT-33 · Plant city income" in income and "ALT-34 · TP city income" in income
    assert "PG-51" not in income and "PG-42" not in income
    end = rulebook.answer("powergrid_alt", "PG-51", EN)
    assert end.startswith("ALT-43 · End of the game\n")
    assert "In place of the base game's PG-51." in end
    assert rulebook.answer("powergrid_alt", "penalty", EN).startswith("ALT-36 · Penalty\n")
    assert rulebook.hint("powergrid_alt", "PG-46", EN) == "See /rules ALT-40."
    assert {"PG-26", "PG-42", "PG-46", "PG-51", "PG-53"}.isdisjoint(
        r.id for r in rulebook.rules("powergrid_alt")
    )
    assert rulebook.answer("powergrid_alt", "PG-21", EN).startswith("PG-21 · Bidding")  # kept
    assert rulebook.answer("powergrid", "PG-51", EN).startswith("PG-51 · End of the game\n")
    for lang in LANGUAGES:
        t = translator(lang)
        assert t.gettext("In place of the base game's {rules}.").format(rules="PG-51") in (
            rulebook.answer("powergrid_alt", "ALT-43", t)
        )
