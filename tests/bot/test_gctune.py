"""bot/gctune.py: a serving process's collector (issue 23)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from bot import gctune


@pytest.fixture
def restored_gc() -> Iterator[None]:
    """The test process's collector as it was (settle changes the whole process)."""
    before = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*before)


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_settle_freezes_what_startup_built_and_raises_the_thresholds(restored_gc: None) -> None:
    built_at_startup = {"catalog": ["a", "b"]}
    gctune.settle()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (gctune.YOUNG, gctune.MIDDLE, gctune.OLD)
    # what startup built is no longer walked by any collection, young or full
    assert all(built_at_startup is not o for o in gc.get_objects())
    gctune.settle()  # again: nothing breaks, the thresholds stay
    assert gc.get_threshold() == (gctune.YOUNG, gctune.MIDDLE, gctune.OLD)


def test_a_cycle_made_after_settle_is_still_collected(restored_gc: None) -> None:
    gctune.settle()
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    assert gone() is not None  # a cycle: reference counting alone keeps it
    gc.collect()
    assert gone() is None
