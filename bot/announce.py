"""Announcements: the lines, pictures and prompt a run of moves leaves in the chat.

Pictures (issues 17-19): a set of pictures (map, panel) sent together, silently, after a phase
by default (after a round where a game has no phases; `/settings pictures=phase|round|turn|off`),
at most one set per round a run of moves passes through, of the board where that piece of the
run ends (`pictured_steps`; the log's `step` tells the runs apart afterwards).
A move writes only the instruction (game, version, viewer, language, setting) into its outbox
row; the sender loop draws it at send time in the worker pool (`_draw_row`), replaying the log to
that version and to the chat's previous picture (`previous_version`: where the last earlier
piece with a moment the setting shows ended), so the change marks and the caption ("After
the build phase, round 3 — Bob is next") are right and a restart between the commit and the
send loses nothing. Group pictures are drawn in the chat's language, a picture asked for
privately in the asker's.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from bot.confirm import close_with, done_text
from bot.context import (
    Ctx,
    Played,
    Step,
)
from bot.deadlines import (
    PICTURES,
    ChatSettings,
    out_of_quiet,
    quiet_end,
    quiet_of,
)
from bot.grammar import (
    MAX_CAPTION,
    MAX_TEXT,
    shorten,
)
from bot.i18n import listed, tr, translator
from bot.messages import Button, Outbound
from bot.moment import Moment
from bot.outbox import Deliver, OutboxSender, Sleep, Undeliverable, platform_of
from bot.quiet import (
    EPHEMERAL_PLATFORMS,
    PHASE,
    PHASE_CACHE,
    PHASE_LOOKBACK,
    ROUND,
    TURN,
    Engagement,
    ends_round,
    engagement_of_log,
    picture_level,
    pinged,
    starts_a_turn,
    step_ends,
    step_ends_phase,
    told_of_the_end,
)
from bot.quiet import GAME as GAME  # re-exported: the picture levels live in bot/quiet.py
from bot.reminder_text import prompt_buttons
from bot.status_deadline import StatusDeadline
from bot.store import (
    ActionRow,
    GameRow,
    SeatRow,
)
from bot.store_outbox import AUDIENCE_CHAT, OutboxItem
from bot.workers import cpu
from engine.core import N_, copy_state, load_state
from engine.core.protocol import Game, State
from engine.core.sentences import WHO_DOES

log = logging.getLogger(__name__)

# How often a picture is posted: the chat setting `pictures` -> the least level shown.
PICTURE_MODES: dict[str, int | None] = {"turn": TURN, "phase": PHASE, "round": ROUND, "off": None}
assert set(PICTURE_MODES) == set(PICTURES)  # the values /settings accepts (bot/deadlines.py)
DEFAULT_PICTURES = PICTURES[0]
PICTURES_KEY = "pictures"  # in chats.settings_json (ChatSettings.pictures)

# A run whose computer player found no move ends with this line.
BOT_FAILED = N_("A computer player could not move; a human message will let it try again.")
# How a game ended by /abort is told: when it ends, and to /status afterwards.
ENDED_WITHOUT_RESULT = N_("{game} was ended without a result. /new starts another.")


def picture_mode(settings: Mapping[str, Any] | None) -> str:
    """The chat's `pictures` setting (phase unless the table chose another)."""
    value = (settings or {}).get(PICTURES_KEY)
    return value if isinstance(value, str) and value in PICTURE_MODES else DEFAULT_PICTURES


def shows(level: int | None, mode: str) -> bool:
    least = PICTURE_MODES.get(mode)
    return level is not None and least is not None and level >= least


def wanted(step: Step, mode: str) -> bool:
    """Whether the chat sees a picture after this step."""
    if not step.picture_events or PICTURE_MODES.get(mode) is None:
        return False
    round_after = None
    if any(e.get("type") == "turn_ended" and "round" in e for e in step.picture_events):
        state = load_state(step.state_json)
        round_after = state.get("round") if not state.get("over") else -1
    return shows(picture_level(step.picture_events, round_after), mode)


