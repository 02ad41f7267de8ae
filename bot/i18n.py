"""Translation: gettext catalogs under bot/locale/<lang>/LC_MESSAGES/boardchat.mo.

English is the source language: message ids are the English texts (engine code marks them
with `N_`). A language without a compiled catalog falls back to English.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path
from typing import Any

from engine.core.errors import IllegalAction

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "boardchat"
LANGUAGES = ("en", "ru", "zh_Hant", "pl")


def normalize(lang: str | None) -> str:
    """Map platform language codes ("ru-RU", "zh-TW", "zh-hant", "pl") to a catalog name."""
    if not lang:
        return "en"
    code = lang.replace("-", "_").lower()
    if code.startswith("zh"):
        return "zh_Hant"
    base = code.split("_")[0]
    return base if base in LANGUAGES else "en"


@cache
def translator(lang: str | None) -> gettext.NullTranslations:
    name = normalize(lang)
    if name == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[name], fallback=True)


def tr(lang: str | None, message: str, **params: Any) -> str:
    """Translate an English message template and fill its placeholders."""
    text = translator(lang).gettext(message)
    try:
        return text.format(**params) if params else text
    except (KeyError, IndexError, ValueError):
        return message.format(**params)


def explain(lang: str | None, error: IllegalAction) -> str:
    """One line for a refused move: the reason, then the rule it breaks."""
    reason = tr(lang, error.message_key, **error.params)
    if error.rule_id in ("", "syntax"):
        return reason
    return f"{reason} ({error.rule_id})"
