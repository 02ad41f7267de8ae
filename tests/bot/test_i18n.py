"""Translations: complete catalogs, exact placeholders, plural forms, compiled files up to date,
and the language a player is answered in."""

from __future__ import annotations

import ast
import gettext
import io
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from string import Formatter
from typing import cast

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.grammar import placeholder, table_commands, usage
from bot.i18n import LANGUAGES, explain, resolve_lang, supported, tr, translator, trn
from bot.locale import update
from bot.placeholders import PLACEHOLDERS, arg_help
from bot.store_protocol import Store as AnyStore
from engine.core import IllegalAction
from engine.core.protocol import CommandSpec, EnglishTranslator, Game
from tests.bot.helpers import present

TARGETS = [lang for lang in LANGUAGES if lang != "en"]
LOCALE = Path(update.__file__).parent


def _read(path: Path) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh)


@pytest.fixture(scope="module")
def template() -> Catalog:
    return _read(update.TEMPLATE)


def po(lang: str) -> Catalog:
    with update.po_path(lang).open("rb") as fh:
        return read_po(fh, locale=lang)


MsgId = str | tuple[str, ...]


def _ids(catalog: Catalog) -> set[MsgId]:
    return {m.id if isinstance(m.id, str) else tuple(m.id) for m in catalog if m.id}


def _forms(string: str | tuple[str, ...] | list[str] | None) -> list[str]:
    return [string] if isinstance(string, str) else list(string or ())


def _translated(catalog: Catalog) -> list:
    """Messages with a translation (the missing ones fail test_every_message_has_a_translation)."""
    return [m for m in catalog if m.id and not m.fuzzy and all(_forms(m.string))]


def _fields(text: str) -> Counter[str]:
    """Every {field} with its conversion and format spec, counted."""
    return Counter(
        f"{{{name}{'!' + conv if conv else ''}{':' + spec if spec else ''}}}"
        for _, name, spec, conv in Formatter().parse(text)
        if name is not None
    )


# ------------------------------------------------------------------ catalogs are complete
def test_the_template_has_the_code_s_messages(template: Catalog) -> None:
    """bot/locale/boardchat.pot is what extraction from bot/ and engine/ gives now.
    If this fails, someone added or changed a message: run `make i18n` and translate."""
    extracted = update.extract()
    assert _ids(template) == _ids(extracted)
    assert len(_ids(template)) > 300


@pytest.mark.parametrize("lang", TARGETS)
def test_each_catalog_follows_the_template(lang: str, template: Catalog) -> None:
    catalog = po(lang)
    live = {m.id for m in catalog if m.id}
    assert live == _ids(template)
    assert not catalog.obsolete or all(key not in live for key in catalog.obsolete)


@pytest.mark.parametrize("lang", TARGETS)
def test_every_message_has_a_translation(lang: str, template: Catalog) -> None:
    catalog = po(lang)
    missing = []
    for msgid in _ids(template):
        message = catalog.get(msgid)
        forms = _forms(message.string) if message else []
        if message is None or message.fuzzy or not forms or not all(f.strip() for f in forms):
            missing.append(msgid)
    assert missing == []


@pytest.mark.parametrize("lang", TARGETS)
def test_placeholders_are_kept_exactly_in_every_form(lang: str) -> None:
    catalog = po(lang)
    wrong = []
    for message in _translated(catalog):
        ids = _forms(message.id)
        want = _fields(ids[-1])
        if message.pluralizable:
            assert _fields(ids[0]) <= want, ids
        for index, text in enumerate(_forms(message.string)):
            if _fields(text) != want:
                wrong.append((ids[0], index, text))
    assert wrong == []


# A player's name followed by a Polish past-tense verb ("{player} wybrał"), which has a
# gender we do not know; "gracza {name} minął" (the time passed) is the time's verb.
_PL_GENDERED = re.compile(
    r"(?<!gracza )(?<!graczowi )\{(?:player|name|owner|who|winner)\}(?: już| nie| jeszcze)* "
    r"\w+ł\b|\bktóry (?:nie )?\w+ł\b",
    re.IGNORECASE,
)


