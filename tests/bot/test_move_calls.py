"""Issue 23: a move reads the store once and commits once, and on SQLite hands nothing to a
thread (both run on the loop's thread, bot/store_base.py). The counts of store calls and of
the SQLite store's hand-offs to its threads do not depend on the machine's load, so they guard
the move path's speed where a timing could not (bench/move_calls.py reports the same)."""

from __future__ import annotations

import argparse
import collections
import functools
import json
import re
from typing import Any

from bot.store import Store
from bot.store_protocol import Store as AnyStore
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat
from tests.bot.test_table_concurrency import moved, setup_game

READS = ("chat", "user", "users", "open_game", "seats", "game", "seen", "reminder")


def counting(store: AnyStore, names: tuple[str, ...]) -> collections.Counter[str]:
    """Count calls of these store methods, and the hand-offs to the SQLite threads."""
    assert isinstance(store, Store)  # the hand-offs counted are the SQLite store's threads
    calls: collections.Counter[str] = collections.Counter()

    def wrap(obj: Any, name: str, label: str) -> None:
        fn = getattr(obj, name)

        @functools.wraps(fn)
        async def counted(*args: Any, **kwargs: Any) -> Any:
            calls[label] += 1
            return await fn(*args, **kwargs)

        setattr(obj, name, counted)

    for name in names:
        wrap(store, name, name)
    for con in (store._r, store._w):
        wrap(con, "_execute", "hand-off")
    return calls


async def current(chat: Chat) -> str:
    row = await chat.table.store.open_game(chat.chat_key)
    assert row is not None and row.state_json is not None
    return ChatDicePile().current_players(json.loads(row.state_json))[0]


async def test_a_chat_move_reads_once_and_commits_once(chat: Chat) -> None:
    await setup_game(chat)
    who = await current(chat)
    calls = counting(chat.table.store, ("load_message", "commit_moves", *READS))
    outs = await chat.say(who, "/take 1")
    assert moved(outs)
    # the update's de-duplication, the chat, the sender, the game, its seats and their
    # users in one call; the log, state, reminder and update id in the other
    assert calls["load_message"] == 1 and calls["commit_moves"] == 1
    assert not any(calls[name] for name in READS), calls
    assert calls["hand-off"] == 0


async def test_a_ready_made_action_reads_once_and_commits_once(chat: Chat) -> None:
    await setup_game(chat)
    who = await current(chat)
    calls = counting(chat.table.store, ("load_message", "commit_moves", *READS))
    outs = await chat.table.act(chat.inbound(who), {"take": 1})
    assert moved(outs)
    assert (calls["load_message"], calls["commit_moves"], calls["hand-off"]) == (1, 1, 0)
    assert not any(calls[name] for name in READS), calls


async def test_a_redelivered_update_stops_after_the_one_read(chat: Chat) -> None:
    await setup_game(chat)
    who = await current(chat)
    first = await chat.say(who, "/take 1", update_id="again")
    assert moved(first)
    calls = counting(chat.table.store, ("load_message", "commit_moves", *READS))
    assert await chat.say(who, "/take 1", update_id="again") == []
    assert (calls["load_message"], calls["commit_moves"], calls["hand-off"]) == (1, 0, 0)


def _bench() -> Any:
    """bench/move_calls.py, loaded from its file (bench/ is not a package)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "move_calls.py"
    spec = importlib.util.spec_from_file_location("move_calls_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def bench_line(tmp_path: Any, *, moves: int, durable: bool) -> str:
    """bench/move_calls.py's last line for two Power Grid games (`durable`: Telegram groups,
    a quiet table)."""
    args = argparse.Namespace(
        games=2, moves=moves, game="powergrid", seed=1, durable=durable, profile=0, db=None
    )
    line: str = await _bench().run(args, str(tmp_path / "calls.sqlite3"))
    return line


async def test_build_berlin_calls_the_game_at_most_six_times(tmp_path: Any) -> None:
    """Issue 26: `/build Berlin` through `Table.handle` calls the game a handful of times
    (parse, play, the event's line, the turn's text, the buttons, the public view: 6; it was
    17), and the store twice (bench/move_calls.py prints the same trace)."""
    line = await bench_line(tmp_path, moves=20, durable=False)
    found = re.search(r"/build Berlin: (\d+) store calls .* (\d+) game calls", line)
    assert found is not None, line
    store_calls, game_calls = int(found.group(1)), int(found.group(2))
    assert game_calls <= 6, line
    assert store_calls <= 3, line  # load_message, the game lock, commit_moves


async def test_a_quiet_table_move_reads_its_running_deadline_with_the_message(
    tmp_path: Any,
) -> None:
    """Issue 23: on a quiet table (a Telegram group, bot/quiet.py) the status message says the
    turn's deadline, which a move that asks nobody new keeps: the reminder row comes with the
    message's one read (`Loaded.reminder`), not in a fourth store call handed to a thread (a
    third of Power Grid's moves did that; /build Berlin was one of them)."""
    line = await bench_line(tmp_path, moves=40, durable=True)
    found = re.search(r"per move ([\d.]+) store calls \(([\d.]+) hand-offs", line)
    assert found is not None, line
    assert (float(found.group(1)), float(found.group(2))) == (3.0, 0.0), line
    berlin = re.search(r"/build Berlin: (\d+) store calls \((\d+) hand-offs", line)
    assert berlin is not None and (berlin.group(1), berlin.group(2)) == ("3", "0"), line
