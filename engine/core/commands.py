"""One declaration per chat command (issue 26): a command's spec (name, typed arguments, help,
examples, usage line) and its handler stand together, registered once in a `CommandTable`, and
the declared arguments drive the parser (model: discord.py's app commands and Transformers —
one object per argument kind reads the words and autocompletes them).

The table does what every command needs: it finds the command (names are case-insensitive, a
leading slash is dropped), splits the arguments into words, counts them against the declared
arguments (a command with one-word arguments only refuses a missing or an extra word with its
usage line) and hands a `Call` to the handler. Arguments of a kind that may span several words
(a city or region name, "rest", a repeated argument) are counted by the handler.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import N_, ParseError
from engine.core.protocol import (
    Action,
    ArgSpec,
    CommandSpec,
    EnglishTranslator,
    Reply,
    State,
    Translator,
)

Parsed = Action | list[Action] | Reply

# Kinds read from exactly one word; any other kind (a city or region name of several words,
# "rest") leaves the counting to the handler.
ONE_WORD_KINDS = frozenset({"int", "plant", "resource", "cell", "choice", "str"})

_ENGLISH = EnglishTranslator()


@dataclass(frozen=True)
class ArgKind:
    """How one kind of argument is read from chat words and autocompleted (a Transformer).

    `read(call, words)` turns the words of the argument into its value (raising ParseError or
    IllegalAction); `complete(state, player, prefix)` lists candidates for a half-typed word
    (`state` is None when no game runs in the chat yet)."""

    name: str
    read: Callable[[Call, Sequence[str]], Any] | None = None
    complete: Callable[[State | None, str | None, str], list[str]] | None = None


@dataclass(frozen=True)
class Call:
    """One command as the player typed it: on which state, by whom, the words after the
    command's name, the language of any reply, and the command's declaration."""

    state: State
    player: str
    words: list[str]
    t: Translator
    spec: CommandSpec
    table: CommandTable

    def usage_error(self, word: str | None = None) -> ParseError:
        """The command's usage line as an error (naming the word that did not fit)."""
        if word is None:
            return ParseError(self.spec.usage)
        return ParseError(self.spec.usage, word=word)

    def read(self, kind: str, words: Sequence[str] | None = None) -> Any:
        """The value of `words` (all the call's words by default) read as `kind`."""
        reader = self.table.kinds[kind].read
        if reader is None:
            raise KeyError(f"argument kind {kind!r} has no reader")
        return reader(self, self.words if words is None else words)


Handler = Callable[[Call], Parsed]


def word_range(args: Sequence[ArgSpec]) -> tuple[int, int] | None:
    """(fewest, most) words the declared arguments take, or None when a kind spans several
    words or an argument repeats (then the handler counts)."""
    if any(a.repeated or a.kind not in ONE_WORD_KINDS for a in args):
        return None
    return sum(1 for a in args if a.required), len(args)


# A game command mistyped: the same words as the table's own (bot/table_base.py).
DID_YOU_MEAN = N_("Unknown command /{name}. Did you mean /{command}? /help lists the commands.")


def nearest_name(typed: str, names: Collection[str]) -> str | None:
    """The name a mistyped one most likely meant, if one is close enough: letters swapped
    first ("/stauts" is /status, nearer than the shorter /stats), else `difflib`'s closest.
    The table's commands and a game's are suggested alike (found playing, 2026-12-03)."""
    ordered = sorted(names)
    folded = typed.casefold()
    swapped = [n for n in ordered if sorted(n) == sorted(folded)]
    near = swapped or difflib.get_close_matches(folded, ordered, n=1, cutoff=0.75)
    return near[0] if near else None


