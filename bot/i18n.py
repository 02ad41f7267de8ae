"""Translation: gettext catalogs under bot/locale/<lang>/LC_MESSAGES/boardchat.mo.

English is the source language: message ids are the English texts (engine code marks them
with `N_`). A language without a compiled catalog falls back to English.
"""

from __future__ import annotations

import gettext
import re
import string
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel import Locale

from bot.grammar import MERGED_HELP, is_merged, shared_help  # noqa: F401 (re-exported)
from engine.core.errors import IllegalAction, word_params
from engine.core.protocol import CommandSpec
from engine.core.sentences import Listed, join_sentences

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "boardchat"
LANGUAGES = ("en", "ru", "zh_Hant", "pl")
# The description of a command several games define differently (/build, /bid, ...): menus
# show one game-neutral text (bot/grammar.py SHARED_HELP, else MERGED_HELP), never the games'
# descriptions glued together.


@lru_cache(maxsize=256)  # a handful of platform codes, asked for every seated player per move
def supported(lang: str | None) -> str | None:
    """The catalog name for a platform language code, or None when we have no such language.

    "ru-RU" -> "ru", "pl" -> "pl", "en-GB" -> "en", "zh-TW" / "zh-hant" / "zh_Hant" -> "zh_Hant"
    (every Chinese locale gets the Traditional catalog, the only Chinese one), "de" -> None.
    """
    if not lang or not lang.strip():
        return None
    code = lang.strip().replace("-", "_").lower()
    if code.startswith("zh"):
        return "zh_Hant"
    base = code.split("_")[0]
    return base if base in LANGUAGES else None


@cache
def language_label(lang: str) -> str:
    """A catalog language as people read it: its own name (Babel's) and the code /lang takes,
    "русский (ru)", "中文 (繁體) (zh-hant)", never the catalog's folder name "zh_Hant"."""
    code = "zh-hant" if lang == "zh_Hant" else lang
    return f"{Locale.parse(lang).get_display_name(lang)} ({code})"


@cache
def _language_names() -> dict[str, str]:
    """Every catalog language's name in every catalog language, casefolded: "polski",
    "Polish", "польский", "波蘭文", "中文 (繁體)" -> its catalog name (Babel's names)."""
    names: dict[str, str] = {}
    for reader in LANGUAGES:
        locale = Locale.parse(reader)
        for lang in LANGUAGES:
            full = Locale.parse(lang).get_display_name(reader)
            if full:
                names[full.casefold()] = lang
            short = locale.languages.get(lang.split("_")[0])  # "中文" beside "中文 (繁體)"
            if short:
                names[short.casefold()] = lang
    return names


def language_named(words: str) -> str | None:
    """The catalog language a person names: a code ("pl", "zh-TW"), the name in any of our
    languages ("polski", "Russian", "中文") or the label /lang lists ("русский (ru)"); None
    when we have no such language (found playing: "/lang polski" was refused)."""
    text = " ".join(words.split()).casefold()
    label = re.fullmatch(r".*\(([a-z_-]+)\)", text)  # "русский (ru)": its code
    if label is not None:
        text = label.group(1)
    return _language_names().get(text) or supported(text)


def normalize(lang: str | None) -> str:
    """Map platform language codes ("ru-RU", "zh-TW", "zh-hant", "pl") to a catalog name;
    English for anything we do not translate."""
    return supported(lang) or "en"


def resolve_lang(
    user_choice: str | None, platform_lang: str | None, table_default: str | None
) -> str:
    """The language to answer a player in: their own choice (/lang), else their platform's
    language (Telegram `language_code`, Discord `locale` such as "zh-TW"), else the table's
    default, else English. A value we have no catalog for is skipped, not taken as English."""
    for candidate in (user_choice, platform_lang, table_default):
        name = supported(candidate)
        if name is not None:
            return name
    return "en"


class _Catalog(gettext.GNUTranslations):
    """A compiled catalog that answers an empty message with an empty string (plain gettext
    would return the catalog's metadata header for "")."""

    def gettext(self, message: str) -> str:
        return super().gettext(message) if message else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        if not msgid1:
            return msgid1 if n == 1 else msgid2
        return super().ngettext(msgid1, msgid2, n)


class _ChineseTemplate(str):
    """A Chinese catalog text whose `format` sets its values as `tr` does (`_set_chinese`):
    the games fill their own lines (`t.gettext(...).format(player=...)`), and a player named
    小明 must read "小明擲出 4+3", not "小明 擲出 4+3"."""

    __slots__ = ()

    def format(self, *args: Any, **params: Any) -> str:
        if args:
            return str.format(self, *args, **params)
        return _set_chinese(self, params)