def _pieces(marks: Sequence[tuple[bool, bool, bool]]) -> dict[int, int]:
    """The pictures of a stretch of moves, one mark (starts a run, the setting shows it, ends
    a round) per move: piece's last index -> its first, for each piece with a shown move. A
    piece is a run of moves (a person's move and the bots' and forced moves it set off) cut
    after each round's end."""
    out: dict[int, int] = {}
    start, shown = 0, False
    for i, (starts_run, wanted_here, closes_round) in enumerate(marks):
        if starts_run and i > start:
            if shown:
                out[i - 1] = start
            start, shown = i, False
        shown = shown or wanted_here
        if closes_round:
            if shown:
                out[i] = start
            start, shown = i + 1, False
    if shown and start < len(marks):
        out[len(marks) - 1] = start
    return out


def pictured_steps(steps: Sequence[Step], mode: str) -> dict[int, int]:
    """Which steps of a run the chat sees a picture after: step index -> the index its change
    marks start at (`since`). A run is cut at each round's end; a piece with a step the
    setting shows gets one picture, of the board at the piece's end: where the bots carried a
    person's move into the next phase (their builds before his turn to build), the picture
    shows what he now decides on, not the end of the phase before. A picture of every phase
    the bots passed through showed positions nobody was asked about, two or three albums in a
    row; a run of bots alone (the demo, a table of bots) still shows each round. The piece's
    first step is where its marks start: the chat's picture before it is the one posted at
    the end of the last earlier piece with a shown step (`previous_version`)."""
    return _pieces([(i == 0, wanted(s, mode), step_ends(s, ROUND)) for i, s in enumerate(steps)])


def previous_version(game: Game, actions: Sequence[ActionRow], version: int, mode: str) -> int:
    """The version of the chat's last picture before `version` under the setting: the end of
    the last earlier piece (`pictured_steps`, runs told by the log's `step`) with a shown
    move; 0 (the setup, whose picture the start posts) when there is none."""
    by_version: dict[int, list[ActionRow]] = {}
    for a in actions:
        if a.version < version:
            by_version.setdefault(a.version, []).append(a)
    versions = sorted(by_version)
    marks: list[tuple[bool, bool, bool]] = []
    for v in versions:
        rows = by_version[v]
        events = [
            e
            for a in rows
            for e in a.events
            if isinstance(e, dict) and (e.get("type") == "round_ended" or game.is_picture_event(e))
        ]
        level = picture_level(events)
        marks.append(
            (
                min(a.step for a in rows) == 0,
                shows(level, mode),
                level is not None and level >= ROUND,
            )
        )
    ends = _pieces(marks)
    return versions[max(ends)] if ends else 0


def states_at(
    game: Game, names: list[str], row: GameRow, actions: Sequence[ActionRow], versions: set[int]
) -> dict[int, State]:
    """The states after each of `versions`, replayed from the setup and the log."""
    assert row.seed is not None
    state = game.setup(names, dict(row.options), row.seed)
    out: dict[int, State] = {}
    todo = sorted(versions)
    for a in sorted(actions, key=lambda a: a.seq):
        while todo and a.version > todo[0]:
            out[todo.pop(0)] = copy_state(state)
        if not todo:
            break
        state, _events = game.apply(state, a.player, a.action)
    for v in todo:
        out[v] = copy_state(state)
    return out


def draw(
    game: Game,
    names: list[str],
    row: GameRow,
    actions: Sequence[ActionRow],
    version: int,
    previous: int,
    current: str | None,
    order: Mapping[str, Any],
) -> list[Any]:
    """A picture instruction drawn (in the worker pool): `current` is the stored state when
    the instruction's version is still the latest (no replay needed for it)."""
    states = states_at(game, names, row, actions, {previous} if current else {previous, version})
    state = json.loads(current) if current else states[version]
    before = states[previous]
    viewer = order.get("viewer")
    t = translator(str(order.get("lang") or "en"))
    pictures: list[Any] = game.render_set(state, viewer, t, before)
    return pictures


