"""IEC chat commands: each declared once — its spec (name, typed arguments, help, examples)
right above the function that reads it — in the order players see them (engine/core/
commands.py's `CommandTable`). The argument kinds (cell, building type, technology, area,
player, number, good, recipe) are read and autocompleted by one object each.

A trailing `from <storage>` (IEC-S-10.5: where the goods are taken first) may follow the
commands that declare a `from` argument; `parse` takes it off before the handler runs. The
handlers count their own words (a technology's name has several, /fire mixes cells and
numbers). The texts of a turn (prompt, /techs, buttons) are in turn_text.py, the event lines
in lines.py; this module keeps their public names importable from here.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import (
    N_,
    Action,
    ArgSpec,
    CommandSpec,
    Event,
    IllegalAction,
    MissingArgument,
    ParseError,
    Reply,
    State,
    Translator,
    join_list,
)
from engine.core.commands import ArgKind, Call, CommandTable
from engine.iec import choices as ch
from engine.iec import lines as iec_lines
from engine.iec import words as said
from engine.iec.actions import check_phase, out_of_range
from engine.iec.completion import (
    complete_cell,
    complete_kind,
    complete_storage,
    complete_tech,
    prefixed,
)
from engine.iec.lines import KIND_NAMES as KIND_NAMES  # re-exported: chat names
from engine.iec.lines import describe_event as describe_event
from engine.iec.lines import describe_private_event as describe_private_event
from engine.iec.lines import describe_start as describe_start
from engine.iec.model import acting
from engine.iec.options import OPTIONS as OPTIONS  # re-exported: the game's options
from engine.iec.rules import PHASE_ACTIONS, own, scen
from engine.iec.scenario import GOODS, KINDS
from engine.iec.techs import TECHS
from engine.iec.turn_text import buttons as buttons
from engine.iec.turn_text import describe_turn as describe_turn
from engine.iec.turn_text import techs_text

TABLE = CommandTable(
    unknown=N_("Unknown command /{name}."), aliases={"pass": "done"}, count_words=False
)

# --------------------------------------------------------------------------------------------
# The argument kinds: how each is read from chat words and autocompleted
# --------------------------------------------------------------------------------------------


def _up(x: str) -> str:
    return x.strip().upper()


def _cell_arg(state: State, x: str) -> str:
    c = _up(x)
    if not scen(state).is_cell(c):
        raise ParseError(N_("{value} is not a cell of the map."), value=x)
    return c


def _kind_arg(x: str, t: Translator) -> str:
    """A building type by its English name or a prefix of it (two letters at least), by its
    name in the reader's language as the prompts print it («склад», «倉庫») or a prefix that
    names one type only, or by its name in another of the chat's languages (engine/iec/
    words.py: «kopalnia» at a Russian table). A prefix of several types is refused with
    their names: "mi" once built a mine for a player who meant a mixer."""
    k = x.strip().lower()
    english = [kind for kind in KINDS if len(k) >= 2 and kind.startswith(k)]
    if k in KINDS or len(english) == 1:
        return k if k in KINDS else english[0]
    names = {kind: t.gettext(KIND_NAMES[kind]).lower() for kind in KINDS}
    exact = [kind for kind, name in names.items() if name == k]
    begun = [kind for kind, name in names.items() if k and name.startswith(k)]
    if exact or len(begun) == 1:
        return (exact or begun)[0]
    found = said.named(x, said.kind_names())
    if found is not None:
        return found
    meant = english or begun or [v for _n, v in said.begun_by(x, said.kind_names(), 25)]
    if len(meant) > 1:
        raise ParseError(
            N_("{value} could be: {kinds}. Type more of the name."),
            value=x,
            kinds=join_list(t, (t.gettext(KIND_NAMES[kind]) for kind in meant)),
        )
    raise ParseError(N_("Unknown building type {value}."), value=x)


def _int_arg(x: str) -> int:
    try:
        return int(x)
    except ValueError:
        raise ParseError(N_("{value} is not a number."), value=x) from None


def _tech_arg(text: str) -> int:
    """A technology by its number, its English name or a prefix of it (the first in IEC-25's
    order), or its name in any of the chat's languages as `/techs` prints it; "2 Super
    Computer" (what autocomplete offers) is the number with its own name after it. An
    unknown number is kept for the rules to refuse with their rule id."""
    key = text.strip().lower()
    head, _, rest = key.partition(" ")
    if head.isdigit():
        n = int(head)
        if not rest or (n in TECHS and said.fold(rest) in _tech_starts(n)):
            return n
        raise ParseError(N_("Unknown technology {value}."), value=key)
    for n, tname in TECHS.items():
        if key and tname.lower().startswith(key):
            return n
    found = said.named(key, said.tech_names())
    if found is not None:
        return found
    raise ParseError(N_("Unknown technology {value}."), value=key)


def _tech_starts(n: int) -> set[str]:
    """Every prefix (folded) of technology n's names: what may follow its number."""
    return {
        folded[:i]
        for name, m in said.tech_names()
        if m == n
        for folded in (said.fold(name),)
        for i in range(1, len(folded) + 1)
    }


