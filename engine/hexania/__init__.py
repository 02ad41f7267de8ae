"""Hexania («Гексания»): the second boardchat game. See /work/shared/rules/hexania.md."""

from engine.hexania.game import Hexania

GAME = Hexania()

__all__ = ["GAME", "Hexania"]
