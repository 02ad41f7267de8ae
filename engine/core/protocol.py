"""The contract between a game folder and the bot (see shared/DESIGN.md).

A game is a module-level object satisfying `Game`. State, actions and events are plain
JSON data (dicts, lists, str, int, bool, None; dict keys are strings). `apply` validates
the whole action first and raises `IllegalAction` before touching anything; only then it
mutates `state` in place and returns it with the events. No deep copy per move: callers
that must keep the old state serialise it first (the store already holds it as JSON).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from engine.core.applied import Applied
    from engine.core.errors import IllegalAction
    from engine.core.rng import Rng
    from engine.core.search import Budget

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
# A ranking: groups of tied players, best first, e.g. [["bob"], ["alice", "carol"]].
Ranking = list[list[str]]
# A bot: (state, player, rng) -> the action it takes. `rng` is the caller's, not the game's,
# so a bot's choices never disturb the game's own random stream.
BotFn = Callable[[State, str, "Rng"], Action]


class Translator(Protocol):
    """What text-producing engine code receives: a gettext-like object for one language."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


class EnglishTranslator:
    """The identity translator (English is the catalog's source language)."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural


@dataclass(frozen=True)
class ArgSpec:
    """One argument of a chat command.

    kind: "int", "str", "city", "plant", "resource", "cell", "choice", "rest" (all remaining
    words). `choices` fixes the allowed values; autocomplete for "city"/"plant"/... comes from
    `Game.complete(state, player, kind, prefix)`. `clause`: a "rest" argument typed as its own
    name and one value, anywhere after the arguments before it ("/lay H7 H8 from E3", IEC's
    storage that pays): the kind of that value, which autocomplete offers after the name.
    """

    name: str
    kind: str = "str"
    help: str = ""
    required: bool = True
    choices: tuple[str, ...] = ()
    repeated: bool = False
    clause: str = ""


@dataclass(frozen=True)
class CommandSpec:
    """One chat command of a game: `/name arg ...`. Telegram and Discord are generated from it."""

    name: str
    help: str
    args: tuple[ArgSpec, ...] = ()
    examples: tuple[str, ...] = ()
    # "move" changes the state (needs the turn); "quote" and "info" only answer.
    kind: str = "move"
    # The usage line (N_-marked) a wrong call answers with, e.g. "Usage: /cost <city> ...".
    usage: str = ""


@dataclass(frozen=True)
class OptionSpec:
    """A table option for `/new <game> key=value`."""

    key: str
    help: str
    default: str
    choices: tuple[str, ...] = ()


@dataclass
class Reply:
    """What a game's `command` returns for a quote or info command: text and optional picture."""

    text: str
    png: bytes | None = None
    private: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    # Text laid out in columns (a board in words, HEX-G-6): shown in a fixed-width font with
    # its spaces kept.
    monospace: bool = False
    # A public answer's text as the asker alone may read it (his hidden money, PG-9): asked
    # in a private chat he reads only this; asked in a group, the group reads `text` and he
    # gets this beside it, privately.
    own: str | None = None


@dataclass(frozen=True)
class Capabilities:
    """What a game declares beyond its three parts; the table reads these flags and never
    probes a game object for optional methods. Each flag names the member it switches on
    (every game has the member: `BaseGame` gives the no-op; the flag says it means something).
    """

    # `anytime(action)`: standing orders and other actions any seated player may send off
    # turn (the table accepts them without waiting for his turn).
    standing_orders: bool = False
    # With `standing_orders`: the move commands that may give such an action. Any other move
    # command from a seated player who is not asked to act is refused before it is parsed
    # (empty: every move command is parsed first, and `anytime` judges its actions).
    off_turn_commands: frozenset[str] = frozenset()
    # `describe_private_event(state, event, t)`: the secret part of an event, for its owner.
    private_events: bool = False
    # The types of the private events that are their owner's hidden choice (a sealed order,
    # a proxy bid's limit, a face-down mine): a move giving one, typed where the whole chat
    # reads it, would tell it to everyone, so the table refuses it there (bot/moves.py).
    # A private notice of a public move (an order that could not be carried out) is not one.
    secret_events: frozenset[str] = frozenset()
    # `rules_index` (rule id -> title) and `rules_commands` (rule id -> commands): /rules <id>.
    rules_index: bool = False
    # `default_action(state, player)`: the move for a player who ran out of time.
    default_move: bool = False
    # `forced_action(state, player)`: the move of a player who has nothing to decide (his only
    # legal action is a pass or /done); the table plays it for him and says so (issue 17).
    forced_moves: bool = False
    # Phases in which several players act at once (`current_players` lists them all).
    simultaneous: bool = False
    # `off_turn_reason(state, player, command, t)`: why a move command from a seated player
    # who is not asked to act is refused, in the game's words ("you have nothing left to
    # decide in this phase"), instead of the table's "Not your turn" (None: the table's).
    off_turn_reasons: bool = False
    # `secret_command(state, player, command, args)`: whether the command, typed now, is a
    # choice the rules keep to its author. The table refuses it where the whole chat reads it
    # before it looks at the move, for everyone alike: a refusal that depends on his secrets
    # (does he own the technology?) must not differ from an acceptance (found play-testing
    # IEC, 2026-12-04: the group told owners from non-owners by whether a reply came).
    secret_commands: bool = False
    # `describe_turn_in(view, viewer, t)` and `buttons_in(public_view, player, t)`: the turn
    # text and the buttons are worded from views, the turn from `view(state, viewer)` and a
    # player's buttons from the public view `view(state, None)` (they are posted in the
    # group: only what everybody sees may shape them, issue 20). A table that already holds
    # the public view then builds no other (one view per move instead of three, issue 23).
    view_speaks: bool = False