def _named(names: Sequence[str], word: str) -> str:
    """The name as the game spells it (any case); an unknown word is kept for the rules to
    refuse with their rule id."""
    return next((n for n in names if n.lower() == word.lower()), word)


TABLE.kind(
    ArgKind(
        "cell", read=lambda call, words: _cell_arg(call.state, words[0]), complete=complete_cell
    )
)


# `from <storage>`'s kinds, one per good the command draws (ArgSpec.clause).
for _goods in ("AC", "AB", "BC", "AC+BC"):
    TABLE.kind(ArgKind(f"storage:{_goods}", complete=complete_storage(_goods)))
TABLE.kind(
    ArgKind(
        "kind",
        # A name of several words («пусковая установка») is read whole.
        read=lambda call, words: _kind_arg(" ".join(words), call.t),
        complete=complete_kind,
    )
)
TABLE.kind(
    ArgKind(
        "tech",
        read=lambda call, words: _tech_arg(" ".join(words)),
        complete=complete_tech,
    )
)
TABLE.kind(
    ArgKind(
        "area",
        read=lambda call, words: _named(sorted(call.state["areas"]), words[0]),
        complete=lambda state, player, prefix: prefixed(
            sorted(state["areas"]) if state is not None else [], prefix
        ),
    )
)
TABLE.kind(
    ArgKind(
        "player",
        read=lambda call, words: _named(list(call.state["players"]), words[0]),
        complete=lambda state, player, prefix: prefixed(
            list(state["seats"]) if state is not None else [], prefix
        ),
    )
)
TABLE.kind(ArgKind("int", read=lambda call, words: _int_arg(words[0])))
TABLE.kind(
    ArgKind(
        "resource",
        read=lambda call, words: _up(words[0]),
        complete=lambda state, player, prefix: prefixed(list(GOODS), prefix),
    )
)


def _paid_from(help: str, goods: str) -> ArgSpec:
    """`from <storage>`: which storage the command's goods come from (IEC-S-10.5), completed
    with the player's storages holding them."""
    return ArgSpec("from", "rest", help, required=False, clause=f"storage:{goods}")


def _need(call: Call, n: int) -> None:
    if len(call.words) < n:
        raise MissingArgument()


def _none(call: Call) -> bool:
    """`/sweep none`, `/peek none`, ...: the private or standing choice withdrawn."""
    return bool(call.words) and call.words[0].lower() == "none"


def _cells(call: Call, words: Sequence[str]) -> list[str]:
    return [call.read("cell", [w]) for w in words]


def _choice(arg: ArgSpec, word: str) -> str:
    """A declared choice in the declaration's spelling (any case typed); another word is kept
    as typed, for the rules to refuse with their rule id."""
    return next((c for c in arg.choices if c.lower() == word.lower()), word)


