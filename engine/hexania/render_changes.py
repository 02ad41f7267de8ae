"""The caption's account of a Hexania picture (engine/hexania/render.py): the cells whose
owner changed since the previous picture, and who gained, lost or destroyed what (`Changes`)."""

from __future__ import annotations

from typing import Any

from engine.core.errors import N_, NP_
from engine.core.picture import Words
from engine.hexania.board import CELLS

GAINED = N_("{player} now on {cells}")
LOST = N_("{player} lost {cells}")
LOST_TO = N_("{player} lost {cells} to {attacker}")
LEFT = N_("{player} no longer on {cells}")
OUT_NOW = N_("{player} is out of the game")
# how many enemy pieces a player destroyed (HEX-17's books), where the board cannot say which:
# "Pieces destroyed: Bot — 4" read in Polish as if the Bot had lost them
KILLED = NP_("{player} destroyed {n} piece", "{player} destroyed {n} pieces")


def changed_cells(
    view: dict[str, Any], previous: dict[str, Any] | None
) -> dict[str, tuple[str | None, str | None]]:
    """cell -> (owner before, owner now) for every cell whose owner changed."""
    if previous is None:
        return {}
    now, before = view["board"], previous.get("board") or {}
    return {
        c: (before.get(c), now.get(c))
        for c in set(now) | set(before)
        if now.get(c) != before.get(c)
    }


class Changes:
    """What happened between two pictures, as far as two views tell it.

    The picture gets two views, not the events between them, so this is inferred, and only
    what is certain is said. A piece that left a cell is not "lost": a player who had a turn
    may have moved it (HEX-6, HEX-9) or seen it collapse (HEX-13), so the cell is one he is
    "no longer on". A piece of a player who had no turn cannot have moved, so it was
    destroyed (HEX-14); by whom is said when one player alone can have done it. How many
    pieces each player destroyed comes from the bonus books (HEX-17: `round_bonus` within a
    round, `bonus_next` and the turn's `bonus` across one), which also count pieces destroyed
    without a trace on the board (one that arrived and was destroyed between the pictures):
    those totals are said when some destroyed piece is not told with its attacker."""

    def __init__(self, view: dict[str, Any], previous: dict[str, Any]) -> None:
        self.changed = changed_cells(view, previous)
        now, before = view["players"], previous.get("players") or {}
        self.out = {p for p, i in now.items() if not i["active"] and before.get(p, i)["active"]}
        acted = {p for p in now if _acted(view, previous, p)}
        self.kills = {p: _kills(view, previous, p) for p in now}
        budget = dict(self.kills)
        # cell -> (victim, attacker or None): pieces certainly destroyed
        self.destroyed: dict[str, tuple[str, str | None]] = {}
        self.left: dict[str, list[str]] = {}  # player -> cells his pieces are no longer on
        for c in sorted(self.changed, key=CELLS.index):
            b, _a = self.changed[c]
            if b is None or b in self.out:
                continue  # a new piece; or removed with its owner (HEX-2.5)
            if b in acted:
                self.left.setdefault(b, []).append(c)
                continue
            who = [q for q in sorted(acted) if q != b and budget.get(q) != 0]
            one = who[0] if len(who) == 1 and _spend(budget, who[0]) else None
            self.destroyed[c] = (b, one)
        self.untold = any(q is None for _b, q in self.destroyed.values()) or any(
            k is not None and k > sum(1 for _b, q in self.destroyed.values() if q == p)
            for p, k in self.kills.items()
        )

    def words(self, w: Words, view: dict[str, Any]) -> list[str]:
        out = []
        order = sorted(view["players"], key=lambda p: view["players"][p]["seat"])
        if self.untold:
            out += [w.n(*KILLED, k, player=p) for p in order if (k := self.kills[p])]
        for victim in order:
            by: dict[str | None, list[str]] = {}
            for c, (b, a) in self.destroyed.items():
                if b == victim:
                    by.setdefault(a, []).append(c)
            for a, cells in sorted(by.items(), key=lambda kv: (kv[0] is None, kv[0] or "")):
                if a is None:
                    out.append(w(LOST, player=victim, cells=_few(w, cells)))
                else:
                    out.append(w(LOST_TO, player=victim, cells=_few(w, cells), attacker=a))
        for p in order:
            if p in self.out:
                out.append(w(OUT_NOW, player=p))
                continue
            # where he is now; where he no longer is only when he is nowhere new (the map's
            # broken rings show the cells left): a caption a phone shows in a few lines
            got = [c for c in sorted(self.changed, key=CELLS.index) if self.changed[c][1] == p]
            if got:
                out.append(w(GAINED, player=p, cells=_few(w, got)))
            elif self.left.get(p):
                out.append(w(LEFT, player=p, cells=_few(w, self.left[p])))
        return out


def _spend(budget: dict[str, int | None], player: str) -> bool:
    """Whether `player` may be named as the attacker of one more piece (his destroyed count
    allows it; None: the count is not known)."""
    k = budget.get(player)
    if k is None:
        return True
    if k <= 0:
        return False
    budget[player] = k - 1
    return True


def _acted(view: dict[str, Any], previous: dict[str, Any], p: str) -> bool:
    """Whether `p` may have acted between the two views (HEX-T-3: only on his turn)."""
    turns0 = (previous.get("players") or {}).get(p, {}).get("turns", 0)
    new = view["players"][p]["turns"] - turns0
    t0, t1 = previous.get("turn"), view.get("turn")
    on0 = t0 is not None and t0["player"] == p
    on1 = t1 is not None and t1["player"] == p
    if on0 and (new > 0 or not on1):
        return True  # his turn went on after the earlier picture, and ended
    if t0 is not None and t1 is not None and on0 and on1 and t1["actions"] > t0["actions"]:
        return True
    if t1 is not None and on1 and new > 0 and t1["actions"] == 0:
        new -= 1  # his latest turn: rolled, nothing done yet
    return new > 0


def _kills(view: dict[str, Any], previous: dict[str, Any], p: str) -> int | None:
    """How many pieces `p` destroyed between the two views (HEX-17's books); None: unknown."""
    now, before = view["players"][p], (previous.get("players") or {}).get(p)
    if before is None:
        return None
    if view["round"] == previous.get("round"):
        return max(0, now["round_bonus"] - before["round_bonus"])
    new = now["turns"] - before["turns"]
    t0, t1 = previous.get("turn"), view.get("turn")
    on0 = t0 is not None and t0["player"] == p
    on1 = t1 is not None and t1["player"] == p
    b0, b1 = before["bonus_next"], now["bonus_next"]
    if new == 0:
        return max(0, b1 - b0)
    if new == 1 and not on0:
        return b1
    if new == 1 and on1 and t1 is not None:
        return max(0, t1["bonus"] - b0) + b1
    if new == 2 and not on0 and on1 and t1 is not None:
        return t1["bonus"] + b1
    return None


def _few(w: Words, cells: list[str], most: int = 4) -> str:
    """At most `most` cell ids, then an ellipsis: a caption stays a sentence."""
    return w.list(cells[:most] + (["…"] if len(cells) > most else []))
