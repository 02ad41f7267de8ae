"""The players' colours (engine/core/picture.py PLAYER_COLORS), the one palette every board,
the end-of-game card and the charts draw a seat in, stay apart for colour-blind players: the
colours of every two seats, simulated as deuteranopes and protanopes see them (Machado et al.
2009, severity 1), differ by a CIELAB distance a glance tells apart. Found reviewing pictures:
IEC's red and green companies were one colour under deuteranopia (distance 13), its blue and
purple under protanopia (12); Hexania's seat 1 blue and seat 6 sky blue alike (26)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import pytest

from engine.core.picture import PLAYER_COLORS, seat_colours

SIMULATE = {
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
}
# the least distance between two seats: normal sight, and simulated colour blindness
APART = {"normal": 30.0, "deuteranopia": 15.0, "protanopia": 15.0}


def _linear(v: float) -> float:
    v /= 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _encode(v: float) -> float:
    v = min(1.0, max(0.0, v))
    return 255 * (v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055)


def _times(m: Sequence[Sequence[float]], c: Sequence[float]) -> list[float]:
    return [sum(m[i][j] * c[j] for j in range(3)) for i in range(3)]


def seen(rgb: Sequence[int], sight: str) -> list[float]:
    if sight == "normal":
        return [float(x) for x in rgb]
    return [_encode(x) for x in _times(SIMULATE[sight], [_linear(x) for x in rgb])]


def _lab(rgb: Sequence[float]) -> list[float]:
    xyz = _times(
        ((0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505)),
        [_linear(x) for x in rgb],
    )
    x, y, z = xyz[0] / 0.9505, xyz[1], xyz[2] / 1.089
    f = [v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116 for v in (x, y, z)]
    return [116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])]


def distance(a: Sequence[float], b: Sequence[float]) -> float:
    return float(sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b), strict=True)) ** 0.5)


def least_apart(colours: Sequence[Sequence[int]], sight: str) -> float:
    return min(distance(seen(a, sight), seen(b, sight)) for a, b in combinations(colours, 2))


@pytest.mark.parametrize("sight", sorted(APART))
def test_every_two_seats_stay_apart_also_for_colour_blind_players(sight: str) -> None:
    assert len(set(PLAYER_COLORS)) == len(PLAYER_COLORS) == 6
    assert least_apart(PLAYER_COLORS, sight) >= APART[sight]


def test_the_old_iec_and_hexania_colours_fail_the_measure() -> None:
    iec = [(200, 40, 40), (40, 90, 200), (30, 150, 60), (150, 60, 170)]
    assert least_apart(iec, "deuteranopia") < APART["deuteranopia"]
    assert least_apart(iec, "protanopia") < APART["protanopia"]
    hexania = [(0, 114, 178), (86, 180, 233), (213, 94, 0), (0, 158, 115)]
    assert least_apart(hexania, "normal") < APART["normal"]


def test_seat_colours_follow_the_seat_order() -> None:
    got = seat_colours(["b", "a", "c"])
    assert got == {"b": PLAYER_COLORS[0], "a": PLAYER_COLORS[1], "c": PLAYER_COLORS[2]}
