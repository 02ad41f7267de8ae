"""Discord adapter end to end through discord.py: raw gateway payloads in, HTTP requests out.

The client logs in, syncs its commands and answers interactions against a recording fake of
Discord's HTTP API (no network); INTERACTION_CREATE payloads are fed to the client's own
connection state, so discord.py parses and dispatches them exactly as it would live.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord
import pytest

from bot import i18n
from bot.messages import Outbound
from bot.platforms import discord_bot as dc
from tests.bot.platforms.fake_discord import (
    ALICE_ID,
    APP_ID,
    BOB_ID,
    CHANNEL_ID,
    GUILD_ID,
    PNG,
    DiscordHttp,
    FakeTable,
    as_event,
    button_payload,
    discord_http,
    settle,
    slash_payload,
)
from tests.bot.platforms.test_discord import settings


@asynccontextmanager
async def running(
    table: FakeTable, guild: str = str(GUILD_ID)
) -> AsyncIterator[tuple[dc.BoardchatClient, DiscordHttp]]:
    """A logged-in client (setup_hook ran: translator, sender, command sync)."""
    client = dc.build_client(table, settings(discord_token="token", discord_guild_id=guild))
    async with discord_http(client) as http:
        try:
            await client.login("token")
            yield client, http
        finally:
            await client.close()


async def feed(client: dc.BoardchatClient, payload: dict[str, Any]) -> None:
    client._connection.parse_interaction_create(as_event(payload))
    await settle()


def components(request: Any) -> list[str]:
    return [c["custom_id"] for row in request.json.get("components", []) for c in row["components"]]


# ---- start-up ----


async def test_login_syncs_the_commands_to_the_test_guild() -> None:
    table = FakeTable()
    async with running(table) as (_client, http):
        (sync,) = http.find("PUT", "/commands")
        assert sync.path == f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"
        names = [c["name"] for c in sync.json]
        assert names == ["new", "join", "bid", "buy", "build", "color", "status"]
        for cmd in sync.json:
            assert len(cmd["description"]) <= 100
            assert all(len(o["description"]) <= 100 for o in cmd.get("options", []))
        assert "discord" in table.senders


async def test_without_a_guild_the_commands_sync_globally() -> None:
    async with running(FakeTable(), guild="") as (_client, http):
        (sync,) = http.find("PUT", "/commands")
        assert sync.path == f"/applications/{APP_ID}/commands"


async def test_sync_sends_translated_descriptions(monkeypatch: pytest.MonkeyPatch) -> None:
    class Russian:
        def gettext(self, message: str) -> str:
            return {"Take a seat at the table": "Сесть за стол"}.get(message, message)

    real = dc.i18n.translator
    monkeypatch.setattr(
        dc.i18n, "translator", lambda lang: Russian() if lang == "ru" else real(lang)
    )
    async with running(FakeTable()) as (_client, http):
        (sync,) = http.find("PUT", "/commands")
        join = next(c for c in sync.json if c["name"] == "join")
        assert join["description"] == "Take a seat at the table"
        assert join["description_localizations"] == {"ru": "Сесть за стол"}
        assert "name_localizations" not in join or not join["name_localizations"]


# ---- slash commands ----


async def test_a_slash_command_is_deferred_then_answered_with_the_board() -> None:
    table = FakeTable()
    async with running(table) as (client, http):
        await feed(client, slash_payload("bid", {"plant": "13", "amount": 20}))

        (callback,) = http.callbacks()
        assert callback.json == {"type": 5}  # deferred channel message: "thinking…"
        assert http.requests.index(callback) < len(http.requests) - 1
        (reply,) = http.followups()
        assert reply.path.startswith(f"/webhooks/{APP_ID}/")
        assert reply.json["content"] == f"<@{ALICE_ID}> bids 20. <@{BOB_ID}>, your turn."
        assert sorted(reply.json["allowed_mentions"]["users"]) == sorted([ALICE_ID, BOB_ID])
        assert reply.json["allowed_mentions"]["parse"] == []  # no @everyone, no roles
        assert not reply.ephemeral
        assert reply.files == [PNG]
        assert reply.json["attachments"][0]["filename"] == "board.png"
        assert components(reply) == ["bc:g1:2:raise", "bc:g1:2:pass"]
        (inbound,) = table.inbounds
        assert inbound.text == "/bid 13 20"
        assert inbound.chat_key == f"dc:{CHANNEL_ID}" and inbound.user_key == f"dc:{ALICE_ID}"


async def test_an_illegal_move_is_ephemeral_through_discord() -> None:
    table = FakeTable(high_bid=30)
    async with running(table) as (client, http):
        await feed(client, slash_payload("bid", {"plant": "13", "amount": 20}, locale="pl"))
        # Deferred ephemerally (no public "thinking…" first, issue 22.7), then the answer.
        defer, answer = http.requests[-2:]
        assert defer.path.endswith("/callback") and defer.json == {"type": 5, "data": {"flags": 64}}
        assert not http.find("DELETE", "/messages/@original")
        (reply,) = http.followups()
        assert reply is answer
        assert reply.ephemeral
        assert reply.json["content"] == "Your bid must be more than 30 (PG-21)"
        assert table.inbounds[0].lang == "pl"


async def test_administrators_are_admins() -> None:
    table = FakeTable()
    async with running(table) as (client, _http):
        await feed(client, slash_payload("join", permissions=1 << 5))  # manage_guild
        await feed(client, slash_payload("join", permissions=1 << 3))  # administrator
        await feed(client, slash_payload("join", permissions=1 << 11))  # send messages
        assert [i.is_admin for i in table.inbounds] == [True, True, False]


async def test_new_in_a_thread_creates_it_and_plays_there() -> None:
    table = FakeTable()
    async with running(table) as (client, http):
        await feed(client, slash_payload("new", {"game": "powergrid", "thread": True}))

        (created,) = http.find("POST", f"/channels/{CHANNEL_ID}/threads")
        assert created.json["type"] == 11 and created.json["name"].startswith("powergrid")
        thread_id = next(cid for cid in http.channels if cid != CHANNEL_ID)
        (inbound,) = table.inbounds
        assert inbound.chat_key == f"dc:{thread_id}" and inbound.text == "/new powergrid"
        (posted,) = http.find("POST", f"/channels/{thread_id}/messages")
        assert posted.json["content"] == "New powergrid table. /join to sit down."
        (reply,) = http.followups()
        assert f"<#{thread_id}>" in reply.json["content"] and not reply.ephemeral


# ---- buttons ----


async def test_a_button_press_reaches_the_table_with_its_payload() -> None:
    table = FakeTable(high_bid=13, version=2)
    async with running(table) as (client, http):
        await feed(client, button_payload("bc:g1:2:pass"))

        (callback,) = http.callbacks()
        assert callback.json == {"type": 6}  # deferred update: the message stays as it is
        (inbound,) = table.inbounds
        assert inbound.payload == "g1:2:pass" and inbound.text is None
        assert inbound.user_key == f"dc:{BOB_ID}" and inbound.display_name == "Bob"
        public, toast = http.followups()
        assert public.json["content"] == "Bob passes." and not public.ephemeral
        assert toast.json["content"] == "You passed." and toast.ephemeral
        assert table.version == 3


async def test_a_stale_press_is_answered_privately_and_changes_nothing() -> None:
    table = FakeTable(high_bid=13, version=5)
    async with running(table) as (client, http):
        await feed(client, button_payload("bc:g1:2:raise", "Raise to 14"))

        (callback,) = http.callbacks()
        assert callback.json == {"type": 6}
        (toast,) = http.followups()
        assert toast.ephemeral and toast.json["content"] == "This button is out of date."
        assert not http.find("PATCH", "/")  # the old message is not edited
        assert not http.find("DELETE", "/")
        assert (table.version, table.high_bid) == (5, 13)


async def test_buttons_still_work_after_a_restart() -> None:
    table = FakeTable()
    async with running(table) as (first, http):
        await feed(first, slash_payload("bid", {"plant": "13", "amount": 13}))
        raise_id = components(http.followups()[0])[0]
    assert raise_id == "bc:g1:2:raise"

    async with running(table) as (second, http):  # a new process: nothing in memory
        await feed(second, button_payload(raise_id, "Raise to 14"))
        (reply,) = http.followups()
        assert reply.json["content"].startswith(f"<@{BOB_ID}> bids 14.")
        assert components(reply) == ["bc:g1:3:raise", "bc:g1:3:pass"]
        assert table.high_bid == 14


async def test_presses_of_foreign_buttons_are_ignored() -> None:
    table = FakeTable()
    async with running(table) as (client, http):
        await feed(client, button_payload("someone-else:1"))
        assert table.inbounds == [] and http.callbacks() == []


# ---- autocomplete ----


async def test_autocomplete_interaction_returns_the_tables_candidates() -> None:
    table = FakeTable()
    async with running(table) as (client, http):
        await feed(client, slash_payload("bid", {"plant": "1"}, focused="plant"))
        (callback,) = http.callbacks()
        assert callback.json == {
            "type": 8,
            "data": {"choices": [{"name": "13", "value": "13"}]},
        }
        assert table.completions == [(f"dc:{CHANNEL_ID}", f"dc:{ALICE_ID}", "plant", "1")]
        assert table.inbounds == []


async def test_autocomplete_without_candidates_answers_an_empty_list() -> None:
    async with running(FakeTable()) as (client, http):
        await feed(client, slash_payload("buy", {"resource": "co", "count": 1}, focused="resource"))
        (callback,) = http.callbacks()
        assert callback.json == {"type": 8, "data": {"choices": []}}


# ---- unsolicited messages ----


async def test_the_sender_posts_to_the_channel_and_dms_private_messages() -> None:
    table = FakeTable()
    async with running(table) as (_client, http):
        send = table.senders["discord"]
        await send(
            Outbound(
                f"dc:{CHANNEL_ID}",
                "@Alice, 2 hours left to bid.",
                png=PNG,
                mentions=[(f"dc:{ALICE_ID}", "Alice")],
            )
        )
        (posted,) = http.find("POST", f"/channels/{CHANNEL_ID}/messages")
        assert posted.json["content"] == f"<@{ALICE_ID}>, 2 hours left to bid."
        assert posted.json["allowed_mentions"]["users"] == [ALICE_ID]
        assert posted.files == [PNG]

        await send(Outbound(f"dc:{CHANNEL_ID}", "Your hand: 13, 20", private_to=f"dc:{BOB_ID}"))
        (dm_open,) = http.find("POST", "/users/@me/channels")
        assert dm_open.json == {"recipient_id": BOB_ID}
        (dm,) = http.find("POST", f"/channels/{BOB_ID + 1}/messages")
        assert dm.json["content"] == "Your hand: 13, 20"


async def test_the_sender_logs_what_it_cannot_deliver(caplog: pytest.LogCaptureFixture) -> None:
    table = FakeTable()
    async with running(table) as (_client, http):
        send = table.senders["discord"]
        with caplog.at_level(logging.WARNING, logger="bot.platforms.discord_bot"):
            await send(Outbound("dc:123", "to a channel that is gone"))
            await send(Outbound("tg:5", "not ours"))
        assert "dc:123" in caplog.text and "tg:5" in caplog.text
        assert len(http.find("GET", "/channels/123")) == 1  # tried once, no retry loop


async def test_a_command_discord_knows_but_we_do_not_is_answered_privately(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = FakeTable()
    async with running(table) as (client, http):
        with caplog.at_level(logging.ERROR, logger="bot.platforms.discord_bot"):
            await feed(client, slash_payload("retired"))
        (callback,) = http.callbacks()
        assert callback.json["type"] == 4 and callback.json["data"]["flags"] == 64
        assert "retired" in caplog.text and table.inbounds == []


async def test_a_refused_dm_leaves_a_note_in_the_channel() -> None:
    table = FakeTable()
    async with running(table) as (_client, http):
        original = http.answer

        def closed_dms(method: str, path: str, body: Any) -> Any:
            if method == "POST" and path == f"/channels/{BOB_ID + 1}/messages":
                raise _forbidden()
            return original(method, path, body)

        http.answer = closed_dms  # type: ignore[method-assign]
        await table.senders["discord"](
            Outbound(f"dc:{CHANNEL_ID}", "Your hand: 13, 20", private_to=f"dc:{BOB_ID}")
        )
        (note,) = http.find("POST", f"/channels/{CHANNEL_ID}/messages")
        assert note.json["content"].startswith(f"<@{BOB_ID}>, I could not send you")
        assert "13, 20" not in note.json["content"]
        assert note.json["allowed_mentions"]["users"] == [BOB_ID]
        # the note is in the language of the private message it stands for (its reader's)
        await table.senders["discord"](
            Outbound(f"dc:{CHANNEL_ID}", "Twoja ręka", private_to=f"dc:{BOB_ID}", lang="pl")
        )
        polish = http.find("POST", f"/channels/{CHANNEL_ID}/messages")[-1].json["content"]
        assert polish == i18n.tr(
            "pl",
            "{mention}, I could not send you a private message. Please allow direct "
            "messages from this server's members.",
            mention=f"<@{BOB_ID}>",
        )
        assert "could not send" not in polish


def _forbidden() -> discord.Forbidden:
    class _Resp:
        status = 403
        reason = "Forbidden"

    return discord.Forbidden(_Resp(), {"code": 50007, "message": "Cannot send messages"})
