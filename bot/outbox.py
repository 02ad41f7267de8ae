"""The sender loop: delivers the outbox (bot/store_outbox.py) to one platform.

Rows are written by whoever causes a message — the move's own transaction, the scheduler, a
reminder — never sent directly, so nothing depends on a sender being up. One loop per platform
reads the pending rows, delivers each chat's rows in order (chats in parallel), records the
platform's message id, and survives restarts (what is pending stays pending). The platform's
`deliver` says how a delivery went:
- it returns the message id: the row is sent;
- `RetryLater(delay)` (flood control's retry_after, a network error): the row and every later
  row of its chat wait `delay` seconds; there is no retry cap, nothing is dropped;
- `Undeliverable(reason)` (blocked by the user, chat deleted): the row is failed with the reason
  and never retried; the chat's next rows go on.
An unexpected exception is treated like a network error, with a growing back-off.

What a row becomes before it is delivered depends on its kind (`prepare`, the one place kinds
are told apart): a "picture" row holding an instruction (game, version, viewer, language) is
drawn at send time by the preparer the table registers for that kind (bot/announce.py), in the
worker pool; a preparer may answer `Undeliverable` (the game is gone), and the chat goes on.

An "edit" row is the game's live status message (issue 17): the sender looks up the message
the game's status lives in (`status_message`) and delivers the row as an edit of it; when there
is none yet, or the platform says it is gone (`MessageGone`), the row is posted (and pinned where
the bot may pin) and its id recorded for the next edit. Of several edits of one game waiting in
a chat, only the last is delivered. A row with `reply_status` is posted as a reply to its game's
status message (prompts gather under it rather than stack up).

A chat may refuse a post's pictures while it takes its text (a Discord channel where the bot
lacks Attach Files): the platform's `deliver` raises `PicturesRefused`, the post goes as its
text alone, and the chat's refusal is kept in the store (`PictureMemory`), so that every
worker and a restart know it. From then on its posts go as their text alone, no upload tried,
with one note (the platform's words: how to allow the pictures) at the first refusal, an
outbox row written in the refusal's own transaction (a crash between them cannot keep one and
lose the other), sent by this loop as any row; the pictures are tried again once
`PICTURES_RETRY` passed since the last refusal, or at once when the platform says they may go
(`pictures_seen`: Discord's interactions carry the bot's permissions in their channel). A
picture sent privately is never held back by a chat's refusal.

A private row with `fold_of` (a player's acknowledgement of his own moves: "Standing order
saved.", "You plan to buy 3 oil ...") is folded into the reader's previous private message
when that one acknowledged his moves of the same game just before (the game's versions follow
on: nobody moved between), was delivered by this loop less than `FOLD_WINDOW` ago, and nothing
else was sent to the reader since: that message is edited to carry the new line below the old
ones instead of a new message (on platforms that edit private messages, `FOLD_PLATFORMS`).
Anything else private to the reader (a reminder, a picture, a result of others' moves) ends the
run, as do another player's move and a restart (the loop's memory); the next one is posted.
Closing words the acknowledgements share (`fold_tail`: "Done in ...; the others are not told of
it.", bot/confirm.py) stand once, at the end of the joined text.

The clock and the sleep are injected, so tests run minutes of flood control in virtual time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from bot.grammar import MAX_TEXT
from bot.messages import Outbound
from bot.outbox_rows import body_of as body_of  # the rows' shapes, re-exported
from bot.outbox_rows import outbound_of
from bot.outbox_rows import platform_of as platform_of
from bot.outbox_rows import queued as queued
from bot.outbox_rows import row_of as row_of
from bot.quiet import FOLD_PLATFORMS, FOLD_WINDOW, STATUS_LINES, status_text
from bot.store_outbox import AUDIENCE_CHAT, OutboxItem, OutRow
from bot.store_plans import PrefsChange

if TYPE_CHECKING:
    from bot.store_protocol import MessageStore

log = logging.getLogger(__name__)

Deliver = Callable[[Outbound], Awaitable[str | None]]
Sleep = Callable[[float], Awaitable[None]]
# Turns a stored row of one kind into the message to deliver (None: nothing to send).
Prepare = Callable[[OutboxItem], Awaitable[Outbound | None]]

# Back-off after an unexpected error: 2, 4, 8, ... seconds, at most this long.
MAX_BACKOFF = 300.0
# Look at the outbox at least this often even without a wake-up (another process may write).
IDLE_POLL = 30.0
CONCURRENT_CHATS = 16
# Readers whose last private message the loop remembers (for folding acknowledgements).
FOLD_MEMORY = 10_000


class RetryLater(Exception):
    """Deliver again after `delay` seconds (flood control, a passing network error)."""

    def __init__(self, delay: float, reason: str = "") -> None:
        super().__init__(reason or f"retry in {delay:g} s")
        self.delay = max(0.0, float(delay))


class Undeliverable(Exception):
    """The platform refuses this message for good: it is failed with `reason`."""


class MessageGone(Exception):
    """The message an edit refers to no longer exists (deleted): post a new one instead."""


class DmClosed(Undeliverable):
    """A private message the user's settings refuse (Discord 403, Telegram "bot was blocked" or
    never started). `fallback` is the platform's public mention asking them to open their DMs
    (None when there is no chat to say it in)."""

    def __init__(self, reason: str, fallback: Outbound | None = None) -> None:
        super().__init__(reason)
        self.fallback = fallback


class PicturesRefused(Exception):
    """The chat refuses the message's pictures and files but would take its text (Discord: no
    Attach Files in the channel): nothing was sent. `note`: the platform's words for the chat,
    how to allow the pictures (posted once, at the first refusal)."""

    def __init__(self, reason: str, note: Outbound | None = None) -> None:
        super().__init__(reason)
        self.note = note


DmRefused = Callable[[str], Awaitable[None]]

# The user preference (users.prefs_json) that remembers refused DMs across restarts.
DM_CLOSED = "dm_closed"
# Platforms where a user's refusal of DMs is a setting he may lift without a word to the bot
# (Discord: "allow direct messages from server members"): his interaction anywhere tries his
# DMs again. On Telegram only he opens the private chat (Start, or a message after unblocking
# the bot), and that reaches the bot as a private message: a command in a group changes
# nothing (found play-testing: each /status of a player who never started the bot brought
# the group another "I cannot message you privately" note).
DMS_RETRIED_ON_ANY_INTERACTION = frozenset({"discord"})


class UserPrefs(Protocol):
    async def user_prefs(self, user_keys: Sequence[str]) -> dict[str, dict[str, Any]]: ...

    async def update_user_prefs(
        self, user_key: str, change: PrefsChange, outbox: Sequence[OutRow] = ()
    ) -> dict[str, Any]: ...


class DmMemory:
    """Refused DMs kept in the store (the user's prefs), so that after a restart the first
    private message is not tried again and the group's fallback note is not posted again.
    (users.dm_ok cannot say it: it is also false for a user who simply never wrote, whom
    Discord may well reach.)"""

    def __init__(self, store: UserPrefs) -> None:
        self.store = store

    async def closed(self, user_key: str) -> bool:
        prefs = (await self.store.user_prefs([user_key])).get(user_key, {})
        return bool(prefs.get(DM_CLOSED))

    async def remember(self, user_key: str, closed: bool, note: OutRow | None = None) -> None:
        """Store whether his DMs are refused; `note`, the chat's word on a refusal, goes to the
        outbox in the same transaction (a crash between them kept the refusal, which counts
        as told after a restart, and lost the note). A change of that one key, made in the
        store: his other prefs written meanwhile (his /me settings, his missed deadlines, by
        another task or worker) stay."""

        def refused(prefs: dict[str, Any]) -> dict[str, Any]:
            kept = {k: v for k, v in prefs.items() if k != DM_CLOSED}
            return {**kept, DM_CLOSED: True} if closed else kept

        await self.store.update_user_prefs(user_key, refused, [note] if note is not None else [])


# A chat that refused the pictures gets its posts' text alone; the pictures are tried again
# this long after the last refusal (sooner when the platform says they may go).
PICTURES_RETRY = 24 * 3600.0
# The platform's word that a chat takes pictures (`OutboxSender.pictures_seen`) is checked
# against the store at most this often per chat while it stays the same.
PICTURES_RECHECK = 3600.0
# Chats whose last word on pictures the loop remembers.
PICTURES_MEMORY = 10_000


class ChatPictures(Protocol):
    async def pictures_refused(self, chat_key: str) -> float | None: ...

    async def set_pictures_refused(
        self, chat_key: str, at: float | None, note: OutRow | None = None
    ) -> bool: ...


class PictureMemory:
    """Chats that refused the bot's pictures, kept in the store (chats.pictures_refused_at):
    a refusal seen by one worker holds for all of them and after a restart, and so does the
    end of it."""

    def __init__(self, store: ChatPictures) -> None:
        self.store = store

    async def refused_at(self, chat_key: str) -> float | None:
        return await self.store.pictures_refused(chat_key)

    async def remember(self, chat_key: str, at: float | None, note: OutRow | None = None) -> bool:
        """Store the chat's refusal (None: the end of it); `note` goes to the outbox with the
        chat's first refusal, in the same transaction. True when it was queued."""
        return await self.store.set_pictures_refused(chat_key, at, note)


def has_pictures(out: Outbound) -> bool:
    """Whether the message carries pictures or files (what a chat may refuse)."""
    return bool(out.png is not None or out.album or out.file is not None or out.render is not None)


def without_pictures(out: Outbound) -> Outbound | None:
    """The message as its text alone (its buttons kept); None when nothing is left."""
    bare = replace(out, png=None, album=[], file=None, filename="", render=None, picture=None)
    return bare if bare.text.strip() or bare.buttons else None


class LastDm(NamedTuple):
    """The last private message delivered to a reader (what a fold may extend)."""

    moves: tuple[int, int] | None  # (game id, last version) it acknowledges; None: other news
    message_id: str
    text: str
    at: float  # when it was delivered
    tail: str  # the end of `text` a fold says once (`Outbound.fold_tail`)


def _without_tail(last: LastDm, tail: str) -> str:
    """The folded message's text, without its closing words when the next acknowledgement
    ends with the same ones (they close the joined text once; bot/confirm.py)."""
    if tail and last.tail == tail and last.text.endswith(tail):
        return last.text[: -len(tail)]
    return last.text


def _superseded(item: OutboxItem, later: Sequence[OutboxItem]) -> OutboxItem | None:
    """The next pending edit of the same game's status message, which replaces this one."""
    if item.kind != "edit" or "status_of" not in item.body:
        return None
    game = item.body["status_of"]
    return next((x for x in later if x.kind == "edit" and x.body.get("status_of") == game), None)


async def _sleeping(sleep: Sleep, delay: float) -> None:
    await sleep(delay)


class OutboxSender:
    """Delivers the pending rows of one platform; `start` it, `wake` it after writing rows,
    `stop` it on the way out (a delivery in flight is simply sent again after a restart)."""

    def __init__(
        self,
        store: MessageStore,
        platform: str,
        deliver: Deliver,
        clock: Callable[[], float] | None = None,
        sleep: Sleep | None = None,
        concurrency: int = CONCURRENT_CHATS,
        on_dm_refused: DmRefused | None = None,
        dm_memory: DmMemory | None = None,
        pictures: PictureMemory | None = None,
    ) -> None:
        self.store = store
        # Chats that refused the pictures (kept in the store; without it, each post whose
        # pictures are refused goes as its text alone, and nothing is remembered), and per
        # chat the platform's last word on them (`pictures_seen`): (they may go, when).
        self.pictures = pictures
        self._pictures_seen: OrderedDict[str, tuple[bool, float]] = OrderedDict()
        # When this loop last posted a chat's note on its refused pictures: once a day at
        # most, should the platform say they may go and refuse them again.
        self._pictures_noted: OrderedDict[str, float] = OrderedDict()
        # Users (keys; each names its platform) whose DMs were refused, and who have not
        # interacted with the bot since: their private rows fail at once, unsent.
        self.dm_closed: set[str] = set()
        # The same across restarts (`dm_memory`): users whose stored refusal was read (or
        # who interacted since, which makes it moot), and those whose stored refusal may
        # stand and goes once a DM reaches them.
        self.dm_memory = dm_memory
        self._dm_read: set[str] = set()
        self._dm_stored: set[str] = set()
        # Users whose chat was told that their DMs are closed (here, or before a restart: a
        # stored refusal) and who have not written to the bot privately since, nor been
        # reached: a refusal of their DMs again is not news, and the chat is not told again.
        self._dm_noted: set[str] = set()
        self.on_dm_refused = on_dm_refused
        self.platform = platform
        self.deliver = deliver
        self.clock = clock or time.time
        self.sleep: Sleep = sleep or asyncio.sleep
        # kind -> how a row of that kind becomes a message (see `prepare`); set by the table.
        self.preparers: dict[str, Prepare] = {}
        # user key -> the last private message delivered to them: what a fold may extend.
        self._last_dm: dict[str, LastDm] = {}
        self._limit = asyncio.Semaphore(concurrency)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        # What the loop did, for logs and tests.
        self.sent = 0
        self.retried = 0
        self.failed = 0

    def start(self) -> asyncio.Task[None]:
        if self._task is None or self._task.done():
            self._stopping = False
            self._task = asyncio.create_task(self.run(), name=f"outbox:{self.platform}")
        return self._task

    async def stop(self) -> None:
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def wake(self) -> None:
        self._wake.set()

    async def run(self) -> None:
        while not self._stopping:
            try:
                self._wake.clear()
                if await self.run_due():
                    continue  # delivering may have taken a while: look again at once
                next_at = await self.store.outbox_next_at(self.platform)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox %s: pass failed; trying again shortly", self.platform)
                next_at = self.clock() + 5.0
            await self._wait(next_at)

    async def _wait(self, next_at: float | None) -> None:
        if self._wake.is_set():
            return
        delay = IDLE_POLL if next_at is None else next_at - self.clock()
        delay = min(max(0.0, delay), IDLE_POLL)
        name = f"outbox:{self.platform}:wait"
        waker = asyncio.create_task(self._wake.wait(), name=name)
        sleeper = asyncio.create_task(_sleeping(self.sleep, delay), name=name)
        try:
            await asyncio.wait({waker, sleeper}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (waker, sleeper):
                if not task.done():
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task

    async def run_due(self) -> int:
        """Deliver what may go now, each chat in order; how many rows were looked at."""
        items = await self.store.outbox_due(self.platform, self.clock())
        chats: dict[str, list[OutboxItem]] = {}
        for item in items:
            chats.setdefault(item.chat_key, []).append(item)
        await asyncio.gather(*(self._chat(rows) for rows in chats.values()))
        return len(items)

    async def _chat(self, rows: list[OutboxItem]) -> None:
        async with self._limit:
            for i, item in enumerate(rows):
                later = _superseded(item, rows[i + 1 :])
                if later is not None:
                    # a later edit of the same status message says all this one would; its
                    # lines ride with it
                    if not later.body.get("status_reset"):
                        lines = item.body.get("status_lines", [])
                        later.body["status_lines"] = lines + later.body.get("status_lines", [])
                        later.body["status_reset"] = bool(item.body.get("status_reset"))
                    await self.store.outbox_sent(item.id, None)
                    continue
                if not await self._one(item):
                    return  # the chat waits: its later rows keep their order

    def dm_reopened(self, user_key: str, private: bool, refused_before: bool = False) -> None:
        """The user interacted with the bot (`private`: in his private chat with it;
        `refused_before`: the store keeps a refusal of his DMs, read with his message). A
        private message opens his DMs: they are tried again, and a refusal after it is news
        for the chat. Elsewhere only where the refusal is a setting he may have lifted
        (`DMS_RETRIED_ON_ANY_INTERACTION`): tried again, and refused again silently."""
        if private:
            self._dm_noted.discard(user_key)
        else:
            if refused_before:
                self._dm_noted.add(user_key)  # told before a restart
            if self.platform not in DMS_RETRIED_ON_ANY_INTERACTION:
                return  # nothing changed: a stored refusal is read as before (`_recall_dm`)
        self.dm_closed.discard(user_key)
        if self.dm_memory is not None:
            self._dm_read.add(user_key)
            self._dm_stored.add(user_key)  # a refusal stored before: gone once a DM arrives

    async def _recall_dm(self, user_key: str) -> None:
        """A refusal stored before this process started counts as if seen here."""
        if self.dm_memory is None or user_key in self._dm_read:
            return
        self._dm_read.add(user_key)
        if await self.dm_memory.closed(user_key):
            self.dm_closed.add(user_key)
            self._dm_stored.add(user_key)
            self._dm_noted.add(user_key)  # the chat was told then

    async def _dm_reached(self, user_key: str) -> None:
        """A DM went through: a refusal stored before is forgotten. Called before the row is
        marked sent, so a row no longer pending means the store knows his DMs are open (a
        test saw the row sent and the refusal still stored)."""
        self._dm_noted.discard(user_key)  # a refusal from now on is news
        if self.dm_memory is not None and user_key in self._dm_stored:
            self._dm_stored.discard(user_key)
            try:
                await self.dm_memory.remember(user_key, False)
            except Exception:  # the message is out: never send it again for this
                log.exception(
                    "outbox %s: forgetting the closed DMs of %s failed", self.platform, user_key
                )

    async def _dm_closed(self, item: OutboxItem, refused: DmClosed) -> None:
        """A refused DM: remembered, the row failed, and one public mention until something
        changed (he wrote to the bot privately, or a DM reached him) instead of one per
        message or per interaction. The row is failed last, so a row no longer pending means
        its fallback is out too, and a crash before that retries the row rather than losing
        the mention."""
        self.failed += 1
        try:
            await self.tell_dm_refused(item.audience, item.chat_key, refused)
        finally:
            await self.store.outbox_failed(item.id, str(refused) or "DMs closed")

    async def tell_dm_refused(self, user_key: str, chat_key: str, refused: DmClosed) -> bool:
        """A refusal of `user_key`'s DMs met here or by an adapter's immediate private answer
        (`dm_refused`), and the chat's word on it (`refused.fallback`): with a memory, queued
        in the outbox with the stored refusal, in its transaction, and sent by this loop as
        any row (a crash between storing the refusal, which counts as told after a restart,
        and posting the note lost the note); without, posted now. True when the chat is told
        (the first refusal since something changed)."""
        note = refused.fallback if self.dm_memory is not None else None
        if not await self.dm_refused(user_key, chat_key, refused, note=note):
            return False
        if note is None:
            await self._fallback(chat_key, refused)
        else:
            self.wake()
        return True

    async def dm_known_refused(self, user_key: str) -> bool:
        """Whether `user_key`'s DMs are refused as far as the platform knows (a refusal
        stored before a restart counts): an adapter's immediate private answer to him is left
        unsent, as his rows are failed unsent, and the chat is not told again."""
        await self._recall_dm(user_key)
        return user_key in self.dm_closed

    async def dm_refused(
        self, user_key: str, chat_key: str, reason: object, note: Outbound | None = None
    ) -> bool:
        """A refusal of `user_key`'s DMs, met here or by an adapter's immediate answer (found
        play-testing through Telegram: each /status of a player who never started the bot
        had its private copy refused, and each refusal brought its own note): remembered;
        True when the chat is to be told, the first refusal since something changed. `note`:
        the chat's word on it, then queued in the outbox with the stored refusal (sent by
        this loop directly if the store failed)."""
        if user_key in self._dm_noted:
            self.dm_closed.add(user_key)  # refused again, as the chat knows
            return False
        if user_key in self.dm_closed:
            return False
        self.dm_closed.add(user_key)
        self._dm_noted.add(user_key)
        if self.dm_memory is not None:
            self._dm_read.add(user_key)
            self._dm_stored.add(user_key)
            row = None if note is None else row_of(note, note.lang or "en")
            try:
                await self.dm_memory.remember(user_key, True, row)
            except Exception:
                log.exception(
                    "outbox %s: storing the closed DMs of %s failed", self.platform, user_key
                )
                if note is not None:  # not queued: at least this once, now
                    await self._fallback(chat_key, DmClosed(str(reason), note))
        log.warning(
            "outbox %s: %s does not accept private messages (%s); mentioning them in %s once",
            self.platform,
            user_key,
            reason,
            chat_key,
        )
        if self.on_dm_refused is not None:
            try:
                await self.on_dm_refused(user_key)
            except Exception:
                log.exception(
                    "outbox %s: remembering the closed DMs of %s failed", self.platform, user_key
                )
        return True

    async def _fallback(self, chat_key: str, refused: DmClosed) -> None:
        """The chat's note for a refused DM (the platform's words)."""
        if refused.fallback is None:
            return
        try:
            await self.deliver(refused.fallback)
        except (RetryLater, Undeliverable) as err:
            log.warning("outbox %s: the DM fallback in %s failed: %s", self.platform, chat_key, err)

    async def prepare(self, item: OutboxItem) -> Outbound | None:
        """The message a row stands for, by kind: a picture instruction is drawn now (its
        preparer), anything else is the stored message itself."""
        if item.kind == "picture" and item.png is None and "picture" in item.body:
            draw = self.preparers.get("picture")
            if draw is None:
                raise Undeliverable("no picture preparer registered")
            drawn = await draw(item)
            return drawn if drawn is None or drawn.lang else replace(drawn, lang=item.lang)
        return outbound_of(item)

    async def _status(self, out: Outbound) -> str | None:
        """Deliver the game's live status message: its lines (the phase's so far and this
        row's) above who acts; an edit of the one already posted, else (none yet, or gone) a
        new message, pinned, whose id and lines are kept for the next edits. The game's
        last one (`unpin`) is unpinned by the platform once edited."""
        game = out.status_of
        assert game is not None
        known = await self.store.status_message(game)
        lines = [] if known is None or out.status_reset else list(known.lines)
        # the phase's latest lines, and at least all of this row's: a simultaneous phase's
        # reveal (Power Grid's bureaucracy: each player's income, then the market) is one
        # row of 10 or more lines, and its first players' incomes were cut (found play-testing
        # through Telegram, 2026-12-05); `status_text` keeps the message within its limit
        lines = (lines + out.status_lines)[-max(STATUS_LINES, len(out.status_lines)) :]
        out = replace(out, text=status_text(lines, out.text))
        message_id: str | None = None
        if known is not None:
            try:
                message_id = await self.deliver(replace(out, edit_of=known.message_id))
            except MessageGone:
                log.info("outbox %s: the status message of game %s is gone", self.platform, game)
        if message_id is None:
            message_id = await self.deliver(replace(out, edit_of=None, pin=not out.unpin))
        if message_id is not None:
            await self.store.set_status_message(game, out.chat_key, message_id, lines)
        return message_id

    async def _send(self, item: OutboxItem, out: Outbound | None) -> str | None:
        """Deliver a prepared row (nothing when it came to nothing)."""
        if out is None:
            return None
        if out.reply_status is not None:
            known = await self.store.status_message(out.reply_status)
            out.reply_to = known.message_id if known is not None else None
        if item.kind == "edit" and out.status_of is not None:
            return await self._status(out)
        if out.private_to is not None:
            folded = await self._fold(out)
            if folded is not None:
                return folded
            self._last_dm.pop(out.private_to, None)  # whatever happens, the run ends here
        try:
            message_id = await self._post(out)
        except MessageGone as gone:  # a reply whose status message went: post it plainly
            if out.reply_to is None:
                raise Undeliverable(str(gone) or "message gone") from gone
            message_id = await self._post(replace(out, reply_to=None))
        if out.private_to is not None:
            self._seen_dm(out, message_id)
        return message_id

    async def _post(self, out: Outbound) -> str | None:
        """Deliver a message; in a chat that refuses the pictures, its text alone (see the
        module's doc): an upload is tried again after `PICTURES_RETRY`, or when the platform
        said they may go, and a refusal is remembered, the first one noted in the chat."""
        if self.pictures is None or out.private_to is not None or not has_pictures(out):
            try:
                return await self.deliver(out)
            except PicturesRefused as refused:  # nothing remembers: this post's text alone
                log.warning(
                    "outbox %s: pictures refused in %s: %s", self.platform, out.chat_key, refused
                )
                return await self._text_alone(out)
        chat = out.chat_key
        refused_at = await self.pictures.refused_at(chat)
        if refused_at is not None and self.clock() - refused_at < PICTURES_RETRY:
            return await self._text_alone(out)
        try:
            message_id = await self.deliver(out)
        except PicturesRefused as refused:
            message_id = await self._text_alone(out)  # a text refused too fails the row as ever
            await self._pictures_refused(out, refused, first=refused_at is None)
            return message_id
        if refused_at is not None:
            await self._remember_pictures(chat, None)  # they went: the chat takes them again
        return message_id

    async def _text_alone(self, out: Outbound) -> str | None:
        bare = without_pictures(out)
        return None if bare is None else await self.deliver(bare)

    async def _pictures_refused(self, out: Outbound, refused: PicturesRefused, first: bool) -> None:
        """A chat refused a post's pictures (its text went): remembered, so that its next
        posts go as their text alone, and the first refusal noted in the chat: the note is
        an outbox row written with the refusal (a crash between them lost it), which this
        loop then sends as any other."""
        chat, now = out.chat_key, self.clock()
        self._pictures_seen.pop(chat, None)  # the platform's word is checked afresh
        noted = self._pictures_noted.get(chat)
        note = refused.note
        if not first or note is None or (noted is not None and now - noted < PICTURES_RETRY):
            note = None  # noted lately: a chat whose permission comes and goes
        row = None if note is None else row_of(note, note.lang or "en")
        queued = await self._remember_pictures(chat, now, row)
        log.warning(
            "outbox %s: pictures refused in %s (%s); its posts go as their text alone",
            self.platform,
            chat,
            refused,
        )
        if not queued:
            return
        self._pictures_noted[chat] = now
        while len(self._pictures_noted) > PICTURES_MEMORY:
            self._pictures_noted.popitem(last=False)
        self.wake()

    async def _remember_pictures(
        self, chat_key: str, at: float | None, note: OutRow | None = None
    ) -> bool:
        assert self.pictures is not None
        try:
            return await self.pictures.remember(chat_key, at, note)
        except Exception:  # the message is out: never send it again for this
            log.exception("outbox %s: storing the pictures of %s failed", self.platform, chat_key)
            return False

    async def pictures_seen(self, chat_key: str, allowed: bool) -> None:
        """The platform's word on whether the bot may post pictures in the chat now (Discord:
        every interaction carries the bot's permissions in its channel): when they may, a
        refusal stored before is forgotten, so the chat's next picture goes with it. The
        store is asked when the word changes to "they may", and again at most every
        `PICTURES_RECHECK` while it stays so (another worker may have stored a refusal)."""
        if self.pictures is None:
            return
        now = self.clock()
        seen = self._pictures_seen
        before = seen.get(chat_key)
        if allowed and before is not None and before[0] and now - before[1] < PICTURES_RECHECK:
            seen.move_to_end(chat_key)  # looked at lately: the time of that look stays
            return
        seen[chat_key] = (allowed, now)
        seen.move_to_end(chat_key)
        while len(seen) > PICTURES_MEMORY:
            seen.popitem(last=False)
        if not allowed:
            return
        try:
            if await self.pictures.refused_at(chat_key) is not None:
                log.info("outbox %s: %s takes pictures again", self.platform, chat_key)
                await self.pictures.remember(chat_key, None)
        except Exception:
            log.exception("outbox %s: the pictures of %s not looked up", self.platform, chat_key)

    def _foldable(self, out: Outbound) -> bool:
        return (
            out.fold_of is not None
            and out.private_to is not None
            and self.platform in FOLD_PLATFORMS
            and out.png is None
            and not out.album
            and not out.buttons
        )

    async def _fold(self, out: Outbound) -> str | None:
        """An acknowledgement folded into the reader's previous private message (an edit of
        it), when it may be (see the module's doc); None: post it as a message of its own."""
        assert out.private_to is not None
        last = self._last_dm.get(out.private_to)
        fold = out.fold_of
        if not self._foldable(out) or fold is None or last is None:
            return None
        if last.moves != (fold[0], fold[1] - 1):
            return None  # another game's, or someone moved between: a message of its own
        if self.clock() - last.at > FOLD_WINDOW:
            return None
        joined = f"{_without_tail(last, out.fold_tail)}\n{out.text}"
        if len(joined) > MAX_TEXT:
            return None
        try:
            message_id = await self.deliver(replace(out, text=joined, edit_of=last.message_id))
        except MessageGone:
            return None
        if message_id is not None:
            moves = (fold[0], fold[2])
            self._last_dm[out.private_to] = LastDm(
                moves, message_id, joined, self.clock(), out.fold_tail
            )
        return message_id

    def _seen_dm(self, out: Outbound, message_id: str | None) -> None:
        """Remember the reader's last private message (what a later acknowledgement may fold
        into: only an acknowledgement itself)."""
        assert out.private_to is not None
        if message_id is None:
            return
        fold = out.fold_of if self._foldable(out) else None
        moves = (fold[0], fold[2]) if fold is not None else None
        self._last_dm[out.private_to] = LastDm(
            moves, message_id, out.text, self.clock(), out.fold_tail if moves else ""
        )
        while len(self._last_dm) > FOLD_MEMORY:
            self._last_dm.pop(next(iter(self._last_dm)))

    async def _one(self, item: OutboxItem) -> bool:
        """Deliver one row; False when the chat must wait before its next row."""
        private = item.audience != AUDIENCE_CHAT
        if private:
            await self._recall_dm(item.audience)
        if private and item.audience in self.dm_closed:
            self.failed += 1
            await self.store.outbox_failed(item.id, "DMs closed (remembered)")
            return True
        try:
            message_id = await self._send(item, await self.prepare(item))
        except asyncio.CancelledError:
            raise
        except RetryLater as later:
            self.retried += 1
            await self.store.outbox_retry(item.id, self.clock() + later.delay, str(later))
            return False
        except DmClosed as refused:
            await self._dm_closed(item, refused)
            return True
        except Undeliverable as refused:
            self.failed += 1
            log.warning("outbox %s: row %s refused for good: %s", self.platform, item.id, refused)
            await self.store.outbox_failed(item.id, str(refused) or "refused")
            return True
        except Exception as err:
            self.retried += 1
            delay = min(MAX_BACKOFF, 2.0 ** min(item.attempts + 1, 16))
            log.warning(
                "outbox %s: row %s failed (%s); again in %g s", self.platform, item.id, err, delay
            )
            await self.store.outbox_retry(item.id, self.clock() + delay, repr(err))
            return False
        self.sent += 1
        if private:
            await self._dm_reached(item.audience)
        await self.store.outbox_sent(item.id, message_id)
        return True
