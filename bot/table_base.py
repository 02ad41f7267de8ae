"""The table service's state, its outbox glue and the small helpers every part uses."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.context import (
    Clock,
    Ctx,
    discover_games,
    fit,
)
from bot.deadlines import deadline_hours, turn_due
from bot.grammar import (
    CommandLine,
    shorten,
    table_commands,
)
from bot.i18n import listed, resolve_lang, tr, translator
from bot.messages import Outbound
from bot.moment import Moment, PassedFor, Pressed, Recent
from bot.outbox import (
    Deliver,
    DmMemory,
    OutboxSender,
    PictureMemory,
    Sleep,
    platform_of,
    row_of,
)
from bot.quiet import Engagement
from bot.reminders import Reminders, reminder_commands
from bot.service import Sender
from bot.store import (
    Due,
    GameRow,
    OutRow,
    SeatRow,
)
from bot.store_load import Loaded
from bot.store_protocol import SharedStore, Store
from engine.core import Reply, join_list
from engine.core.commands import DID_YOU_MEAN, nearest_name
from engine.core.protocol import Action, Game, State

log = logging.getLogger(__name__)


class TableBase:
    """The table's state and the helpers every part uses (bot/table.py assembles the parts)."""

    reminders: Reminders  # set by bot.table.Table._wire

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
        # game -> (version, who acted in its current round and phase) (bot/announce.py)
        self._phase_acted: dict[int, tuple[int, Engagement]] = {}
        # game -> its last committed state's answers (who acts, public mark; bot/moment.py)
        self._recent = Recent()
        self._passed = PassedFor()  # forced passes, to catch a /done that came too late
        self._pressed = Pressed()  # buttons taken, so a second tap on one is out of date
        self._table_specs = (*table_commands(self.games), *reminder_commands())
        self._table_names = {s.name for s in self._table_specs}
        self._game_names = {c.name for g in self.games.values() for c in g.commands}
        # each game's commands that are moves (`kind="move"`)
        self._move_names = {
            gid: frozenset(c.name for c in g.commands if c.kind == "move")
            for gid, g in self.games.items()
        }
        self._wire()

    def _wire(self) -> None:
        """Hook for the assembled table (bot/table.py): its command registry and deadlines."""

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
        deliver = self._rendering(platform, deliver)
        old = self.deliveries.get(platform)
        if old is not None:
            old.deliver = deliver
            return old
        sender = OutboxSender(
            self.store,
            platform,
            deliver,
            clock=clock,
            sleep=sleep,
            on_dm_refused=self._no_dm,
            dm_memory=DmMemory(self.store),
            pictures=PictureMemory(self.store),
        )
        self.deliveries[platform] = sender
        if isinstance(self.store, SharedStore):
            self.store.deliver_here(platform)  # its moves' rows wake this sender, no other
        self.durable = self.durable | {platform}
        sender.start()
        return sender

    async def _no_dm(self, user_key: str) -> None:
        """DMs refused: the reminders go to the chat until the user writes privately again."""
        await self.store.set_user(user_key, dm_ok=False)

    def _rendering(self, platform: str, deliver: Deliver) -> Deliver:
        """`deliver`, turning a row's render instruction into its messages (`_expand`)."""

        async def send(out: Outbound) -> str | None:
            if out.render is None:
                return await deliver(out)
            return await self._deliver_rendered(platform, out, deliver)

        return send

    async def _deliver_rendered(self, platform: str, out: Outbound, deliver: Deliver) -> str | None:
        """The messages of a render instruction (bot/ending.py overrides it)."""
        return await deliver(replace(out, render=None))

    async def delivered(self, outbox_id: int, message_id: str | None) -> None:
        await self.store.outbox_sent(outbox_id, message_id)
        # The chat's later rows (the status message after a command's held answers) waited
        # behind this one: they may go now, not when the hold would have ended.
        self.wake_senders()

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
        """Fitted messages and the outbox rows of those a sender loop delivers (a durable
        platform's); the others (the terminal's) are shown by the caller of `handle` and need
        no row. Public answers in the command's own chat wait `hold_replies` for an adapter
        that replies itself."""
        fitted = fit(outs)
        hold = self.hold_replies.get(ctx.inbound.platform, 0.0)
        rows = []
        for o in fitted:
            if not self._is_durable(o.chat_key):
                continue
            row = row_of(o, o.lang or self._reader_lang(ctx, o), game_id)
            # The sender's own private lines too: the adapter answers them privately (an
            # interaction's ephemeral follow-ups), not in his DMs.
            # (a move sent in his DM is played in the game's chat: its replies go to the DM,
            # `reply_key`, and are the interaction's too; found testing Discord, 2026-12-05)
            answer = o.private_to is None and o.chat_key in (ctx.inbound.chat_key, ctx.reply_key)
            if (
                hold
                and (answer or o.private_to == ctx.inbound.user_key)
                and o.render is None
                and not o.picture
                and o.status_of is None
            ):
                row = replace(row, delay=hold)
            rows.append(row)
        return fitted, rows

    def _queued(self, outs: list[Outbound], ids: Sequence[int]) -> list[Outbound]:
        """Mark the messages whose rows wait for a sender loop (the caller must not send them):
        the durable ones, in order, got the ids."""
        if not ids:
            return outs
        queue = iter(ids)
        return [
            replace(o, outbox_id=next(queue)) if self._is_durable(o.chat_key) else o for o in outs
        ]

    async def push(self, outbounds: Sequence[Outbound], lang: str | None = None) -> int:
        """Messages nobody asked for (reminders, notes, a move made outside a chat message):
        for a durable platform they are written to the outbox (those already there are left
        alone); elsewhere they go through the registered senders. Returns how many were
        queued or sent."""
        done = 0
        rows = []
        for out in fit(list(outbounds)):
            if self._is_durable(out.chat_key):
                if out.outbox_id is None:
                    rows.append(row_of(out, out.lang or lang or self.default_lang))
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

    # ================================================================== small helpers
    def _say(self, ctx: Ctx, text: str, **kw: Any) -> list[Outbound]:
        """An answer in the chat: silent unless told otherwise (issue 17: only a message that
        asks someone to act notifies; the asker is reading anyway)."""
        kw.setdefault("silent", True)
        return [Outbound(ctx.chat_key, text, **kw)]

    def _to_sender(self, ctx: Ctx, text: str) -> Outbound:
        """A message for the sender alone (issue 20): a private message (DM on Telegram, an
        ephemeral reply on Discord), never the group; silent, as every answer (issue 17: the
        asker is reading; found through Telegram, 2026-12-04: IEC's private /log copy buzzed)."""
        return Outbound(
            ctx.chat_key,
            text,
            private_to=ctx.inbound.user_key,
            mentions=[(ctx.inbound.user_key, ctx.inbound.display_name)],
            silent=True,
        )

    def _refuse(self, ctx: Ctx, text: str, **kw: Any) -> list[Outbound]:
        """A reply only the sender needs (a refusal, a usage hint): ephemeral on Discord, an
        ordinary reply elsewhere, silent (nobody else need hear it); in the private chat when
        the move came from there."""
        kw.setdefault("silent", True)
        return [Outbound(ctx.reply_key or ctx.chat_key, text, sender_only=True, **kw)]

    async def _load(self, ctx: Ctx, dedup: bool = False) -> bool:
        """What the message needs from the store, in one call (bot/store_load.py): the chat's
        settings and the sender's language (`_pick_lang`), the chat's open game, its seats and
        their users. With `dedup`, True (and nothing else set) when the update was seen."""
        ib = ctx.inbound
        key = (ib.platform, ib.update_id) if dedup and ib.update_id is not None else None
        got = await self.store.load_message(ib.chat_key, ib.user_key, key)
        if got.seen:
            return True
        await self._pick_lang(ctx, got)
        ctx.game, ctx.seats, ctx.users = got.game, got.seats, dict(got.users)
        ctx.voted = got.voted
        ctx.reminder, ctx.loaded_for = got.reminder, got.game.id if got.game else None
        ctx.prefs = got.prefs
        return False

    async def _pick_lang(self, ctx: Ctx, loaded: Loaded | None = None) -> None:
        """The sender's language: their own /lang, else their platform's, else the chat's
        (or the table's default). Reads the chat's settings on the way (unless `loaded`)."""
        ib = ctx.inbound
        chat = loaded.chat if loaded is not None else await self.store.chat(ib.chat_key)
        ctx.chat_settings = chat.settings
        ctx.chat_lang = chat.lang or self.default_lang
        user = loaded.user if loaded is not None else await self.store.user(ib.user_key)
        ctx.lang = resolve_lang(user.lang, ib.lang, ctx.chat_lang)

    def _reader_lang(self, ctx: Ctx, out: Outbound) -> str:
        """The language of a message's reader, where the message does not say it: the sender
        for his own and the chat's posts, the person it is private to for another's (his
        /lang, else his seat's, else the chat's). The outbox row keeps it for what its sender
        loop words itself, such as the notice that his private chat is closed (found through
        Telegram, 2026-12-04: it came in the language of the player whose move caused it)."""
        key = out.private_to
        if key is None or key == ctx.inbound.user_key:
            return ctx.lang
        user = ctx.users.get(key)
        seat = next((s for s in ctx.seats if s.user_key == key), None)
        return resolve_lang(
            user.lang if user is not None else None,
            seat.lang if seat is not None else None,
            ctx.chat_lang or self.default_lang,
        )

    async def _langs_of(self, ctx: Ctx, seats: Sequence[SeatRow]) -> dict[str, str]:
        """Each human seat's language (display name -> catalog name), for private lines."""
        kept = ctx.langs_of
        if (
            kept is not None
            and kept[0] is seats
            and kept[1:] == (len(seats), ctx.lang, ctx.chat_lang)
        ):
            return dict(ctx.langs)
        langs: dict[str, str] = {}
        others = [s for s in seats if not s.is_bot and s.user_key != ctx.inbound.user_key]
        missing = [s.user_key for s in others if s.user_key not in ctx.users]
        if missing:  # the seats read with the message came with their users
            ctx.users.update(await self.store.users(missing))
        users = ctx.users
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
        ctx.langs_of, ctx.langs = (seats, len(seats), ctx.lang, ctx.chat_lang), dict(langs)
        return langs

    def _parse(
        self, ctx: Ctx, game: Game, state: State, player: str, line: CommandLine
    ) -> Action | list[Action] | Reply:
        """game.parse, with the sender's translator."""
        return game.parse(state, player, line.name, list(line.args), t=translator(ctx.lang))

    def _t(self, ctx: Ctx, message: str, **params: Any) -> str:
        return tr(ctx.lang, message, **params)

    def _tp(self, ctx: Ctx, message: str, **params: Any) -> str:
        """`message` for everybody in the chat: in its language (`Ctx.post_lang`), not the
        sender's."""
        return tr(ctx.post_lang, message, **params)

    def _game_of(self, row: GameRow) -> Game:
        return self.games[row.game_id]

    def _game_list(self, ctx: Ctx) -> str:
        """ "powergrid (Энергосеть), …": the ids to type and the names the editions have."""
        games = [f"{g.id} ({tr(ctx.lang, g.name)})" for g in self.games.values()]
        return join_list(translator(ctx.lang), games) or "-"

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

    def _move_claim(self, ctx: Ctx) -> tuple[tuple[str, str] | None, str | None]:
        """What a move's commit claims and notes: the update's id and, for a button of the
        prompt that stands now, the button's key; for an older button its key alone, so one
        pressed before, in any worker, is a duplicate (bot/moment.py `press_key`)."""
        if ctx.press_key is not None and not ctx.pressed_now:
            ctx.claimed = True
            return (ctx.inbound.platform, ctx.press_key), None
        return self._inbound_key(ctx), ctx.press_key

    def _out_of_date(self, ctx: Ctx) -> list[Outbound]:
        """The answer to a stale button: its moment is past, or he pressed it before (a double
        tap whose first tap another worker took)."""
        msg = tr(ctx.lang, "This button is out of date; nothing was changed.")
        return [Outbound(ctx.chat_key, msg, private_to=ctx.inbound.user_key, toast=msg)]

    async def _remember(self, ctx: Ctx) -> None:
        """Record the update id of a message that changed nothing (answers only)."""
        key = self._inbound_key(ctx)
        if key is not None:
            await self.store.record_inbound(*key)

    async def _deadline_hours(self, chat_key: str, ctx: Ctx | None = None) -> float:
        if ctx is not None and ctx.chat_settings is not None and ctx.chat_key == chat_key:
            return deadline_hours(ctx.chat_settings)  # read with the message, no second query
        return deadline_hours((await self.store.chat(chat_key)).settings)

    def _due(
        self,
        game: Game,
        state: State,
        hours: float,
        moment: Moment | None = None,
        told: bool = False,
    ) -> Due | None:
        """The turn's deadline row; `moment`: the state's answers when a move gave them;
        `told`: the messages that ask the turn notified every player it asks."""
        at = moment if moment is not None and moment.state is state else Moment(game, state)
        return turn_due(at, self.clock(), hours, told)

    def _no_game(self, ctx: Ctx) -> list[Outbound]:
        return self._say(
            ctx,
            self._t(
                ctx,
                "No game here yet. Open one with /new <game> ({games}).",
                games=listed(self.games),
            ),
        )

    async def _no_game_here(self, ctx: Ctx) -> list[Outbound]:
        """A game's command (/hint, /plants) with no game open: that the chat's last game is
        over, when it had one (found play-testing, 2026-12-04: "No game here yet" just after a
        game's result); else how to open one."""
        if await self.store.last_game(ctx.chat_key) is None:
            return self._no_game(ctx)
        return self._refuse(ctx, self._t(ctx, "This game is over. /new starts another."))

    def _can_manage(self, ctx: Ctx) -> bool:
        assert ctx.game is not None
        return ctx.inbound.user_key == ctx.game.creator or ctx.inbound.is_admin

    def _unknown(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        name = shorten(line.name, 32)
        near = self._nearest_command(ctx, line.name)
        text = (  # a typo: "/stauts" (found playing, 2026-12-03)
            self._t(ctx, DID_YOU_MEAN, name=name, command=near)
            if near is not None
            else self._t(ctx, "Unknown command /{name}. /help lists the commands.", name=name)
        )
        return self._refuse(ctx, text)

    def _nearest_command(self, ctx: Ctx, name: str) -> str | None:
        """The command a mistyped name most likely meant: the table's and the chat's game's
        (every game's when the chat has none), if one is close enough."""
        game = ctx.game.game_id if ctx.game is not None else None
        names = set(self._table_names) | (
            {c.name for c in self.games[game].commands} if game in self.games else self._game_names
        )
        return nearest_name(name, names)