class _ChineseCatalog(_Catalog):
    def gettext(self, message: str) -> str:
        return _ChineseTemplate(super().gettext(message))

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return _ChineseTemplate(super().ngettext(msgid1, msgid2, n))


@cache
def translator(lang: str | None) -> gettext.NullTranslations:
    """A gettext object for `lang` (what describe_turn/describe_event receive as `t`)."""
    name = normalize(lang)
    if name == "en":
        return gettext.NullTranslations()
    catalog = _ChineseCatalog if name == "zh_Hant" else _Catalog
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[name], fallback=True, class_=catalog)


def listed(items: Iterable[object], empty: str = "-") -> Listed | str:
    """A list as a parameter of `tr` ("ann, bo"; "ann、bo" for a Chinese reader), or `empty`
    when there is nothing to list."""
    found = Listed(items)
    return found if found.items else empty


def tr(lang: str | None, message: str, **params: Any) -> str:
    """Translate an English message template and fill its placeholders (a `Term` among them,
    a word of the game such as a resource, is translated too, and a `Worded`, several such
    words, is worded)."""
    t = translator(lang)
    text = t.gettext(message)
    if not params:
        return text
    return _fill(text, message, word_params(t, params), normalize(lang))


def trn(lang: str | None, singular: str, plural: str, count: int, /, **params: Any) -> str:
    """A message about a count, in the plural form `lang` takes for `count` ("3 игрока",
    "5 graczy"); `count` fills "{n}" unless `params` gives `n` (another number)."""
    text = translator(lang).ngettext(singular, plural, count)
    params.setdefault("n", count)
    return _fill(text, singular if count == 1 else plural, params, normalize(lang))


def _fill(text: str, message: str, params: dict[str, Any], lang: str = "en") -> str:
    # A translation whose placeholders do not match falls back to English; a caller that
    # forgot a parameter gets the template as written rather than an exception.
    for template in (text, message):
        try:
            if lang == "zh_Hant" and template is text:
                return _set_chinese(template, params)
            return template.format(**params)
        except (KeyError, IndexError, ValueError, AttributeError):
            continue
    return text


# Chinese sets no space between two characters, but the catalog cannot know whether a value
# will begin or end with one: "{game} 開始！" reads "Hexania 開始！" and must read "發電廠開始！";
# "{name} 入座" the same for a player called 小明. Values are filled between markers, and a
# template's space that touches a value and stands between two characters is dropped.
_OPEN, _CLOSE = "\x02", "\x03"
# characters (CJK blocks) and full-width marks (CJK punctuation, full-width forms)
_HAN = "[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]"
_GAP_AT_VALUE = re.compile(f"(?<={_HAN}{_CLOSE}) (?={_OPEN}?{_HAN})|(?<={_HAN}) (?={_OPEN}{_HAN})")


class _MarkedValues(string.Formatter):
    """str.format that puts each filled value (format spec applied) between markers."""

    def format_field(self, value: Any, format_spec: str) -> str:
        return _OPEN + super().format_field(value, format_spec) + _CLOSE


_MARKED = _MarkedValues()


@lru_cache(maxsize=4096)
def _value_gaps(template: str) -> str:
    """How to fill a Chinese template: "plain" when no space touches a placeholder, "quick"
    when one does and every field is a bare name, "full" when some field has a format spec or
    conversion (filled by `_MARKED`, slower)."""
    if "} " not in template and " {" not in template:
        return "plain"
    fields = [(f, spec, conv) for _, f, spec, conv in _MARKED.parse(template) if f is not None]
    bare = all(f.isidentifier() and not spec and not conv for f, spec, conv in fields)
    return "quick" if fields and bare else "full"


def _set_chinese(template: str, params: dict[str, Any]) -> str:
    template = str.__str__(template)  # a plain str: its own `format`, not the template's
    how = _value_gaps(template)
    if how == "plain":
        return template.format(**params)
    if how == "quick":
        marked = template.format(**{k: f"{_OPEN}{v}{_CLOSE}" for k, v in params.items()})
    else:
        marked = _MARKED.format(template, **params)
    return _GAP_AT_VALUE.sub("", marked).replace(_OPEN, "").replace(_CLOSE, "")


def explain(lang: str | None, error: IllegalAction) -> str:
    """One line for a refused move: the reason, then the rule it breaks."""
    reason = tr(lang, error.message_key, **error.params)
    if error.rule_id in ("", "syntax"):
        return reason
    return join_sentences(reason, f"({error.rule_id})")


def spec_help(lang: str | None, spec: CommandSpec) -> str:
    """A command's menu description in `lang`: its own help translated, or for a command
    several games share (bot.grammar.is_merged) its one game-neutral description."""
    return tr(lang, shared_help(spec.name) if is_merged(spec) else spec.help)
