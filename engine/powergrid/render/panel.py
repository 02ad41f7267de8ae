"""The Power Grid panel picture: what is asked and of whom, the players, plants and resources.

Each block draws at (x, y) and returns the height it used; called with `pen=None` it only
measures, so the picture is made exactly as tall as its content.
"""

from __future__ import annotations

from typing import Any

from engine.core.picture import (
    CHANGE,
    HILITE,
    INK,
    MUTED,
    NAME,
    NUMBER,
    PLAYER_COLORS,
    RGB,
    RULE,
    WHITE,
    Pen,
    Words,
    draw_title,
    mix,
    seat_colours,
    wrap,
)
from engine.core.sentences import WHO_DOES
from engine.powergrid.render import words as W
from engine.powergrid.render.board import badge_tags, house

RESOURCES = ("coal", "oil", "garbage", "uranium")
RESOURCE_COLORS: dict[str, RGB] = {
    "coal": (122, 82, 48),
    "oil": (30, 30, 30),
    "garbage": (230, 190, 20),
    "uranium": (214, 40, 40),
}
TYPE_COLORS: dict[str, RGB] = {
    "coal": (122, 82, 48),
    "oil": (30, 30, 30),
    "garbage": (200, 160, 0),
    "uranium": (214, 40, 40),
    "eco": (46, 150, 60),
    "fusion": (90, 60, 170),
}
TEXT_X = 0  # a player's texts, right of his colour's stripe
BADGE_W = 36  # his house after his name, and the room round it
PLAYER_HEX = ["#{:02X}{:02X}{:02X}".format(*c) for c in PLAYER_COLORS]
CARD_W, CARD_H = 84, 70


def _seats(view: dict[str, Any]) -> list[str]:
    return list(view.get("seat_order") or view.get("players", {}).keys())


def player_colours(view: dict[str, Any]) -> dict[str, RGB]:
    """Each player's colour by seat (houses, plants, lines; the end-of-game card's too)."""
    return seat_colours(_seats(view))


ALERT: RGB = (170, 40, 20)


def is_plant(c: Any) -> bool:
    return isinstance(c, dict) and c.get("type") not in (None, "step3") and c.get("number") != 99


def card(
    pen: Pen,
    w: Words,
    x: float,
    y: float,
    plant: dict[str, Any],
    stored: dict[str, int] | None = None,
    highlight: bool = False,
    new: bool = False,
) -> None:
    """A plant card: number, cities powered, type, and what it burns (or holds, when owned)."""
    d = pen.d
    kind = plant.get("type", "")
    cost = int(plant.get("cost", 0))
    left = TYPE_COLORS["coal"] if kind == "hybrid" else TYPE_COLORS.get(kind, MUTED)
    right = TYPE_COLORS["oil"] if kind == "hybrid" else left
    x1, y1 = x + CARD_W, y + CARD_H
    if new:
        d.rounded_rectangle((x - 4, y - 4, x1 + 4, y1 + 4), radius=8, fill=CHANGE)
    d.rounded_rectangle((x, y, x1, y1), radius=6, fill=mix(left, WHITE, 0.82))
    if kind == "hybrid":
        d.rectangle((x + CARD_W / 2, y + 3, x1 - 3, y1 - 3), fill=mix(right, WHITE, 0.82))
    d.rounded_rectangle(
        (x, y, x1, y1), radius=6, outline=INK if highlight else left, width=4 if highlight else 2
    )
    pen.text((x + 6, y + 2), str(plant.get("number", "?")), NAME, "number", bold=True)
    d.polygon(
        [
            (x1 - 34, y + 13),
            (x1 - 28, y + 7),
            (x1 - 22, y + 13),
            (x1 - 22, y + 20),
            (x1 - 34, y + 20),
        ],
        fill=INK,
    )
    pen.text((x1 - 5, y + 5), str(plant.get("output", 0)), NUMBER, "number", bold=True, anchor="ra")
    label = w(W.PLANT_TYPE[kind]) if kind in W.PLANT_TYPE else kind
    pen.text((x + CARD_W / 2, y + 27), label, NUMBER, "text", anchor="ma", max_w=CARD_W - 6)
    sq, gap = 8, 2
    n = cost * 2 if stored is not None else cost
    if n == 0:
        return
    fills: list[RGB | None] = []
    if stored is not None:
        for r in ("coal", "oil") if kind == "hybrid" else (kind,):
            fills += [RESOURCE_COLORS.get(r, MUTED)] * int(stored.get(r, 0))
        fills = fills[:n] + [None] * max(0, n - len(fills))
    else:
        fills = [left] * n
    total = n * sq + (n - 1) * gap
    sx, sy = x + (CARD_W - total) / 2, y1 - sq - 6
    for i, f in enumerate(fills):
        bx = sx + i * (sq + gap)
        d.rectangle(
            (bx, sy, bx + sq, sy + sq),
            fill=f if f is not None else WHITE,
            outline=INK if f is not None else left,
        )


