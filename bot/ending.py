"""The end of a game and what a table remembers (issues 24 and 25): the game-over card, the
charts and the replay through the outbox, /replay, /stats, /hint.

The end of a game: the move that ends it writes, in its own transaction, one instruction row
(`Outbound.render` = {"what": "end", ...}) rather than megabytes of pictures; the platform's
sender loop turns it into the card, the charts and the animation at send time, rendered in
the worker pool (bot/workers.py), and delivers them in order. A delivery that must wait
(flood control) resumes after the pieces already sent.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot import records
from bot.announce import AnnounceMixin
from bot.cards.ending import EndPictures, Replay, end_of_game, replay_pictures
from bot.context import Ctx
from bot.deadlines import ChatSettings
from bot.grammar import MAX_CAPTION, CommandLine, shorten
from bot.i18n import tr, translator
from bot.info import in_chat_lang
from bot.messages import Outbound
from bot.outbox import Deliver, PicturesRefused, Undeliverable
from bot.store import FinishedGame, GameRow
from bot.workers import cpu
from engine.core import N_, IllegalAction, Reply, canonical_json, load_state, search
from engine.core.protocol import Action, Game, State, Translator
from engine.core.search import ENV_BUDGET, Budget, parse_budget

log = logging.getLogger(__name__)

# Attachments: Discord's limit for every server (free tier), and the cap for all.
DISCORD_MAX_BYTES = 8 * 1024 * 1024
MAX_FILE_BYTES = 10 * 1024 * 1024
# /hint thinks at most this long unless BOARDCHAT_BOT_BUDGET says otherwise: a cap, as a
# game's hint stops at its strong module's HINT_ITERATIONS rollouts well before it on a
# machine that is not overloaded (engine/core/game_base.py `with_hint_rollouts`).
HINT_SECONDS = 3.0

HintFn = Callable[..., tuple[Action, str] | None]

# A seat the game put out before its end (`Game.eliminated`: HEX-2.4, IEC-S-24), answering a
# move or /hint: before, "Not your turn", as if his turn would come (found playing Hexania).
OUT_OF_THE_GAME = N_("You are out of this game; /status shows how it goes on.")


def has_pictures(game: Game) -> bool:
    """The end-of-game pictures need the game's figures (engine/<game>/logtext.py)."""
    return bool(game.series)


def replay_file(replay: Replay, platform: str) -> tuple[bytes, str] | None:
    """The animation a platform gets: Telegram an MP4 (sendAnimation) or else the GIF (as a
    document); Discord the WebP or else the GIF within its attachment limit."""
    if platform == "discord":
        choices: list[tuple[bytes | None, str]] = [
            (replay.webp, "replay.webp"),
            (replay.gif, "replay.gif"),
        ]
        limit = DISCORD_MAX_BYTES
    else:
        choices = [(replay.mp4, "replay.mp4"), (replay.gif, "replay.gif")]
        limit = MAX_FILE_BYTES
    for data, name in choices:
        if data is not None and len(data) <= limit:
            return data, name
    return None


def hint_function(game: Game) -> HintFn:
    """The game's declared `hint(state, player, t, rng=None, budget=None)` (None from it: the
    game has no hints)."""
    return game.hint


def hint_budget() -> Budget:
    """A short budget for /hint: the search's override (tests), else BOARDCHAT_BOT_BUDGET
    when set, else one second."""
    if search.override is not None:
        return search.override
    text = os.environ.get(ENV_BUDGET)
    if text:
        try:
            return parse_budget(text)
        except ValueError:
            log.warning("%s=%r is not a budget; /hint thinks %g s", ENV_BUDGET, text, HINT_SECONDS)
    return Budget(seconds=HINT_SECONDS)


def finished(games: Sequence[Game | None], rows: Sequence[FinishedGame]) -> list[records.Finished]:
    """Finished games as records.Finished, rankings by user key (from each final state)."""
    out: list[records.Finished] = []
    for game, item in zip(games, rows, strict=True):
        if game is None or not item.row.state_json:
            continue
        try:
            ranking = game.result(load_state(item.row.state_json))
        except Exception:
            log.exception("result of finished game %s failed", item.row.id)
            continue
        key = {s.display_name: s.user_key for s in item.seats}
        out.append(
            records.Finished(
                item.row.game_id, [[key.get(name, name) for name in group] for group in ranking]
            )
        )
    return out


