"""Discord's side of the command declarations: chat and user keys, text limits and
splitting, and the plans of the slash commands generated from the table's command specs
(bot/platforms/discord_bot.py turns each plan into an app command)."""

from __future__ import annotations

import itertools
import keyword
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot import grammar
from bot.grammar import is_merged, shared_help
from bot.placeholders import arg_help
from bot.service import args_kind
from engine.core.errors import N_
from engine.core.protocol import ArgSpec, CommandSpec

log = logging.getLogger(__name__)

PLATFORM = "discord"
# How long the outbox keeps a command's public answers for the interaction's follow-ups.
REPLY_HOLD = 30.0
KEY_PREFIX = "dc:"

MESSAGE_LIMIT = 2000  # characters of a message's content
DESCRIPTION_LIMIT = 100  # command and option descriptions, choice names and values
OPTION_LIMIT = 25  # options of one command
CHOICE_LIMIT = 25  # static choices of an option, and autocomplete answers
COMMAND_LIMIT = 100  # top-level slash commands of an application (per scope)
BUTTON_LABEL_LIMIT = 80
CUSTOM_ID_LIMIT = 100
VIEW_ROWS = 5
ROW_BUTTONS = 5
THREAD_NAME_LIMIT = 100

# Argument kinds whose values the table can complete.
COMPLETABLE_KINDS = frozenset({"city", "plant", "resource", "region", "cell"})
# The single free-text option of commands whose arguments cannot be described one by one.
FREE_TEXT = "args"
# The extra option of /new that starts the game in a new thread.
THREAD_OPTION = "thread"
NEW_COMMAND = "new"
# The one catalog pair for on/off choices everywhere (Discord's choice names, /digest, the
# games' on/off options): one short form per language, so "on" and "off" always match.
SWITCH = (N_("on"), N_("off"))
# Table commands whose answers only the sender sees.
PRIVATE_COMMANDS = frozenset({"games", "settings", "lang"})

BUTTON_PREFIX = "bc:"
BUTTON_TEMPLATE = r"bc:(?P<payload>.+)"

# Discord's rule for command and option names (lower case; letters, digits, "-" and "_").
_NAME_RE = re.compile(r"^[-_\w]{1,32}$")
_ELLIPSIS = "…"


# --------------------------------------------------------------------------------------------
# Keys and text helpers
# --------------------------------------------------------------------------------------------


def chat_key(channel_id: int) -> str:
    """The table's key for a channel or thread (threads have their own id)."""
    return f"{KEY_PREFIX}{channel_id}"


def channel_name(
    guild_id: int | None, guild: str | None, channel_id: int | None, channel: str | None
) -> tuple[str | None, str | None]:
    """(title, link) of a server's channel or thread (issue 17): "Server #channel" and its jump
    URL; nothing for a DM."""
    if guild_id is None or not channel_id:
        return None, None
    where = f"#{channel}" if channel else None
    title = " ".join(p for p in (guild, where) if p) or None
    return title, f"https://discord.com/channels/{guild_id}/{channel_id}"


def user_key(user_id: int) -> str:
    return f"{KEY_PREFIX}{user_id}"


def key_id(key: str | None) -> int | None:
    """The Discord id in a "dc:<id>" key; None for another platform's key."""
    if not key or not key.startswith(KEY_PREFIX):
        return None
    rest = key[len(KEY_PREFIX) :]
    return int(rest) if rest.isdigit() else None


# Where a description's leading part ends, the strongest first: a sentence, a semicolon, a
# colon (Latin or CJK). Its first part says what the command does, the rest how (the chat's
# /help has it all).
_CLAUSE_ENDS = (
    re.compile(r"(?<=\S)(?:\.(?=\s)|。)"),
    re.compile(r"(?<=\S)(?:;(?=\s)|；)"),
    re.compile(r"(?<=\S)(?::(?=\s)|：)"),
)
_SHORTEST_CLAUSE = 12


def _width(text: str) -> int:
    """How much a clause says, in Latin letters: a Chinese character says about two (zh
    "這個聊天室的設定" is a whole clause; found testing Discord, 2026-12-05, where the
    /settings description was still cut with "…")."""
    return sum(2 if ord(ch) >= 0x2E80 else 1 for ch in text)


