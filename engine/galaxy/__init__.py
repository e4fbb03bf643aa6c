"""Galaxy Defenders (core rules): cooperative agents against Alien cards and Close Encounters."""

from engine.galaxy.game import GalaxyDefenders
from engine.registry import register

GAME = GalaxyDefenders()
register(GAME)

__all__ = ["GAME", "GalaxyDefenders"]
