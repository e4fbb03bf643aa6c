"""Galaxy Defenders, as shipped: the core rules (the modules of this package) with the
Operation Strikeback expansion (`strikeback/`) plugged in through `expansion.py`.

This file is the one place that names both: the core modules never import the expansion
(tests/test_engine_structure.py checks it), and without `install` they play the core missions.
"""

from engine.galaxy.expansion import install
from engine.galaxy.game import GalaxyDefenders
from engine.galaxy.state import register_expansion_state
from engine.galaxy.strikeback.hooks import STRIKEBACK
from engine.galaxy.strikeback.status import StrikebackState
from engine.registry import register

install(STRIKEBACK)
register_expansion_state(StrikebackState)
GAME = GalaxyDefenders()
register(GAME)

__all__ = ["GAME", "STRIKEBACK", "GalaxyDefenders"]
