"""Small helpers for driving the table service in tests: a fake clock and chat users."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TypeVar

import pytest

from bot.messages import Inbound, Outbound
from bot.table import Table

CHAT = "local:test"

T = TypeVar("T")


def present(value: T | None) -> T:
    """`value`, asserted not None: a lookup in a test that must find something (mypy knows it)."""
    assert value is not None
    return value


@dataclass
class FakeClock:
    now: float = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


_ids = itertools.count(1)


@dataclass
class Chat:
    """One chat as seen by several users; `say` sends a line as one of them."""

    table: Table
    chat_key: str = CHAT
    platform: str = "local"
    admins: set[str] = field(default_factory=set)

    def inbound(
        self,
        user: str,
        text: str | None = None,
        payload: str | None = None,
        update_id: str | None = None,
    ) -> Inbound:
        return Inbound(
            platform=self.platform,
            chat_key=self.chat_key,
            user_key=f"local:{user.lower()}",
            display_name=user,
            update_id=update_id if update_id is not None else f"u{next(_ids)}",
            text=text,
            payload=payload,
            is_admin=user in self.admins,
        )

    async def say(self, user: str, text: str, **kw: object) -> list[Outbound]:
        return await self.table.handle(self.inbound(user, text=text, **kw))  # type: ignore[arg-type]

    async def press(self, user: str, payload: str) -> list[Outbound]:
        return await self.table.handle(self.inbound(user, payload=payload))

    async def text(self, user: str, line: str) -> str:
        return "\n".join(o.text for o in await self.say(user, line))


class Outbox:
    """The table's sender for the "local" platform: collects what the scheduler pushes."""

    def __init__(self, table: Table) -> None:
        self.sent: list[Outbound] = []
        table.register_sender("local", self.send)

    async def send(self, out: Outbound) -> None:
        self.sent.append(out)

    def take(self) -> list[Outbound]:
        out, self.sent = self.sent, []
        return out


def joined(outs: list[Outbound]) -> str:
    return "\n".join(o.text for o in outs)


def payloads(outs: list[Outbound]) -> list[str]:
    return [b.payload for o in outs for row in o.buttons for b in row]


def skip_end_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """`boardchat demo` without drawing its end pictures: the game-over card, the charts and the
    replay (every phase picture drawn again, then WebP, GIF and MP4) took 17 of a Power Grid
    demo's 20 s. For the tests that read only the demo's log, board pictures and summary; those
    pictures are checked by tests/bot/test_demo_end_pictures.py (every game) and
    tests/bot/test_cards.py (another language). The summary still names them, with 0 frames."""
    from types import SimpleNamespace

    from bot import demo

    none = SimpleNamespace(card=b"", charts=b"", webp=b"", gif=b"", mp4=None, frames=0)
    monkeypatch.setattr(demo, "end_of_game", lambda *args, **kwargs: none)
