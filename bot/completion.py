"""Autocomplete for the platforms (TableService.complete)."""

from __future__ import annotations

import logging
from dataclasses import replace

from bot import rulebook
from bot.context import (
    MAX_COMPLETIONS,
    UNIQUE_KINDS,
)
from bot.deadlines import PICTURES, POLICIES
from bot.grammar import (
    MAX_VALUE_WORDS,
    ArgAt,
    arg_at,
)
from bot.i18n import resolve_lang
from bot.service import MAX_COMPLETION, parse_args_kind
from bot.table_base import TableBase
from engine.core import load_state
from engine.core.protocol import ArgSpec, CommandSpec, Game, State

log = logging.getLogger(__name__)

NEW_COMMAND = "new"
RULES_COMMAND = "rules"
SETTINGS_COMMAND = "settings"
# /settings keys (bot/reminders.py) with typical values to offer.
SETTING_VALUES: dict[str, tuple[str, ...]] = {
    "deadline": ("1h", "6h", "12h", "24h", "2d", "7d"),
    "reminders": ("0,50,90", "50,90", "off"),
    "quiet": ("22-08", "23-07", "off"),
    "tz": ("UTC", "Europe/Berlin", "Europe/Warsaw", "Europe/Moscow", "Asia/Taipei"),
    "policy": POLICIES,
    "games": ("all",),  # and the game ids (`_complete_table`)
    "pictures": PICTURES,
    "hints": ("on", "off"),
    "clock": ("deadline", "bank:3d+12h", "bank:1d+6h"),  # issue 17: a time bank per player
}


