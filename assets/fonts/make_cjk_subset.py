"""Make assets/fonts/NotoSansTC-Subset-Regular.otf from Debian's fonts-noto-cjk.

    apt-get install fonts-noto-cjk && pip install fonttools
    python assets/fonts/make_cjk_subset.py

Noto Sans CJK TC (SIL Open Font License 1.1, LICENSE-NotoSansCJK.txt) cut down to what the
pictures can need: ASCII, Latin-1 and Latin Extended-A (Polish), Cyrillic, general
punctuation, the Big5 symbols and the 5,401 common characters of Big5 level 1, and every
character of the Traditional Chinese catalog. The full collection is about 20 MB per weight;
the subset keeps a picture in Chinese legible without shipping it.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parents[2]
SOURCE = Path("/usr/share/fonts/opentype/noto")
FAMILY = "Noto Sans CJK TC"


def big5_range(lo: int, hi: int) -> set[str]:
    out: set[str] = set()
    for lead in range(lo >> 8, (hi >> 8) + 1):
        for trail in [*range(0x40, 0x7F), *range(0xA1, 0xFF)]:
            code = (lead << 8) | trail
            if lo <= code <= hi:
                with contextlib.suppress(UnicodeDecodeError):
                    out.add(bytes([lead, trail]).decode("big5"))
    return out


def characters() -> str:
    chars = {chr(c) for c in range(0x20, 0x17F)}  # ASCII, Latin-1, Latin Extended-A
    chars |= {chr(c) for c in range(0x400, 0x460)}  # Cyrillic
    chars |= {chr(c) for c in range(0x2010, 0x2050)}  # dashes, quotes, bullets, ellipsis
    chars |= {chr(c) for c in range(0x3000, 0x3020)} | {chr(c) for c in range(0xFF01, 0xFF5F)}
    chars |= set("→←↑↓⚡☢✓✗×·•●○▲▼★☆")
    chars |= big5_range(0xA140, 0xA3BF) | big5_range(0xA440, 0xC67E)
    po = ROOT / "bot" / "locale" / "zh_Hant" / "LC_MESSAGES" / "boardchat.po"
    for text in re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', po.read_text(encoding="utf-8"), re.M):
        chars |= set(text)
    return "".join(sorted(chars))


def main() -> None:
    text = characters()
    for weight in ("Regular",):
        coll = TTCollection(str(SOURCE / f"NotoSansCJK-{weight}.ttc"))
        font = next(f for f in coll.fonts if f["name"].getDebugName(1) == FAMILY)
        options = subset.Options()
        options.layout_features = ["kern", "liga", "locl", "vert"]
        options.name_IDs = ["*"]
        options.notdef_outline = True
        sub = subset.Subsetter(options)
        sub.populate(text=text)
        sub.subset(font)
        out = Path(__file__).with_name(f"NotoSansTC-Subset-{weight}.otf")
        font.save(str(out))
        print(f"wrote {out.name}: {out.stat().st_size // 1024} KB, {len(text)} characters")


if __name__ == "__main__":
    main()