def test_polish_lines_about_a_player_avoid_gendered_verbs() -> None:
    """Found playing, 2026-12-03: "bob wyrzucił 4+5" reads masculine for every player; the
    lines say it without a past-tense verb ("{player}: rzut 4+5", "{player}: decyzja
    podjęta")."""
    gendered = [
        text
        for message in _translated(po("pl"))
        for text in _forms(message.string)
        if _PL_GENDERED.search(text)
    ]
    assert gendered == []


@pytest.mark.parametrize("lang", TARGETS)
def test_command_names_are_not_translated(lang: str) -> None:
    command = re.compile(r"(?<![\w/])/[a-z][a-z0-9_]*")
    wrong = []
    for message in _translated(po(lang)):
        want = set(command.findall(_forms(message.id)[-1]))
        for text in _forms(message.string):
            if set(command.findall(text)) != want:
                wrong.append((message.id, text))
    assert wrong == []


@pytest.mark.parametrize(("lang", "forms"), [("ru", 3), ("pl", 3), ("zh_Hant", 1)])
def test_plural_forms_header(lang: str, forms: int) -> None:
    catalog = po(lang)
    assert catalog.num_plurals == forms
    assert f"nplurals={forms};" in catalog.plural_forms
    for message in catalog:
        if message.id and message.pluralizable:
            assert len(_forms(message.string)) == forms, message.id


@pytest.mark.parametrize("lang", TARGETS)
def test_catalogs_compile_without_errors(lang: str) -> None:
    catalog = po(lang)
    errors = [(m.id, e) for m, errs in catalog.check() for e in errs]
    assert errors == []
    buf = io.BytesIO()
    write_mo(buf, catalog)
    compiled = gettext.GNUTranslations(io.BytesIO(buf.getvalue()))
    assert compiled.info()["language"] == lang


@pytest.mark.parametrize("lang", TARGETS)
def test_committed_mo_files_are_up_to_date(lang: str) -> None:
    """The .mo shipped in the wheel is the compiled .po (re-run `make i18n` if not)."""
    catalog = po(lang)
    assert update.mo_path(lang).read_bytes() == update.mo_bytes(catalog)
    with update.mo_path(lang).open("rb") as fh:
        shipped = gettext.GNUTranslations(fh)
    for message in _translated(catalog):
        if message.pluralizable:
            for n in (1, 2, 5):
                index = gettext.c2py(catalog.plural_expr)(n)
                one, many = message.id[0], message.id[1]
                assert shipped.ngettext(one, many, n) == message.string[index]
        else:
            assert shipped.gettext(message.id) == message.string


def test_the_update_script_reports_nothing_to_do() -> None:
    assert update.run(check=True) == 0


# The extraction keywords of babel.cfg. A variable of one of these names confuses Babel's Python
# extractor: 2.19 took `tr["modules"] < f(state, tr) and s.within(tr["cell"], d["cell"], r)` for a
# call of tr() and extracted "developer" from it, and dropped real messages after `tr = ...`.
KEYWORDS = {"N_", "tr", "_t", "trn", "gettext", "ngettext", "_"}


def test_no_variable_is_named_like_an_extraction_keyword() -> None:
    root = LOCALE.parent.parent
    offenders = []
    for folder in ("bot", "engine"):
        for path in sorted((root / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)):
                    continue
                if node.id in KEYWORDS - {"_"}:
                    offenders.append(f"{path.relative_to(root)}:{node.lineno} {node.id}")
    assert not offenders, offenders


def test_locale_folders_are_packages_so_the_wheel_ships_the_catalogs() -> None:
    from setuptools import find_packages

    found = set(find_packages(str(LOCALE.parent.parent), include=["bot*"]))
    for lang in TARGETS:
        assert f"bot.locale.{lang}.LC_MESSAGES" in found
        assert (LOCALE / lang / "LC_MESSAGES" / "boardchat.mo").is_file()


