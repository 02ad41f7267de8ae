"""The table's own commands, command-line parsing, usage lines and message splitting.

Pure helpers: no I/O, no state. The table service (bot/table.py) routes with them, and the
help text, Telegram's menu and Discord's slash commands are generated from `table_commands`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.placeholders import PLACEHOLDERS
from engine.core import N_
from engine.core.protocol import ArgSpec, CommandSpec, Game, Translator

# Discord's limit; Telegram's is 4096. Every message the table sends fits the smaller one.
MAX_TEXT = 2000
# Telegram photo captions are limited to 1024 characters.
MAX_CAPTION = 1000
MAX_TOAST = 190

TABLE_KIND = "table"

_COMMAND = re.compile(r"^[a-z0-9_]{1,32}$")


@dataclass(frozen=True)
class CommandLine:
    name: str  # lower case, without "/" or "@BotName"
    args: list[str]
    slash: bool  # the text started with "/"


def parse_command(text: str) -> CommandLine | None:
    """ "/Bid@boardchat_bot 13 20" -> CommandLine("bid", ["13", "20"], True); None if empty."""
    words = text.strip().split()
    if not words:
        return None
    head, args = words[0], words[1:]
    slash = head.startswith("/")
    head = head.lstrip("/")
    if "@" in head:
        head = head.split("@", 1)[0]
    name = head.casefold()
    if not name:
        return None
    return CommandLine(name, args, slash)


def table_commands(games: Mapping[str, Game]) -> tuple[CommandSpec, ...]:
    """The table's commands; argument choices come from the registered games."""
    game_ids = tuple(games)
    bot_kinds = tuple(sorted({kind for g in games.values() for kind in getattr(g, "bots", {})}))
    return (
        CommandSpec(
            "new",
            N_("Open a new game in this chat: /new <game> [option=value ...]"),
            (
                ArgSpec("game", "choice", N_("which game"), choices=game_ids),
                ArgSpec("options", "rest", N_("table options, key=value"), required=False),
            ),
            tuple(f"/new {g}" for g in game_ids[:2]),
            TABLE_KIND,
        ),
        CommandSpec("join", N_("Take a seat at the table before the game starts"), kind=TABLE_KIND),
        CommandSpec("leave", N_("Give up your seat before the game starts"), kind=TABLE_KIND),
        CommandSpec(
            "kick",
            N_("Take a bot or a player off the table before the game starts (the creator)"),
            (ArgSpec("name", "rest", N_("the name at the table")),),
            ("/kick Bot 2",),
            TABLE_KIND,
        ),
        CommandSpec(
            "addbot",
            N_("Seat a computer player: /addbot [kind]"),
            (ArgSpec("kind", "choice", N_("bot kind"), required=False, choices=bot_kinds),),
            ("/addbot", "/addbot heuristic"),
            TABLE_KIND,
        ),
        CommandSpec("start", N_("Start the game (the creator)"), kind=TABLE_KIND),
        CommandSpec("status", N_("Whose move it is and what is expected"), kind=TABLE_KIND),
        CommandSpec("board", N_("Show the board picture"), kind=TABLE_KIND),
        CommandSpec(
            "log",
            N_("The moves in words, newest first: /log [page]"),
            (ArgSpec("page", "int", N_("which page, 1 the newest"), required=False),),
            ("/log", "/log 2"),
            TABLE_KIND,
        ),
        CommandSpec(
            "help",
            N_("The commands, or one command in detail: /help [command]"),
            (ArgSpec("command", "str", N_("a command name"), required=False),),
            ("/help", "/help bid"),
            TABLE_KIND,
        ),
        CommandSpec(
            "rules",
            N_("How to play; a rule explained; a search: /rules [rule id or word]"),
            (ArgSpec("query", "rest", N_("a rule id such as PG-21, or a word"), required=False),),
            ("/rules", "/rules PG-21", "/rules build"),
            TABLE_KIND,
        ),
        CommandSpec(
            "hint",
            N_("The move the strong bot would make, told to you alone"),
            kind=TABLE_KIND,
        ),
        CommandSpec(
            "replay",
            N_("The board pictures so far as an animation"),
            kind=TABLE_KIND,
        ),
        CommandSpec(
            "stats",
            N_("Games played, won and the average rank here: /stats [@player]"),
            (ArgSpec("player", "str", N_("a player's name"), required=False),),
            ("/stats", "/stats @alice"),
            TABLE_KIND,
        ),
        CommandSpec("undo", N_("Take back your last move if nobody acted since"), kind=TABLE_KIND),
        CommandSpec(
            "abort",
            N_("End the game without a result (creator or chat admin)"),
            (ArgSpec("confirm", "choice", "", required=False, choices=("confirm",)),),
            kind=TABLE_KIND,
        ),
        CommandSpec("games", N_("Your games in all chats"), kind=TABLE_KIND),
        CommandSpec(
            "lang",
            N_("Set your language: /lang <code>; the chat's (creator or admin): /lang chat <code>"),
            (
                # "/lang chat <code>" as an option of its own: a form (Discord's slash options)
                # can say it too, before the code (found: only "/lang <code>" could be sent).
                ArgSpec(
                    "chat",
                    "choice",
                    N_("chat: this chat's language, not yours (creator or admin)"),
                    required=False,
                    choices=("chat",),
                ),
                ArgSpec(
                    "code",
                    "choice",
                    N_("language code"),
                    required=False,
                    choices=("en", "ru", "pl", "zh-hant"),
                ),
            ),
            ("/lang ru", "/lang chat pl"),
            TABLE_KIND,
        ),
    )


