"""Slash options the chat grammar writes after a keyword ("max=<limit>", "from <storage>"):
the chat text built from a slash command writes the keyword back, for every command of every
game (found driving the adapter: `/lay real:T9 fakes:P5 from:Q1` became `/lay T9 P5 Q1`, the
storage a second fake token; `/bid plant:4 amount:4 max:9` became `/bid 4 4 9`, refused)."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot import grammar, i18n
from bot.messages import Outbound
from bot.platforms import discord_bot as dc
from bot.platforms.discord_commands import CommandPlan, plan_commands, shorten, with_keyword
from bot.table import Table, discover_games
from tests.bot.platforms.fake_discord import (
    BOB_ID,
    CHANNEL_ID,
    PNG,
    DiscordHttp,
    Request,
    slash_payload,
)
from tests.bot.platforms.test_discord_table import (  # noqa: F401
    NAMES,
    NOW,
    feed,
    running,
    table,
    to_act,
    two_player_powergrid,
)


def _values(plan: CommandPlan, example: str) -> dict[str, str] | None:
    """The slash options a player fills for the chat `example`: each keyword clause in its
    own option without its keyword (as the tester typed them), the other words in the other
    options in order (the last of them takes what is left). None when the example uses no
    keyword option of the plan."""
    words = example.split()[1:]
    keyed = {o.keyword.strip().casefold(): o for o in plan.options if o.keyword}
    values: dict[str, str] = {}
    plain: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        head, eq, rest = word.partition("=")
        option = keyed.get(head.casefold()) if eq else keyed.get(word.casefold())
        if option is None or (eq and not option.keyword.endswith("=")):
            plain.append(word)
            index += 1
            continue
        clause = [rest] if eq else []
        index += 1
        while index < len(words) and words[index].casefold() not in keyed:
            clause.append(words[index])
            index += 1
        values[option.pyname] = " ".join(clause)
    if not values:
        return None
    others = [o for o in plan.options if not o.keyword]
    for number, option in enumerate(others):
        if not plain:
            break
        last = number == len(others) - 1
        values[option.pyname] = " ".join(plain if last else plain[:1])
        plain = [] if last else plain[1:]
    return values


def test_every_keyword_option_of_every_game_gives_back_the_chat_text() -> None:
    checked = 0
    for game_id, game in discover_games().items():
        for plan in plan_commands(game.commands):
            spec = next(s for s in game.commands if s.name == plan.name)
            keyed = [a for a in spec.args if grammar.arg_keyword(a)]
            assert [o.keyword for o in plan.options if o.keyword] == [
                grammar.arg_keyword(a) for a in keyed
            ], (game_id, plan.name)
            for option in plan.options:
                if option.keyword:
                    # its own kind: never the whole-text completion of the arguments before it
                    assert option.complete is None, (game_id, plan.name, option.name)
            for example in spec.examples:
                values = _values(plan, example)
                if values is None:
                    continue
                assert plan.text(values) == " ".join(example.split()), (game_id, example)
                checked += 1
    # /bid ... max=25 (Power Grid), /lay ... from E3 and three more (IEC), /line via (alt)
    assert checked >= 5


def test_a_value_typed_with_its_keyword_is_kept() -> None:
    assert with_keyword("max=", "9") == "max=9"
    assert with_keyword("max=", "MAX=9") == "MAX=9"
    assert with_keyword("from ", "Q1") == "from Q1"
    assert with_keyword("from ", "from Q1") == "from Q1"
    assert with_keyword("from ", "Fromage") == "from Fromage"
    assert with_keyword("", "Q1") == "Q1"


async def test_a_proxy_bid_by_slash_options_opens_the_auction_with_its_limit(
    table: Table,  # noqa: F811
) -> None:
    seen: list[str] = []
    handle = table.handle

    async def spy(inbound):  # type: ignore[no-untyped-def]
        seen.append(inbound.text or "")
        return await handle(inbound)

    table.handle = spy  # type: ignore[method-assign]
    async with running(table) as (client, http):
        started = await two_player_powergrid(client, http)
        first, _other = to_act(started[-1])
        answers = await feed(
            client,
            http,
            slash_payload(
                "bid",
                {"plant": "3", "amount": 3, "max": "9"},
                user_id=first,
                user_name=NAMES[first],
            ),
        )
        assert "/bid 3 3 max=9" in seen
        text = " ".join(a.json.get("content", "") for a in answers)
        assert f"{NAMES[first]} puts plant 3 up for auction at 3" in text
        assert "Usage" not in text


async def test_the_acting_player_s_private_line_is_his_ephemeral_follow_up_not_a_dm(
    table: Table,  # noqa: F811
) -> None:
    """B: a proxy bid's private line ("your limit ...") answers the slash command ephemerally;
    his DMs (closed here) are not tried, and the channel gets no "could not send you a private
    message" note (the tester saw 9 in one turn)."""
    async with running(table) as (client, http):
        # The sender loop on the table's clock: the rows held for the follow-ups stay held.
        table.deliveries[dc.PLATFORM].clock = lambda: NOW
        started = await two_player_powergrid(client, http)
        first, _other = to_act(started[-1])
        http.closed_dms.update(NAMES)
        answers = await feed(
            client,
            http,
            slash_payload(
                "bid",
                {"plant": "3", "amount": 3, "max": "9"},
                user_id=first,
                user_name=NAMES[first],
            ),
        )
        private = [a.json["content"] for a in answers if a.ephemeral]
        assert any("9" in p for p in private), answers
        for _ in range(3):  # the sender loop's turn (held rows are marked sent already)
            await asyncio.sleep(0.05)
        assert not http.find("POST", f"/channels/{first + 1}/messages")  # his DM channel
        notes = [
            r.json.get("content", "")
            for r in http.find("POST", "/messages")
            if "private message" in r.json.get("content", "")
        ]
        assert not notes
        pending = await table.store.outbox(status="pending")
        assert not [p for p in pending if p.audience == f"dc:{first}"]


