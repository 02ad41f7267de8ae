"""A deterministic random number generator whose whole state is one JSON integer.

SplitMix64 (Steele, Lea, Flood 2014): tiny, fast in pure Python, good enough for shuffles
and dice. The state lives inside the game state (`state["rng"]`), so a game replays exactly.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB

# Per bound n: the largest draw `below` keeps (draws above it are rejected: no modulo bias).
# Bounded; games draw below a few small bounds again and again.
_LIMITS: dict[int, int] = {}


def new_rng_state(seed: int) -> dict[str, int]:
    return {"s": seed & _MASK}


class Rng:
    """A view over an `{"s": int}` dict stored in the game state; drawing mutates it."""

    __slots__ = ("_box",)

    def __init__(self, box: dict[str, Any]) -> None:
        self._box = box

    def next64(self) -> int:
        s = (self._box["s"] + _GOLDEN) & _MASK
        self._box["s"] = s
        z = s
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), without modulo bias.

        `next64` inline (the engines draw on nearly every move; a frame and the 64-bit
        arithmetic are most of its cost), the same numbers: each draw advances the state
        once, and a draw above the limit is rejected and drawn again."""
        box = self._box
        if n == 1:
            # Every draw is within the limit (_MASK) and x % 1 is 0: the draw is made (the
            # state advances exactly as it would) but its mixing is not needed.
            box["s"] = (box["s"] + _GOLDEN) & _MASK
            return 0
        limit = _LIMITS.get(n)
        if limit is None:
            if n <= 0:
                raise ValueError("n must be positive")
            limit = _MASK - (_MASK + 1) % n
            if len(_LIMITS) >= 4096:
                _LIMITS.clear()
            _LIMITS[n] = limit
        while True:
            s = (box["s"] + _GOLDEN) & _MASK
            box["s"] = s
            z = ((s ^ (s >> 30)) * _MIX1) & _MASK
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK
            x = z ^ (z >> 31)
            if x <= limit:
                return x % n

    def randint(self, a: int, b: int) -> int:
        """Uniform integer in [a, b], like random.randint."""
        return a + self.below(b - a + 1)

    def die(self, sides: int = 6) -> int:
        return self.randint(1, sides)

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[Any]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
