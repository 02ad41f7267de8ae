"""The table service: every chat message and button press of every platform comes here.

`Table.handle(inbound)` routes a command: the table's own (/new, /join, /start, /status, ...)
or a move of the chat's game, which goes through `game.parse` and `game.apply` and is
committed with its log entry in one store transaction. After a move the table announces the
events, posts the board picture when a phase ends, lets bot seats play, and prompts the next
player with buttons. `handle` never raises: refusals are one-line answers, and unexpected
errors are logged with the game id and answered with an apology.

Concurrency: an asyncio.Lock per game keeps the moves of one game serial in this process;
the store's version check catches a second process (a lost race re-runs once on fresh state).
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import json
import logging
import pkgutil
import re
import secrets
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import engine
from bot.grammar import (
    MAX_CAPTION,
    MAX_TEXT,
    MAX_TOAST,
    CommandLine,
    arg_at,
    is_merged,
    merge_specs,
    parse_command,
    shorten,
    split_text,
    table_commands,
    usage,
    valid_menu_name,
)
from bot.i18n import LANGUAGES, explain, normalize, resolve_lang, tr, translator
from bot.messages import MAX_PAYLOAD_BYTES, Button, Inbound, Outbound
from bot.outbox import Deliver, OutboxSender, Sleep, platform_of, queued, row_of
from bot.reminders import Reminders, reminder_commands
from bot.service import MAX_COMPLETION, Sender, parse_args_kind
from bot.store import (
    DEFAULT_DEADLINE_HOURS,
    ChatBusy,
    Due,
    GameRow,
    LogEntry,
    Outcome,
    OutRow,
    SeatRow,
    Store,
)
from bot.workers import cpu
from engine import registry
from engine.core import IllegalAction, Reply, Rng, canonical_json, replay
from engine.core.protocol import Action, CommandSpec, Event, Game, State
from engine.core.rng import new_rng_state

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
BUTTONS_PER_ROW = 4
MAX_BUTTONS = 12
MAX_COMPLETIONS = 25  # autocomplete answers (Discord shows 25)
# Argument kinds whose values a repeated argument lists at most once.
UNIQUE_KINDS = frozenset({"city", "plant", "cell", "region"})
PLATFORM_OF_PREFIX = {"tg": "telegram", "dc": "discord", "local": "local"}
# Platforms whose messages the outbox sender loops deliver in production (bot/runner.py).
DURABLE_PLATFORMS = ("telegram", "discord")

_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")
# "g12": the game a private message is meant for, when its sender plays in several.
_GAME_REF = re.compile(r"^g(\d{1,12})$", re.IGNORECASE)


def takes_t(fn: Callable[..., Any]) -> bool:
    """True when a game's chat-layer function accepts a translator keyword `t`."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "t" or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def event_owner(event: Event) -> str | None:
    """The player an event is (partly) private to: `private_to`, or the event's `player` when
    it is marked `private` or carries a `secret`; None for a public event."""
    owner = event.get("private_to")
    if isinstance(owner, str) and owner:
        return owner
    if event.get("private") or "secret" in event:
        player = event.get("player")
        return player if isinstance(player, str) and player else None
    return None


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


def bot_rng(seed: int, version: int) -> Rng:
    """The bots' own random stream for one decision, derived from the game seed and version."""
    return Rng(new_rng_state((seed * 0x9E3779B97F4A7C15 + version * 0xBF58476D1CE4E5B9) ^ seed))


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
    # Where answers only the sender needs go, when not to `chat_key`: a move sent in a
    # private chat for a game in a group is played in the group's chat, answered here.
    reply_key: str | None = None
    # The chat's own language (or the table's default): the fallback for other players.
    chat_lang: str | None = None

    @property
    def chat_key(self) -> str:
        return self.inbound.chat_key

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


def default_bot_kind(kinds: list[str]) -> str:
    """The bot a plain /addbot seats: the first that plays to win, not the random-legal one."""
    return next((kind for kind in kinds if kind != "random"), kinds[0])


