"""A game's public answer typed in a group (/market, /plants, /price, /board text) is a group
post in the chat's language; the asker who reads another language gets his copy privately,
as with /status (found play-testing, 2026-12-03: a Polish player's /market came to a Russian
chat in Polish, while a Russian player's identical one came in Russian)."""

from __future__ import annotations

from bot.i18n import tr
from bot.store import Store
from bot.table import Table, discover_games
from tests.bot.helpers import Chat, FakeClock

GAMES = discover_games()


async def _russian_chat(store: Store, clock: FakeClock) -> Chat:
    table = Table(store, games=GAMES, clock=clock, render=False, seeder=lambda: 7)
    chat = Chat(table, chat_key="local:ru", admins={"alice"})
    await chat.say("alice", "/lang chat ru")
    await chat.say("alice", "/lang pl")
    await chat.say("alice", "/new powergrid_alt")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    return chat


async def test_market_typed_in_a_russian_chat_by_a_polish_player(
    store: Store, clock: FakeClock
) -> None:
    chat = await _russian_chat(store, clock)
    theirs = await chat.say("bob", "/market")  # bob reads Russian, the chat's language
    [posted] = theirs
    assert posted.private_to is None and tr("ru", "Current market") in posted.text
    outs = await chat.say("alice", "/market")
    group = [o for o in outs if o.private_to is None]
    own = [o for o in outs if o.private_to == "local:alice"]
    assert [o.text for o in group] == [posted.text]  # the same post, whoever asks
    assert len(own) == 1 and own[0].silent and tr("pl", "Current market") in own[0].text
    assert own[0].text != posted.text


async def test_plants_typed_by_a_reader_of_the_chats_language_is_one_post(
    store: Store, clock: FakeClock
) -> None:
    chat = await _russian_chat(store, clock)
    outs = await chat.say("bob", "/plants")
    assert len(outs) == 1 and outs[0].private_to is None
    polish = await chat.say("alice", "/plants")
    assert [o.text for o in polish if o.private_to is None] == [outs[0].text]
