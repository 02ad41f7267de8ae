"""Table options of the variant: the base game's (map, regions, hidden money) and the rules
version (issue 17): version 2 plays Phase 3 and Phase 5 by everybody at once. A game stored
before the option existed has no value for it and replays as version 1 (rules.rules_version),
so its log still gives the stored state."""

from __future__ import annotations

from engine.core import N_, OptionSpec
from engine.powergrid.options import OPTIONS as BASE_OPTIONS

OPTIONS: list[OptionSpec] = [
    *BASE_OPTIONS,
    OptionSpec(
        "rules_version",
        N_(
            "2: resource purchase and bureaucracy are declared by everybody at once and "
            "carried out in the rules' order; 1: one player after another, as games started "
            "before this option."
        ),
        "2",
        ("1", "2"),
    ),
]

DEFAULTS: dict[str, str] = {o.key: o.default for o in OPTIONS}

__all__ = ["DEFAULTS", "OPTIONS"]
