"""The chat layer of Hexania: commands typed on a phone, texts for the chat, buttons.

Cells use the digest's names (HEX-G-4: row letter A..W, then the cell's number in its row from
the west, e.g. L12 is the centre); directions are E, NE, NW, W, SW, SE (HEX-G-3).

    /spawn D1                 birth on your homeland cell D1 (1 point)
    /grow L12 L13             grow the figure on L12 onto L13 (cost = its mass)
    /move L12 SE 3            move the figure on L12 three steps south-east (mass + steps)
    /regroup L10 L14          move one piece of a figure to a new cell (cost = mass)
    /end                      before any action: leave the game (HEX-2.4)
    /cost move L12 SE 3       the price of an action, without doing it
    /board text               the board as text (/board alone: the picture)

A trailing `keep=L12` (or just a last cell) names the piece kept when a figure collapses.
The turn ends by itself when nothing is affordable (HEX-2); /end after acting is refused while
an action is affordable, with the cheapest ones listed.
"""

from __future__ import annotations

from engine.core import (
    N_,
    Action,
    ArgSpec,
    CommandSpec,
    EnglishTranslator,
    Event,
    IllegalAction,
    ParseError,
    Reply,
    State,
    Translator,
    join_list,
    join_sentences,
    sentence_gap,
)
from engine.core.commands import ArgKind, Call, CommandTable
from engine.core.errors import word_params
from engine.hexania import rules
from engine.hexania.actions import action_text
from engine.hexania.board import (
    CELLS,
    DIRECTIONS,
    HOMELANDS,
    RADIUS,
    ROWS,
    SIDE_NAMES,
    direction_text,
    parse_cell,
    row_length,
)

DIRECTION_CHOICES = tuple(DIRECTIONS)
ALIASES = {"birth": "spawn", "born": "spawn", "g": "grow", "m": "move", "r": "regroup"}
ACTION_COMMANDS = ("spawn", "grow", "move", "regroup")  # what /cost can price

# Each command declared once: its spec and usage line, right above the function that reads
# it (engine/core/commands.py). A trailing keep=L12 may follow any of them, so the handlers
# count their own words.
TABLE = CommandTable(unknown=N_("Unknown command /{name}."), aliases=ALIASES, count_words=False)


# --------------------------------------------------------------------------- reading words


def _cell(text: str) -> str:
    cell = parse_cell(text)
    if cell is None:
        raise ParseError(N_("{text} is not a cell (row A..W, then a number: L12)."), text=text)
    return cell


def _split_keep(args: list[str]) -> tuple[list[str], str | None]:
    rest = list(args)
    keep = None
    for i, a in enumerate(rest):
        low = a.lower()
        if low.startswith("keep="):
            keep = _cell(a[5:])
            del rest[i]
            break
        if low == "keep" and i + 1 < len(rest):
            keep = _cell(rest[i + 1])
            del rest[i : i + 2]
            break
    return rest, keep


def _with_keep(action: Action, keep: str | None) -> Action:
    if keep is not None:
        action["keep"] = keep
    return action


def _two_cells(call: Call, kind: str, first: str, second: str) -> Action:
    """/grow and /regroup: two cells, then an optional kept cell (a third cell or keep=)."""
    args, keep = _split_keep(call.words)
    if len(args) == 3 and keep is None:
        keep = _cell(args.pop())
    if len(args) != 2:
        raise call.usage_error()
    return _with_keep({"type": kind, first: _cell(args[0]), second: _cell(args[1])}, keep)


# --------------------------------------------------------------------------- the commands


@TABLE.command(
    "spawn",
    N_("Birth: a new piece on an empty cell of your homeland (1 point)"),
    (ArgSpec("cell", "cell", N_("your homeland cell")),),
    ("/spawn D1",),
    usage=N_("Usage: /spawn <cell>, e.g. /spawn D1"),
)
def _spawn(call: Call) -> Action:
    args, keep = _split_keep(call.words)
    if len(args) != 1:
        raise call.usage_error()
    return _with_keep({"type": "birth", "cell": _cell(args[0])}, keep)