def album_of(chat_key: str, pictures: Sequence[Any], fallback: str) -> Outbound:
    """One message of a picture set: the first picture with the caption, the rest with it."""
    caption = next((str(p.caption) for p in pictures if p.caption), "") or fallback
    return Outbound(
        chat_key,
        shorten(caption, MAX_CAPTION),
        png=pictures[0].png,
        album=[p.png for p in pictures[1:]],
    )


class _Secrets:
    """A run's private lines, gathered per reader between the public outputs they precede:
    one silent message per reader and stretch of the run (a stretch ends at a picture). A
    reader whose every line of a stretch acknowledges a move of his own may have it folded
    into his previous acknowledgement by the sender loop (bot/outbox.py: the versions of
    `fold_of` follow on from his previous message's)."""

    def __init__(self, chat_key: str, game_id: int, key_of: Mapping[str, str]) -> None:
        self.chat_key = chat_key
        self.game_id = game_id
        self.key_of = key_of  # seat name -> user key
        self.lines: dict[str, list[str]] = {}  # user key -> the stretch's lines, in order
        self.own: dict[str, bool] = {}
        self.first: int | None = None  # the stretch's first and last versions
        self.last = 0

    def add(self, step: Step, version: int) -> None:
        if self.first is None:
            self.first = version
        self.last = version
        for user_key, text in step.private:
            self.lines.setdefault(user_key, []).append(text)
            mine = self.key_of.get(step.player) == user_key
            self.own[user_key] = self.own.get(user_key, True) and mine

    def flush(self, lang_of: Mapping[str, str], quiet: bool) -> list[Outbound]:
        """The stretch's private messages; the next stretch starts after it."""
        first, last = self.first, self.last
        out = [
            Outbound(
                self.chat_key,
                "\n".join(texts),
                private_to=user_key,
                lang=lang_of.get(user_key),
                silent=True,  # it tells, it asks nothing
                fold_of=(
                    (self.game_id, first, last)
                    if quiet and first is not None and self.own.get(user_key)
                    else None
                ),
            )
            for user_key, texts in self.lines.items()
        ]
        self.lines, self.own, self.first = {}, {}, None
        return out