def in_dm(payload: dict[str, Any], uid: int) -> dict[str, Any]:
    """The payload as sent in the user's private chat with the bot (its channel id is the
    user's + 1, as the fake numbers DM channels)."""
    user = payload.pop("member")["user"]
    for key in ("guild_id", "guild_locale"):
        payload.pop(key, None)
    payload["data"].pop("guild_id", None)
    payload["user"] = user
    payload["channel_id"] = str(uid + 1)
    payload["channel"] = {"id": str(uid + 1), "type": 1, "recipients": [user]}
    payload["context"] = 1
    return payload


async def test_a_secret_order_sent_in_the_bot_s_dm_is_answered_once(
    table: Table,  # noqa: F811
) -> None:
    """C: a slash command in the private chat with the bot answered each line twice, as the
    ephemeral follow-up and again as a DM (a secret move: its answers are the sender's own
    private lines). Here a proxy limit set out of turn, a standing order (PG-O)."""
    async with running(table) as (client, http):
        table.deliveries[dc.PLATFORM].clock = lambda: NOW
        started = await two_player_powergrid(client, http)
        first, _other = to_act(started[-1])
        opening = {"plant": "3", "amount": 3}
        await feed(client, http, slash_payload("bid", opening, user_id=first))
        limit = slash_payload("bid", {"plant": "3", "max": "9"}, user_id=first)
        http.open_dm(first)  # the sender loop can post there (an unknown channel hid the copy)
        answers = await feed(client, http, in_dm(limit, first))
        for _ in range(3):
            await asyncio.sleep(0.05)
        told = [a.json.get("content", "") for a in answers]
        assert told, told
        dm = [
            r.json.get("content", "")
            for method in ("POST", "PATCH")
            for r in http.find(method, f"/channels/{first + 1}/")
        ]
        assert not set(told) & set(dm), (told, dm)
        assert not [d for d in dm if "standing order" in d or "Done in" in d], dm
        pending = await table.store.outbox(status="pending")
        assert not [p for p in pending if p.audience == f"dc:{first}"]


