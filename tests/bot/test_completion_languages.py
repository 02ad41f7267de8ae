"""Autocomplete gaps an outside tester of the Discord adapter found (2026-12), through the
table service: a city typed in the reader's script in whole-text completion, `/rules`
offering rule ids and titles in the asker's language, IEC's `from <storage>` clause and
`/pass`'s words."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot import rulebook
from bot.completion import CompletionMixin
from bot.store import Store
from bot.table import Table
from engine.core.errors import IllegalAction
from engine.iec import GAME as IEC
from engine.powergrid import GAME as PG
from engine.powergrid_alt import GAME as ALT
from tests.bot.helpers import Chat, FakeClock
from tests.engine.iec.helpers import add, at, two

ALICE = "local:alice"


@pytest.fixture
def pg_chat(store: Store, clock: FakeClock) -> Chat:
    games = {"powergrid": PG, "powergrid_alt": ALT, "iec": IEC}
    return Chat(Table(store, games=games, clock=clock, seeder=lambda: 7))


async def started(chat: Chat, game: str = "powergrid") -> None:
    await chat.say("alice", f"/new {game}")
    for name in ("bob", "carol"):
        await chat.say(name, "/join")
    await chat.say("alice", "/start")


async def test_whole_text_completes_a_city_typed_in_another_script(pg_chat: Chat) -> None:
    await started(pg_chat)
    complete = pg_chat.table.complete
    key = pg_chat.chat_key
    assert await complete(key, ALICE, "args:build", "berlin ham") == ["berlin Hamburg"]
    assert await complete(key, ALICE, "args:build", "Berlin Бре") == ["Berlin Bremen"]
    assert await complete(key, ALICE, "args:build", "Гамб") == ["Hamburg"]
    assert await complete(key, ALICE, "args:cost", "Kilo") == ["Kiel"]
    assert await complete(key, ALICE, "args:build", "Berlin 漢") == [
        "Berlin Hamburg",
        "Berlin Hannover",
    ]
    assert await complete(key, ALICE, "city", "Бер") == ["Berlin"]


# (language, typed, the rule offered first) in Power Grid
RULES = [
    ("en", "auc", "PG-14 · Rounds and phases"),
    ("en", "PG-2", "PG-2 · Power plant cards"),
    ("en", "PG-21", "PG-21 · Bidding"),
    ("ru", "аукц", "PG-14 · Раунды и фазы"),
    ("ru", "PG-2", "PG-2 · Карты электростанций"),
    ("pl", "licyt", "PG-21 · Licytacja"),
    ("pl", "PG-21", "PG-21 · Licytacja"),
    ("zh_Hant", "拍賣", "PG-21 · 競標"),
    ("zh_Hant", "PG-21", "PG-21 · 競標"),
]


@pytest.mark.parametrize(("lang", "typed", "first"), RULES)
async def test_rules_offer_ids_and_titles_in_the_asker_s_language(
    pg_chat: Chat, lang: str, typed: str, first: str
) -> None:
    await started(pg_chat)
    await pg_chat.say("alice", f"/lang {lang.replace('_', '-').lower()}")
    offered = await pg_chat.table.complete(pg_chat.chat_key, ALICE, "args:rules", typed)
    assert offered and offered[0] == first, offered
    assert len(offered) <= 25 and all(len(o) <= 100 for o in offered)
    # the offer chosen is the rule it names
    answer = await pg_chat.text("alice", f"/rules {offered[0]}")
    rule_id, _, title = offered[0].partition(" · ")
    assert answer.startswith(f"{rule_id}") and title in answer, answer


async def test_rules_offers_follow_the_script_typed_and_the_game(pg_chat: Chat) -> None:
    complete, key = pg_chat.table.complete, pg_chat.chat_key
    # no game here: the games with a rulebook, then the rules of the one named
    assert await complete(key, ALICE, "args:rules", "") == ["powergrid", "powergrid_alt", "iec"]
    assert await complete(key, ALICE, "args:rules", "i") == ["iec"]
    assert (await complete(key, ALICE, "args:rules", "powergrid PG-21"))[0] == (
        "powergrid PG-21 · Bidding"
    )
    assert "PG-21 · Bidding" in await pg_chat.text("alice", "/rules powergrid PG-21 · Bidding")
    await started(pg_chat)
    # no /lang: the titles in the script typed
    assert (await complete(key, ALICE, "args:rules", "аукц"))[0] == "PG-14 · Раунды и фазы"
    assert (await complete(key, ALICE, "args:rules", "licyt"))[0] == "PG-21 · Licytacja"
    assert (await complete(key, ALICE, "args:rules", "auc"))[0] == "PG-14 · Rounds and phases"
    assert len(await complete(key, ALICE, "args:rules", "")) == 25
    assert await complete(key, ALICE, "args:rules", "zzqx") == []


@pytest.mark.parametrize("game", ["powergrid", "powergrid_alt", "iec", "hexania"])
def test_rule_offers_are_fast(game: str) -> None:
    from engine.registry import games

    found = games()[game]
    index = found.rules_index if found.capabilities.rules_index else None
    queries = ("auc", "PG-2", "аукц", "licyt", "拍賣", "zzqx", "", "IEC-S")
    for lang in ("en", "ru", "pl", "zh_Hant"):
        rulebook.offers(game, "x", lang, index)
    began = time.perf_counter()
    for lang in ("en", "ru", "pl", "zh_Hant"):
        for typed in queries:
            rulebook.offers(game, typed, lang, index)
    assert (time.perf_counter() - began) / (4 * len(queries)) < 0.005


def _iec_lay() -> tuple[dict[str, Any], str]:
    st, p1, _ = two()
    add(st, p1, "developer", "E5")
    add(st, p1, "storage", "E3", goods={"AC": 1})
    add(st, p1, "storage", "G7", goods={"AC": 3})
    add(st, p1, "storage", "C5", goods={"AB": 2})  # no AC: cannot pay a mine
    return at(st, 5, p1), p1


def _offered(st: dict[str, Any], player: str, command: str, typed: str) -> list[str]:
    return CompletionMixin._complete_args(None, IEC, st, player, command, 0, typed)  # type: ignore[arg-type]


def test_lay_from_offers_the_storages_holding_ac() -> None:
    st, p1 = _iec_lay()
    assert _offered(st, p1, "lay", "H8 F7 from ") == ["H8 F7 from G7", "H8 F7 from E3"]
    assert _offered(st, p1, "lay", "H8 F7 from e") == ["H8 F7 from E3"]
    assert _offered(st, p1, "lay", "H8 from G") == ["H8 from G7"]
    assert _offered(st, p1, "lay", "H8 from G7 ") == []  # one storage
    # before the clause: its name and values first, then more fakes
    after_fakes = _offered(st, p1, "lay", "H8 F7 ")
    assert after_fakes[:2] == ["H8 F7 from G7", "H8 F7 from E3"] and "H8 F7 A1" in after_fakes
    assert _offered(st, p1, "lay", "H8 fr") == ["H8 from G7", "H8 from E3"]
    assert not any("from" in line for line in _offered(st, p1, "lay", ""))  # the mine first
    # what is offered is what /lay reads
    act = IEC.parse(st, p1, "lay", ["H8", "F7", "from", "G7"])
    assert isinstance(act, dict) and act["from"] == "G7" and act["fake"] == ["F7"]
    # /build's AB comes from a storage holding AB
    assert _offered(st, p1, "build", "G6 storage E5 from ") == ["G6 storage E5 from C5"]


def test_pass_offers_the_words_it_reads() -> None:
    spec = next(s for s in PG.commands if s.name == "pass")
    assert spec.args[0].choices == ("round", "plant")
    state = PG.setup(["a", "b", "c"], {"map": "germany"}, 1)
    assert PG.parse(state, "a", "pass", ["round"]) == {"type": "order", "kind": "pass_round"}
    with pytest.raises(IllegalAction):  # read, but no plant is being auctioned (PG-21)
        PG.parse(state, "a", "pass", ["plant"])
    assert CompletionMixin._complete_args(None, PG, state, "a", "pass", 0, "r") == ["round"]  # type: ignore[arg-type]
