"""Power Grid (issue 3): rules, data, quotes and bots; chat layer in commands.py."""

from engine.powergrid import orders
from engine.powergrid.game import PowerGrid
from engine.powergrid.options import OPTIONS

orders.register()  # standing orders reach rules.py without rules.py importing orders.py
GAME = PowerGrid()

__all__ = ["GAME", "OPTIONS", "PowerGrid"]