@TABLE.command(
    "grow",
    N_("Growth: add a piece next to a figure (cost = its mass, + armour on an enemy)"),
    (
        ArgSpec("figure", "cell", N_("any cell of the growing figure")),
        ArgSpec("cell", "cell", N_("the new cell, next to the figure")),
        ArgSpec("keep", "cell", N_("cell kept if the figure collapses"), required=False),
    ),
    ("/grow L12 L13",),
    usage=N_("Usage: /grow <figure cell> <new cell>, e.g. /grow L12 L13"),
)
def _grow(call: Call) -> Action:
    return _two_cells(call, "grow", "figure", "cell")


@TABLE.command(
    "move",
    N_("Movement: the whole figure in a straight line (mass + steps, + armour)"),
    (
        ArgSpec("figure", "cell", N_("any cell of the figure")),
        ArgSpec(
            "direction",
            "choice",
            N_("the way the figure moves"),  # /help lists the six after it
            choices=DIRECTION_CHOICES,
        ),
        ArgSpec("steps", "int", N_("how many cells (default 1)"), required=False),
        ArgSpec("keep", "cell", N_("cell kept if the figure collapses"), required=False),
    ),
    ("/move L12 SE 3",),
    usage=N_("Usage: /move <figure cell> <direction> [<steps>], e.g. /move L12 SE 3"),
)
def _move(call: Call) -> Action:
    args, keep = _split_keep(call.words)
    if not args:
        raise call.usage_error()
    figure = _cell(args[0])
    direction = None
    steps = None
    for a in args[1:]:
        up = a.upper()
        if up in DIRECTIONS and direction is None:
            direction = up
        elif a.isdigit() and steps is None:
            steps = int(a)
        elif keep is None and parse_cell(a) is not None:
            keep = parse_cell(a)
        else:
            raise ParseError(
                N_("Usage: /move <figure cell> <direction> [<steps>]; E NE NW W SW SE.")
            )
    if direction is None:
        raise ParseError(N_("Which direction? E NE NW W SW SE, e.g. /move L12 SE 3"))
    move: Action = {"type": "move", "figure": figure, "dir": direction, "steps": steps or 1}
    if steps == 0:
        raise ParseError(N_("Steps must be a whole number from 1."))
    return _with_keep(move, keep)


@TABLE.command(
    "regroup",
    N_("Regroup: move one piece of a figure to another cell touching it (cost = mass)"),
    (
        ArgSpec("src", "cell", N_("the piece that moves")),
        ArgSpec("cell", "cell", N_("its new cell")),
        ArgSpec("keep", "cell", N_("cell kept if the figure collapses"), required=False),
    ),
    ("/regroup L10 L14",),
    usage=N_("Usage: /regroup <from> <to>, e.g. /regroup L10 L14"),
)
def _regroup(call: Call) -> Action:
    return _two_cells(call, "regroup", "from", "to")


@TABLE.command(
    "end",
    N_(
        "Leave the game without acting (HEX-2.4); your turn ends by itself "
        "when nothing is affordable (HEX-2)"
    ),
    (
        ArgSpec(
            "confirm",
            "choice",
            N_("yes: leave the game"),
            required=False,
            # "confirm" as /abort takes it (found playing: "/end confirm" was refused)
            choices=("yes", "confirm"),
        ),
    ),
    ("/end",),
)
def _end(call: Call) -> Action | Reply:
    turn = call.state.get("turn")
    confirmed = [a.lower() for a in call.words] in (["yes"], ["confirm"])
    if (
        turn is not None
        and turn["player"] == call.player
        and turn["actions"] == 0
        and not confirmed
    ):
        warning = N_(
            "You have not acted this turn: ending now eliminates you from the game "
            "(HEX-2.4). Send /end yes to confirm."
        )
        return Reply(call.t.gettext(warning), private=True, extra={"confirm": "/end yes"})
    return {"type": "end"}


@TABLE.command(
    "cost",
    N_("Price an action without doing it, e.g. /cost move L12 SE 3"),
    (ArgSpec("command", "rest", N_("spawn/grow/move/regroup and its arguments")),),
    ("/cost move L12 SE 3", "/cost grow L12 L13"),
    usage=N_("Usage: /cost <command>, e.g. /cost move L12 SE 3"),
    kind="quote",
)
def _cost(call: Call) -> Reply:
    if not call.words:
        raise call.usage_error()
    inner = call.words[0].lstrip("/")
    return quote(call.state, call.player, parse_action(inner, call.words[1:]), call.t)


