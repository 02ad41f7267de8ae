"""Discord adapter: generated slash commands, called with fake interactions."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, Protocol, cast

import discord
import pytest
from discord import app_commands

from bot.grammar import shared_help
from bot.i18n import MERGED_HELP
from bot.messages import Button, Inbound, Outbound
from bot.platforms import discord_bot as dc
from bot.settings import Settings
from engine.core.protocol import ArgSpec, CommandSpec
from tests.bot.platforms.fake_discord import (
    ALICE_ID,
    BOB_ID,
    CHANNEL_ID,
    NO_DATA,
    PNG,
    FakeInteraction,
    FakeTable,
    FakeUser,
    as_interaction,
)


def settings(**changes: str) -> Settings:
    values: dict[str, Any] = {
        "telegram_token": "",
        "telegram_webhook_url": "",
        "telegram_webhook_listen": "",
        "telegram_api_base_url": "",
        "discord_token": "",
        "discord_guild_id": "",
        "db": ":memory:",
        "log_level": "INFO",
        "default_lang": "en",
    }
    values.update(changes)
    return Settings(**values)


@pytest.fixture
def table() -> FakeTable:
    return FakeTable()


@pytest.fixture
def client(table: FakeTable) -> dc.BoardchatClient:
    return dc.build_client(table, settings(), sync_commands=False)


def command(client: dc.BoardchatClient, name: str) -> app_commands.Command[Any, ..., Any]:
    found = client.tree.get_command(name)
    assert isinstance(found, app_commands.Command), name
    return found


class SlashCallback(Protocol):
    """A slash command's callback as discord.py calls it, a fake standing in for the Interaction."""

    def __call__(self, interaction: FakeInteraction, /, **options: Any) -> Awaitable[None]: ...


def callback(client: dc.BoardchatClient, name: str) -> SlashCallback:
    return cast(SlashCallback, command(client, name).callback)


def options(client: dc.BoardchatClient, name: str) -> dict[str, dict[str, Any]]:
    payload = command(client, name).to_dict(client.tree)
    return {o["name"]: o for o in payload.get("options", [])}


# ---- the command table becomes slash commands ----


def test_every_spec_name_becomes_one_slash_command(client: dc.BoardchatClient) -> None:
    names = [c.name for c in client.tree.get_commands()]
    assert names == ["new", "join", "bid", "buy", "build", "color", "status"]


def test_int_arguments_are_integers_and_names_autocomplete(client: dc.BoardchatClient) -> None:
    bid = options(client, "bid")
    assert bid["plant"]["type"] == 3 and bid["plant"]["autocomplete"] is True
    assert bid["plant"]["required"] is True
    assert bid["amount"]["type"] == 4 and bid["amount"]["required"] is False
    buy = options(client, "buy")
    assert buy["resource"]["autocomplete"] is True and buy["count"]["type"] == 4


def test_choices_become_discord_choices_and_long_lists_autocomplete(
    client: dc.BoardchatClient,
) -> None:
    new = options(client, "new")
    assert [c["value"] for c in new["game"]["choices"]] == ["powergrid", "hexania"]
    assert new["options"]["type"] == 3 and new["options"]["required"] is False
    color = options(client, "color")["color"]  # 30 choices: more than Discord allows
    assert "choices" not in color and color["autocomplete"] is True


def test_new_gets_an_optional_thread_boolean(client: dc.BoardchatClient) -> None:
    thread = options(client, "new")["thread"]
    assert thread["type"] == 5 and thread["required"] is False
    assert "thread" not in options(client, "bid")


def test_a_name_shared_with_different_arguments_takes_free_text(
    client: dc.BoardchatClient,
) -> None:
    build = options(client, "build")
    assert list(build) == ["args"]
    assert build["args"]["type"] == 3 and build["args"]["required"] is True


def test_descriptions_fit_in_100_characters(client: dc.BoardchatClient) -> None:
    for cmd in client.tree.get_commands():
        payload = cmd.to_dict(client.tree)
        assert 1 <= len(payload["description"]) <= 100
        for option in payload.get("options", []):
            assert 1 <= len(option["description"]) <= 100
    # shared by games with different arguments: one game-neutral description (issues 18, 22)
    assert command(client, "build").description == shared_help("build") != MERGED_HELP


