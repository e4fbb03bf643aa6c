"""The expansion's tokens in play: Mark (8.3), Poison (9.3.2), Critical tokens and piles (8.2)
and the Energy Shield stacks of expansion aliens (11.7). Plain pydantic data, kept in
`GalaxyState.strikeback` (None in a core game, and then absent from the saved state)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class FigureStatus(BaseModel):
    mark: int = 0  # 0, Mark 1 or Mark 2
    poison: int = 0  # 0, Poison 1 or Poison 2
    criticals: list[str] = Field(default_factory=list)  # keys of Critical tokens held


class CriticalPile(BaseModel):
    level: int
    draw: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)


class StrikebackState(BaseModel):
    high_impact: bool = True
    figures: dict[str, FigureStatus] = Field(default_factory=dict)  # agent or alien id
    stacks: dict[str, list[int]] = Field(default_factory=dict)  # alien id -> shields left
    piles: dict[str, CriticalPile] = Field(default_factory=dict)  # "1", "2"
    poses: dict[str, str] = Field(default_factory=dict)  # agent id -> crouching / prone