@TABLE.command("board", N_("The board as text: /board text"), (), ("/board text",), kind="info")
def _board(call: Call) -> Reply:
    return Reply(text_board(call.state, call.t), monospace=True)


COMMANDS: tuple[CommandSpec, ...] = tuple(TABLE.specs)


def parse_action(name: str, args: list[str]) -> Action:
    """The action of one of the action commands (spawn, grow, move, regroup), no state read."""
    spec = TABLE.spec(name)
    if spec is None or spec.name not in ACTION_COMMANDS:
        raise ParseError(N_("Unknown command /{name}."), name=name.lower())
    words = [a for a in args if a.strip()]
    found = TABLE.call(spec, {}, "", words, EnglishTranslator())
    assert isinstance(found, dict)  # the action commands return actions
    return found


def parse(
    state: State, player: str, name: str, args: list[str], t: Translator | None = None
) -> Action | list[Action] | Reply:
    """Chat words -> action(s), or a Reply; its translatable text is in `t`'s language."""
    return TABLE.parse(state, player, name, args, t)


# --------------------------------------------------------------------------- quotes


def quote(state: State, player: str, action: Action, t: Translator | None = None) -> Reply:
    """HEX-18: what an action would cost and do, before doing it (counts through ngettext)."""
    translator: Translator = t if t is not None else EnglishTranslator()
    g = translator.gettext
    try:
        p = rules.price(state, player, action)
    except IllegalAction as err:
        try:
            # its `Term`s and `Worded`s (the HEX-2 examples, a `Listed`) in the reader's words
            reason = g(err.message_key).format(**word_params(translator, err.params))
        except (KeyError, IndexError, ValueError):
            reason = err.english()
        return Reply(
            g(N_("{action}: not allowed ({rule}): {reason}")).format(
                action=action_text(action), rule=err.rule_id, reason=reason
            ),
            private=True,
            extra={"ok": False, "rule": err.rule_id},
        )
    parts = []
    if p.kind == "birth":
        parts.append(g(N_("birth {cost}")).format(cost=p.base))
    elif p.kind == "move":
        if state["options"]["viscous"]:
            parts.append(g(N_("viscosity {cost}")).format(cost=p.base))
        else:
            parts.append(g(N_("inertia {cost}")).format(cost=p.base))
        parts.append(translator.ngettext("{n} step", "{n} steps", p.steps).format(n=p.steps))
    else:
        parts.append(g(N_("mass {cost}")).format(cost=p.base))
    for a in p.armour:
        parts.append(
            g(N_("armour {cost} ({owner}'s figure of {mass})")).format(
                cost=a["cost"], owner=a["owner"], mass=a["mass"]
            )
        )
    text = translator.ngettext(
        "{action}: {parts} = {cost} point", "{action}: {parts} = {cost} points", p.cost
    )
    text = text.format(action=action_text(action), parts=" + ".join(parts), cost=p.cost)
    turn = state.get("turn")
    points = turn["points"] if turn is not None and turn["player"] == player else None
    affordable = points is None or p.cost <= points
    if points is not None:
        if affordable:
            text += g(N_("; you have {points}.")).format(points=points)
        else:
            text += g(N_("; you have {points} — not enough.")).format(points=points)
    else:
        text += "."
    if p.destroyed:
        n = len(p.destroyed)
        text += sentence_gap(text) + translator.ngettext(
            "Destroys {n} piece (+{n} bonus next turn).",
            "Destroys {n} pieces (+{n} bonus next turn).",
            n,
        ).format(n=n)
    if p.collapse:
        if p.keep is None:
            text += sentence_gap(text) + g(
                N_("The figure reaches mass {mass} and collapses: add keep=<cell>.")
            ).format(mass=len(p.merged))
        else:
            text += sentence_gap(text) + g(
                N_("The figure reaches mass {mass} and collapses to {keep}.")
            ).format(mass=len(p.merged), keep=p.keep)
    elif len(p.merged) > 0 and p.kind != "birth":
        text += sentence_gap(text) + g(N_("Figure mass after: {mass}.")).format(mass=len(p.merged))
    return Reply(
        text,
        private=True,
        extra={"ok": affordable, "cost": p.cost, "destroys": len(p.destroyed)},
    )


