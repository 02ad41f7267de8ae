"""Engine tests run the `strong` bots (issue 24) on a tiny iteration budget: a decision costs a
few short rollouts instead of seconds, so the suites that play every registered bot kind
(test_bots_accepted.py) stay fast and deterministic (no wall clock)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.core import search

TEST_BUDGET = search.Budget(iterations=2, rollout_cap=2)


@pytest.fixture(autouse=True)
def _tiny_search_budget() -> Iterator[None]:
    before = search.override
    search.override = TEST_BUDGET
    yield
    search.override = before
