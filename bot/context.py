"""What the parts of the table service share: the context of one message (`Ctx`), the result
of a run of moves (`Step`, `Played`), limits, small helpers, the message fitter, and the
`Pipeline` protocol through which the reminders use the table."""

from __future__ import annotations

import importlib
import logging
import pkgutil
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import engine
from bot.grammar import (
    MAX_CAPTION,
    MAX_TEXT,
    MAX_TOAST,
    shorten,
    split_text,
)
from bot.messages import Inbound, Outbound
from bot.moment import Moment
from bot.store import (
    GameRow,
    LogEntry,
    ReminderRow,
    SeatRow,
    UserRow,
)
from engine import registry
from engine.core.applied import event_owner as event_owner  # re-exported: the engine decides
from engine.core.protocol import Action, Event, Game, State

log = logging.getLogger(__name__)


Clock = Callable[[], float]

# A command longer than this is refused before it is parsed (bad input must not stall anyone).
MAX_COMMAND = 1000
# Commands longer than this are parsed in the worker pool, off the event loop.
LONG_PARSE = 200
# A chain of bot moves after one human move stops here (a broken bot must not spin forever);
# the next message in the chat continues it.
MAX_BOT_MOVES = 20_000
MAX_NAME = 24
MAX_LOG = 50
# A prompt's buttons: rows of 4, at most 5 rows (Discord shows 5 rows of at most 5 buttons;
# Telegram takes more). 20 leave room for every token an IEC company may hold (18) and Done:
# 12 left some to be typed (found playing, 2026-12). A prompt of at most 12 buttons, as every
# other game's, is laid out as before.
BUTTONS_PER_ROW = 4
MAX_BUTTONS = 20
MAX_COMPLETIONS = 25  # autocomplete answers (Discord shows 25)
# Argument kinds whose values a repeated argument lists at most once.
UNIQUE_KINDS = frozenset({"city", "plant", "cell", "region"})
PLATFORM_OF_PREFIX = {"tg": "telegram", "dc": "discord", "local": "local"}
# Platforms whose messages the outbox sender loops deliver in production (bot/runner.py).
DURABLE_PLATFORMS = ("telegram", "discord")

_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")
# "g12": the game a private message is meant for, when its sender plays in several.
_GAME_REF = re.compile(r"^g(\d{1,12})$", re.IGNORECASE)


def discover_games() -> dict[str, Game]:
    """The registry's games; when one game package is broken (a half-finished game must
    not take the bot down), the others are loaded one by one and the broken one is logged."""
    try:
        return registry.games()
    except Exception:
        log.exception("game registry failed; loading the games one by one")
    found: dict[str, Game] = {}
    for info in pkgutil.iter_modules(engine.__path__):
        if not info.ispkg or info.name == "core":
            continue
        try:
            module = importlib.import_module(f"engine.{info.name}")
        except Exception:
            log.exception("game package engine.%s does not load; skipped", info.name)
            continue
        game = getattr(module, "GAME", None)
        if game is not None:
            found[game.id] = game
    return dict(sorted(found.items()))


def clean_name(name: str) -> str:
    """A display name fit for the engine and the chat: one line, no leading @, short."""
    text = _CONTROL.sub(" ", name or "").strip().lstrip("@").strip()
    text = " ".join(text.split())[:MAX_NAME].strip()
    return text or "Player"


@dataclass
class Ctx:
    """What one inbound message needs while it is handled."""

    inbound: Inbound
    lang: str
    claimed: bool = False  # the update id went (or goes) into a store transaction
    chat_settings: dict[str, Any] | None = None
    game: GameRow | None = None
    seats: list[SeatRow] = field(default_factory=list)
    from_button: bool = False
    # a button of the prompt that stands now (not an older one whose move is still legal)
    pressed_now: bool = False
    # the pressed button's key (bot/moment.py `press_key`): noted with the move it makes,
    # claimed instead of the update's id by an older button's move
    press_key: str | None = None
    # Where answers only the sender needs go, when not to `chat_key`: a move sent in a
    # private chat for a game in a group is played in the group's chat, answered here.
    reply_key: str | None = None
    # The chat's own language (or the table's default): what group posts are written in and
    # the fallback for other players; `lang` is the sender's own.
    chat_lang: str | None = None
    # The seated users' and the sender's rows, read with the message (`_langs_of` asks the
    # store only for the others).
    users: dict[str, UserRow] = field(default_factory=dict)
    # Whether a vote against the sender stands in the open game, read with the message (None:
    # not read; bot/reminders.py asks the store then).
    voted: bool | None = None
    # the open game's reminder row as read with the message (`Loaded.reminder`); `loaded_for`
    # is the game it was read for (None: not read)
    reminder: ReminderRow | None = None
    loaded_for: int | None = None
    # the sender's and the seated users' /me prefs read with the message (those set)
    prefs: dict[str, dict[str, Any]] = field(default_factory=dict)
    # `_langs_of`'s last answer with what it depends on (the seats list, the sender's and the
    # chat's language): a move asks it twice, for the private lines and the announcement
    langs_of: tuple[object, int, str, str | None] | None = None
    langs: dict[str, str] = field(default_factory=dict)

    @property
    def chat_key(self) -> str:
        return self.inbound.chat_key

    @property
    def post_lang(self) -> str:
        """The language of a post everybody in the game's chat reads: the chat's, except in a
        one-to-one chat with the bot (the sender's own)."""
        if self.inbound.is_private and self.reply_key is None:
            return self.lang
        return self.chat_lang or self.lang

    def seat(self) -> SeatRow | None:
        return next((s for s in self.seats if s.user_key == self.inbound.user_key), None)


