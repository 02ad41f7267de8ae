"""Issue 25: /stats aggregation (bot/records.py)."""

from __future__ import annotations

from bot.i18n import translator
from bot.records import Finished, aggregate, format_stats, leaderboard, places
from engine.core.protocol import EnglishTranslator

EN = EnglishTranslator()


def test_places_share_ties_and_skip_after_them() -> None:
    assert places([["a"], ["b", "c"], ["d"]]) == {"a": 1, "b": 2, "c": 2, "d": 4}
    assert places([["a", "b"]]) == {"a": 1, "b": 1}


def test_stats_after_two_finished_games() -> None:
    games = [
        Finished("powergrid", [["alice"], ["bob"], ["carol"]]),
        Finished("hexania", [["bob"], ["alice"]]),
    ]
    stats = aggregate(games)
    assert stats["alice"].total.played == 2
    assert stats["alice"].total.won == 1
    assert stats["alice"].total.average_rank == 1.5
    assert stats["bob"].total.won == 1 and stats["bob"].total.average_rank == 1.5
    assert stats["carol"].total.played == 1 and stats["carol"].total.won == 0
    assert stats["alice"].per_game["powergrid"].won == 1
    assert stats["alice"].per_game["hexania"].average_rank == 2.0
    order = [name for name, _ in leaderboard(stats)]
    assert order == ["alice", "bob", "carol"]  # equal wins and rank: more games, then name
    text = format_stats(stats, EN)
    assert text.splitlines() == [
        "alice: 2 games, 1 win, average rank 1.5",
        "bob: 2 games, 1 win, average rank 1.5",
        "carol: 1 game, 0 wins, average rank 3.0",
    ]


def test_one_players_record_per_game_with_names() -> None:
    stats = aggregate(
        [
            Finished("powergrid", [["tg:1"], ["tg:2"]]),
            Finished("powergrid", [["tg:2"], ["tg:1"]]),
            Finished("iec", [["tg:1", "tg:2"]]),
        ]
    )
    text = format_stats(
        stats, EN, who="tg:1", names={"tg:1": "Ann"}, game_names={"powergrid": "Power Grid"}
    )
    assert text.splitlines() == [
        "Ann: 3 games, 2 wins, average rank 1.3",
        "  iec: 1 game, 1 win, average rank 1.0",
        "  Power Grid: 2 games, 1 win, average rank 1.5",
    ]
    assert format_stats(stats, EN, who="tg:9") == "tg:9 has not finished a game here yet."
    assert format_stats({}, EN) == "No finished games yet."


def test_stats_are_translated() -> None:
    stats = aggregate([Finished("hexania", [["a"], ["b"]])])
    ru = format_stats(stats, translator("ru"))
    assert ru != format_stats(stats, EN) and "a" in ru