# ------------------------------------------------------------------ a refusal in each language
def _too_high_bid() -> IllegalAction:
    from engine.powergrid import GAME

    state = GAME.setup(["ann", "bob", "cy"], {"regions": "random"}, 7)
    player = GAME.current_players(state)[0]
    money = state["players"][player]["money"]
    plant = min(state["market"])
    action = GAME.parse(state, player, "bid", [str(plant), str(money + 1)])
    assert isinstance(action, dict)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, player, action)
    return caught.value


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "You cannot bid more than your money (50 E). (PG-22)"),
        ("ru", "Нельзя поставить больше, чем у вас денег (50 Э). (PG-22)"),
        ("zh_Hant", "你的出價不能超過你的錢（50 元）。(PG-22)"),
        ("pl", "Nie możesz zaoferować więcej, niż masz pieniędzy (50 E). (PG-22)"),
        ("ru-RU", "Нельзя поставить больше, чем у вас денег (50 Э). (PG-22)"),
        ("zh-TW", "你的出價不能超過你的錢（50 元）。(PG-22)"),
    ],
)
def test_the_same_illegal_bid_explained_in_each_language(lang: str, expected: str) -> None:
    error = _too_high_bid()
    assert error.rule_id == "PG-22"
    assert error.params == {"money": 50}
    assert explain(lang, error) == expected


def test_a_syntax_error_is_translated_without_a_rule_id() -> None:
    from engine.powergrid import GAME

    state = GAME.setup(["ann", "bob", "cy"], {}, 7)
    player = GAME.current_players(state)[0]
    with pytest.raises(IllegalAction) as caught:
        GAME.parse(state, player, "bid", [])
    english = explain("en", caught.value)
    assert english.startswith("Usage: /bid")
    assert explain("ru", caught.value).startswith("Использование: /bid")
    assert explain("pl", caught.value).startswith("Użycie: /bid")
    assert explain("zh_Hant", caught.value).startswith("用法：/bid")


@pytest.mark.parametrize("lang", TARGETS)
def test_a_turn_prompt_is_fully_translated(lang: str) -> None:
    from engine.powergrid import GAME

    state = GAME.setup(["ann", "bob", "cy"], {"regions": "random"}, 7)
    english = GAME.describe_turn(state, None, EnglishTranslator())
    text = GAME.describe_turn(state, None, translator(lang))
    assert text != english
    assert "/bid" in text
    assert "{" not in text


# ------------------------------------------------------------------ plural forms
@pytest.mark.parametrize(
    ("lang", "n", "expected"),
    [
        ("ru", 1, "1 город"),
        ("ru", 2, "2 города"),
        ("ru", 5, "5 городов"),
        ("ru", 11, "11 городов"),
        ("ru", 21, "21 город"),
        ("ru", 22, "22 города"),
        ("pl", 1, "1 miasto"),
        ("pl", 2, "2 miasta"),
        ("pl", 5, "5 miast"),
        ("pl", 12, "12 miast"),
        ("pl", 21, "21 miast"),
        ("pl", 22, "22 miasta"),
        ("zh_Hant", 1, "1 座城市"),
        ("zh_Hant", 21, "21 座城市"),
        ("en", 1, "1 city"),
        ("en", 21, "21 cities"),
    ],
)
def test_plural_forms_of_cities(lang: str, n: int, expected: str) -> None:
    assert translator(lang).ngettext("{n} city", "{n} cities", n).format(n=n) == expected