@dataclass
class Step:
    """One committed move (a human's command or a bot's action) to announce."""

    lines: list[str]
    state_json: str
    picture_events: list[Event]
    # (user key, text): the lines of private events for their owner only.
    private: list[tuple[str, str]] = field(default_factory=list)
    # Who made the move (a seat's display name; "" for a table step such as an undo).
    player: str = ""
    # `lines` in the language of the person whose command began the run, when the run's
    # lines also go to him alone and he reads another language than the group (a Discord
    # ephemeral copy, AnnounceMixin._own_lang); None: `lines` are his words too.
    own_lines: list[str] | None = None
    # Who is asked to act after this step (the move's `Applied` says it); None: not known
    # (an undo's step).
    asked: tuple[str, ...] | None = None


@dataclass
class Played:
    """The result of a run of moves under the game lock."""

    steps: list[Step]
    state: State
    state_json: str
    version: int
    error: str | None = None
    # The bot moves' log entries, step 1, 2, ... after the move that started the chain.
    entries: list[LogEntry] = field(default_factory=list)
    # The players asked to act before the run (None: nobody was: the start, an undo); those
    # asked after it and not before may be notified (bot/quiet.py).
    asked_before: list[str] | None = None
    # The final state's answers (who acts, over, public view and mark), each asked once.
    moment: Moment | None = None

    def asked_anew(self) -> bool:
        """Whether a player asked after the run was not asked at some point of it: he moved
        (or the table moved for him) and the others' moves brought the turn back to him, a
        bot's answer, a forced pass, the next phase. That is a new turn of his (as bot/clock.py
        counts turns: from the moment he became one of the players asked), with a fresh
        deadline and reminders, though the players asked are those asked before the run.
        False when he stayed asked throughout (a move that leaves him deciding: his turn goes
        on) or when a step does not say whom it asks."""
        asked = [step.asked for step in self.steps]
        if not asked or any(a is None for a in asked):
            return False
        final = asked[-1]
        assert final is not None
        return any(p not in a for a in asked[:-1] if a is not None for p in final)

    def now(self, game: Game) -> Moment:
        """The final state's `Moment` (the last move's, or made now for a state reached
        otherwise, e.g. an undo)."""
        if self.moment is None or self.moment.state is not self.state:
            self.moment = Moment(game, self.state)
        return self.moment


def fit(outbounds: list[Outbound]) -> list[Outbound]:
    """Every message ≤ 2000 characters (Discord; Telegram allows 4096) and never empty:
    long texts are split at line breaks, the buttons go with the last piece."""
    fitted: list[Outbound] = []
    for out in outbounds:
        if out.toast is not None:
            out.toast = shorten(out.toast, MAX_TOAST)
        if (
            out.png is not None
            or out.file is not None
            or out.render is not None
            or out.picture is not None
        ):
            out.text = shorten(out.text, MAX_CAPTION) or "🖼"
            fitted.append(out)
            continue
        pieces = split_text(out.text, MAX_TEXT, columns=out.monospace)
        if not pieces:
            continue
        for i, piece in enumerate(pieces):
            last = i == len(pieces) - 1
            fitted.append(
                Outbound(
                    out.chat_key,
                    piece,
                    buttons=out.buttons if last else [],
                    mentions=[m for m in out.mentions if f"@{m[1]}" in piece],
                    private_to=out.private_to,
                    toast=out.toast if i == 0 else None,
                    sender_only=out.sender_only,
                    monospace=out.monospace,
                    outbox_id=out.outbox_id,
                    silent=out.silent,
                    lang=out.lang,
                    status_of=out.status_of,
                    status_lines=out.status_lines,
                    status_reset=out.status_reset,
                    reply_status=out.reply_status,
                    fold_of=out.fold_of,
                    fold_tail=out.fold_tail if last and piece.endswith(out.fold_tail) else "",
                    unpin=out.unpin and last,
                )
            )
    return fitted


class Pipeline(Protocol):
    """What the reminders and the scheduler use of the table: the move pipeline (`act`), the
    outbox (`push`), the live status message after a setting (`live_statuses`,
    `refresh_statuses`: bot/status_refresh.py) and a few settings. They depend on this,
    never on bot/table.py."""

    games: dict[str, Game]
    clock: Clock
    default_lang: str
    durable: frozenset[str]  # platforms whose messages go through the outbox

    async def act(
        self,
        inbound: Inbound,
        actions: Action | list[Action],
        expected_version: int | None = None,
        notes: Sequence[str] = (),
    ) -> list[Outbound]: ...

    async def push(self, outbounds: Sequence[Outbound], lang: str | None = None) -> int: ...

    async def live_statuses(
        self, game_ids: Sequence[int], user_key: str
    ) -> dict[int, Outbound]: ...

    async def refresh_statuses(self, before: Mapping[int, Outbound], user_key: str) -> int: ...


def confirmation(ctx: Ctx, outs: Sequence[Outbound]) -> Outbound | None:
    """The private confirmation of a move sent privately (bot/announce.py `_said_where`): the
    last plain silent text among `outs` that reaches the sender alone where he wrote."""
    sender = ctx.inbound.user_key
    for out in reversed(outs):
        alone = out.private_to == sender or (
            out.private_to is None and out.sender_only and out.chat_key == ctx.reply_key
        )
        plain = out.png is None and out.render is None and out.picture is None
        if alone and plain and out.silent and not out.buttons and not out.album:
            return out
    return None
