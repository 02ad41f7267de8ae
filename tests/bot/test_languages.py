"""Every reader in their own language (issue 18): a Power Grid round at a table of four players
who read four languages, through the table service, and the language commands around it.

Languages are told apart by catalog look-ups, never by the characters a text uses: every
catalog entry's translation leaves literal pieces (the text between its placeholders); a
piece that only one language's catalog has marks a line as written in that language."""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any, cast

import pytest
from babel.messages.pofile import read_po

from bot.grammar import is_merged, shared_help
from bot.i18n import LANGUAGES, LOCALE_DIR, MERGED_HELP, language_label, tr, translator
from bot.messages import Inbound, Outbound
from bot.platforms.telegram import build_application, running
from bot.store import Store
from bot.table import Table, open_table
from engine.core import Rng, load_state
from engine.core.rng import new_rng_state
from tests.bot.helpers import FakeClock, skip_end_pictures
from tests.bot.pgdrive import command_for, reads_back
from tests.bot.platforms.fake_telegram import FakeBotApi, make_settings, unthrottled

pg = pytest.importorskip("engine.powergrid")
GAME = pg.GAME
CHAT_KEY = "tg:-1001"
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\(?\w*\)?[sd]")


@cache
def pieces() -> dict[str, frozenset[str]]:
    """language -> the literal pieces (9+ characters) only that language's catalog has."""
    found: dict[str, set[str]] = {lang: set() for lang in LANGUAGES}
    for lang in LANGUAGES[1:]:
        with (LOCALE_DIR / lang / "LC_MESSAGES" / "boardchat.po").open("rb") as fh:
            catalog = read_po(fh)
        for entry in catalog:
            if not entry.id or not entry.string:
                continue
            english = [entry.id] if isinstance(entry.id, str) else list(entry.id)
            native = [entry.string] if isinstance(entry.string, str) else list(entry.string)
            for text, into in [*((e, "en") for e in english), *((n, lang) for n in native)]:
                for piece in _PLACEHOLDER.split(text):
                    piece = piece.strip(" .,:;()!?-—\n")
                    if len(piece) >= 9:
                        found[into].add(piece)
    owners: dict[str, set[str]] = {}
    for lang, found_pieces in found.items():
        for piece in found_pieces:
            owners.setdefault(piece, set()).add(lang)
    return {
        lang: frozenset(p for p in found_pieces if owners[p] == {lang})
        for lang, found_pieces in found.items()
    }


def languages_of(line: str) -> set[str]:
    return {lang for lang, own in pieces().items() if any(p in line for p in own)}


def person(name: str, platform_lang: str | None, text: str, uid: list[int]) -> Inbound:
    uid[0] += 1
    return Inbound(
        "telegram",
        CHAT_KEY,
        f"tg:{name}",
        name,
        lang=platform_lang,
        update_id=str(uid[0]),
        text=text,
    )


# alice reads English (her choice), bob Russian (his app's language: he opens the table, so
# the chat is Russian), carol Traditional Chinese (her app's), dave Polish (/lang pl beats
# his Russian app).
PLATFORM = {"alice": "ru", "bob": "ru-RU", "carol": "zh-TW", "dave": "ru"}
READS = {"alice": "en", "bob": "ru", "carol": "zh_Hant", "dave": "pl"}
CHAT_LANG = "ru"


