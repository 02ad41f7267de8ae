"""Which bot a plain /addbot seats. (Every game played to its end by `boardchat demo`:
tests/bot/test_demo_end_pictures.py.)"""

from bot.table import default_bot_kind


def test_plain_addbot_seats_a_bot_that_plays_to_win() -> None:
    assert default_bot_kind(["random", "heuristic"]) == "heuristic"
    assert default_bot_kind(["random", "greedy"]) == "greedy"
    assert default_bot_kind(["random"]) == "random"
