"""The Menace token of a Master Alien (11.3.1): which agent it hunts and how the token moves.

The token has a level (1 or 2) and an owner, the Menacing Agent. A wound the owner deals to
the Master Alien raises it to 2; a wound from anyone else lowers it to 1 or, already at 1,
hands it to that agent at level 1. With his Action the owner may raise or lower it; another
agent may use his Action to lower it from 2 to 1, or take it when it is at 1. The Master Alien
picks its target when it activates and keeps it for that activation.
"""

from __future__ import annotations

from pydantic import BaseModel

from engine.core.errors import RuleError


class Menace(BaseModel):
    owner: str
    level: int = 1


def enters_play(alpha: str) -> Menace:
    return Menace(owner=alpha, level=1)


def wounded_by(menace: Menace, agent: str) -> None:
    """The Master Alien took at least one wound from this agent (or his drone or NPC)."""
    if agent == menace.owner:
        menace.level = 2
    elif menace.level == 2:
        menace.level = 1
    else:
        menace.owner, menace.level = agent, 1


def action(menace: Menace, agent: str, level: int) -> None:
    """An agent spends his Action on the token: the owner sets it to 1 or 2; another agent
    lowers it to 1, or takes it (level 1) when it already is at 1."""
    if agent == menace.owner:
        if level not in (1, 2) or level == menace.level:
            raise RuleError("the Menacing Agent may only flip the token to its other level")
        menace.level = level
        return
    if level != 1:
        raise RuleError("another agent can only lower the Menace token or take it at level 1")
    if menace.level == 2:
        menace.level = 1
    else:
        menace.owner = agent


def target_at_activation(menace: Menace, archenemy: bool, closest: str) -> str:
    """With Archenemy the Master Alien targets the Menacing Agent, else the closest agent;
    the caller keeps this target for the whole activation."""
    return menace.owner if archenemy else closest
