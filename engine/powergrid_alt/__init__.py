"""Power Grid, alternative rules (issue 11): plants in cities, owned lines, pollution."""

from engine.powergrid.game import PowerGrid
from engine.powergrid_alt.game import PowerGridAlt
from engine.powergrid_alt.options import OPTIONS

GAME = PowerGridAlt()

# The explicit list of Power Grid variants (python-chess's `VARIANTS`): the base game first,
# then each subclass that overrides its named hooks.
VARIANTS: tuple[type[PowerGrid], ...] = (PowerGrid, PowerGridAlt)

__all__ = ["GAME", "OPTIONS", "VARIANTS", "PowerGridAlt"]