_KEYWORD = re.compile(r"^\s*(?P<word>[a-z_]+)(?P<sep>=|\s+)<")


def arg_keyword(arg: ArgSpec) -> str:
    """The word a command's grammar writes before this argument's value, as its help declares
    it: "max=<limit>: ..." -> "max=", "from <storage>: ..." -> "from "; "" for a plain
    positional argument. A form filled option by option (Discord's slash options) writes the
    keyword back into the chat text, or the value would be read as the argument before it."""
    found = _KEYWORD.match(arg.help)
    if found is None or found["word"] != arg.name.casefold():
        return ""
    return found["word"] + ("=" if found["sep"] == "=" else " ")


def usage(spec: CommandSpec, t: Translator | None = None) -> str:
    """ "/bid <plant> <amount> [more...]"; with `t`, the words in its language ("/new <игра>")."""
    parts = [f"/{spec.name}"]
    for arg in spec.args:
        label = _choices(arg) or placeholder(arg.name, t)
        label += "..." if arg.repeated or arg.kind == "rest" else ""
        parts.append(f"<{label}>" if arg.required else f"[{label}]")
    return " ".join(parts)


def listed_help(spec: CommandSpec, text: str) -> str:
    """A command's translated description as /help's list shows it, after its usage line:
    without the usage the description repeats at its end ("The moves in words, newest first:
    /log [page]" follows "/log [page]"; the menus of Telegram and Discord show no usage, so the
    catalogs keep it there). A description that goes on after that usage keeps it ("...: /lang
    <code>; the chat's (creator or admin): /lang chat <code>")."""
    found = re.search(rf"\s*[:：]\s*/{re.escape(spec.name)}(?![a-z_])", text)
    if found is None or re.search("[;；]", text[found.end() :]):
        return text
    return text[: found.start()]


def listed_example(spec: CommandSpec, text: str) -> str:
    """The " (/cost move L12 SE 3)" after a command in /help's list, unless its description
    already ends on that example."""
    if not spec.examples or spec.examples[0] in text:
        return ""
    return f" ({spec.examples[0]})"


def _choices(arg: ArgSpec) -> str:
    """A few fixed words are their own best placeholder: `<on|off>`, `[now|auto|off]` (the
    words typed, so never translated)."""
    shown = "|".join(arg.choices)
    return shown if arg.kind == "choice" and len(arg.choices) > 1 and len(shown) <= 24 else ""


def placeholder(name: str, t: Translator | None = None) -> str:
    """An argument's word in a usage line, translated through its catalog entry
    (bot/placeholders.py) when `t` is given; the name itself otherwise."""
    msgid = PLACEHOLDERS.get(name)
    if t is None or msgid is None:
        return name
    return t.gettext(msgid).strip().strip("<>").strip() or name