async def test_a_round_in_four_languages_every_message_in_its_reader_s(
    store: Store, clock: FakeClock
) -> None:
    table = Table(
        store,
        games={"powergrid": GAME},
        clock=clock,
        render=False,
        seeder=lambda: 7,
        durable=("telegram",),
    )
    uid = [0]
    sent: list[tuple[str, Outbound]] = []  # (sender, message returned)

    async def say(name: str, text: str) -> list[Outbound]:
        outs = await table.handle(person(name, PLATFORM[name], text, uid))
        sent.extend((name, o) for o in outs)
        return outs

    await say("bob", "/new powergrid map=USA hidden_money=yes")
    assert (await store.chat(CHAT_KEY)).lang == CHAT_LANG
    await say("alice", "/lang en")
    await say("dave", "/lang pl")
    for name in ("alice", "carol", "dave"):
        await say(name, "/join")
    await say("bob", "/start")
    row = await store.open_game(CHAT_KEY)
    assert row is not None
    chooser = Rng(new_rng_state(18))
    refusals = 0
    for _ in range(400):
        fresh = await store.game(row.id)
        assert fresh is not None and fresh.state_json is not None
        state = json.loads(fresh.state_json)
        if state["round"] > 1:
            break
        player = GAME.current_players(state)[0]
        if refusals < 4:  # a refused move: off turn, answered to its sender alone
            other = next(p for p in READS if p != player)
            refused = await say(other, "/pass")
            assert refused and refused[0].sender_only and refused[0].lang in (None, READS[other])
            refusals += 1
        action = GAME.bots["heuristic"](json.loads(json.dumps(state)), player, chooser)
        text = command_for(action)
        assert reads_back(GAME, state, player, text, action)
        await say(player, text)
    else:
        pytest.fail("the first round did not end")
    assert refusals == 4

    # The returned messages: group posts in the chat's language; a reply only its sender
    # needs in the sender's.
    checked = 0
    for sender, out in sent:
        expected = READS[sender] if out.sender_only or out.private_to else CHAT_LANG
        if out.private_to is not None:
            expected = READS[out.private_to.removeprefix("tg:")]
        checked += check(out.text, expected)
    # The outbox rows: each row's language is its audience's, and its text is in it.
    rows = await store.outbox()
    assert rows
    for r in rows:
        want = CHAT_LANG if r.audience == "chat" else READS[r.audience.removeprefix("tg:")]
        if r.audience == "chat" and r.body.get("sender_only"):
            continue  # a reply to one sender: checked with the returned messages
        assert r.lang == want, (r.lang, want, r.body)
        checked += check(str(r.body.get("text", "")), want)
    assert checked >= 40
    # the prompts carried the other players' lines in their languages
    prompted = {
        languages_of(line).pop()
        for _, o in sent
        for line in o.text.splitlines()
        if line.startswith("@") and len(languages_of(line)) == 1
    }
    assert prompted >= {"en", "zh_Hant", "pl", "ru"}, prompted


def check(text: str, expected: str) -> int:
    """Every line is in `expected` (an @prompt line: in its player's language); returns how
    many lines a catalog piece identified."""
    identified = 0
    for line in text.splitlines():
        want = expected
        # "@ann, @bo: ..." as its language lists them ("@ann、@bo：..." in Chinese)
        found = re.match(r"^@(\w+)(?:(?:, |、)@\w+)*(?:: |：)", line)
        if found and expected == CHAT_LANG and found.group(1) in READS:
            # "@carol: ..." under the chat's prompt: carol's line in carol's language, unless
            # the line is the chat's own prompt (all prompted players together)
            langs = {READS[n] for n in re.findall(r"@(\w+)", found.group(0))}
            want = langs.pop() if len(langs) == 1 else CHAT_LANG
            if want != CHAT_LANG and languages_of(line) == {CHAT_LANG}:
                want = CHAT_LANG  # the chat's prompt naming one player
        seen = languages_of(line)
        assert seen <= {want}, f"{line!r}: in {seen}, expected {want}"
        identified += bool(seen)
    return identified


_local_ids = itertools.count(1)


def person_in(chat: str, name: str, text: str, admin: bool = False) -> Inbound:
    return Inbound(
        "local",
        chat,
        f"local:{name}",
        name,
        update_id=f"l{next(_local_ids)}",
        text=text,
        is_admin=admin,
    )


async def started(
    table: Table, chat: str, game_id: str, chat_lang: str, readers: dict[str, str]
) -> None:
    """A table of `game_id` in a chat of `chat_lang`, opened by the first of `readers` (name ->
    his own language), all of them seated, started."""
    creator = next(iter(readers))
    await table.handle(person_in(chat, creator, f"/new {game_id}"))
    await table.handle(person_in(chat, creator, f"/lang chat {chat_lang}"))
    for name, lang in readers.items():
        await table.handle(person_in(chat, name, f"/lang {lang}"))
        if name != creator:
            await table.handle(person_in(chat, name, "/join"))
    await table.handle(person_in(chat, creator, "/start"))


