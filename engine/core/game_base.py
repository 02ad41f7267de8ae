"""Base classes for game objects: the no-op extension hooks, and the chat-and-picture
delegation written once (the parts of a game are modules: engine/<game>/commands.py for the
chat layer, engine/<game>/render.py for the picture).

A game declares what it has in `capabilities` (engine/core/protocol.py `Capabilities`) and
overrides the hooks it declares, the way python-chess variants override a board's hooks;
the table reads the declaration and never probes the object.
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, cast

from engine.core.applied import Applied, play_move
from engine.core.errors import N_, IllegalAction
from engine.core.protocol import (
    Action,
    Capabilities,
    CommandSpec,
    EnglishTranslator,
    Event,
    Reply,
    State,
    Translator,
)

if TYPE_CHECKING:
    from engine.core.protocol import Game
    from engine.core.rng import Rng
    from engine.core.search import Budget

_ENGLISH = EnglishTranslator()


def _module(name: str) -> ModuleType:
    """The module `name`, imported on first use. Once imported it is a dict lookup:
    `importlib.import_module` costs a few µs through its locks even then, and the table asks
    a game's chat module several times a move (issue 23)."""
    found = sys.modules.get(name)
    return found if found is not None else importlib.import_module(name)


class BaseGame:
    """The extension hooks, each a no-op until a game declares it in `capabilities`."""

    capabilities: Capabilities = Capabilities()
    period_caption: str = N_("Round {n}")
    chart_axis: str = N_("per round")
    rules_index: Mapping[str, str] = MappingProxyType({})
    rules_commands: Mapping[str, tuple[str, ...]] = MappingProxyType({})

    def play(self, state: State, player: str, action: Action) -> Applied:
        """`apply` and what the table asks after it, in one result (engine/core/applied.py),
        from the game's own members; a game may override it to answer more cheaply."""
        return play_move(cast("Game", self), state, player, action)

    def anytime(self, action: Action) -> bool:
        """No action goes off turn (a game with standing orders overrides this)."""
        return False

    def describe_private_event(self, state: State, event: Event, t: Translator) -> str | None:
        """No secret part (a game with private events overrides this)."""
        return None

    def default_action(self, state: State, player: str) -> Action | None:
        """No declared default move: the table's generic policy decides (bot/bots.py)."""
        return None

    def forced_action(self, state: State, player: str) -> Action | None:
        """Nothing is forced: every prompt waits for its player (a game overrides this)."""
        return None

    def off_turn_reason(
        self, state: State, player: str, command: str, t: Translator
    ) -> IllegalAction | None:
        """No reason of the game's own: the table says "Not your turn"."""
        return None

    def secret_command(self, state: State, player: str, command: str, args: Sequence[str]) -> bool:
        """No command is secret as such: the move's events say it (`secret_events`)."""
        return False

    def eliminated(self, state: State) -> Sequence[str]:
        """Nobody leaves before the end (a game with eliminations overrides this)."""
        return ()

    def stage(self, view: dict[str, Any]) -> str:
        """No stages: a button holds while its move is legal (a game with phases overrides)."""
        return ""

    def describe_turn_in(self, view: dict[str, Any], viewer: str | None, t: Translator) -> str:
        """No words from a view: the turn is worded from the state (`describe_turn`)."""
        return ""

    def buttons_in(
        self, public_view: dict[str, Any], player: str, t: Translator
    ) -> list[tuple[str, str]]:
        """No buttons from a view: they come from the state (`buttons`)."""
        return []

    def describe_action(
        self, state: State, player: str, action: Action, t: Translator
    ) -> str | None:
        """No words of its own for a move: the log says "<player> makes a move"."""
        return None

    def describe_start(self, state: State, t: Translator) -> str | None:
        """Nothing drawn at setup to tell: the "begins" post names the seats alone."""
        return None

    def hint(
        self,
        state: State,
        player: str,
        t: Translator,
        rng: Rng | None = None,
        budget: Budget | None = None,
    ) -> tuple[Action, str] | None:
        """No hints (a game with a strong bot overrides this)."""
        return None

    # --- chronicle: no figures (a game with a logtext.py has them) ---
    series: Sequence[tuple[str, str]] = ()

    def period(self, state: State) -> int:
        return 0

    def score(self, state: State) -> dict[str, dict[str, int]]:
        return {}

    def deciding(self, state: State) -> list[tuple[str, dict[str, int]]]:
        return []

    def progress(self, state: State) -> float | None:
        return None

    def player_colours(self, state: State) -> dict[str, tuple[int, int, int]]:
        """No board colours: the cards colour the players by their order."""
        return {}


def with_hint_rollouts(strong_module: ModuleType, budget: Budget | None) -> Budget | None:
    """`budget` with the strong module's `HINT_ITERATIONS` when it counts no rollouts."""
    iterations = getattr(strong_module, "HINT_ITERATIONS", None)
    if iterations is None or (budget is not None and budget.iterations is not None):
        return budget
    if budget is None:
        from engine.core.search import Budget

        return Budget(iterations=iterations)
    return dataclasses.replace(budget, iterations=iterations)