# --------------------------------------------------------------------------- texts


def text_board(state: State, t: Translator | None = None) -> str:
    """HEX-G-6: one line per row, indented by |r|; '1'..'6' pieces, '+' empty homeland."""
    seat = {p: str(i + 1) for i, p in enumerate(state["players"])}
    homes = {c for p in rules.active_players(state) for c in HOMELANDS[state["sides"][p]]}
    lines = []
    i = 0
    for r in range(-RADIUS, RADIUS + 1):
        n = row_length(r)
        cells = CELLS[i : i + n]
        i += n
        marks = [
            seat[state["board"][c]] if c in state["board"] else ("+" if c in homes else ".")
            for c in cells
        ]
        lines.append(" " * abs(r) + ROWS[r + RADIUS] + " " + " ".join(marks))
    # the legend listed in the reader's words ("1 = ann、2 = bo" in Chinese); tests and logs
    # (Hexania.text) read it in English
    legend = join_list(t or EnglishTranslator(), (f"{seat[p]} = {p}" for p in state["players"]))
    return "\n".join(lines) + "\n" + legend


def describe_start(state: State, t: Translator) -> str:
    """The opening as setup drew it, for the table's "begins" post: nothing of it is a move, so
    without this line nobody would learn why the first turn is not the first seat's."""
    sides = join_list(
        t, (f"{p} {t.gettext(SIDE_NAMES[state['sides'][p]])}" for p in state["players"])
    )
    rolls = [
        join_list(t, (f"{p} ({n})" for p, n in sorted(r.items(), key=lambda pn: -pn[1])))
        for r in state["rolloff"]
    ]
    rolled = t.gettext(N_("Roll-off for the first turn (HEX-D-5): {rolls}.")).format(rolls=rolls[0])
    for again in rolls[1:]:  # the tied highest roll again among themselves (HEX-D-5)
        rolled += sentence_gap(rolled) + t.gettext(N_("Tied, they roll again: {rolls}.")).format(
            rolls=again
        )
    order = state["order"]
    return join_sentences(
        t.gettext(N_("Sides drawn at random (HEX-G-9): {sides}.")).format(sides=sides),
        rolled,
        t.gettext(N_("{player} starts; then clockwise: {others}.")).format(
            player=order[0], others=join_list(t, order[1:])
        ),
    )


def describe_turn(state: State, player: str | None, t: Translator) -> str:
    rounds = state["options"]["rounds"]
    head = (
        t.gettext(N_("Round {round} of {rounds}.")).format(round=state["round"], rounds=rounds)
        if rounds
        else t.gettext(N_("Round {round}.")).format(round=state["round"])
    )
    if state["over"]:
        return join_sentences(head, over_text(state, t))
    turn = state["turn"]
    who = turn["player"]
    dice = "+".join(str(d) for d in turn["dice"])
    text = join_sentences(
        head,
        t.ngettext(
            "{player} rolled {dice}, bonus {bonus}: {points} point left.",
            "{player} rolled {dice}, bonus {bonus}: {points} points left.",
            turn["points"],
        ).format(player=who, dice=dice, bonus=turn["bonus"], points=turn["points"]),
    )
    if player == who:
        text += sentence_gap(text) + t.gettext(
            N_(
                "Your move: /spawn cell (1), /grow figure cell (mass), /move figure dir steps "
                "(mass + steps), /regroup from to (mass), /cost to price. The turn ends when "
                "nothing is affordable (HEX-2)."
            )
        )
    return text