class Rules(Protocol):
    """The pure rules: state in, state and events out (replay law: setup + log = state)."""

    def setup(self, players: list[str], options: dict[str, str], seed: int) -> State: ...

    def current_players(self, state: State) -> list[str]: ...

    def legal_actions(self, state: State, player: str) -> list[Action]: ...

    def apply(self, state: State, player: str, action: Action) -> tuple[State, list[Event]]: ...

    def play(self, state: State, player: str, action: Action) -> Applied:
        """`apply` with what follows from it in one result (engine/core/applied.py): who acts
        now, over or not, forced moves, which events are private to whom or pictured. The
        table's one call per move; `apply` is what the replay uses."""
        ...

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        """What `player` may see (None: a spectator); the one player view (boardgame.io)."""
        ...

    def is_over(self, state: State) -> bool: ...

    def result(self, state: State) -> Ranking: ...


class Chat(Protocol):
    """The chat layer (engine/<game>/commands.py): commands in, words out, through `t`."""

    @property
    def commands(self) -> Sequence[CommandSpec]: ...

    def parse(
        self, state: State, player: str, name: str, args: list[str], t: Translator | None = None
    ) -> Action | list[Action] | Reply:
        """Chat command -> an action (or several, applied all-or-nothing in order, e.g.
        `/build A B`), or a Reply for quotes/info. Raises IllegalAction (ParseError).
        Replies are worded through `t` (English when None)."""
        ...

    def describe_turn(self, state: State, player: str | None, t: Translator) -> str:
        """One short paragraph: phase, who acts, what is expected (for /status and prompts)."""
        ...

    def describe_event(self, state: State, event: Event, t: Translator) -> str | None:
        """A line for the chat about an event, or None when the event is not announced."""
        ...

    def describe_start(self, state: State, t: Translator) -> str | None:
        """What setup drew that everybody may know (turn order, sides, the rolls behind
        them), words through `t`, for the post that the game begins; None: nothing."""
        ...

    def buttons(
        self, state: State, player: str, t: Translator | None = None
    ) -> list[tuple[str, str]]:
        """Small choices as (label, command text) pairs, e.g. ("Pass", "/pass"); labels
        through `t` (English when None)."""
        ...

    def complete(
        self, state: State | None, player: str | None, kind: str, prefix: str
    ) -> list[str]:
        """Autocomplete candidates for an argument kind ("city", "plant", ...)."""
        ...

    def is_picture_event(self, event: Event) -> bool:
        """True when this event should be followed by a board picture (a phase or round ended)."""
        ...

    def undoable(self, events: list[Event]) -> bool:
        """False when the action's events revealed something hidden or random."""
        ...

    def describe_action(
        self, state: State, player: str, action: Action, t: Translator
    ) -> str | None:
        """The log's line for an action when none of its events names the player (e.g.
        /done), words through `t`; None: the table says "<player> makes a move"."""
        ...

    # What the end-of-game pictures call a period of the game: a replay frame's caption
    # ("Round {n}", N_-marked, {n} the number) and the charts' x axis ("per round").
    period_caption: str
    chart_axis: str