async def test_lang_is_personal_and_lang_chat_takes_the_creator_or_an_admin(
    store: Store, clock: FakeClock
) -> None:
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False)
    chat = "local:c"
    await table.handle(person_in(chat, "bob", "/lang ru"))
    await table.handle(person_in(chat, "bob", "/new powergrid"))
    assert (await store.chat(chat)).lang == "ru"  # the opener's language
    outs = await table.handle(person_in(chat, "carol", "/lang pl"))
    assert outs[0].text == tr("pl", "Your language: {code}.", code="polski (pl)")
    assert (await store.chat(chat)).lang == "ru"  # /lang is personal
    outs = await table.handle(person_in(chat, "carol", "/lang chat pl"))
    refusal = "Only the creator of this chat's table or a chat admin sets its language."
    assert outs[0].text == tr("pl", refusal) and outs[0].sender_only
    assert (await store.chat(chat)).lang == "ru"
    outs = await table.handle(person_in(chat, "dan", "/lang chat zh-TW", admin=True))
    assert outs[0].text == tr(
        "zh_Hant", "This chat's language: {code}.", code="中文 (繁體) (zh-hant)"
    )
    outs = await table.handle(person_in(chat, "bob", "/lang chat pl"))
    assert (await store.chat(chat)).lang == "pl"
    assert outs[0].text == tr("pl", "This chat's language: {code}.", code="polski (pl)")
    # carol (pl) joins: the group post is in the chat's Polish, the seat list in it
    outs = await table.handle(person_in(chat, "carol", "/join"))
    assert outs[0].lang == "pl" and tr("pl", "Ready: the creator may /start.") != "Ready"


@pytest.mark.parametrize(
    ("words", "lang"),
    [
        ("polski", "pl"),
        ("Polish", "pl"),
        ("польский", "pl"),
        ("русский (ru)", "ru"),
        ("中文", "zh_Hant"),
        ("中文 (繁體)", "zh_Hant"),
        ("English", "en"),
        ("angielski", "en"),
        ("zh-TW", "zh_Hant"),
    ],
)
async def test_lang_takes_a_language_by_its_name_in_any_of_ours(
    store: Store, clock: FakeClock, words: str, lang: str
) -> None:
    """Found playing, 2026-12-03: "/lang polski" was refused as an unknown language."""
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False)
    outs = await table.handle(person_in("local:n", "carol", f"/lang {words}"))
    assert outs[0].text == tr(lang, "Your language: {code}.", code=language_label(lang))
    refused = await table.handle(person_in("local:n", "carol", "/lang klingon"))
    assert "klingon" in refused[0].text and refused[0].sender_only


async def test_a_bot_seated_in_a_russian_chat_is_named_in_russian(
    store: Store, clock: FakeClock
) -> None:
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False)
    chat = "local:bots"
    await table.handle(person_in(chat, "bob", "/lang ru"))
    await table.handle(person_in(chat, "bob", "/new powergrid"))
    await table.handle(person_in(chat, "bob", "/addbot"))
    await table.handle(person_in(chat, "bob", "/addbot"))
    row = await store.open_game(chat)
    assert row is not None
    names = [s.display_name for s in await store.seats(row.id)]
    assert tr("ru", "Bot") == "Бот" and names == ["bob", "Бот", "Бот 2"]


@pytest.mark.parametrize(
    ("lang", "left"),
    [
        ("ru", "Срок хода: ещё 23 часа 59 минут."),
        ("pl", "jeszcze 23 godziny 59 minut"),
        ("zh_Hant", "還有 23 小時 59 分鐘"),
    ],
)
async def test_the_time_left_in_status_is_babel_s_words_in_the_chat_s_language(
    store: Store, clock: FakeClock, lang: str, left: str
) -> None:
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False)
    chat = "local:deadline"
    await table.handle(person_in(chat, "bob", f"/lang {lang}"))
    await table.handle(person_in(chat, "bob", "/new powergrid"))
    await table.handle(person_in(chat, "carol", "/join"))
    await table.handle(person_in(chat, "bob", "/start"))
    clock.advance(60)
    status = "\n".join(o.text for o in await table.handle(person_in(chat, "bob", "/status")))
    assert left in status, status
    # a player without plants is told so in words, not "plants -"
    none_yet = tr(lang, "You have {money}, {cities} and no plants yet.").split("{")[0]
    assert none_yet in status and " -." not in status, status


