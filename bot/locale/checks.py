"""Checks on translated catalogs shared by bot/locale/update.py and the tests.

A translation must keep every `{placeholder}` of its message exactly (same names, same
format specs, same number of times), in each plural form, and must keep the command names
(`/bid`, `/build`, ...) that the English text mentions.
"""

from __future__ import annotations

import re
from collections import Counter
from string import Formatter
from typing import Any

_FIELD = re.compile(r"(?<!\{)\{([^{}]*)\}(?!\})")
_COMMAND = re.compile(r"(?<![\w/])/[a-z][a-z0-9_]*")


def placeholder_list(text: str) -> Counter[str]:
    """Counter of "{name}" / "{name:spec}" / "{name!r}" fields as written in `text`."""
    fields: Counter[str] = Counter()
    try:
        for _, name, spec, conversion in Formatter().parse(text):
            if name is None:
                continue
            field = name
            if conversion:
                field += "!" + conversion
            if spec:
                field += ":" + spec
            fields["{" + field + "}"] += 1
    except ValueError:
        fields = Counter("{" + m + "}" for m in _FIELD.findall(text))
    return fields


def placeholders(text: str) -> set[str]:
    return set(placeholder_list(text))


def commands(text: str) -> Counter[str]:
    """The slash commands a text mentions ("/bid", "/new")."""
    return Counter(_COMMAND.findall(text))


def _forms(string: Any) -> list[str]:
    if isinstance(string, str):
        return [string]
    return list(string or ())


def problems(catalog: Any) -> list[str]:
    """Every placeholder, command-name and plural-count problem of a babel Catalog."""
    out: list[str] = []
    expected_forms = catalog.num_plurals
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        ids = _forms(message.id)
        strings = _forms(message.string)
        if not any(strings):
            continue  # untranslated: reported separately
        if message.pluralizable and len(strings) != expected_forms:
            out.append(f"{ids[0]!r}: {len(strings)} plural forms, expected {expected_forms}")
        reference = ids[-1]  # the plural msgid (or the only one)
        want = placeholder_list(reference)
        want_commands = commands(reference)
        for index, text in enumerate(strings):
            label = f"[{index}]" if message.pluralizable else ""
            got = placeholder_list(text)
            if got != want:
                out.append(
                    f"{ids[0]!r}{label}: placeholders {sorted(got.elements())} "
                    f"!= {sorted(want.elements())}"
                )
            if set(commands(text)) != set(want_commands):
                out.append(
                    f"{ids[0]!r}{label}: commands {sorted(commands(text))} "
                    f"!= {sorted(want_commands)}"
                )
    return out