@pytest.mark.parametrize(
    ("lang", "n", "expected"),
    [
        ("ru", 1, "В колоде осталась 1 станция"),
        ("ru", 2, "В колоде осталось 2 станции"),
        ("ru", 5, "В колоде осталось 5 станций"),
        ("ru", 21, "В колоде осталась 21 станция"),
        ("pl", 1, "W talii została 1 elektrownia"),
        ("pl", 2, "W talii zostały 2 elektrownie"),
        ("pl", 5, "W talii zostało 5 elektrowni"),
        ("pl", 21, "W talii zostało 21 elektrowni"),
    ],
)
def test_plural_forms_of_plants_in_the_deck(lang: str, n: int, expected: str) -> None:
    t = translator(lang)
    text = t.ngettext("{n} plant left in the deck", "{n} plants left in the deck", n)
    assert text.format(n=n) == expected


# ------------------------------------------------------------------ command descriptions
def _games() -> dict[str, Game]:
    from engine.hexania import GAME as HEXANIA
    from engine.iec import GAME as IEC
    from engine.powergrid import GAME as POWERGRID

    return {g.id: cast(Game, g) for g in (POWERGRID, HEXANIA, IEC)}


@pytest.mark.parametrize("lang", TARGETS)
def test_every_command_description_is_translated(lang: str) -> None:
    games = _games()
    specs = [*table_commands(games), *(c for g in games.values() for c in g.commands)]
    # An argument without its own help is described by bot.placeholders.ARG_HELP (menus).
    untranslated = [
        text
        for spec in specs
        for text in [spec.help, *(arg_help(a.name, a.help) for a in spec.args)]
        if tr(lang, text) == text
    ]
    assert untranslated == []


@pytest.mark.parametrize("lang", TARGETS)
def test_the_command_menu_keeps_names_and_translates_descriptions(lang: str) -> None:
    from bot.table import Table

    table = Table(cast(AnyStore, None), games=_games())  # the menu needs no store
    english = dict(table.command_menu("en"))
    local = dict(table.command_menu(lang))
    assert list(local) == list(english)
    assert "bid" in local and "new" in local and "lang" in local
    same = [name for name in english if local[name] == english[name]]
    assert same == []


# ------------------------------------------------------------------ language resolution
@pytest.mark.parametrize(
    ("user", "platform", "table", "expected"),
    [
        ("pl", "ru", "zh_Hant", "pl"),  # the player's own /lang wins
        (None, "ru", "pl", "ru"),  # then the platform's language
        ("", "zh-TW", "pl", "zh_Hant"),  # Discord locale
        (None, "pl", None, "pl"),  # Discord "pl"
        (None, "ru-RU", None, "ru"),
        (None, None, "pl", "pl"),  # then the table's default
        (None, "de", "ru", "ru"),  # a language we lack is skipped, not taken as English
        ("fr", "de", None, "en"),  # else English
        (None, None, None, "en"),
        (None, "en-US", "ru", "en"),  # English is a real choice, not a gap
        ("zh-hant", "ru", None, "zh_Hant"),
        ("zh_Hant", None, None, "zh_Hant"),
    ],
)
def test_resolve_lang_order(
    user: str | None, platform: str | None, table: str | None, expected: str
) -> None:
    assert resolve_lang(user, platform, table) == expected


def test_supported_codes() -> None:
    assert supported("en-GB") == "en"
    assert supported("zh-CN") == "zh_Hant"
    assert supported("pt-BR") is None
    assert supported("  ") is None


def test_an_empty_message_is_not_the_catalog_header() -> None:
    for lang in LANGUAGES:
        assert tr(lang, "") == ""
        assert translator(lang).gettext("") == ""


def test_a_missing_parameter_does_not_raise() -> None:
    # A placeholder the caller did not pass: the template is shown as written.
    assert tr("ru", "Unknown command /{name}.", other=1) == "Неизвестная команда /{name}."
    assert tr("ru", "Unknown command /{name}.", name="bidd") == "Неизвестная команда /bidd."