async def test_lang_chat_code_can_be_sent_as_slash_options(table: Table) -> None:  # noqa: F811
    """D: /lang's only option had the four codes as choices, so "/lang chat pl" (the chat's
    language, its description says) could not be sent from Discord."""
    seen: list[str] = []
    handle = table.handle

    async def spy(inbound):  # type: ignore[no-untyped-def]
        seen.append(inbound.text or "")
        return await handle(inbound)

    table.handle = spy  # type: ignore[method-assign]
    async with running(table) as (client, http):
        (synced,) = http.find("PUT", "/commands")
        lang = next(c for c in synced.json if c["name"] == "lang")
        assert [o["name"] for o in lang["options"]] == ["chat", "code"]
        await feed(client, http, slash_payload("new", {"game": "powergrid"}))
        answers = await feed(client, http, slash_payload("lang", {"chat": "chat", "code": "pl"}))
        assert seen[-1] == "/lang chat pl"
        assert any("(pl)" in a.json.get("content", "") for a in answers), answers
        assert (await table.store.chat(dc.chat_key(CHANNEL_ID))).lang == "pl"
        # the player's own language still takes the code alone
        await feed(client, http, slash_payload("lang", {"code": "ru"}))
        assert seen[-1] == "/lang ru"


async def test_the_first_prompt_is_posted_once_as_the_pinned_status_message(
    table: Table,  # noqa: F811
) -> None:
    """F: at /start the ask came as a follow-up, then the new status message repeated its
    text and buttons (pinned). Now the status message asks, once."""
    async with running(table) as (client, http):
        started = await two_player_powergrid(client, http)
        prompt = started[-1]
        asking = [
            r
            for method in ("POST", "PATCH")
            for r in http.find(method, "")
            if isinstance(r.json, dict) and r.json.get("components") and "step 1" in str(r.json)
        ]
        assert asking == [prompt], asking
        assert http.find("PUT", "/pins/")  # the status message, pinned
        assert not prompt.json.get("flags", 0) & 4096  # it notifies the player it asks


def without(payload: dict[str, Any], **denied: bool) -> dict[str, Any]:
    """The payload with the bot's permissions in the channel lacking `denied`."""
    allowed = discord.Permissions.all()
    allowed.update(**dict.fromkeys(denied, False))
    payload["app_permissions"] = str(allowed.value)
    return payload


async def test_new_is_refused_where_the_bot_may_not_post_and_warns_without_attach_files(
    table: Table,  # noqa: F811
) -> None:
    """E: where the bot lacked Send Messages or Attach Files the game went on silently (only
    the log said "refused for good ... 50013")."""
    async with running(table) as (client, http):
        new = slash_payload("new", {"game": "powergrid"}, locale="pl")
        (refused,) = await feed(client, http, without(new, send_messages=True))
        assert refused.ephemeral and "Wysyłanie wiadomości" in refused.json["content"]  # pl
        assert await table.store.open_game(dc.chat_key(CHANNEL_ID)) is None
        new = slash_payload("new", {"game": "powergrid"})
        answers = await feed(client, http, without(new, attach_files=True))
        assert await table.store.open_game(dc.chat_key(CHANNEL_ID)) is not None
        warned = [a.json["content"] for a in answers if a.ephemeral]
        assert any("Attach Files" in w for w in warned), answers
        assert any("Power Grid" in a.json["content"] for a in answers if not a.ephemeral)


async def test_attach_files_is_told_privately_at_new_and_then_once_in_the_channel(
    table: Table,  # noqa: F811
) -> None:
    """The creator of a table in a channel without Attach Files got three notes on it: at /new,
    again at /start (both private), then the channel's own note with the first picture. Now
    /new's private note, while the lobby leaves time to grant it, and the channel's one."""
    async with running(table) as (client, http):
        http.no_files.add(CHANNEL_ID)
        new = without(slash_payload("new", {"game": "powergrid"}), attach_files=True)
        answers = await feed(client, http, new)
        assert [a for a in answers if a.ephemeral and "Attach Files" in a.json["content"]]
        bob = slash_payload("join", user_id=BOB_ID, user_name="Bob")
        await feed(client, http, without(bob, attach_files=True))
        answers = await feed(client, http, without(slash_payload("start"), attach_files=True))
        assert answers and not [a for a in answers if "Attach Files" in a.json["content"]]
        await delivered(table)
        notes = [r for r in posted(http) if "Attach Files" in r.json.get("content", "")]
        assert len(notes) == 1 and not notes[0].files, [r.json for r in posted(http)]


async def delivered(at: Table) -> None:
    """Wait until the table's sender loop has delivered every row (posts or failures)."""
    at.wake_senders()
    for _ in range(500):
        if not await at.store.outbox(status="pending"):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the outbox was not delivered")