async def test_info_answers_in_a_group_are_in_the_chats_language_and_the_askers_privately(
    store: Store, clock: FakeClock
) -> None:
    """Who reads what: /status, /rules, /log, /help asked in a Russian group by dave, who reads
    Polish, are group posts in Russian; dave alone also gets each in Polish; his refusal is in
    Polish, once. bob, who reads Russian, gets one answer."""
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False, seeder=lambda: 3)
    chat = "local:group"
    await table.handle(person_in(chat, "bob", "/lang ru"))
    await table.handle(person_in(chat, "bob", "/new powergrid"))
    await table.handle(person_in(chat, "dave", "/lang pl"))
    for name in ("dave", "carol"):
        await table.handle(person_in(chat, name, "/join"))
    await table.handle(person_in(chat, "bob", "/start"))
    assert (await store.chat(chat)).lang == "ru"
    for query in ("/status", "/rules", "/log", "/help", "/help build"):
        outs = await table.handle(person_in(chat, "dave", query))
        posted = [o for o in outs if o.private_to is None and not o.sender_only]
        mine = [o for o in outs if o.private_to == "local:dave"]
        assert posted and len(mine) >= len(posted), (query, outs)  # /status: + his own part
        assert all(o.lang == "ru" for o in posted) and all(o.lang == "pl" for o in mine)
        assert all(not o.buttons for o in mine)
        assert sum(check(o.text, "ru") for o in posted) >= 1, query
        assert sum(check(o.text, "pl") for o in mine) >= 1, query
        same = [o for o in await table.handle(person_in(chat, "bob", query)) if not o.private_to]
        assert [o.text for o in same] == [o.text for o in posted], query
    refused = await table.handle(person_in(chat, "dave", "/log many"))
    assert len(refused) == 1 and refused[0].sender_only
    assert refused[0].text == tr("pl", "Usage: /log [page], a number.")
    # Asked in dave's private chat with the bot: his language only, one answer.
    direct = Inbound("local", "local:dm-dave", "local:dave", "dave", update_id="dm1", text="/rules")
    outs = await table.handle(replace(direct, is_private=True))
    assert len(outs) == 1 and check(outs[0].text, "pl") >= 1


async def test_status_asked_in_another_language_is_one_private_message_with_his_own_turn(
    store: Store, clock: FakeClock
) -> None:
    """Found playing (2026-12-02): bob, reading Chinese in a Polish group, got /status twice
    privately: the group's post in Chinese, then his own turn (his money) in a second message.
    Now one private message: the status with his own turn in place of the table's."""
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False, seeder=lambda: 3)
    chat = "local:status"
    await started(table, chat, "powergrid", "pl", {"ann": "pl", "bob": "zh_Hant", "cyd": "ru"})
    row = await store.open_game(chat)
    assert row is not None and row.state_json is not None
    state = load_state(row.state_json)
    for name, lang in (("bob", "zh_Hant"), ("cyd", "ru")):
        outs = await table.handle(person_in(chat, name, "/status"))
        posted = [o for o in outs if o.private_to is None and not o.sender_only]
        mine = [o for o in outs if o.private_to == f"local:{name}"]
        assert len(posted) == 1 and posted[0].lang == "pl", outs
        assert len(mine) == 1 and mine[0].lang == lang and mine[0].silent, outs
        own = GAME.describe_turn(state, name, translator(lang)).strip()
        table_s = GAME.describe_turn(state, None, translator(lang)).strip()
        assert own != table_s and own in mine[0].text  # his money, once
        assert mine[0].text.count(table_s.splitlines()[0]) == 1, mine[0].text
        assert mine[0].text.startswith(tr(lang, "{game}, waiting for {who}.").split("{")[0])


async def test_undo_abort_and_stats_speak_to_the_group_in_the_chats_language(
    store: Store, clock: FakeClock
) -> None:
    """Found playing (2026-11-29): /undo's line and /abort's end came in the sender's
    language, with the game's English name; /stats was a group post in the asker's."""
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False, seeder=lambda: 3)
    chat = "local:undo"
    await started(
        table, chat, "powergrid regions=random", "pl", {"bob": "ru", "dave": "pl"}
    )  # not bob's
    row = await store.open_game(chat)
    assert row is not None and row.state_json is not None
    await table.handle(person_in(chat, "bob", "/bid 3"))  # refused unless his turn: no matter
    await table.handle(person_in(chat, "dave", "/bid 3"))
    mover = (await store.actions(row.id))[-1].player
    outs = await table.handle(person_in(chat, mover, "/undo"))
    line = tr("pl", "{name} takes back their last move.", name=mover)
    assert any(line in o.text for o in outs if o.private_to is None), [o.text for o in outs]
    outs = await table.handle(person_in(chat, "bob", "/stats"))
    posted = [o for o in outs if o.private_to is None]
    assert posted and all(o.lang == "pl" for o in posted)
    assert any(o.private_to == "local:bob" and o.lang == "ru" for o in outs)
    outs = await table.handle(person_in(chat, "bob", "/abort confirm"))
    name = tr("pl", GAME.name)
    assert name != GAME.name  # the game's Polish name, not "Power Grid"
    ended = tr("pl", "{game} was ended without a result. /new starts another.", game=name)
    assert any(o.text == ended for o in outs), [o.text for o in outs]


