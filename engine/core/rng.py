"""A deterministic random number generator whose whole state is one JSON integer.

SplitMix64 (Steele, Lea, Flood 2014): tiny, fast in pure Python, good enough for shuffles
and dice. The state lives inside the game state (`state["rng"]`), so a game replays exactly.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


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
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _MASK - (_MASK + 1) % n
        while True:
            x = self.next64()
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