class EndingMixin(AnnounceMixin):
    """The game-over pictures (through the outbox), /replay, /stats and /hint."""

    # Render instructions being delivered: outbox id -> (the rendered messages, how many of
    # them went out), so a retried row resumes after the pieces already sent.
    _rendered: dict[int, tuple[list[Outbound], int]]

    def _game_over(
        self, ctx: Ctx, row: GameRow, game: Game, state: State, over: bool | None = None
    ) -> list[Outbound]:
        """The instruction row for the game-over card, charts and replay (when the game just
        ended, pictures are on, and the game has figures to draw); `over`: known already."""
        if not self.render:
            return []
        if not ((game.is_over(state) if over is None else over) and has_pictures(game)):
            return []
        return [
            Outbound(
                ctx.chat_key,
                tr(ctx.post_lang, "{game}: game over", game=tr(ctx.post_lang, game.name)),
                render={"what": "end", "game": row.id, "lang": ctx.post_lang},
                lang=ctx.post_lang,
                silent=True,
            )
        ]

    async def _deliver_rendered(self, platform: str, out: Outbound, deliver: Deliver) -> str | None:
        if not hasattr(self, "_rendered"):
            self._rendered = {}
        key = out.outbox_id if out.outbox_id is not None else id(out)
        if key in self._rendered:
            outs, done = self._rendered[key]
        else:
            try:
                outs = await self._render_instruction(platform, out)
            except Exception as err:
                log.exception("rendering %r for %s failed", out.render, out.chat_key)
                raise Undeliverable(f"rendering failed: {err!r}") from err
            done = 0
        message_id: str | None = None
        for index in range(done, len(outs)):
            self._rendered[key] = (outs, index)
            try:
                message_id = await deliver(outs[index])
            except PicturesRefused:
                self._rendered.pop(key, None)  # the sender loop posts the row's text alone
                raise
        self._rendered.pop(key, None)
        return message_id

    async def _render_instruction(self, platform: str, out: Outbound) -> list[Outbound]:
        """The messages of a render instruction: the card, the charts, the animation."""
        render = out.render or {}
        row = await self.store.game(int(render.get("game", 0)))
        if render.get("what") != "end" or row is None or row.game_id not in self.games:
            return []
        game = self._game_of(row)
        t = translator(str(render.get("lang") or self.default_lang))
        seats = await self.store.seats(row.id)
        actions = [(a.player, a.action) for a in await self.store.actions(row.id)]
        pictures: EndPictures = await cpu(
            end_of_game,
            game,
            [s.display_name for s in seats],
            dict(row.options),
            int(row.seed or 0),
            actions,
            t,
        )
        base = replace(out, render=None, text="", png=None, buttons=[], mentions=[])
        outs = [
            replace(base, text=shorten(out.text, MAX_CAPTION), png=pictures.card),
            replace(
                base,
                text=t.gettext("{game}: the game round by round").format(game=t.gettext(game.name)),
                png=pictures.charts,
            ),
        ]
        media = replay_file(pictures.replay, platform)
        if media is not None:
            outs.append(
                replace(
                    base,
                    text=t.gettext("{game}: the replay").format(game=t.gettext(game.name)),
                    file=media[0],
                    filename=media[1],
                )
            )
        return outs

    # ------------------------------------------------------------------ /replay
    async def _cmd_replay(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        """The animation of the board pictures so far (during the game or after it)."""
        row = ctx.game or await self.store.last_game(ctx.chat_key)
        if row is None or row.game_id not in self.games:
            return self._no_game(ctx)
        await self._remember(ctx)
        game = self._game_of(row)
        if row.status == "lobby" or row.state_json is None:
            return self._say(ctx, self._t(ctx, "The game has not started yet."))
        if not self.render or not has_pictures(game):
            return self._say(ctx, self._t(ctx, "Pictures are switched off here."))
        seats = ctx.seats if ctx.game is not None else await self.store.seats(row.id)
        actions = [(a.player, a.action) for a in await self.store.actions(row.id)]
        try:
            replay, _, _ = await cpu(
                replay_pictures,
                game,
                [s.display_name for s in seats],
                dict(row.options),
                int(row.seed or 0),
                actions,
                translator(ctx.post_lang),  # a group post: the chat's language (issue 18)
            )
        except Exception:
            log.exception("replay of game %s failed", row.id)
            return self._say(ctx, self._t(ctx, "Sorry, I could not draw the board just now."))
        media = replay_file(replay, ctx.inbound.platform)
        if media is None:
            return self._say(ctx, self._t(ctx, "The replay is too large to send here."))
        caption = self._tp(ctx, "{game}: the replay", game=tr(ctx.post_lang, game.name))
        return [
            Outbound(ctx.chat_key, caption, file=media[0], filename=media[1], lang=ctx.post_lang)
        ]

    # ------------------------------------------------------------------ /stats
    @in_chat_lang
    async def _cmd_stats(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        """/stats: the chat's leaderboard over its finished games; /stats @user (or a name):
        that player's record here, per game."""
        await self._remember(ctx)
        rows = await self.store.finished_games(chat_key=ctx.chat_key)
        names: dict[str, str] = {}
        for item in reversed(rows):  # the newest name wins
            for seat in item.seats:
                names[seat.user_key] = seat.display_name
        who: str | None = None
        if line.args:
            wanted = " ".join(line.args).lstrip("@").strip().casefold()
            who = next((k for k, n in names.items() if n.casefold() == wanted), None)
            if who is None and ctx.inbound.user_key in names and wanted == "me":
                who = ctx.inbound.user_key
            if who is None:
                return self._refuse(
                    ctx,
                    self._t(
                        ctx,
                        "{name} has not finished a game here yet.",
                        name=shorten(" ".join(line.args), 32),
                    ),
                )
        games = [self.games.get(item.row.game_id) for item in rows]
        stats = records.aggregate(finished(games, rows))
        text = records.format_stats(
            stats,
            translator(ctx.lang),
            who=who,
            names=names,
            game_names={g.id: g.name for g in self.games.values()},
        )
        return self._say(ctx, text)

    # ------------------------------------------------------------------ /hint
    async def _cmd_hint(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        """The move the strong bot would make for the asker, with its one-line reason, told
        to the asker alone; the search runs in the worker pool with a short budget."""
        row = ctx.game
        if row is None or row.game_id not in self.games:
            return await self._no_game_here(ctx)
        await self._remember(ctx)
        if not ChatSettings.load(ctx.chat_settings or {}).hints:
            return self._refuse(ctx, self._t(ctx, "Hints are switched off at this table."))
        if row.status != "active" or row.state_json is None:
            return self._refuse(ctx, self._t(ctx, "The game has not started yet."))
        seat = ctx.seat()
        if seat is None:
            return self._refuse(ctx, self._t(ctx, "You are not playing in this game."))
        game = self._game_of(row)
        state: State = load_state(row.state_json)
        if seat.display_name in game.eliminated(state):  # a refusal: silent, as the others
            return self._refuse(ctx, self._t(ctx, OUT_OF_THE_GAME))
        if seat.display_name not in game.current_players(state):
            return self._private(ctx, self._t(ctx, "Not your turn: no hint needed yet."))
        fn = hint_function(game)
        t = translator(ctx.lang)
        try:
            found = await cpu(_think, fn, state, seat.display_name, t, hint_budget())
        except Exception:
            log.exception("hint in game %s failed", row.id)
            return self._refuse(ctx, self._t(ctx, "Sorry, no hint just now."))
        if found is None:
            return self._refuse(ctx, self._t(ctx, "This game has no hints."))
        action, why = found
        log.debug("hint for %s in game %s: %s", seat.display_name, row.id, canonical_json(action))
        command = _command_of(game, state, seat.display_name, action)
        if command is not None and not why.startswith("/"):
            # what to type, as Hexania's and IEC's reasons begin (found playing, 2026-12-04:
            # "Hint: Choose region E" named no command)
            why = f"{command} — {why}"
        return self._private(ctx, self._t(ctx, "Hint: {why}", why=why))

    def _private(self, ctx: Ctx, text: str) -> list[Outbound]:
        """For the asker alone: a private message (an ephemeral reply on Discord), silent (the
        asker is reading; found through Telegram, 2026-12-04: a /hint typed in the group
        buzzed his phone)."""
        return [
            Outbound(
                ctx.chat_key, text, private_to=ctx.inbound.user_key, sender_only=True, silent=True
            )
        ]


def _command_of(game: Game, state: State, player: str, action: Action) -> str | None:
    """The command of one of the player's buttons that gives `action`, if one does."""
    wanted = canonical_json(action)
    for _label, command in game.buttons(state, player):
        name, *args = command.lstrip("/").split()
        try:
            parsed = game.parse(state, player, name, args)
        except IllegalAction:
            continue
        if not isinstance(parsed, (list, Reply)) and canonical_json(parsed) == wanted:
            return command
    return None


def _think(fn: HintFn, state: State, player: str, t: Translator, budget: Budget) -> Any:
    return fn(state, player, t, budget=budget)
