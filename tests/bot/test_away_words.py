"""/away tells the sender in words what happens to his seat here, not the setting's id."""

from __future__ import annotations

import re

import pytest

from bot.deadlines import POLICIES
from bot.i18n import LANGUAGES, tr
from tests.bot.helpers import Chat


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
