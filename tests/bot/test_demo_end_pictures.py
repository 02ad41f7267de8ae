"""`boardchat demo <game>` plays every registered game to its end with the game's best bots
(a ranking, board pictures, the log) and, issue 25, writes the game-over card, the charts and
the replay, each within the limits (10 MB, 60 frames, phone-sized). One whole game per game
for both: they were two tests playing each game twice."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path

import pytest
from PIL import Image
from PIL.GifImagePlugin import GifImageFile
from PIL.WebPImagePlugin import WebPImageFile

from bot.cards.replay import MAX_BYTES, MAX_FRAMES, pick
from bot.demo import run_demo
from engine.registry import games


@pytest.mark.parametrize("game_id", sorted(games()))
async def test_demo_writes_card_charts_and_replay(game_id: str, tmp_path: Path) -> None:
    out = io.StringIO()
    code = await run_demo(game_id, 3, 4, str(tmp_path), None, None, stdout=out)
    text = out.getvalue()
    assert code == 0, text
    assert "1. " in text  # the ranking
    assert "End of the game: card.png" in text
    boards = [p for p in tmp_path.glob("*.png") if p.name not in ("card.png", "charts.png")]
    assert boards, "the demo writes board pictures"
    assert (tmp_path / "log.txt").read_text(encoding="utf-8").strip()
    for name in ("card.png", "charts.png"):
        data = (tmp_path / name).read_bytes()
        assert 0 < len(data) <= MAX_BYTES
        with Image.open(io.BytesIO(data)) as im:
            assert im.format == "PNG" and im.width <= 1080
    if importlib.util.find_spec("imageio_ffmpeg") is not None:  # the video extra (and dev)
        video = (tmp_path / "replay.mp4").read_bytes()
        assert 0 < len(video) <= MAX_BYTES and video[4:8] == b"ftyp"
    for name, fmt in (("replay.webp", "WEBP"), ("replay.gif", "GIF")):
        data = (tmp_path / name).read_bytes()
        assert 0 < len(data) <= MAX_BYTES, (name, len(data))
        with Image.open(io.BytesIO(data)) as im:
            assert im.format == fmt
            assert isinstance(im, WebPImageFile | GifImageFile)  # animated: n_frames
            assert 2 <= im.n_frames <= MAX_FRAMES
            assert im.width <= 720  # phone-sized


def test_frames_are_spread_over_the_game() -> None:
    assert pick(5) == [0, 1, 2, 3, 4]
    chosen = pick(200)
    assert len(chosen) == MAX_FRAMES and chosen[0] == 0 and chosen[-1] == 199


@pytest.mark.skipif(importlib.util.find_spec("imageio_ffmpeg") is None, reason="no video extra")
def test_a_short_replays_video_writes_nothing_to_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    """Found playing (2026-12-02): /replay early in a game printed ffmpeg's warning "not
    enough frames to estimate rate" into the terminal of `boardchat local` (and a bot's log)."""
    from bot.cards.replay import mp4

    frames = [Image.new("RGB", (1080, 1600), (i * 40, 90, 90)) for i in range(3)]  # a frame > 5 MB
    video = mp4(frames)
    assert video is not None and video[4:8] == b"ftyp"
    assert capfd.readouterr().err == ""
