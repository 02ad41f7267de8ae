"""The state after a run of moves as the table speaks of it (issues 23, 26): the game's
answers taken from the move's one result (`Applied`: who acts, over or not, forced moves) and
what derives from the public view (the buttons' public mark, the "changed nothing public"
check) computed once, on first use, and passed down to the announcement. A cache of one
move's questions, nothing more: it holds no other state and never outlives the move."""

from __future__ import annotations

import hashlib
from typing import Any

from bot.i18n import translator
from engine.core import canonical_json
from engine.core.applied import Applied
from engine.core.protocol import Action, Game, State

# A prompt's payload is "<game pk>:p<stage><digest>:<command>" (so is /abort's in a running
# game); the lobby's carry the store's version ("<pk>:<version>:<command>"), digits only.
MARK = "p"
STAGE = 3  # hex digits of the stage's digest (`Game.stage`); none in a game without stages
DIGEST = 6  # hex digits of the moment's digest


def stage_of(mark: str) -> str | None:
    """The stage part of a public mark; None for a mark without one (a game without stages,
    or a button posted before marks carried stages)."""
    if not mark.startswith(MARK) or len(mark) != len(MARK) + STAGE + DIGEST:
        return None
    return mark[len(MARK) : len(MARK) + STAGE]


class Moment:
    """One state of one game and the table's questions about it, each asked of the game at
    most once. From a move's `Applied` the rules' answers are already there."""

    def __init__(
        self,
        game: Game,
        state: State,
        applied: Applied | None = None,
        *,
        current: tuple[str, ...] | None = None,
        mark: str | None = None,
    ) -> None:
        self.game = game
        self.state = state
        self._applied = applied if applied is not None and applied.state is state else None
        self._current = current
        self._over: bool | None = None
        self._public: dict[str, Any] | None = None
        self._mark = mark
        # (player or None, language) -> the turn's text / the buttons, worded once per move
        self._turns: dict[str, str] = {}
        self._buttons: dict[tuple[str, str], list[tuple[str, str]]] = {}

    @classmethod
    def after(cls, game: Game, applied: Applied) -> Moment:
        return cls(game, applied.state, applied)

    @property
    def current(self) -> tuple[str, ...]:
        """The players asked to act (`current_players`)."""
        if self._applied is not None:
            return self._applied.current
        if self._current is None:
            self._current = tuple(self.game.current_players(self.state))
        return self._current

    @property
    def over(self) -> bool:
        if self._applied is not None:
            return self._applied.over
        if self._over is None:
            self._over = bool(self.game.is_over(self.state))
        return self._over

    def forced_of(self, player: str) -> Action | None:
        """`player`'s forced move (a game declaring `forced_moves`), None for a real choice."""
        if self._applied is not None:
            return self._applied.forced_of(player)
        if not self.game.capabilities.forced_moves or self.over:
            return None
        return self.game.forced_action(self.state, player)

    @property
    def public_view(self) -> dict[str, Any]:
        """`view(state, None)`: what everybody sees; built once per moment."""
        if self._public is None:
            self._public = self.game.view(self.state, None)
        return self._public

    def turn_text(self, lang: str) -> str:
        """`describe_turn(state, None)` in `lang` (a quiet table's status message and its
        notification share it); from the public view when the game words views."""
        if lang not in self._turns:
            t = translator(lang)
            if self.game.capabilities.view_speaks:
                self._turns[lang] = self.game.describe_turn_in(self.public_view, None, t)
            else:
                self._turns[lang] = self.game.describe_turn(self.state, None, t)
        return self._turns[lang]

    def buttons(self, player: str, lang: str) -> list[tuple[str, str]]:
        """`buttons(state, player)` with labels in `lang`; a fresh list each time. From the
        public view when the game words views: the one view of the move serves the turn text,
        every player's buttons and the mark (issue 23)."""
        key = (player, lang)
        if key not in self._buttons:
            t = translator(lang)
            if self.game.capabilities.view_speaks:
                found = self.game.buttons_in(self.public_view, player, t)
            else:
                found = self.game.buttons(self.state, player, t=t)
            self._buttons[key] = list(found)
        return list(self._buttons[key])

    @property
    def known_mark(self) -> str | None:
        """The mark when it has been computed (or given), else None: nothing is asked."""
        return self._mark

    @property
    def mark(self) -> str:
        """The public moment of the state: a short digest of the public view and who is to
        act. Two states that differ only in hidden information have the same mark (the game's
        noninterference). Two public moments may share one (a board that came back): a press
        then goes to the move pipeline, which checks the move as for any other."""
        if self._mark is None:
            seen = canonical_json([self.public_view, list(self.current)])
            digest = hashlib.blake2s(seen.encode(), digest_size=DIGEST // 2).hexdigest()
            self._mark = MARK + self._stage_digest() + digest
        return self._mark

    def _stage_digest(self) -> str:
        """The stage of the moment (`Game.stage`: round and phase, say) as STAGE hex digits,
        "" for a game without stages: bot/buttons.py `holds_later` holds an older button only
        within its stage."""
        stage = self.game.stage(self.public_view)
        if not stage:
            return ""
        return hashlib.blake2s(stage.encode(), digest_size=2).hexdigest()[:STAGE]


# How many games' last states `Recent` remembers (the oldest is forgotten first).
RECENT_GAMES = 4096


class PassedFor:
    """The move this process last played for a human who had nothing to decide (a forced
    pass), per game and user, with the version the game reached then. A player told "then
    /done" who sends /done just after the table passed him would otherwise end his turn in
    the next phase (found playing Power Grid, 2026-11-29: her build turn ended unbuilt): the
    same move, with nothing played since, is asked again once (`warn`). Best effort: another
    worker's or a restarted process's pass is not known, and the move then goes through."""

    def __init__(self, size: int = RECENT_GAMES) -> None:
        self.size = size
        self._kept: dict[tuple[int, str], tuple[str, int]] = {}

    def note(self, pk: int, user_key: str, action_json: str, version: int) -> None:
        self._kept.pop((pk, user_key), None)
        self._kept[(pk, user_key)] = (action_json, version)
        while len(self._kept) > self.size:
            self._kept.pop(next(iter(self._kept)))

    def passed(self, pk: int, user_key: str, version: int) -> bool:
        """Whether a move was played for him at `version` and nothing since (kept)."""
        kept = self._kept.get((pk, user_key))
        return kept is not None and kept[1] == version

    def forget(self, pk: int, user_key: str) -> None:
        """He has read the game since (a /status, a question): a move now is for this turn."""
        self._kept.pop((pk, user_key), None)

    def warn(self, pk: int, user_key: str, action_json: str, version: int) -> bool:
        """Whether to ask before playing `action_json`: it is the move just played for him,
        and nothing was played since. Forgets the pass either way (a repeat goes through)."""
        kept = self._kept.pop((pk, user_key), None)
        return kept == (action_json, version)


def press_key(pk: int, user_key: str, mark: str, command: str) -> str:
    """A pressed button's key in the store's inbound keys (beside the platforms' update ids,
    which never start so): a move made by a button notes it, and a move made by an older
    button claims it, so the second tap of a double tap finds it taken in every worker and
    after a restart (`Pressed` answers it sooner within one process)."""
    return f"press:{pk}:{user_key}:{mark}:{command}"


class Pressed:
    """The buttons each player pressed and the table took, per game: (public mark, command).
    An older button (the game moved on since its moment) still counts while its move is legal
    (bot/buttons.py `holds_later`), but not the very button he pressed already: a double tap
    on "Pass" in a Power Grid auction passed on the plant, then, as "/pass" had come to mean
    that, gave up his whole auction round (found playing through Telegram, 2026-12-04). This
    process's presses, to answer "out of date" at once; the store holds every worker's
    (`press_key`)."""

    def __init__(self, size: int = RECENT_GAMES * 4) -> None:
        self.size = size
        self._kept: dict[tuple[int, str, str, str], None] = {}

    def note(self, pk: int, user_key: str, mark: str, command: str) -> None:
        key = (pk, user_key, mark, command)
        self._kept.pop(key, None)
        self._kept[key] = None
        while len(self._kept) > self.size:
            self._kept.pop(next(iter(self._kept)))

    def seen(self, pk: int, user_key: str, mark: str, command: str) -> bool:
        return (pk, user_key, mark, command) in self._kept


class Recent:
    """What this process last committed per game: the state's JSON text with who acts in it
    and its public mark. The next message of that game (a move, a button press) finds them
    here instead of asking the game again, when its stored state is that very text (whatever
    wrote the row: equal text, equal answers; another worker's move simply misses)."""

    def __init__(self, size: int = RECENT_GAMES) -> None:
        self.size = size
        self._kept: dict[int, tuple[str, tuple[str, ...], str | None]] = {}

    def keep(self, pk: int, state_json: str, now: Moment) -> None:
        self._kept.pop(pk, None)
        self._kept[pk] = (state_json, now.current, now.known_mark)
        while len(self._kept) > self.size:
            self._kept.pop(next(iter(self._kept)))

    def state_json(self, pk: int) -> str | None:
        """The state this process last committed for game `pk` (None: none kept)."""
        kept = self._kept.get(pk)
        return kept[0] if kept is not None else None

    def moment(self, pk: int, game: Game, state_json: str, state: State) -> Moment:
        """The `Moment` of `state` (loaded from `state_json`), seeded with what was kept."""
        kept = self._kept.get(pk)
        if kept is None or kept[0] != state_json:
            return Moment(game, state)
        return Moment(game, state, current=kept[1], mark=kept[2])
