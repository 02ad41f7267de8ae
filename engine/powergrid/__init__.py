"""Power Grid (issue 3): rules, data, quotes and bots; chat layer in commands.py."""

from engine.powergrid.game import PowerGrid
from engine.powergrid.options import OPTIONS

GAME = PowerGrid()

__all__ = ["GAME", "OPTIONS", "PowerGrid"]