def test_unusable_specs_are_handled() -> None:
    specs = [
        CommandSpec("Bad Name!", "spaces are not allowed"),
        CommandSpec("many", "too many arguments", tuple(ArgSpec(f"a{i}") for i in range(30))),
        CommandSpec("from", "keyword argument", (ArgSpec("from", "str", "origin"),)),
        CommandSpec("twice", "same option name twice", (ArgSpec("x"), ArgSpec("X"))),
    ]
    plans = {p.name: p for p in dc.plan_commands(specs)}
    assert set(plans) == {"many", "from", "twice"}
    assert [o.name for o in plans["many"].options] == ["args"]
    assert [o.name for o in plans["twice"].options] == ["args"]
    only = plans["from"].options[0]
    assert only.name == "from" and only.pyname != "from"
    client = dc.build_client(FakeTable(specs=specs), settings(), sync_commands=False)
    assert options(client, "from")["from"]["type"] == 3


# ---- command callbacks ----


async def test_bid_defers_first_then_posts_text_mentions_picture_and_buttons(
    client: dc.BoardchatClient, table: FakeTable
) -> None:
    interaction = FakeInteraction(client)
    await callback(client, "bid")(interaction, plant="13", amount=20)

    assert interaction.log[0] == "defer"
    assert interaction.response.deferred == {"thinking": True, "ephemeral": False}
    (inbound,) = table.inbounds
    assert inbound.text == "/bid 13 20"
    assert inbound.platform == "discord"
    assert inbound.chat_key == f"dc:{CHANNEL_ID}" and inbound.user_key == f"dc:{ALICE_ID}"
    assert inbound.display_name == "Alice" and inbound.lang == "en-US"
    assert inbound.update_id == str(interaction.id)
    assert inbound.is_admin is False and inbound.is_private is False

    (sent,) = interaction.sent
    assert not sent.ephemeral
    assert sent.content == f"<@{ALICE_ID}> bids 20. <@{BOB_ID}>, your turn."
    assert sorted(sent.allowed_users) == sorted([ALICE_ID, BOB_ID])
    assert sent.png == PNG
    assert sent.custom_ids == ["bc:g1:2:raise", "bc:g1:2:pass"]
    assert all(isinstance(item, dc.TableButton) for item in sent.view.children)  # type: ignore[union-attr]


async def test_optional_arguments_left_out_are_not_sent(
    client: dc.BoardchatClient, table: FakeTable
) -> None:
    await callback(client, "bid")(FakeInteraction(client), plant="17", amount=None)
    assert table.inbounds[0].text == "/bid 17"


async def test_every_generated_command_reaches_the_table(
    client: dc.BoardchatClient, table: FakeTable
) -> None:
    calls: dict[str, dict[str, Any]] = {
        "new": {"game": "powergrid", "options": "map=usa", "thread": False},
        "join": {},
        "bid": {"plant": "13", "amount": 15},
        "buy": {"resource": "coal", "count": 3},
        "build": {"args": "New York Boston"},
        "color": {"color": "c7"},
        "status": {},
    }
    assert set(calls) == {c.name for c in client.tree.get_commands()}
    elsewhere: list[Outbound] = []

    async def fake_send(out: Outbound) -> None:
        elsewhere.append(out)

    client.adapter.send = fake_send  # type: ignore[method-assign]
    for name, values in calls.items():
        interaction = FakeInteraction(client)
        await callback(client, name)(interaction, **values)
        assert interaction.log[0] == "defer", name
        assert interaction.sent, name
    assert [i.text for i in table.inbounds] == [
        "/new powergrid map=usa",
        "/join",
        "/bid 13 15",
        "/buy coal 3",
        "/build New York Boston",
        "/color c7",
        "/status",
    ]
    assert [o.private_to for o in elsewhere] == [f"dc:{BOB_ID}"]


async def test_an_illegal_move_is_answered_ephemerally(
    client: dc.BoardchatClient, table: FakeTable
) -> None:
    table.high_bid = 30
    interaction = FakeInteraction(client)
    await callback(client, "bid")(interaction, plant="13", amount=20)
    # Nothing public: deferred ephemerally (no public "thinking…"), then the error only
    # Alice sees (issue 22.7).
    assert interaction.log == ["defer", "followup"]
    assert interaction.response.deferred == {"thinking": True, "ephemeral": True}
    (sent,) = interaction.sent
    assert sent.ephemeral and sent.content == "Your bid must be more than 30 (PG-21)"


async def test_a_slow_answer_is_deferred_first_and_its_thinking_message_removed(
    client: dc.BoardchatClient, table: FakeTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dc, "DEFER_AFTER", 0.0)  # the table answers after the deadline
    table.high_bid = 30
    answer = table.handle

    async def slow(inbound: Inbound) -> list[Outbound]:
        await asyncio.sleep(0.01)
        return await answer(inbound)

    monkeypatch.setattr(table, "handle", slow)
    interaction = FakeInteraction(client)
    await callback(client, "bid")(interaction, plant="13", amount=20)
    # /bid is expected to answer publicly: "thinking…" in public, deleted, the error privately.
    assert interaction.response.deferred == {"thinking": True, "ephemeral": False}
    assert interaction.log == ["defer", "delete_original", "followup"]
    assert interaction.sent[0].ephemeral