def over_text(state: State, t: Translator) -> str:
    """How the game ended (HEX-2.6) and the ranking with the figures that decided it: the
    last player standing; or, at the round limit (HEX-OPT-LIMIT, corrections 1.1), the
    deciding criterion, then every player's pieces (and last-round bonus points where they
    separated two players)."""
    ranking = rules.result(state)
    winners = join_list(t, ranking[0]) if ranking else ""
    g = t.gettext
    if state.get("end_reason") == "round_limit":
        criterion = rules.deciding_criterion(state)
        if criterion == "shared":
            said = g(
                N_(
                    "Round limit reached: {winners} share the victory "
                    "(tied on pieces and on bonus points of the last round)."
                )
            )
        elif criterion == "bonus":
            said = g(
                N_(
                    "Round limit reached: {winners} wins on bonus points earned in the "
                    "last round (tied on pieces)."
                )
            )
        else:
            said = g(N_("Round limit reached: {winners} wins with the most pieces."))
    else:
        said = g(N_("{winners} is the last player standing and wins!"))
    return join_sentences(
        said.format(winners=winners),
        g(N_("Ranking: {ranking}.")).format(ranking=_ranking_text(state, ranking, t)),
    )


def _ranking_text(state: State, ranking: list[list[str]], t: Translator) -> str:
    """ "1. ann: 31 pieces; 2. bo: 28 pieces (2 bonus points in the last round); 3. cyd
    (eliminated)". Eliminated players rank below, the last one out first (HEX-2.6)."""
    at_limit = state.get("end_reason") == "round_limit"
    out = set(state["eliminated"])
    keys = {p: (rules.pieces_of(state, p), state["round_bonus"][p]) for g in ranking for p in g}
    parts: list[str] = []
    place = 1
    for i, group in enumerate(ranking):
        for player in group:
            details: list[str] = []
            if player in out:
                details.append(t.gettext(N_("eliminated")))
            elif at_limit:
                pieces, bonus = keys[player]
                details.append(t.ngettext("{n} piece", "{n} pieces", pieces).format(n=pieces))
                # the bonus shows where it was compared: a tie on pieces with a neighbour
                near = [q for j in (i - 1, i + 1) if 0 <= j < len(ranking) for q in ranking[j]]
                tied = len(group) > 1 or any(q not in out and keys[q][0] == pieces for q in near)
                if tied:
                    details.append(
                        t.ngettext(
                            "{n} bonus point in the last round",
                            "{n} bonus points in the last round",
                            bonus,
                        ).format(n=bonus)
                    )
            parts.append(
                t.gettext(N_("{place}. {player} ({details})")).format(
                    place=place, player=player, details=", ".join(details)
                )
                if details
                else t.gettext(N_("{place}. {player}")).format(place=place, player=player)
            )
        place += len(group)
    return "; ".join(parts)


