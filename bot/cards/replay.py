"""A short replay: the game's phase pictures as an animation, phone-sized, at most MAX_FRAMES
frames and MAX_BYTES: animated WebP (Discord), GIF, and MP4 (H.264, for Telegram's
sendAnimation) when imageio-ffmpeg is installed (the `video` extra: it brings its own ffmpeg
binary from PyPI, no system ffmpeg)."""

from __future__ import annotations

import io
import tempfile
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from bot.cards.draw import INK, font

MAX_FRAMES = 60
MAX_BYTES = 10 * 1024 * 1024
PHONE_WIDTH = 640
FRAME_MS = 700
LAST_MS = 2500


def pick(count: int, limit: int = MAX_FRAMES) -> list[int]:
    """Up to `limit` indices out of `count`, evenly spread, always the first and the last."""
    if count <= limit:
        return list(range(count))
    return sorted({round(i * (count - 1) / (limit - 1)) for i in range(limit)})


def frame(png: bytes, caption: str, width: int = PHONE_WIDTH) -> Image.Image:
    """One frame: the picture scaled to `width` with a caption strip above it."""
    pic = Image.open(io.BytesIO(png)).convert("RGB")
    scale = width / pic.width
    pic = pic.resize(
        (width, max(1, round(pic.height * scale))), Image.Resampling.LANCZOS, reducing_gap=2.0
    )
    strip = 36
    out = Image.new("RGB", (width, pic.height + strip), (255, 255, 255))
    out.paste(pic, (0, strip))
    d = ImageDraw.Draw(out)
    d.text((12, strip // 2), caption, font=font(20, True, caption), fill=INK, anchor="lm")
    return out


def _same_size(frames: Sequence[Image.Image]) -> list[Image.Image]:
    width = max(f.width for f in frames)
    height = max(f.height for f in frames)
    out = []
    for f in frames:
        if f.size == (width, height):
            out.append(f)
            continue
        canvas = Image.new("RGB", (width, height), (255, 255, 255))
        canvas.paste(f, (0, 0))
        out.append(canvas)
    return out


def animation(frames: Sequence[Image.Image], fmt: str = "WEBP") -> bytes:
    """Animated WebP or GIF of the frames (the last one held longer), within MAX_BYTES:
    when too big, the frames are halved in size until it fits."""
    if not frames:
        raise ValueError("no frames")
    images = _same_size(list(frames)[:MAX_FRAMES])
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_MS]
    while True:
        buf = io.BytesIO()
        if fmt == "GIF":
            # one palette for all frames (the board hardly changes colour): fast and no flicker
            first = images[0].quantize(colors=128, method=Image.Quantize.FASTOCTREE)
            pal = [first] + [
                im.quantize(palette=first, dither=Image.Dither.NONE) for im in images[1:]
            ]
            pal[0].save(
                buf,
                "GIF",
                save_all=True,
                append_images=pal[1:],
                duration=durations,
                loop=0,
                optimize=True,
                disposal=1,
            )
        else:
            images[0].save(
                buf,
                "WEBP",
                save_all=True,
                append_images=images[1:],
                duration=durations,
                loop=0,
                quality=70,
                method=4,
            )
        data = buf.getvalue()
        if len(data) <= MAX_BYTES or images[0].width < 200:
            return data
        images = [im.resize((im.width // 2, im.height // 2)) for im in images]


def mp4(frames: Sequence[Image.Image]) -> bytes | None:
    """An H.264 MP4 of the frames (FRAME_MS each, the last held LAST_MS), or None when
    imageio-ffmpeg is not installed. Sizes are padded to even numbers (yuv420p)."""
    try:
        import imageio_ffmpeg  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return None
    if not frames:
        raise ValueError("no frames")
    images = _same_size(list(frames)[:MAX_FRAMES])
    width, height = images[0].size
    even = (width + width % 2, height + height % 2)
    fps = 1000 / FRAME_MS
    hold = max(1, round(LAST_MS / FRAME_MS))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "replay.mp4"
        writer = imageio_ffmpeg.write_frames(
            str(path),
            even,
            fps=fps,
            codec="libx264",
            pix_fmt_out="yuv420p",
            macro_block_size=2,
            output_params=["-movflags", "+faststart", "-an"],
            # its warnings ("not enough frames to estimate rate" on a short game) went to the
            # bot's stderr, the terminal's in `boardchat local`; an error still raises
            ffmpeg_log_level="error",
        )
        writer.send(None)  # start ffmpeg
        for i, im in enumerate(images):
            if im.size != even:
                canvas = Image.new("RGB", even, (255, 255, 255))
                canvas.paste(im, (0, 0))
                im = canvas
            raw = im.tobytes()
            for _ in range(hold if i == len(images) - 1 else 1):
                writer.send(raw)
        writer.close()
        return path.read_bytes()