class Picture(Protocol):
    """The board as pictures (engine/<game>/render.py, Pillow imported only to draw)."""

    def render(self, state: State, viewer: str | None, t: Translator | None = None) -> bytes:
        """One PNG of the board as `viewer` may see it, words through `t`."""
        ...

    def render_set(
        self,
        state: State,
        viewer: str | None,
        t: Translator | None = None,
        previous: State | None = None,
    ) -> list[Any]:
        """The pictures sent together, captions through `t`, changes since `previous`."""
        ...

    def player_colours(self, state: State) -> dict[str, tuple[int, int, int]]:
        """Each player's colour on the board (RGB): the end-of-game card and charts draw him
        in it. Empty: the cards colour the players by their order."""
        ...


class Chronicle(Protocol):
    """The game's figures over time, for the end-of-game card, charts and replay
    (engine/<game>/logtext.py): empty `series` means the game draws none."""

    @property
    def series(self) -> Sequence[tuple[str, str]]:
        """(figure key, English label N_-marked): what the charts draw per player."""
        ...

    def period(self, state: State) -> int:
        """The round (turn) the state is in."""
        ...

    def score(self, state: State) -> dict[str, dict[str, int]]:
        """Player -> figure key -> value, now."""
        ...

    def deciding(self, state: State) -> list[tuple[str, dict[str, int]]]:
        """The figures the ranking was decided by: (English label, player -> value)."""
        ...

    def progress(self, state: State) -> float | None:
        """How far the game has come, 0..1, by its own end condition (None: no measure).
        /status's pace line estimates the end day from it (bot/pace.py)."""
        ...


class Extensions(Protocol):
    """The optional capabilities: every game has these members, `capabilities` says which
    of them mean something (see `Capabilities`; `BaseGame` provides the no-ops)."""

    @property
    def capabilities(self) -> Capabilities: ...

    @property
    def rules_index(self) -> Mapping[str, str]:
        """Rule id -> English title (N_-marked), for /rules <id>."""
        ...

    @property
    def rules_commands(self) -> Mapping[str, tuple[str, ...]]:
        """Rule id -> the commands it concerns."""
        ...

    def anytime(self, action: Action) -> bool: ...

    def describe_private_event(self, state: State, event: Event, t: Translator) -> str | None: ...

    def default_action(self, state: State, player: str) -> Action | None: ...

    def describe_turn_in(self, view: dict[str, Any], viewer: str | None, t: Translator) -> str:
        """`describe_turn` from `view(state, viewer)` (`view_speaks`)."""
        ...

    def buttons_in(
        self, public_view: dict[str, Any], player: str, t: Translator
    ) -> list[tuple[str, str]]:
        """`buttons` from the public view `view(state, None)` (`view_speaks`)."""
        ...

    def forced_action(self, state: State, player: str) -> Action | None:
        """The pass or /done of a player (one of `current_players`) whose only legal choice
        it is, so nobody is prompted to decide nothing; None when he has a real choice."""
        ...

    def off_turn_reason(
        self, state: State, player: str, command: str, t: Translator
    ) -> IllegalAction | None:
        """Why `player`, seated and not asked to act, may not give the move `command` now
        (`off_turn_reasons`); its words in `t`'s language. None: the table's own refusal."""
        ...

    def secret_command(self, state: State, player: str, command: str, args: Sequence[str]) -> bool:
        """Whether `player`'s `command` typed now is a secret choice (`secret_commands`),
        judged on public facts only (the phase, who is asked, the options), never on anyone's
        secrets."""
        ...

    def eliminated(self, state: State) -> Sequence[str]:
        """The seats out of the game before its end (HEX-2.4, IEC-S-24): the table tells
        such a player he is out, not that it is not his turn. Empty in a game without."""
        ...

    def stage(self, view: dict[str, Any]) -> str:
        """The public stage of the moment `view` (the public view) shows: the round and
        phase, or one player's turn where turns are one player's. A button posted in an
        earlier stage is out of date even when its move is legal again ("Done" of the last
        phase); "" for a game that has none."""
        ...

    def hint(
        self,
        state: State,
        player: str,
        t: Translator,
        rng: Rng | None = None,
        budget: Budget | None = None,
    ) -> tuple[Action, str] | None:
        """/hint: the move the game's strong bot would make for `player` and one line why,
        words through `t`, thinking within `budget`; None for a game without hints."""
        ...


@runtime_checkable
class Game(Rules, Chat, Picture, Chronicle, Extensions, Protocol):
    """A game: its declared parts and capabilities (model: OpenSpiel's declared game type)."""

    id: str
    name: str
    min_players: int
    max_players: int

    @property
    def options(self) -> Sequence[OptionSpec]: ...

    bots: dict[str, BotFn]  # "random" and "heuristic" at least; the first is the default
