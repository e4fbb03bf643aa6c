"""The expansion's tokens on a figure as short view badges: pose, mark, poison, criticals."""

from __future__ import annotations

from engine.galaxy.state import GalaxyState
from engine.galaxy.strikeback import criticals


def expansion_badges(state: GalaxyState, figure: str) -> list[str]:
    if state.strikeback is None:
        return []
    out: list[str] = []
    pose = state.strikeback.poses.get(figure)
    if pose:
        out.append(pose)
    mine = state.strikeback.figures.get(figure)
    if mine is not None:
        if mine.mark:
            out.append(f"mark-{mine.mark}")
        if mine.poison:
            out.append(f"poison-{mine.poison}")
        for key in mine.criticals:
            token = criticals.tokens()[key]
            out.append(f"critical-{token.effect}-{token.level}")
    from engine.galaxy.strikeback.suits import suit_badges

    out += suit_badges(state, figure)
    return out