def title(w: Words, v: dict[str, Any]) -> str:
    """The panel's title: "Round 3 · Step 2 · Building" (the alternative rules' too)."""
    text = w(W.ROUND_STEP, round=v.get("round", 0), step=v.get("step", 1))
    return text + " · " + W.phase_name(w, v.get("phase", ""))


class Panel:
    """The blocks of the panel for one view."""

    def __init__(
        self,
        view: dict[str, Any],
        viewer: str | None,
        w: Words,
        new_plants: set[tuple[str, int]] | None = None,
    ) -> None:
        self.v = view
        self.viewer = viewer
        self.w = w
        seats = _seats(view)
        self.color = player_colours(view)
        self.tag = badge_tags(seats)
        self.new_plants = new_plants or set()

    def heading(self, pen: Pen | None, x: float, y: float, text: str) -> int:
        if pen is not None:
            pen.text((x, y), text, NAME + 1, "name", bold=True)
        return NAME + 12

    def header(self, pen: Pen | None, x: float, y: float, width: float) -> int:
        """Round, step and phase; who must act (highlighted) and what is asked of them."""
        v, w = self.v, self.w
        phase = v.get("phase", "")
        h = 0
        h += draw_title(pen, (x, y), title(w, v), width) + 12
        current = list(v.get("current_players") or [])
        if current and phase != "over":
            expected = v.get("expected", "")
            if expected == "choose_plant" and v.get("round", 1) == 1:
                expected = "choose_plant_first"  # no pass in round 1 (PG-25)
            what = w(W.EXPECTED[expected]) if expected in W.EXPECTED else expected
            line = w(WHO_DOES, players=w.list(current), what=what)
            if pen is not None:
                pen.d.rounded_rectangle((x - 8, y + h - 4, x + width, y + h + NAME + 10), 8, HILITE)
                tx = x
                for p in current[:6]:
                    badge = (tx, y + h, tx + 26, y + h + 26)
                    house(pen, badge, self.color.get(p, MUTED), self.tag[p])
                    tx += 30
                pen.text(
                    (tx + 4, y + h + 1), line, NAME, "name", bold=True, max_w=x + width - tx - 8
                )
            h += NAME + 20
        lines: list[tuple[str, RGB, bool]] = []
        auction = v.get("auction")
        if auction and phase == "auction":
            lines.append(
                (
                    w(
                        W.AUCTION,
                        plant=auction["plant"]["number"],
                        bid=auction.get("high_bid"),
                        leader=auction.get("leader") or "-",
                    ),
                    INK,
                    True,
                )
            )
            lines.append(
                (w(W.STILL_BIDDING, players=w.list(auction.get("bidders") or [])), INK, False)
            )
        if v.get("pending_discard"):
            lines.append((w(W.PENDING_DISCARD, player=v["pending_discard"]), ALERT, True))
        if v.get("step3_pending"):
            lines.append((w(W.STEP3_PENDING), ALERT, True))
        th = v.get("thresholds")
        if th and phase != "over" and "end" in th:
            lines.append((w(W.THRESHOLDS, step2=th["step2"], end=th["end"]), MUTED, False))
        elif th and phase != "over" and v.get("step", 1) == 1:
            # the variant's view (TPs per city: ALT-24) counts plants and TPs (ALT-40); the
            # panel said "Step 2 at 7 cities" there (found playing, 2026-12-02)
            label = W.STEP2_AT_BUILT if "tps_per_city" in th else W.STEP2_AT
            lines.append((w(label, step2=th["step2"]), MUTED, False))
        for text, color, bold in lines:
            for part in wrap(text, NUMBER + 2, width, bold):
                if pen is not None:
                    pen.text((x, y + h), part, NUMBER + 2, "text", bold=bold, fill=color)
                h += NUMBER + 8
        return h + 8

    def players(self, pen: Pen | None, x: float, y: float, width: float) -> int:
        v, w = self.v, self.w
        players = v.get("players", {})
        ranking = v.get("ranking") or []
        order = [p for group in ranking for p in group]
        number: dict[str, int] = {}
        for group in ranking:
            for p in group:
                number[p] = len(number) - sum(1 for q in group if q in number) + 1
        order += [p for p in v.get("player_order") or v.get("seat_order") or [] if p not in order]
        order += [p for p in v.get("seat_order", []) if p not in order]
        h = self.heading(pen, x, y, w(W.RANKING) if ranking else w(W.PLAYERS))
        current = set(v.get("current_players") or [])
        for i, p in enumerate(order):
            info = players.get(p)
            if info is None:
                continue
            row_h = self.row_height(width, info)
            if pen is not None:
                self._row(pen, x, y + h, width, row_h, number.get(p, i + 1), p, info, p in current)
            h += row_h
        return h + 4

    def _flags(self, p: str, info: dict[str, Any]) -> list[str]:
        """Status tags of the current phase only (never a stale "passed" from the auction)."""
        w, phase = self.w, self.v.get("phase")
        flags = []
        if p == self.viewer:
            flags.append(w(W.YOU))
        if phase == "auction":
            if info.get("bought_plant"):
                flags.append(w(W.BOUGHT))
            elif info.get("passed"):
                flags.append(w(W.PASSED))
        elif phase in ("resources", "build", "bureaucracy") and info.get("done"):
            flags.append(w(W.DONE))
        return flags

    def _row(
        self,
        pen: Pen,
        x: float,
        y: float,
        width: float,
        row_h: int,
        n: int,
        p: str,
        info: dict[str, Any],
        to_move: bool,
    ) -> None:
        w, d = self.w, pen.d
        if to_move:
            d.rounded_rectangle((x - 8, y, x + width, y + row_h - 6), radius=8, fill=HILITE)
        color = self.color.get(p, MUTED)
        d.rectangle((x - 8, y, x - 3, y + row_h - 6), fill=color)
        plants = info.get("plants", [])
        text_w, spots = self.card_spots(x, y, width, len(plants))
        # the house after the name, as the name's tag: before the rank it read as a number
        # of the row ("[6] 1. Marta" read "6 1.", found reviewing pictures with seat tags)
        name_w = pen.text(
            (x + TEXT_X, y + 4), f"{n}. {p}", NAME, "name", bold=True, max_w=text_w - BADGE_W
        )
        bx = x + TEXT_X + name_w + 8
        house(pen, (bx, y + 1, bx + 28, y + 29), color, self.tag.get(p, "?"))
        flags = self._flags(p, info)
        if flags:
            pen.text(
                (bx + 36, y + 8),
                " · ".join(flags),
                NUMBER,
                "text",
                fill=MUTED,
                max_w=max(10.0, text_w - name_w - BADGE_W - 8),
            )
        money = info.get("money")
        line2 = w(W.MONEY_HIDDEN) if money is None else w(W.MONEY, money=money)
        pen.text((x + TEXT_X, y + NAME + 12), line2, NUMBER + 1, "number", bold=True, max_w=text_w)
        line3 = self.details(p, info)
        if info.get("powered") is not None and self.v.get("phase") in ("bureaucracy", "over"):
            line3 = w(W.POWERED, n=info["powered"]) + " · " + line3
        y3 = y + NAME + NUMBER + 20
        for part in wrap(line3, NUMBER, text_w)[:2]:
            pen.text((x + TEXT_X, y3), part, NUMBER, "number", fill=MUTED)
            y3 += NUMBER + 3
        for plant, (cx, cy) in zip(plants, spots, strict=True):
            new = (p, int(plant.get("number", -1))) in self.new_plants
            card(pen, w, cx, cy, plant, stored=plant.get("stored") or {}, new=new)

    def row_height(self, width: float, info: dict[str, Any]) -> int:
        """The height of a player's row (one row of cards beside the text)."""
        return CARD_H + 22

    def card_spots(
        self, x: float, y: float, width: float, count: int
    ) -> tuple[float, list[tuple[float, float]]]:
        """The width left to a player's text, and where his `count` plant cards go: in a row
        at the right end (room for three kept, so that the texts line up; the base game's
        hands hold at most four, PG-26)."""
        cards_w = max(3, count) * (CARD_W + 4)
        cx = x + width - cards_w
        return width - cards_w - 8, [(cx + i * (CARD_W + 4), y + 6) for i in range(count)]

    def details(self, p: str, info: dict[str, Any]) -> str:
        """The small line under a player's money."""
        w = self.w
        text = w(W.CITIES, n=len(info.get("cities", [])))
        return text + " · " + w(W.HOUSES_LEFT, n=info.get("houses_left", 0))

    def plant_market(self, pen: Pen | None, x: float, y: float, width: float) -> int:
        v, w = self.v, self.w
        pm = v.get("plant_market") or {}
        h = self.heading(pen, x, y, w(W.PLANT_MARKET))
        if pen is not None:
            pen.text(
                (x + width, y + 4),
                w(W.DECK, n=v.get("deck_size", 0)),
                NUMBER,
                "number",
                fill=MUTED,
                anchor="ra",
            )
        auction = v.get("auction") or {}
        bid_on = (auction.get("plant") or {}).get("number") if v.get("phase") == "auction" else None
        rows = [(W.NOW, [c for c in pm.get("current", []) if is_plant(c)], False)]
        future = [c for c in pm.get("future", []) if is_plant(c)]
        if future or pm.get("step3_card"):
            rows.append((W.FUTURE, future, bool(pm.get("step3_card"))))
        label_w = 96
        for key, cards, step3 in rows:
            if pen is not None:
                pen.text(
                    (x, y + h + CARD_H / 2),
                    w(key),
                    NUMBER + 1,
                    "text",
                    fill=MUTED,
                    anchor="lm",
                    max_w=label_w - 6,
                )
                cx = x + label_w
                for c in cards:
                    card(pen, w, cx, y + h, c, highlight=c.get("number") == bid_on)
                    cx += CARD_W + 8
                if step3:
                    pen.d.rounded_rectangle((cx, y + h, cx + CARD_W, y + h + CARD_H), 6, fill=INK)
                    pen.text(
                        (cx + CARD_W / 2, y + h + CARD_H / 2),
                        w(W.STEP3_CARD),
                        NUMBER,
                        "text",
                        bold=True,
                        fill=WHITE,
                        anchor="mm",
                        max_w=CARD_W - 6,
                    )
            h += CARD_H + 10
        return h + 6

    def resource_market(self, pen: Pen | None, x: float, y: float, width: float) -> int:
        v, w = self.v, self.w
        rm = v.get("resource_market") or {}
        supply = v.get("supply") or {}
        h = self.heading(pen, x, y, w(W.RESOURCE_MARKET))
        label_w = 150
        cols = max([len(rm.get(r, [])) for r in RESOURCES] + [8])
        cell = (width - label_w) / cols
        row_h = NUMBER * 2 + 24
        for r in RESOURCES:
            if pen is not None:
                yy = y + h
                d = pen.d
                d.rectangle((x, yy + 4, x + 16, yy + 20), fill=RESOURCE_COLORS[r], outline=INK)
                pen.text(
                    (x + 22, yy - 2), w(W.RESOURCE[r]), NAME, "name", bold=True, max_w=label_w - 26
                )
                pen.text(
                    (x + 22, yy + NUMBER + 8),
                    w(W.SUPPLY, n=supply.get(r, 0)),
                    NUMBER,
                    "number",
                    fill=MUTED,
                    max_w=label_w - 26,
                )
                for i, sp in enumerate(rm.get(r, [])):
                    cx = x + label_w + i * cell
                    d.rounded_rectangle(
                        (cx + 1, yy, cx + cell - 2, yy + row_h - 6), 4, fill=(244, 243, 239)
                    )
                    pen.text(
                        (cx + cell / 2, yy + 2),
                        str(sp.get("price", "")),
                        NUMBER,
                        "number",
                        bold=True,
                        anchor="ma",
                    )
                    slots, count = int(sp.get("slots", 1)), int(sp.get("count", 0))
                    sq, gap = 9, 2
                    total = slots * sq + (slots - 1) * gap
                    sx = cx + (cell - total) / 2
                    for k in range(slots):
                        bx = sx + k * (sq + gap)
                        filled = k >= slots - count
                        d.rectangle(
                            (bx, yy + NUMBER + 10, bx + sq, yy + NUMBER + 10 + sq),
                            fill=RESOURCE_COLORS[r] if filled else WHITE,
                            outline=INK if filled else (170, 170, 170),
                        )
            h += row_h
        return h + 4

    def rule(self, pen: Pen | None, x: float, y: float, width: float) -> int:
        if pen is not None:
            pen.d.line((x - 8, y + 4, x + width + 8, y + 4), fill=RULE, width=2)
        return 12