class CompletionMixin(TableBase):
    """Autocomplete of game names, bot kinds and command arguments."""

    async def complete(self, chat_key: str, user_key: str, kind: str, prefix: str) -> list[str]:
        try:
            low = prefix.casefold()
            if kind == "game":
                return [g for g in self.games if g.startswith(low)]
            free = parse_args_kind(kind)
            if free is not None and free == (RULES_COMMAND, 0):
                return await self._complete_rules(chat_key, user_key, prefix)
            if free is not None and free[0] in self._table_names:
                # The table's own commands: /new's game and options, /settings' keys.
                return self._complete_table(*free, prefix)
            row = await self.store.open_game(chat_key)
            if row is None or row.game_id not in self.games:
                return []
            game = self.games[row.game_id]
            if kind == "bot_kind":
                return [k for k in game.bots if k.startswith(low)]
            state = load_state(row.state_json) if row.state_json else None
            seats = await self.store.seats(row.id)
            player = next((s.display_name for s in seats if s.user_key == user_key), None)
            if free is not None:
                return self._complete_args(game, state, player, *free, prefix)
            return list(game.complete(state, player, kind, prefix))[:MAX_COMPLETIONS]
        except Exception:
            log.exception("autocomplete failed in chat %s", chat_key)
            return []

    async def _complete_rules(self, chat_key: str, user_key: str, text: str) -> list[str]:
        """`/rules <id or word>`: the rules of the chat's game, "PG-21 · Торги" (id and title
        in the asker's language, bot/rulebook.py `offers`); without a game, the games with a
        rulebook, then after one of them its rules (`/rules hexania HEX-3`)."""
        row = await self.store.open_game(chat_key)
        user, chat = await self.store.user(user_key), await self.store.chat(chat_key)
        lang = resolve_lang(user.lang, None, chat.lang or self.default_lang)
        if row is not None and row.game_id in self.games:
            return self._rule_offers(row.game_id, text, lang)
        books = [g for g in self.games if g in rulebook.available()]
        first, space, rest = text.lstrip().partition(" ")
        if not space:
            return [g for g in books if g.startswith(first.casefold())]
        game_id = first.casefold()
        if game_id not in books:
            return []
        lines = (f"{game_id} {o}" for o in self._rule_offers(game_id, rest, lang))
        return [line for line in lines if len(line) <= MAX_COMPLETION]

    def _rule_offers(self, game_id: str, text: str, lang: str) -> list[str]:
        game = self.games[game_id]
        index = game.rules_index if game.capabilities.rules_index else None
        return rulebook.offers(game_id, text, lang, index)[:MAX_COMPLETIONS]

    def _complete_args(
        self,
        game: Game,
        state: State | None,
        player: str | None,
        command: str,
        start: int,
        text: str,
    ) -> list[str]:
        """Whole-text completions of the words typed after `/command`, by the position of the
        last word in this game's spec of the command (see TableService.complete)."""
        spec = next((s for s in game.commands if s.name == command), None)
        if spec is None:
            return []

        def whole(arg: ArgSpec, words: str) -> bool:
            low = words.casefold()
            return any(v.casefold() == low for v in _values(game, state, player, arg, words))

        at = arg_at(spec.args[start:], text, whole)
        if at is None:
            return []
        if at.arg.clause:
            return _clause_lines(game, state, player, at)
        own = _value_lines(game, state, player, spec, start, at)
        # Where a later clause may begin ("/lay H7 H8 ", "/build G6 ", "... fr"): its name and
        # values too, first after a list of values or its name's first letters.
        later = next((a for a in spec.args[spec.args.index(at.arg) + 1 :] if a.clause), None)
        optional = at.arg.repeated or at.arg.kind == "rest" or not at.arg.required
        if later is None or not optional or not later.name.startswith(at.partial.casefold()):
            return own
        clause = _clause_lines(game, state, player, replace(at, arg=later, start=len(at.done)))
        listed = at.partial or at.arg.repeated or at.arg.kind == "rest"
        return ([*clause, *own] if listed else [*own, *clause])[:MAX_COMPLETIONS]

    def _complete_table(self, command: str, start: int, text: str) -> list[str]:
        """Whole-text completions of the table's key=value commands: `/new <game>
        key=value ...` (the chosen game's options and their choices) and `/settings
        key=value ...` (the keys and typical values); every word completes."""
        words = text.split()
        partial = words.pop() if words and not text[-1].isspace() else ""
        words = [*([""] * start), *words]  # positions as if the earlier options were typed
        if command == NEW_COMMAND:
            if len(words) == 0:
                return self._lines(words, list(self.games), partial, start)
            game = self.games.get(words[0].casefold())
            if game is None:
                return []
            options = {o.key: o.choices or (o.default,) for o in game.options}
        elif command == SETTINGS_COMMAND:
            options = {**SETTING_VALUES, "games": ("all", *self.games)}
        else:
            return []
        given = {w.partition("=")[0].casefold() for w in words if "=" in w}
        key, sep, value = partial.partition("=")
        if not sep:
            keys = [f"{k}=" for k in options if k not in given]
            return self._lines(words, keys, partial, start)
        choices = options.get(key.casefold(), ())
        if key.casefold() == "games" and command == SETTINGS_COMMAND:
            # a comma list of game ids: complete its last item
            head, _, last = value.rpartition(",")
            picked = {g for g in head.split(",") if g}
            prefix = f"{head}," if head else ""
            choices = tuple(f"{prefix}{g}" for g in self.games if g not in picked)
            choices = choices if head else ("all", *choices)
            value = f"{prefix}{last}"
        return self._lines(words, [f"{key}={c}" for c in choices], f"{key}={value}", start)

    @staticmethod
    def _lines(words: list[str], values: list[str], partial: str, start: int) -> list[str]:
        """The lines `words + value` for the values that begin with `partial`, without the
        first `start` words (another option's)."""
        low = partial.casefold()
        out: list[str] = []
        for value in values:
            if value.casefold().startswith(low):
                line = " ".join([*words[start:], value])
                if len(line) <= MAX_COMPLETION:
                    out.append(line)
            if len(out) == MAX_COMPLETIONS:
                break
        return out


