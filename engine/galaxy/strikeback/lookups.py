"""Small reads of the expansion state that many Strikeback rules share (who wears which suit,
a figure's Critical tokens). They sit below the rule modules so those import one way."""

from __future__ import annotations

from engine.galaxy.state import GalaxyState
from engine.galaxy.strikeback import criticals
from engine.galaxy.strikeback.status import FigureStatus, StrikebackState, SuitState


def layer(state: GalaxyState) -> StrikebackState:
    assert state.strikeback is not None
    return state.strikeback


def status(state: GalaxyState, figure: str) -> FigureStatus:
    return layer(state).figures.setdefault(figure, FigureStatus())


def penalty(state: GalaxyState, figure: str, effect: str) -> int:
    """A held Critical's X for def / atk / move / hp (0 in a core game)."""
    if state.strikeback is None or figure not in state.strikeback.figures:
        return 0
    return criticals.penalty(state.strikeback.figures[figure], effect)


def worn(state: GalaxyState, agent_id: str) -> SuitState | None:
    """The suit this agent wears (None in a core game or out of a suit)."""
    if state.strikeback is None:
        return None
    return next((s for s in state.strikeback.suits.values() if s.pilot == agent_id), None)
