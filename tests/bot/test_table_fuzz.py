"""Fuzz: random commands and button payloads from random users in random chats.

The table never raises, every reply is non-empty and fits Discord's 2000 characters, and a
message that is not one of the few state-changing commands changes nothing.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.messages import Inbound
from bot.store import Store
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import FakeClock

CHATS = ["local:a", "tg:-100", "dc:55"]
USERS = ["alice", "bob", "carol", "dave"]
# Commands that may change what is stored; everything else must leave it as it was.
CHANGING = {"new", "join", "leave", "addbot", "start", "take", "takes", "undo", "abort", "lang"}
NAMES = sorted(
    CHANGING
    | {"status", "board", "log", "help", "rules", "games", "pile", "peek", "nope", "settings"}
)

words = st.one_of(
    st.integers(-5, 30).map(str),
    st.sampled_from(["dicepile", "confirm", "start=20", "start=7", "x=1", "greedy", "ru", "@b"]),
    st.text(min_size=0, max_size=12),
)
command_text = st.builds(
    lambda slash, name, args: ("/" if slash else "") + name + "".join(" " + a for a in args),
    st.booleans(),
    st.sampled_from(NAMES),
    st.lists(words, max_size=3),
)
payload = st.one_of(
    st.text(max_size=70),
    st.builds(
        lambda pk, v, c: f"{pk}:{v}:{c}", st.integers(0, 3), st.integers(0, 12), command_text
    ),
)
message = st.tuples(
    st.sampled_from(CHATS),
    st.sampled_from(USERS),
    st.one_of(
        st.tuples(st.just("text"), st.one_of(command_text, st.text(max_size=40))),
        st.tuples(st.just("payload"), payload),
    ),
    st.booleans(),  # is_admin
)

OPENING = [
    ("local:a", "alice", ("text", "/new dicepile"), False),
    ("local:a", "bob", ("text", "/join"), False),
    ("local:a", "alice", ("text", "/start"), False),
]


async def snapshot(store: Store) -> dict[str, object]:
    snap: dict[str, object] = {}
    for chat in CHATS:
        row = await store.open_game(chat)
        seats = await store.seats(row.id) if row else []
        snap[chat] = (
            (row.id, row.version, row.status, row.state_json) if row else None,
            [(s.user_key, s.display_name) for s in seats],
            (await store.chat(chat)).lang,
        )
    return snap


def command_name(text: str | None) -> str:
    if not text or not text.strip():
        return ""
    return text.split()[0].lstrip("/").split("@")[0].casefold()


async def run(messages: list) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        clock = FakeClock()
        store = await Store.open(str(Path(tmp) / "fuzz.sqlite3"), clock=clock)
        table = Table(store, games={"dicepile": ChatDicePile()}, clock=clock, seeder=lambda: 1)
        try:
            for n, (chat, user, (kind, body), admin) in enumerate(OPENING + messages):
                before = await snapshot(store)
                inbound = Inbound(
                    platform=chat.split(":")[0],
                    chat_key=chat,
                    user_key=f"u:{user}",
                    display_name=user,
                    update_id=str(n),
                    is_admin=admin,
                    text=body if kind == "text" else None,
                    payload=body if kind == "payload" else None,
                )
                outs = await table.handle(inbound)
                for out in outs:
                    assert out.text and len(out.text) <= 2000, out
                    assert out.chat_key == chat
                    for row in out.buttons:
                        for button in row:
                            assert len(button.payload.encode()) <= 64
                after = await snapshot(store)
                if kind == "text":
                    name = command_name(body)
                else:
                    parts = body.split(":", 2)
                    name = command_name(parts[2]) if len(parts) == 3 else ""
                if name not in CHANGING:
                    assert after == before, (body, [o.text for o in outs])
                if after != before:
                    assert outs, body  # a change is always announced
                # the same update again is ignored
                assert await table.handle(inbound) == []
                assert await snapshot(store) == after
        finally:
            await store.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(message, min_size=1, max_size=20))
def test_random_messages_never_break_the_table(messages: list) -> None:
    asyncio.run(run(messages))