def _values(
    game: Game, state: State | None, player: str | None, arg: ArgSpec, typed: str
) -> list[str]:
    """The values of `arg` that begin with `typed`: its fixed choices, else the game's."""
    if arg.choices:
        low = typed.casefold()
        return [c for c in arg.choices if c.casefold().startswith(low)]
    return list(game.complete(state, player, arg.kind, typed))


def _longer_value(game: Game, state: State | None, player: str | None, at: ArgAt) -> list[str]:
    """The word being typed as the next word of the value before it: "/build E7 пусковая у"
    completes the building type "пусковая установка", not the developer's cell that follows
    a one-word type (found playing IEC, 2026-12-02: whole-line completion counted words)."""
    if not at.partial or at.before is None:
        return []
    arg, begin = at.before
    if arg.repeated or arg.kind == "rest" or len(at.done) - begin >= MAX_VALUE_WORDS:
        return []
    typed = " ".join([*at.done[begin:], at.partial])
    lines = [" ".join([*at.done[:begin], v]) for v in _values(game, state, player, arg, typed)]
    return [line for line in lines if len(line) <= MAX_COMPLETION][:MAX_COMPLETIONS]


def _clause_lines(game: Game, state: State | None, player: str | None, at: ArgAt) -> list[str]:
    """A clause argument's lines (`ArgSpec.clause`): after its name, its values ("H7 from E"
    -> "H7 from E3"); before it, its name with each value ("H7 " -> "H7 from E3")."""
    arg, done = at.arg, list(at.done)
    if at.start < len(done) and done[at.start].casefold() == arg.name.casefold():
        if len(done) > at.start + 1:
            return []  # one value: its words are done
        head, typed = done, at.partial
    else:
        typed = "" if arg.name.startswith(at.partial.casefold()) else at.partial
        head = [*done, arg.name]
    lines = (" ".join([*head, v]) for v in game.complete(state, player, arg.clause, typed))
    return [line for line in lines if len(line) <= MAX_COMPLETION][:MAX_COMPLETIONS]


def _value_lines(
    game: Game,
    state: State | None,
    player: str | None,
    spec: CommandSpec,
    start: int,
    at: ArgAt,
) -> list[str]:
    """The lines completing the word `at` is at, as a value of its argument."""
    longer = _longer_value(game, state, player, at)
    if longer:
        return longer
    done, partial, arg = list(at.done), at.partial, at.arg
    if arg.kind == "rest" and not arg.choices:
        # "More of the same" (/buy coal 3 oil 2 ...): the words after the arguments
        # before it repeat them, so every word completes ("/buy coal 3 o" -> oil).
        index = spec.args.index(arg)
        pattern = [a for a in spec.args[start:index] if a.kind != "rest"]
        if pattern:
            count = sum(1 for w in done[at.start :] if "=" not in w)
            arg = replace(pattern[count % len(pattern)], repeated=False)
            at = replace(at, arg=arg, start=len(done))
    # A name may have several words ("New Yo"): a repeated argument tries the longest
    # tail of its own words first (at most three words, no key=value among them).
    tails = [len(done)]
    if partial and (arg.repeated or arg.kind == "rest"):
        first = max(at.start, len(done) - 2)
        tails = [i for i in range(first, len(done) + 1) if not any("=" in w for w in done[i:])]
    # A repeated list of places or plants names each once (/build Berlin Berlin is never
    # meant); numbers and choices may repeat.
    unique = arg.repeated and arg.kind in UNIQUE_KINDS
    given = {w.casefold() for w in done[at.start :]} if unique else set()
    for tail in tails:
        typed = " ".join([*done[tail:], partial])
        found = _values(game, state, player, arg, typed)
        if not found:
            continue
        out: list[str] = []
        for value in found:
            if value.casefold() in given:
                continue
            line = " ".join([*done[:tail], value])
            if len(line) <= MAX_COMPLETION and line not in out:
                out.append(line)
            if len(out) == MAX_COMPLETIONS:
                break
        if out:
            return out
    return []
