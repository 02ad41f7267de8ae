"""What an IEC picture tells in words: what changed since the previous picture (the cells
framed and tokens ringed in the change colour) and the caption that says it ("Turn 3, missile
fire — ann is next. bo built on H6."). No Pillow: engine/iec/render*.py draw what this finds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import N_, NP_
from engine.core.picture import Words
from engine.iec.rules import PHASE_NAMES, result

OVER = N_("Game over: {players} won")
NEXT = N_("{player} is next")
AT_ONCE = N_("{players} decide at once")
CAPTION = N_("Turn {turn}, {name}")
# What a player changed, told of one cell or of several: (singular, plural), the form chosen
# by the number of cells (found playing, 2026-12: "alice prepared sites on R12" for one site).
# A building is told alike for any number.
Told = str | tuple[str, str]
BUILT: Told = N_("{player} built on {cells}")
TOKENS: Told = NP_("{player} laid a token on {cells}", "{player} laid tokens on {cells}")
SITES: Told = NP_("{player} prepared a site on {cells}", "{player} prepared sites on {cells}")
MOVED: Told = NP_("{player} moved a token to {cells}", "{player} moved tokens to {cells}")
TURNED_UP: Told = NP_(
    "{player} turned up a token on {cells}", "{player} turned up tokens on {cells}"
)
SENTENCE = N_("{text}.")


def turn_order(view: dict[str, Any]) -> list[str]:
    """The players in this turn's order (IEC-26, the "Order:" the chat tells), then those
    not in it (eliminated) in seat order."""
    order = [p for p in view.get("order") or [] if p in view["players"]]
    return order + [p for p in view["seats"] if p not in order]


@dataclass
class Changes:
    """Cells framed (new or grown buildings, new sites), token ids ringed (new, moved, turned
    up), and what the caption tells, per player: [(message, cells)]."""

    cells: set[str] = field(default_factory=set)
    tokens: set[int] = field(default_factory=set)
    told: dict[str, list[tuple[Told, list[str]]]] = field(default_factory=dict)

    def tell(self, player: str, msg: Told, cell: str) -> None:
        said = self.told.setdefault(player, [])
        for m, cells in said:
            if m == msg:
                cells.append(cell)
                return
        said.append((msg, [cell]))


def changes(view: dict[str, Any], previous: dict[str, Any] | None) -> Changes:
    ch = Changes()
    if previous is None:
        return ch
    before_b = previous.get("buildings") or {}
    for cell, b in sorted(view["buildings"].items()):
        old = before_b.get(cell)
        if (
            old is None
            or old.get("owner") != b["owner"]
            or old.get("kind") != b["kind"]
            or int(old.get("modules", 0)) < int(b["modules"])
        ):
            ch.cells.add(cell)
            ch.tell(b["owner"], BUILT, cell)
    before_s = previous.get("sites") or {}
    for cell, who in sorted(view["sites"].items()):
        if before_s.get(cell) != who:
            ch.cells.add(cell)
            ch.tell(who, SITES, cell)
    before_t = {t["id"]: t for t in previous.get("tokens") or []}
    for tok in view["tokens"]:
        old = before_t.get(tok["id"])
        msg: Told | None = (
            TOKENS
            if old is None
            else MOVED
            if old["cell"] != tok["cell"]
            else TURNED_UP
            if tok["up"] and not old["up"]
            else None
        )
        if msg is not None:
            ch.tokens.add(tok["id"])
            ch.tell(tok["owner"], msg, tok["cell"])
    return ch


def winners(w: Words, view: dict[str, Any]) -> str:
    """The first group of the game's own ranking (IEC-S-9: most VP, then intact modules, then
    science; corrections 1.1: survivors first), the one the over turn text ranks first; the
    view holds all it reads."""
    ranking = result(view)
    return w.list(ranking[0]) if ranking else ""


def told_text(w: Words, player: str, msg: Told, cells: list[str]) -> str:
    """One player's change in words: "ann prepared a site on R12", "... sites on R12, S9"."""
    listed = w.list(sorted(cells))
    if isinstance(msg, tuple):
        return w.n(*msg, len(cells), player=player, cells=listed)
    return w(msg, player=player, cells=listed)


def caption(w: Words, view: dict[str, Any], told: dict[str, list[tuple[Told, list[str]]]]) -> str:
    name = w(PHASE_NAMES[view["phase"]]) if view["phase"] in PHASE_NAMES else str(view["phase"])
    if view.get("over"):
        head = w(OVER, players=winners(w, view))
    else:
        head = w(CAPTION, turn=view["turn"], name=name)
        if view.get("actor"):
            head += " — " + w(NEXT, player=view["actor"])
        elif view.get("actors"):  # one left of those asked at once: "piotr decide at once"
            actors = view["actors"]
            head += " — " + (
                w(NEXT, player=actors[0])
                if len(actors) == 1
                else w(AT_ONCE, players=w.list(actors))
            )
    parts = [
        told_text(w, p, msg, cells) for p in turn_order(view) for msg, cells in told.get(p, [])
    ]
    return " ".join(w(SENTENCE, text=p) for p in (head, "; ".join(parts)) if p)
