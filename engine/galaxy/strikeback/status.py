"""The expansion's tokens on one figure (agent, drone, NPC or alien): Mark (8.3), Poison
(9.3.2) and Critical tokens (8.2). Plain pydantic data kept beside the core state."""

from __future__ import annotations

from pydantic import BaseModel, Field


class FigureStatus(BaseModel):
    mark: int = 0  # 0, Mark 1 or Mark 2
    poison: int = 0  # 0, Poison 1 or Poison 2
    criticals: list[str] = Field(default_factory=list)  # keys of Critical tokens held
    paralyzed: bool = False  # from a Critical token, until the next Refresh phase