def valid_menu_name(name: str) -> bool:
    """Telegram accepts 1-32 characters of a-z, 0-9 and underscore."""
    return bool(_COMMAND.match(name))


def split_text(text: str, limit: int = MAX_TEXT, *, columns: bool = False) -> list[str]:
    """Cut a long text into pieces of at most `limit` characters, at line breaks when possible,
    else at spaces, else hard. `columns`: a text laid out in columns (a board in words) keeps
    the spaces that begin its lines.

    A piece ends before a line that starts flush left where it can (`_line_cut`), so a heading
    and the indented lines under it (/help's list of a game's options) stay together, and a
    piece that begins at a line break keeps that line's indent."""
    lead = "\n" if columns else None  # what a piece may lose at its start
    text = text.lstrip(lead).rstrip()
    if len(text) <= limit:
        return [text] if text.strip() else []
    pieces: list[str] = []
    while len(text) > limit:
        cut = _line_cut(text, limit)
        at_line = cut >= 0
        if not at_line:
            cut = text.rfind(" ", 0, limit + 1)
        if cut < limit // 2:
            cut = limit
        pieces.append(text[:cut].rstrip())
        text = text[cut:].lstrip("\n" if at_line else lead)
    if text:
        pieces.append(text)
    return [p for p in pieces if p]


def _line_cut(text: str, limit: int) -> int:
    """Where a piece of at most `limit` characters of `text` ends at a line break: the last
    one before a flush-left line in the piece's second half, else its last line break there;
    -1 when its second half has none."""
    last = text.rfind("\n", 0, limit + 1)
    cut = last
    while cut >= limit // 2:
        if not text[cut + 1 : cut + 2].isspace():
            return cut
        cut = text.rfind("\n", 0, cut)
    return last if last >= limit // 2 else -1


