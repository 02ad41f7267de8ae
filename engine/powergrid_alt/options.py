"""Table options of the variant: the base game's (map, regions, hidden money)."""

from __future__ import annotations

from engine.powergrid.options import DEFAULTS, OPTIONS

__all__ = ["DEFAULTS", "OPTIONS"]
