"""Table options of Power Grid (`/new powergrid key=value`)."""

from __future__ import annotations

from engine.core import N_, OptionSpec

OPTIONS: list[OptionSpec] = [
    OptionSpec("map", N_("Board side: Germany or USA (PG-1)."), "germany", ("germany", "usa")),
    OptionSpec(
        "regions",
        N_(
            "Play area: the players choose regions in turn (the default, PG-8, PG-D-3) "
            "or play a random connected set of regions."
        ),
        "choose",
        ("choose", "random"),
    ),
    OptionSpec(
        "hidden_money",
        N_("Show each player's money only to its owner until the game ends (PG-9)."),
        "no",
        ("no", "yes"),
    ),
]

DEFAULTS: dict[str, str] = {o.key: o.default for o in OPTIONS}