class AnnounceMixin(StatusDeadline):
    """What a move makes the chat read: event lines, pictures, the prompt with buttons."""

    async def _said_where(self, ctx: Ctx, row: GameRow, outs: list[Outbound]) -> list[Outbound]:
        """A move sent in a private chat (`ctx.reply_key`) whose messages reach the game's
        chat: the sender is told there where it went, among the move's own messages, so the
        confirmation is committed with them (before, it was written after the commit and a
        crash in between lost it)."""
        public = any(
            o.chat_key == row.chat_key and o.private_to is None and not o.sender_only for o in outs
        )
        reachable = self._is_durable(row.chat_key) or platform_of(row.chat_key) in self.senders
        if ctx.reply_key is None or not public or not reachable:
            return []
        done = await done_text(self.store, ctx, self._game_of(row).name, row.chat_key, True)
        # His own private lines of the move ("You plan to run plants 8, 12", "Only you know:
        # real mine on T8") reach the same private chat: the confirmation ends that message
        # instead of following it as another (found measuring chat noise, 2026-12-05)
        if close_with(ctx, outs, done):
            return []
        return self._refuse(ctx, done)  # sender_only and silent: he has just sent it

    def _mention_prompt(
        self,
        ctx: Ctx,
        row: GameRow,
        state: State,
        version: int,
        seats: list[SeatRow],
        langs: dict[str, str] | None = None,
        lang: str | None = None,
        only: Collection[str] | None = None,
        moment: Moment | None = None,
        named: bool = True,
    ) -> Outbound:
        """Whose move and what is expected, in the chat's language, mentioning the humans who
        must act, with buttons; a prompted player who reads another language gets their own
        line in it under the chat's (`langs`: display name -> language). `lang`: another
        language for the whole prompt (an answer to one person's /status). `only`: mention
        (and give buttons to) these of the players who must act, no others. `moment`: the
        state's answers (who acts, the public mark) when the move gave them. `named`: False
        for a prompt sent to the one player it asks, in private: no "@name:" before it."""
        game = self._game_of(row)
        now = moment if moment is not None and moment.state is state else Moment(game, state)
        lang = lang or ctx.post_lang
        current = now.current
        humans = [s for s in seats if s.display_name in current and not s.is_bot]
        if only is not None:
            humans = [s for s in humans if s.display_name in only]
        text = now.turn_text(lang).strip()
        if humans and named:
            mentioned = listed(f"@{s.display_name}" for s in humans)  # "@ann、@bo：" in Chinese
            text = tr(lang, WHO_DOES, players=mentioned, what=text)
        own: dict[str, list[str]] = {}
        for seat in humans:
            theirs = (langs or {}).get(seat.display_name, lang)
            if theirs != lang:
                own.setdefault(theirs, []).append(f"@{seat.display_name}")
        for theirs, names in own.items():
            line = now.turn_text(theirs).strip()
            if line:
                text += "\n" + tr(theirs, WHO_DOES, players=listed(names), what=line)
        asked = [s.display_name for s in humans]
        rows = self._buttons(row.id, now, asked, lang) if asked else []
        return Outbound(
            ctx.chat_key,
            text or tr(lang, "Waiting for the next move."),
            buttons=rows,
            mentions=[(s.user_key, s.display_name) for s in humans],
            lang=lang,
        )

    def _buttons(self, pk: int, now: Moment, players: list[str], lang: str) -> list[list[Button]]:
        """The prompt's buttons (bot/reminder_text.py `prompt_buttons`)."""
        return prompt_buttons(pk, now, players, lang)

    def _lobby_buttons(self, ctx: Ctx, pk: int) -> list[list[Button]]:
        return [
            [
                Button(tr(ctx.post_lang, "Join"), f"{pk}:0:/join"),
                Button(tr(ctx.post_lang, "Add a bot"), f"{pk}:0:/addbot"),
                Button(tr(ctx.post_lang, "Start"), f"{pk}:0:/start"),
            ]
        ]

    # ------------------------------------------------------------------ pictures
    def _group_lang(self, ctx: Ctx) -> str:
        """The chat's language, which group pictures are drawn in (the one place it is asked)."""
        return ctx.post_lang

    def _own_lang(self, ctx: Ctx) -> str | None:
        """The sender's language when the lines of the run his command begins also go to him
        alone (on Discord, an ephemeral copy when nobody is asked anew: `_quiet_prompt`) and
        he reads another language than the group: the run's lines are then worded in it too
        (`Step.own_lines`). Found play-testing: "Ann bids 4.", which only she saw, came in the
        chat's language instead of her /lang. None: no such copy, or the group's words are
        his."""
        platform = ctx.inbound.platform
        if ctx.lang == ctx.post_lang or platform not in EPHEMERAL_PLATFORMS:
            return None
        return ctx.lang if self._is_durable(ctx.chat_key) else None

    def register_delivery(
        self,
        platform: str,
        deliver: Deliver,
        clock: Callable[[], float] | None = None,
        sleep: Sleep | None = None,
        *,
        hold_replies: float = 0.0,
    ) -> OutboxSender:
        """The sender loop of `platform`, which draws picture instructions with `_draw_row`."""
        sender = super().register_delivery(
            platform, deliver, clock, sleep, hold_replies=hold_replies
        )
        sender.preparers["picture"] = self._draw_row
        return sender

    async def _picture(
        self, ctx: Ctx, game: Game, state_json: str, caption: str
    ) -> Outbound | None:
        """The board now (/board): in the asker's language and as they may see it when asked
        privately, else as everybody sees it in the chat's language; None on failure."""
        if not self.render:
            return None
        lobby = ctx.game is not None and ctx.game.status == "lobby"
        if lobby and picture_mode(ctx.chat_settings) == "off":
            return None  # the board at /start: a picture nobody asked for, the setting rules
        private = ctx.inbound.is_private
        seat = ctx.seat()
        viewer = seat.display_name if private and seat is not None else None
        lang = ctx.lang if private else self._group_lang(ctx)
        try:
            pics = await cpu(
                game.render_set, load_state(state_json), viewer, translator(lang), None
            )
        except Exception:
            log.exception("render failed for game %s", ctx.game.id if ctx.game else None)
            return None
        if not pics:
            return None
        out = album_of(ctx.chat_key, pics, caption)
        out.silent = True  # a picture asks nobody to act
        out.lang = ctx.post_lang
        return out

    async def _draw_row(self, item: OutboxItem) -> Outbound | None:
        """The sender loop's preparer for a picture instruction: the states at its version and
        at the chat's previous picture, replayed from the log and drawn in the worker pool."""
        order = item.body["picture"]
        pk, version = int(order["game"]), int(order["version"])
        row = await self.store.game(pk)
        game = None if row is None else self.games.get(row.game_id)
        if row is None or game is None or row.seed is None:
            raise Undeliverable(f"picture of game {pk}: the game is gone")
        actions = await self.store.actions(pk)
        names = [s.display_name for s in await self.store.seats(pk)]
        mode = str(order.get("mode", DEFAULT_PICTURES))
        # the run's earlier steps showed no picture (`_announce`): marks from the run's start
        # (an instruction written before runs had one picture has no `since`)
        previous = previous_version(game, actions, int(order.get("since", version)), mode)
        current = row.state_json if row.version == version else None
        try:
            pics = await cpu(draw, game, names, row, actions, version, previous, current, order)
        except Exception as err:  # a drawing bug must not hold up the chat's later messages
            log.exception("picture of game %s at version %s failed", pk, version)
            raise Undeliverable(f"picture failed: {err!r}") from err
        if not pics:
            raise Undeliverable(f"picture of game {pk}: nothing drawn")
        out = album_of(item.chat_key, pics, str(item.body.get("text", "")))
        out.private_to = None if item.audience == AUDIENCE_CHAT else item.audience
        out.silent = item.silent
        out.outbox_id = item.id
        return out

    async def _picture_after(
        self,
        ctx: Ctx,
        game: Game,
        step: Step,
        version: int,
        since: int,
        row: GameRow | None = None,
        before_json: str | None = None,
    ) -> Outbound | None:
        """The picture after `step` (at `version`), its change marks against the chat's last
        picture before version `since` (the piece's first): an instruction the sender loop
        draws at send time where a sender loop delivers (the move's transaction stays lean, a
        restart loses nothing), else (the terminal, the demo) drawn now, against `before_json`
        (the run's previous picture) or, for a run's first, the log's (`_earlier_picture`)."""
        if not self.render or ctx.game is None:
            return None
        lang = self._group_lang(ctx)
        mode = picture_mode(ctx.chat_settings)
        order = {
            "game": ctx.game.id,
            "version": version,
            "viewer": None,
            "lang": lang,
            "mode": mode,
            "since": since,
        }
        if self._is_durable(ctx.chat_key):
            return Outbound(ctx.chat_key, "", picture=order, silent=True, lang=lang)
        if before_json is not None:
            before: State | None = load_state(before_json)
        else:
            before = await self._earlier_picture(game, row or ctx.game, since, mode)
        try:
            pics = await cpu(
                game.render_set, load_state(step.state_json), None, translator(lang), before
            )
        except Exception:
            log.exception("render failed for game %s", ctx.game.id)
            return None
        if not pics:
            return None
        out = album_of(ctx.chat_key, pics, "")
        out.silent = True
        out.lang = lang
        return out

    async def _earlier_picture(
        self, game: Game, row: GameRow, since: int, mode: str
    ) -> State | None:
        """The state the chat's last picture before version `since` showed, replayed from the
        committed log (the setup's when none): what a picture drawn at once, with no sender
        loop to replay it later, marks its changes against. None when it cannot be known."""
        if row.seed is None:
            return None
        try:
            actions = await self.store.actions(row.id)
            names = [s.display_name for s in await self.store.seats(row.id)]
            previous = previous_version(game, actions, since, mode)
            states = await cpu(states_at, game, names, row, actions, {previous})
        except Exception:
            log.exception("the previous picture of game %s could not be replayed", row.id)
            return None
        return states[previous]

    async def _announce(
        self, ctx: Ctx, row: GameRow, seats: list[SeatRow], played: Played
    ) -> list[Outbound]:
        """Event lines, a picture where the chat's `pictures` setting asks for one (after a
        phase by default), then the prompt or the result. In a chat a sender loop delivers
        (a group on Telegram or Discord) the table is quiet (bot/quiet.py): the lines and the
        prompt go into the live status message, and a new message only asks those who must
        be notified; on the terminal every run of moves is one message."""
        game = self._game_of(row)
        lang = ctx.post_lang
        langs = await self._langs_of(ctx, seats)
        lang_of = {s.user_key: langs.get(s.display_name, lang) for s in seats}
        quiet = self._is_durable(ctx.chat_key) and row.id > 0
        out: list[Outbound] = []
        pending: list[str] = []
        own = self._own_lang(ctx)
        mine: list[str] = []  # `pending` in the sender's words (`own`), for him alone
        # the private lines of the run so far, per reader (user key), in order; each reader's
        # go out before the public lines and picture that follow them (found play-testing: a
        # buyer's "You plan to buy ..." came after the group had read the purchase it set off)
        secrets = _Secrets(ctx.chat_key, row.id, {s.display_name: s.user_key for s in seats})
        mode = picture_mode(ctx.chat_settings)
        # step i is version first_version + i (one version per step: a human move, each bot's)
        first_version = played.version - len(played.steps) + 1
        shown = pictured_steps(played.steps, mode)
        drawn: str | None = None  # the state of this run's last picture
        for i, step in enumerate(played.steps):
            pending += step.lines
            mine += step.own_lines if step.own_lines is not None else step.lines
            secrets.add(step, first_version + i)
            if i not in shown:
                continue
            out += secrets.flush(lang_of, quiet)
            if pending and not quiet:
                out += self._say(ctx, "\n".join(pending), lang=lang, silent=True)
                pending, mine = [], []
            pic = await self._picture_after(
                ctx, game, step, first_version + i, first_version + shown[i], row, drawn
            )
            drawn = step.state_json  # the run's next picture marks its changes from here
            if pic is not None:
                out.append(pic)
        if played.error:
            pending.append(tr(lang, BOT_FAILED))
            mine.append(tr(own or lang, BOT_FAILED))
        out += secrets.flush(lang_of, quiet)
        state = played.state
        now = played.now(game)
        if now.over:
            result = self._result_line(game, state, now, lang)
            # in quiet hours, the chat's or his own, a player is not pinged (as by an ask)
            told = told_of_the_end(
                seats, ctx.inbound.user_key, lambda key: self._quiet_now(ctx, key)
            )
            names = listed(f"@{name}" for _key, name in told)
            news = tr(lang, WHO_DOES, players=names, what=result) if told else result
            out += self._say(
                ctx, "\n".join([*pending, news]), lang=lang, silent=not told, mentions=told
            )
            pending.append(result)
            if quiet:
                end = self._status_message(ctx, row, pending[:-1], pending[-1], None)
                end.unpin = True  # the game is over: its status message comes off the pins
                out.append(end)
            return out
        if quiet:
            theirs = mine if own is not None else None
            return out + await self._quiet_prompt(
                ctx, row, state, seats, played, langs, pending, theirs
            )
        prompt = self._mention_prompt(ctx, row, state, played.version, seats, langs, moment=now)
        if pending:
            joined = "\n".join(pending) + "\n\n" + prompt.text
            if len(joined) <= MAX_TEXT:
                prompt.text = joined
            else:
                out += self._say(ctx, "\n".join(pending), lang=lang, silent=True)
        out.append(prompt)
        return out

    def _result_line(self, game: Game, state: State, now: Moment, lang: str) -> str:
        """The game's result, once: its own words for the end (`describe_turn` of the over
        state: the ranking with the figures that decided it), else the places alone (found
        play-testing, 2026-12-03: a game's end event and the table's ranking said it twice,
        the table's without a score)."""
        said = now.turn_text(lang).strip()
        if said:
            return said
        places = "; ".join(
            f"{i}. {', '.join(group)}" for i, group in enumerate(game.result(state), start=1)
        )
        return tr(lang, "Game over. Ranking: {places}", places=places)

    async def _quiet_prompt(
        self,
        ctx: Ctx,
        row: GameRow,
        state: State,
        seats: list[SeatRow],
        played: Played,
        langs: dict[str, str],
        lines: list[str],
        own: list[str] | None = None,
    ) -> list[Outbound]:
        """The live status message (edited in place: the run's lines, who acts, what is asked,
        the deadline) and, when someone must be notified, one message that asks them (their
        mention, the run's lines, the buttons), a reply to the status message. `own`: the
        run's lines in the sender's language (`_own_lang`), for the copy only he sees."""
        game = self._game_of(row)
        now = played.now(game)
        asked = [s.display_name for s in seats if s.display_name in now.current and not s.is_bot]
        notify: list[str] = []
        if asked:
            engaged = await self._engaged(row, game, played, asked)
            notify = pinged(asked, self._waiting_before(ctx, row, played), engaged)
        if notify:
            # Quiet hours, the chat's (/settings quiet=) or a player's own (/me quiet=): the
            # ask notifies nobody in them; the status message names him, and the turn's start
            # reminder, held to the end of the quiet hours, notifies him then (bot/reminders.py)
            key_of = {s.display_name: s.user_key for s in seats}
            notify = [p for p in notify if not self._quiet_now(ctx, key_of.get(p, ""))]
        # who acts, in the chat's language only (the status message is everybody's), with the
        # buttons of everyone asked
        everyone = self._mention_prompt(ctx, row, state, played.version, seats, langs, moment=now)
        asked_text = self._asked_text(everyone, asked)
        before = None if starts_a_turn(played) else played.asked_before
        due = await self._deadline_text(ctx, row, now, asked, before, played)
        reset = any(step_ends_phase(step) for step in played.steps)
        out = [self._status_message(ctx, row, lines, asked_text, due, everyone, reset)]
        if notify:
            ask = (
                everyone
                if set(notify) == set(asked)
                else self._mention_prompt(
                    ctx, row, state, played.version, seats, langs, only=notify, moment=now
                )
            )
            if played.asked_before is None and played.version - len(played.steps) <= 1:
                # The game's first run (/start): its status message is posted now, not edited,
                # and asks itself, mentioning those to notify; an ask right after it would be
                # the same text and buttons again (found on Discord: the prompt twice).
                first = out[0]
                first.text = shorten(ask.text + (f"\n{due}" if due else ""), MAX_TEXT // 2)
                first.mentions, first.silent = ask.mentions, False
                return out
            joined = "\n".join(lines) + "\n\n" + ask.text if lines else ask.text
            ask.text = joined if len(joined) <= MAX_TEXT else ask.text
            ask.reply_status = row.id
            out.append(ask)
        elif lines and ctx.inbound.platform in EPHEMERAL_PLATFORMS:
            # the one who acted sees what his move did, and nobody else is disturbed; it is
            # his alone, so in his language (`own`)
            out.append(
                Outbound(
                    ctx.reply_key or ctx.chat_key,
                    "\n".join(own if own is not None else lines),
                    sender_only=True,
                    silent=True,
                    lang=ctx.lang if own is not None else ctx.post_lang,
                )
            )
        return out

    @staticmethod
    def _asked_text(everyone: Outbound, asked: Sequence[str]) -> str:
        """Who acts and what is asked, as the status message says it: the prompt `everyone`
        in the chat's language (the prompted players' own lines go), naming `asked` without
        mentioning them (the status message pings nobody)."""
        text = everyone.text.split("\n@", 1)[0]
        for name in asked:
            text = text.replace(f"@{name}", name)
        return text

    @staticmethod
    def _waiting_before(ctx: Ctx, row: GameRow, played: Played) -> list[str] | None:
        """Who was asked before the run: its `asked_before`, and the players of the turn the
        reminder row read with the message keeps (an undo widens it with those it asked anew,
        bot/store_sql.py `carried_players`, so the move played again after an undo does not
        ping again a player asked the same thing before it)."""
        before = played.asked_before
        if before is None or ctx.loaded_for != row.id or ctx.reminder is None:
            return before
        return [*before, *(p for p in ctx.reminder.players if p not in before)]

    def _quiet_now(self, ctx: Ctx, user_key: str) -> bool:
        """Whether now falls in the chat's quiet hours or in the user's own (read with the
        message, `Ctx.prefs`)."""
        now = self.clock()
        if out_of_quiet(now, ChatSettings.load(ctx.chat_settings or {})) > now:
            return True
        own = quiet_of(ctx.prefs.get(user_key, {}))
        return quiet_end(now, own.hours, own.tz) > now

    async def _engaged(
        self, row: GameRow, game: Game, played: Played, asked: Sequence[str]
    ) -> set[str]:
        """Who has acted in the current round (bot/quiet.py): what this process remembers of
        the game at the run's first version, else the log, then the run's steps."""
        commanded = played.asked_before is not None  # a human's command began the run
        first = played.version - len(played.steps)
        remembered = self._phase_acted.get(row.id)
        if remembered is not None and remembered[0] == first:
            base = remembered[1]
        elif ends_round(played.steps):
            base = Engagement()  # the run begins a new round: what came before is gone
        else:
            base = engagement_of_log(game, await self.store.actions(row.id, last=PHASE_LOOKBACK))
        now = base.after(played.steps, commanded)
        self._phase_acted[row.id] = (played.version, now)
        while len(self._phase_acted) > PHASE_CACHE:
            self._phase_acted.pop(next(iter(self._phase_acted)))
        return set(now.engaged())

    def _status_message(
        self,
        ctx: Ctx,
        row: GameRow,
        lines: Sequence[str],
        asked: str,
        due: str | None,
        prompt: Outbound | None = None,
        reset: bool = False,
    ) -> Outbound:
        """The table's live status message: the run's lines (the sender loop adds them to the
        phase's, `reset` when a new phase began), who acts and what is asked, the deadline;
        with the prompt's buttons. Never notifies (an edit notifies nobody anyway)."""
        text = asked + (f"\n{due}" if due else "")
        return Outbound(
            ctx.chat_key,
            shorten(text, MAX_TEXT // 2),
            buttons=prompt.buttons if prompt is not None else [],
            silent=True,
            lang=ctx.post_lang,
            status_of=row.id,
            status_lines=[shorten(line, MAX_TEXT // 4) for line in lines],
            status_reset=reset,
        )
