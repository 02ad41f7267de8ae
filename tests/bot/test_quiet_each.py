"""Each player waited for has his own schedule (bot/expiry.py): his reminders wait for his own
quiet hours whoever is asked with him, and his seat expires a last call after his own first
notice. Found by a play-tester living weeks of simulated play through Telegram (2026-12)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from bot.scheduler import Scheduler
from bot.storage import open_store
from bot.store import Store
from bot.store_outbox import OutboxItem
from engine.core import N_, IllegalAction
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock, present
from tests.bot.test_last_call import TG, joined_rows, notices_to, sent
from tests.bot.test_quiet_table import quiet_table

H = 3600.0


def at(hour: int, day: int = 15, minute: int = 0, month: int = 11, year: int = 2023) -> float:
    """A moment, UTC (FakeClock starts on Nov 14, 2023 at 22:13)."""
    return datetime(year, month, day, hour, minute, tzinfo=UTC).timestamp()


class Together(ChatDicePile):
    """Everybody takes once per round, in any order (a simultaneous phase, as Power Grid's
    bureaucracy asks every player at once)."""

    def setup(self, players: list[str], options: dict[str, str], seed: int) -> dict[str, Any]:
        state = super().setup(players, options, seed)
        state["waiting"] = list(players)
        return state

    def current_players(self, state: dict[str, Any]) -> list[str]:
        return [] if state["winner"] is not None else list(state["waiting"])

    def apply(
        self, state: dict[str, Any], player: str, action: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        if player not in state["waiting"]:
            raise IllegalAction("TOY-1", N_("It is not your turn."))
        take = action.get("take")
        if not isinstance(take, int) or not 1 <= take <= min(3, state["pile"] - 1):
            raise IllegalAction("TOY-2", N_("Take 1 to {most} stones."), most=3)
        state = json.loads(json.dumps(state))
        state["pile"] -= take
        state["waiting"].remove(player)
        if not state["waiting"]:
            state["waiting"] = list(state["players"])
        return state, [{"type": "took", "player": player, "n": take}]

    def describe_turn(self, state: dict[str, Any], player: str | None, t: Any) -> str:
        return f"{state['pile']} stones; everybody takes 1 to 3."


def stamp(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%d %H:%M")


# ---------------------------------------------------------------------- asked together
def private_notices(rows: list[OutboxItem], user: str) -> list[str]:
    return [r.body["text"] for r in notices_to(rows, user) if r.audience == f"local:{user}"]


async def test_players_asked_together_are_each_reminded_out_of_their_own_quiet_hours(
    db_url: str, clock: FakeClock
) -> None:
    """Ann in Warsaw and Bob in Taipei, both `/me quiet=23-07`, asked together at 13:00 in
    Warsaw (20:00 in Taipei), deadline 12 h, policy skip. Each reminder waited until nobody
    asked was in his quiet hours: both came at 07:00 Warsaw, Ann's 19:00 reminder held by
    Bob's night, and both expiries moved to 08:12. Now Ann is reminded at 19:00 and Bob when
    his night ends (07:00 in Taipei, 00:00 in Warsaw); Ann's seat expires at the deadline
    (01:00), Bob's a last call after his reminder (01:12)."""
    store = await open_store(db_url, clock=clock)
    table = quiet_table(store, clock, game=Together())  # type: ignore[arg-type]
    sched = Scheduler(table, clock=clock)
    chat = Chat(table, chat_key=TG, platform="telegram")
    await store.set_user("local:ann", dm_ok=True)
    await store.set_user("local:bob", dm_ok=True)
    clock.now = at(11, day=14, month=1, year=2026)
    await chat.say("ann", "/me tz=Europe/Warsaw quiet=23-07")
    await chat.say("bob", "/me tz=Asia/Taipei quiet=23-07")
    await chat.say("ann", "/new dicepile start=20")
    await chat.say("ann", "/settings deadline=12h policy=skip tz=Europe/Warsaw")
    await chat.say("bob", "/join")
    clock.now = at(12, day=14, month=1, year=2026)
    await chat.say("ann", "/start")  # both asked
    pk = present(await store.open_game(TG)).id
    told: dict[str, list[tuple[str, str]]] = {"ann": [], "bob": []}
    played: list[tuple[str, str]] = []
    while clock.now < at(0, day=15, minute=30, month=1, year=2026):
        clock.advance(360)
        await sched.run_due()
        rows = await sent(store)
        for user in told:
            told[user] += [(stamp(clock.now), text) for text in private_notices(rows, user)]
        text = joined_rows(rows)
        played += [(stamp(clock.now), u) for u in ("ann", "bob") if f"{u} ran out of time" in text]
    assert [w for w, _ in told["ann"]] == ["14 18:00"] and "6 hours left" in told["ann"][0][1]
    assert [w for w, _ in told["bob"]] == ["14 23:00"], told
    assert "1 hour 12 minutes left" in told["bob"][0][1], told
    assert played == [("15 00:00", "ann"), ("15 00:12", "bob")]
    assert [a.player for a in await store.actions(pk)] == ["ann", "bob"]
    await store.close()


async def test_the_status_message_names_each_ones_expiry_when_they_differ(
    store: Store, clock: FakeClock
) -> None:
    """The same table: the status message of the ask says when the bot acts for each, as the
    scheduler will (Bob's first reminder is planned at 00:00 in Warsaw, so his seat expires at
    01:12), and each one's /status says his own."""
    table = quiet_table(store, clock, game=Together())
    chat = Chat(table, chat_key=TG, platform="telegram")
    clock.now = at(11, day=14, month=1, year=2026)
    await chat.say("ann", "/me tz=Europe/Warsaw quiet=23-07")
    await chat.say("bob", "/me tz=Asia/Taipei quiet=23-07")
    await chat.say("ann", "/new dicepile start=20")
    await chat.say("ann", "/settings deadline=12h policy=skip tz=Europe/Warsaw")
    await chat.say("bob", "/join")
    clock.now = at(12, day=14, month=1, year=2026)
    await sent(store)
    await chat.say("ann", "/start")
    text = joined_rows([r for r in await sent(store) if "Deadline" in r.body.get("text", "")])
    assert "ann: Jan 15, 2026, 1:00" in text and "bob: Jan 15, 2026, 1:12" in text, text
    assert "(Europe/Warsaw)" in text
    assert "Deadline: in 12 hours." in await chat.text("ann", "/status")
    assert "Deadline: in 12 hours 12 minutes." in await chat.text("bob", "/status")
