"""Forlorn: Hope - Marines against Xenos on the derelict station Hope (square grid)."""

from engine.forlorn.game import ForlornGame
from engine.registry import register

GAME = register(ForlornGame())

__all__ = ["GAME", "ForlornGame"]
