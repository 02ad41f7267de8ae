"""Pictures of every game, for phones and in every language (issues 18 and 19).

Real bot games are played; at several points the picture set the bot would send is drawn and
held to the phone rules: at most 1080 px wide and twice as tall as wide, PNG at most 200 KB,
labels at least 2.8 % (names) and 2.2 % (numbers, other text) of the width; `render` gives
the same pictures as one PNG. Each language gives different pictures whose labels hold no
English catalog text, drawn with fonts that have every glyph.
"""

from __future__ import annotations

import copy
import io
import re
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.i18n import translator
from engine.core.picture import MIN_SHARE, Picture, char_font, font_for
from engine.core.rng import Rng, new_rng_state
from engine.registry import games

GAME_IDS = ["powergrid", "powergrid_alt", "hexania", "iec"]
# Polish letters Noto Sans CJK lacks (ą ć ę ł ś ź ż) meet Chinese in zh_Hant labels
NAMES = ["alice", "Борис", "Łucja Żak", "Dörte"]
LANGS = ["ru", "zh_Hant", "pl"]
# words a language shares with English on purpose: the Polish edition's currency
SAME_AS_ENGLISH = {"ru": set(), "zh_Hant": set(), "pl": {"Elektro"}}
# ", ": the list separator (LIST_SEPARATOR), the same in Russian and Polish as in English
SAME_MSGIDS = {
    "ru": {"{text}.", ", ", "{players}: {what}"},
    "zh_Hant": set(),
    "pl": {"{money} Elektro", "{text}.", ", ", "{players}: {what}"},
}
REGISTRY: dict[str, Any] = dict(games())
OPTIONS: dict[str, dict[str, str]] = {
    "powergrid": {"map": "germany", "regions": "choose"},
    "powergrid_alt": {"map": "germany"},
    "hexania": {},
    "iec": {},
}


