"""`/me`: a person's own time zone and quiet hours, for every table they play at.

`/me tz=Europe/Warsaw quiet=23-08` stores them with the user (users.prefs_json, migration 5);
`/me` alone shows them. A reminder for that person that falls in their quiet hours waits until
they end (bot/expiry.py `decide`); the scheduler reads the stored hours whenever it plans
a turn, so a restart keeps them. The expiry of a turn is held by the chat's quiet hours, not
by a player's own; it waits, though, a last call after his turn's first notifying reminder,
which his own hours may hold (bot/expiry.py), and every display of the deadline (the pinned
status message, /status, the reminders) says when the bot acts. A move that asks him in his
quiet hours names him without pinging him (bot/announce.py), and so does the game's result.
"""

from __future__ import annotations

from typing import Any

from bot.context import Ctx
from bot.deadlines import parse_quiet, parse_tz, quiet_of
from bot.grammar import TABLE_KIND, CommandLine, shorten
from bot.messages import Outbound
from bot.reminder_commands import DeadlineCommands, Handler
from engine.core import N_
from engine.core.protocol import ArgSpec, CommandSpec
from engine.core.sentences import join_sentences


def me_command() -> CommandSpec:
    return CommandSpec(
        "me",
        N_(
            "Your own time zone and quiet hours, for every table: /me [tz=Europe/Warsaw] "
            "[quiet=23-08|off]"
        ),
        (ArgSpec("settings", "rest", N_("key=value ..."), required=False),),
        ("/me", "/me tz=Europe/Warsaw quiet=23-08", "/me quiet=off"),
        TABLE_KIND,
    )


class MeCommands(DeadlineCommands):
    """/me, next to the chat's /settings."""

    def handlers(self) -> dict[str, Handler]:
        return {**super().handlers(), "me": self._cmd_me}

    def _me_text(self, ctx: Ctx, prefs: dict[str, Any]) -> str:
        quiet = quiet_of(prefs)
        hours = f"{quiet.hours[0]:02d}-{quiet.hours[1]:02d}" if quiet.hours else self._t(ctx, "off")
        tz = prefs.get("tz") if isinstance(prefs.get("tz"), str) else None
        return self._t(
            ctx,
            "Your time zone: {tz}; your quiet hours: {quiet}. Reminders that fall in your "
            "quiet hours wait until they end.",
            tz=tz or self._t(ctx, "not set (UTC)"),
            quiet=hours,
        )

    async def _cmd_me(self, ctx: Ctx, line: CommandLine) -> list[Outbound]:
        ib = ctx.inbound
        if not line.args:
            prefs = (await self.store.user_prefs([ib.user_key]))[ib.user_key]
            await self._remember(ctx)
            return self._mine(ctx, self._me_text(ctx, prefs))
        settings: dict[str, Any] = {}
        for item in line.args:
            key, sep, value = item.partition("=")
            key = key.casefold()
            if not sep or not value:
                return self._mine(ctx, self._t(ctx, "Write /me settings as key=value: tz, quiet."))
            if key in ("tz", "timezone"):
                tz = parse_tz(value)
                if tz is None:
                    return self._mine(
                        ctx,
                        self._t(
                            ctx,
                            "tz takes an offset like +02:00 or a zone name like Europe/Berlin.",
                        ),
                    )
                settings["tz"] = tz
            elif key == "quiet":
                quiet = parse_quiet(value)
                if isinstance(quiet, str):
                    return self._mine(
                        ctx, self._t(ctx, "quiet takes two different hours, like 22-08, or off.")
                    )
                settings["quiet"] = list(quiet) if quiet else None
            else:
                return self._mine(
                    ctx,
                    self._t(
                        ctx,
                        "Unknown setting '{key}'. /me takes tz and quiet.",
                        key=shorten(key, 24),
                    ),
                )
        games = [r.id for r in await self.store.user_games(ib.user_key, limit=200)]
        # his games' status messages as they read now, to edit those whose deadline moves
        shown = await self.table.live_statuses(games, ib.user_key)
        # his settings alone, changed in the store: what else his prefs keep (the refusal
        # of his DMs, his missed deadlines) may be written meanwhile by another task or worker
        prefs = await self.store.update_user_prefs(ib.user_key, lambda p: {**p, **settings})
        await self._remember(ctx)
        # The reminders already planned for this person are planned again with these hours.
        await self.store.replan_now(games, self.table.clock())
        await self.table.refresh_statuses(shown, ib.user_key)  # bot/status_refresh.py
        self.changed()
        return self._mine(ctx, join_sentences(self._t(ctx, "Saved."), self._me_text(ctx, prefs)))

    def _mine(self, ctx: Ctx, text: str) -> list[Outbound]:
        """An answer about the sender alone: to them alone where the platform can, silent as
        every answer (issue 17; a group /me buzzed every phone, found through Telegram,
        2026-12-05)."""
        return [Outbound(ctx.chat_key, text, sender_only=True, silent=True)]
