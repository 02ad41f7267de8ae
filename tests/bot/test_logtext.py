"""Issue 25: /log in words (bot/logtext.py with engine/<game>/logtext.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from bot.i18n import LANGUAGES, translator
from bot.logtext import all_lines, day_of, entry_lines, log_page, private_only
from engine.core.protocol import EnglishTranslator
from engine.registry import games
from tests.bot.botgames import Row, bot_game

EN = EnglishTranslator()
JSONISH = re.compile(r"[{}\[\]]|\"\w+\":")


@pytest.mark.parametrize("game_id", sorted(games()))
def test_log_of_a_whole_bot_game_has_no_json_in_any_language(game_id: str) -> None:
    played = bot_game(game_id)
    for lang in LANGUAGES:
        t = translator(lang)
        public = [r for r in played.rows if not private_only(played.game, played.state, r, t)]
        for viewer in (None, played.players[0]):
            lines = all_lines(played.game, played.state, played.rows, t, viewer)
            for line in lines:
                assert not JSONISH.search(line), f"{game_id}/{lang}: {line}"
            heads = [line for line in lines if line.startswith("#")]
            # the table's moves, numbered 1, 2, ... (a private choice is not one of them)
            assert len(heads) == len(public)
            for number, (row, head) in enumerate(zip(public, heads, strict=True), start=1):
                assert head.startswith(f"#{number} ")
                assert row.player in head, head  # every action line names its actor
            own = [line for line in lines if line.startswith("   ◦ ")]
            mine = [r for r in played.rows if r not in public and r.player == viewer]
            assert len(own) == len(mine)


def test_phase_ends_are_the_games_not_the_acting_bots() -> None:
    played = bot_game("powergrid")
    lines = all_lines(played.game, played.state, played.rows, EN)
    ends = [line for line in lines if "End of auction (phase 2)." in line]
    assert ends and all(line.startswith("   · ") for line in ends)
    started = [line for line in lines if line.endswith("Round 2 begins.")]
    assert started and all(line.startswith("   · ") for line in started)


def test_a_silent_move_is_described_by_the_game() -> None:
    played = bot_game("powergrid")
    done = next(r for r in played.rows if r.action == {"type": "done"} and not r.events)
    assert entry_lines(played.game, played.state, done, EN) == [
        f"#{done.seq} {done.player} is done."
    ]
    ru = entry_lines(played.game, played.state, done, translator("ru"))
    assert ru[0] != f"#{done.seq} {done.player} is done." and done.player in ru[0]


def test_private_moves_show_only_what_the_table_may_know() -> None:
    game = games()["powergrid"]
    state = bot_game("powergrid").state
    order = Row(
        7,
        "bob",
        {"type": "order", "kind": "bid", "plant": 20, "max": 55},
        [{"type": "order_placed", "round": 3, "player": "bob", "order": "bid", "private": True}],
    )
    seen = entry_lines(game, state, order, EN, viewer="alice")
    # Issue 20: a standing order has no public line at all; the log shows only that bob acted
    assert seen == ["#7 bob makes a private choice."]
    silent = Row(9, "bob", order.action, [])
    assert entry_lines(game, state, silent, EN) == ["#9 bob makes a private choice."]
    # a proxy limit on an open bid never shows
    opened = Row(8, "bob", {"type": "open", "plant": 20, "bid": 20, "max": 55}, [])
    assert entry_lines(game, state, opened, EN) == ["#8 bob opens an auction on plant 20."]


def test_iec_secrets_stay_with_their_owner() -> None:
    played = bot_game("iec")
    game = played.game
    describe_private = game.describe_private_event
    checked = 0
    for row in played.rows:
        private = [e for e in row.events if e.get("private_to")]
        if not private:
            continue
        other = next(p for p in played.players if p != row.player)
        seen = " ".join(entry_lines(game, played.state, row, EN, viewer=other))
        for event in private:
            secret_line = describe_private(played.state, event, EN)
            public_line = game.describe_event(played.state, event, EN)
            if secret_line and secret_line != public_line:
                assert secret_line not in seen
        if row.action.get("type") in ("mix", "extract", "tech", "power", "deliver"):
            assert seen == f"#{row.seq} {row.player} makes a private choice."
        checked += 1
    assert checked > 0


def test_pages_newest_first_with_a_pointer_to_older_moves() -> None:
    played = bot_game("hexania")
    total = len(played.rows)
    first = log_page(played.game, played.state, played.rows, EN, page=1, per_page=10)
    lines = first.splitlines()
    assert lines[0] == f"Moves {total - 9}–{total} of {total} (page 1 of {-(-total // 10)})"
    assert lines[-1] == "Older moves: /log 2"
    assert f"#{total} " in first and f"#{total - 10} " not in first
    last = log_page(played.game, played.state, played.rows, EN, page=999, per_page=10)
    assert "#1 " in last and "Older moves" not in last
    assert log_page(played.game, played.state, [], EN) == "No moves yet."


def test_private_choices_are_left_out_of_the_others_log() -> None:
    """A bot's five standing orders at the start of a game are its secret, and so is how many
    it placed (a leak hunt, 2026-12-04): the table's log leaves them out, numbers and count
    included; their author reads his own, unnumbered, after the move they followed."""
    game = games()["powergrid"]
    state = bot_game("powergrid").state
    order = {"type": "order", "kind": "buy_auto", "limit": None}
    placed = [{"type": "order_placed", "player": "Bot", "order": "buy_auto", "private": True}]
    rows = [Row(n, "Bot", order, placed) for n in range(1, 6)]
    rows.append(Row(6, "bob", order, [{**placed[0], "player": "bob"}]))
    rows.append(Row(7, "bob", order, [{**placed[0], "player": "bob"}]))
    rows.append(Row(8, "Bot", order, placed))
    assert log_page(game, state, rows, EN, viewer="alice") == "No moves yet."
    assert all(private_only(game, state, row, EN) for row in rows)
    mine = log_page(game, state, rows, EN, viewer="bob").splitlines()
    assert mine[0] == "No moves yet." and len(mine) == 3
    assert all(line.startswith("   ◦ bob") for line in mine[1:]), mine


@dataclass(frozen=True)
class TimedRow(Row):
    created_at: float = 0.0


def test_a_page_names_each_day_above_its_first_move_in_the_chat_s_zone() -> None:
    """A game of days read in /log had no times at all: nobody could tell that Dee's move was
    two days old (found living weeks of simulated play through Telegram, 2026-12-05). The day
    goes above its first move, in the reader's words and the chat's time zone; a run of the
    same line is not folded across days."""
    played = bot_game("powergrid")
    game, state = played.game, played.state
    done = {"type": "done"}
    tue = 1_772_546_400.0  # Tue 2026-03-03 14:00 UTC
    rows = [
        TimedRow(1, "ann", done, [], tue),
        TimedRow(2, "bob", done, [], tue + 3600),
        TimedRow(3, "bob", done, [], tue + 9.5 * 3600),  # 00:30 on Wednesday in Warsaw
        TimedRow(4, "ann", done, [], tue + 2 * 86400),
    ]
    page = log_page(game, state, rows, EN, day=day_of("en", "Europe/Warsaw")).splitlines()
    assert page[1:] == [
        "— Tue, March 3 —",
        "#1 ann is done.",
        "#2 bob is done.",
        "— Wed, March 4 —",
        "#3 bob is done.",
        "— Thu, March 5 —",
        "#4 ann is done.",
    ], page
    utc = log_page(game, state, rows, EN, day=day_of("en", "UTC")).splitlines()
    assert utc[1:4] == ["— Tue, March 3 —", "#1 ann is done.", "#2–#3 bob is done."], utc
    ru = log_page(game, state, rows, translator("ru"), day=day_of("ru", "Europe/Moscow"))
    assert "— вт, 3 марта —" in ru.splitlines()
    assert "— " not in log_page(game, state, rows, EN)  # no zone given: no dates