async def test_a_reply_only_the_sender_needs_is_ephemeral(
    client: dc.BoardchatClient, table: FakeTable
) -> None:
    table.turn = f"dc:{ALICE_ID}"
    interaction = FakeInteraction(client, user=FakeUser(BOB_ID, "Bob"))
    await callback(client, "bid")(interaction, plant="13", amount=20)
    assert interaction.log == ["defer", "followup"]
    assert interaction.response.deferred == {"thinking": True, "ephemeral": True}
    (sent,) = interaction.sent
    assert sent.ephemeral and sent.content == "Not your turn — waiting for Alice."


async def test_a_table_failure_is_answered_ephemerally(
    client: dc.BoardchatClient, table: FakeTable
) -> None:
    table.fail = True
    interaction = FakeInteraction(client)
    await callback(client, "status")(interaction)
    (sent,) = interaction.sent
    assert sent.ephemeral and "went wrong" in (sent.content or "")


async def test_long_text_is_split_and_private_parts_stay_private(
    client: dc.BoardchatClient, table: FakeTable
) -> None:
    dms: list[Outbound] = []

    async def fake_send(out: Outbound) -> None:
        dms.append(out)

    client.adapter.send = fake_send  # type: ignore[method-assign]
    interaction = FakeInteraction(client)
    await callback(client, "status")(interaction)

    public = [s for s in interaction.sent if not s.ephemeral]
    private = [s for s in interaction.sent if s.ephemeral]
    assert len(public) >= 3 and all(len(s.content or "") <= 2000 for s in public)
    assert "".join((s.content or "") + "\n" for s in public).count("market line") == 400
    assert [s.png for s in public] == [None] * (len(public) - 1) + [PNG]  # picture last
    assert [s.content for s in private] == ["Your hand: plant 13"]
    assert [d.private_to for d in dms] == [f"dc:{BOB_ID}"]  # Bob's secret goes to his DMs
    assert interaction.sent.index(private[0]) > interaction.sent.index(public[-1])


async def test_admins_dms_and_locale_reach_the_inbound(
    client: dc.BoardchatClient, table: FakeTable
) -> None:
    admin = FakeInteraction(
        client,
        permissions=discord.Permissions(manage_guild=True),
        locale=discord.Locale.russian,
        user=FakeUser(BOB_ID, "Боб"),
    )
    await callback(client, "join")(admin)
    dm = FakeInteraction(client, guild_id=None, channel_id=42)
    await callback(client, "join")(dm)
    first, second = table.inbounds
    assert first.is_admin and first.lang == "ru" and first.display_name == "Боб"
    assert second.is_admin and second.is_private and second.chat_key == "dc:42"


async def test_thread_outside_a_text_channel_is_refused_privately(
    client: dc.BoardchatClient, table: FakeTable
) -> None:
    interaction = FakeInteraction(client, guild_id=None, channel=None)
    await callback(client, "new")(interaction, game="powergrid", options=None, thread=True)
    assert table.inbounds == []
    (sent,) = interaction.sent
    assert sent.ephemeral and "thread" in (sent.content or "")


# ---- autocomplete callbacks ----


async def test_autocomplete_asks_the_table_for_the_kind(
    client: dc.BoardchatClient, table: FakeTable
) -> None:
    autocomplete = command(client, "bid")._params["plant"].autocomplete
    assert autocomplete is not None
    choices = await autocomplete(FakeInteraction(client), "1")
    assert [c.value for c in choices] == ["13"]
    assert table.completions == [(f"dc:{CHANNEL_ID}", f"dc:{ALICE_ID}", "plant", "1")]


async def test_autocomplete_of_a_list_completes_the_last_name(
    client: dc.BoardchatClient, table: FakeTable
) -> None:
    adapter = client.adapter
    interaction = FakeInteraction(client)
    two_words = await adapter.complete(
        as_interaction(interaction), "city", "Berlin New Y", repeated=True
    )
    assert [c.value for c in two_words] == ["Berlin New York"]
    one_word = await adapter.complete(
        as_interaction(interaction), "city", "Berlin Ha", repeated=True
    )
    assert [c.value for c in one_word] == ["Berlin Hamburg", "Berlin Hannover"]
    after_space = await adapter.complete(
        as_interaction(interaction), "city", "Berlin ", repeated=True
    )
    assert [c.value for c in after_space][:2] == ["Berlin Berlin", "Berlin Bremen"]
    assert len(after_space) == 6


