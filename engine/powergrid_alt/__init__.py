"""Power Grid, alternative rules (issue 11): plants in cities, owned lines, pollution."""

from engine.powergrid_alt.game import PowerGridAlt
from engine.powergrid_alt.options import OPTIONS

GAME = PowerGridAlt()

__all__ = ["GAME", "OPTIONS", "PowerGridAlt"]
