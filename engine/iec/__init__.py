"""Interplanetary Exploitation Companies (IEC): the fourth game (rules: shared/rules/iec.md)."""

from engine.iec.game import IEC

GAME = IEC()

__all__ = ["GAME", "IEC"]
