"""Test configuration shared by every test.

Hypothesis profiles (issue 27): `make test` and CI load "ci", which derandomises every property
test, so one commit always gives the same result and the same test count. `make fuzz` loads
"fuzz" with a fresh random seed per run to explore new games where a failure costs nothing;
whatever it finds becomes an explicit `@example` or a named regression test before the fix.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from engine.core import search

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "fuzz",
    derandomize=False,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("BOARDCHAT_HYPOTHESIS_PROFILE", "ci"))


# Every test runs the `strong` bots (issue 24) on a tiny iteration budget: a decision costs a few
# short rollouts instead of seconds of wall clock, so suites that seat or call every bot kind stay
# fast and deterministic. Tests of the budget itself set their own.
TEST_BUDGET = search.Budget(iterations=2, rollout_cap=2)


@pytest.fixture(autouse=True)
def _tiny_search_budget() -> Iterator[None]:
    before = search.override
    search.override = TEST_BUDGET
    yield
    search.override = before
