"""Table options of IEC (`/new iec key=value`)."""

from __future__ import annotations

from engine.core import N_, OptionSpec
from engine.iec.scenario import scenario_ids

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "scenario",
        N_("Scenario file (map, deposits, parameters)"),
        "chat_standard",
        tuple(scenario_ids()),
    ),
    OptionSpec("mine_war", N_("Mine War expansion"), "on", ("on", "off")),
    OptionSpec(
        "rules_version",
        N_(
            "2: phases where no choice depends on another company's (power, mine laying, "
            "transmission, science, technologies) are declared by everybody at once; 1: one "
            "company after another, as games started before this option."
        ),
        "2",
        ("1", "2"),
    ),
)
