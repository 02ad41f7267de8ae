"""Everything the end of a game shows, from the game's setup and action log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.cards.card import game_over_card
from bot.cards.charts import line_charts
from bot.cards.replay import MAX_FRAMES, animation, frame, mp4, pick
from bot.cards.series import Figures, deciding, picture_count, replay_figures
from engine.core.jsonstate import canonical_json as canonical
from engine.core.protocol import Action, Game, State, Translator


@dataclass(frozen=True)
class Replay:
    """The phase pictures of a game so far, animated (for /replay, during or after a game)."""

    webp: bytes  # animated WebP (Discord)
    gif: bytes  # animated GIF
    mp4: bytes | None  # H.264 MP4 (Telegram sendAnimation); None without imageio-ffmpeg
    frames: int


@dataclass(frozen=True)
class EndPictures:
    card: bytes  # PNG: the ranking with its deciding figures
    charts: bytes  # PNG: figures per player per round
    replay: Replay
    figures: Figures

    @property
    def webp(self) -> bytes:
        return self.replay.webp

    @property
    def gif(self) -> bytes:
        return self.replay.gif

    @property
    def mp4(self) -> bytes | None:
        return self.replay.mp4

    @property
    def frames(self) -> int:
        return self.replay.frames


def _period_text(game: Game, t: Translator, n: int) -> str:
    return t.gettext(game.period_caption).format(n=n)


def replay_pictures(
    game: Game,
    players: list[str],
    options: dict[str, str],
    seed: int,
    actions: Sequence[tuple[str, Action]],
    t: Translator,
) -> tuple[Replay, Figures, State]:
    """Replay the log: the animation of (at most MAX_FRAMES of) the pictures the game showed,
    each captioned with its round, ending on the current position; also the figures per
    round and the final state."""
    period = game.period
    wanted = set(pick(picture_count(game, players, options, seed, actions)))
    frames: list[Image.Image] = []
    shown: list[str] = []  # the position of the last frame, to not show it twice
    name = t.gettext(game.name)  # as the game is called in the reader's language

    def keep(index: int, state: State) -> None:
        if index in wanted:
            caption = f"{name} · {_period_text(game, t, period(state))}"
            frames.append(frame(game.render(state, None), caption))
            shown[:] = [canonical(state)]

    figures, final = replay_figures(game, players, options, seed, actions, on_picture=keep)
    if len(frames) < MAX_FRAMES and shown != [canonical(final)]:  # end on the position now
        now = _period_text(game, t, period(final))
        if game.is_over(final):
            now = t.gettext("Game over")
        frames.append(frame(game.render(final, None), f"{name} · {now}"))
    replay = Replay(
        webp=animation(frames, "WEBP"),
        gif=animation(frames, "GIF"),
        mp4=mp4(frames),
        frames=len(frames),
    )
    return replay, figures, final


def end_of_game(
    game: Game,
    players: list[str],
    options: dict[str, str],
    seed: int,
    actions: Sequence[tuple[str, Action]],
    t: Translator,
) -> EndPictures:
    """The game-over card, the charts and the replay of a finished game."""
    replay, figures, final = replay_pictures(game, players, options, seed, actions, t)
    ranking = game.result(final) if game.is_over(final) else [list(players)]
    last = figures.periods[-1] if figures.periods else 0
    subtitle = t.ngettext("{n} player", "{n} players", len(players)).format(n=len(players))
    subtitle += " · " + _period_text(game, t, last)
    title = t.gettext("{game}: game over").format(game=t.gettext(game.name))
    colours = game.player_colours(final)  # as the board draws them
    card = game_over_card(title, subtitle, ranking, deciding(game, final), players, t, colours)
    axis = t.gettext(game.chart_axis)
    charts = line_charts(figures, players, t, axis, colours)
    return EndPictures(card=card, charts=charts, replay=replay, figures=figures)
