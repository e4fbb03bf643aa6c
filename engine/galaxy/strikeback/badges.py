"""The expansion's tokens on a figure as short view badges: pose, Menace token, mark, poison,
criticals; and the rest of a multi-hex alien's base as `body` tokens."""

from __future__ import annotations

from engine.galaxy.state import GalaxyState
from engine.galaxy.strikeback import criticals
from engine.galaxy.strikeback.status import sb_state, sb_state_or_none
from engine.galaxy.strikeback.suits import suit_badges


def expansion_badges(state: GalaxyState, figure: str) -> list[str]:
    if sb_state_or_none(state) is None:
        return []
    out: list[str] = []
    pose = sb_state(state).poses.get(figure)
    if pose:
        out.append(pose)
    menace = sb_state(state).menace
    if menace is not None and menace.owner == figure:
        out.append(f"menace-{menace.level}")  # the Menacing Agent (11.3.1)
    if figure in sb_state(state).held:
        out.append("fights-on")  # a Master at 0 Health points fighting to the end of the round
    mine = sb_state(state).figures.get(figure)
    if mine is not None:
        if mine.mark:
            out.append(f"mark-{mine.mark}")
        if mine.poison:
            out.append(f"poison-{mine.poison}")
        for key in mine.criticals:
            token = criticals.tokens()[key]
            out.append(f"critical-{token.effect}-{token.level}")

    out += suit_badges(state, figure)
    return out


def body_tokens(state: GalaxyState) -> list[tuple[tuple[int, int], str]]:
    """(hex, alien id) for every hex of a multi-hex base other than the figure's own (11.8)."""
    if sb_state_or_none(state) is None:
        return []
    return [(c, alien) for alien, body in sb_state(state).bodies.items() for c in body]