@dataclass
class CommandTable:
    """A game's commands in the order players see them, each declared once."""

    unknown: str = N_("Unknown command /{name}. Commands: {commands}")
    # Other names a command answers to ("g" for /grow).
    aliases: dict[str, str] = field(default_factory=dict)
    # False for a game whose arguments take free-form extras (Hexania's "keep=L12" after any
    # command): then every handler counts its own words.
    count_words: bool = True
    kinds: dict[str, ArgKind] = field(default_factory=dict)
    _specs: list[CommandSpec] = field(default_factory=list)
    _handlers: dict[str, Handler] = field(default_factory=dict)

    def command(
        self,
        name: str,
        help: str,
        args: tuple[ArgSpec, ...] = (),
        examples: tuple[str, ...] = (),
        *,
        usage: str = "",
        kind: str = "move",
    ) -> Callable[[Handler], Handler]:
        """Declare a command and register the decorated function as its handler (`usage`
        may stay empty for a command that refuses no words)."""

        def register(handler: Handler) -> Handler:
            self.add(CommandSpec(name, help, args, examples, kind=kind, usage=usage), handler)
            return handler

        return register

    def declared(self, spec: CommandSpec) -> Callable[[Handler], Handler]:
        """Register the decorated function as the handler of a command declared elsewhere,
        keeping that declaration whole (a variant answering a base game's command its own way:
        same name, arguments, help and usage line)."""

        def register(handler: Handler) -> Handler:
            self.add(spec, handler)
            return handler

        return register

    def add(self, spec: CommandSpec, handler: Handler) -> None:
        if spec.name in self._handlers:
            raise ValueError(f"/{spec.name} is declared twice")
        self._specs.append(spec)
        self._handlers[spec.name] = handler

    def kind(self, kind: ArgKind) -> ArgKind:
        self.kinds[kind.name] = kind
        return kind

    @property
    def specs(self) -> list[CommandSpec]:
        return list(self._specs)

    @property
    def usage(self) -> Mapping[str, str]:
        """Command name -> its usage line (N_-marked)."""
        return {spec.name: spec.usage for spec in self._specs}

    @property
    def handlers(self) -> Mapping[str, Handler]:
        return dict(self._handlers)

    def nearest(self, typed: str) -> str | None:
        """The command (or alias: a command the player may type) a mistyped name most
        likely meant; None when nothing is near."""
        return nearest_name(typed, {s.name for s in self._specs} | set(self.aliases))

    def spec(self, name: str) -> CommandSpec | None:
        """The command a typed name means (any case, a leading slash, an alias)."""
        key = name.strip().lstrip("/").casefold()
        key = self.aliases.get(key, key)
        return next((s for s in self._specs if s.name == key), None)

    def call(
        self, spec: CommandSpec, state: State, player: str, words: list[str], t: Translator
    ) -> Parsed:
        """Run the handler of `spec` on words already split (no counting)."""
        return self._handlers[spec.name](Call(state, player, words, t, spec, self))

    def parse(
        self,
        state: State,
        player: str,
        name: str,
        args: list[str],
        t: Translator | None = None,
    ) -> Parsed:
        """Chat command -> action(s) or a Reply. Raises ParseError / IllegalAction."""
        spec = self.spec(name)
        if spec is None:
            typed = name.strip().lstrip("/").casefold()
            near = self.nearest(typed)
            if near is not None:  # "/bidd 20": one letter off a command of the game
                raise ParseError(DID_YOU_MEAN, name=typed, command=near)
            raise ParseError(
                self.unknown,
                name=typed,
                commands=" ".join(f"/{c.name}" for c in self._specs),
            )
        words = [w for arg in args for w in arg.split()]
        counts = word_range(spec.args) if self.count_words else None
        if counts is not None:
            fewest, most = counts
            if len(words) > most:
                raise ParseError(spec.usage, word=words[most])
            if len(words) < fewest:
                raise ParseError(spec.usage)
        return self.call(spec, state, player, words, t or _ENGLISH)

    def complete(
        self, state: State | None, player: str | None, kind: str, prefix: str
    ) -> list[str]:
        """Autocomplete candidates for an argument kind (none for a kind without them)."""
        found = self.kinds.get(kind)
        if found is None or found.complete is None:
            return []
        return found.complete(state, player, prefix)
