"""A secret order typed where the whole chat reads it (found play-testing, 2026-12-03: on
Telegram `/lay D1 E1 F1`, `/tech 13` or `/maxbid 30` sent in the group were played and
confirmed privately, but everyone had read the command: the real mine is the first cell).

A move with a part the rules keep to its mover (a proxy bid's limit, PG-O; a sealed order of a
phase declared at once, IEC-S-10.4 / IEC-S-26) is refused, changing nothing, when it arrives as
a message the chat reads (`Inbound.seen_by_chat`: a Telegram group's text, a terminal group
line); sent privately, or as a button press or a Discord interaction, it is played as before.
A public move typed in the group is played as before.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from bot.i18n import tr
from bot.messages import Inbound, Outbound
from bot.moves import SECRET_IN_CHAT
from bot.store import Store
from bot.table import Table, discover_games
from engine.core import canonical_json
from tests.bot.helpers import FakeClock, joined
from tests.bot.test_declared_phases_noninterference import _phase10
from tests.engine.iec.helpers import dice
from tests.engine.powergrid_alt.helpers import give_plant, set_phase

GROUP = "tg:-1001"
GAMES = discover_games()


def typed(user: str, text: str, *, private: bool = False, lang: str | None = None) -> Inbound:
    """A Telegram text message: in the group (the chat reads it) or in the private chat."""
    return Inbound(
        platform="telegram",
        chat_key=f"tg:dm-{user}" if private else GROUP,
        user_key=f"tg:{user}",
        display_name=user,
        lang=lang,
        text=text,
        is_private=private,
        seen_by_chat=not private,
    )


@pytest.fixture
async def table(db_path: str, clock: FakeClock) -> AsyncIterator[Table]:
    store = await Store.open(db_path, clock=clock)
    table = Table(store, games=GAMES, clock=clock, render=False, seeder=lambda: 7)

    async def pushed(_out: Outbound) -> None:
        return None

    table.register_sender("telegram", pushed)
    yield table
    await store.close()


async def start(table: Table, game: str, players: list[str]) -> int:
    await table.handle(typed(players[0], f"/new {game}"))
    for name in players[1:]:
        await table.handle(typed(name, "/join"))
    outs = await table.handle(typed(players[0], "/start"))
    assert "begins" in joined(outs), joined(outs)
    row = await table.store.open_game(GROUP)
    assert row is not None
    return row.id


async def version(table: Table, pk: int) -> tuple[int, str]:
    row = await table.store.game(pk)
    assert row is not None and row.state_json is not None
    return row.version, row.state_json


def refused_secretly(outs: list[Outbound], lang: str = "en") -> bool:
    return (
        len(outs) == 1
        and outs[0].text == tr(lang, SECRET_IN_CHAT)
        and outs[0].sender_only
        and outs[0].silent
    )


async def test_pg_o_a_proxy_bid_typed_in_the_group_is_refused_and_played_in_private(
    table: Table,
) -> None:
    # bob chooses first, in round 1's auction (regions drawn, not chosen: PG-D-3's default)
    pk = await start(table, "powergrid regions=random", ["alice", "bob", "carol"])
    opened = await table.handle(typed("bob", "/bid 4 5"))  # a public move: played
    assert "bob puts plant 4 up for auction" in joined(opened)
    before = await version(table, pk)
    (bidder,) = GAMES["powergrid"].current_players(json.loads(before[1]))
    waiting = "carol" if bidder == "alice" else "alice"
    # a limit (PG-O: his alone) typed in the group: off turn, and with his turn's bid
    assert refused_secretly(await table.handle(typed(waiting, "/maxbid 30")))
    assert refused_secretly(await table.handle(typed(bidder, "/bid 4 6 max=30")))
    assert await version(table, pk) == before  # nothing changed
    ru = await table.handle(typed(waiting, "/maxbid 30", lang="ru"))
    assert refused_secretly(ru, "ru") and ru[0].text != tr("en", SECRET_IN_CHAT)
    # the same order sent privately is played, and the group is told nothing of it
    outs = await table.handle(typed(waiting, "/maxbid 30", private=True))
    assert "30" in joined(outs)
    assert not any(o.chat_key == GROUP and not o.private_to and "30" in o.text for o in outs)
    assert (await version(table, pk))[0] == before[0] + 1
    # a public raise typed in the group is played; as a Discord interaction or a button
    # (nothing the chat reads) the secret limit is too
    raised = await table.handle(typed(bidder, "/raise 6"))
    assert f"{bidder} bids 6" in joined(raised) or "6" in joined(raised)
    assert (await version(table, pk))[0] >= before[0] + 2
    after = await version(table, pk)
    (next_bidder,) = GAMES["powergrid"].current_players(json.loads(after[1]))
    limit = replace(typed(next_bidder, "/maxbid 40"), seen_by_chat=False)
    assert not refused_secretly(await table.handle(limit))
    assert (await version(table, pk))[0] > after[0]


async def test_iec_s_26_a_sealed_order_typed_in_the_group_is_refused(
    table: Table, db_path: str
) -> None:
    """IEC rules version 2, phase 10 declared at once: bob's transmission is secret until
    everybody has decided (IEC-S-10.4); typed in the group it is refused."""
    await table.handle(typed("alice", "/new iec rules_version=2"))
    await table.handle(typed("bob", "/join"))
    await table.handle(typed("alice", "/start"))
    row = await table.store.open_game(GROUP)
    assert row is not None and row.state_json is not None
    state = _phase10(json.loads(row.state_json), 9)
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE games SET state_json = ? WHERE id = ?", (canonical_json(state), row.id))
    before = await version(table, row.id)
    with dice(3, 6, 6, 6, 6, 6):
        assert refused_secretly(await table.handle(typed("bob", "/transmit G3")))
        assert await version(table, row.id) == before
        outs = await table.handle(typed("bob", "/transmit G3", private=True))
    assert not any(o.chat_key == GROUP and not o.private_to and "G3" in o.text for o in outs)
    assert (await version(table, row.id))[0] == before[0] + 1


async def test_alt30_a_power_declaration_typed_in_the_group_is_refused(
    table: Table, db_path: str
) -> None:
    """The alternative rules, version 2: Phase 5 is declared by everybody at once and the
    choices are carried out when all have chosen (ALT-30, rules.py `_power`); the group
    reads that alice has chosen, not which plants and cities (found play-testing: `/power 5
    Dortmund` typed in the group was played while a `/buy` there was refused)."""
    pk = await start(table, "powergrid_alt rules_version=2 regions=random", ["alice", "bob"])
    row = await table.store.game(pk)
    assert row is not None and row.state_json is not None
    state = json.loads(row.state_json)
    set_phase(state, "bureaucracy", order=["alice", "bob"])
    give_plant(state, "alice", 4, "Kiel", coal=2)
    give_plant(state, "bob", 10, "Hamburg", coal=2)
    assert GAMES["powergrid_alt"].current_players(state) == ["alice", "bob"]
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE games SET state_json = ? WHERE id = ?", (canonical_json(state), pk))
    before = await version(table, pk)
    assert refused_secretly(await table.handle(typed("alice", "/power 4 Kiel")))
    assert await version(table, pk) == before
    outs = await table.handle(typed("alice", "/power 4 Kiel", private=True))
    assert not any(o.chat_key == GROUP and not o.private_to and "Kiel" in o.text for o in outs)
    assert (await version(table, pk))[0] == before[0] + 1
    # a public move of the same phase, typed in the group, is played as before
    assert not refused_secretly(await table.handle(typed("bob", "/done")))


@pytest.mark.parametrize("rules_version", ["1", "2"])
async def test_iec_s_26_a_secret_choice_typed_in_the_group_is_refused_alike_whoever_owns_it(
    table: Table, db_path: str, rules_version: str
) -> None:
    """Found play-testing, 2026-12-04: `/sweep T9` typed in the group was refused privately
    to a company without Minesweepers ("you have not discovered it") and publicly to its
    owner ("this is a secret order"), so whether a reply came told the group who owns it;
    `/tech 7` the same for an owned technology. Now both get the same refusal, before the
    move is looked at, and nothing changes."""
    await table.handle(typed("alice", f"/new iec rules_version={rules_version}"))
    await table.handle(typed("bob", "/join"))
    await table.handle(typed("alice", "/start"))
    row = await table.store.open_game(GROUP)
    assert row is not None and row.state_json is not None
    state = json.loads(row.state_json)
    state["players"]["alice"]["techs"] = [1, 7]  # secret: not revealed
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE games SET state_json = ? WHERE id = ?", (canonical_json(state), row.id))
    before = await version(table, row.id)
    for command in ("/sweep T9", "/tech 7", "/use 1", "/peek II-N", "/subsidy transmitter J13"):
        answers = [await table.handle(typed(name, command)) for name in ("alice", "bob")]
        assert all(refused_secretly(outs) for outs in answers), (command, answers)
        assert answers[0][0].text == answers[1][0].text
    assert await version(table, row.id) == before  # nothing changed
    # a question, not a choice: "/tech" lists the technologies, in the group as before
    assert not refused_secretly(await table.handle(typed("bob", "/tech")))


async def test_pg9_pg_o_a_limit_typed_in_the_group_is_refused_alike_whatever_the_money(
    table: Table,
) -> None:
    """Under hidden money (PG-9) `/maxbid 999` (beyond his money) was refused to him alone
    ("you cannot bid more than your money") and `/maxbid 30` in public ("That order is
    secret"): whether a reply came told the group his money. Both get the same refusal now,
    and a standing order's other forms too; a plain bid or pass stays a public move."""
    pk = await start(table, "powergrid regions=random hidden_money=yes", ["alice", "bob", "carol"])
    await table.handle(typed("bob", "/bid 4 5"))  # bob opens (he chooses first, seed 7)
    before = await version(table, pk)
    (bidder,) = GAMES["powergrid"].current_players(json.loads(before[1]))
    waiting = "carol" if bidder == "alice" else "alice"
    for command in ("/maxbid 999", "/maxbid 30", "/bid 4 999 max=999", "/pass round", "/cancel"):
        answers = await table.handle(typed(waiting, command))
        assert refused_secretly(answers), (command, answers)
    assert await version(table, pk) == before
    assert not refused_secretly(await table.handle(typed(bidder, "/raise 6")))
