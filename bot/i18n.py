"""Translation: gettext catalogs under bot/locale/<lang>/LC_MESSAGES/boardchat.mo.

English is the source language: message ids are the English texts (engine code marks them
with `N_`). A language without a compiled catalog falls back to English.
"""

from __future__ import annotations

import gettext
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from bot.grammar import MERGED_HELP, is_merged, shared_help  # noqa: F401 (re-exported)
from engine.core.errors import IllegalAction
from engine.core.protocol import CommandSpec

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


@cache
def translator(lang: str | None) -> gettext.NullTranslations:
    """A gettext object for `lang` (what describe_turn/describe_event receive as `t`)."""
    name = normalize(lang)
    if name == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[name], fallback=True, class_=_Catalog)


def tr(lang: str | None, message: str, **params: Any) -> str:
    """Translate an English message template and fill its placeholders."""
    text = translator(lang).gettext(message)
    if not params:
        return text
    return _fill(text, message, params)


def trn(lang: str | None, singular: str, plural: str, count: int, /, **params: Any) -> str:
    """A message about a count, in the plural form `lang` takes for `count` ("3 игрока",
    "5 graczy"); `count` fills "{n}" unless `params` gives `n` (another number)."""
    text = translator(lang).ngettext(singular, plural, count)
    params.setdefault("n", count)
    return _fill(text, singular if count == 1 else plural, params)


def _fill(text: str, message: str, params: dict[str, Any]) -> str:
    # A translation whose placeholders do not match falls back to English; a caller that
    # forgot a parameter gets the template as written rather than an exception.
    for template in (text, message):
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError, AttributeError):
            continue
    return text


def explain(lang: str | None, error: IllegalAction) -> str:
    """One line for a refused move: the reason, then the rule it breaks."""
    reason = tr(lang, error.message_key, **error.params)
    if error.rule_id in ("", "syntax"):
        return reason
    return f"{reason} ({error.rule_id})"


def spec_help(lang: str | None, spec: CommandSpec) -> str:
    """A command's menu description in `lang`: its own help translated, or for a command
    several games share (bot.grammar.is_merged) its one game-neutral description."""
    return tr(lang, shared_help(spec.name) if is_merged(spec) else spec.help)
