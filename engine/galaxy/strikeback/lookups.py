"""Small reads of the expansion state that many Strikeback rules share (who wears which suit,
a figure's Critical tokens). They sit below the rule modules so those import one way."""

from __future__ import annotations

from engine.galaxy.state import GalaxyState
from engine.galaxy.strikeback import criticals
from engine.galaxy.strikeback.status import (
    FigureStatus,
    StrikebackState,
    SuitState,
    sb_state,
    sb_state_or_none,
)


def layer(state: GalaxyState) -> StrikebackState:
    return sb_state(state)


def status(state: GalaxyState, figure: str) -> FigureStatus:
    return sb_state(state).figures.setdefault(figure, FigureStatus())


def penalty(state: GalaxyState, figure: str, effect: str) -> int:
    """A held Critical's X for def / atk / move / hp (0 in a core game)."""
    if sb_state_or_none(state) is None or figure not in sb_state(state).figures:
        return 0
    return criticals.penalty(sb_state(state).figures[figure], effect)


def worn(state: GalaxyState, agent_id: str) -> SuitState | None:
    """The suit this agent wears (None in a core game or out of a suit)."""
    if sb_state_or_none(state) is None:
        return None
    return next((s for s in sb_state(state).suits.values() if s.pilot == agent_id), None)