def _pick_dev(state: State, player: str, cell: str, explicit: str | None, tag: str) -> str:
    """The developer named, else the first powered one in reach that has not yet done `tag`
    this turn, else any in reach (the rules then say why it cannot)."""
    if explicit:
        return explicit
    s = scen(state)
    r = ch.dev_range(state)
    for d in own(state, player, "developer"):
        if d["powered"] and s.within(d["cell"], cell, r) and tag not in d["used"]:
            return str(d["cell"])
    for d in own(state, player, "developer"):
        if s.within(d["cell"], cell, r):
            return str(d["cell"])
    raise ParseError(N_("None of your developers reaches {cell}."), cell=cell)


# --------------------------------------------------------------------------------------------
# The commands
# --------------------------------------------------------------------------------------------

_CELL = ArgSpec("cell", "cell", N_("a cell such as E5"))
_DEVELOPER = ArgSpec("developer", "cell", N_("the developer's cell"), required=False)


# "/power none": an empty list, so the default order alone decides (IEC-15.2). A bare /power
# used to save that ("Standing order saved."): typed to see one's list, it dropped the list
# (found playing, 2026-12-02); it now shows the list. The chat languages' words for "none".
NONE_WORDS = frozenset({"none", "nothing", "-", "нет", "ничего", "brak", "nic", "無", "无"})


@TABLE.command(
    "power",
    N_("Buildings to power (besides reactors); kept for later turns"),
    (ArgSpec("buildings", "cell", N_("cells, or none"), required=False, repeated=True),),
    ("/power C1 E3 E5", "/power", "/power none"),
)
def _power(call: Call) -> Action | Reply:
    if not call.words:
        return Reply(iec_lines.power_list(call.state, call.player, call.t), private=True)
    if len(call.words) == 1 and call.words[0].casefold() in NONE_WORDS:
        return {"type": "power", "buildings": []}
    return {"type": "power", "buildings": _cells(call, call.words)}


@TABLE.command(
    "give",
    N_("Give Intergrid power to a player every turn (0 stops)"),
    (
        ArgSpec("player", "player", N_("the player's name")),
        ArgSpec("count", "int", N_("how many")),
    ),
    ("/give bob 2",),
)
def _give(call: Call) -> Action:
    _need(call, 2)
    who = call.read("player", call.words[:1])
    return {"type": "give", "to": who, "count": call.read("int", call.words[1:2])}


@TABLE.command(
    "extract",
    N_("Standing choice of the resource a mine extracts"),
    (
        ArgSpec("mine", "cell", N_("the mine's cell")),
        ArgSpec("resource", "choice", N_("the resource"), choices=("A", "B", "C")),
    ),
    ("/extract A1 B",),
)
def _extract(call: Call) -> Action:
    _need(call, 2)
    mine = call.read("cell", call.words[:1])
    resource = _choice(call.spec.args[1], call.words[1])
    return {"type": "extract", "mine": mine, "resource": resource}


@TABLE.command(
    "mix",
    N_("Standing recipe priority of your mixers"),
    (
        ArgSpec(
            "recipes",
            "choice",
            N_("the recipes, most wanted first"),
            choices=("AB", "BC", "AC", "none"),
            repeated=True,
        ),
    ),
    ("/mix BC AB",),
)
def _mix(call: Call) -> Action:
    recipes = [_choice(call.spec.args[0], w) for w in call.words if w.lower() != "none"]
    return {"type": "mix", "recipes": recipes}


@TABLE.command(
    "transfer",
    N_("Standing transfers between storages: from to good count ..."),
    (ArgSpec("moves", "rest", N_("groups of: from to good count, or none")),),
    ("/transfer C1 E3 A 1", "/transfer none"),
)
def _transfer(call: Call) -> Action:
    words = call.words
    if not words or _none(call):
        return {"type": "transfers", "moves": []}
    if len(words) % 4:
        raise ParseError(N_("Transfers come in groups of four: from to good count."))
    moves = [
        {
            "from": call.read("cell", [words[i]]),
            "to": call.read("cell", [words[i + 1]]),
            "good": call.read("resource", [words[i + 2]]),
            "n": call.read("int", [words[i + 3]]),
        }
        for i in range(0, len(words), 4)
    ]
    return {"type": "transfers", "moves": moves}