def shorten(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# What a command name several games define means in every one of them (issue 22): the one
# menu description of a shared name (Telegram's menu, Discord's slash command), in each
# language, at most 100 characters. A shared name not listed here gets MERGED_HELP.
SHARED_HELP: dict[str, str] = {
    "bid": N_("Open an auction on a power plant, or bid on the plant being auctioned"),
    "buy": N_("Buy resources, cheapest first (alternative rules: onto one of your plants)"),
    "build": N_("Build: houses in cities in Power Grid, a module in IEC"),
    "cost": N_("Price a move before making it (a build, a line, an action)"),
    "done": N_("End your part of the current phase (buying, building, …)"),
    "income": N_("What powering your plants now would pay"),
    "pass": N_("Pass: on the plant being auctioned, or for the whole auction phase"),
    "move": N_(
        "Move: a figure in Hexania, resources between your plants in Power Grid (alternative rules)"
    ),
    "power": N_(
        "Power: run your plants for income in Power Grid, choose the buildings to power in IEC"
    ),
}
# A shared name's description when SHARED_HELP has none.
MERGED_HELP = N_("A move in this chat's game; /help shows what to type")


def shared_help(name: str) -> str:
    """The game-neutral description (a catalog message) of a command several games share."""
    return SHARED_HELP.get(name, MERGED_HELP)


def merge_specs(groups: Sequence[Sequence[CommandSpec]]) -> list[CommandSpec]:
    """One spec per command name, in first-seen order.

    The first group (the table's own commands) always wins: the table routes those names
    itself. Among the later groups (the games' commands) a name shared by specs with different
    argument lists becomes one free-text spec, `/name <args...>`: the table hands the words to
    the chat's own game, which parses them. Its help lists each distinct help and the argument
    forms, so a player of either game can see what to type.
    """
    fixed = {spec.name for spec in groups[0]} if groups else set()
    by_name: dict[str, list[CommandSpec]] = {}
    order: list[str] = []
    for index, group in enumerate(groups):
        for spec in group:
            if index > 0 and spec.name in fixed:
                continue
            if spec.name not in by_name:
                by_name[spec.name] = []
                order.append(spec.name)
            by_name[spec.name].append(spec)
    out: list[CommandSpec] = []
    for name in order:
        specs = by_name[name]
        first = specs[0]
        if all(spec.args == first.args for spec in specs[1:]):
            out.append(first)
        else:
            out.append(merged_spec(specs))
    return out


def merged_spec(specs: Sequence[CommandSpec]) -> CommandSpec:
    """The free-text spec for a command name several games define with different arguments."""
    first = specs[0]
    helps = list(dict.fromkeys(s.help for s in specs if s.help))
    forms = list(dict.fromkeys(usage(s).partition(" ")[2] or "-" for s in specs))
    return CommandSpec(
        first.name,
        " / ".join(helps) or first.name,
        (
            ArgSpec(
                "args",
                "rest",
                shorten(" | ".join(forms), 100),
                required=all(any(a.required for a in s.args) for s in specs),
            ),
        ),
        tuple(dict.fromkeys(e for s in specs for e in s.examples))[:4],
        "move" if any(s.kind == "move" for s in specs) else first.kind,
    )


def is_merged(spec: CommandSpec) -> bool:
    """True for a spec `merge_specs` built from several games' specs of one name."""
    return len(spec.args) == 1 and spec.args[0].name == "args" and spec.args[0].kind == "rest"


@dataclass(frozen=True)
class ArgAt:
    """Where the last (partial) word of a command's typed arguments falls: `arg` is the
    argument it belongs to, `done` the complete words before it, `start` the index in `done`
    where that argument's words begin (a repeated argument's earlier values, or the words of
    a name being typed), and `partial` the word being typed ("" after a space). `before` is
    the argument the words just before `start` filled and where they begin: the word being
    typed may still be part of its value ("/build E7 пусковая у")."""

    arg: ArgSpec
    done: tuple[str, ...]
    start: int
    partial: str
    before: tuple[ArgSpec, int] | None = None


def arg_at(
    args: Sequence[ArgSpec], text: str, whole: Callable[[ArgSpec, str], bool] | None = None
) -> ArgAt | None:
    """The argument the last word of `text` (what follows `/name`) is for, by position.

    A repeated or "rest" argument absorbs every word after it, except the name of a later
    clause argument ("from" in "/lay H7 H8 from E3", `ArgSpec.clause`), which starts that
    argument; key=value words (max=30, coal=1) stand outside the positions and are skipped.
    `whole(arg, words)` says when up to three words are together one value of an argument
    ("пусковая установка", a building type of IEC): they then fill one position. None when
    the last word is a key=value word or when the words run past the arguments.
    """
    words = text.split()
    if words and not text[-1].isspace():
        done, partial = words[:-1], words[-1]
    else:
        done, partial = words, ""
    if "=" in partial:
        return None
    index, start, position = 0, 0, 0
    before: tuple[ArgSpec, int] | None = None
    clauses = {a.name.casefold(): i for i, a in enumerate(args) if a.clause}
    while position < len(done):
        if "=" in done[position]:
            position += 1
            continue
        clause = clauses.get(done[position].casefold(), -1)
        if clause >= index:  # "from": its clause begins here, the words after it are its own
            index, start, position = clause, position, position + 1
            continue
        if index >= len(args):
            return None
        arg = args[index]
        if arg.repeated or arg.kind == "rest":
            position += 1
            continue
        before = (arg, position)
        position += _value_words(arg, done[position : position + MAX_VALUE_WORDS], whole)
        index, start = index + 1, position
    if index >= len(args):
        return None
    return ArgAt(args[index], tuple(done), start, partial, before)


# the most words one value of an argument may have ("Santa Cruz de Tenerife" is not needed)
MAX_VALUE_WORDS = 3


def _value_words(
    arg: ArgSpec, ahead: Sequence[str], whole: Callable[[ArgSpec, str], bool] | None
) -> int:
    """How many of the words `ahead` are the value of `arg`: the most that `whole` accepts
    together, else one."""
    if whole is not None:
        for count in range(len(ahead), 1, -1):
            if not any("=" in w for w in ahead[:count]) and whole(arg, " ".join(ahead[:count])):
                return count
    return 1