# ------------------------------------------------------------------ help placeholders (issue 18)
def _every_command_spec() -> list[CommandSpec]:
    from bot.reminders import reminder_commands
    from engine.registry import games

    specs = [*table_commands(games()), *reminder_commands()]
    return specs + [c for g in games().values() for c in g.commands]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_argument_has_a_translated_placeholder(lang: str) -> None:
    t = translator(lang)
    for spec in _every_command_spec():
        for arg in spec.args:
            if arg.name in ("args",):  # a merged spec's free text (bot.grammar.merged_spec)
                continue
            assert arg.name in PLACEHOLDERS, f"/{spec.name}: no placeholder entry for {arg.name}"
            word = placeholder(arg.name, t)
            assert word and "<" not in word and ">" not in word, (arg.name, word)
            # the same word in some languages; /lang's "chat" is typed as it is
            if arg.name not in ("n", "limit", "region", "chat"):
                assert word != arg.name, (lang, arg.name)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "/new <game> [options...]"),
        ("ru", "/new <игра> [параметры...]"),
        ("pl", "/new <gra> [opcje...]"),
        ("zh_Hant", "/new <遊戲> [選項...]"),
    ],
)
def test_help_signatures_use_the_readers_placeholders(lang: str, expected: str) -> None:
    new = next(s for s in table_commands({}) if s.name == "new")
    assert usage(new, translator(lang)) == expected
    assert usage(new) == "/new <game> [options...]"  # menus and merged specs: the names


async def test_help_in_russian_shows_russian_placeholders(tmp_path: Path) -> None:
    from bot.messages import Inbound
    from bot.store import Store
    from bot.table import Table
    from engine.powergrid import GAME

    store = await Store.open(str(tmp_path / "db.sqlite3"))
    try:
        table = Table(store, games={"powergrid": GAME}, render=False)
        ask = Inbound("local", "local:dm", "local:ann", "ann", update_id="1", text="/lang ru")
        ask = replace(ask, is_private=True)
        await table.handle(ask)
        outs = await table.handle(replace(ask, update_id="2", text="/help"))
        text = "\n".join(o.text for o in outs)
        assert "/new <игра> [параметры...]" in text and "<game>" not in text
        outs = await table.handle(replace(ask, update_id="3", text="/help build"))
        text = "\n".join(o.text for o in outs)
        assert "/build <город...>" in text and "  город: " in text
    finally:
        await store.close()


# ------------------------------------------------------------------ counts (issue 18)
@pytest.mark.parametrize(
    ("lang", "n", "expected"),
    [
        ("en", 3, "The table is full (3 players)."),
        ("ru", 3, "Стол заполнен (3 игрока)."),
        ("ru", 5, "Стол заполнен (5 игроков)."),
        ("pl", 3, "Stół jest pełny (3 gracze)."),
        ("pl", 5, "Stół jest pełny (5 graczy)."),
        ("zh_Hant", 5, "牌桌已滿（5 名玩家）。"),
    ],
)
def test_lobby_counts_take_the_languages_plural_form(lang: str, n: int, expected: str) -> None:
    singular, plural = "The table is full ({n} player).", "The table is full ({n} players)."
    assert trn(lang, singular, plural, n) == expected


@pytest.mark.parametrize(
    ("lang", "high", "piece"),
    [("en", 4, "(2-4 players;"), ("ru", 4, "(2–4 игрока;"), ("ru", 6, "(2–6 игроков;")],
)
async def test_a_new_table_names_its_player_range_in_the_right_form(
    tmp_path: Path, lang: str, high: int, piece: str
) -> None:
    from bot.messages import Inbound
    from bot.store import Store
    from bot.table import Table
    from tests.bot.chatgame import ChatDicePile

    game = ChatDicePile()
    game.max_players = high
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    try:
        table = Table(store, games={"dicepile": game}, render=False)
        ask = Inbound("local", "local:g", "local:ann", "ann", update_id="1", text="/new dicepile")
        outs = await table.handle(replace(ask, lang=lang))
        assert piece in outs[0].text, outs[0].text
    finally:
        await store.close()