def board(caption: str, lang: str = "en") -> Outbound:
    """A phase's picture as the sender loop delivers it (drawn: the PNG and its caption)."""
    return Outbound(dc.chat_key(CHANNEL_ID), caption, png=PNG, silent=True, lang=lang)


def posted(http: DiscordHttp) -> list[Request]:
    return http.find("POST", f"/channels/{CHANNEL_ID}/messages")


async def test_a_channel_without_attach_files_gets_captions_and_one_note_until_it_allows_them(
    table: Table,  # noqa: F811
) -> None:
    """E2: a post whose picture was refused (50013) sent its text, and every phase the picture
    was tried, and refused, again. Now the channel's refusal is remembered in the store (a
    restart and every worker know it: tests/bot/platforms/test_discord_wire_pictures.py): its
    captions go alone, no upload tried, one note in the row's language says how to fix it; a
    command there whose permissions show Attach Files brings them back."""
    chat = dc.chat_key(CHANNEL_ID)
    async with running(table) as (client, http):
        http.no_files.add(CHANNEL_ID)
        await table.push([board("Po aukcji, runda 1", lang="pl")])
        await delivered(table)
        tried, caption, note = posted(http)
        assert tried.files and not caption.files and not note.files  # one upload, refused
        assert caption.json["content"] == "Po aukcji, runda 1"
        assert "Załączanie plików" in note.json["content"]  # in the row's language (pl)
        assert note.json["flags"] & 4096  # silent
        assert await table.store.pictures_refused(chat) is not None
        await table.push([board("After the auction, round 2")])
        await delivered(table)
        assert [(r.json["content"], bool(r.files)) for r in posted(http)[3:]] == [
            ("After the auction, round 2", False)  # no upload tried, no second note
        ]
        # a command whose permissions still lack Attach Files changes nothing
        await feed(client, http, without(slash_payload("status"), attach_files=True))
        await table.push([board("After the auction, round 3")])
        await delivered(table)
        assert [(r.json["content"], bool(r.files)) for r in posted(http)[4:]] == [
            ("After the auction, round 3", False)
        ]
        http.no_files.clear()  # an admin grants Attach Files; the next command shows it
        await feed(client, http, slash_payload("status"))
        assert await table.store.pictures_refused(chat) is None
        await table.push([board("After the auction, round 4")])
        await delivered(table)
        assert [(r.json["content"], r.files) for r in posted(http)[5:]] == [
            ("After the auction, round 4", [PNG])
        ]


def test_a_long_description_shows_its_leading_clause_not_a_cut() -> None:
    """G: /settings, /maxbid, /discard, /upgrade, /line, /endgame were cut with "…"."""
    maxbid = (
        "Private proxy bid on the plant being auctioned: when it is your turn the game "
        "raises by the minimum step up to your limit, then passes for you."
    )
    assert shorten(maxbid) == "Private proxy bid on the plant being auctioned"
    power = "Run plants and earn income. " + "Without plant numbers: power the most cities " * 3
    assert shorten(power) == "Run plants and earn income"
    assert shorten("x" * 120).endswith("…")  # nothing to stop at: cut
    # a Chinese clause of 8 characters is a whole one (it was cut with "…": found testing)
    settings_zh = "這個聊天室的設定：/settings [deadline=24h] " + "[reminders=0,50,90] " * 5
    assert shorten(settings_zh) == "這個聊天室的設定"
    from bot.reminder_commands import deadline_commands

    settings = next(c for c in deadline_commands() if c.name == "settings")
    for lang in ("en", "ru", "pl", "zh_Hant"):
        described = shorten(i18n.translator(lang).gettext(settings.help))
        assert len(described) <= 100 and not described.endswith("…"), (lang, described)
    games = discover_games()
    for name in ("maxbid", "discard", "upgrade", "line", "endgame"):
        for game in games.values():
            spec = next((s for s in game.commands if s.name == name), None)
            if spec is None:
                continue
            for lang in ("en", "ru", "pl", "zh_Hant"):
                described = shorten(i18n.translator(lang).gettext(spec.help))
                assert len(described) <= 100 and not described.endswith("…"), (name, lang)