class ModularGame(BaseGame, ABC):
    """A game whose chat layer and picture are modules, imported on first use (the rules
    work, and are tested, without them; Pillow is loaded only to draw). Subclasses name the
    modules and write their rules members (`view` is what the picture is drawn from)."""

    chat_module: ClassVar[str]
    render_module: ClassVar[str]
    # The log's words for moves (engine/<game>/logtext.py `describe_action`) and /hint
    # (engine/<game>/strong.py `hint`): by default the modules of the package the class is
    # written in, so a variant written in its own folder gets its own without naming them.
    logtext_module: ClassVar[str]
    strong_module: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        package = cls.__module__.rpartition(".")[0]
        if "logtext_module" not in cls.__dict__:
            cls.logtext_module = f"{package}.logtext"
        if "strong_module" not in cls.__dict__:
            cls.strong_module = f"{package}.strong"

    def hint(
        self,
        state: State,
        player: str,
        t: Translator,
        rng: Rng | None = None,
        budget: Budget | None = None,
    ) -> tuple[Action, str] | None:
        """The strong bot's move and one line why (engine/<game>/strong.py). A time budget
        is given the strong module's `HINT_ITERATIONS` as well: the search then stops at
        that many rollouts (its randomness fixed by the position), so asking twice gives the
        same hint, as a player expects; the seconds only cap a slow or busy machine (found
        playing, 2026-12-03: four /hint calls on one position said "open plant 7", one
        "pass", as each thought a different number of rollouts)."""
        module = importlib.import_module(self.strong_module)
        found: tuple[Action, str] = module.hint(
            state, player, t, rng=rng, budget=with_hint_rollouts(module, budget)
        )
        return found

    @abstractmethod
    def view(self, state: State, player: str | None) -> dict[str, Any]:
        """What `player` may see (None: a spectator); every game writes its own."""

    def _chat(self) -> ModuleType:
        return _module(self.chat_module)

    # --- chat part ---
    @property
    def commands(self) -> Sequence[CommandSpec]:
        specs: Sequence[CommandSpec] = self._chat().COMMANDS
        return specs

    def parse(
        self, state: State, player: str, name: str, args: list[str], t: Translator | None = None
    ) -> Action | list[Action] | Reply:
        result: Action | list[Action] | Reply = self._chat().parse(state, player, name, args, t=t)
        return result

    def describe_turn(self, state: State, player: str | None, t: Translator) -> str:
        if self.capabilities.view_speaks:
            return self.describe_turn_in(self.view(state, player), player, t)
        return str(self._chat().describe_turn(state, player, t))

    def describe_turn_in(self, view: dict[str, Any], viewer: str | None, t: Translator) -> str:
        """The chat module's `turn_text(view, viewer, t)` (a game that `view_speaks`)."""
        return str(self._chat().turn_text(view, viewer, t))

    def describe_event(self, state: State, event: Event, t: Translator) -> str | None:
        line: str | None = self._chat().describe_event(state, event, t)
        return line

    def buttons(
        self, state: State, player: str, t: Translator | None = None
    ) -> list[tuple[str, str]]:
        if self.capabilities.view_speaks:
            return self.buttons_in(self.view(state, None), player, t or _ENGLISH)
        found: list[tuple[str, str]] = self._chat().buttons(state, player, t or _ENGLISH)
        return found

    def buttons_in(
        self, public_view: dict[str, Any], player: str, t: Translator
    ) -> list[tuple[str, str]]:
        """The chat module's `buttons_for(public_view, player, t)` (a game that
        `view_speaks`)."""
        found: list[tuple[str, str]] = self._chat().buttons_for(public_view, player, t)
        return found

    def complete(
        self, state: State | None, player: str | None, kind: str, prefix: str
    ) -> list[str]:
        return list(self._chat().complete(state, player, kind, prefix))

    def is_picture_event(self, event: Event) -> bool:
        return bool(self._chat().is_picture_event(event))

    def undoable(self, events: list[Event]) -> bool:
        return bool(self._chat().undoable(events))

    def _logtext(self) -> ModuleType:
        return _module(self.logtext_module)

    def describe_action(
        self, state: State, player: str, action: Action, t: Translator
    ) -> str | None:
        line: str | None = self._logtext().describe_action(state, player, action, t)
        return line

    # --- chronicle (engine/<game>/logtext.py) ---
    @property
    def series(self) -> Sequence[tuple[str, str]]:  # type: ignore[override]
        found: Sequence[tuple[str, str]] = self._logtext().SERIES
        return found

    def period(self, state: State) -> int:
        return int(self._logtext().period(state))

    def score(self, state: State) -> dict[str, dict[str, int]]:
        found: dict[str, dict[str, int]] = self._logtext().score(state)
        return found

    def deciding(self, state: State) -> list[tuple[str, dict[str, int]]]:
        return list(self._logtext().deciding(state))

    def progress(self, state: State) -> float | None:
        measure = getattr(self._logtext(), "progress", None)
        if measure is None:
            return None
        done = measure(state)
        return None if done is None else min(1.0, max(0.0, float(done)))

    # --- picture part ---
    def player_colours(self, state: State) -> dict[str, tuple[int, int, int]]:
        """The render module's `player_colours(view)`: the colours its board draws."""
        found: dict[str, tuple[int, int, int]] = importlib.import_module(
            self.render_module
        ).player_colours(self.view(state, None))
        return found

    def render(self, state: State, viewer: str | None, t: Translator | None = None) -> bytes:
        """The board as one PNG as `viewer` may see it, words through `t`."""
        picture: bytes = importlib.import_module(self.render_module).render(
            self.view(state, viewer), viewer, t=t
        )
        return picture

    def render_set(
        self,
        state: State,
        viewer: str | None,
        t: Translator | None = None,
        previous: State | None = None,
    ) -> list[Any]:
        """The pictures sent together, captions in words, changes since `previous`."""
        before = None if previous is None else self.view(previous, viewer)
        pictures: list[Any] = importlib.import_module(self.render_module).render_set(
            self.view(state, viewer), viewer, t=t, previous=before
        )
        return pictures