@TABLE.command(
    "deliver",
    N_("Standing choice of the storages a mine, mixer or developer delivers to, best first"),
    (
        ArgSpec("building", "cell", N_("the building's cell")),
        ArgSpec("storages", "cell", N_("storage cells, or none"), repeated=True),
    ),
    ("/deliver C3 E3 C1", "/deliver C3 none"),
)
def _deliver(call: Call) -> Action:
    _need(call, 2)
    rest = call.words[1:]
    stores = [] if rest[0].lower() == "none" else _cells(call, rest)
    return {"type": "deliver", "building": call.read("cell", call.words[:1]), "storages": stores}


@TABLE.command(
    "destroy",
    N_("Blow up one of your buildings at the start of next turn"),
    (
        _CELL,
        ArgSpec("cancel", "choice", N_("cancel the order"), required=False, choices=("cancel",)),
    ),
    ("/destroy G3",),
)
def _destroy(call: Call) -> Action:
    _need(call, 1)
    act: Action = {"type": "destroy", "cell": call.read("cell", call.words[:1])}
    if len(call.words) > 1 and call.words[1].lower() == "cancel":
        act["cancel"] = True
    return act


@TABLE.command(
    "flex",
    N_("Flexible Order: your place in a phase (standing)"),
    (
        ArgSpec("phase", "int", N_("the phase's number")),
        ArgSpec(
            "position",
            "choice",
            N_("your place: first, last or unchanged"),
            choices=("first", "last", "unchanged"),
        ),
    ),
    ("/flex 9 last",),
)
def _flex(call: Call) -> Action:
    _need(call, 2)
    position = _choice(call.spec.args[1], call.words[1]).lower()
    return {"type": "flex", "phase": call.read("int", call.words[:1]), "position": position}


@TABLE.command(
    "antimissile",
    N_("Anti-Missile System on or off (standing)"),
    (ArgSpec("on", "choice", N_("on or off"), choices=("on", "off")),),
    ("/antimissile on",),
)
def _antimissile(call: Call) -> Action:
    _need(call, 1)
    word = call.words[0].lower()
    if word not in ("on", "yes", "1", "off", "no", "0"):  # not silently "off"
        raise ParseError(
            N_("/{command} takes one of: {choices}."), command="antimissile", choices="on, off"
        )
    return {"type": "antimissile", "on": word in ("on", "yes", "1")}


@TABLE.command(
    "use",
    N_("Use a technology: now (reveals it), auto (when it first acts) or off"),
    (
        ArgSpec("tech", "tech", N_("the technology")),
        ArgSpec(
            "mode", "choice", N_("when to use it"), required=False, choices=("now", "auto", "off")
        ),
    ),
    ("/use 13", "/use 8 off"),
)
def _use(call: Call) -> Action:
    """IEC-S-23: the technology's name may have several words; a last word that is a mode
    sets the mode (now by default)."""
    _need(call, 1)
    modes = call.spec.args[1].choices
    has_mode = len(call.words) > 1 and call.words[-1].lower() in modes
    mode = call.words[-1].lower() if has_mode else "now"
    words = call.words[:-1] if has_mode else call.words
    return {"type": "use", "tech": call.read("tech", words), "mode": mode}


@TABLE.command(
    "sweep",
    N_("Minesweepers: clear all tokens from a cell in the next phase 4 (private order)"),
    (ArgSpec("cell", "cell", N_("a cell such as E5, or none")),),
    ("/sweep H7", "/sweep none"),
)
def _sweep(call: Call) -> Action:
    if _none(call):
        return {"type": "sweep", "cell": None}
    _need(call, 1)
    return {"type": "sweep", "cell": call.read("cell", call.words[:1])}


