"""Announcements: the lines, pictures and prompt a run of moves leaves in the chat."""

from __future__ import annotations

import json
import logging

from bot.context import (
    BUTTONS_PER_ROW,
    MAX_BUTTONS,
    Ctx,
    Played,
)
from bot.grammar import (
    MAX_CAPTION,
    MAX_TEXT,
    shorten,
)
from bot.i18n import tr, translator
from bot.messages import MAX_PAYLOAD_BYTES, Button, Outbound
from bot.store import (
    GameRow,
    SeatRow,
)
from bot.table_base import TableBase
from bot.workers import cpu
from engine.core.protocol import Event, Game, State

log = logging.getLogger(__name__)


class AnnounceMixin(TableBase):
    """What a move makes the chat read: event lines, pictures, the prompt with buttons."""

    def _mention_prompt(
        self,
        ctx: Ctx,
        row: GameRow,
        state: State,
        version: int,
        seats: list[SeatRow],
        langs: dict[str, str] | None = None,
        lang: str | None = None,
    ) -> Outbound:
        """Whose move and what is expected, in the chat's language, mentioning the humans who
        must act, with buttons; a prompted player who reads another language gets their own
        line in it under the chat's (`langs`: display name -> language). `lang`: another
        language for the whole prompt (an answer to one person's /status)."""
        game = self._game_of(row)
        lang = lang or ctx.post_lang
        current = list(game.current_players(state))
        humans = [s for s in seats if s.display_name in current and not s.is_bot]
        text = game.describe_turn(state, None, translator(lang)).strip()
        if humans:
            text = ", ".join(f"@{s.display_name}" for s in humans) + ": " + text
        own: dict[str, list[str]] = {}
        for seat in humans:
            theirs = (langs or {}).get(seat.display_name, lang)
            if theirs != lang:
                own.setdefault(theirs, []).append(f"@{seat.display_name}")
        for theirs, names in own.items():
            line = game.describe_turn(state, None, translator(theirs)).strip()
            if line:
                text += "\n" + ", ".join(names) + ": " + line
        rows = self._buttons(row.id, version, game, state, [s.display_name for s in humans], lang)
        return Outbound(
            ctx.chat_key,
            text or tr(lang, "Waiting for the next move."),
            buttons=rows,
            mentions=[(s.user_key, s.display_name) for s in humans],
            lang=lang,
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
                Button(tr(ctx.post_lang, "Join"), f"{pk}:0:/join"),
                Button(tr(ctx.post_lang, "Add a bot"), f"{pk}:0:/addbot"),
                Button(tr(ctx.post_lang, "Start"), f"{pk}:0:/start"),
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
        return Outbound(ctx.chat_key, shorten(caption, MAX_CAPTION), png=png, lang=ctx.post_lang)

    def _caption(self, game: Game, state_json: str, event: Event, lang: str) -> str:
        """A picture's caption in `lang`: the picture event's own line (the game's words, as
        "End of phase: auction"), else the board, never a raw phase id."""
        try:
            line = (
                game.describe_event(json.loads(state_json), event, translator(lang)) or ""
            ).strip()
        except Exception:
            log.exception("describe_event failed for a picture event")
            line = ""
        return tr(lang, "Board: {what}", what=line) if line else tr(lang, "The board")

    async def _announce(
        self, ctx: Ctx, row: GameRow, seats: list[SeatRow], played: Played
    ) -> list[Outbound]:
        """Event lines, a picture after each picture event, then the prompt or the result."""
        game = self._game_of(row)
        lang = ctx.post_lang
        langs = await self._langs_of(ctx, seats)
        lang_of = {s.user_key: langs.get(s.display_name, lang) for s in seats}
        out: list[Outbound] = []
        pending: list[str] = []
        secrets_out: list[Outbound] = []
        for step in played.steps:
            pending += step.lines
            secrets_out += [
                Outbound(ctx.chat_key, text, private_to=user_key, lang=lang_of.get(user_key))
                for user_key, text in step.private
            ]
            for event in step.picture_events[:1]:
                if pending:
                    out += self._say(ctx, "\n".join(pending), lang=lang)
                    pending = []
                pic = await self._picture(
                    ctx, game, step.state_json, self._caption(game, step.state_json, event, lang)
                )
                if pic is not None:
                    out.append(pic)
        if played.error:
            pending.append(
                tr(lang, "A computer player could not move; a human message will let it try again.")
            )
        state = played.state
        if game.is_over(state):
            ranking = game.result(state)
            places = "; ".join(
                f"{i}. {', '.join(group)}" for i, group in enumerate(ranking, start=1)
            )
            pending.append(tr(lang, "Game over. Ranking: {places}", places=places))
            out += self._say(ctx, "\n".join(pending), lang=lang)
            return out + secrets_out
        out += secrets_out
        prompt = self._mention_prompt(ctx, row, state, played.version, seats, langs)
        if pending:
            joined = "\n".join(pending) + "\n\n" + prompt.text
            if len(joined) <= MAX_TEXT:
                prompt.text = joined
            else:
                out += self._say(ctx, "\n".join(pending), lang=lang)
        out.append(prompt)
        return out