async def test_free_text_options_ask_the_table_for_whole_lines(
    client: dc.BoardchatClient, table: FakeTable
) -> None:
    """The "args" option of a shared name, and a "rest" option, are completed by the table
    from the command's spec in the chat's game: kind "args:<command>[:<first argument>]",
    the typed text as it is (a trailing space means: the next word)."""
    autocomplete = command(client, "build")._params["args"].autocomplete
    assert autocomplete is not None
    assert options(client, "build")["args"]["autocomplete"] is True
    await autocomplete(FakeInteraction(client), "Berlin ")
    assert table.completions[-1] == (f"dc:{CHANNEL_ID}", f"dc:{ALICE_ID}", "args:build", "Berlin ")
    rest = dc.plan_commands(
        [CommandSpec("bid", "bid", (ArgSpec("plant", "plant"), ArgSpec("max", "rest")))]
    )[0].options[1]
    assert rest.complete == "args:bid:1"


async def test_long_choice_lists_filter_locally(client: dc.BoardchatClient) -> None:
    autocomplete = command(client, "color")._params["color"].autocomplete
    assert autocomplete is not None
    choices = await autocomplete(FakeInteraction(client), "c2")
    assert [c.value for c in choices] == ["c2", *[f"c2{i}" for i in range(10)]]
    everything = await autocomplete(FakeInteraction(client), "")
    assert len(everything) == 25


# ---- translation ----


async def test_translator_falls_back_to_english() -> None:
    translator = dc.I18nTranslator()
    context: app_commands.TranslationContext[Any, Any] = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_description, data=NO_DATA
    )
    text = app_commands.locale_str("Bid on a plant", source="Bid on a plant")
    assert await translator.translate(text, discord.Locale.russian, context) is None
    assert await translator.translate(text, discord.Locale.american_english, context) is None


async def test_translator_uses_the_catalog_and_keeps_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Catalog:
        def gettext(self, message: str) -> str:
            return {"Bid on a plant": "Ставка " + "за электростанцию " * 10}.get(message, message)

    monkeypatch.setattr(dc.i18n, "translator", lambda lang: Catalog())
    translator = dc.I18nTranslator()
    described: app_commands.TranslationContext[Any, Any] = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_description, data=NO_DATA
    )
    named: app_commands.TranslationContext[Any, Any] = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_name, data=NO_DATA
    )
    text = app_commands.locale_str("Bid on a plant", source="Bid on a plant")
    translated = await translator.translate(text, discord.Locale.russian, described)
    assert translated is not None and translated.startswith("Ставка")
    assert len(translated) <= 100
    assert await translator.translate(text, discord.Locale.russian, named) is None


# ---- helpers ----


def test_split_text_respects_the_limit_and_keeps_everything() -> None:
    text = "\n".join(f"line {i} " + "x" * 50 for i in range(200)) + "\n" + "y " * 1500
    chunks = dc.split_text(text)
    assert all(len(c) <= 2000 for c in chunks)
    assert "".join(chunks).replace("\n", "").replace(" ", "") == text.replace("\n", "").replace(
        " ", ""
    )
    assert dc.split_text("short") == ["short"]
    assert dc.split_text("") == []


def test_mentions_replace_the_longest_name_first() -> None:
    text, ids = dc.render_mentions(
        "@Al and @Alice, not @Alicia or @Zed",
        [("dc:1", "Al"), ("dc:2", "Alice"), ("tg:3", "Zed")],
    )
    assert text == "<@1> and <@2>, not @Alicia or @Zed"
    assert sorted(ids) == [1, 2]


def test_views_hold_at_most_five_rows_of_five() -> None:
    rows = [[Button(f"b{r}{c}", f"p{r}{c}") for c in range(7)] for r in range(7)]
    view = dc.build_view(rows)
    assert view is not None and len(view.children) == 25
    assert dc.build_view([]) is None
    assert dc.build_view([[Button("too long", "x" * 120)]]) is None


def test_keys() -> None:
    assert dc.chat_key(5) == "dc:5" and dc.user_key(6) == "dc:6"
    assert dc.key_id("dc:12") == 12
    assert dc.key_id("tg:12") is None and dc.key_id(None) is None and dc.key_id("dc:x") is None


async def test_serve_needs_a_token(table: FakeTable) -> None:
    with pytest.raises(ValueError, match="DISCORD_TOKEN"):
        await dc.serve(table, settings())