@TABLE.command(
    "lay",
    N_("Lay tokens: the real mine first (A+B for two), then fakes [from storage]"),
    (
        ArgSpec("real", "cell", N_("the real mine's cell")),
        ArgSpec("fakes", "cell", N_("the cells of the fake tokens"), required=False, repeated=True),
        _paid_from(N_("from <storage>: which storage pays the AC"), "AC"),
    ),
    ("/lay H7 H8 I8", "/lay H7 from E3"),
)
def _lay(call: Call) -> Action:
    _need(call, 1)
    real = _cells(call, call.words[0].split("+"))
    return {"type": "lay", "real": real, "fake": _cells(call, call.words[1:])}


@TABLE.command(
    "relocate",
    N_("Move one of your tokens instead of laying"),
    (ArgSpec("from", "cell", N_("where from")), ArgSpec("to", "cell", N_("where to"))),
    ("/relocate H7 H9",),
)
def _relocate(call: Call) -> Action:
    _need(call, 2)
    origin, to = _cells(call, call.words[:2])
    return {"type": "relocate", "from": origin, "to": to}


@TABLE.command(
    "prepare",
    N_("Prepare a building site near a developer"),
    (_CELL, _DEVELOPER),
    ("/prepare G6",),
)
def _prepare(call: Call) -> Action:
    _need(call, 1)
    cell, *dev = _cells(call, call.words[:2])
    developer = _pick_dev(call.state, call.player, cell, dev[0] if dev else None, "prepare")
    return {"type": "prepare", "cell": cell, "developer": developer}


@TABLE.command(
    "build",
    N_("Build a module (2 AB): new building on a site, or rebuild"),
    (
        _CELL,
        ArgSpec("kind", "kind", N_("what to build"), required=False),
        _DEVELOPER,
        _paid_from(N_("from <storage>: where the AB is taken"), "AB"),
    ),
    ("/build G6 mine", "/build E3", "/build G6 storage from E3"),
)
def _build(call: Call) -> Action:
    """After the cell, in any order: a building type, the developer's cell, and (on an area
    with several deposits) the deposit's number. The type's words are read together: the
    prompt prints «пусковая установка» as one name (IEC-27 phase 7)."""
    _need(call, 1)
    cell = call.read("cell", call.words[:1])
    build: Action = {"type": "build", "cell": cell}
    dev = None
    name: list[str] = []
    for a in call.words[1:]:
        if a.isdigit():
            build["deposit"] = call.read("int", [a]) - 1
        elif scen(call.state).is_cell(_up(a)):
            dev = _up(a)
        else:
            name.append(a)
    if name:
        build["kind"] = call.read("kind", name)
    build["developer"] = _pick_dev(call.state, call.player, cell, dev, "build")
    return build


@TABLE.command(
    "recycle",
    N_("Recycling: destroy a module and recover 1 AB"),
    (_CELL, _DEVELOPER),
    ("/recycle F7",),
)
def _recycle(call: Call) -> Action:
    _need(call, 1)
    cell, *dev = _cells(call, call.words[:2])
    developer = _pick_dev(call.state, call.player, cell, dev[0] if dev else None, "recycle")
    return {"type": "recycle", "target": cell, "developer": developer}


@TABLE.command("activate", N_("Activate your token on a cell"), (_CELL,), ("/activate H7",))
def _activate(call: Call) -> Action:
    _need(call, 1)
    return {"type": "activate", "cell": call.read("cell", call.words[:1])}