async def test_option_values_ignore_case_map_usa(store: Store, clock: FakeClock) -> None:
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False)
    await table.handle(person_in("local:u", "ann", "/new powergrid map=USA"))
    row = await store.open_game("local:u")
    assert row is not None and row.options["map"] == "usa"


@pytest.mark.parametrize(
    ("game_id", "typed", "key", "value"),
    [
        ("powergrid_alt", "map=USA", "map", "usa"),
        ("hexania", "Split=YES Rounds=20", "split", "yes"),
        ("iec", "MINE_WAR=Off", "mine_war", "off"),
    ],
)
async def test_option_keys_and_values_ignore_case_in_every_game(
    store: Store, clock: FakeClock, game_id: str, typed: str, key: str, value: str
) -> None:
    from engine.registry import games

    table = Table(store, games={game_id: games()[game_id]}, clock=clock, render=False)
    await table.handle(person_in("local:case", "ann", f"/new {game_id} {typed}"))
    row = await store.open_game("local:case")
    assert row is not None and row.options[key] == value, row and row.options


async def test_pg_build_munich_by_its_russian_name(store: Store, clock: FakeClock) -> None:
    assert pg.names.match("Мюнхен", ["München", "Berlin"]).unique == "München"
    assert pg.names.match("Monachium", ["München", "Berlin"]).unique == "München"
    assert pg.names.match("Мюнхен", ["Berlin"]).names == ()  # never a city outside the list
    split = pg.names.split_names(["Мюнхен", "Berlin"], ["München", "Berlin"])
    assert [s.match.unique for s in split] == ["München", "Berlin"]


# ------------------------------------------------------------------ menus in every language
def _all_games_table() -> Table:
    return Table(cast(Store, None), render=False)  # menus need no store


@pytest.mark.parametrize("lang", LANGUAGES)
def test_menu_descriptions_are_one_piece_each_never_games_glued(lang: str) -> None:
    table = _all_games_table()
    merged = {s.name for s in table.command_specs() if is_merged(s)}
    assert {"build", "bid"} <= merged
    menu = dict(table.command_menu(lang))
    for name in merged:  # each shared name: its own game-neutral meaning (issue 22)
        assert menu[name] == tr(lang, shared_help(name)) != tr(lang, MERGED_HELP)
    if lang != "en":
        assert tr(lang, MERGED_HELP) != MERGED_HELP
        english = dict(table.command_menu("en"))
        assert [n for n in menu if menu[n] == english[n]] == []


async def test_telegram_menus_per_language_through_the_bot_api(tmp_path: Path) -> None:
    real = await open_table(str(tmp_path / "tg.sqlite3"))
    settings = make_settings()
    async with FakeBotApi() as api:
        app = build_application(real, settings, base_url=api.base_url, rate_limiter=unthrottled())
        try:
            async with running(app, settings, poll_timeout=5):
                calls = api.since(0, "setMyCommands")
        finally:
            await real.close()
    codes = [c.params.get("language_code") for c in calls]
    assert codes == [None, "ru", "zh", "pl"]
    for call, lang in zip(calls, ("en", "ru", "zh_Hant", "pl"), strict=True):
        menu = {c["command"]: c["description"] for c in call.json("commands")}
        assert menu["build"] == tr(lang, shared_help("build"))
        assert (
            menu["new"]
            == tr(lang, "Open a new game in this chat: /new <game> [option=value ...]")[:256]
        )


async def test_discord_translator_gives_each_piece_in_every_catalog_language() -> None:
    from discord import Locale, app_commands

    from bot.platforms.discord_bot import I18nTranslator
    from bot.platforms.discord_commands import plan_commands, shorten

    plans = {p.name: p for p in plan_commands(_all_games_table().command_specs())}
    assert plans["build"].source == shared_help("build")  # shared by games: the neutral text
    translator = I18nTranslator()
    where: app_commands.TranslationContext[Any, Any] = (
        app_commands.TranslationContext(  # no command: the translator reads the location
            app_commands.TranslationContextLocation.command_description,
            cast("app_commands.Command[Any, ..., Any]", None),
        )
    )
    for locale, lang in (
        (Locale.russian, "ru"),
        (Locale.taiwan_chinese, "zh_Hant"),
        (Locale.polish, "pl"),
    ):
        for plan in plans.values():
            text = app_commands.locale_str(plan.description, source=plan.source)
            got = await translator.translate(text, locale, where)
            # whole, or its leading clause when past Discord's 100 characters (shorten)
            assert got == shorten(tr(lang, plan.source)) and len(got) <= 100, (
                plan.name,
                lang,
                got,
            )


