"""`/log` shows a private action only as the table may know it (issue 20).

The issue's leak: `bob: /flex 9 last` showed `{"phase":9,"position":"last","type":"flex"}` to the
whole table, and every standing order likewise. Through the table service, bob sends every
private command of Power Grid and IEC (standing orders, limits, secret technologies' choices)
in the group; alice then asks /log. The group's page names each of them as "bob makes a private
choice." and nothing else: no raw JSON, no limit, city, cell, phase or technology. Bob's own
/log may show him his own lines, and does so to him alone. The alternative rules and Hexania
have no private action (their logs are checked for JSON in tests/bot/test_logtext.py).
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.logtext import entry_lines, log_page
from bot.messages import Outbound
from bot.store import Store
from bot.table import Table
from engine.core import canonical_json
from engine.core.protocol import EnglishTranslator, Game
from engine.iec import GAME as IEC
from engine.powergrid import GAME as PG
from engine.powergrid.data import game_map
from engine.registry import games
from tests.bot.botgames import Row
from tests.bot.helpers import Chat, FakeClock, present

EN = EnglishTranslator()
JSONISH = re.compile(r"[{}\[\]]|\"\w+\":")
PRIVATE = "bob makes a private choice."


async def _table(
    root: Path, game_id: str, game: Game, options: str, secret: Any = None
) -> tuple[Store, Chat]:
    """A started table of alice, bob and carol; `secret(state)` changes its stored state
    before play (as the noninterference tests do: bob's secret technologies)."""
    clock = FakeClock()
    db_file = root / "db.sqlite3"
    store = await Store.open(str(db_file), clock=clock)
    table = Table(store, games={game_id: game}, clock=clock, render=False, seeder=lambda: 7)
    chat = Chat(table, chat_key="local:g")
    await chat.say("alice", f"/new {game_id} {options}".strip())
    for name in ("bob", "carol"):
        await chat.say(name, "/join")
    await chat.say("alice", "/start")
    if secret is None:
        return store, chat
    await store.close()
    with sqlite3.connect(db_file) as db:
        pk, state_json = db.execute("SELECT id, state_json FROM games").fetchone()
        state = json.loads(state_json)
        secret(state)
        db.execute("UPDATE games SET state_json = ? WHERE id = ?", (canonical_json(state), pk))
    store = await Store.open(str(db_file), clock=clock)
    table = Table(store, games={game_id: game}, clock=clock, render=False, seeder=lambda: 7)
    return store, Chat(table, chat_key="local:g")


def _group(outs: list[Outbound]) -> str:
    return "\n".join(o.text for o in outs if o.private_to is None)


async def _private_commands(
    store: Store, chat: Chat, commands: list[tuple[str, list[str]]]
) -> tuple[str, list[str]]:
    """Bob sends each command in the group; returns alice's /log page (group part) and the
    secret words of the commands that were accepted (each became a logged action)."""
    row = await store.open_game(chat.chat_key)
    assert row is not None
    moves = re.compile(r" of (\d+) ")
    seen = moves.search(_group(await chat.say("alice", "/log")) + " of 0 ")
    accepted: list[str] = []
    secrets: list[str] = []
    for text, words in commands:
        before = len(await store.actions(row.id))
        outs = await chat.say("bob", text)
        if len(await store.actions(row.id)) == before:
            continue  # refused (to bob alone): nothing logged
        accepted.append(text)
        secrets += words
        # a private move posts nothing to the group but bob's own acknowledgement
        assert all(o.private_to or o.sender_only for o in outs), (text, _group(outs))
    assert len(accepted) >= len(commands) - 1, accepted
    page = ""
    for n in (1, 2):
        outs = await chat.say("alice", f"/log {n}")
        assert all(o.private_to in (None, "local:alice") for o in outs)
        page += _group(outs) + "\n"
    # the table learns nothing of them, not even how many there were (found by a leak
    # hunt, 2026-12-04): no "bob makes a private choice." line, the same count of moves
    assert PRIVATE not in page, page
    after = moves.search(page + " of 0 ")
    assert seen is not None and after is not None and after.group(1) == seen.group(1), page
    return page, secrets


def _check(page: str, secrets: list[str]) -> None:
    for line in page.splitlines():
        assert not JSONISH.search(line), line
    bob_lines = [line for line in page.splitlines() if " bob " in f" {line} "]
    for word in secrets:
        for line in bob_lines:
            assert word not in line.split(), (word, line)


async def test_pg_o_log_shows_standing_orders_as_a_private_choice(tmp_path: Path) -> None:
    store, chat = await _table(tmp_path, "powergrid", PG, "regions=random hidden_money=yes")
    try:
        row = await store.open_game(chat.chat_key)
        assert row is not None and row.state_json is not None
        state = json.loads(row.state_json)
        chooser = PG.current_players(state)[0]
        if chooser == "bob":  # let someone else open, so that bob's limits are orders
            await chat.say("bob", "/pass")
            state = json.loads(present(present(await store.game(row.id)).state_json))
            chooser = PG.current_players(state)[0]
        view = PG.view(state, None)
        number = view["plant_market"]["current"][0]["number"]
        await chat.say(chooser, f"/bid {number}")
        board = game_map(view["map"])
        city = next(
            c
            for c, r in zip(board.cities, board.city_region, strict=True)
            if r in view["regions_in_play"] and " " not in c and "-" not in c
        )
        commands = [
            ("/maxbid 37", ["37"]),
            (f"/bid {number} 38 max=39", ["38", "39"]),
            ("/pass plant", []),
            ("/buy auto limit=41", ["41"]),
            (f"/build plan {city}", [city]),
            ("/power auto", []),
            ("/cancel buy", []),
        ]
        page, secrets = await _private_commands(store, chat, commands)
        _check(page, secrets)
        mine = await chat.say("bob", "/log")
        assert any(o.private_to == "local:bob" for o in mine), "bob reads his own lines"
        assert all(o.private_to in (None, "local:bob") for o in mine)
    finally:
        await store.close()


async def test_iec_s26_log_shows_secret_choices_as_a_private_choice(tmp_path: Path) -> None:
    """The issue's own example (`bob: /flex 9 last`) and every IEC standing choice."""

    def secret(state: dict[str, Any]) -> None:
        state["players"]["bob"]["techs"] = [1, 3, 4, 11, 13, 16, 19]  # all unrevealed

    store, chat = await _table(tmp_path, "iec", IEC, "rules_version=2", secret)
    try:
        row = await store.open_game(chat.chat_key)
        assert row is not None and row.state_json is not None
        state = json.loads(row.state_json)
        cells: dict[str, list[str]] = {}
        for cell, b in sorted(state["buildings"].items()):
            if b["owner"] == "bob":
                cells.setdefault(b["kind"], []).append(cell)
        mine, storage, mixer = cells["mine"][0], cells["storage"], cells["mixer"][0]
        area = sorted(a for a, v in state["areas"].items() if v["deposit"] is None)[0]
        free = "J13"
        commands = [
            ("/flex 9 last", ["9", "last"]),
            ("/use 13 off", ["13", "off"]),
            (f"/sweep {mine}", [mine]),
            (f"/peek {area}", [area]),
            (f"/subsidy transmitter {free}", ["transmitter", free]),
            ("/give alice 2", ["alice", "2"]),
            ("/antimissile on", ["on"]),
            (f"/extract {mine} A", [mine, "A"]),
            ("/mix BC AB", ["BC", "AB"]),
            (f"/transfer {storage[0]} {storage[1]} A 1", [storage[0], storage[1]]),
            (f"/deliver {mixer} {storage[1]}", [mixer, storage[1]]),
            (f"/destroy {mixer}", [mixer]),
        ]
        page, secrets = await _private_commands(store, chat, commands)
        _check(page, secrets)
        assert "Flexible Order" not in page and "phase 9" not in page
    finally:
        await store.close()


def test_alt_a_declared_purchase_is_a_private_choice_in_the_log() -> None:
    """Alternative rules, version 2 (ALT-10): a purchase is declared in secret (a private
    `buy_declared`); until it is carried out the log shows the table only that bob acted."""
    game = games()["powergrid_alt"]
    state: dict[str, Any] = game.setup(["alice", "bob", "carol"], {"hidden_money": "yes"}, 3)
    action = {"type": "buy", "resource": "uranium", "count": 2, "plant": 13}
    event = {"type": "buy_declared", "player": "bob", "private": True, "price": 29, "round": 2}
    event |= {"resource": "uranium", "count": 2, "plant": 13}
    row = Row(4, "bob", action, [event])
    for viewer in (None, "alice"):
        assert entry_lines(game, state, row, EN, viewer=viewer) == [f"#4 {PRIVATE}"]
        assert log_page(game, state, [row], EN, viewer=viewer) == "No moves yet."
    own = log_page(game, state, [row], EN, viewer="bob")
    assert "uranium" in own and "29" in own  # bob reads his own declaration, unnumbered
    assert "#" not in own.split("\n", 1)[1]


def test_hexania_has_no_private_action() -> None:
    """Hexania hides nothing from the players (docs/secrets.md): nothing to hide in /log."""
    game = games()["hexania"]
    assert not game.capabilities.private_events
    assert not game.capabilities.standing_orders


async def test_pg_o_the_private_confirmation_says_what_the_others_see(tmp_path: Path) -> None:
    """A standing order sent privately is confirmed with what the others may know of it:
    nothing, not even a line in the log (a leak hunt, 2026-12-04; before, the log's "bob makes
    a private choice.")."""
    store, chat = await _table(tmp_path, "powergrid", PG, "")
    try:
        private = Chat(chat.table, chat_key="local:dm-bob")
        dm = replace(private.inbound("bob", text="/buy auto limit=41"), is_private=True)
        outs = await chat.table.handle(dm)
        # it ends his own line of the order: one message (bot/confirm.py)
        [mine] = outs
        assert mine.private_to == "local:bob" and mine.text.startswith("Your standing order")
        assert mine.text.endswith(" Done in Power Grid (a chat); the others are not told of it.")
        page = _group(await chat.say("alice", "/log"))
        assert PRIVATE not in page and "41" not in page
    finally:
        await store.close()


async def test_iec_s26_the_owner_s_own_log_names_each_order(tmp_path: Path) -> None:
    """Found playing (2026-12): bob's own /log listed "Standing order saved." for each of his
    orders, none saying which; it names each, in his language, to him alone."""

    def secret(state: dict[str, Any]) -> None:
        state["players"]["bob"]["techs"] = [3]  # Flexible Order, unrevealed

    store, chat = await _table(tmp_path, "iec", IEC, "rules_version=2", secret)
    try:
        await chat.say("bob", "/lang ru")
        for command in ("/mix BC AB", "/flex 9 last"):
            await chat.say("bob", command)
        outs = await chat.say("bob", "/log")
        his = "\n".join(o.text for o in outs if o.private_to == "local:bob")
        assert "смесители производят BC, AB" in his and "в фазе 9 ваше место" in his, his
        assert "Постоянный приказ сохранён.\n" not in his + "\n"
        page = _group(await chat.say("alice", "/log"))
        assert not any(w in page for w in ("BC", "mixers", "phase 9", "Standing order")), page
        assert not any(o.private_to == "local:alice" for o in outs)
    finally:
        await store.close()
