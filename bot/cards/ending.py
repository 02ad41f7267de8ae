"""Everything the end of a game shows, from the game's setup and action log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.cards.card import game_over_card
from bot.cards.charts import line_charts
from bot.cards.replay import animation, frame, mp4, pick
from bot.cards.series import Figures, deciding, picture_count, replay_figures
from bot.logtext import game_module
from engine.core.errors import N_
from engine.core.protocol import Action, Game, State, Translator


@dataclass(frozen=True)
class EndPictures:
    card: bytes  # PNG
    charts: bytes  # PNG
    webp: bytes  # animated WebP (Discord)
    gif: bytes  # animated GIF
    mp4: bytes | None  # H.264 MP4 (Telegram sendAnimation); None without imageio-ffmpeg
    frames: int
    figures: Figures


def _period_text(game: Game, t: Translator, n: int) -> str:
    module = game_module(game.id)
    template = getattr(module, "PERIOD", N_("Round {n}"))
    return t.gettext(template).format(n=n)


def end_of_game(
    game: Game,
    players: list[str],
    options: dict[str, str],
    seed: int,
    actions: Sequence[tuple[str, Action]],
    t: Translator,
) -> EndPictures:
    """The game-over card, the charts and the replay of a finished (or running) game."""
    module = game_module(game.id)
    period = module.period if module is not None else (lambda s: 0)
    wanted = set(pick(picture_count(game, players, options, seed, actions)))
    frames: list[Image.Image] = []

    def keep(index: int, state: State) -> None:
        if index in wanted:
            caption = f"{game.name} · {_period_text(game, t, period(state))}"
            frames.append(frame(game.render(state, None), caption))

    figures, final = replay_figures(game, players, options, seed, actions, on_picture=keep)
    if not frames or len(frames) < 60:  # end on the final position
        caption = f"{game.name} · {t.gettext('Game over')}"
        frames.append(frame(game.render(final, None), caption))
    ranking = game.result(final) if game.is_over(final) else [list(players)]
    last = figures.periods[-1] if figures.periods else 0
    subtitle = t.ngettext("{n} player", "{n} players", len(players)).format(n=len(players))
    subtitle += " · " + _period_text(game, t, last)
    title = t.gettext("{game}: game over").format(game=game.name)
    card = game_over_card(title, subtitle, ranking, deciding(game, final), players, t)
    axis = t.gettext("per round") if game.id != "iec" else t.gettext("per turn")
    charts = line_charts(figures, players, t, axis)
    return EndPictures(
        card=card,
        charts=charts,
        webp=animation(frames, "WEBP"),
        gif=animation(frames, "GIF"),
        mp4=mp4(frames),
        frames=len(frames),
        figures=figures,
    )