@cache
def snapshots(game_id: str) -> list[tuple[dict[str, Any], str | None]]:
    """(state, viewer) about every tenth of a 4-player bot game, and its end."""
    game = REGISTRY[game_id]
    state = game.setup(NAMES, OPTIONS[game_id], 11)
    rng = Rng(new_rng_state(11))
    bot = game.bots[list(game.bots)[-1]]
    states = [copy.deepcopy(state)]
    moves = 0
    while not game.is_over(state) and moves < 3000:
        player = game.current_players(state)[0]
        game.apply(state, player, bot(state, player, rng))
        moves += 1
        states.append(copy.deepcopy(state))
    picks = [states[min(len(states) - 1, i * len(states) // 8)] for i in range(8)] + [states[-1]]
    viewer = "alice" if game_id == "iec" else None
    return [(s, viewer) for s in picks]


def picture_sets(game_id: str, t: Any = None) -> list[list[Picture]]:
    game = REGISTRY[game_id]
    snaps = snapshots(game_id)
    out = []
    for i, (state, viewer) in enumerate(snaps):
        previous = snaps[i - 1][0] if i else None
        out.append(game.render_set(state, viewer, t, previous))
    return out


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_picture_fits_a_phone_screen_and_the_size_limit(game_id: str) -> None:
    for pics in picture_sets(game_id):
        assert 1 <= len(pics) <= 4
        for pic in pics:
            img = decode(pic.png)
            assert img.mode == "P" and img.size == (pic.width, pic.height)
            assert pic.width <= 1080 and pic.height <= 2 * pic.width, (pic.width, pic.height)
            assert len(pic.png) <= 200 * 1024
        assert pics[0].caption and all(p.caption for p in pics)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_smallest_label_of_each_class_is_legible_at_720_px(game_id: str) -> None:
    """Names >= 2.8 % of the width, numbers and other text >= 2.2 %: what the renderer
    reports it drew, per picture."""
    seen: set[str] = set()
    for pics in picture_sets(game_id):
        for pic in pics:
            for cls, share in pic.smallest.items():
                assert share >= MIN_SHARE[cls] - 1e-9, (cls, share, pic.caption)
                # and the label list agrees with the summary
                sizes = [lab.size for lab in pic.labels if lab.cls == cls]
                assert min(sizes) / pic.width == pytest.approx(share)
            seen |= set(pic.smallest)
    assert {"name", "number"} <= seen


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_render_is_the_set_as_one_png_one_under_the_other(game_id: str) -> None:
    game = REGISTRY[game_id]
    state, viewer = snapshots(game_id)[4]
    pics = game.render_set(state, viewer)
    one = decode(game.render(state, viewer))
    gaps = 6 * (len(pics) - 1)
    assert one.size == (max(p.width for p in pics), sum(p.height for p in pics) + gaps)
    assert game.render(state, viewer) == game.render(state, viewer)  # deterministic


class Recorder:
    """A translator that remembers every message the renderer asked for."""

    def __init__(self, lang: str) -> None:
        self.t = translator(lang)
        self.asked: set[str] = set()

    def gettext(self, message: str) -> str:
        self.asked.add(message)
        return self.t.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        self.asked.add(singular)
        return self.t.ngettext(singular, plural, n)


def _labels(sets: list[list[Picture]]) -> set[str]:
    return {lab.text for pics in sets for p in pics for lab in p.labels}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_each_language_gives_its_own_pictures_with_no_english_label(game_id: str) -> None:
    english = picture_sets(game_id)
    en_labels = _labels(english)
    per_lang: dict[str, set[str]] = {}
    for lang in LANGS:
        rec = Recorder(lang)
        sets = picture_sets(game_id, rec)
        per_lang[lang] = _labels(sets)
        for a, b in zip(english, sets, strict=True):
            assert [p.png for p in a] != [p.png for p in b], lang
            assert a[0].caption != b[0].caption, lang
        # every message the renderer used is translated in the catalog
        untranslated = {
            m for m in rec.asked if m and rec.t.gettext(m) == m and m not in SAME_MSGIDS[lang]
        }
        assert not untranslated, (lang, sorted(untranslated))
    data = en_labels.intersection(*per_lang.values())  # names, numbers, cell ids: the same
    for lang, labels in per_lang.items():
        for text in (labels & en_labels) - data:
            words = set(re.findall(r"[^\W\d_]{2,}", text))
            assert words <= SAME_AS_ENGLISH[lang], (lang, text)


def _glyph(ch: str, size: int, bold: bool, label: str, probe: str | None = None) -> bytes:
    """`ch` drawn with the font the renderer uses for it inside `label` (or `probe` drawn
    with that font: the missing-glyph box)."""
    font = char_font(label, ch, size, bold)
    ch = probe or ch
    img = Image.new("L", (size * 2, size * 2))
    ImageDraw.Draw(img).text((size // 2, size // 4), ch, font=font, fill=255)
    return img.tobytes()


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_the_fonts_have_every_glyph_the_pictures_draw(lang: str) -> None:
    """Rendered glyphs compared with the font's "missing glyph" box, for every character of
    every label (the font is chosen per label, as the renderer does)."""
    t = None if lang == "en" else translator(lang)
    checked = 0
    for game_id in GAME_IDS:
        for text in _labels(picture_sets(game_id, t)):
            for ch in set(text) - {" "}:
                missing = _glyph(ch, 16, False, text, probe="\U000f0000")
                assert _glyph(ch, 16, False, text) != missing, (lang, ch, text)
                checked += 1
    assert checked > 100
    if lang == "zh_Hant":
        family = font_for("發電廠", 16).getname()[0]
        assert family is not None and family.startswith("Noto Sans")


def test_the_rules_of_every_game_work_without_pillow() -> None:
    """Only render modules and engine/core/picture.py import Pillow, and only when drawing."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['PIL'] = None\n"
        "from engine.core import EnglishTranslator\n"
        "from engine.registry import games\n"
        "for g in games().values():\n"
        "    s = g.setup(['a', 'b', 'c'], {}, 1)\n"
        "    g.view(s, None); g.describe_turn(s, None, EnglishTranslator())\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.stdout.strip() == "ok", out.stderr


def test_no_picture_module_passes_about_800_lines() -> None:
    """One job per module (issue 26): engine/iec/render.py had grown to 802 lines and was split
    into the set's layout (render.py), the map, the panel and the marks both draw."""
    from pathlib import Path

    engine = Path(__file__).resolve().parents[3] / "engine"
    paths = [
        *engine.glob("*/render*.py"),
        *engine.glob("*/render/*.py"),
        *engine.glob("core/pic*.py"),
    ]
    long = {
        str(path.relative_to(engine)): n
        for path in paths
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > 800
    }
    assert len(paths) >= 10 and not long, (len(paths), long)