def test_a_message_revived_in_two_languages_keeps_each_ones_translation() -> None:
    """A msgid that left the code and came back takes its old translation in each language;
    babel hands every catalog the template's own Message, so one language's revived text once
    showed in the next (pl and zh_Hant got ru's "по раундам" for "per round")."""
    template = Catalog(locale="en")
    template.add("Usage: /pass")
    ru, pl = Catalog(locale="ru"), Catalog(locale="pl")
    ru.obsolete["Usage: /pass"] = Message("Usage: /pass", "Использование")
    pl.obsolete["Usage: /pass"] = Message("Usage: /pass", "Użycie")
    assert present(update.merged(ru, template).get("Usage: /pass")).string == "Использование"
    assert present(update.merged(pl, template).get("Usage: /pass")).string == "Użycie"
    assert not present(template.get("Usage: /pass")).string


@pytest.mark.parametrize("lang", ["ru", "pl", "zh_Hant"])
def test_pg33_a_refusal_names_the_resource_in_the_readers_words(lang: str) -> None:
    """Found playing (2026-11-29): «oil» inside a Russian refusal. A resource in a refusal's
    parameters is a `Term`, worded by the reader's catalog before the message is filled."""
    from engine.core import Term
    from engine.powergrid import GAME
    from tests.engine.powergrid.helpers import give, new_game, set_phase

    state = set_phase(new_game(3, 1), "resources", order=["a", "b", "c"])
    give(state, "c", plants=[4], money=100)  # a coal plant: no room for oil (PG-33)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, "c", {"type": "buy", "resource": "oil", "count": 1})
    assert isinstance(err.value.params["resource"], Term)
    oil = translator(lang).gettext("oil")
    assert oil != "oil"
    said = explain(lang, err.value)
    assert oil in said and "oil" not in said


@pytest.mark.parametrize("lang", ["ru", "pl", "zh_Hant"])
def test_iec_missile_and_intergrid_lines_are_in_the_catalogs(lang: str) -> None:
    """Found playing in Chinese (2026-11-29): a missile line in English. The engine's plural
    messages are marked (`NP_`), so extraction keeps them and each catalog translates them."""
    from engine.iec import GAME as IEC
    from engine.iec.lines import _PLURAL_EVENT_TEXT

    state = IEC.setup(["ann", "bob"], {}, 1)
    t = translator(lang)
    for kind, (singular, plural, _key) in _PLURAL_EVENT_TEXT.items():
        for n in (1, 2, 5):
            assert t.ngettext(singular, plural, n) not in (singular, plural), (kind, n)
    event = {"type": "missiles", "player": "ann", "launcher": "G5", "target": "V16"}
    line = IEC.describe_event(state, {**event, "rolls": [1, 4], "need": 4, "hits": 1}, t)
    assert line is not None and "fires at" not in line and "G5" in line


@pytest.mark.parametrize(
    ("lang", "left", "wrong"),
    [
        ("ru", 3600.0, "осталось 1 час"),
        ("ru", 60.0, "осталось 1 минута"),
        ("pl", 3600.0, "zostało 1 godzina"),
        ("pl", 7200.0, "zostało 2 godziny"),
    ],
)
def test_a_reminders_time_left_reads_whatever_the_duration(
    lang: str, left: float, wrong: str
) -> None:
    """Found by the time tester (2026-12-05): "осталось 1 час", "zostało 2 godziny" — the verb
    before a duration must agree with its first number's noun, which the message cannot know;
    the time left now follows a label ("осталось времени:", "pozostały czas:")."""
    from bot.deadlines import ChatSettings, human_duration
    from bot.reminder_text import reminder_text
    from engine.powergrid import GAME

    state = GAME.setup(["ann", "bob", "cyd"], {}, 1)
    for chat in (None, "Game night"):
        text = reminder_text(lang, "remind", GAME, state, "ann", chat, left, ChatSettings())
        assert wrong not in text and human_duration(left, lang) in text
