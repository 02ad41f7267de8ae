"""The store as the bot sees it: a Protocol that the SQLite store (bot/store.py) implements and
any other backend (PostgreSQL) implements too. The row types live in bot/store.py,
bot/store_outbox.py and bot/store_plans.py and are shared by every backend.

`MessageStore` is the part the outbox sender loop (bot/outbox.py) needs. `SharedStore` is
what a store shared by several worker processes (PostgreSQL) adds: leased due turns and
wake-ups across processes; the scheduler uses it when the store has it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, runtime_checkable

from bot.store import (
    ActionRow,
    ChatRow,
    CommitResult,
    Due,
    GameRow,
    LogEntry,
    Outcome,
    SeatRow,
    TurnReads,
    UserRow,
)
from bot.store_chats import ChatName
from bot.store_load import Loaded
from bot.store_outbox import OutboxItem, OutRow, StatusMessage
from bot.store_plans import (
    AutopilotRow,
    DigestRow,
    PrefsChange,
    Progress,
    ReminderRow,
    TurnPlan,
)
from bot.store_records import FinishedGame


class MessageStore(Protocol):
    """Inbox and outbox (the durable message path)."""

    async def outbox_due(self, platform: str, now: float, limit: int = 500) -> list[OutboxItem]: ...

    async def outbox_next_at(self, platform: str) -> float | None: ...

    async def outbox_sent(self, item_id: int, message_id: str | None) -> None: ...

    async def outbox_retry(self, item_id: int, next_at: float, error: str) -> None: ...

    async def outbox_failed(self, item_id: int, reason: str) -> None: ...

    async def status_message(self, game_id: int) -> StatusMessage | None: ...

    async def set_status_message(
        self, game_id: int, chat_key: str, message_id: str, lines: Sequence[str] = ()
    ) -> None: ...


class Store(MessageStore, Protocol):
    """Everything the table, the reminders, the scheduler and the adapters ask of storage."""

    path: str

    async def actions(self, pk: int, last: int | None = None) -> list[ActionRow]: ...

    async def add_seat(
        self,
        pk: int,
        user_key: str,
        wanted_name: str,
        *,
        max_players: int,
        is_bot: bool = False,
        bot_kind: str | None = None,
        lang: str | None = None,
        inbound: tuple[str, str] | None = None,
    ) -> tuple[Outcome, str]: ...

    async def add_vote(self, pk: int, target: str, voter: str) -> list[str]: ...

    async def autopilots(self, pk: int) -> list[AutopilotRow]: ...

    async def away_until(self, user_keys: Sequence[str], now: float) -> dict[str, float]: ...

    async def chat(self, chat_key: str) -> ChatRow: ...

    async def chat_names(self, chat_keys: Sequence[str]) -> dict[str, ChatName]: ...

    async def load_message(
        self, chat_key: str, user_key: str, inbound: tuple[str, str] | None = None
    ) -> Loaded: ...

    async def claim_digest(
        self, seen: DigestRow, next_at: float, outbox: Sequence[OutRow] = ()
    ) -> bool: ...

    async def claim_turn(
        self,
        seen: TurnPlan,
        done_until: float | None,
        next_at: float | None,
        outbox: Sequence[OutRow] = (),
        notified_at: float | None = None,
        progress: Mapping[str, Progress] | None = None,
    ) -> bool: ...

    async def clear_away(self, user_key: str) -> bool: ...

    async def clear_digest(self, user_key: str) -> bool: ...

    async def clear_votes(self, pk: int, target: str) -> int: ...

    async def close(self) -> None: ...

    async def commit_moves(
        self,
        pk: int,
        expected_version: int,
        entries: Sequence[LogEntry],
        state_json: str,
        *,
        over: bool,
        due: Due | None,
        inbound: tuple[str, str] | None = None,
        outbox: Sequence[OutRow] = (),
        pressed: str | None = None,
    ) -> CommitResult: ...

    async def create_game(
        self,
        chat_key: str,
        game_id: str,
        options: dict[str, str],
        creator: str,
        first_seat: tuple[str, str, str | None] | None,
        inbound: tuple[str, str] | None = None,
    ) -> tuple[Outcome, int]: ...

    async def digest(self, user_key: str) -> DigestRow | None: ...

    async def due_digests(self, now: float, limit: int = 100) -> list[DigestRow]: ...

    async def due_reminders(self, now: float, limit: int = 100) -> list[ReminderRow]: ...

    async def due_turns(self, now: float, limit: int = 100) -> list[TurnPlan]: ...

    async def end_autopilot(
        self, pk: int, user_key: str, outbox: Sequence[OutRow] = ()
    ) -> bool: ...

    async def end_game(
        self,
        pk: int,
        expected_version: int | None,
        status: str,
        inbound: tuple[str, str] | None = None,
        outbox: Sequence[OutRow] = (),
    ) -> CommitResult: ...

    async def ended_autopilots(self, now: float, limit: int = 100) -> list[AutopilotRow]: ...

    async def game(self, pk: int) -> GameRow | None: ...

    def game_lock(self, pk: int) -> AbstractAsyncContextManager[None]: ...

    async def inbox_done(self, platform: str, update_id: str) -> None: ...

    async def inbox_pending(self, platform: str, limit: int = 1000) -> list[tuple[str, str]]: ...

    async def inbox_put(self, platform: str, update_id: str, payload: str) -> bool: ...

    async def last_game(self, chat_key: str) -> GameRow | None: ...

    async def next_wake(self) -> float | None: ...

    async def open_game(self, chat_key: str) -> GameRow | None: ...

    async def outbox(
        self, chat_key: str | None = None, status: str | None = None
    ) -> list[OutboxItem]: ...

    async def outbox_add(self, rows: Sequence[OutRow]) -> list[int]: ...

    async def outbox_due(self, platform: str, now: float, limit: int = 500) -> list[OutboxItem]: ...

    async def outbox_failed(self, item_id: int, reason: str) -> None: ...

    async def outbox_next_at(self, platform: str) -> float | None: ...

    async def outbox_retry(self, item_id: int, next_at: float, error: str) -> None: ...

    async def outbox_sent(self, item_id: int, message_id: str | None) -> None: ...

    async def pictures_refused(self, chat_key: str) -> float | None: ...

    async def prune_inbound(self) -> None: ...

    async def prune_messages(self) -> None: ...

    async def record_inbound(self, platform: str, update_id: str) -> bool: ...

    async def reminder(self, pk: int) -> ReminderRow | None: ...

    async def remove_seat(
        self, pk: int, user_key: str, inbound: tuple[str, str] | None = None
    ) -> Outcome:
        """A lobby's seat given up or taken away; the creator's seat passes the creator's
        part to the first person still seated, if any."""
        ...

    async def replan_now(self, pks: Sequence[int], now: float) -> None: ...

    async def schema_version(self) -> int: ...

    async def seats(self, pk: int) -> list[SeatRow]: ...

    async def seen(self, platform: str, update_id: str) -> bool: ...

    async def set_away(self, user_key: str, until: float) -> None: ...

    async def set_chat_lang(self, chat_key: str, lang: str | None) -> None: ...

    async def set_chat_name(self, chat_key: str, title: str | None, link: str | None) -> None: ...

    async def set_chat_settings(self, chat_key: str, settings: dict[str, Any]) -> None: ...

    async def set_pictures_refused(
        self, chat_key: str, at: float | None, note: OutRow | None = None
    ) -> bool: ...

    async def set_digest(
        self, user_key: str, chat_key: str, hour: int, tz: str, next_at: float
    ) -> None: ...

    async def set_seat_bot(
        self, pk: int, user_key: str, is_bot: bool, bot_kind: str | None
    ) -> None: ...

    async def set_user(
        self, user_key: str, lang: str | None = None, dm_ok: bool | None = None
    ) -> None: ...

    async def started_at(self, pk: int) -> float | None: ...

    async def start_autopilot(
        self, pk: int, user_key: str, reason: str, until: float | None, bot_kind: str
    ) -> bool: ...

    async def start_game(
        self,
        pk: int,
        seed: int,
        seat_names: list[str],
        state_json: str,
        due: Due | None,
        inbound: tuple[str, str] | None = None,
        *,
        entries: Sequence[LogEntry] = (),
        over: bool = False,
        outbox: Sequence[OutRow] = (),
    ) -> CommitResult: ...

    async def turn_plan(self, pk: int) -> TurnPlan | None: ...

    async def turn_reads(self, pk: int, now: float) -> TurnReads: ...

    async def undo_last(
        self,
        pk: int,
        expected_version: int,
        from_seq: int,
        state_json: str,
        due: Due | None,
        inbound: tuple[str, str] | None = None,
        outbox: Sequence[OutRow] = (),
        keep: Sequence[int] = (),
    ) -> CommitResult: ...

    async def update_user_prefs(
        self, user_key: str, change: PrefsChange, outbox: Sequence[OutRow] = ()
    ) -> dict[str, Any]: ...

    async def user(self, user_key: str) -> UserRow: ...

    async def user_prefs(self, user_keys: Sequence[str]) -> dict[str, dict[str, Any]]: ...

    async def user_autopilots(self, user_key: str) -> list[AutopilotRow]: ...

    async def user_games(self, user_key: str, limit: int = 20) -> list[GameRow]: ...

    async def recent_games(self, limit: int = 50) -> list[GameRow]:
        """The games last changed, newest first (`boardchat export` lists them)."""
        ...

    async def finished_games(
        self, chat_key: str | None = None, user_key: str | None = None, limit: int = 1000
    ) -> list[FinishedGame]: ...

    async def users(self, user_keys: Sequence[str]) -> dict[str, UserRow]: ...

    async def votes_against(self, pk: int, target: str) -> list[str]: ...


@runtime_checkable
class SharedStore(Protocol):
    """A store several worker processes share (bot/store_pg.py)."""

    async def lease_due_turns(
        self, now: float, limit: int = 100, lease: float = ...
    ) -> list[TurnPlan]: ...

    async def listen_wake(self, callback: Callable[[], None]) -> None: ...

    async def listen_outbox(self, callback: Callable[[str], None]) -> None: ...

    def deliver_here(self, platform: str) -> None: ...
