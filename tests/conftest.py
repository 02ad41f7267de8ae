"""Test configuration shared by every test.

Hypothesis profiles (issue 27): `make test` and CI load "ci", which derandomises every property
test, so one commit always gives the same result and the same test count. `make fuzz` loads
"fuzz" with a fresh random seed per run to explore new games where a failure costs nothing;
whatever it finds becomes an explicit `@example` or a named regression test before the fix.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

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
