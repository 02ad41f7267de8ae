"""IEC board picture: view -> palette PNG (≤ 1280 px wide). The only module importing Pillow."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine.iec.scenario import COLS, load

CELL = 36
MARGIN = 24
PANEL = 380
FONT_PATH = Path(__file__).resolve().parents[2] / "assets" / "fonts" / "DejaVuSans.ttf"
TERRAIN_RGB = {
    ".": (214, 200, 170),
    "~": (96, 140, 190),
    "^": (120, 110, 100),
    "x": (150, 170, 80),
}
AREA_RGB = {
    "H": (232, 214, 120),
    "I": (206, 176, 132),
    "II": (190, 160, 120),
    "III": (200, 150, 130),
}
SEAT_RGB = {"P1": (200, 40, 40), "P2": (40, 90, 200), "P3": (30, 150, 60), "P4": (150, 60, 170)}
LETTER = {
    "reactor": "R",
    "mine": "M",
    "storage": "S",
    "mixer": "X",
    "laboratory": "L",
    "transmitter": "T",
    "developer": "D",
    "launcher": "W",
}


def _font(size: int) -> Any:
    if FONT_PATH.is_file():
        try:
            return ImageFont.truetype(str(FONT_PATH), size)
        except OSError:
            pass
    return ImageFont.load_default()


def render(view: dict[str, Any], viewer: str | None) -> bytes:
    s = load(view["scenario"])
    w = MARGIN + s.width * CELL + 10 + PANEL
    h = max(MARGIN + s.height * CELL + 10, 420)
    img = Image.new("RGB", (w, h), (245, 242, 235))
    d = ImageDraw.Draw(img)
    small, mid, big = _font(11), _font(14), _font(16)
    seat = {p: pl["seat"] for p, pl in view["players"].items()}
    for i in range(s.width):
        d.text((MARGIN + i * CELL + CELL // 2 - 4, 4), COLS[i], fill=(60, 60, 60), font=small)
    for j in range(s.height):
        d.text((2, MARGIN + j * CELL + CELL // 2 - 6), str(j + 1), fill=(60, 60, 60), font=small)
    for cell in s.cells:
        x, y = s.xy[cell]
        x0, y0 = MARGIN + x * CELL, MARGIN + y * CELL
        ch = s.map[y][x]
        area = s.area_of.get(cell)
        if area:
            cls = s.areas[area].get("class") or "H"
            fill = AREA_RGB.get(cls, (200, 180, 140))
        else:
            fill = TERRAIN_RGB.get(ch, (214, 200, 170))
        d.rectangle([x0, y0, x0 + CELL, y0 + CELL], fill=fill, outline=(170, 160, 140))
        if cell in s.seismic:
            d.line([x0 + 2, y0 + CELL - 4, x0 + CELL - 2, y0 + 4], fill=(170, 90, 70))
    for cell, who in view["sites"].items():
        x, y = s.xy[cell]
        x0, y0 = MARGIN + x * CELL, MARGIN + y * CELL
        d.rectangle(
            [x0 + 4, y0 + 4, x0 + CELL - 4, y0 + CELL - 4],
            outline=SEAT_RGB.get(seat.get(who, ""), (0, 0, 0)),
            width=2,
        )
    for cell, b in view["buildings"].items():
        x, y = s.xy[cell]
        x0, y0 = MARGIN + x * CELL, MARGIN + y * CELL
        col = SEAT_RGB.get(seat.get(b["owner"], ""), (0, 0, 0))
        full = int(s.buildings[b["kind"]]["modules"])
        d.rectangle(
            [x0 + 3, y0 + 3, x0 + CELL - 3, y0 + CELL - 9],
            fill=col if b["powered"] else (240, 240, 240),
            outline=col,
            width=2,
        )
        d.text(
            (x0 + 12, y0 + 6),
            LETTER[b["kind"]],
            fill=(255, 255, 255) if b["powered"] else col,
            font=mid,
        )
        bar = (CELL - 6) / full
        for m in range(full):
            ok = m < b["modules"]
            d.rectangle(
                [x0 + 3 + m * bar, y0 + CELL - 7, x0 + 2 + (m + 1) * bar, y0 + CELL - 3],
                fill=col if ok else (255, 255, 255),
                outline=(90, 90, 90),
            )
    for area_id, area in view["areas"].items():
        cells = [c for c, a in s.area_of.items() if a == area_id]
        if not cells or area_id == "H":
            continue
        x, y = min(s.xy[c][0] for c in cells), min(s.xy[c][1] for c in cells)
        label = area["deposit"] or "?"
        tx, ty = MARGIN + x * CELL + 2, MARGIN + y * CELL - 7
        d.rectangle([tx - 1, ty, tx + 7 * len(f"{area_id}:{label}"), ty + 12], fill=(255, 250, 230))
        d.text((tx, ty), f"{area_id}:{label}", fill=(60, 30, 20), font=small)
    for tok in view["tokens"]:
        x, y = s.xy[tok["cell"]]
        x0, y0 = MARGIN + x * CELL + CELL - 13, MARGIN + y * CELL + 2
        col = SEAT_RGB.get(seat.get(tok["owner"], ""), (0, 0, 0))
        if tok["up"]:
            d.ellipse([x0, y0, x0 + 10, y0 + 10], fill=(0, 0, 0), outline=col, width=2)
        else:
            d.ellipse([x0, y0, x0 + 10, y0 + 10], fill=(250, 250, 250), outline=col, width=2)
            if tok.get("real") is not None and tok["owner"] == viewer:
                d.text((x0 + 2, y0 - 1), "*" if tok["real"] else "-", fill=col, font=small)
    px = MARGIN + s.width * CELL + 16
    d.text(
        (px, 6),
        f"Turn {view['turn']}  phase {view['phase']}  R={view['radiation']}",
        fill=(0, 0, 0),
        font=big,
    )
    yy = 32
    for p in view["seats"]:
        pl = view["players"][p]
        col = SEAT_RGB.get(pl["seat"], (0, 0, 0))
        status = " (out)" if pl["eliminated"] else ""
        vp = pl["final_vp"] if pl["eliminated"] else pl["vp"]
        ntech = len(pl["techs"]) + int(pl.get("hidden_techs", 0))
        d.rectangle([px, yy + 3, px + 12, yy + 15], fill=col)
        d.text((px + 18, yy), f"{p}{status}", fill=(0, 0, 0), font=big)
        yy += 20
        d.text(
            (px + 18, yy),
            f"VP {vp}  science {pl['science']}  techs {ntech}",
            fill=(0, 0, 0),
            font=mid,
        )
        yy += 18
        for cell, b in sorted(view["buildings"].items()):
            if b["owner"] != p or b["kind"] != "storage":
                continue
            goods = " ".join(f"{n}{g}" for g, n in b["goods"].items() if n) or "empty"
            d.text((px + 18, yy), f"{cell}: {goods}", fill=(40, 40, 40), font=small)
            yy += 14
        yy += 8
        if yy > h - 40:
            break
    d.text((px, h - 22), "R reactor M mine S storage X mixer L lab", fill=(60, 60, 60), font=small)
    d.text((px, h - 40), "T transmitter D developer W launcher", fill=(60, 60, 60), font=small)
    out = io.BytesIO()
    img.quantize(colors=64).save(out, format="PNG", optimize=True)
    return out.getvalue()