@TABLE.command(
    "fire",
    N_("Fire a launcher: target [missiles] [target missiles] [launcher] [from storage]"),
    (
        ArgSpec("targets", "rest", N_("the targets, as you would type them")),
        _paid_from(N_("from <storage>: which storage pays the AC"), "AC"),
    ),
    ("/fire R3 2", "/fire I5 R3 1 T12 1", "/fire R3 2 from I7"),
)
def _fire(call: Call) -> Action:
    """Cells and numbers: a number is the missiles at the cell before it (1 by default); one
    of the player's own launchers is the launcher, else the first that can reach them all."""
    state, player = call.state, call.player
    launcher: str | None = None
    targets: dict[str, int] = {}
    last: str | None = None
    for a in call.words:
        if a.isdigit():
            if last is None:
                raise ParseError(N_("Name a target before the number of missiles."))
            targets[last] = _int_arg(a)
            continue
        c = call.read("cell", [a])
        b = state["buildings"].get(c)
        if b is not None and b["owner"] == player and b["kind"] == "launcher":
            launcher = c
        else:
            targets[c] = 1
            last = c
    if not targets:
        raise ParseError(N_("Name a target."))
    if launcher is None:
        ready = [
            la
            for la in own(state, player, "launcher")
            if la["powered"] and "fire" not in la["used"]
        ]
        launcher = next(
            (
                str(la["cell"])
                for la in ready
                if all(ch.hit_threshold(state, la, c) for c in targets)
            ),
            None,
        )
        if launcher is None and not own(state, player, "launcher"):
            raise IllegalAction("IEC-16.2", N_("You have no launcher."))  # who fires: launchers
        if launcher is None and not ready:
            raise IllegalAction(
                "IEC-S-19.1",
                N_(
                    "None of your launchers can fire now: each is unpowered or has fired this turn."
                ),
            )
        if launcher is None:  # IEC-16.1: name a target beyond them all, and the nearest
            far = [c for c in targets if not any(ch.hit_threshold(state, la, c) for la in ready)]
            if far:
                b = state["buildings"].get(far[0])
                if b is None or b["owner"] == player:
                    raise IllegalAction(
                        "IEC-S-19.6", N_("{cell} holds no enemy building."), cell=far[0]
                    )
                raise out_of_range(state, ready, far[0])
            raise IllegalAction(
                "IEC-16.1", N_("None of your launchers can reach all these targets.")
            )
    return {"type": "fire", "launcher": launcher, "targets": targets}


def _at_building(call: Call) -> Action:
    """/transmit and /research: the building is optional (the rules pick one)."""
    act: Action = {"type": call.spec.name}
    if call.words:
        act["building"] = call.read("cell", call.words[:1])
    return act


TABLE.command(
    "transmit",
    N_("Launch 1 BC to Earth from a transmitter"),
    (
        ArgSpec("transmitter", "cell", N_("the transmitter's cell"), required=False),
        _paid_from(N_("from <storage>: where the BC is taken"), "BC"),
    ),
    ("/transmit", "/transmit G3 from E3"),
)(_at_building)
TABLE.command(
    "research",
    N_("Laboratory: 1 BC + 1 AC for a science point"),
    (
        ArgSpec("laboratory", "cell", N_("the laboratory's cell"), required=False),
        _paid_from(N_("from <storage>: where the goods are taken"), "AC+BC"),
    ),
    ("/research", "/research G1 from E3"),
)(_at_building)


@TABLE.command(
    "tech",
    N_("List the technologies, or choose one (secret)"),
    (ArgSpec("tech", "tech", N_("the technology"), required=False),),
    ("/tech", "/tech 8"),
)
def _tech(call: Call) -> Action | Reply:
    if not call.words:
        return Reply(iec_lines.tech_list(call.state, call.player, call.t), private=True)
    return {"type": "tech", "tech": call.read("tech")}


@TABLE.command(
    "peek",
    N_("Remote Drilling: look at an area's two deposits in the next phase 14 (private order)"),
    (ArgSpec("area", "area", N_("an area, or none")),),
    ("/peek II-N", "/peek none"),
)
def _peek(call: Call) -> Action:
    _need(call, 1)
    if _none(call):
        return {"type": "peek", "area": None}
    return {"type": "peek", "area": call.read("area", call.words[:1])}


