"""The table service as the platform adapters see it (implemented by bot/table.py).

Adapters (bot/platforms/*) depend on this protocol only, so they can be tested with a fake.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from bot.messages import Inbound, Outbound
from engine.core.protocol import CommandSpec

Sender = Callable[[Outbound], Awaitable[None]]


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
        """Autocomplete for an argument kind ("city", "plant", ...) in this chat's game."""
        ...

    def register_sender(self, platform: str, send: Sender) -> None:
        """How the table pushes messages nobody asked for (reminders, a bot's move, DMs)."""
        ...
