"""The off-turn check comes before the parse (issue 16): a move command from a seated player who
is not asked to act is refused without parsing it, unless the game declares the command legal
off turn (`Capabilities.off_turn_commands`: standing orders, PG-O; secret choices, IEC), which
is parsed and judged by `game.anytime` as before."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.context import MAX_COMMAND
from bot.store import Store
from bot.table import Table, discover_games
from tests.bot.helpers import Chat, FakeClock, joined

pg = pytest.importorskip("engine.powergrid")


class CountingParse:
    """The game's parse, counting its calls."""

    def __init__(self, game: Any) -> None:
        self.calls: list[tuple[str, str]] = []
        self.game = game
        self.parse = game.parse

    def __call__(self, state: Any, player: str, name: str, args: list[str], **kw: Any) -> Any:
        self.calls.append((player, name))
        return self.parse(state, player, name, args, **kw)


@pytest.fixture
async def table(db_path: str, clock: FakeClock) -> AsyncIterator[tuple[Chat, Store]]:
    store = await Store.open(db_path, clock=clock)
    game = pg.PowerGrid() if hasattr(pg, "PowerGrid") else pg.GAME
    table = Table(store, games={"powergrid": game}, clock=clock, render=False, seeder=lambda: 7)
    chat = Chat(table, chat_key="tg:-1001")
    await chat.say("alice", "/new powergrid")
    await chat.say("bob", "/join")
    await chat.say("carol", "/join")
    assert "begins" in joined(await chat.say("alice", "/start"))
    try:
        yield chat, store
    finally:
        await store.close()


async def waiting(chat: Chat, store: Store) -> tuple[list[str], str, int]:
    """(who is asked, a seated player who is not, the game's version)."""
    row = await store.open_game(chat.chat_key)
    assert row is not None and row.state_json is not None
    state = json.loads(row.state_json)
    game = chat.table.games["powergrid"]
    current = list(game.current_players(state))
    idle = next(p for p in ("alice", "bob", "carol") if p not in current)
    return current, idle, row.version


async def test_a_long_off_turn_command_is_refused_without_a_parse(
    table: tuple[Chat, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    chat, store = table
    game = chat.table.games["powergrid"]
    assert (
        game.capabilities.standing_orders and "discard" not in game.capabilities.off_turn_commands
    )
    counting = CountingParse(game)
    monkeypatch.setattr(game, "parse", counting)
    current, idle, version = await waiting(chat, store)
    text = "/discard " + " ".join(["Kiel"] * 300)
    text = text[:MAX_COMMAND]
    assert len(text) == MAX_COMMAND  # the longest command the table takes
    outs = await chat.say(idle, text)
    assert "Not your turn" in joined(outs) and all(p in joined(outs) for p in current)
    assert counting.calls == []  # refused before any parse
    assert (await waiting(chat, store))[2] == version


async def test_a_declared_off_turn_command_is_still_parsed_and_taken(
    table: tuple[Chat, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    chat, store = table
    game = chat.table.games["powergrid"]
    counting = CountingParse(game)
    monkeypatch.setattr(game, "parse", counting)
    _, idle, version = await waiting(chat, store)
    outs = await chat.say(idle, "/power auto")  # a standing order: legal off turn (PG-O)
    assert counting.calls == [(idle, "power")], joined(outs)
    assert "Not your turn" not in joined(outs)
    assert (await waiting(chat, store))[2] == version + 1  # a private move, in the log


async def test_on_turn_commands_are_parsed_as_before(
    table: tuple[Chat, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    chat, store = table
    game = chat.table.games["powergrid"]
    counting = CountingParse(game)
    monkeypatch.setattr(game, "parse", counting)
    current, _, _ = await waiting(chat, store)
    await chat.say(current[0], "/discard 3")
    assert counting.calls == [(current[0], "discard")]


def test_declared_off_turn_commands_are_move_commands_of_their_game() -> None:
    for gid, game in discover_games().items():
        declared = game.capabilities.off_turn_commands
        if not game.capabilities.standing_orders:
            assert not declared, gid
            continue
        moves = {c.name for c in game.commands if c.kind == "move"}
        assert declared and declared <= moves, (gid, sorted(declared - moves))