@TABLE.command(
    "subsidy",
    N_("Government Subsidy: 2 modules of a new building in phase 14 (private order)"),
    (
        ArgSpec("kind", "kind", N_("a building type, or none")),
        ArgSpec("cell", "cell", N_("the cell"), required=False),
    ),
    ("/subsidy transmitter J13", "/subsidy none"),
)
def _subsidy(call: Call) -> Action:
    _need(call, 1)
    if _none(call):
        return {"type": "subsidy", "kind": None, "cell": None}
    _need(call, 2)
    # IEC-TECH-16: the type may have several words («пусковая установка J13»); the cell last.
    kind = call.read("kind", call.words[:-1])
    return {"type": "subsidy", "kind": kind, "cell": call.read("cell", call.words[-1:])}


@TABLE.command("done", N_("Nothing more in this phase"), (), ("/done",))
def _done(call: Call) -> Action:
    return {"type": "done"}


@TABLE.command("status", N_("What happens now and what you can do"), (), ("/status",), kind="info")
def _status(call: Call) -> Reply:
    return Reply(describe_turn(call.state, call.player, call.t))


@TABLE.command(
    "techs", N_("Your technologies and the next cost (private)"), (), ("/techs",), kind="info"
)
def _techs(call: Call) -> Reply:
    return Reply(techs_text(call.state, call.player, call.t), private=True)


COMMANDS: tuple[CommandSpec, ...] = tuple(TABLE.specs)
# The commands a trailing `from <storage>` may follow: those that declare it (/relocate's
# "from" is its first cell, not a storage clause).
FROM_COMMANDS = frozenset(
    s.name for s in COMMANDS if any(a.name == "from" and a.kind == "rest" for a in s.args)
)


def _split_from(state: State, args: list[str]) -> tuple[list[str], str | None]:
    """`... from E3`: the storage the goods are drawn from first (IEC-S-10.5)."""
    for i, a in enumerate(args):
        if a.lower() == "from":
            if i + 1 >= len(args):
                raise ParseError(N_("Name a storage after from."))
            return args[:i] + args[i + 2 :], _cell_arg(state, args[i + 1])
    return args, None


# Commands that are actions of one phase or more (PHASE_ACTIONS), named as their actions.
PHASE_BOUND = frozenset(kind for kinds in PHASE_ACTIONS.values() for kind in kinds)


def parse(
    state: State, player: str, name: str, args: list[str], t: Translator | None = None
) -> Action | list[Action] | Reply:
    """Chat words -> action(s), or a Reply; the Reply's text is in `t`'s language."""
    words = [w for arg in args for w in arg.split()]
    words, source = _split_from(state, words)
    spec = TABLE.spec(name)
    if source is not None and spec is not None and spec.name not in FROM_COMMANDS:
        raise ParseError(N_("Only build, fire, transmit, research and lay take from."))
    try:
        act = TABLE.parse(state, player, name, words, t)
    except IllegalAction:
        # The parse reads arguments whatever the phase (tools and tests parse ahead), but a
        # player who sends /build in phase 5 should hear that phase 5 takes /lay, /relocate,
        # /done (IEC-27), not that no developer reaches the cell.
        kind = spec.name if spec is not None else ""
        if kind in PHASE_BOUND and not state["over"] and player in acting(state):
            check_phase(state, kind)
        raise
    if source is not None and isinstance(act, dict):
        act["from"] = source
    return act


def complete(state: State | None, player: str | None, kind: str, prefix: str) -> list[str]:
    return TABLE.complete(state, player, kind, prefix)


def is_picture_event(event: Event) -> bool:
    return event.get("type") in ("turn_ended", "game_over")


def undoable(events: list[Event]) -> bool:
    """False after any die roll or reveal."""
    return not any(e.get("rolled") or e.get("revealed") for e in events)


__all__ = [
    "COMMANDS",
    "FROM_COMMANDS",
    "KIND_NAMES",
    "OPTIONS",
    "TABLE",
    "buttons",
    "complete",
    "describe_event",
    "describe_private_event",
    "describe_start",
    "describe_turn",
    "is_picture_event",
    "parse",
    "undoable",
]
