"""/away tells the sender in words what happens to his seat here, not the setting's id, and
the end of his absence in his own time; the tables he plays at hear of it."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.deadlines import POLICIES
from bot.i18n import LANGUAGES, tr
from bot.table import Table
from tests.bot.helpers import Chat, FakeClock, Outbox, joined


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("policy", POLICIES)
async def test_away_says_the_chat_s_policy_in_words(chat: Chat, lang: str, policy: str) -> None:
    """Found playing: /away answered "Here a bot plays your seat (policy bot)." and, in a
    Russian chat, "(правило bot)": the id one types after /settings policy=."""
    await chat.say("alice", "/new dicepile start=20")
    await chat.say("alice", f"/settings policy={policy}")
    await chat.say("bob", "/join")
    await chat.say("carol", "/join")  # a person besides alice: her seat does not just wait
    await chat.say("alice", "/start")
    await chat.say("alice", f"/lang {lang}")
    text = await chat.text("alice", "/away 2h")
    named = rf"(policy|правило|reguła|規則)\s*{policy}|[(（]{policy}[)）]|\b(remind|skip)\b"
    assert not re.search(named, text), text
    assert tr(lang, "/back ends it early.") in text


async def test_away_sent_privately_says_his_own_time_and_tells_the_table(
    table: Table, clock: FakeClock, outbox: Outbox
) -> None:
    """Found by a play-tester: /away sent privately gave its end in UTC, the private chat's
    zone, to bob (/me tz=America/Los_Angeles) whose game chat is in Pacific/Auckland; and the
    table heard nothing, while /away in the group tells it. Privately it says his own zone
    (else his game chat's), and every chat he plays in hears it, silently, in its own zone;
    /back likewise."""
    clock.now = datetime(2026, 1, 14, 20, 0, tzinfo=UTC).timestamp()
    chat = Chat(table)
    await chat.say("alice", "/new dicepile start=20")
    await chat.say("alice", "/settings policy=skip tz=Pacific/Auckland")
    for name in ("bob", "carol"):
        await chat.say(name, "/join")
    await chat.say("alice", "/start")

    async def privately(user: str, text: str) -> str:
        dm = Chat(table, chat_key=f"local:dm-{user}")
        return joined(await table.handle(replace(dm.inbound(user, text), is_private=True)))

    await privately("bob", "/me tz=america/los_angeles")
    answer = await privately("bob", "/away 1d")
    assert "bob is away until Jan 15, 2026, 12:00\u202fPM (America/Los_Angeles)." in answer
    [news] = outbox.take()
    assert news.chat_key == chat.chat_key and news.silent
    assert news.text == "bob is away until Jan 16, 2026, 9:00\u202fAM (Pacific/Auckland)."
    assert "Welcome back, bob" in await privately("bob", "/back")
    [back] = outbox.take()
    assert back.chat_key == chat.chat_key and back.silent
    assert back.text == "Welcome back, bob: your seats are yours again."
    # without a zone of his own: his game chat's
    assert "(Pacific/Auckland)" in await privately("carol", "/away 2h")
    outbox.take()
    # said in the group: the group's answer, nothing more
    assert "(Pacific/Auckland)" in await chat.text("bob", "/away 1d")
    assert outbox.take() == []