def shorten(text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """`text` on one line; when longer than `limit`, its longest leading sentences that fit,
    else its leading clauses up to a semicolon, else up to a colon ("Private proxy bid on the
    plant being auctioned: when it is your turn ..." -> its part before the colon); cut to
    `limit` characters with an ellipsis only when none fits."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    for pattern in _CLAUSE_ENDS:
        ends = [m.start() for m in pattern.finditer(flat) if m.start() <= limit]
        if ends and _width(flat[: ends[-1]]) >= _SHORTEST_CLAUSE:
            return flat[: ends[-1]].rstrip(" ,")
    return flat[: limit - 1].rstrip() + _ELLIPSIS


def split_text(text: str, limit: int = MESSAGE_LIMIT, *, columns: bool = False) -> list[str]:
    """The table's one splitter (`bot.grammar.split_text`) at this platform's message limit."""
    return grammar.split_text(text, limit, columns=columns)


def render_mentions(text: str, mentions: Sequence[tuple[str, str]]) -> tuple[str, list[int]]:
    """Turn "@Display Name" into "<@id>" for the Discord users in `mentions`.

    Returns the new text and the ids mentioned (the only users the message may ping).
    Longer names are replaced first so "@Al" never eats the start of "@Alice".
    """
    ids: list[int] = []
    for key, name in sorted(mentions, key=lambda m: len(m[1]), reverse=True):
        uid = key_id(key)
        if uid is None or not name:
            continue
        pattern = re.compile("@" + re.escape(name) + r"(?!\w)")
        text, count = pattern.subn(f"<@{uid}>", text)
        if count and uid not in ids:
            ids.append(uid)
    return text, ids


# --------------------------------------------------------------------------------------------
# Slash commands planned from the table's command specs
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OptionPlan:
    """One option of a slash command."""

    name: str  # Discord's name of the option
    pyname: str  # the callback's parameter name (a Python identifier)
    type: type  # int, str or bool
    description: str  # English, at most 100 characters
    source: str  # the untruncated English description (the translation msgid)
    required: bool = True
    choices: tuple[str, ...] = ()  # static choices (at most 25)
    # argument kind the table completes ("city", ...), or args_kind(...) for free text: the
    # table completes the whole text by the chat's own game's spec of the command
    complete: str | None = None
    filter_choices: tuple[str, ...] = ()  # more than 25 choices: autocomplete among these
    repeated: bool = False  # several words in one string: complete the last one
    # The word the chat grammar writes before the value ("max=" glued, "from " a word of its
    # own; bot.grammar.arg_keyword): the chat text gets it back when the player left it out.
    keyword: str = ""


@dataclass(frozen=True)
class CommandPlan:
    name: str
    description: str
    source: str
    options: tuple[OptionPlan, ...]
    # The answer is expected to be private (a player's own information): a slow answer is
    # deferred ephemerally (bot/platforms/discord_bot.py DEFER_AFTER).
    private: bool = False

    def text(self, values: dict[str, Any]) -> str:
        """The chat text the table understands: "/name value value ..." in argument order."""
        words = [f"/{self.name}"]
        for option in self.options:
            if option.name == THREAD_OPTION and self.name == NEW_COMMAND:
                continue
            value = values.get(option.pyname)
            if value is None:
                continue
            value = str(value).strip()
            if value:
                words.append(with_keyword(option.keyword, value))
        return " ".join(words)


def with_keyword(keyword: str, value: str) -> str:
    """`value` as the chat writes it after its `keyword`: "9" -> "max=9", "Q1" -> "from Q1";
    unchanged when it already begins so ("max=9", "from Q1", "FROM Q1")."""
    if not keyword:
        return value
    word = keyword.strip().casefold()
    if keyword.endswith("="):
        return value if value.casefold().startswith(keyword.casefold()) else keyword + value
    return value if value.split()[0].casefold() == word else f"{keyword}{value}"


def _option_name(raw: str) -> str:
    name = re.sub(r"[^\w-]+", "_", raw.strip().lower()).strip("_")[:32]
    return name or "arg"


def _pyname(name: str, taken: set[str]) -> str:
    base = re.sub(r"\W", "_", name)
    if not base.isidentifier() or keyword.iskeyword(base) or base == "interaction":
        base = f"{base}_" if base.isidentifier() else f"a_{base}"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}_{n}", n + 1
    taken.add(candidate)
    return candidate


def _plan_option(
    arg: ArgSpec, name: str, pyname: str, command: str = "", index: int = 0
) -> OptionPlan:
    source = arg_help(arg.name, arg.help)
    common: dict[str, Any] = {
        "name": name,
        "pyname": pyname,
        "description": shorten(source),
        "source": source,
        "required": arg.required,
    }
    keyword = grammar.arg_keyword(arg)
    if keyword:
        # "max=<limit>", "from <storage>": the chat text gets the keyword back (CommandPlan
        # .text); no autocomplete: the words after a keyword are no kind the table completes.
        return OptionPlan(type=str, keyword=keyword, **common)
    if arg.kind == "rest" and command:
        # Every remaining word in one string: the table completes it from argument `index` on.
        return OptionPlan(type=str, complete=args_kind(command, index), **common)
    if arg.repeated or arg.kind == "rest":
        # Several values in one string option.
        complete = arg.kind if arg.kind in COMPLETABLE_KINDS else None
        return OptionPlan(type=str, complete=complete, repeated=True, **common)
    if arg.choices:
        values = tuple(c[:DESCRIPTION_LIMIT] for c in arg.choices if c)
        if len(values) <= CHOICE_LIMIT:
            return OptionPlan(type=str, choices=values, **common)
        return OptionPlan(type=str, filter_choices=values, **common)
    if arg.kind == "int":
        return OptionPlan(type=int, **common)
    complete = arg.kind if arg.kind in COMPLETABLE_KINDS else None
    return OptionPlan(type=str, complete=complete, **common)


def _free_text_option(command: str, required: bool) -> OptionPlan:
    source = N_("Arguments, as you would type them after the command")
    return OptionPlan(
        name=FREE_TEXT,
        pyname=FREE_TEXT,
        type=str,
        description=shorten(source),
        source=source,
        required=required,
        complete=args_kind(command),
    )


def _thread_option() -> OptionPlan:
    source = N_("Start the game in a new thread of this channel")
    return OptionPlan(
        name=THREAD_OPTION,
        pyname=THREAD_OPTION,
        type=bool,
        description=shorten(source),
        source=source,
        required=False,
    )


def plan_commands(specs: Sequence[CommandSpec]) -> list[CommandPlan]:
    """The slash commands for the table's specs, in the specs' order.

    A name used by several specs with different arguments (two games sharing `/build`) gets
    typed options where the arguments' kinds agree, else one free-text "args" option; so does
    a spec Discord cannot describe option by option (too many arguments, clashing names).
    Invalid names are skipped (logged); at most 100 commands.
    """
    by_name: dict[str, list[CommandSpec]] = {}
    for spec in specs:
        name = spec.name.strip().lstrip("/").lower()
        if not _NAME_RE.match(name):
            log.warning("discord: skipping command %r: not a valid slash command name", spec.name)
            continue
        by_name.setdefault(name, []).append(spec)
    plans: list[CommandPlan] = []
    for name, group in by_name.items():
        if len(plans) == COMMAND_LIMIT:
            log.warning(
                "discord: more than %d commands; %r and later ones left out", COMMAND_LIMIT, name
            )
            break
        plans.append(_plan_group(name, group))
    return plans


def plan_command_set(
    table_specs: Sequence[CommandSpec],
    game_specs: Mapping[str, Sequence[CommandSpec]],
    games: Sequence[str],
) -> list[CommandPlan]:
    """The slash commands of a server that plays `games`: the table's own commands always,
    then the commands of those games only (a name the table has is the table's)."""
    fixed = {spec.name for spec in table_specs}
    specs = [_new_for(spec, games) if spec.name == NEW_COMMAND else spec for spec in table_specs]
    for game in games:
        specs += [s for s in game_specs.get(game, ()) if s.name not in fixed]
    return plan_commands(specs)


def _new_for(spec: CommandSpec, games: Sequence[str]) -> CommandSpec:
    """/new offering only `games` (a server's enabled games) as the game to open."""
    args = tuple(
        replace(a, choices=tuple(c for c in a.choices if c in games))
        if a.name == "game" and a.choices
        else a
        for a in spec.args
    )
    return replace(spec, args=args)


def _agreeing_args(group: Sequence[CommandSpec]) -> tuple[ArgSpec, ...] | None:
    """One argument list for specs of one name whose arguments agree position by position in
    kind (an integer, a city, a resource with choices, ...): the first spec's names, choices
    joined, required only where every spec requires it. None where the kinds differ."""
    longest = max(len(spec.args) for spec in group)
    merged: list[ArgSpec] = []
    for index in range(longest):
        here = [spec.args[index] for spec in group if index < len(spec.args)]
        first = here[0]
        if any(
            (a.kind, a.repeated, bool(a.choices))
            != (first.kind, first.repeated, bool(first.choices))
            for a in here
        ):
            return None
        choices = tuple(dict.fromkeys(c for a in here for c in a.choices))
        required = len(here) == len(group) and all(a.required for a in here)
        merged.append(replace(first, choices=choices, required=required))
    # Discord wants the required options first: an optional one before a required one would
    # change the chat text's word order.
    if any(not a.required and b.required for a, b in itertools.pairwise(merged)):
        return None
    return tuple(merged)


def _plan_group(name: str, group: Sequence[CommandSpec]) -> CommandPlan:
    first = group[0]
    helps = list(dict.fromkeys(spec.help for spec in group if spec.help))
    # A command several games share: one game-neutral description (translated whole by the
    # translator), never one game's nor the games' glued together.
    source = shared_help(name) if len(helps) > 1 or is_merged(first) else (first.help or name)
    args: tuple[ArgSpec, ...] | None = first.args
    if any(spec.args != first.args for spec in group[1:]):
        args = _agreeing_args(group)
    options: list[OptionPlan] = []
    shared = args is None or len(args) > OPTION_LIMIT - 1
    if args is not None and not shared:
        taken: set[str] = set()
        names: set[str] = set()
        for index, arg in enumerate(args):
            option_name = _option_name(arg.name)
            if option_name in names or (name == NEW_COMMAND and option_name == THREAD_OPTION):
                shared = True  # two arguments with one Discord name: fall back to free text
                break
            names.add(option_name)
            pyname = _pyname(option_name, taken)
            options.append(_plan_option(arg, option_name, pyname, name, index))
    if shared:
        required = all(any(a.required for a in spec.args) for spec in group)
        options = [_free_text_option(name, required)]
    if name == NEW_COMMAND:
        options.append(_thread_option())
    return CommandPlan(
        name=name,
        description=shorten(source),
        source=source,
        options=tuple(options),
        private=name in PRIVATE_COMMANDS or all(s.kind == "info" for s in group),
    )
