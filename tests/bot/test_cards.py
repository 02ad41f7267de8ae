"""Issue 25: figures per round from replaying the log, and the end-of-game pictures."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image
from PIL.GifImagePlugin import GifImageFile
from PIL.WebPImagePlugin import WebPImageFile

from bot.cards.card import ROW, TOP, game_over_card
from bot.cards.ending import end_of_game
from bot.cards.series import deciding, replay_figures
from bot.i18n import translator
from engine.core.protocol import EnglishTranslator
from engine.registry import games
from tests.bot.botgames import bot_game

EN = EnglishTranslator()


@pytest.mark.parametrize("game_id", sorted(games()))
def test_figures_per_round_come_from_replaying_the_log(game_id: str) -> None:
    played = bot_game(game_id)
    actions = [(r.player, r.action) for r in played.rows]
    figures, final = replay_figures(
        played.game, played.players, played.options, played.seed, actions
    )
    assert final == played.state  # the replay law
    assert figures.periods == sorted(figures.periods) and len(figures.periods) >= 2
    assert set(figures.labels) <= set(figures.values) | {"money"}
    for per_player in figures.values.values():
        assert set(per_player) == set(played.players)
        assert all(len(v) == len(figures.periods) for v in per_player.values())
    decided = deciding(played.game, final)
    assert decided and all(set(v) == set(played.players) for _, v in decided)


def test_power_grid_figures_match_the_final_state() -> None:
    played = bot_game("powergrid")
    figures, final = replay_figures(
        played.game,
        played.players,
        played.options,
        played.seed,
        [(r.player, r.action) for r in played.rows],
    )
    for name, p in final["players"].items():
        assert figures.values["money"][name][-1] == p["money"]
        assert figures.values["cities"][name][-1] == len(p["cities"])
    labels = [label for label, _ in deciding(played.game, final)]
    assert labels == ["cities powered", "money", "cities"]  # PG-53


def test_end_pictures_in_another_language() -> None:
    played = bot_game("hexania")
    ending = end_of_game(
        played.game,
        played.players,
        played.options,
        played.seed,
        [(r.player, r.action) for r in played.rows],
        translator("ru"),
    )
    for data in (ending.card, ending.charts):
        with Image.open(io.BytesIO(data)) as im:
            assert im.format == "PNG" and im.size[0] == 720
    with Image.open(io.BytesIO(ending.webp)) as im:
        assert isinstance(im, WebPImageFile)  # animated: n_frames
        assert 2 <= im.n_frames <= ending.frames


def test_replay_during_a_game_ends_on_the_current_position() -> None:
    from bot.cards.ending import replay_pictures

    played = bot_game("iec")
    half = [(r.player, r.action) for r in played.rows[: len(played.rows) // 2]]
    replay, figures, state = replay_pictures(
        played.game, played.players, played.options, played.seed, half, EN
    )
    assert not played.game.is_over(state)
    assert 2 <= replay.frames <= 60
    assert figures.periods[-1] == state["turn"]
    for data in (replay.webp, replay.gif):  # identical pictures in a row may merge
        with Image.open(io.BytesIO(data)) as im:
            assert isinstance(im, WebPImageFile | GifImageFile)  # animated: n_frames
            assert 2 <= im.n_frames <= replay.frames


def test_hidden_money_is_not_charted() -> None:
    from engine.powergrid import logtext

    played = bot_game("powergrid")
    hidden = dict(played.state, hidden_money=True)
    assert all("money" not in f for f in logtext.score(hidden).values())
    assert all("money" in f for f in logtext.score(played.state).values())


def _inks(png: bytes) -> set[Any]:
    with Image.open(io.BytesIO(png)) as im:
        return {c for _n, c in im.convert("RGB").getcolors(1 << 22) or []}


def _dots(card: bytes, names: list[str]) -> dict[str, Any]:
    """The colour of each row's dot on the card (rows in ranking order)."""
    with Image.open(io.BytesIO(card)) as im:
        rgb = im.convert("RGB")
        return {n: rgb.getpixel((77, TOP + r * ROW + ROW // 2)) for r, n in enumerate(names)}


@pytest.mark.parametrize("game_id", sorted(games()))
def test_the_card_and_charts_draw_each_player_in_his_board_colour(game_id: str) -> None:
    """Found reviewing pictures: IEC's Bot 3 was red on the board and green on the card,
    Power Grid's second seat orange on the board and vermillion on the card."""
    played = bot_game(game_id)
    colours = played.game.player_colours(played.state)
    assert set(colours) == set(played.players)
    assert len(set(colours.values())) == len(colours)
    start = played.game.setup(list(played.players), dict(played.options), played.seed)
    assert played.game.player_colours(start) == colours  # a seat keeps its colour
    assert set(colours.values()) <= _inks(played.game.render(start, None))
    ranking = played.game.result(played.state)
    names = [n for group in ranking for n in group]
    card = game_over_card("t", "s", ranking, [], played.players, EN, colours)
    assert _dots(card, names) == {n: colours[n] for n in names}


def test_the_end_of_a_game_takes_the_boards_colours() -> None:
    played = bot_game("iec")
    ending = end_of_game(
        played.game,
        played.players,
        played.options,
        played.seed,
        [(r.player, r.action) for r in played.rows],
        EN,
    )
    colours = played.game.player_colours(played.state)
    names = [n for group in played.game.result(played.state) for n in group]
    assert _dots(ending.card, names) == {n: colours[n] for n in names}
    assert set(colours.values()) <= _inks(ending.charts)


def test_a_chart_line_ends_with_the_name_and_the_value_apart() -> None:
    """ "Bot 1" ending on 4 was labelled "Bot 14", the name of another player."""
    from PIL import ImageDraw

    from bot.cards.charts import RIGHT, end_label

    d = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    assert end_label(d, "Bot 1", 4, RIGHT - 12) == ("Bot 1:", " 4")
    name, value = end_label(d, "Bartholomew the Long", 1234, RIGHT - 12)
    assert value == " 1234" and name.endswith("…:")  # the value whole, the name shortened
