"""Errors a game raises, carrying a rule id and a translatable message."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from engine.core.protocol import EnglishTranslator


def N_(message: str) -> str:
    """Mark a string for translation without translating it (gettext_noop).

    The engine never translates; the bot looks the English text up in its catalogs
    (`pybabel extract -k N_`) and fills the placeholders with `params`.
    """
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with its plural for translation without translating it (the pair a
    `t.ngettext(singular, plural, n)` later takes; extracted with `-k NP_:1,2`)."""
    return singular, plural


class Term(str):
    """A word of the game in a message's parameters (a resource: "oil") that the reader's
    catalog words too: the table translates it before it fills the message, so a Russian
    refusal says «нефть», not «oil». Its text is its msgid (marked with `N_` where defined)."""

    __slots__ = ()


class Worded(ABC):
    """A parameter composed of several words of the game (the ways to keep tokens: "2 coal,
    1 oil | 3 coal") that the reader's translator words when the message is filled, as a
    `Term` is: the rules raise their refusal without a translator (in `apply`, for bots and
    buttons too), and the reader still gets it in his language. `str()` gives it in English.
    A subclass keeps plain data, so the refusal still pickles (the bots' process pool)."""

    __slots__ = ()

    @abstractmethod
    def words(self, t: Any) -> str:
        """The parameter in the words of translator `t`."""

    def __str__(self) -> str:
        return self.words(EnglishTranslator())


def word_params(t: Any, params: dict[str, Any]) -> dict[str, Any]:
    """`params` with their `Term`s and `Worded`s in the words of translator `t`."""
    if not any(isinstance(v, (Term, Worded)) for v in params.values()):
        return params
    return {
        k: t.gettext(v) if isinstance(v, Term) else v.words(t) if isinstance(v, Worded) else v
        for k, v in params.items()
    }


def worded(t: Any, message_key: str, params: dict[str, Any]) -> str:
    """`message_key` in the words of translator `t`, filled with `params`, their `Term`s
    and `Worded`s worded too (for a game's own texts; the table does the same for refusals)."""
    filled = word_params(t, params)
    try:
        return str(t.gettext(message_key).format(**filled))
    except (KeyError, IndexError, ValueError):
        return str(t.gettext(message_key))


class IllegalAction(Exception):
    """A move the rules forbid. Raised before any change to the state.

    `rule_id` names the broken rule ("PG-22", "HEX-7"); `message_key` is the English
    message template (a gettext msgid with `{placeholders}`); `params` fill it. `secret`: the
    refusal itself tells what only the mover may know (under hidden money, PG-9, that he
    cannot pay, and how much he has): the table answers him privately, never in a group.
    """

    def __init__(
        self, rule_id: str, message_key: str, *, secret: bool = False, **params: Any
    ) -> None:
        self.rule_id = rule_id
        self.message_key = message_key
        self.params = params
        self.secret = secret
        super().__init__(f"[{rule_id}] {self.english()}")

    def english(self) -> str:
        try:
            return self.message_key.format(**self.params)
        except (KeyError, IndexError, ValueError):
            return self.message_key


class ParseError(IllegalAction):
    """Chat text that does not form a command of the game (wrong arguments, unknown city)."""

    def __init__(self, message_key: str, **params: Any) -> None:
        super().__init__("syntax", message_key, **params)


class MissingArgument(ParseError):
    """A command given too few words. The table adds the command's signature in the reader's
    language ("Usage: /build <cell> [kind] ..."), built from its declaration, so a game need
    not write a usage line per command."""

    def __init__(self) -> None:
        super().__init__(N_("Missing argument."))