# ------------------------------------------------------------------ dates and durations
def test_durations_and_moments_in_the_reader_s_locale_and_zone() -> None:
    from bot.deadlines import human_duration, human_when

    day_and_half = 36 * 3600.0
    assert human_duration(day_and_half, "en") == "1 day 12 hours"
    assert human_duration(day_and_half, "ru") == "1 день 12 часов"
    assert human_duration(day_and_half, "pl") == "1 dzień 12 godzin"
    assert human_duration(day_and_half, "zh_Hant") == "1 天 12 小時"
    assert human_duration(2 * 3600 + 24 * 60, "ru") == "2 часа 24 минуты"  # plural forms
    # under a minute left is a minute, nothing left no minutes: never "0 seconds"
    assert [human_duration(s, "en") for s in (0, 10, 29, 31, 89)] == [
        "0 minutes",
        "1 minute",
        "1 minute",
        "1 minute",
        "1 minute",
    ]
    assert human_duration(0, "ru") == "0 минут" and human_duration(20, "pl") == "1 minuta"
    t = 1_700_000_000.0  # 2023-11-14 22:13:20 UTC
    assert human_when(t, "UTC", "ru") == "14 нояб. 2023\u202fг., 22:13"
    assert human_when(t, "Europe/Warsaw", "pl") == "14 lis 2023, 23:13"
    assert human_when(t, "+08:00", "zh_Hant").startswith("2023年11月15日")