class Table:
    """bot.service.TableService over a Store and the registered games."""

    def __init__(
        self,
        store: Store,
        games: Mapping[str, Game] | None = None,
        clock: Clock | None = None,
        render: bool = True,
        seeder: Callable[[], int] | None = None,
        default_lang: str = "en",
        durable: Sequence[str] = (),
    ) -> None:
        self.store = store
        self.games: dict[str, Game] = dict(games if games is not None else discover_games())
        self.clock: Clock = clock or time.time
        self.render = render
        self.seeder = seeder or (lambda: secrets.randbits(63))
        self.default_lang = default_lang
        self.senders: dict[str, Sender] = {}
        # Platforms whose messages wait in the outbox for their sender loop (`register_delivery`)
        # rather than going out through `senders` or the caller of `handle`.
        self.durable = frozenset(durable)
        self.deliveries: dict[str, OutboxSender] = {}
        self.hold_replies: dict[str, float] = {}
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.reminders = Reminders(self)  # deadlines, /settings, /away, /vote (bot/reminders.py)
        self._table_specs = (*table_commands(self.games), *reminder_commands())
        self._table_names = {s.name for s in self._table_specs}
        self._game_names = {c.name for g in self.games.values() for c in g.commands}
        self._takes_t: dict[tuple[int, str], bool] = {}

    # ================================================================== service protocol
    async def handle(self, inbound: Inbound) -> list[Outbound]:
        ctx = Ctx(inbound, resolve_lang(None, inbound.lang, self.default_lang))
        try:
            if inbound.text is not None and len(inbound.text) > MAX_COMMAND:
                return self._too_long(ctx)
            outs = _fit(await self._handle(ctx))
            if not ctx.claimed and inbound.update_id is not None:
                # a refusal or an answer: a redelivery of the same update stays silent
                await self.store.record_inbound(inbound.platform, inbound.update_id)
            return outs
        except Exception:
            log.exception(
                "table error in chat %s, game %s, on %r",
                inbound.chat_key,
                ctx.game.id if ctx.game else None,
                inbound.text if inbound.text is not None else inbound.payload,
            )
            return [
                Outbound(
                    inbound.chat_key,
                    tr(
                        ctx.lang,
                        "Sorry, something went wrong on my side. Nothing was changed "
                        "unless I said so; please try again.",
                    ),
                )
            ]
        finally:
            self.reminders.changed()  # a move or a setting may have moved the next due time

    def command_specs(self) -> Sequence[CommandSpec]:
        return merge_specs([self._table_specs, *(g.commands for g in self.games.values())])

    def command_menu(self, lang: str | None) -> list[tuple[str, str]]:
        menu: list[tuple[str, str]] = []
        for spec in self.command_specs():
            if not valid_menu_name(spec.name):
                continue
            menu.append((spec.name, shorten(self._help(lang, spec), 256) or spec.name))
        return menu[:100]

    def _help(self, lang: str | None, spec: CommandSpec) -> str:
        """A spec's help translated; a merged spec's help part by part."""
        if is_merged(spec):
            return " / ".join(tr(lang, part) for part in spec.help.split(" / "))
        return tr(lang, spec.help)

    async def complete(self, chat_key: str, user_key: str, kind: str, prefix: str) -> list[str]:
        try:
            low = prefix.casefold()
            if kind == "game":
                return [g for g in self.games if g.startswith(low)]
            free = parse_args_kind(kind)
            if free is not None and free[0] in self._table_names:
                return []  # the table's own commands: nothing of a game to complete
            row = await self.store.open_game(chat_key)
            if row is None or row.game_id not in self.games:
                return []
            game = self.games[row.game_id]
            if kind == "bot_kind":
                return [k for k in game.bots if k.startswith(low)]
            state = json.loads(row.state_json) if row.state_json else None
            seats = await self.store.seats(row.id)
            player = next((s.display_name for s in seats if s.user_key == user_key), None)
            if free is not None:
                return self._complete_args(game, state, player, *free, prefix)
            return list(game.complete(state, player, kind, prefix))[:MAX_COMPLETIONS]
        except Exception:
            log.exception("autocomplete failed in chat %s", chat_key)
            return []

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
        at = arg_at(spec.args[start:], text)
        if at is None:
            return []
        done, partial, arg = list(at.done), at.partial, at.arg
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
            if arg.choices:
                low = typed.casefold()
                found = [c for c in arg.choices if c.casefold().startswith(low)]
            else:
                found = list(game.complete(state, player, arg.kind, typed))
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

    def register_sender(self, platform: str, send: Sender) -> None:
        self.senders[platform] = send

    def register_delivery(
        self,
        platform: str,
        deliver: Deliver,
        clock: Callable[[], float] | None = None,
        sleep: Sleep | None = None,
        *,
        hold_replies: float = 0.0,
    ) -> OutboxSender:
        """Start the outbox sender loop of `platform` (its adapter calls this once it can
        deliver); from then on the platform's messages wait in the outbox for it. With
        `hold_replies`, a command's public answers in its own chat wait that long for the
        adapter, which delivers them as replies and reports them `delivered`."""
        if hold_replies > 0:
            self.hold_replies[platform] = hold_replies
        old = self.deliveries.get(platform)
        if old is not None:
            old.deliver = deliver
            return old
        sender = OutboxSender(self.store, platform, deliver, clock=clock, sleep=sleep)
        self.deliveries[platform] = sender
        self.durable = self.durable | {platform}
        sender.start()
        return sender

    async def delivered(self, outbox_id: int, message_id: str | None) -> None:
        await self.store.outbox_sent(outbox_id, message_id)

    async def keep_update(self, platform: str, update_id: str, payload: str) -> None:
        await self.store.inbox_put(platform, update_id, payload)

    async def update_done(self, platform: str, update_id: str) -> None:
        await self.store.inbox_done(platform, update_id)

    async def pending_updates(self, platform: str) -> list[tuple[str, str]]:
        return await self.store.inbox_pending(platform)

    def _is_durable(self, chat_key: str) -> bool:
        return platform_of(chat_key) in self.durable

    def wake_senders(self) -> None:
        for sender in self.deliveries.values():
            sender.wake()

    def _rows(
        self, ctx: Ctx, outs: list[Outbound], game_id: int | None
    ) -> tuple[list[Outbound], list[OutRow]]:
        """Fitted messages and their outbox rows: pending for a durable platform, else written
        as sent (the caller of `handle`, e.g. the terminal, shows them). Public answers in the
        command's own chat wait `hold_replies` for an adapter that replies itself."""
        fitted = _fit(outs)
        hold = self.hold_replies.get(ctx.inbound.platform, 0.0)
        rows = []
        for o in fitted:
            row = row_of(o, ctx.lang, game_id, sent=not self._is_durable(o.chat_key))
            if hold and o.private_to is None and o.chat_key == ctx.inbound.chat_key:
                row = replace(row, delay=hold)
            rows.append(row)
        return fitted, rows

    def _queued(self, outs: list[Outbound], ids: Sequence[int]) -> list[Outbound]:
        """Mark the messages whose rows wait for a sender loop (the caller must not send them)."""
        if not ids:
            return outs
        marked = queued(outs, ids)
        return [m if self._is_durable(m.chat_key) else o for m, o in zip(marked, outs, strict=True)]

    async def push(self, outbounds: Sequence[Outbound], lang: str | None = None) -> int:
        """Messages nobody asked for (reminders, notes, a move made outside a chat message):
        for a durable platform they are written to the outbox (those already there are left
        alone); elsewhere they go through the registered senders. Returns how many were
        queued or sent."""
        done = 0
        rows = []
        for out in _fit(list(outbounds)):
            if self._is_durable(out.chat_key):
                if out.outbox_id is None:
                    rows.append(row_of(out, lang or self.default_lang))
                done += 1
                continue
            send = self.senders.get(platform_of(out.chat_key))
            if send is None:
                log.warning("no sender for %s; message dropped", out.chat_key)
                continue
            try:
                await send(out)
                done += 1
            except Exception:
                log.exception("sending to %s failed", out.chat_key)
        if rows:
            await self.store.outbox_add(rows)
        self.wake_senders()
        return done

    async def stop_senders(self) -> None:
        for sender in self.deliveries.values():
            await sender.stop()

    async def close(self) -> None:
        await self.stop_senders()
        await self.store.close()

    async def act(
        self,
        inbound: Inbound,
        actions: Action | list[Action],
        expected_version: int | None = None,
        notes: Sequence[str] = (),
    ) -> list[Outbound]:
        """Apply ready-made actions for the inbound's user exactly as if a chat command had
        parsed to them (same turn check, transaction, announcements and bot moves). For tests,
        benchmarks and tools that drive players with engine actions; never raises.
        With `expected_version`, nothing happens (and [] is returned) unless the game is still
        at that version: the scheduler's default moves never land on a later turn."""
        ctx = Ctx(inbound, resolve_lang(None, inbound.lang, self.default_lang))
        try:
            await self._pick_lang(ctx)
            ctx.game = await self.store.open_game(inbound.chat_key)
            if ctx.game is None or ctx.game.status != "active":
                return self._no_game(ctx)
            ctx.seats = await self.store.seats(ctx.game.id)
            seat = ctx.seat()
            if seat is None:
                return self._refuse(ctx, self._t(ctx, "You are not playing in this game."))
            ready = actions if isinstance(actions, list) else [actions]
            line = CommandLine("", [], True)
            return await self._move(ctx, ctx.game, seat, line, None, ready, expected_version, notes)
        except Exception:
            log.exception("table error in game %s", ctx.game.id if ctx.game else None)
            return [Outbound(inbound.chat_key, tr(ctx.lang, "Sorry, something went wrong."))]
        finally:
            self.reminders.changed()

    # ================================================================== routing
    async def _handle(self, ctx: Ctx) -> list[Outbound]:
        ib = ctx.inbound
        if ib.update_id is not None and await self.store.seen(ib.platform, ib.update_id):
            ctx.claimed = True
            return []
        await self._pick_lang(ctx)
        ctx.game = await self.store.open_game(ib.chat_key)
        if ctx.game is not None:
            ctx.seats = await self.store.seats(ctx.game.id)

        text = ib.text
        if ib.payload is not None:
            text = self._unpack_payload(ctx, ib.payload)
            if text is None:
                msg = tr(ctx.lang, "This button is out of date; nothing was changed.")
                return [Outbound(ib.chat_key, msg, private_to=ib.user_key, toast=msg)]
            ctx.from_button = True
        if not text:
            return []
        line = parse_command(text)
        if line is None:
            return []
        await self.reminders.on_command(ctx, line)  # a returning player, votes, DM reach
        if (
            ib.is_private
            and ctx.game is None
            and line.name not in self._table_names
            and line.name in self._game_names
        ):
            return await self._private_command(ctx, line)
        handler = getattr(self, f"_cmd_{line.name}", None) or self.reminders.command(line.name)
        if line.name in self._table_names and handler is not None:
            return list(await handler(ctx, line))
        return await self._game_command(ctx, line)

    def _unpack_payload(self, ctx: Ctx, payload: str) -> str | None:
        """ "<game_pk>:<version>:<command>" -> the command, if it still applies to the chat's
        open game at exactly that version; None when stale or malformed."""
        parts = payload.split(":", 2)
        if len(parts) != 3 or ctx.game is None:
            return None
        pk, version, command = parts
        if pk != str(ctx.game.id) or version != str(ctx.game.version) or not command.strip():
            return None
        return command

    # ================================================================== small helpers
    def _say(self, ctx: Ctx, text: str, **kw: Any) -> list[Outbound]:
        return [Outbound(ctx.chat_key, text, **kw)]

    def _refuse(self, ctx: Ctx, text: str, **kw: Any) -> list[Outbound]:
        """A reply only the sender needs (a refusal, a usage hint): ephemeral on Discord, an
        ordinary reply elsewhere; in the private chat when the move came from there."""
        return [Outbound(ctx.reply_key or ctx.chat_key, text, sender_only=True, **kw)]

    async def _pick_lang(self, ctx: Ctx) -> None:
        """The sender's language: their own /lang, else their platform's, else the chat's
        (or the table's default). Reads the chat's settings on the way."""
        ib = ctx.inbound
        chat = await self.store.chat(ib.chat_key)
        ctx.chat_settings = chat.settings
        ctx.chat_lang = chat.lang or self.default_lang
        user = await self.store.user(ib.user_key)
        ctx.lang = resolve_lang(user.lang, ib.lang, ctx.chat_lang)

    async def _langs_of(self, ctx: Ctx, seats: Sequence[SeatRow]) -> dict[str, str]:
        """Each human seat's language (display name -> catalog name), for private lines."""
        langs: dict[str, str] = {}
        others = [s for s in seats if not s.is_bot and s.user_key != ctx.inbound.user_key]
        users = await self.store.users([s.user_key for s in others]) if others else {}
        for seat in seats:
            if seat.is_bot:
                continue
            if seat.user_key == ctx.inbound.user_key:
                langs[seat.display_name] = ctx.lang
                continue
            user = users[seat.user_key]
            langs[seat.display_name] = resolve_lang(
                user.lang, seat.lang, ctx.chat_lang or self.default_lang
            )
        return langs

    def _accepts_t(self, game: Game, method: str) -> bool:
        key = (id(game), method)
        known = self._takes_t.get(key)
        if known is None:
            fn = getattr(game, method, None)
            known = self._takes_t[key] = fn is not None and takes_t(fn)
        return known

    def _parse(
        self, ctx: Ctx, game: Game, state: State, player: str, line: CommandLine
    ) -> Action | list[Action] | Reply:
        """game.parse, with the sender's translator when the game takes one."""
        if self._accepts_t(game, "parse"):
            parse: Any = game.parse
            return parse(state, player, line.name, list(line.args), t=translator(ctx.lang))
        return game.parse(state, player, line.name, list(line.args))

    def _game_buttons(
        self, game: Game, state: State, player: str, lang: str
    ) -> list[tuple[str, str]]:
        """game.buttons with labels in `lang`: the game translates them when it takes a
        translator; otherwise its (English, N_-marked) labels go through the catalog."""
        if self._accepts_t(game, "buttons"):
            buttons: Any = game.buttons
            return list(buttons(state, player, t=translator(lang)))
        return [(tr(lang, label), command) for label, command in game.buttons(state, player)]

    def _t(self, ctx: Ctx, message: str, **params: Any) -> str:
        return tr(ctx.lang, message, **params)

    def _game_of(self, row: GameRow) -> Game:
        return self.games[row.game_id]

    def _lock(self, pk: int) -> asyncio.Lock:
        lock = self._locks.get(pk)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[pk] = lock
        return lock

    def _inbound_key(self, ctx: Ctx) -> tuple[str, str] | None:
        ib = ctx.inbound
        ctx.claimed = True
        return (ib.platform, ib.update_id) if ib.update_id is not None else None

    async def _remember(self, ctx: Ctx) -> None:
        """Record the update id of a message that changed nothing (answers only)."""
        key = self._inbound_key(ctx)
        if key is not None:
            await self.store.record_inbound(*key)

    async def _deadline_hours(self, chat_key: str, ctx: Ctx | None = None) -> float:
        if ctx is not None and ctx.chat_settings is not None and ctx.chat_key == chat_key:
            settings = ctx.chat_settings  # read with the message, no second query
        else:
            settings = (await self.store.chat(chat_key)).settings
        try:
            hours = float(settings.get("deadline_hours", DEFAULT_DEADLINE_HOURS))
        except (TypeError, ValueError):
            hours = DEFAULT_DEADLINE_HOURS
        return hours if hours > 0 else DEFAULT_DEADLINE_HOURS

    def _due(self, game: Game, state: State, hours: float) -> Due | None:
        if game.is_over(state):
            return None
        now = self.clock()
        return Due(list(game.current_players(state)), now, now + hours * 3600.0)

    def _no_game(self, ctx: Ctx) -> list[Outbound]:
        return self._say(
            ctx,
            self._t(
                ctx,
                "No game here yet. Open one with /new <game> ({games}).",
                games=", ".join(self.games) or "-",
            ),
        )

    def _can_manage(self, ctx: Ctx) -> bool:
        assert ctx.game is not None
        return ctx.inbound.user_key == ctx.game.creator or ctx.inbound.is_admin

    def _mention_prompt(
        self, ctx: Ctx, row: GameRow, state: State, version: int, seats: list[SeatRow]
    ) -> Outbound:
        """Whose move and what is expected, mentioning the humans who must act, with buttons."""
        game = self._game_of(row)
        t = translator(ctx.lang)
        current = list(game.current_players(state))
        humans = [s for s in seats if s.display_name in current and not s.is_bot]
        text = game.describe_turn(state, None, t).strip()
        if humans:
            text = ", ".join(f"@{s.display_name}" for s in humans) + ": " + text
        rows = self._buttons(
            row.id, version, game, state, [s.display_name for s in humans], ctx.lang
        )
        return Outbound(
            ctx.chat_key,
            text or self._t(ctx, "Waiting for the next move."),
            buttons=rows,
            mentions=[(s.user_key, s.display_name) for s in humans],
        )

    def _buttons(
        self, pk: int, version: int, game: Game, state: State, players: list[str], lang: str
    ) -> list[list[Button]]:
        flat: list[Button] = []
        seen: set[str] = set()
        for player in players:
            try:
                choices = self._game_buttons(game, state, player, lang)
            except Exception:
                log.exception("buttons failed in game %s", pk)
                continue
            for label, command in choices:
                payload = f"{pk}:{version}:{command}"
                if command in seen or len(payload.encode()) > MAX_PAYLOAD_BYTES:
                    continue  # a truncated command would mean something else: drop it
                seen.add(command)
                flat.append(Button(shorten(label, 40) or command, payload))
        flat = flat[:MAX_BUTTONS]
        return [flat[i : i + BUTTONS_PER_ROW] for i in range(0, len(flat), BUTTONS_PER_ROW)]

    def _lobby_buttons(self, ctx: Ctx, pk: int) -> list[list[Button]]:
        return [
            [
                Button(self._t(ctx, "Join"), f"{pk}:0:/join"),
                Button(self._t(ctx, "Add a bot"), f"{pk}:0:/addbot"),
                Button(self._t(ctx, "Start"), f"{pk}:0:/start"),
            ]
        ]

    async def _picture(
        self, ctx: Ctx, game: Game, state_json: str, caption: str
    ) -> Outbound | None:
        """The board as everybody may see it, rendered off the event loop; None on failure."""
        if not self.render:
            return None
        try:
            png = await cpu(game.render, json.loads(state_json), None)
        except Exception:
            log.exception("render failed for game %s", ctx.game.id if ctx.game else None)
            return None
        return Outbound(ctx.chat_key, shorten(caption, MAX_CAPTION), png=png)

    # ================================================================== lobby commands
    async def _cmd_new(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        ib = ctx.inbound
        if not line.args:
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "Which game? /new <game>, one of: {games}.",
                    games=", ".join(self.games) or "-",
                ),
            )
        wanted = line.args[0].casefold()
        game = self.games.get(wanted) or next(
            (g for g in self.games.values() if g.name.casefold() == wanted), None
        )
        if game is None:
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "I do not know the game '{game}'. Games: {games}.",
                    game=shorten(line.args[0], 40),
                    games=", ".join(self.games) or "-",
                ),
            )
        if ctx.game is not None:
            return self._busy(ctx)
        options: dict[str, str] = {o.key: o.default for o in game.options}
        for item in line.args[1:]:
            key, sep, value = item.partition("=")
            spec = next((o for o in game.options if o.key == key.casefold()), None)
            if not sep or spec is None:
                known = ", ".join(
                    f"{o.key}=<{'|'.join(o.choices) or o.default}>" for o in game.options
                )
                return self._refuse(
                    ctx,
                    self._t(
                        ctx,
                        "Unknown option '{item}'. Options of {game}: {known}.",
                        item=shorten(item, 40),
                        game=game.name,
                        known=known or "-",
                    ),
                )
            if spec.choices and value not in spec.choices:
                return self._refuse(
                    ctx,
                    self._t(
                        ctx,
                        "Option {key} takes one of: {choices}.",
                        key=spec.key,
                        choices=", ".join(spec.choices),
                    ),
                )
            if not value:
                return self._refuse(ctx, self._t(ctx, "Option {key} needs a value.", key=spec.key))
            options[spec.key] = value
        try:
            outcome, pk = await self.store.create_game(
                ib.chat_key,
                game.id,
                options,
                ib.user_key,
                (ib.user_key, clean_name(ib.display_name), ib.lang),
                self._inbound_key(ctx),
            )
        except ChatBusy:
            ctx.game = await self.store.open_game(ib.chat_key)
            return self._busy(ctx)
        if outcome is Outcome.DUPLICATE:
            return []
        shown = ", ".join(f"{k}={v}" for k, v in options.items())
        text = self._t(
            ctx,
            "New table: {game} ({low}-{high} players{opts}). @{name} is seated. Others: /join "
            "(or /addbot); then @{name} sends /start.",
            game=game.name,
            low=game.min_players,
            high=game.max_players,
            opts=f"; {shown}" if shown else "",
            name=clean_name(ib.display_name),
        )
        return self._say(
            ctx,
            text,
            buttons=self._lobby_buttons(ctx, pk),
            mentions=[(ib.user_key, clean_name(ib.display_name))],
        )

    def _busy(self, ctx: Ctx) -> list[Outbound]:
        row = ctx.game
        if row is None:
            return self._say(ctx, self._t(ctx, "Please try again."))
        name = self.games[row.game_id].name if row.game_id in self.games else row.game_id
        status = (
            self._t(ctx, "waiting for players")
            if row.status == "lobby"
            else self._t(ctx, "in play")
        )
        return self._say(
            ctx,
            self._t(
                ctx,
                "This chat already has a game ({game}, {status}). One game per chat: finish it "
                "or /abort it first.",
                game=name,
                status=status,
            ),
        )

    async def _cmd_join(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        if row is None:
            return self._no_game(ctx)
        if row.status != "lobby":
            return self._say(ctx, self._t(ctx, "The game has already started; seats are fixed."))
        game = self._game_of(row)
        ib = ctx.inbound
        outcome, name = await self.store.add_seat(
            row.id,
            ib.user_key,
            clean_name(ib.display_name),
            max_players=game.max_players,
            lang=ib.lang,
            inbound=self._inbound_key(ctx),
        )
        return await self._seat_answer(ctx, row, outcome, name, ib.user_key)

    async def _seat_answer(
        self, ctx: Ctx, row: GameRow, outcome: Outcome, name: str, user_key: str
    ) -> list[Outbound]:
        game = self._game_of(row)
        if outcome is Outcome.DUPLICATE:
            return []
        if outcome is Outcome.ALREADY:
            return self._say(ctx, self._t(ctx, "You are already seated as {name}.", name=name))
        if outcome is Outcome.FULL:
            return self._say(
                ctx, self._t(ctx, "The table is full ({n} players).", n=game.max_players)
            )
        if outcome is Outcome.GONE:
            return self._say(ctx, self._t(ctx, "The game has already started; seats are fixed."))
        seats = await self.store.seats(row.id)
        names = ", ".join(s.display_name for s in seats)
        text = self._t(
            ctx,
            "{name} joins. Seated ({n}/{high}): {names}.",
            name=name,
            n=len(seats),
            high=game.max_players,
            names=names,
        )
        if len(seats) >= game.min_players:
            text += " " + self._t(ctx, "Ready: the creator may /start.")
        return self._say(
            ctx,
            text,
            buttons=self._lobby_buttons(ctx, row.id),
            mentions=[] if user_key.startswith("bot:") else [(user_key, name)],
        )

    async def _cmd_addbot(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        if row is None:
            return self._no_game(ctx)
        if row.status != "lobby":
            return self._say(ctx, self._t(ctx, "The game has already started; seats are fixed."))
        game = self._game_of(row)
        kinds = list(game.bots)
        if not kinds:
            return self._say(ctx, self._t(ctx, "{game} has no computer players.", game=game.name))
        kind = line.args[0].casefold() if line.args else default_bot_kind(kinds)
        if kind not in game.bots:
            return self._say(ctx, self._t(ctx, "Bot kinds: {kinds}.", kinds=", ".join(kinds)))
        if ctx.seat() is None and not self._can_manage(ctx):
            return self._say(ctx, self._t(ctx, "Only seated players or the creator add bots."))
        user_key = f"bot:{secrets.token_hex(6)}"
        outcome, name = await self.store.add_seat(
            row.id,
            user_key,
            "Bot",
            max_players=game.max_players,
            is_bot=True,
            bot_kind=kind,
            inbound=self._inbound_key(ctx),
        )
        return await self._seat_answer(ctx, row, outcome, name, user_key)

    async def _cmd_leave(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        if row is None:
            return self._no_game(ctx)
        if row.status != "lobby":
            return self._say(
                ctx,
                self._t(
                    ctx,
                    "The game has started: seats cannot be given up now. The creator or a chat "
                    "admin can end it with /abort.",
                ),
            )
        outcome = await self.store.remove_seat(row.id, ctx.inbound.user_key, self._inbound_key(ctx))
        if outcome is Outcome.DUPLICATE:
            return []
        if outcome is Outcome.ABSENT:
            return self._say(ctx, self._t(ctx, "You are not seated at this table."))
        if outcome is Outcome.GONE:
            return self._say(ctx, self._t(ctx, "The game has already started; seats are fixed."))
        seats = await self.store.seats(row.id)
        return self._say(
            ctx,
            self._t(
                ctx,
                "{name} leaves. Seated: {names}.",
                name=clean_name(ctx.inbound.display_name),
                names=", ".join(s.display_name for s in seats) or "-",
            ),
        )

    async def _cmd_start(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        if row is None:
            return self._no_game(ctx)
        if row.status != "lobby":
            return self._say(ctx, self._t(ctx, "The game is already running. /status"))
        if not self._can_manage(ctx):
            return self._say(
                ctx, self._t(ctx, "Only the creator (or a chat admin) starts the game.")
            )
        game = self._game_of(row)
        seats = ctx.seats
        if not game.min_players <= len(seats) <= game.max_players:
            return self._say(
                ctx,
                self._t(
                    ctx,
                    "{game} needs {low}-{high} players; {n} seated. /join or /addbot.",
                    game=game.name,
                    low=game.min_players,
                    high=game.max_players,
                    n=len(seats),
                ),
            )
        names = [s.display_name for s in seats]
        seed = int(self.seeder()) & ((1 << 63) - 1)
        try:
            state = game.setup(names, dict(row.options), seed)
        except IllegalAction as err:
            return self._say(ctx, explain(ctx.lang, err))
        state_json = canonical_json(state)
        hours = await self._deadline_hours(row.chat_key, ctx)
        async with self._lock(row.id):
            langs = await self._langs_of(ctx, seats)
            played = await self._run_bots(
                replace(row, seed=seed), seats, state, state_json, 1, ctx.lang, langs
            )
            out = self._say(
                ctx,
                self._t(
                    ctx,
                    "{game} begins! Players in seat order: {names}.",
                    game=game.name,
                    names=", ".join(names),
                ),
            )
            pic = await self._picture(ctx, game, state_json, self._t(ctx, "The board at the start"))
            if pic is not None:
                out.append(pic)
            out += await self._announce(
                ctx, replace(row, version=played.version, seed=seed), seats, played
            )
            out, rows = self._rows(ctx, out, row.id)
            result = await self.store.start_game(
                row.id,
                seed,
                names,
                played.state_json,
                self._due(game, played.state, hours),
                self._inbound_key(ctx),
                entries=played.entries,
                over=game.is_over(played.state),
                outbox=rows,
            )
            if result.outcome is Outcome.DUPLICATE:
                return []
            if result.outcome is not Outcome.OK:
                return self._say(ctx, self._t(ctx, "The seats changed meanwhile; /start again."))
        ctx.game = replace(row, status="active", seed=seed, version=result.version)
        self.wake_senders()
        return self._queued(out, result.outbox_ids)

    # ================================================================== moves
    async def _game_command(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        known = line.name in self._game_names
        if row is None or row.game_id not in self.games:
            if not line.slash and not ctx.inbound.is_private and ctx.inbound.platform != "local":
                return []  # ordinary chat talk, not for us
            if known:
                return self._no_game(ctx)
            return self._unknown(ctx, line)
        game = self._game_of(row)
        spec = next((c for c in game.commands if c.name == line.name), None)
        if (
            spec is None
            and not line.slash
            and not ctx.inbound.is_private
            and ctx.inbound.platform != "local"
        ):
            return []
        if row.status == "lobby":
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "The game has not started yet. Seated: {names}. The creator sends /start.",
                    names=", ".join(s.display_name for s in ctx.seats) or "-",
                ),
            )
        seat = ctx.seat()
        if seat is None:
            if spec is None:
                return self._unknown(ctx, line)
            return self._refuse(ctx, self._t(ctx, "You are not playing in this game."))
        return await self._move(ctx, row, seat, line, spec)

    async def _private_command(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        """A game command sent in a private chat: played in the sender's running game (the one
        named by a first argument "g<id>" when they play several). Answers only the sender
        needs come back here; the game's chat hears the public consequences."""
        ib = ctx.inbound
        rows = [
            r
            for r in await self.store.user_games(ib.user_key)
            if r.status == "active" and r.game_id in self.games
        ]
        args = list(line.args)
        ref = _GAME_REF.match(args[0]) if args else None
        pick: GameRow | None = None
        if ref is not None:
            args = args[1:]
            pick = next((r for r in rows if r.id == int(ref.group(1))), None)
            if pick is None:
                return self._refuse(
                    ctx,
                    self._t(ctx, "You play in no running game g{id}.", id=ref.group(1))
                    + self._games_hint(ctx, rows, line.name),
                )
        elif len(rows) == 1:
            pick = rows[0]
        if pick is None:
            if not rows:
                return self._refuse(
                    ctx,
                    self._t(
                        ctx,
                        "You play in no running game. Moves sent to me privately go to your "
                        "game in a group chat.",
                    ),
                )
            return self._refuse(
                ctx,
                self._t(ctx, "You play in several games: say which one.")
                + self._games_hint(ctx, rows, line.name),
            )
        sub = Ctx(
            replace(ib, chat_key=pick.chat_key),
            ctx.lang,
            claimed=ctx.claimed,
            game=pick,
            seats=await self.store.seats(pick.id),
            reply_key=ib.chat_key,
        )
        await self._pick_chat(sub)
        await self.reminders.on_command(sub, line)
        outs = await self._game_command(sub, CommandLine(line.name, args, line.slash))
        ctx.claimed = ctx.claimed or sub.claimed
        here: list[Outbound] = []
        there: list[Outbound] = []
        for out in _fit(outs):
            if out.private_to is not None or out.chat_key == ib.chat_key:
                here.append(out)
            else:
                there.append(out)
        if there:
            name = self._game_of(pick).name
            if await self.push(there):
                here.append(
                    Outbound(
                        ib.chat_key,
                        self._t(
                            ctx,
                            "Done in {game} (g{id}); the game's chat has been told.",
                            game=name,
                            id=pick.id,
                        ),
                        sender_only=True,
                    )
                )
            else:  # no way to reach the game's chat from here: tell the sender at least
                here += [replace(o, chat_key=ib.chat_key, buttons=[]) for o in there]
        return here

    async def _pick_chat(self, ctx: Ctx) -> None:
        """The settings and language of the chat a private command is played in."""
        chat = await self.store.chat(ctx.chat_key)
        ctx.chat_settings = chat.settings
        ctx.chat_lang = chat.lang or self.default_lang

    def _games_hint(self, ctx: Ctx, rows: Sequence[GameRow], command: str) -> str:
        lines = [""]
        for row in rows:
            name = self._game_of(row).name
            lines.append(f"g{row.id}: {name} @ {row.chat_key}")
        example = f"/{command} g{rows[0].id} ..." if rows else f"/{command} g<id> ..."
        lines.append(self._t(ctx, "Put the game first, e.g. {example}", example=example))
        return "\n".join(lines)

    def _unknown(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        return self._refuse(
            ctx,
            self._t(
                ctx,
                "Unknown command /{name}. /help lists the commands.",
                name=shorten(line.name, 32),
            ),
        )

    async def _move(
        self,
        ctx: Ctx,
        row: GameRow,
        seat: SeatRow,
        line: CommandLine,
        spec: CommandSpec | None,
        ready: list[Action] | None = None,
        expected_version: int | None = None,
        notes: Sequence[str] = (),
    ) -> list[Outbound]:
        """The move pipeline: the state loaded once (the row read with the message; read again
        only after a lost race) -> turn check -> parse -> apply -> bot moves -> the messages
        -> one transaction with the log, the state, the reminder and the outbox rows."""
        game = self._game_of(row)
        player = seat.display_name
        hours = await self._deadline_hours(row.chat_key, ctx)
        async with self._lock(row.id):
            fresh: GameRow | None = row
            for attempt in range(2):
                if attempt:
                    fresh = await self.store.game(row.id)
                if fresh is None or fresh.status != "active" or fresh.state_json is None:
                    return self._refuse(
                        ctx, self._t(ctx, "This game is over. /new starts another.")
                    )
                if expected_version is not None and fresh.version != expected_version:
                    return []
                state: State = json.loads(fresh.state_json)
                current = list(game.current_players(state))
                # Games with standing orders accept some actions off turn (`game.anytime`).
                anytime = getattr(game, "anytime", None)
                off_turn = spec is not None and spec.kind == "move" and player not in current
                if off_turn and anytime is None:
                    return self._not_your_turn(ctx, current)
                try:
                    if ready is not None:
                        parsed: Action | list[Action] | Reply = json.loads(json.dumps(ready))
                    elif sum(len(a) for a in line.args) > LONG_PARSE:
                        parsed = await cpu(self._parse, ctx, game, state, player, line)
                    else:
                        parsed = self._parse(ctx, game, state, player, line)
                except IllegalAction as err:
                    return self._refuse(ctx, explain(ctx.lang, err))
                if isinstance(parsed, Reply):
                    await self._remember(ctx)
                    return self._reply(ctx, parsed)
                actions = parsed if isinstance(parsed, list) else [parsed]
                if player not in current and not (
                    anytime is not None and actions and all(anytime(a) for a in actions)
                ):
                    return self._not_your_turn(ctx, current)
                if not actions:
                    return self._refuse(ctx, self._t(ctx, "Nothing to do."))
                langs = await self._langs_of(ctx, ctx.seats)
                try:
                    state, entries, lines, pics, private = self._apply_all(
                        ctx, game, state, seat, actions, langs
                    )
                except IllegalAction as err:
                    return self._refuse(ctx, explain(ctx.lang, err))
                state_json = canonical_json(state)
                played = await self._run_bots(
                    fresh, ctx.seats, state, state_json, fresh.version + 1, ctx.lang, langs
                )
                played.steps.insert(0, Step([*notes, *lines], state_json, pics, private))
                outs = await self._announce(
                    ctx, replace(row, version=played.version), ctx.seats, played
                )
                outs, rows = self._rows(ctx, outs, row.id)
                result = await self.store.commit_moves(
                    row.id,
                    fresh.version,
                    entries + played.entries,
                    played.state_json,
                    over=game.is_over(played.state),
                    due=self._due(game, played.state, hours),
                    inbound=self._inbound_key(ctx),
                    outbox=rows,
                )
                if result.outcome is Outcome.DUPLICATE:
                    return []
                if result.outcome is Outcome.OK:
                    self.wake_senders()
                    return self._queued(outs, result.outbox_ids)
                log.info(
                    "game %s: lost a race at version %s (attempt %s)",
                    row.id,
                    fresh.version,
                    attempt + 1,
                )
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "The game moved on while I was applying your move; nothing was "
                    "changed. Check /status and send it again.",
                ),
            )

    def _too_long(self, ctx: Ctx) -> list[Outbound]:
        return self._refuse(
            ctx,
            self._t(
                ctx,
                "That message is too long for a command (at most {n} characters); nothing "
                "was changed.",
                n=MAX_COMMAND,
            ),
        )

    def _not_your_turn(self, ctx: Ctx, current: list[str]) -> list[Outbound]:
        if not current:
            return self._refuse(ctx, self._t(ctx, "Nobody can move now: the game is over."))
        return self._refuse(
            ctx, self._t(ctx, "Not your turn — waiting for {who}.", who=", ".join(current))
        )

    def _reply(self, ctx: Ctx, reply: Reply) -> list[Outbound]:
        private = ctx.inbound.user_key if reply.private else None
        text = reply.text.strip() or self._t(ctx, "(nothing to show)")
        # Asked in a private chat: answered there, whatever the game's chat would have seen.
        where = ctx.reply_key or ctx.chat_key
        mine = ctx.reply_key is not None
        if reply.png is not None:
            return [
                Outbound(
                    where,
                    shorten(text, MAX_CAPTION),
                    png=reply.png,
                    private_to=private,
                    sender_only=mine,
                )
            ]
        return [Outbound(where, text, private_to=private, sender_only=mine)]

    def _apply_all(
        self,
        ctx: Ctx,
        game: Game,
        state: State,
        seat: SeatRow,
        actions: list[Action],
        langs: Mapping[str, str] | None = None,
    ) -> tuple[State, list[LogEntry], list[str], list[Event], list[tuple[str, str]]]:
        """Apply actions in order on a state freshly loaded from JSON: all or nothing (the
        caller drops the state when this raises)."""
        t = translator(ctx.lang)
        entries: list[LogEntry] = []
        lines: list[str] = []
        pics: list[Event] = []
        private: list[tuple[str, str]] = []
        for action in actions:
            state, events = game.apply(state, seat.display_name, action)
            entries.append(
                LogEntry(
                    seat.user_key, seat.display_name, canonical_json(action), canonical_json(events)
                )
            )
            for event in events:
                line = game.describe_event(state, event, t)
                if line:
                    lines.append(line)
                private += self._private_lines(game, state, event, ctx.seats, langs or {})
                if game.is_picture_event(event):
                    pics.append(event)
        return state, entries, lines, pics, private

    def _private_lines(
        self,
        game: Game,
        state: State,
        event: Event,
        seats: Sequence[SeatRow],
        langs: Mapping[str, str],
    ) -> list[tuple[str, str]]:
        """[(user key, line)] for the owner of a private event (none for a public one or a
        bot's): the game's private line when it has one, else its public line."""
        owner = event_owner(event)
        if owner is None:
            return []
        seat = next((s for s in seats if s.display_name == owner and not s.is_bot), None)
        if seat is None:
            return []
        t = translator(langs.get(owner) or self.default_lang)
        describe = getattr(game, "describe_private_event", None) or game.describe_event
        try:
            line = describe(state, event, t)
        except Exception:
            log.exception("describing a private %s event failed", event.get("type"))
            return []
        return [(seat.user_key, line)] if line else []

    async def _run_bots(
        self,
        row: GameRow,
        seats: list[SeatRow],
        state: State,
        state_json: str,
        version: int,
        lang: str,
        langs: Mapping[str, str] | None = None,
    ) -> Played:
        """While a bot seat must act, let it act (in the worker pool, off the event loop);
        the moves are committed by the caller, with the move that started the chain."""
        if not any(s.is_bot for s in seats):
            return Played([], state, state_json, version)
        return await cpu(self._bot_chain, row, seats, state, state_json, version, lang, langs or {})

    def _bot_chain(
        self,
        row: GameRow,
        seats: list[SeatRow],
        state: State,
        state_json: str,
        version: int,
        lang: str,
        langs: Mapping[str, str],
    ) -> Played:
        game = self._game_of(row)
        bots = {s.display_name: s for s in seats if s.is_bot}
        played = Played([], state, state_json, version)
        t = translator(lang)
        seed = row.seed if row.seed is not None else 0
        for step in range(1, MAX_BOT_MOVES + 1):
            if game.is_over(state):
                break
            seat = next((bots[p] for p in game.current_players(state) if p in bots), None)
            if seat is None:
                break
            action = self._bot_action(row.id, game, state_json, seat, bot_rng(seed, version))
            if action is None:
                played.error = "bot"
                break
            work: State = json.loads(state_json)
            try:
                work, events = game.apply(work, seat.display_name, action)
            except IllegalAction:
                log.exception(
                    "game %s: bot %s chose an illegal action %r", row.id, seat.display_name, action
                )
                played.error = "bot"
                break
            state, state_json, version = work, canonical_json(work), version + 1
            played.entries.append(
                LogEntry(
                    seat.user_key,
                    seat.display_name,
                    canonical_json(action),
                    canonical_json(events),
                    step,
                )
            )
            lines = [x for e in events if (x := game.describe_event(state, e, t))]
            private = [p for e in events for p in self._private_lines(game, state, e, seats, langs)]
            played.steps.append(
                Step(lines, state_json, [e for e in events if game.is_picture_event(e)], private)
            )
        played.state, played.state_json, played.version = state, state_json, version
        return played

    def _bot_action(
        self, pk: int, game: Game, state_json: str, seat: SeatRow, rng: Rng
    ) -> Action | None:
        """The seat's bot decides; a failing bot falls back to another kind, then to a legal
        action at random; None when nothing works."""
        kinds = [seat.bot_kind or ""] + [k for k in game.bots if k != seat.bot_kind]
        for kind in kinds:
            fn = game.bots.get(kind)
            if fn is None:
                continue
            try:
                action = fn(json.loads(state_json), seat.display_name, rng)
                probe: State = json.loads(state_json)
                game.apply(probe, seat.display_name, action)
                return action
            except Exception:
                log.exception("game %s: bot %r failed for %s", pk, kind, seat.display_name)
        try:
            legal = game.legal_actions(json.loads(state_json), seat.display_name)
        except Exception:
            log.exception("game %s: legal_actions failed", pk)
            return None
        return rng.choice(list(legal)) if legal else None

    async def _announce(
        self, ctx: Ctx, row: GameRow, seats: list[SeatRow], played: Played
    ) -> list[Outbound]:
        """Event lines, a picture after each picture event, then the prompt or the result."""
        game = self._game_of(row)
        out: list[Outbound] = []
        pending: list[str] = []
        secrets_out: list[Outbound] = []
        for step in played.steps:
            pending += step.lines
            secrets_out += [
                Outbound(ctx.chat_key, text, private_to=user_key) for user_key, text in step.private
            ]
            for event in step.picture_events[:1]:
                if pending:
                    out += self._say(ctx, "\n".join(pending))
                    pending = []
                tag = str(event.get("phase") or event.get("type") or "board")
                pic = await self._picture(
                    ctx, game, step.state_json, self._t(ctx, "Board: {what}", what=tag)
                )
                if pic is not None:
                    out.append(pic)
        if played.error:
            pending.append(
                self._t(
                    ctx, "A computer player could not move; a human message will let it try again."
                )
            )
        state = played.state
        if game.is_over(state):
            ranking = game.result(state)
            places = "; ".join(
                f"{i}. {', '.join(group)}" for i, group in enumerate(ranking, start=1)
            )
            pending.append(self._t(ctx, "Game over. Ranking: {places}", places=places))
            out += self._say(ctx, "\n".join(pending))
            return out + secrets_out
        out += secrets_out
        prompt = self._mention_prompt(ctx, row, state, played.version, seats)
        if pending:
            joined = "\n".join(pending) + "\n\n" + prompt.text
            if len(joined) <= MAX_TEXT:
                prompt.text = joined
            else:
                out += self._say(ctx, "\n".join(pending))
        out.append(prompt)
        return out

    # ================================================================== information
    async def _cmd_status(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        if row is None:
            return self._no_game(ctx)
        await self._remember(ctx)
        game = self._game_of(row)
        if row.status == "lobby":
            return self._say(
                ctx,
                self._t(
                    ctx,
                    "{game}: waiting for players ({n}/{low}-{high}): {names}. The creator "
                    "sends /start.",
                    game=game.name,
                    n=len(ctx.seats),
                    low=game.min_players,
                    high=game.max_players,
                    names=", ".join(s.display_name for s in ctx.seats) or "-",
                ),
                buttons=self._lobby_buttons(ctx, row.id),
            )
        state = json.loads(row.state_json or "{}")
        seat = ctx.seat()
        prompt = self._mention_prompt(ctx, row, state, row.version, ctx.seats)
        text = game.describe_turn(
            state, seat.display_name if seat else None, translator(ctx.lang)
        ).strip()
        current = list(game.current_players(state))
        text = self._t(
            ctx, "{game}, waiting for {who}.", game=game.name, who=", ".join(current) or "-"
        ) + ("\n" + text if text else "")
        reminder = await self.store.reminder(row.id)
        if reminder is not None:
            text += "\n" + self._t(
                ctx, "Deadline: {left}.", left=self._left(ctx, reminder.due_at - self.clock())
            )
        return [Outbound(ctx.chat_key, text, buttons=prompt.buttons)]

    def _left(self, ctx: Ctx, seconds: float) -> str:
        if seconds <= 0:
            return self._t(ctx, "passed")
        minutes = int(seconds // 60)
        hours, minutes = divmod(minutes, 60)
        if hours:
            return self._t(ctx, "in {h} h {m} min", h=hours, m=minutes)
        return self._t(ctx, "in {m} min", m=minutes)

    async def _cmd_board(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        if row is None:
            return self._no_game(ctx)
        await self._remember(ctx)
        if row.status != "active" or row.state_json is None:
            return self._say(ctx, self._t(ctx, "The game has not started yet."))
        if not self.render:
            return self._say(ctx, self._t(ctx, "Pictures are switched off here."))
        game = self._game_of(row)
        pic = await self._picture(ctx, game, row.state_json, game.name)
        if pic is None:
            return self._say(ctx, self._t(ctx, "Sorry, I could not draw the board just now."))
        return [pic]

    async def _cmd_log(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game or await self.store.last_game(ctx.chat_key)
        if row is None or row.game_id not in self.games:
            return self._no_game(ctx)
        await self._remember(ctx)
        n = 10
        if line.args:
            try:
                n = max(1, min(MAX_LOG, int(line.args[0])))
            except ValueError:
                return self._refuse(ctx, self._t(ctx, "Usage: /log [n], n a number."))
        game = self._game_of(row)
        rows = await self.store.actions(row.id, last=n)
        if not rows:
            return self._say(ctx, self._t(ctx, "No moves yet."))
        state = json.loads(row.state_json or "{}")
        t = translator(ctx.lang)
        lines = []
        for a in rows:
            said = []
            for event in a.events:
                try:
                    said_line = game.describe_event(state, event, t)
                except Exception:
                    said_line = None
                if said_line:
                    said.append(said_line)
            lines.append(
                f"#{a.seq} {a.player}: " + (" / ".join(said) if said else canonical_json(a.action))
            )
        return self._say(ctx, "\n".join(lines))

    async def _cmd_help(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        await self._remember(ctx)
        game = self._game_of(ctx.game) if ctx.game and ctx.game.game_id in self.games else None
        game_specs = list(game.commands) if game else []
        if line.args:
            name = line.args[0].lstrip("/").casefold()
            spec = next(
                (
                    s
                    for s in [
                        *self._table_specs,
                        *game_specs,
                        *(c for g in self.games.values() for c in g.commands),
                    ]
                    if s.name == name
                ),
                None,
            )
            if spec is None:
                return self._unknown(ctx, CommandLine(name, [], True))
            parts = [usage(spec), tr(ctx.lang, spec.help)]
            for arg in spec.args:
                desc = tr(ctx.lang, arg.help) if arg.help else arg.kind
                if arg.choices:
                    desc += " (" + ", ".join(arg.choices[:20]) + ")"
                parts.append(f"  {arg.name}: {desc}")
            if spec.examples:
                parts.append(self._t(ctx, "Examples: {ex}", ex=", ".join(spec.examples)))
            return self._say(ctx, "\n".join(parts))
        lines = [self._t(ctx, "Table commands:")]
        lines += [f"{usage(s)} — {tr(ctx.lang, s.help)}" for s in self._table_specs]
        if game is not None:
            lines.append("")
            lines.append(self._t(ctx, "{game} commands:", game=game.name))
            for spec in game_specs:
                example = f" ({spec.examples[0]})" if spec.examples else ""
                lines.append(f"{usage(spec)} — {tr(ctx.lang, spec.help)}{example}")
        else:
            lines.append("")
            lines.append(
                self._t(
                    ctx,
                    "Games: {games}",
                    games=", ".join(f"{g.id} ({g.name})" for g in self.games.values()) or "-",
                )
            )
        lines.append(self._t(ctx, "Details: /help <command>"))
        return self._say(ctx, "\n".join(lines))

    async def _cmd_rules(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        await self._remember(ctx)
        if ctx.game is None or ctx.game.game_id not in self.games:
            return self._say(
                ctx,
                self._t(
                    ctx,
                    "Games: {games}. Open one with /new <game>; /help lists its commands.",
                    games=", ".join(f"{g.id} ({g.name})" for g in self.games.values()) or "-",
                ),
            )
        game = self._game_of(ctx.game)
        index = getattr(game, "rules_index", None)
        if line.args:
            wanted = line.args[0].strip("()[].,;:").casefold()
            ids = list(index) if isinstance(index, dict) else []
            rule = next((k for k in ids if k.casefold() == wanted), line.args[0].upper())
            title = index.get(rule) if isinstance(index, dict) else None
            if title:
                text = f"{rule}: {tr(ctx.lang, title)}"
                commands = rule_commands(game, rule)
                if commands:
                    text += "\n" + self._t(
                        ctx,
                        "Commands it concerns: {commands}",
                        commands=", ".join(f"/{c}" for c in commands),
                    )
                else:
                    text += "\n" + self._t(
                        ctx, "No command of its own: the game applies it by itself."
                    )
                return self._say(ctx, text)
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "I have no title for {rule}; see the rulebook of {game}. Refusals name the "
                    "rule they apply, e.g. (PG-21).",
                    rule=shorten(rule, 20),
                    game=game.name,
                ),
            )
        text = self._t(
            ctx,
            "{game}: {low}-{high} players. Commands: {cmds}. Every refused move "
            "names the rule it breaks; /rules <id> shows its title.",
            game=game.name,
            low=game.min_players,
            high=game.max_players,
            cmds=", ".join("/" + c.name for c in game.commands) or "-",
        )
        if isinstance(index, dict) and index:
            text += "\n" + self._t(ctx, "Rule ids: {ids}", ids=", ".join(list(index)[:80]))
        return self._say(ctx, text)

    async def _cmd_games(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        await self._remember(ctx)
        rows = await self.store.user_games(ctx.inbound.user_key)
        if not rows:
            return self._say(ctx, self._t(ctx, "You are not in any open game."))
        lines = [self._t(ctx, "Your games:")]
        for row in rows:
            game = self.games.get(row.game_id)
            name = game.name if game else row.game_id
            if row.status == "lobby" or game is None or not row.state_json:
                where = self._t(ctx, "waiting for players")
            else:
                seats = await self.store.seats(row.id)
                me = next(
                    (s.display_name for s in seats if s.user_key == ctx.inbound.user_key), None
                )
                current = list(game.current_players(json.loads(row.state_json)))
                where = (
                    self._t(ctx, "your move")
                    if me in current
                    else self._t(ctx, "waiting for {who}", who=", ".join(current) or "-")
                )
            lines.append(f"- {name} @ {row.chat_key}: {where}")
        return self._say(ctx, "\n".join(lines))

    async def _cmd_lang(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        if not line.args:
            await self._remember(ctx)
            return self._say(
                ctx,
                self._t(
                    ctx,
                    "Language: {code}. Available: {all}.",
                    code=ctx.lang,
                    all=", ".join(LANGUAGES),
                ),
            )
        code = line.args[0]
        name = normalize(code)
        if name == "en" and not code.casefold().startswith("en"):
            return self._refuse(
                ctx,
                self._t(
                    ctx,
                    "Unknown language '{code}'. Available: {all}.",
                    code=shorten(code, 16),
                    all=", ".join(LANGUAGES),
                ),
            )
        # The sender's own language everywhere (it beats their platform's and the chat's), and
        # the chat's default for those who chose none and whose platform tells none.
        await self.store.set_chat_lang(ctx.chat_key, name)
        await self.store.set_user(ctx.inbound.user_key, lang=name)
        await self._remember(ctx)
        ctx.lang = name
        return self._say(ctx, self._t(ctx, "Language set: {code}.", code=name))

    # ================================================================== undo and abort
    async def _cmd_undo(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        if row is None or row.status != "active":
            return self._say(ctx, self._t(ctx, "There is no running game here."))
        seat = ctx.seat()
        if seat is None:
            return self._say(ctx, self._t(ctx, "You are not playing in this game."))
        game = self._game_of(row)
        hours = await self._deadline_hours(row.chat_key, ctx)
        async with self._lock(row.id):
            fresh = await self.store.game(row.id)
            if fresh is None or fresh.status != "active" or fresh.seed is None:
                return self._say(ctx, self._t(ctx, "There is no running game here."))
            actions = await self.store.actions(row.id)
            if not actions:
                return self._say(ctx, self._t(ctx, "There is nothing to undo."))
            last_version = actions[-1].version
            batch = [a for a in actions if a.version == last_version]
            if any(a.user_key != seat.user_key for a in batch):
                return self._say(
                    ctx,
                    self._t(
                        ctx,
                        "Only your own last move can be undone, and only while nobody has "
                        "acted since.",
                    ),
                )
            events = [e for a in batch for e in a.events]
            if not game.undoable(events):
                return self._say(
                    ctx,
                    self._t(
                        ctx,
                        "That move revealed hidden or random information, so it cannot be undone.",
                    ),
                )
            keep = [(a.player, a.action) for a in actions if a.version != last_version]
            names = [s.display_name for s in ctx.seats]
            state = await cpu(replay, game, names, dict(fresh.options), fresh.seed, keep)
            state_json = canonical_json(state)
            played = Played(
                [
                    Step(
                        [
                            self._t(
                                ctx, "{name} takes back their last move.", name=seat.display_name
                            )
                        ],
                        state_json,
                        [],
                    )
                ],
                state,
                state_json,
                fresh.version + 1,
            )
            outs = await self._announce(
                ctx, replace(fresh, version=fresh.version + 1), ctx.seats, played
            )
            outs, rows = self._rows(ctx, outs, row.id)
            result = await self.store.undo_last(
                row.id,
                fresh.version,
                batch[0].seq,
                state_json,
                self._due(game, state, hours),
                self._inbound_key(ctx),
                outbox=rows,
            )
            if result.outcome is Outcome.DUPLICATE:
                return []
            if result.outcome is not Outcome.OK:
                return self._say(ctx, self._t(ctx, "The game moved on; nothing was undone."))
        self.wake_senders()
        return self._queued(outs, result.outbox_ids)

    async def _cmd_abort(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        row = ctx.game
        if row is None:
            return self._no_game(ctx)
        if not self._can_manage(ctx):
            return self._say(
                ctx, self._t(ctx, "Only the creator or a chat admin can end the game.")
            )
        game_name = self._game_of(row).name
        if not line.args or line.args[0].casefold() != "confirm":
            payload = f"{row.id}:{row.version}:/abort confirm"
            return self._say(
                ctx,
                self._t(ctx, "End {game} without a result? Send /abort confirm.", game=game_name),
                buttons=[[Button(self._t(ctx, "Yes, end the game"), payload)]],
            )
        async with self._lock(row.id):
            result = await self.store.end_game(
                row.id, row.version if ctx.from_button else None, "aborted", self._inbound_key(ctx)
            )
        if result.outcome is Outcome.DUPLICATE:
            return []
        if result.outcome is not Outcome.OK:
            return self._say(ctx, self._t(ctx, "The game moved on; send /abort again."))
        return self._say(
            ctx,
            self._t(ctx, "{game} was ended without a result. /new starts another.", game=game_name),
        )


def rule_commands(game: Game, rule: str) -> list[str]:
    """The commands a rule concerns: the game's own `rules_commands` map when it has one,
    else the commands whose help, argument help or examples name the rule."""
    mapping = getattr(game, "rules_commands", None)
    if isinstance(mapping, Mapping) and rule in mapping:
        return [str(c) for c in mapping[rule]]
    pattern = re.compile(re.escape(rule) + r"(?![0-9A-Za-z])", re.IGNORECASE)
    found: list[str] = []
    for spec in game.commands:
        texts = [spec.help, *spec.examples, *(a.help for a in spec.args)]
        if any(pattern.search(text) for text in texts if text) and spec.name not in found:
            found.append(spec.name)
    return found


def _fit(outbounds: list[Outbound]) -> list[Outbound]:
    """Every message ≤ 2000 characters (Discord; Telegram allows 4096) and never empty:
    long texts are split at line breaks, the buttons go with the last piece."""
    fitted: list[Outbound] = []
    for out in outbounds:
        if out.toast is not None:
            out.toast = shorten(out.toast, MAX_TOAST)
        if out.png is not None:
            out.text = shorten(out.text, MAX_CAPTION) or "🖼"
            fitted.append(out)
            continue
        pieces = split_text(out.text, MAX_TEXT)
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
                    outbox_id=out.outbox_id,
                    silent=out.silent,
                )
            )
    return fitted


async def open_table(db_path: str, clock: Clock | None = None, **kwargs: Any) -> Table:
    """Open (and migrate) the database and build the table over the registered games."""
    store = await Store.open(db_path, clock=clock)
    return Table(store, clock=clock, **kwargs)
