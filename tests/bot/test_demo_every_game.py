"""`boardchat demo <game>` plays every registered game to its end with the game's best bots."""

import io

import pytest

from bot.demo import run_demo
from bot.table import default_bot_kind
from engine.registry import games


@pytest.mark.parametrize("game_id", sorted(games()))
async def test_demo_plays_every_game_to_a_ranking(game_id: str, tmp_path) -> None:
    out = io.StringIO()
    code = await run_demo(
        game_id=game_id,
        players=2,
        seed=3,
        out=str(tmp_path),
        db=None,
        bot_kind="heuristic",  # the CLI default; games without it fall back to their best bot
        stdout=out,
    )
    text = out.getvalue()
    assert code == 0, text
    assert "1. " in text
    assert list(tmp_path.glob("*.png")), "the demo writes board pictures"
    assert (tmp_path / "log.txt").read_text(encoding="utf-8").strip()


def test_plain_addbot_seats_a_bot_that_plays_to_win() -> None:
    assert default_bot_kind(["random", "heuristic"]) == "heuristic"
    assert default_bot_kind(["random", "greedy"]) == "greedy"
    assert default_bot_kind(["random"]) == "random"
