"""The table service as the platform adapters see it (implemented by bot/table.py).

Adapters (bot/platforms/*) depend on this protocol only, so they can be tested with a fake.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from bot.messages import Inbound, Outbound
from bot.outbox import Deliver
from engine.core.protocol import CommandSpec

Sender = Callable[[Outbound], Awaitable[None]]


class PlatformError(Exception):
    """A platform that cannot run, said in one line for the admin (never with the token).
    `config`: a setting is wrong (a rejected token, the webhook's port taken), so a restart
    cannot help; otherwise the platform was not reachable and may be later."""

    def __init__(self, message: str, *, config: bool) -> None:
        super().__init__(message)
        self.config = config


# `complete` kind for the free text typed after a command (see TableService.complete).
ARGS_KIND = "args:"
# An autocomplete answer is a whole option value: Discord takes at most 100 characters.
MAX_COMPLETION = 100


def args_kind(command: str, start: int = 0) -> str:
    """The `complete` kind for the words typed after `/command`: "args:build"; when the text
    begins at the command's argument number `start` (a "rest" option of its own),
    "args:build:2"."""
    return f"{ARGS_KIND}{command}" + (f":{start}" if start else "")


def parse_args_kind(kind: str) -> tuple[str, int] | None:
    """("build", 0) for "args:build", ("bid", 2) for "args:bid:2"; None for another kind."""
    if not kind.startswith(ARGS_KIND):
        return None
    command, _, start = kind[len(ARGS_KIND) :].partition(":")
    if not command or (start and not start.isdigit()):
        return None
    return command, int(start or 0)


class TableService(Protocol):
    async def handle(self, inbound: Inbound) -> list[Outbound]:
        """One chat message or button press in; the replies out. Never raises."""
        ...

    def command_specs(self) -> Sequence[CommandSpec]:
        """Every command a chat may use: the table's own, then each game's (first spec of a name
        wins; games sharing a name take free text after it). Drives Telegram's menu and Discord's
        slash commands."""
        ...

    def command_menu(self, lang: str | None) -> list[tuple[str, str]]:
        """(command, translated one-line description) for Telegram's set_my_commands."""
        ...

    async def complete(self, chat_key: str, user_key: str, kind: str, prefix: str) -> list[str]:
        """Autocomplete in this chat's game.

        For an argument kind ("city", "plant", ...): candidates for `prefix` as a value.

        For `args_kind(command)` ("args:build"): `prefix` is the free text typed after
        `/command` (a command several games share takes free text). The chat's own game's
        spec of that command decides, by position, which argument the last word is for
        (repeated and "rest" arguments absorb the words after them; key=value words are
        skipped; a name of several words is completed from its first words). The answers
        are whole texts, the typed text with its last word(s) completed ("Berlin Ham" ->
        "Berlin Hamburg"), at most MAX_COMPLETION characters each. "args:command:n" says
        the text starts at the command's argument n. Nothing for the table's own commands
        or a chat without a game. At most 25 answers; never raises."""
        ...

    def register_sender(self, platform: str, send: Sender) -> None:
        """How the table pushes messages nobody asked for on a platform without an outbox
        sender loop (the terminal, tests)."""
        ...

    def register_delivery(
        self, platform: str, deliver: Deliver, *, hold_replies: float = 0.0
    ) -> object:
        """The platform can deliver now: the table starts its outbox sender loop
        (bot/outbox.py), which delivers every queued message of that platform in order.
        `hold_replies` > 0: the public answers to a command in its own chat wait that long in
        the outbox, for the adapter to deliver them as replies and report them `delivered`."""
        ...

    async def delivered(self, outbox_id: int, message_id: str | None) -> None:
        """An adapter delivered a held outbox row itself (see `register_delivery`)."""
        ...

    async def keep_update(self, platform: str, update_id: str, payload: str) -> None:
        """Keep an incoming update (the platform's own JSON) in the inbox before the platform
        is told it arrived."""
        ...

    async def update_done(self, platform: str, update_id: str) -> None:
        """The update was handled; the inbox forgets it."""
        ...

    async def pending_updates(self, platform: str) -> list[tuple[str, str]]:
        """(update id, payload) of updates kept but not handled (a crash, a stop): handled
        again at start-up, once."""
        ...