# ------------------------------------------------------------------ the demo in a language
@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    ("lang", "game_id"), [("ru", "powergrid"), ("pl", "iec"), ("zh_Hant", "hexania")]
)
async def test_demo_writes_its_log_entirely_in_the_language(
    lang: str, game_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    # the end pictures in another language: tests/bot/test_cards.py
    skip_end_pictures(monkeypatch)
    from bot.demo import run_demo
    from engine.registry import games

    out = io.StringIO()
    code = await run_demo(game_id, 2, 3, str(tmp_path), None, None, stdout=out, lang=lang)
    assert code == 0, out.getvalue()
    assert out.getvalue().startswith(tr(lang, games()[game_id].name))
    # the summary and the end-of-game line are in the language too, the bots named in it
    summary = out.getvalue().splitlines()
    assert [line for line in summary if languages_of(line) - {lang}] == []
    assert summary[1].startswith("1. " + tr(lang, "Bot"))
    ending = tr(lang, "End of the game: {files} ({frames}) in {folder}").split("{")[0]
    assert any(line.startswith(ending) for line in summary), ending

    lines = [
        line for line in (tmp_path / "log.txt").read_text(encoding="utf-8").splitlines() if line
    ]
    found = [languages_of(line) for line in lines]
    assert [line for line, seen in zip(lines, found, strict=True) if seen - {lang}] == []
    assert sum(1 for seen in found if seen == {lang}) >= 10
    assert list(tmp_path.glob("*.png"))


def test_power_grid_alt_reads_city_names_in_every_language_too() -> None:
    from engine.core.commands import Call
    from engine.core.protocol import EnglishTranslator
    from engine.powergrid_alt import commands as alt_commands
    from engine.registry import games

    state = games()["powergrid_alt"].setup(["ann", "bob"], {"map": "germany"}, 3)
    typed = ["Мюнхен", "Monachium", "慕尼黑", "munchen"]
    table = alt_commands.TABLE
    spec = table.spec("tp")
    assert spec is not None
    call = Call(state, "ann", typed, EnglishTranslator(), spec, table)
    assert call.read("city") == ["München"] * 4  # the declared city reader of every command


async def test_too_few_words_answer_with_the_command_s_signature_in_the_reader_s_words(
    store: Store, clock: FakeClock
) -> None:
    """IEC declares no usage line per command: too few words (`/relocate` alone in phase 5)
    get "Missing argument." and the signature built from the declaration, in the reader's
    language. `/build` alone in phase 5 gets the phase's refusal first (IEC-27)."""
    from engine.registry import games

    table = Table(store, games={"iec": games()["iec"]}, clock=clock, render=False)
    for name, text in [("ann", "/new iec"), ("bob", "/join"), ("ann", "/start")]:
        await table.handle(person_in("local:sig", name, text))
    await table.handle(person_in("local:sig", "bob", "/lang pl"))
    row = await store.open_game("local:sig")
    assert row is not None and row.state_json is not None
    for name, lang in [("ann", "en"), ("bob", "pl")]:
        outs = await table.handle(person_in("local:sig", name, "/relocate"))
        text = " ".join(o.text for o in outs)
        assert tr(lang, "Missing argument.") in text, text
        assert tr(lang, "Usage: {usage}", usage="/relocate <") in text, text
        if lang == "en":
            assert "/relocate <from> <to>" in text, text
        else:
            assert "/relocate <skąd> <dokąd>" in text, text  # the placeholders in Polish too
        outs = await table.handle(person_in("local:sig", name, "/build"))
        text = " ".join(o.text for o in outs)
        assert "(IEC-27)" in text and "/lay, /relocate, /done" in text, text
        assert tr(lang, "Missing argument.") not in text, text
    assert await store.open_game("local:sig") == row  # nothing changed


async def test_help_new_tells_each_option_of_a_game_in_the_readers_words(
    store: Store, clock: FakeClock
) -> None:
    """Found playing (2026-11-29): the games' options were told nowhere; Hexania's round limit
    must say it is an addition to the source rules (HEX-OPT-LIMIT)."""
    from engine.hexania import GAME as HEXANIA

    table = Table(store, games={"powergrid": GAME, "hexania": HEXANIA}, clock=clock, render=False)
    outs = await table.handle(person_in("local:help", "ann", "/help new hexania"))
    text = "\n".join(o.text for o in outs)
    rounds = next(o for o in HEXANIA.options if o.key == "rounds")
    assert "an addition not in the source rules" in rounds.help
    assert tr("en", rounds.help) in text and "rounds:" in text
    assert all(f"  {o.key}: " in text for o in HEXANIA.options)
    assert "hidden_money" not in text  # only the game asked about
    await table.handle(person_in("local:help", "ann", "/lang ru"))
    outs = await table.handle(person_in("local:help", "ann", "/help new powergrid"))
    text = "\n".join(o.text for o in outs)
    hidden = next(o for o in GAME.options if o.key == "hidden_money")
    assert tr("ru", hidden.help) in text and tr("ru", hidden.help) != hidden.help


async def news_and_own(
    table: Table, chat: str, name: str, text: str
) -> tuple[list[Outbound], list[Outbound]]:
    """What `name`'s command posts for the whole chat, and what it tells him alone."""
    outs = await table.handle(person_in(chat, name, text))
    news = [o for o in outs if not o.sender_only and o.private_to is None]
    return news, [o for o in outs if o.sender_only]


async def test_away_and_back_tell_the_group_in_its_language_and_the_sender_in_his(
    store: Store, clock: FakeClock
) -> None:
    """Found playing (2026-11-29): /away and /back were group posts in the sender's language,
    telling the whole group "your turns wait for you"."""
    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False, seeder=lambda: 3)
    chat = "local:away"
    await started(table, chat, "powergrid", "pl", {"ann": "en", "bob": "ru"})
    news, mine = await news_and_own(table, chat, "bob", "/away 2h")
    assert len(news) == 1 and news[0].lang == "pl" and "bob" in news[0].text
    assert check(news[0].text, "pl") >= 1
    assert len(mine) == 1 and mine[0].lang == "ru"
    assert mine[0].private_to is not None  # to him alone, not a group post in Russian
    assert news[0].silent and mine[0].silent  # they ask nobody to act
    assert tr("ru", "/back ends it early.") in mine[0].text
    assert tr("pl", "/back ends it early.") not in news[0].text  # his alone
    outs = await table.handle(person_in(chat, "bob", "/back"))
    assert [o.text for o in outs] == [
        tr("pl", "Welcome back, {name}: your seats are yours again.", name="bob")
    ]


async def test_settings_saved_tells_the_group_in_its_language_and_the_sender_in_his(
    store: Store, clock: FakeClock
) -> None:
    """Found play-testing, 2026-12-03: "/settings deadline=2d" from a Polish player in a
    Russian chat answered the whole group in Polish. His copy in his own language comes where
    he alone reads it, a Discord ephemeral reply; where the platform has none (Telegram, the
    terminal) it was a second post in the group (found re-testing, 2026-12-05), so the group's
    news is all."""
    from dataclasses import replace

    table = Table(store, games={"powergrid": GAME}, clock=clock, render=False, seeder=lambda: 3)
    chat = "local:settings"
    await started(table, chat, "powergrid", "ru", {"ann": "pl", "bob": "en"})
    news, mine = await news_and_own(table, chat, "ann", "/settings deadline=2d")
    assert len(news) == 1 and news[0].lang == "ru"
    assert news[0].text.startswith(tr("ru", "Settings saved."))
    assert mine == []
    on_discord = replace(person_in(chat, "ann", "/settings deadline=3d"), platform="discord")
    outs = await table.handle(on_discord)
    (mine_there,) = [o for o in outs if o.sender_only]
    assert mine_there.lang == "pl" and mine_there.silent
    assert mine_there.text.startswith(tr("pl", "Settings saved."))
    assert tr("ru", "Settings saved.") != tr("pl", "Settings saved.")