def describe_event(state: State, event: Event, t: Translator) -> str | None:
    kind = event.get("type")
    g = t.gettext
    if kind == "dice_rolled":
        dice = "+".join(str(d) for d in event["dice"])
        if event["bonus"]:
            return t.ngettext(
                "{player} rolls {dice} + {bonus} bonus = {points} point.",
                "{player} rolls {dice} + {bonus} bonus = {points} points.",
                event["points"],
            ).format(
                player=event["player"], dice=dice, bonus=event["bonus"], points=event["points"]
            )
        return t.ngettext(
            "{player} rolls {dice} = {points} point.",
            "{player} rolls {dice} = {points} points.",
            event["points"],
        ).format(player=event["player"], dice=dice, points=event["points"])
    if kind == "birth":
        return g(N_("{player}: new piece on {cell} (cost {cost}, {left} left).")).format(
            player=event["player"],
            cell=event["cell"],
            cost=event["cost"],
            left=event["points_left"],
        )
    if kind == "grow":
        return g(
            N_("{player}: {figure} grows onto {cell}, mass {mass} (cost {cost}, {left} left).")
        ).format(
            player=event["player"],
            figure=event["figure"],
            cell=event["cell"],
            mass=event["mass"],
            cost=event["cost"],
            left=event["points_left"],
        )
    if kind == "move":
        return g(
            N_("{player}: {figure} moves {steps} {dir}, now at {cell} (cost {cost}, {left} left).")
        ).format(
            player=event["player"],
            figure=event["figure"],
            dir=direction_text(t, str(event["dir"])),
            steps=t.ngettext("{n} step", "{n} steps", event["steps"]).format(n=event["steps"]),
            # events logged before the move event named its landing cell: the first cell
            cell=event.get("cell", event["cells"][0]),
            cost=event["cost"],
            left=event["points_left"],
        )
    if kind == "regroup":
        return g(N_("{player}: regroup {src} to {cell} (cost {cost}, {left} left).")).format(
            player=event["player"],
            src=event["src"],
            cell=event["cell"],
            cost=event["cost"],
            left=event["points_left"],
        )
    if kind == "destroyed":
        return t.ngettext(
            "{player} destroys {count} piece of {victim} (+{count} bonus next turn).",
            "{player} destroys {count} pieces of {victim} (+{count} bonus next turn).",
            event["count"],
        ).format(player=event["player"], count=event["count"], victim=event["victim"])
    if kind == "collapsed":
        return g(
            N_("{player}'s figure reached mass {mass} and collapsed; one piece stays on {keep}.")
        ).format(player=event["player"], mass=event["mass"], keep=event["keep"])
    if kind == "turn_ended":
        if event["reason"] == "no_points":
            # HEX-2 / HEX-2.2: only the points that buy nothing are lost.
            return t.ngettext(
                "{player} can do nothing more; turn over ({lost} point lost).",
                "{player} can do nothing more; turn over ({lost} points lost).",
                event["lost"],
            ).format(player=event["player"], lost=event["lost"])
        # "end": stored games from before the HEX-2 correction (v1.1) still replay.
        return t.ngettext(
            "{player} ends the turn ({lost} point lost).",
            "{player} ends the turn ({lost} points lost).",
            event["lost"],
        ).format(player=event["player"], lost=event["lost"])
    if kind == "eliminated":
        if event["reason"] == "resigned":
            return g(N_("{player} did not act and leaves the game.")).format(player=event["player"])
        return g(N_("{player} cannot act and is eliminated.")).format(player=event["player"])
    if kind == "round_started":
        return g(N_("Round {round} begins.")).format(round=event["round"])
    if kind == "game_over":
        # Said once, by the over state's turn text (over_text: how it ended, HEX-2.6, and the
        # ranking with the figures that decided it); the event itself stays as recorded.
        return None
    return None


def buttons(state: State, player: str, t: Translator) -> list[tuple[str, str]]:
    """Up to three births on the player's homeland, labelled in the reader's language."""
    if player not in rules.current_players(state):
        return []
    label = t.gettext(N_("Spawn {cell}"))
    out: list[tuple[str, str]] = []
    for action in rules.legal_actions(state, player):
        if action["type"] == "birth" and len(out) < 3:
            out.append((label.format(cell=action["cell"]), f"/spawn {action['cell']}"))
    # No "end" button: the turn ends by itself when nothing is affordable (HEX-2).
    return out


def _complete_direction(state: State | None, player: str | None, prefix: str) -> list[str]:
    pre = prefix.strip().upper()
    return [d for d in DIRECTIONS if d.startswith(pre)]


def _complete_cell(state: State | None, player: str | None, prefix: str) -> list[str]:
    """The player's own cells first, then his homeland, then every other cell."""
    pre = prefix.strip().upper()
    ranked: list[str] = []
    if state is not None and player is not None and player in state["sides"]:
        own = sorted((c for c, o in state["board"].items() if o == player), key=CELLS.index)
        ranked.extend(own)
        ranked.extend(c for c in HOMELANDS[state["sides"][player]] if c not in own)
    seen = set(ranked)
    ranked.extend(c for c in CELLS if c not in seen)
    return [c for c in ranked if c.startswith(pre)][:25]


TABLE.kind(ArgKind("direction", complete=_complete_direction))
TABLE.kind(ArgKind("cell", read=lambda call, words: _cell(words[0]), complete=_complete_cell))


def complete(state: State | None, player: str | None, kind: str, prefix: str) -> list[str]:
    return TABLE.complete(state, player, kind, prefix)


def is_picture_event(event: Event) -> bool:
    return event.get("type") in ("turn_ended", "eliminated", "game_over")


def undoable(events: list[Event]) -> bool:
    """Undo is allowed unless the action led to a dice roll (the next turn began)."""
    return not any(e.get("type") == "dice_rolled" for e in events)