async def test_help_addbot_offers_the_kinds_of_the_open_game(
    store: Store, clock: FakeClock
) -> None:
    """Found playing IEC (2026-11-29): /help addbot offered every game's bot kinds, and its
    example (/addbot heuristic) was one IEC refuses."""
    from engine.iec import GAME as IEC

    table = Table(store, games={"powergrid": GAME, "iec": IEC}, clock=clock, render=False)
    await table.handle(person_in("local:bots", "ann", "/new iec"))
    outs = await table.handle(person_in("local:bots", "ann", "/help addbot"))
    text = "\n".join(o.text for o in outs)
    assert f"({', '.join(IEC.bots)})" in text
    assert "heuristic" not in text and "heuristic" not in IEC.bots
    example = text.rsplit("/addbot ", 1)[-1].split()[0].strip(",.")
    reply = await table.handle(person_in("local:bots", "ann", f"/addbot {example}"))
    assert "Bot kinds" not in "\n".join(o.text for o in reply)  # the example seats a bot


async def test_log_reaches_an_asker_of_another_language_once_with_his_private_lines(
    store: Store, clock: FakeClock
) -> None:
    """Found playing IEC (2026-11-29): an asker reading another language than the chat's got
    two private copies of /log, the table's page and his own."""
    from engine.iec import GAME as IEC

    table = Table(store, games={"iec": IEC}, clock=clock, render=False, seeder=lambda: 2)
    chat = "local:log"
    await started(table, chat, "iec", "en", {"ann": "en", "bob": "ru"})
    await table.handle(person_in(chat, "bob", "/antimissile on"))  # a private standing order
    outs = await table.handle(person_in(chat, "bob", "/log"))
    group = [o for o in outs if o.private_to is None]
    his = [o for o in outs if o.private_to == "local:bob"]
    assert len(group) == 1 and group[0].lang == "en"
    assert len(his) == 1 and his[0].lang == "ru", [o.text for o in his]


def on_discord(name: str, text: str) -> Inbound:
    return Inbound(
        "discord", "dc:1:2", f"dc:{name}", name, update_id=f"d{next(_local_ids)}", text=text
    )


async def test_what_only_the_mover_sees_of_his_run_is_in_his_language_on_discord(
    store: Store, clock: FakeClock
) -> None:
    """Found play-testing on Discord: the ephemeral copy of a move's lines that only its
    sender sees ("Ann bids 4.", when nobody is asked anew) came in the chat's language, not
    in his /lang. It is his alone: his language, for his move, the computer players' answers
    in the same run and an /undo; the group's status lines stay in the chat's."""
    table = Table(
        store,
        games={"powergrid": GAME},
        clock=clock,
        render=False,
        seeder=lambda: 7,
        durable=("discord",),
    )
    await table.handle(on_discord("ann", "/new powergrid regions=random"))  # an English chat
    await table.handle(on_discord("ann", "/lang pl"))
    await table.handle(on_discord("ann", "/addbot"))
    await table.handle(on_discord("ann", "/start"))  # Bot opens plant 3 at 3: ann bids
    outs = await table.handle(on_discord("ann", "/raise 4"))
    [mine] = [o for o in outs if o.sender_only]
    bid = "{player} bids {bid}."
    assert mine.text == "\n".join(
        [tr("pl", bid, player="ann", bid=4), tr("pl", bid, player="Bot", bid=5)]
    )
    assert mine.lang == "pl" and not mine.private_to
    [status] = [o for o in outs if o.status_of is not None]
    assert status.lang == "en" and tr("en", bid, player="ann", bid=4) in status.status_lines
    outs = await table.handle(on_discord("ann", "/undo"))
    [mine] = [o for o in outs if o.sender_only]
    assert mine.lang == "pl" and mine.text.startswith(
        tr("pl", "{name} takes back their last move.", name="ann")
    )
